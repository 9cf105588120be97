"""Issue 45, item 1, attacked from outside after the fixes were merged: a decision
withdrawn must stay withdrawn whatever order Slack's events arrive in, and a decision
made with the buttons is withdrawn when its post in the thread is deleted (as
handlers/listeners/decide.py promises). Signed HTTP requests against the strict fake
Slack, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.fake_slack import FakeSlack
from support.slackbot import Bot
from support.waiting import wait_until
from test_decide import click_decision, opened_modal, submit
from test_independent_review import bot_with, card
from test_requests import CHANNEL, CID, TUESDAY, Clock, _reply, command, requests
from test_review_surfaces import CLAIMED, NOTE
from test_review_withdraw import deleted, edited

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

BOB_SAYS = "不通过，缓存设计说不清"  # UBOB's decision and note: hidden from whoever is asked
OTHER_CHANNEL = "C999"


@pytest.fixture
def team_clock() -> Clock:
    return Clock(TUESDAY)


@pytest.fixture
def review(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path, team_clock: Clock
) -> Iterator[Bot]:
    yield from bot_with(fake_slack, db_target, tmp_path, team_clock)


def asked_and_bob_decided(bot: Bot) -> str:
    """U123 asks UANN and UBOB about 000; UBOB decides in the verdict's thread."""
    command(bot, "邀请 000 <@UANN> <@UBOB> 截止 周五", "ask")
    thread = bot.store.verdict_post(CID, CHANNEL)
    assert thread is not None
    bot.event(_reply("1800000000.000001", thread, BOB_SAYS, "UBOB"))
    wait_until("UBOB's request closed", lambda: not requests(bot)["UBOB"].open)
    bot.idle()
    return thread


@pytest.fixture(params=["everyone", "allowed users"])
def either(
    request: pytest.FixtureRequest,
    fake_slack: FakeSlack,
    db_target: str,
    tmp_path: Path,
    team_clock: Clock,
) -> Iterator[Bot]:
    """Everyone may see candidates, or only the users DEBRIEF_ALLOWED_USERS names (the
    bot's own user not among them)."""
    only = {"allowed_users_raw": "U123,UANN,UBOB"} if request.param != "everyone" else {}
    yield from bot_with(fake_slack, db_target, tmp_path, team_clock, **only)


def test_a_decision_made_with_the_buttons_is_withdrawn_when_its_post_is_deleted(
    either: Bot,
) -> None:
    bot = either
    thread = asked_and_bob_decided(bot)
    # UANN decides from the request DM's buttons: the bot posts it in the thread
    channel = bot.fake.dm_channel("UANN")
    [message] = bot.fake.messages(channel)
    [row] = [b for b in message["blocks"] if b.get("block_id", "").startswith("decide@")]
    clicked = click_decision(
        bot, message["ts"], "decide:hire", "hire", "UANN", channel, row["block_id"]
    )
    assert clicked == 200
    status, _ = submit(bot, opened_modal(bot), "hire", "思路清楚", user="UANN")
    assert status == 200
    wait_until("UANN's request closed", lambda: not requests(bot)["UANN"].open)
    bot.idle()
    assert "缓存设计说不清" in card(bot, "UANN", "ann-shown")
    [post] = [
        m
        for m in bot.fake.messages(CHANNEL)
        if m.get("thread_ts") == thread and "思路清楚" in str(m.get("text"))
    ]
    # the post is deleted (by an admin: Slack sends the bot's own message as it was)
    gone = deleted(post["ts"], thread, str(post["text"]), str(post["user"]))
    gone["previous_message"] |= {"bot_id": post["bot_id"], "app_id": post["app_id"]}
    assert bot.event(gone) == 200
    wait_until("UANN asked again", lambda: requests(bot)["UANN"].open)
    bot.idle()
    assert "缓存设计说不清" not in card(bot, "UANN", "ann-sealed")


def test_a_reply_delivered_after_its_deletion_stays_deleted(review: Bot) -> None:
    bot = review
    thread = asked_and_bob_decided(bot)
    # Slack's retry of UANN's reply comes after the event saying it was deleted
    assert bot.event(deleted("1800000000.000002", thread, "通过", "UANN")) == 200
    bot.idle()
    assert bot.event(_reply("1800000000.000002", thread, "通过", "UANN")) == 200
    bot.idle()
    assert requests(bot)["UANN"].open
    assert "缓存设计说不清" not in card(bot, "UANN", "ann-card")


def test_a_reply_delivered_after_its_edit_does_not_undo_the_edit(review: Bot) -> None:
    bot = review
    thread = asked_and_bob_decided(bot)
    # UANN replied 通过 and edited it into 再想想 (withdrawn); Slack delivers the edit
    # first, then (a retry) the reply as first posted
    taken_back = edited("1800000000.000002", thread, "通过", "再想想", "UANN")
    assert bot.event(taken_back) == 200
    bot.idle()
    assert bot.event(_reply("1800000000.000002", thread, "通过", "UANN")) == 200
    bot.idle()
    assert requests(bot)["UANN"].open
    c = bot.store.get_candidate(CID)
    assert c is not None and [d.reviewer for d in c.decisions] == ["UBOB"]
    assert "缓存设计说不清" not in card(bot, "UANN", "ann-card")
    assert bot.fake.calls("reactions.add") == [] or all(
        x.params["timestamp"] != "1800000000.000002" for x in bot.fake.calls("reactions.add")
    )


def test_an_older_edit_delivered_late_does_not_undo_a_newer_one(review: Bot) -> None:
    bot = review
    thread = asked_and_bob_decided(bot)
    bot.event(_reply("1800000000.000002", thread, "通过", "UANN"))
    wait_until("UANN's request closed", lambda: not requests(bot)["UANN"].open)
    # UANN edits 通过 → 再想想 → 不通过; Slack delivers the second edit first
    newer = edited("1800000000.000002", thread, "再想想", "不通过", "UANN")
    newer["message"]["edited"]["ts"] = "1800000000.000950"
    older = edited("1800000000.000002", thread, "通过", "再想想", "UANN")
    assert bot.event(newer) == 200
    bot.idle()
    assert bot.event(older) == 200
    bot.idle()
    assert not requests(bot)["UANN"].open  # their decision stands: 不通过
    assert [d.decision for d in bot.store.get_candidate(CID).decisions if d.reviewer == "UANN"] == [
        "no_hire"
    ]


def test_an_edit_delivered_after_the_deletion_stays_deleted(review: Bot) -> None:
    bot = review
    thread = asked_and_bob_decided(bot)
    bot.event(_reply("1800000000.000002", thread, "再想想", "UANN"))
    bot.idle()
    # UANN edits 再想想 into 通过, then deletes the reply; the edit comes last
    assert bot.event(deleted("1800000000.000002", thread, "通过", "UANN")) == 200
    bot.idle()
    assert bot.event(edited("1800000000.000002", thread, "再想想", "通过", "UANN")) == 200
    bot.idle()
    assert requests(bot)["UANN"].open
    c = bot.store.get_candidate(CID)
    assert c is not None and [d.reviewer for d in c.decisions] == ["UBOB"]
    assert "缓存设计说不清" not in card(bot, "UANN", "ann-card")


def test_an_older_edit_late_does_not_undo_a_newer_edit_back_to_the_same_text(
    review: Bot,
) -> None:
    bot = review
    thread = asked_and_bob_decided(bot)
    bot.event(_reply("1800000000.000002", thread, "通过", "UANN"))
    wait_until("UANN's request closed", lambda: not requests(bot)["UANN"].open)
    # UANN edits 通过 → 再想想 → 通过; the second edit (no change from the reply as
    # recorded) comes first, then the first
    newer = edited("1800000000.000002", thread, "再想想", "通过", "UANN")
    newer["message"]["edited"]["ts"] = "1800000000.000950"
    assert bot.event(newer) == 200
    bot.idle()
    assert bot.event(edited("1800000000.000002", thread, "通过", "再想想", "UANN")) == 200
    bot.idle()
    assert not requests(bot)["UANN"].open  # their decision stands: 通过
    decided = bot.store.get_candidate(CID)
    assert decided is not None
    assert [d.decision for d in decided.decisions if d.reviewer == "UANN"] == ["hire"]


def test_the_verdict_an_ask_reuses_quotes_no_note_to_the_reviewer_it_sends_there(
    review: Bot,
) -> None:
    bot = review
    # UBOB notes under the verdict in another channel; nobody is asked yet
    bot.fake.member_channels.add(OTHER_CHANNEL)
    bot.command("点评 000", name="first", user_id="U123", channel_id=OTHER_CHANNEL)
    wait_until("posted", lambda: bot.store.verdict_post(CID, OTHER_CHANNEL) is not None)
    there = bot.store.verdict_post(CID, OTHER_CHANNEL)
    assert there is not None
    bot.event({**_reply("1800000000.000001", there, NOTE, "UBOB"), "channel": OTHER_CHANNEL})
    wait_until("UBOB's note", lambda: bool(bot.store.get_candidate(CID).decisions))  # type: ignore[union-attr]
    bot.idle()
    # the verdict posted here while nobody is waited for: the note's warning is fair
    bot.command("点评 000", name="second", user_id="U123", channel_id=CHANNEL)
    wait_until("posted here", lambda: bot.store.verdict_post(CID, CHANNEL) is not None)
    bot.idle()
    here = bot.store.verdict_post(CID, CHANNEL)
    assert CLAIMED in str([m for m in bot.fake.messages(CHANNEL) if m["ts"] == here])
    # UANN is asked here: the ask's thread is that post, which UANN is sent to read
    command(bot, "邀请 000 <@UANN> 截止 周五", "ask")
    wait_until("UANN asked", lambda: "UANN" in requests(bot))
    bot.idle()
    assert bot.store.verdict_post(CID, CHANNEL) == here
    [verdict] = [m for m in bot.fake.messages(CHANNEL) if m["ts"] == here]
    assert CLAIMED not in str(verdict)
