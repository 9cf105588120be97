"""Never claim what was not found (issue 36): a transcript in which no question was found
says so wherever questions are counted (the card, the unanswered list and the overview,
the list, the digest, App Home, `debrief ask`), with why, and is never "all answered";
one without a summary or a verdict says so where they would be shown; `show --json` and
`index --json` carry the `warnings` codes. Over signed HTTP against the strict fake
Slack, and through the CLI in-process, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.cli import Ran
from support.cli import debrief as run_debrief
from support.fake_slack import FakeSlack
from support.slackbot import Bot, all_text, start_bot
from test_card import ask, visible
from test_home import open_home, section_of

from bot.app import web_client
from bot.digest import Digester
from handlers.views.cards import summary_view, verdict_views
from store.indexer import index_paths
from store.models import Candidate

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
# a file with labels but no `问题N` and no table of questions: no summary, no verdict
BARE = (
    "姓名：李雷\n岗位：后端工程师\n从业年限：3年\n简介：写了三年 Go 的后端工程师，做过调度系统。\n"
)
# the same with a summary and a verdict: only the questions are missing
NOTED = (
    "韩梅梅沟通顺畅，项目经历扎实。对调度系统理解较深。\n"
    "姓名：韩梅梅\n岗位：后端工程师\n从业年限：5年\n简介：做过五年存储。\n点评：建议进入下一轮。\n"
)
WHY_ZH = "没有找到问题：文件里没有“问题N”标签，也没有问题表格。"
WHY_EN = "No questions found: the file has no “Question N” labels and no table of questions."
ALL_ANSWERED = ("都回答了", "已回答 0 题", "0 题，0 题未回答", "answered every", "0 answered")


def write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, "utf-8")
    return folder


def index(bot: Bot, folder: Path, files: dict[str, str]) -> None:
    result = index_paths(bot.store, [write(folder, files)])
    assert not result.failed and not result.skipped, result
    assert all(not c.questions for c in map(bot.store.get_candidate, result.indexed) if c)


def shown(message: dict[str, Any]) -> str:
    return "\n".join(visible(message))


def claims_nothing(text: str) -> None:
    for claim in ALL_ANSWERED:
        assert claim not in text, claim


def test_the_card_says_no_questions_were_found_and_why(bot: Bot, tmp_path: Path) -> None:
    index(bot, tmp_path / "t", {"lilei.txt": BARE, "han.txt": NOTED})
    card = shown(ask(bot, "总结 lilei"))
    assert WHY_ZH in card
    assert "这份记录没有面试总结。" in card and "这份记录没有点评。" in card
    claims_nothing(card)
    noted = shown(ask(bot, "总结 han", name="han"))
    assert WHY_ZH in noted and "这份记录没有面试总结。" not in noted
    assert "建议进入下一轮。" in noted
    # the unanswered list of that candidate: no questions found, never all answered
    bot.command("未回答 lilei", name="open")
    [reply] = bot.replies("open")
    text = shown(reply)
    assert WHY_ZH in text
    claims_nothing(text)


def test_the_overview_never_counts_it_as_all_answered(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> None:
    alone = start_bot(fake_slack, db_target, uploads=str(tmp_path / "up"))
    try:
        index(alone, tmp_path / "t", {"lilei.txt": BARE})
        text = shown(ask(alone, "未回答"))
        assert "所有候选人都回答了全部问题" not in text
        assert "1 位候选人的记录里没有找到问题" in text
        claims_nothing(text)
    finally:
        alone.server.stop()


def test_overview_with_open_questions_names_the_ones_without(bot: Bot, tmp_path: Path) -> None:
    index(bot, tmp_path / "t", {"lilei.txt": BARE, "han.txt": NOTED})
    text = shown(ask(bot, "未回答"))
    assert "000_9e6b3ecb0732fcf3" in text  # the seeds' open questions are listed as before
    assert "另有 2 位候选人的记录里没有找到问题" in text


def test_list_digest_and_home_say_no_questions_found(bot: Bot, tmp_path: Path) -> None:
    index(bot, tmp_path / "t", {"lilei.txt": BARE})
    rows = [t for t in visible(ask(bot, "列表")) if t.startswith("*李雷")]
    assert rows == ["*李雷 · 后端工程师* · 3 年经验\n没有找到问题"]

    digester = Digester(
        bot.settings.model_copy(update={"digest_channel": "CHIRE"}),
        bot.store,
        web_client(bot.settings),
    )
    assert digester.run(force=True) == "sent"
    [call] = bot.fake.wait_for("chat.postMessage")
    digest = all_text({"blocks": call.json_param("blocks")})
    assert "*李雷 · 后端工程师* · 3 年经验 · 没有找到问题" in digest

    new = all_text({"blocks": section_of(open_home(bot), "昨天以来有新面试记录的候选人")})
    assert "李雷 · 后端工程师 · 3 年经验\\n没有找到问题" in new


def test_in_english(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> None:
    english = start_bot(fake_slack, db_target, uploads=str(tmp_path / "up"), locale="en")
    try:
        index(english, tmp_path / "t", {"lilei.txt": BARE})
        card = shown(ask(english, "summary lilei"))
        assert WHY_EN in card
        assert "This transcript has no summary." in card
        assert "This transcript has no verdict." in card
        claims_nothing(card)
        open_list = shown(ask(english, "unanswered lilei", name="open"))
        assert WHY_EN in open_list
        claims_nothing(open_list)
        overview = shown(ask(english, "unanswered", name="overview"))
        assert "no questions were found in 1 transcript(s)" in overview
        assert "Every candidate answered every question." not in overview
        listed = shown(ask(english, "list", name="list"))
        assert "3 yrs\nno questions found" in listed
    finally:
        english.server.stop()


# -- the command line ----------------------------------------------------------------------


def debrief(db: str, *args: str, **env: str) -> Ran:
    return run_debrief(*args, "--db", db, env=env)


def test_index_and_show_json_carry_the_warnings(db_target: str, tmp_path: Path) -> None:
    folder = write(tmp_path / "t", {"lilei.txt": BARE, "han.txt": NOTED})
    done = debrief(db_target, "index", str(SEEDS), str(folder), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["warnings"] == [
        {"path": str(folder / "han.txt"), "id": "han", "warnings": ["no_questions"]},
        {
            "path": str(folder / "lilei.txt"),
            "id": "lilei",
            "warnings": ["no_questions", "no_summary", "no_verdict"],
        },
    ]
    again = json.loads(debrief(db_target, "index", str(folder), "--json").stdout)
    assert again["warnings"] == []  # nothing indexed: nothing to say
    shown_json = json.loads(debrief(db_target, "show", "lilei", "--json").stdout)
    assert shown_json["warnings"] == ["no_questions", "no_summary", "no_verdict"]
    assert json.loads(debrief(db_target, "show", "han", "--json").stdout)["warnings"] == [
        "no_questions"
    ]
    seed = json.loads(debrief(db_target, "show", "000", "--json").stdout)
    assert seed["warnings"] == []


def test_the_command_line_says_it_in_its_locale(db_target: str, tmp_path: Path) -> None:
    folder = write(tmp_path / "t", {"lilei.txt": BARE})
    done = debrief(db_target, "index", str(folder))
    assert done.returncode == 0, done.stderr
    assert f"{folder / 'lilei.txt'}：没有找到问题、没有面试总结、没有点评" in done.stderr
    listed = debrief(db_target, "list").stdout
    assert "lilei  李雷  后端工程师  3 年经验  没有找到问题  无点评" in listed
    text = debrief(db_target, "show", "lilei").stdout
    assert WHY_ZH in text and "这份记录没有面试总结。" in text
    claims_nothing(text)
    asked = debrief(db_target, "ask", "/candidate 总结 lilei").stdout
    assert WHY_ZH in asked
    claims_nothing(asked)
    asked = debrief(db_target, "ask", "/candidate 未回答 lilei").stdout
    assert WHY_ZH in asked
    claims_nothing(asked)
    english = debrief(db_target, "index", str(folder), "--json", DEBRIEF_LOCALE="en")
    assert english.returncode == 0
    (folder / "lilei.txt").write_text(BARE + "\n", "utf-8")  # changed: indexed again
    again = debrief(db_target, "index", str(folder), DEBRIEF_LOCALE="en")
    assert f"{folder / 'lilei.txt'}: no questions found, no summary, no verdict" in again.stderr
    english_list = debrief(db_target, "list", DEBRIEF_LOCALE="en").stdout
    assert "no questions found" in english_list


# -- a meeting export's card (the model as the meeting reader gives it) -------------------


def test_a_meeting_export_says_it_has_no_summary_and_no_verdict() -> None:
    c = Candidate(id="m1", position="后端工程师", kind="meeting")
    card = shown(summary_view(c, "zh").payload())
    assert "这是会议记录导出，没有总结和点评。" in card
    assert "没有找到问题：这份会议记录里，没有一轮发言是在问候选人问题。" in card
    assert "这份记录没有点评。" not in card and "这份记录没有面试总结。" not in card
    verdict = shown(verdict_views(c, "en", None)[0].payload())
    assert "This is a meeting transcript export: it has no summary and no verdict." in verdict


def test_the_people_without_questions_are_counted_as_people(db_target: str, tmp_path: Path) -> None:
    """Two interviews of 李雷 (one position) with no question found, and 韩梅梅's: the
    overview's "另有 N 位候选人" counts two people, not three files (issue 38)."""
    from store.factory import open_store

    folder = tmp_path / "people"
    folder.mkdir()
    (folder / "lilei_1.txt").write_text(BARE + "轮次：一面\n", "utf-8")
    (folder / "lilei_2.txt").write_text(BARE + "轮次：二面\n", "utf-8")
    (folder / "hanmeimei.txt").write_text(NOTED, "utf-8")
    store = open_store(db_target)
    try:
        assert not index_paths(store, [folder]).failed
        assert store.count_without_questions() == 2
    finally:
        store.close()
