"""Lists that count candidates count people (issue 38): `未回答` without a name, the
daily digest and App Home show one line a candidate (a person: their interviews one
loop), naming the round of each interview it lists; the handoff and compare keep to
independent review; the help lists the new subcommands. Over signed HTTP against the
strict fake Slack, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.cli import debrief
from support.fake_slack import FakeSlack
from support.slackbot import Bot, all_text, start_bot
from test_home import open_home, section_of
from test_loop_slack import index

from bot.app import web_client
from bot.digest import Digester

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

OPEN = "问题1：讲讲 Redis 的持久化？\n回答：\n问题2：TCP 三次握手？\n回答：SYN，SYN-ACK，ACK。\n"
WANG_1 = "姓名：王小明\n岗位：后端工程师\n轮次：一面\n面试日期：2026-11-20\n面试官：李四\n" + OPEN
WANG_2 = "姓名：王小明\n岗位：后端工程师\n轮次：二面\n面试日期：2026-11-25\n面试官：赵六\n" + OPEN
OTHERS = ("李雷", "韩梅梅", "张伟", "刘洋", "陈静", "杨帆")


def eight_files_of_seven_people() -> dict[str, str]:
    files = {"wang1.txt": WANG_1, "wang2.txt": WANG_2}
    for i, name in enumerate(OTHERS):
        files[f"p{i}.txt"] = (
            f"姓名：{name}\n岗位：后端工程师\n轮次：一面\n面试日期：2026-11-0{i + 1}\n" + OPEN
        )
    return files


@pytest.fixture
def team(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[Bot]:
    fake_slack.users.update({"U123": "Recruiter", "U777": "Reviewer"})
    bot = start_bot(fake_slack, db_target, uploads=str(tmp_path / "uploads"))
    try:
        yield bot
    finally:
        bot.stop()


def texts(blocks: list[dict[str, Any]]) -> list[str]:
    return [b["text"]["text"] for b in blocks if b.get("type") == "section" and b.get("text")]


def wang(lines: list[str]) -> str:
    """The one line naming 王小明 (there must be exactly one)."""
    [line] = [x for x in lines if "王小明" in x]
    return line


def test_the_overview_the_digest_and_home_count_people(team: Bot, tmp_path: Path) -> None:
    index(team, tmp_path / "t", eight_files_of_seven_people())

    # `未回答` without a name: 7 people, his line names both rounds
    team.command("未回答", name="overview", user_id="U123", channel_id="C123")
    [overview] = team.replies("overview")
    text = all_text(overview)
    assert "共 7 位" in text and "共 8 位" not in text
    line = wang(texts(overview["blocks"]))
    assert "一面、二面" in line and "2 题未回答" in line  # both interviews' open questions
    [his] = [b for b in overview["blocks"] if "王小明" in b.get("text", {}).get("text", "")]
    team.click(overview, his["accessory"]["action_id"], name="his-loop")
    team.idle()
    [loop] = team.replies("his-loop")
    assert loop["blocks"][0]["text"]["text"] == "王小明 · 后端工程师 · 2 场面试"

    # the digest: each section counts people, his line names both rounds
    settings = team.settings.model_copy(update={"digest_channel": "CHIRE"})
    assert Digester(settings, team.store, web_client(team.settings)).run(force=True) == "sent"
    [call] = team.fake.wait_for("chat.postMessage")
    blocks = call.json_param("blocks") if call.is_json else json.loads(call.params["blocks"])
    said = texts(blocks)
    for title in (
        "*有新面试记录的候选人（7）*",
        "*等待结论（7），最早的在前*",
        "*有未回答的问题（7）*",
    ):
        assert title in said, said
    lines = [x for x in said if "王小明" in x]
    assert len(lines) == 3 and all("一面、二面" in x for x in lines), lines

    # App Home: new transcripts and unanswered questions, one line a person
    home = open_home(team, "U777")
    new = texts(section_of(home, "昨天以来有新面试记录的候选人"))
    assert new[0].strip("*").endswith("（7）") and "一面、二面" in wang(new)
    unanswered = texts(section_of(home, "有未回答问题的候选人"))
    assert unanswered[0].strip("*").endswith("（7）") and "一面、二面" in wang(unanswered)


def test_one_interview_s_line_names_its_round(team: Bot, tmp_path: Path) -> None:
    index(team, tmp_path / "t", {"lilei.txt": WANG_1.replace("王小明", "李雷")})
    team.command("未回答", name="overview", user_id="U123", channel_id="C123")
    [overview] = team.replies("overview")
    [line] = [x for x in texts(overview["blocks"]) if "李雷" in x]
    assert "李雷 · 后端工程师 · 一面 · 2026-11-20" in line


def test_the_help_lists_the_new_subcommands(team: Bot, db_target: str) -> None:
    team.command("帮助", name="help", user_id="U123", channel_id="C123")
    [reply] = team.replies("help")
    text = all_text(reply)
    for said in ("总结 &lt;候选人&gt; 全部", "合并 &lt;面试A&gt;", "拆分", "对比", "交接"):
        assert said in text, said
    out = debrief("ask", "/candidate help", "--db", db_target, env={"DEBRIEF_LOCALE": "en"})
    assert out.returncode == 0, out.stderr
    for said in ("summary <who> all", "merge <interview A>", "split", "compare", "handoff"):
        assert said in out.stdout, said


# -- independent review: the handoff and compare say who decided, not what -----------------

CONCERN = "沟通有些绕，系统设计偏弱"


def decided_and_asked(bot: Bot, tmp_path: Path) -> dict[str, str]:
    """王小明's two interviews: ULEAD said no-hire on the first (with a concern); UNEXT
    is asked for a decision on the second, and has not given it."""
    ids = index(bot, tmp_path / "t", {"wang1.txt": WANG_1, "wang2.txt": WANG_2})
    first, second = ids["wang1"], ids["wang2"]
    bot.store.record_post("C123", "1700000000.000001", first, "verdict")
    bot.store.record_decision(
        "C123", "1700000000.000002", "1700000000.000001", first, "ULEAD", "no_hire", CONCERN
    )
    bot.store.record_post("C123", "1700000000.000003", second, "verdict")
    assert bot.store.record_requests(
        second, ["UNEXT"], "U123", "2099-01-01T00:00:00+00:00", "C123", "1700000000.000003"
    )
    return ids


@pytest.fixture
def review(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[Bot]:
    fake_slack.users.update({"U123": "Recruiter", "ULEAD": "Lead", "UNEXT": "Next"})
    bot = start_bot(fake_slack, db_target, uploads=str(tmp_path / "uploads"))
    try:
        yield bot
    finally:
        bot.stop()


def handoff_to(bot: Bot, user: str) -> str:
    bot.command(f"交接 王小明 <@{user}>", name=f"handoff-{user}", user_id="U123", channel_id="C123")
    bot.replies(f"handoff-{user}")
    bot.idle()
    [dm] = bot.fake.messages(bot.fake.dm_channel(user))
    return all_text(dm)


def test_the_handoff_to_a_reviewer_asked_says_who_decided_not_what(
    review: Bot, tmp_path: Path
) -> None:
    decided_and_asked(review, tmp_path)
    asked = handoff_to(review, "UNEXT")  # asked about his second interview, undecided
    assert CONCERN not in asked and "不通过" not in asked
    assert "独立评审" in asked and "<@ULEAD>" in asked
    free = handoff_to(review, "U123")  # the recruiter, asked nothing: everything
    assert CONCERN in free and "独立评审" not in free


def test_a_request_s_line_in_app_home_names_its_round(review: Bot, tmp_path: Path) -> None:
    decided_and_asked(review, tmp_path)
    [line] = texts(section_of(open_home(review, "UNEXT"), "请你给结论"))[1:]
    assert "王小明 · 后端工程师 · 二面 · 2026-11-25" in line


def test_compare_for_a_reviewer_asked_says_who_decided_not_what(
    review: Bot, tmp_path: Path
) -> None:
    decided_and_asked(review, tmp_path)
    index(review, tmp_path / "u", {"li.txt": WANG_1.replace("王小明", "李雷")})
    review.command("对比 王小明 李雷", name="asked", user_id="UNEXT", channel_id="C123")
    [asked] = review.replies("asked")
    text = all_text(asked)
    assert "不通过" not in text and "独立评审" in text and "<@ULEAD>" in text
    review.command("对比 王小明 李雷", name="free", user_id="U123", channel_id="C123")
    [free] = review.replies("free")
    assert "1 不通过" in all_text(free) and "独立评审" not in all_text(free)
