"""One catalogue of words (handlers/i18n.py): the command line and Slack say the same
thing in the same words, and the catalogue loads without Bolt.

Each case runs the real `debrief` process; `debrief ask` renders Slack's own views."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
# no position, no years: both surfaces say they are not known
UNKNOWN = "问题1：你好？\n考察目标：礼貌\n回答：\n点评：可以\n"


def debrief(db: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        env=full | {"DEBRIEF_DB": db} | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_catalogue_loads_no_bolt() -> None:
    check = (
        "import sys, handlers.i18n, bot.cli_text\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('slack_bolt'))\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.both_backends
def test_the_command_line_and_slack_use_the_same_words(db_target: str, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "unknown.txt").write_text(UNKNOWN, "utf-8")
    indexed = debrief(db_target, "index", str(SEEDS), str(folder))
    assert indexed.returncode == 0, indexed.stderr

    listing = debrief(db_target, "list").stdout
    unknown = next(line for line in listing.splitlines() if line.startswith("unknown"))
    slack = debrief(db_target, "ask", "/candidate 总结 unknown").stdout
    for word in ("岗位未知", "年限未知"):
        assert word in unknown and word in slack, (word, unknown, slack)
    assert "1 题，1 题未回答" in unknown  # as Slack counts them (`questions_count`)
    show = debrief(db_target, "show", "unknown").stdout
    assert "岗位未知" in show and "年限未知" in show

    seed = next(line for line in listing.splitlines() if line.startswith("000"))
    assert "3 年经验" in seed
    assert "3 年经验" in debrief(db_target, "ask", "/candidate 总结 000").stdout

    english = debrief(db_target, "list", DEBRIEF_LOCALE="en").stdout
    assert "position unknown" in english and "years unknown" in english
    assert "3 yrs" in english and "1 questions, 1 unanswered" in english


def test_every_entry_has_both_languages_with_the_same_placeholders() -> None:
    """A word said in one language only, or a value one of them forgets to say, would be a
    KeyError (or a missing fact) in Slack the day that language is chosen."""
    import string

    from handlers.i18n import _STRINGS

    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    for key, words in _STRINGS.items():
        assert set(words) == {"zh", "en"}, key
        assert all(words[lang].strip() for lang in ("zh", "en")), key
        assert fields(words["zh"]) == fields(words["en"]), key
