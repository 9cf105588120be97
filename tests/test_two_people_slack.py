"""Telling two people apart (issue 45, items 7 and 8), Slack's side, over signed HTTP
against the strict fake Slack on SQLite and PostgreSQL: after `拆分`, a later interview
of the same name and position counts as no one's, and its card and its upload message
offer the people it matches as buttons (told apart by rounds, dates and interviewers)
and "someone else"; a click links it, audited, for deciders only. The pick list of
candidates tells two people of one name and position apart. A key with two names is
shown as a conflict on the card, not merged."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.fake_slack import FakeSlack
from support.slackbot import Bot, start_bot
from support.web_api import FakeFile
from test_loop_slack import PEOPLE, ask, index, shown
from test_uploads import reply_to, share

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL


def zhang(date: str, round_: str, interviewer: str, extra: str = "") -> str:
    return (
        f"姓名：张伟\n岗位：后端工程师\n轮次：{round_}\n面试日期：{date}\n面试官：{interviewer}\n"
        f"{extra}问题1：讲讲 JVM？\n回答：堆和栈。\n点评：基础不错。\n"
    )


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


@pytest.fixture
def split(team: Bot, tmp_path: Path) -> dict[str, str]:
    """张伟 A (zw_a, 李四) and 张伟 B (zw_b, 王五), grouped as one, then `拆分 zw_b`."""
    folder = tmp_path / "t"
    ids = index(
        team,
        folder,
        {
            "zw_a.txt": zhang("2026-11-01", "一面", "李四"),
            "zw_b.txt": zhang("2026-11-03", "一面", "王五"),
        },
    )
    assert team.store.candidate_key(ids["zw_a"]) == team.store.candidate_key(ids["zw_b"])
    said = shown(ask(team, f"拆分 {ids['zw_b']}", "split", user="ULEAD"))
    assert "已拆分" in said
    return ids


def button_beside(message: dict[str, Any], words: str) -> str:
    """The action id of the button on the section that says `words`."""
    for block in message["blocks"]:
        text = (block.get("text") or {}).get("text", "")
        if words in text and block.get("accessory"):
            return str(block["accessory"]["action_id"])
    raise AssertionError(f"no button beside {words!r}")


def test_a_later_interview_of_two_people_alike_is_picked_on_its_card(
    team: Bot, split: dict[str, str], tmp_path: Path
) -> None:
    b2 = index(team, tmp_path / "t", {"zw_b2.txt": zhang("2026-11-10", "二面", "王五")})["zw_b2"]
    keys = {i: team.store.candidate_key(i) for i in (split["zw_a"], split["zw_b"], b2)}
    assert keys[b2] not in (keys[split["zw_a"]], keys[split["zw_b"]])
    card = ask(team, f"总结 {b2}", "card", user="ULEAD")
    text = shown(card)
    assert "与 2 位候选人的姓名和岗位都对得上" in text and "第 1 场" not in text
    # each person told apart: rounds, dates, interviewers
    assert "一面 2026-11-01 · 面试官：李四" in text and "一面 2026-11-03 · 面试官：王五" in text
    assert "是另一个人" in text
    # someone who may not merge is refused, nothing changes
    team.click(card, button_beside(card, "面试官：王五"), name="refused", user="U123")
    team.idle()
    assert "DEBRIEF_DECIDERS" in shown(team.replies("refused")[-1])
    assert team.store.candidate_key(b2) == keys[b2]
    # the decider picks B
    team.click(card, button_beside(card, "面试官：王五"), name="picked", user="ULEAD")
    team.idle()
    picked = shown(team.replies("picked")[-1])
    assert "已选定" in picked and "共 2 场" in picked
    assert team.store.candidate_key(b2) == keys[split["zw_b"]]
    assert any(
        e.what == f"link:{keys[split['zw_b']]}" and e.candidate == b2 and e.who == "ULEAD"
        for e in team.store.audit_log()
    )
    # picked: the card offers no choice any more
    assert "是另一个人" not in shown(ask(team, f"总结 {b2}", "after", user="ULEAD"))


def test_the_upload_message_offers_the_pick_and_someone_else_makes_a_third(
    team: Bot, split: dict[str, str]
) -> None:
    data = zhang("2026-11-12", "二面", "赵六").encode()
    ts = share(team, FakeFile("F45", "zw_c.txt", data), user="ULEAD")
    team.idle()
    reply = reply_to(team, ts)
    text = shown(reply)
    assert "与 2 位候选人的姓名和岗位都对得上" in text and "是另一个人" in text
    new = next(c.id for c in team.store.list_candidates() if "赵六" in c.interviewers)
    before = team.store.candidate_key(new)
    team.click(reply, "open_view:25", name="someone", user="ULEAD", ephemeral=False)
    team.idle()
    assert "新的候选人" in shown(team.replies("someone")[-1])
    assert team.store.candidate_key(new) == before  # its own, and now picked
    # a fourth 张伟 matches three people now, and joins none
    pick = ask(team, "总结 张伟", "pick")
    said = shown(pick)
    assert "“张伟”对应 3 位候选人" in said
    lines = [b["text"]["text"] for b in pick["blocks"][1:] if b.get("type") == "section"]
    assert len(lines) == len(set(lines)) == 3
    assert any("李四" in line for line in lines) and any("赵六" in line for line in lines)


def test_two_people_of_one_name_with_identical_facts_are_not_two_identical_lines(
    team: Bot, tmp_path: Path
) -> None:
    same = zhang("2026-11-01", "一面", "李四")
    ids = index(team, tmp_path / "t", {"x1.txt": same, "x2.txt": same + "\n"})
    ask(team, f"拆分 {ids['x2']}", "split", user="ULEAD")
    for words in ("总结 张伟", "未回答 张伟"):  # candidates, then interviews
        pick = ask(team, words, f"pick-{len(words)}")
        assert "请选择" in shown(pick)
        lines = [b["text"]["text"] for b in pick["blocks"][1:] if b.get("type") == "section"]
        assert len(lines) == len(set(lines)) == 2


def test_a_key_with_two_names_is_a_conflict_on_the_card_not_a_merge(
    team: Bot, tmp_path: Path
) -> None:
    files = {
        "kz.txt": zhang("2026-11-01", "一面", "李四", "候选人编号：c-1042\n"),
        "kl.txt": "姓名：李娜\n岗位：数据分析师\n轮次：一面\n面试日期：2026-11-02\n面试官：钱七\n"
        "候选人编号：C-1042\n问题1：讲讲 SQL？\n回答：会。\n点评：可以。\n",
    }
    ids = index(team, tmp_path / "t", files)
    assert team.store.candidate_key(ids["kz"]) != team.store.candidate_key(ids["kl"])
    for own, other in (("kz", "李娜 · 数据分析师"), ("kl", "张伟 · 后端工程师")):
        text = shown(ask(team, f"总结 {ids[own]}", f"card-{own}"))
        assert "⚠ 候选人编号" in text and other in text and "第 1 场，共 2 场" not in text
