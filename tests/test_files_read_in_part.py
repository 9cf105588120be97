"""When the reader is not sure it says less (issue 46). An interview whose questions could
not be read (`questions_read` False) shows "questions could not be read from this file"
and its text as written, escaped and cut within Slack's limits, and no count, no
"unanswered", no "all answered", no ⚠ claim anywhere; its warnings say
`questions_unread`, and its text stays searchable. A question the file lists with
nothing of its answer (`answer_recorded` False) is "answer not recorded", counted
neither as answered nor unanswered. Over signed HTTP against the strict fake Slack and
through the CLI in-process, on SQLite and PostgreSQL.

The reader that decides so is the reader helpers' (store/transcripts/reader.py
`read_interviews`); here it is a stand-in that reads labelled files and, for a file
marked so, gives what the reader gives for such a file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.cli import Ran
from support.cli import debrief as run_debrief
from support.slackbot import Bot, all_text
from support.waiting import wait_until
from test_card import ask, visible
from test_home import open_home, section_of

from bot import cli
from bot.app import web_client
from bot.digest import Digester
from handlers.blocks import MAX_BLOCKS, MAX_SECTION, MESSAGE_BUDGET, json_size
from handlers.views.cards import summary_view
from store.indexer import index_paths
from store.models import Candidate, Question, Transcript
from store.transcripts import reader
from store.transcripts.parser import parse_transcript

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

UNREAD_MARK = "#unread\n"  # the stand-in reader: a file whose questions it cannot read
UNRECORDED_MARK = "#unrecorded\n"  # a bare list of the questions asked

# what a file says, as written: its text is the card's when its questions are unread
WRITTEN = (
    "面试记录 王芳 后端\n"
    "- 聊了 Kafka 分区 & 副本 <重点>\n"
    "- 调度器的实现（她说得很好）\n"
    "整体还行，建议进入下一轮。"
)
UNREAD = (
    UNREAD_MARK + "姓名：王芳\n岗位：后端工程师\n从业年限：4年\n"
    "面试总结：第2题回答得很好，Kafka 讲得很清楚。\n点评：建议通过。\n"
)
BARE_LIST = (
    UNRECORDED_MARK + "姓名：李雷\n岗位：数据工程师\n从业年限：3年\n"
    "面试总结：第2题 Flink 讲得很好。\n"
    "问题1：讲讲 Kafka 的分区？\n回答：无\n"
    "问题2：Flink 的 checkpoint 是怎么做到精确一次的？\n回答：无\n"
    "问题3：为什么离职？\n回答：无\n"
    "点评：建议通过。\n"
)
COUNTS = ("已回答", "未回答 ", "题未回答", "都回答了", "answered", "unanswered", "⚠")
STATED = ("未能从文件中读出问题",)


def read_in_part(data: bytes, name: str, source: str | None = None) -> list[Transcript]:
    """The labelled reader, and for a marked file what the reader gives for such a one."""
    text = data.decode("utf-8")
    t = parse_transcript(data, name, source)
    if text.startswith(UNREAD_MARK):
        return [t.model_copy(update={"questions": [], "questions_read": False, "body": WRITTEN})]
    if text.startswith(UNRECORDED_MARK):
        bare = [
            Question(number=q.number, question=q.question, answer_recorded=False)
            for q in t.questions
        ]
        return [t.model_copy(update={"questions": bare})]
    return [t]


@pytest.fixture(autouse=True)
def _reader_in_part(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "read_interviews", read_in_part)
    # `debrief index` reads in bounded worker processes, where the stand-in reader is not
    # the one used: here the command reads in this process (what is read is not the point)
    monkeypatch.setattr(cli, "default_workers", lambda: 0)


def write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, "utf-8")
    return folder


def shown(message: dict[str, Any]) -> str:
    return "\n".join(visible(message))


def claims_no_count(text: str) -> None:
    for said in COUNTS:
        assert said not in text, said


# -- Slack ---------------------------------------------------------------------------------


def test_the_card_shows_the_text_as_written_and_no_count(bot: Bot, tmp_path: Path) -> None:
    done = index_paths(bot.store, [write(tmp_path / "t", {"wangfang.txt": UNREAD})])
    assert done.indexed == ["wangfang"] and not done.failed
    card = ask(bot, "总结 wangfang")
    text = shown(card)
    assert "未能从文件中读出问题。下面是文件的原文。" in text
    assert "原文" in text
    assert "- 聊了 Kafka 分区 &amp; 副本 &lt;重点&gt;" in text  # escaped, as written
    assert "整体还行，建议进入下一轮。" in text
    claims_no_count(text)  # "第2题回答得很好" backs no claim: there is no question 2
    assert "没有找到问题" not in text
    # a question asked for: never "there are 0"
    asked = shown(ask(bot, "问题 wangfang 2", name="q2"))
    assert "未能从 wangfang 的文件中读出问题" in asked and "共 0 题" not in asked
    # the unanswered list of that candidate: no count, no "all answered"
    open_list = shown(ask(bot, "未回答 wangfang", name="open"))
    assert "未能从文件中读出问题" in open_list
    assert "都回答了" not in open_list and "0" not in open_list.replace("2026", "")


def test_a_long_text_is_cut_within_slacks_limits_and_said(bot: Bot, tmp_path: Path) -> None:
    long_text = "\n".join(
        f"第{n}段：" + "她讲了很多关于分布式系统的经验。" * 12 for n in range(200)
    )

    def long_reader(data: bytes, name: str, source: str | None = None) -> list[Transcript]:
        t = parse_transcript(data, name, source)
        return [t.model_copy(update={"questions": [], "questions_read": False, "body": long_text})]

    c = Candidate(id="long", position="后端", questions_read=False, body=long_text)
    card = summary_view(c, "zh").payload()
    assert len(card["blocks"]) <= MAX_BLOCKS and json_size(card["blocks"]) <= MESSAGE_BUDGET
    assert all(len(b["text"]["text"]) <= MAX_SECTION for b in card["blocks"] if b.get("text"))
    text = shown(card)
    assert "原文较长，这里只显示前" in text and f"（共 {len(long_text)} 字）" in text
    assert "第0段" in text and "第199段" not in text
    reader_was = reader.read_interviews
    reader.read_interviews = long_reader  # type: ignore[assignment]
    try:
        index_paths(bot.store, [write(tmp_path / "t", {"long.txt": "姓名：赵六\n岗位：后端\n"})])
    finally:
        reader.read_interviews = reader_was  # type: ignore[assignment]
    over_http = ask(bot, "总结 long")
    assert "原文较长，这里只显示前" in shown(over_http)
    english = summary_view(c, "en").payload()
    assert f"of its {len(long_text)} characters are shown" in shown(english)


def test_answers_not_recorded_count_neither_way(bot: Bot, tmp_path: Path) -> None:
    index_paths(bot.store, [write(tmp_path / "t", {"lilei.txt": BARE_LIST})])
    text = shown(ask(bot, "总结 lilei"))
    assert "文件列出了 3 道问题，但没有记录回答：无法判断是否作答。" in text
    assert "未记录回答：" in text and "问题 2 Flink 的 checkpoint" in text
    claims_no_count(text)  # and "第2题 Flink 讲得很好" is no ⚠ claim: nothing says it was not
    one = shown(ask(bot, "问题 lilei 2", name="q2"))
    assert "未记录回答" in one and "（未作答）" not in one
    open_list = shown(ask(bot, "未回答 lilei", name="open"))
    assert "文件列出了 3 道问题，但没有记录回答" in open_list
    assert "都回答了" not in open_list
    # the overview: never "everyone answered", and not counted among the open
    overview = shown(ask(bot, "未回答", name="overview"))
    assert "lilei" not in overview.split("另有")[0]
    assert "所有候选人都回答了全部问题" not in overview


def test_lists_digest_and_home_say_why_nothing_is_counted(bot: Bot, tmp_path: Path) -> None:
    index_paths(
        bot.store, [write(tmp_path / "t", {"wangfang.txt": UNREAD, "lilei.txt": BARE_LIST})]
    )
    rows = [t for t in visible(ask(bot, "列表")) if t.startswith(("*王芳", "*李雷"))]
    assert sorted(rows) == [
        "*李雷 · 数据工程师* · 3 年经验\n3 题未记录回答",
        "*王芳 · 后端工程师* · 4 年经验\n未能从文件中读出问题",
    ]
    digester = Digester(
        bot.settings.model_copy(update={"digest_channel": "CHIRE"}),
        bot.store,
        web_client(bot.settings),
    )
    assert digester.run(force=True) == "sent"
    [call] = bot.fake.wait_for("chat.postMessage")
    digest = all_text({"blocks": call.json_param("blocks")})
    assert "*王芳 · 后端工程师* · 4 年经验 · 未能从文件中读出问题" in digest
    assert "*李雷 · 数据工程师* · 3 年经验 · 3 题未记录回答" in digest
    new = all_text({"blocks": section_of(open_home(bot), "昨天以来有新面试记录的候选人")})
    assert "王芳 · 后端工程师 · 4 年经验\\n未能从文件中读出问题" in new
    assert "李雷 · 数据工程师 · 3 年经验\\n3 题未记录回答" in new


# -- the command line ----------------------------------------------------------------------


def debrief(db: str, *args: str, **env: str) -> Ran:
    return run_debrief(*args, "--db", db, env=env)


def test_index_show_list_and_stats(db_target: str, tmp_path: Path) -> None:
    folder = write(tmp_path / "t", {"wangfang.txt": UNREAD, "lilei.txt": BARE_LIST})
    done = debrief(db_target, "index", str(folder), "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["warnings"] == [
        {"path": str(folder / "wangfang.txt"), "id": "wangfang", "warnings": ["questions_unread"]}
    ]
    unread = json.loads(debrief(db_target, "show", "wangfang", "--json").stdout)
    assert unread["warnings"] == ["questions_unread"]
    assert (unread["questions_read"], unread["questions"], unread["body"]) == (False, [], WRITTEN)
    assert unread["unsupported"] == []  # the summary's "第2题回答得很好" backs nothing
    bare = json.loads(debrief(db_target, "show", "lilei", "--json").stdout)
    # the keys of a file read whole, as ever: questions_read and body only where unread
    assert "questions_read" not in bare and "body" not in bare and bare["warnings"] == []
    assert [
        (q["number"], q["answered"], q["answer_recorded"], q["unanswered_reason"])
        for q in bare["questions"]
    ] == [(1, False, False, None), (2, False, False, None), (3, False, False, None)]
    assert bare["unsupported"] == []

    text = debrief(db_target, "show", "wangfang").stdout
    assert "未能从文件中读出问题。下面是文件的原文。" in text and WRITTEN in text
    claims_no_count(text)
    text = debrief(db_target, "show", "lilei").stdout
    assert "文件列出了 3 道问题，但没有记录回答" in text and "【未记录回答】" in text
    assert "【未作答】" not in text and "⚠" not in text
    listed = debrief(db_target, "list").stdout
    assert "wangfang  王芳  后端工程师  4 年经验  未能从文件中读出问题" in listed
    assert "lilei  李雷  数据工程师  3 年经验  3 题未记录回答" in listed
    rows = {r["id"]: r for r in json.loads(debrief(db_target, "list", "--json").stdout)}
    assert [
        (rows[i]["questions"], rows[i]["unanswered"], rows[i].get("questions_read"))
        for i in ("wangfang", "lilei")
    ] == [(None, None, False), (0, 0, None)]  # no count where none was read
    assert "unrecorded" not in rows["wangfang"] and rows["lilei"]["unrecorded"] == 3
    english = debrief(db_target, "list", DEBRIEF_LOCALE="en").stdout
    assert "questions could not be read from this file" in english
    assert "3 with no answer recorded" in english
    stats = json.loads(debrief(db_target, "stats", "--json").stdout)
    assert (stats["questions"], stats["unanswered"]) == (0, 0)
    assert (stats["unrecorded"], stats["questions_unread"]) == (3, 1)
    said = debrief(db_target, "stats").stdout
    assert "未记录回答" in said and "未能读出问题的面试" in said
    # the text as written stays searchable where the questions are unread
    found = json.loads(debrief(db_target, "search", "调度器", "--json").stdout)
    assert [h["id"] for h in found] == ["wangfang"]


SECOND_ROUND = (
    "姓名：王芳\n岗位：后端工程师\n从业年限：4年\n轮次：二面\n"
    "问题1：讲讲调度器？\n回答：做过三年。\n点评：建议通过。\n"
)


def test_the_loop_never_says_nothing_is_open_of_an_unread_round(
    bot: Bot, db_target: str, tmp_path: Path
) -> None:
    folder = write(tmp_path / "t", {"wangfang.txt": UNREAD, "wangfang2.txt": SECOND_ROUND})
    assert index_paths(bot.store, [folder]).indexed == ["wangfang", "wangfang2"]
    card = shown(ask(bot, "王芳"))
    assert "未能从文件中读出问题" in card
    assert "读出的问题里没有仍未回答的；有的面试未能读出问题或没有记录回答，无法判断。" in card
    assert "整个流程没有仍未回答的问题。" not in card
    said = debrief(db_target, "loop", "王芳").stdout
    assert "未能从文件中读出问题" in said and "没有仍未回答的问题" not in said
    # the next interviewer's handoff: not "the earlier rounds left no question unanswered"
    bot.fake.users.update({"UNEXT": "Next"})
    bot.command("交接 wangfang2 <@UNEXT>", name="handoff", channel_id="C123")
    bot.idle()
    [handed] = wait_until("the DM", lambda: bot.fake.messages(bot.fake.dm_channel("UNEXT")))
    text = all_text(handed)
    assert "有的面试未能读出问题或没有记录回答" in text and "未能从文件中读出问题" in text
    assert "之前的面试没有留下未回答的问题" not in text


def test_compare_says_why_nothing_is_counted(bot: Bot, tmp_path: Path) -> None:
    index_paths(
        bot.store, [write(tmp_path / "t", {"wangfang.txt": UNREAD, "lilei.txt": BARE_LIST})]
    )
    text = shown(ask(bot, "对比 王芳 李雷", "compare"))
    assert "未能从文件中读出问题" in text and "3 题未记录回答" in text
    assert "回答了 0/0 题" not in text and "没有找到问题" not in text
    assert "仍未回答" not in text
