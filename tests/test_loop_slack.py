"""The candidate is a person (issue 38), Slack's side: the loop card, the pick list of
candidates (not files), an interview's place in its loop, merging and splitting,
comparing, the handoff to the next interviewer and its refusal, `debrief ask`. Over
signed HTTP against the strict fake Slack, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.cli import debrief
from support.fake_slack import FakeSlack
from support.slackbot import Bot, all_text, start_bot
from support.waiting import wait_until
from test_card import visible

from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

PEOPLE = {"U123": "Recruiter", "ULEAD": "Lead", "UNEXT": "Next", "UOUT": "Outsider"}
FIRST = (
    "姓名：王小明\n岗位：后端工程师\n轮次：一面\n面试日期：2026-11-20\n面试官：李四\n"
    "从业年限：4年\n问题1：讲讲 Redis 的持久化？\n回答：\n"
    "问题2：TCP 三次握手？\n回答：SYN，SYN-ACK，ACK。\n点评：基础不错。沟通清楚，建议二面。\n"
)
SECOND = (
    "姓名：王小明\n岗位：后端工程师\n轮次：二面\n面试日期：2026-11-25\n面试官：赵六\n"
    "从业年限：4年\n问题1：讲讲你做过的调度系统？\n回答：做过 Go 写的任务调度。\n"
    "点评：项目经验扎实。可以进入终面。\n"
)
ANALYST = (
    "姓名：王小明\n岗位：数据分析师\n轮次：一面\n面试日期：2026-10-02\n面试官：钱七\n"
    "问题1：讲讲 A/B 测试？\n回答：做过。\n点评：不太合适。\n"
)
LILEI = (
    "姓名：李雷\n岗位：后端工程师\n轮次：一面\n面试日期：2026-11-21\n面试官：李四\n"
    "从业年限：2年\n问题1：讲讲 Redis 的持久化？\n回答：AOF 和 RDB。\n点评：可以。\n"
)


def index(bot: Bot, folder: Path, files: dict[str, str]) -> dict[str, str]:
    """The files indexed; -> each file's stem -> its interview's id."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, "utf-8")
    result = index_paths(bot.store, [folder])
    assert not result.failed and not result.skipped, result
    ids = {}
    for i in result.indexed:
        c = bot.store.get_candidate(i)
        assert c is not None
        ids[Path(c.source).stem] = i
    return ids


@pytest.fixture
def team(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[Bot]:
    fake_slack.users.update(PEOPLE)
    bot = start_bot(
        fake_slack,
        db_target,
        uploads=str(tmp_path / "uploads"),
        deciders_raw="ULEAD",
        allowed_users_raw="U123,ULEAD,UNEXT",
    )
    try:
        yield bot
    finally:
        bot.stop()


def ask(bot: Bot, text: str, name: str, user: str = "U123") -> dict[str, Any]:
    bot.command(text, name=name, user_id=user, channel_id="C123")
    bot.idle()
    return bot.replies(name)[-1]


def shown(message: dict[str, Any]) -> str:
    return "\n".join(visible(message))


def test_two_interviews_of_one_person_give_one_loop_card(team: Bot, tmp_path: Path) -> None:
    ids = index(team, tmp_path / "t", {"wang1.txt": FIRST, "wang2.txt": SECOND})
    card = ask(team, "总结 王小明", "loop")
    text = shown(card)
    assert visible(card)[0] == "王小明 · 后端工程师 · 2 场面试"
    assert "请选择" not in text  # not a pick list of files
    # each interview in date order: round · date · interviewers, decisions, first sentence
    assert text.index("一面 · 2026-11-20 · 面试官：李四") < text.index("二面 · 2026-11-25")
    assert "基础不错。" in text and "沟通清楚" not in text  # the verdict's first sentence
    assert "项目经验扎实。" in text
    assert "评审：还没有结论" in text and "未回答：问题1" in text
    # still open across the loop, marked with its round; no hiring decision yet
    assert "整个流程仍未回答的问题（1）" in text and "一面 · 问题1：讲讲 Redis 的持久化？" in text
    assert "还没有录用结论。" in text
    assert len(card["blocks"]) <= 50
    # an interview's own card: which of the candidate's interviews it is, and the loop
    own = ask(team, f"总结 {ids['wang2']}", "own")
    assert "第 2 场，共 2 场" in shown(own) and "整个面试流程" in shown(own)
    team.click(own, "open_view:9", name="to-loop")
    team.idle()
    [opened] = team.replies("to-loop")
    assert visible(opened)[0] == "王小明 · 后端工程师 · 2 场面试"
    # `全部` after an interview's id: the loop too
    assert visible(ask(team, f"总结 {ids['wang1']} 全部", "all"))[0].endswith("2 场面试")


def test_one_name_for_two_positions_is_a_pick_list_of_candidates(team: Bot, tmp_path: Path) -> None:
    files = {"wang1.txt": FIRST, "wang2.txt": SECOND, "wang3.txt": ANALYST}
    ids = index(team, tmp_path / "t", files)
    pick = ask(team, "总结 王小明", "pick")
    text = shown(pick)
    assert "“王小明”对应 2 位候选人" in text
    assert "*王小明 · 后端工程师*\n2 场面试 · 最近一场 2026-11-25" in text
    assert "*王小明 · 数据分析师*\n1 场面试 · 最近一场 2026-10-02" in text
    # a person with one interview keeps today's card: no "第 1 场"
    alone = shown(ask(team, f"总结 {ids['wang3']}", "alone"))
    assert "共 1 场" not in alone and "整个面试流程" not in alone


def test_merge_and_split_by_a_decider_only(team: Bot, tmp_path: Path) -> None:
    ids = index(team, tmp_path / "t", {"wang1.txt": FIRST, "wang2.txt": SECOND})
    refused = all_text(ask(team, f"拆分 {ids['wang2']}", "no"))
    assert "只有 DEBRIEF_DECIDERS 中的人" in refused and "未做任何改动" in refused
    loop = team.store.loop_of(ids["wang1"])
    assert loop is not None and len(loop.interviews) == 2

    split = all_text(ask(team, f"拆分 {ids['wang2']}", "split", user="ULEAD"))
    assert f"已拆分：`{ids['wang2']}` 不再算作 王小明 · 后端工程师 的面试" in split
    alone = team.store.loop_of(ids["wang1"])
    assert alone is not None and [iv.id for iv in alone.interviews] == [ids["wang1"]]
    assert "请选择" in shown(ask(team, "总结 王小明", "two"))  # two candidates now

    merged = all_text(ask(team, f"合并 {ids['wang1']} {ids['wang2']}", "merge", user="ULEAD"))
    assert "已合并" in merged and "共 2 场面试（一面、二面）" in merged
    again = team.store.loop_of(ids["wang2"])
    assert again is not None and len(again.interviews) == 2
    wait_until(
        "the merge and the split audited",
        lambda: (
            {("ULEAD", "unlink"), ("ULEAD", "link")}
            <= {(e.who, e.what.split(":")[0]) for e in team.store.audit_log()}
        ),
    )


def test_compare_side_by_side(team: Bot, tmp_path: Path) -> None:
    index(team, tmp_path / "t", {"wang1.txt": FIRST, "wang2.txt": SECOND, "li.txt": LILEI})
    text = shown(ask(team, "对比 王小明 李雷", "compare"))
    assert "对比 2 位候选人" in text
    assert "2 场面试（一面、二面）" in text and "1 场面试（一面）" in text
    assert "回答了 2/3 题 · 1 题仍未回答" in text  # 王小明: Redis is still open
    assert "回答了 1/1 题 · 0 题仍未回答" in text
    assert "4 年经验" in text and "2 年经验" in text
    assert "录用结论：还没有" in text
    assert "请这样写" in all_text(ask(team, "对比 王小明", "one"))


def test_handoff_dm_and_its_refusal(team: Bot, tmp_path: Path) -> None:
    ids = index(team, tmp_path / "t", {"wang1.txt": FIRST, "wang2.txt": SECOND})
    said = all_text(ask(team, "交接 王小明 <@UNEXT>", "handoff"))
    assert "已把 王小明 · 后端工程师 的交接私信发给 <@UNEXT>" in said
    [opened] = [c.params["users"] for c in team.fake.calls("conversations.open")]
    assert opened == "UNEXT"
    channel = team.fake.dm_channel("UNEXT")
    [dm] = team.fake.messages(channel)
    text = all_text(dm)
    assert "<@U123> 请你面试 王小明 · 后端工程师 的下一轮" in text
    assert "请再问这些问题" in text and "一面 · 问题1：讲讲 Redis 的持久化？" in text
    assert "评审没有提出" in text
    # each interview one click away
    values = [b["accessory"]["value"] for b in dm["blocks"] if b.get("accessory")]
    assert any(ids["wang1"] in v for v in values) and any(ids["wang2"] in v for v in values)
    wait_until(
        "the handoff audited",
        lambda: any(e.what == "handoff:UNEXT" for e in team.store.audit_log()),
    )

    no = all_text(ask(team, "交接 王小明 <@UOUT>", "refused"))
    assert "没有发给 <@UOUT>：没有查看候选人信息的权限" in no
    assert [c.params["users"] for c in team.fake.calls("conversations.open")] == ["UNEXT"]


def test_debrief_ask_renders_the_loop(team: Bot, tmp_path: Path, db_target: str) -> None:
    index(team, tmp_path / "t", {"wang1.txt": FIRST, "wang2.txt": SECOND})
    out = debrief("ask", "/candidate 总结 王小明", "--db", db_target).stdout
    assert "王小明 · 后端工程师 · 2 场面试" in out and "一面 · 问题1" in out
