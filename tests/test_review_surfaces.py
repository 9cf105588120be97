"""Independent review on every surface (issue 45, item 2): the ⚠ lines of unsupported
claims are derived from the reviewers' notes, so a reviewer still asked reads none built
from the others' (the full verdict, its button on the card, `debrief ask --user`, the
claim counts of App Home), nor does a verdict posted in a channel while anyone asked is
waited for (`/candidate 点评`, `邀请` in a second channel), nor on another interview of
the person asked about. Signed HTTP requests against the strict fake Slack, on SQLite
and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.fake_slack import FakeSlack
from support.slackbot import Bot, all_text
from support.waiting import wait_until
from test_home import open_home, section_of
from test_independent_review import FIRST, SECOND, ask_as, bot_with, card
from test_requests import CHANNEL, CID, TUESDAY, Clock, _reply, command, posts, requests

from bot.app import web_client
from bot.digest import Digester
from store.indexer import index_paths
from store.models import DecisionRecord

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

# UBOB's decision, whose note credits question 2 of 000, never answered
NOTE = "不通过，他对All-Reduce的优缺点讲得很清楚。"
CLAIMED = "All-Reduce的优缺点"  # as the ⚠ line quotes it
OTHER_CHANNEL = "C999"


@pytest.fixture
def review(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path, team_clock: Clock
) -> Iterator[Bot]:
    yield from bot_with(fake_slack, db_target, tmp_path, team_clock)


@pytest.fixture
def team_clock() -> Clock:
    return Clock(TUESDAY)


def invited(bot: Bot, channel: str = OTHER_CHANNEL) -> None:
    """The bot invited to a second channel."""
    bot.fake.member_channels.add(channel)


def ask_two_then_bob_notes(bot: Bot) -> str:
    """U123 asks UANN and UBOB about 000; UBOB decides with a note that claims."""
    command(bot, "邀请 000 <@UANN> <@UBOB> 截止 周五", "ask")
    thread = bot.store.verdict_post(CID, CHANNEL)
    assert thread is not None
    bot.event(_reply("1800000000.000001", thread, NOTE, "UBOB"))
    wait_until("UBOB's request closed", lambda: not requests(bot)["UBOB"].open)
    bot.idle()
    return thread


def posted_in(bot: Bot, channel: str, since: int) -> str:
    return json.dumps(posts(bot, channel)[since:], ensure_ascii=False)


def test_a_reviewer_asked_reads_no_warning_built_from_the_others_notes(review: Bot) -> None:
    bot = review
    ask_two_then_bob_notes(bot)
    # the recruiter reads the warning the note earned
    assert CLAIMED in command(bot, "点评 000 全文", "recruiter", user="U123")
    assert CLAIMED in ask_as(bot, "U123", "/candidate 点评 000 全文")

    # UANN, still asked: not in the card, the full verdict, its button, nor `ask --user`
    sealed = card(bot, "UANN", "ann-card")
    assert CLAIMED not in sealed and "不通过" not in sealed
    full = command(bot, "点评 000 全文", "ann-full", user="UANN")
    assert CLAIMED not in full and "评审备注" not in full
    assert "⚠ 总结说" in full  # the transcript's own claims are still said
    assert CLAIMED not in ask_as(bot, "UANN", "/candidate 点评 000 全文")
    bot.command("总结 000", name="ann-card2", user_id="UANN", channel_id=CHANNEL)
    [message] = bot.replies("ann-card2")
    assert bot.click(message, "open_view:0", name="ann-button", user="UANN") == 200
    bot.idle()
    button = all_text(bot.replies("ann-button")[-1])
    assert "点评" in button and CLAIMED not in button and "评审备注" not in button

    # once UANN decided, they read it too
    thread = bot.store.verdict_post(CID, CHANNEL)
    assert thread is not None
    bot.event(_reply("1800000000.000002", thread, "待定", "UANN"))
    wait_until("UANN's request closed", lambda: not requests(bot)["UANN"].open)
    bot.idle()
    assert CLAIMED in command(bot, "点评 000 全文", "ann-after", user="UANN")


def test_a_verdict_posted_in_any_channel_shows_no_note_while_anyone_asked_waits(
    review: Bot,
) -> None:
    bot = review
    ask_two_then_bob_notes(bot)
    before = len(posts(bot))
    bot.command("点评 000", name="post", user_id="U123", channel_id=CHANNEL)
    wait_until("the verdict posted", lambda: len(posts(bot)) > before)
    bot.idle()
    posted = posted_in(bot, CHANNEL, before)
    assert "⚠" in posted and CLAIMED not in posted and "评审备注" not in posted, posted

    # asked in a second channel: the verdict posted there says nothing of the note either
    invited(bot)
    said = command(bot, "邀请 000 <@UCAT> 截止 周五", "ask-elsewhere", channel=OTHER_CHANNEL)
    assert "UCAT" in requests(bot), said
    bot.idle()
    elsewhere = posted_in(bot, OTHER_CHANNEL, 0)
    assert "⚠" in elsewhere and CLAIMED not in elsewhere and "评审备注" not in elsewhere


def test_a_verdict_posted_by_the_ask_itself_shows_no_note(review: Bot) -> None:
    bot = review
    # UBOB noted on the verdict posted in another channel, before anyone was asked
    invited(bot)
    bot.command("点评 000", name="first", user_id="U123", channel_id=OTHER_CHANNEL)
    wait_until("posted", lambda: bot.store.verdict_post(CID, OTHER_CHANNEL) is not None)
    thread = bot.store.verdict_post(CID, OTHER_CHANNEL)
    assert thread is not None
    bot.event({**_reply("1800000000.000001", thread, NOTE, "UBOB"), "channel": OTHER_CHANNEL})
    wait_until("UBOB's note", lambda: any(d.reviewer == "UBOB" for d in decisions(bot)))
    bot.idle()
    # asking UANN here posts the verdict for UANN to reply under: without the note
    command(bot, "邀请 000 <@UANN> 截止 周五", "ask")
    wait_until("UANN asked", lambda: "UANN" in requests(bot))
    bot.idle()
    here = posted_in(bot, CHANNEL, 0)
    assert "⚠" in here and CLAIMED not in here


def decisions(bot: Bot, cid: str = CID) -> list[DecisionRecord]:
    c = bot.store.get_candidate(cid)
    return list(c.decisions) if c is not None else []


def test_the_counts_on_app_home_and_the_digest_leave_the_hidden_notes_out(
    review: Bot,
) -> None:
    bot = review
    transcript_only = _claim_count(bot, "U123")  # before any note: the transcript's own
    ask_two_then_bob_notes(bot)
    assert _claim_count(bot, "U123") == transcript_only + 1  # the recruiter: with the note
    assert section_of(open_home(bot, "UANN"), "请你给结论（1）")
    assert _claim_count(bot, "UANN") == transcript_only  # the reviewer asked: without
    settings = bot.settings.model_copy(update={"digest_channel": "CHIRE"})
    digester = Digester(settings, bot.store, web_client(bot.settings))
    [line] = [x for x in digester.data().decided if x.id == CID]
    assert line.claims == transcript_only


def _claim_count(bot: Bot, user: str) -> int:
    """The ⚠ count App Home shows `user` on 000's line of "you were asked" (else of any
    section that lists it)."""
    home = open_home(bot, user)
    texts = [
        b["text"]["text"]
        for b in home["blocks"]
        if b.get("type") == "section" and CID[:3] in json.dumps(b, ensure_ascii=False)
    ]
    assert texts, f"000 is not on {user}'s App Home"
    found = [int(x.split("⚠ ")[1].split(" ")[0]) for x in texts if "⚠ " in x]
    return max(found, default=0)


def test_on_another_interview_of_the_person_asked_about(review: Bot, tmp_path: Path) -> None:
    bot = review
    folder = tmp_path / "loop"
    folder.mkdir()
    (folder / "wang-1.txt").write_text(FIRST, "utf-8")
    (folder / "wang-2.txt").write_text(SECOND, "utf-8")
    indexed = index_paths(bot.store, [folder])
    assert not indexed.failed
    ids = {Path(c.source).stem: c.id for c in map(bot.store.get_candidate, indexed.indexed) if c}
    first, second = ids["wang-1"], ids["wang-2"]
    # UBOB's note on round one credits its question 1, never answered
    bot.command(f"点评 {first}", name="first", user_id="U123", channel_id=CHANNEL)
    wait_until("posted", lambda: bot.store.verdict_post(first, CHANNEL) is not None)
    thread = bot.store.verdict_post(first, CHANNEL)
    assert thread is not None
    noted = "通过，他对Redis的持久化讲得很清楚。"
    bot.event(_reply("1800000000.000001", thread, noted, "UBOB"))
    wait_until("UBOB's note", lambda: decisions(bot, first))
    bot.idle()
    assert "Redis的持久化" in command(bot, f"点评 {first} 全文", "recruiter", user="U123")
    # UANN is asked about round two: round one's warnings leave the note out for them
    command(bot, f"邀请 {second} <@UANN> 截止 周五", "ask")
    wait_until("UANN asked", lambda: "UANN" in requests(bot, second))
    bot.idle()
    for text in (
        command(bot, f"点评 {first} 全文", "ann-full", user="UANN"),
        command(bot, f"总结 {first}", "ann-card", user="UANN"),
        ask_as(bot, "UANN", f"/candidate 点评 {first} 全文"),
    ):
        assert "Redis的持久化" not in text and "评审备注" not in text
    before = len(posts(bot))
    bot.command(f"点评 {first}", name="again", user_id="U123", channel_id=CHANNEL)
    wait_until("posted", lambda: len(posts(bot)) > before)
    bot.idle()
    assert "Redis的持久化" not in posted_in(bot, CHANNEL, before)
