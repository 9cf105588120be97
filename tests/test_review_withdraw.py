"""A decision withdrawn (issue 45, item 1): a reviewer's reply deleted, or edited into no
decision, reopens their request: the others' decisions and notes are hidden from them
again, `/candidate 邀请 X` lists them as waited for, the reminders take them up again;
that the decision had shown them the others is said in the thread's status and audited.
Signed HTTP requests against the strict fake Slack, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from support.fake_slack import FakeSlack
from support.slackbot import Bot
from support.waiting import wait_until
from test_home import open_home, section_of
from test_independent_review import HIDDEN, ask_as, bot_with, card
from test_requests import (
    CHANNEL,
    CID,
    SHANGHAI,
    TUESDAY,
    Clock,
    _reply,
    audit,
    command,
    requests,
    status,
)

from bot.app import web_client
from bot.remind import Reminder

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

BOB_SAYS = "不通过，缓存设计说不清"  # UBOB's decision and note: hidden from whoever is asked
WITHDREW = "在看到其他人的结论之后撤回过结论"
MONDAY = datetime(2026, 12, 7, 10, 0, tzinfo=SHANGHAI)  # past Friday's deadline


@pytest.fixture
def review(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path, team_clock: Clock
) -> Iterator[Bot]:
    yield from bot_with(fake_slack, db_target, tmp_path, team_clock)


@pytest.fixture
def team_clock() -> Clock:
    return Clock(TUESDAY)


def deleted(ts: str, thread: str, text: str, user: str) -> dict[str, Any]:
    """Slack's event for a reply deleted in the thread."""
    return {
        "type": "message",
        "subtype": "message_deleted",
        "channel": CHANNEL,
        "hidden": True,
        "deleted_ts": ts,
        "ts": "1800000000.000900",
        "event_ts": "1800000000.000900",
        "previous_message": {
            "type": "message",
            "user": user,
            "text": text,
            "ts": ts,
            "thread_ts": thread,
        },
    }


def edited(ts: str, thread: str, before: str, after: str, user: str) -> dict[str, Any]:
    """Slack's event for a reply edited in the thread."""
    return {
        "type": "message",
        "subtype": "message_changed",
        "channel": CHANNEL,
        "hidden": True,
        "ts": "1800000000.000901",
        "event_ts": "1800000000.000901",
        "message": {
            "type": "message",
            "user": user,
            "text": after,
            "ts": ts,
            "thread_ts": thread,
            "edited": {"user": user, "ts": "1800000000.000901"},
        },
        "previous_message": {"type": "message", "user": user, "text": before, "ts": ts},
    }


def decides(bot: Bot, ts: str, thread: str, text: str, user: str) -> None:
    bot.event(_reply(ts, thread, text, user))
    wait_until(f"{user}'s request closed", lambda: not requests(bot)[user].open)
    bot.idle()


def reminded(bot: Bot, now: datetime) -> set[str]:
    run = Reminder(bot.settings, bot.store, web_client(bot.settings)).run(now)
    return {r.reviewer for r in run.reminders if r.items}


def test_a_decision_deleted_or_edited_away_asks_the_reviewer_again(review: Bot) -> None:
    bot = review
    command(bot, "邀请 000 <@UANN> <@UBOB> <@UCAT> 截止 周五", "ask")
    thread = bot.store.verdict_post(CID, CHANNEL)
    assert thread is not None
    decides(bot, "1800000000.000001", thread, BOB_SAYS, "UBOB")

    # UANN decides, reads UBOB's note, then deletes the reply
    decides(bot, "1800000000.000002", thread, "待定", "UANN")
    assert "缓存设计说不清" in card(bot, "UANN", "ann-shown")
    assert bot.event(deleted("1800000000.000002", thread, "待定", "UANN")) == 200
    wait_until("UANN asked again", lambda: requests(bot)["UANN"].open)
    # UCAT decides, then edits the reply into no decision
    decides(bot, "1800000000.000003", thread, "通过", "UCAT")
    assert bot.event(edited("1800000000.000003", thread, "通过", "再想想", "UCAT")) == 200
    wait_until("UCAT asked again", lambda: requests(bot)["UCAT"].open)
    bot.idle()
    # the ✅ that acknowledged UCAT's decision is taken back: it is no decision now
    [unreacted] = bot.fake.calls("reactions.remove")
    assert unreacted.params["timestamp"] == "1800000000.000003"

    # the others are hidden from both again, on every surface
    for user in ("UANN", "UCAT"):
        sealed = card(bot, user, f"{user}-card")
        assert "缓存设计说不清" not in sealed and "*不通过*" not in sealed and HIDDEN in sealed
        assert "缓存设计说不清" not in ask_as(bot, user)
        full = command(bot, "点评 000 全文", f"{user}-full", user=user)
        assert "缓存设计说不清" not in full
    # who was asked: both waited for, not decided
    command(bot, "邀请 000", "list", user="U123")
    [body] = [b["text"]["text"] for b in bot.replies("list")[-1]["blocks"] if "• <@" in str(b)]
    lines = {line.split("<@")[1][:4]: line for line in body.split("\n")}
    assert lines["UANN"].endswith("等待中") and lines["UCAT"].endswith("等待中"), body
    assert "已决定（不通过）" in lines["UBOB"], body
    # the thread's status: waited for again, and that they had seen the others
    said = status(bot)
    first = said.split("\n")[0]
    assert "<@UANN>" in first and "<@UCAT>" in first and "已决定：<@UBOB>" in said
    assert f"{WITHDREW}：<@UANN>、<@UCAT>" in said and "全部已决定" not in said
    # the audit has each
    wait_until(
        "the withdrawals audited",
        lambda: (
            {("UANN", "withdrew:after_others_shown", CID)}
            | {("UCAT", "withdrew:after_others_shown", CID)}
            <= set(audit(bot))
        ),
    )
    # App Home asks them again
    for user in ("UANN", "UCAT"):
        assert section_of(open_home(bot, user), "请你给结论（1）"), user
    # Monday, past Friday's deadline: the reminders take them up again
    assert reminded(bot, MONDAY) == {"UANN", "UCAT"}

    # UANN decides again: the status still says they had seen the others first
    decides(bot, "1800000000.000004", thread, "通过", "UANN")
    wait_until("the status edited", lambda: "<@UANN>" not in status(bot).split("\n")[0])
    assert f"{WITHDREW}：<@UANN>、<@UCAT>" in status(bot)


def test_a_decision_withdrawn_before_anyone_else_spoke_is_no_concern(review: Bot) -> None:
    bot = review
    command(bot, "邀请 000 <@UANN> <@UBOB> 截止 周五", "ask")
    thread = bot.store.verdict_post(CID, CHANNEL)
    assert thread is not None
    decides(bot, "1800000000.000001", thread, "通过", "UANN")  # nobody else has spoken
    assert bot.event(deleted("1800000000.000001", thread, "通过", "UANN")) == 200
    wait_until("UANN asked again", lambda: requests(bot)["UANN"].open)
    bot.idle()
    wait_until("audited", lambda: ("UANN", "withdrew", CID) in audit(bot))
    assert "<@UANN>" in status(bot).split("\n")[0] and WITHDREW not in status(bot)
    # a note that is no decision, deleted, asks nobody again
    decides(bot, "1800000000.000002", thread, "不通过", "UBOB")
    bot.event(_reply("1800000000.000003", thread, "补充：沟通不错", "UBOB"))
    bot.idle()
    assert bot.event(deleted("1800000000.000003", thread, "补充：沟通不错", "UBOB")) == 200
    bot.idle()
    assert not requests(bot)["UBOB"].open
    assert ("UBOB", "withdrew", CID) not in audit(bot)
