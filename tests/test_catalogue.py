"""The catalogue of words (each surface's beside it, one lookup: handlers/i18n.py): the
command line and Slack say the same thing in the same words, and it loads without Bolt.

Each case runs `debrief` (the CLI in-process); `debrief ask` renders Slack's own views."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.cli import Ran
from support.cli import debrief as run_debrief

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
# no position, no years: both surfaces say they are not known
UNKNOWN = "问题1：你好？\n考察目标：礼貌\n回答：\n点评：可以\n"


def debrief(db: str, *args: str, **env: str) -> Ran:
    return run_debrief(*args, env={"DEBRIEF_DB": db} | env)


def test_the_catalogue_loads_no_bolt() -> None:
    check = (
        "import sys, handlers.i18n, bot.cli_text\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('slack_bolt'))\n"
        "assert not loaded, loaded\n"
    )
    # a fresh interpreter: the point is what importing them loads, in a process of its own
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

    from bot.words import CATALOGUE

    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    for table in CATALOGUE.tables:  # Slack's, the reasons a file is refused, the CLI's
        for key, words in table.items():
            assert set(words) == {"zh", "en"}, key
            assert all(words[lang].strip() for lang in ("zh", "en")), key
            assert fields(words["zh"]) == fields(words["en"]), key


def test_no_word_is_defined_twice_across_the_catalogues() -> None:
    """Each surface keeps its words beside it; a key in two of them would be said by
    whichever table came last."""
    from collections import Counter

    from bot.words import CATALOGUE

    counts = Counter(key for table in CATALOGUE.tables for key in table)
    assert not [key for key, n in counts.items() if n > 1]


KEY = re.compile(r"[a-z][a-z0-9_]*")


def _keys_said(path: Path) -> Iterator[tuple[int, str, bool]]:
    """The keys a module says: `t(locale, "key")`, `Failure("key")`, `has(f"n_{x}")`…,
    each as (line, key or f-string prefix, whether it is a prefix)."""

    def literal(node: ast.expr) -> Iterator[tuple[int, str, bool]]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if KEY.fullmatch(node.value):  # not a message said as it is
                yield node.lineno, node.value, False
        elif isinstance(node, ast.IfExp):
            yield from literal(node.body)
            yield from literal(node.orelse)
        elif isinstance(node, ast.JoinedStr) and node.values:
            first = node.values[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                yield node.lineno, first.value, True

    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        where = {"t": 1, "has": 0, "Failure": 0, "BadUsage": 0, "SettingsError": 0}.get(name)
        if where is not None and len(node.args) > where:
            yield from literal(node.args[where])


def test_every_key_the_code_says_has_words() -> None:
    """A key misspelled in handlers/ would be a KeyError in Slack; one in bot/ would print
    the key itself. Slack's code reads Slack's catalogue only; bot/ reads its own over it."""
    import bot.words
    import handlers.i18n

    root = Path(__file__).resolve().parent.parent
    missing = []
    for package, catalogue in (("handlers", handlers.i18n), ("bot", bot.words)):
        keys = set().union(*catalogue.CATALOGUE.tables)
        for path in sorted((root / package).rglob("*.py")):
            for line, key, prefix in _keys_said(path):
                found = any(k.startswith(key) for k in keys) if prefix else key in keys
                if not found:
                    missing.append(f"{path.relative_to(root)}:{line} {key}")
    assert not missing
