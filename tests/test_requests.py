"""`/candidate 邀请 <who> @reviewer… [截止 <when>]` (`request <who> @… [by <when>]`):
each reviewer who may see candidates gets a DM (who asked, the card, the deadline, the
decision buttons naming the verdict thread); the requests are recorded and audited; the
verdict's thread (posted first when it was not) carries one status message, edited as
decisions arrive by any path (a typed reply, the DM's buttons and modal, the hiring
decision) until it says "all decided"; without reviewers, who was asked; the App Home's
"you were asked". Signed HTTP requests against the strict fake Slack, on SQLite and
PostgreSQL, with the clock handed in (the deadline's day is DEBRIEF_TIMEZONE's)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from click.testing import CliRunner
from support.fake_slack import FakeSlack
from support.limits import block_problem
from support.slackbot import Bot, all_text, start_bot
from support.waiting import wait_until
from test_decide import click_decision, opened_modal, submit
from test_home import click, lines, open_home, section_of

from bot.cli import cli
from handlers.blocks import MESSAGE_BUDGET, json_size
from handlers.deadlines import end_of_day
from handlers.views.decide import Target
from handlers.views.requests import ask_dm, status_message
from store.indexer import index_paths
from store.models import Candidate
from store.request_models import Request
from store.transcripts.parser import parse_transcript

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
CID = "000_9e6b3ecb0732fcf3"
OTHER = "002_72ee0a76eea41e0e"
CHANNEL = "C123"
SHANGHAI = ZoneInfo("Asia/Shanghai")
PEOPLE = {"U123": "Asker Wang", "UANN": "Ann", "UBOB": "Bob", "UCAT": "Cat", "ULEAD": "Lead"}

WORDS = {
    "zh": {
        "request": "邀请",
        "by": "截止",
        "friday": "周五",
        "due_friday": "周五（12月4日）",
        "waiting": "等待 <@UANN>、<@UBOB> · 周五（12月4日）截止",
        "decided": "已决定",
        "all": "全部已决定",
        "decide": "结论",
        "hire": "录用",
    },
    "en": {
        "request": "request",
        "by": "by",
        "friday": "Friday",
        "due_friday": "Fri Dec 4",
        "waiting": "waiting for <@UANN>, <@UBOB> · due Fri Dec 4",
        "decided": "decided",
        "all": "all decided",
        "decide": "decide",
        "hire": "hire",
    },
}


class Clock:
    """The time the bot reads deadlines at; a test moves it."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at

    def local(self, zone: ZoneInfo, *when: int) -> None:
        self.at = datetime(*when, tzinfo=zone).astimezone(UTC)


def at(zone: ZoneInfo, *when: int) -> datetime:
    return datetime(*when, tzinfo=zone).astimezone(UTC)


TUESDAY = at(SHANGHAI, 2026, 12, 1, 10, 0)


@pytest.fixture(params=["zh", "en"])
def locale(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def started(fake: FakeSlack, db: str, tmp_path: Path, clock: Clock, **settings: str) -> Bot:
    fake.users.update(PEOPLE)
    bot = start_bot(fake, db, clock=clock, uploads=str(tmp_path / "uploads"), **settings)
    assert not index_paths(bot.store, [SEEDS]).failed
    return bot


@pytest.fixture
def team_clock() -> Clock:
    """The bot's clock (the fake Slack's own is `clock`)."""
    return Clock(TUESDAY)


def running(fake: FakeSlack, db: str, tmp_path: Path, clock: Clock, locale: str) -> Iterator[Bot]:
    bot = started(fake, db, tmp_path, clock, locale=locale, deciders_raw="ULEAD")
    try:
        yield bot
    finally:
        bot.server.stop()


@pytest.fixture
def asking(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path, team_clock: Clock
) -> Iterator[Bot]:
    """The bot in Chinese (DEBRIEF_LOCALE's default)."""
    yield from running(fake_slack, db_target, tmp_path, team_clock, "zh")


@pytest.fixture
def asking_in(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path, team_clock: Clock, locale: str
) -> Iterator[Bot]:
    """The bot in each language."""
    yield from running(fake_slack, db_target, tmp_path, team_clock, locale)


def command(bot: Bot, text: str, name: str, user: str = "U123", channel: str = CHANNEL) -> str:
    """Type `/candidate <text>`; the asker's last private reply, as text."""
    bot.command(text, name=name, user_id=user, channel_id=channel)
    bot.idle()
    return all_text(bot.replies(name)[-1])


def decide(bot: Bot, text: str) -> None:
    """The hiring decision, by a decider (posted in the thread: no private reply)."""
    bot.command(text, name="decide", user_id="ULEAD", channel_id=CHANNEL)
    bot.idle()


def posts(bot: Bot, channel: str = CHANNEL) -> list[dict[str, Any]]:
    return [c.params for c in bot.fake.calls("chat.postMessage") if c.params["channel"] == channel]


def status(bot: Bot, channel: str = CHANNEL) -> str:
    """The status message's text as it stands (edits included)."""
    ts = bot.store.status_post(CID, channel)
    assert ts is not None, "no status message"
    [found] = [m for m in bot.fake.messages(channel) if m["ts"] == ts]
    return str(found["text"])


def requests(bot: Bot, cid: str = CID) -> dict[str, Request]:
    return {r.reviewer: r for r in bot.store.requests_for(cid)}


def audit(bot: Bot) -> list[tuple[str, str, str | None]]:
    bot.store.flush_audit()
    return [(e.who, e.what, e.candidate) for e in bot.store.audit_log()]


def dm(bot: Bot, user: str) -> list[dict[str, Any]]:
    return bot.fake.messages(bot.fake.dm_channel(user))


def test_each_reviewer_is_dmed_the_request_is_recorded_and_the_thread_says_who_is_waited_for(
    asking_in: Bot, locale: str
) -> None:
    bot, words = asking_in, WORDS[locale]
    said = command(
        bot, f"{words['request']} 000 <@UANN> <@UBOB|bob> {words['by']} {words['friday']}", "ask"
    )
    # no verdict in this channel yet: it is posted first, then the status in its thread
    verdict, status_post, *rest = posts(bot)
    assert "thread_ts" not in verdict
    thread = bot.store.verdict_post(CID, CHANNEL)
    assert thread is not None and status_post["thread_ts"] == thread
    assert rest == []  # nothing else in the channel: the DMs are elsewhere
    assert status(bot) == words["waiting"]
    assert status_post["text"] == words["waiting"]  # the mentions notify the people asked

    due = end_of_day(datetime(2026, 12, 4).date(), SHANGHAI)
    asked = requests(bot)
    assert sorted(asked) == ["UANN", "UBOB"]
    for r in asked.values():
        assert (r.asked_by, r.due_at, r.channel, r.thread_ts, r.open) == (
            "U123",
            due,
            CHANNEL,
            thread,
            True,
        )

    for reviewer in ("UANN", "UBOB"):
        [message] = dm(bot, reviewer)
        text = all_text(message)
        assert "Asker Wang" in text and "<@U123>" not in text  # who asked, by name
        assert words["due_friday"] in text and "视频开发工程师" in text and CID in text
        [buttons] = [b for b in message["blocks"] if b.get("block_id", "").startswith("decide@")]
        assert Target.from_block_id(buttons["block_id"]) == Target(CID, CHANNEL, thread)
        assert [e["action_id"] for e in buttons["elements"]][:3] == [
            "decide:hire",
            "decide:hold",
            "decide:no_hire",
        ]
    opened = [c.params["users"] for c in bot.fake.calls("conversations.open")]
    assert sorted(opened) == ["UANN", "UBOB"]

    assert "<@UANN>" in said and "<@UBOB>" in said and words["due_friday"] in said
    assert ("U123", "request:UANN", CID) in audit(bot)
    assert ("U123", "request:UBOB", CID) in audit(bot)


def test_a_verdict_already_posted_is_the_thread_and_nothing_is_posted_twice(asking: Bot) -> None:
    bot = asking
    words = WORDS["zh"]
    bot.command("点评 000", name="verdict")
    bot.idle()
    thread = bot.store.verdict_post(CID, CHANNEL)
    command(bot, f"{words['request']} 000 <@UANN>", "ask")
    [_verdict, status_post] = posts(bot)
    assert status_post["thread_ts"] == thread
    # two working days after Tuesday: Thursday
    assert requests(bot)["UANN"].due_at == end_of_day(datetime(2026, 12, 3).date(), SHANGHAI)


@pytest.fixture
def restricted(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path, team_clock: Clock
) -> Iterator[Bot]:
    fake_slack.user_teams["UEXT"] = "T0THER"  # a Slack Connect user of another organisation
    fake_slack.usergroups["S0REV"] = ["UCAT"]
    bot = started(
        fake_slack, db_target, tmp_path, team_clock, allowed_users_raw="U123,UANN,UEXT,S0REV"
    )
    try:
        yield bot
    finally:
        bot.server.stop()


def test_who_may_not_see_candidates_is_refused_by_name_and_gets_nothing(restricted: Bot) -> None:
    bot = restricted
    probes = iter(range(1000))  # the allowed group is read in the background: until then,
    wait_until(  # its members are "still being checked"
        "the allowed user group read",
        lambda: "还在确认" not in command(bot, "邀请 003 <@UCAT>", f"probe-{next(probes)}"),
    )
    said = command(bot, "邀请 000 <@UANN> <@UOUT> <@UEXT> <@UCAT>", "ask")
    assert "未邀请 <@UOUT>：没有查看候选人信息的权限" in said
    assert "未邀请 <@UEXT>：不是本工作区的成员" in said
    assert "已邀请 <@UANN>、<@UCAT>" in said  # UCAT is allowed through the user group
    assert sorted(requests(bot)) == ["UANN", "UCAT"]
    opened = {c.params["users"] for c in bot.fake.calls("conversations.open")}
    assert opened == {"UANN", "UCAT"}
    for refused in ("UOUT", "UEXT"):
        assert dm(bot, refused) == []
        assert refused not in status(bot)
        assert (("U123", f"request:{refused}", CID)) not in audit(bot)

    # nobody left to ask: nothing posted, nothing recorded
    before = len(bot.fake.calls("chat.postMessage"))
    said = command(bot, "邀请 002 <@UOUT>", "nobody")
    assert "没有邀请任何人" in said and "<@UOUT>" in said
    assert len(bot.fake.calls("chat.postMessage")) == before
    assert requests(bot, OTHER) == {}


def test_a_reviewer_who_decided_is_not_asked_again_and_a_decided_candidate_nobody(
    asking: Bot,
) -> None:
    bot = asking
    bot.command("点评 000", name="verdict")
    bot.idle()
    thread = bot.store.verdict_post(CID, CHANNEL)
    assert thread is not None
    bot.event(_reply("1800000000.000001", thread, "通过", "UBOB"))
    wait_until("UBOB's decision", lambda: bot.store.current_decision(CID, "UBOB"))
    said = command(bot, "邀请 000 <@UANN> <@UBOB>", "ask")
    assert "没有再邀请 <@UBOB>：已经给过结论" in said
    assert sorted(requests(bot)) == ["UANN"] and dm(bot, "UBOB") == []

    decide(bot, "结论 000 录用")
    before = len(bot.fake.calls("chat.postMessage"))
    said = command(bot, "邀请 000 <@UCAT>", "late")
    assert "已有录用结论（录用）" in said
    assert "UCAT" not in requests(bot) and len(bot.fake.calls("chat.postMessage")) == before


def _reply(ts: str, thread_ts: str, text: str, user: str) -> dict[str, Any]:
    return {
        "type": "message",
        "channel": CHANNEL,
        "user": user,
        "text": text,
        "ts": ts,
        "thread_ts": thread_ts,
        "channel_type": "channel",
        "event_ts": ts,
    }


def test_the_status_follows_a_typed_reply_a_modal_and_the_hiring_decision(
    asking_in: Bot, locale: str
) -> None:
    bot, words = asking_in, WORDS[locale]
    command(
        bot,
        f"{words['request']} 000 <@UANN> <@UBOB> <@UCAT> {words['by']} {words['friday']}",
        "ask",
    )
    thread = bot.store.verdict_post(CID, CHANNEL)
    assert thread is not None
    updates = len(bot.fake.calls("chat.update"))

    # a reply typed in the thread
    bot.event(_reply("1800000000.000001", thread, "通过 基础扎实", "UANN"))
    wait_until("the status edited", lambda: len(bot.fake.calls("chat.update")) > updates)
    bot.idle()
    first = status(bot)
    assert f"{words['decided']}" in first and "<@UANN>" in first.split("\n")[-1]
    assert "<@UBOB>" in first and "<@UCAT>" in first and words["all"] not in first
    assert not requests(bot)["UANN"].open

    # the buttons of UBOB's DM, then the modal
    [message] = dm(bot, "UBOB")
    [buttons] = [b for b in message["blocks"] if b.get("block_id", "").startswith("decide@")]
    channel = bot.fake.dm_channel("UBOB")
    assert (
        click_decision(
            bot, message["ts"], "decide:hold", "hold", "UBOB", channel, buttons["block_id"]
        )
        == 200
    )
    status_code, _ = submit(bot, opened_modal(bot), "hold", "再聊一轮", user="UBOB")
    assert status_code == 200
    wait_until("UBOB's request closed", lambda: not requests(bot)["UBOB"].open)
    bot.idle()
    second = status(bot)
    assert "<@UBOB>" not in second.split("\n")[0] and words["all"] not in second
    assert "<@UCAT>" in second.split("\n")[0]  # still waited for

    # the hiring decision closes the rest, and the status says so
    decide(bot, f"{words['decide']} 000 {words['hire']}")
    final = status(bot)
    closed = (
        "关闭了未完成的请求：<@UCAT>" if locale == "zh" else "closed the open requests: <@UCAT>"
    )
    assert closed in final
    assert final.split("\n")[-1] == words["all"]
    assert all(not r.open for r in requests(bot).values())
    assert len([p for p in posts(bot) if p.get("thread_ts") == thread]) == 3  # status, 2 decisions


def test_all_decided_by_replies_and_an_edit_that_fails_never_stops_a_decision(
    asking: Bot,
) -> None:
    bot = asking
    command(bot, "邀请 000 <@UANN> <@UBOB>", "ask")
    thread = bot.store.verdict_post(CID, CHANNEL)
    assert thread is not None
    bot.fake.fail_next("chat.update", status=500, times=3)  # Slack down for the edit
    bot.event(_reply("1800000000.000001", thread, "通过", "UANN"))
    bot.fake.wait_for("reactions.add")  # the decision is acknowledged all the same
    bot.idle()
    assert not requests(bot)["UANN"].open
    assert "等待 <@UANN>、<@UBOB>" in status(bot)  # the edit did not go through
    bot.event(_reply("1800000000.000002", thread, "不通过", "UBOB"))
    bot.fake.wait_for("reactions.add", count=2)
    bot.idle()
    assert status(bot) == "已决定：<@UANN>、<@UBOB>\n全部已决定"


def test_asking_again_edits_the_same_status_and_moves_the_deadline(
    asking: Bot, team_clock: Clock
) -> None:
    bot = asking
    command(bot, "邀请 000 <@UANN> 截止 周五", "ask")
    first = bot.store.status_post(CID, CHANNEL)
    team_clock.at += timedelta(days=1, minutes=1)  # within a day UANN is not asked again
    command(bot, "邀请 000 <@UANN> <@UBOB> 截止 2026-12-10", "again")
    assert bot.store.status_post(CID, CHANNEL) == first  # the same message, edited
    assert len([p for p in posts(bot) if p.get("thread_ts")]) == 1
    assert status(bot) == "等待 <@UANN>、<@UBOB> · 周四（12月10日）截止"
    due = end_of_day(datetime(2026, 12, 10).date(), SHANGHAI)
    assert {r.due_at for r in requests(bot).values()} == {due}
    assert len(dm(bot, "UANN")) == 2 and len(dm(bot, "UBOB")) == 1  # asked again: told again


@pytest.mark.parametrize("zone", ["Asia/Shanghai", "America/Los_Angeles"])
def test_the_day_boundary_is_the_configured_zone_s(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path, zone: str
) -> None:
    tz = ZoneInfo(zone)
    clock = Clock(at(tz, 2026, 12, 3, 23, 30))  # Thursday, half an hour before midnight
    bot = started(fake_slack, db_target, tmp_path, clock, timezone=zone, locale="en")
    try:
        command(bot, "request 000 <@UANN> by tomorrow", "late")
        assert requests(bot)["UANN"].due_at == end_of_day(datetime(2026, 12, 4).date(), tz)
        assert "due Fri Dec 4" in status(bot)
        clock.local(tz, 2026, 12, 4, 0, 30)  # Friday, half an hour after midnight
        command(bot, "request 000 <@UBOB> by tomorrow", "early")  # UANN: asked within a day
        assert requests(bot)["UBOB"].due_at == end_of_day(datetime(2026, 12, 5).date(), tz)
        assert (
            status(bot)
            == "waiting for <@UANN> · due Fri Dec 4\nwaiting for <@UBOB> · due Sat Dec 5"
        )
        said = command(bot, "request 000 <@UCAT> by 2026-12-03", "past")
        assert "that deadline has passed" in said.lower() or "has passed" in said
        assert "UCAT" not in requests(bot)
    finally:
        bot.server.stop()


def test_a_past_or_unreadable_deadline_records_nothing(asking_in: Bot, locale: str) -> None:
    bot, words = asking_in, WORDS[locale]
    said = command(bot, f"{words['request']} 000 <@UANN> {words['by']} 2026-11-30", "past")
    assert ("截止日期已过" if locale == "zh" else "that deadline has passed") in said
    said = command(bot, f"{words['request']} 000 <@UANN> {words['by']} 下辈子", "junk")
    assert ("/candidate 邀请" if locale == "zh" else "/candidate request") in said
    assert requests(bot) == {} and posts(bot) == []
    assert bot.fake.calls("conversations.open") == []


def test_a_mention_that_arrived_as_plain_text_is_not_ignored(asking_in: Bot, locale: str) -> None:
    bot, words = asking_in, WORDS[locale]
    said = command(bot, f"{words['request']} 000 @ann @bob", "plain")
    assert "should_escape: true" in said and "@ann @bob" in said
    assert requests(bot) == {} and posts(bot) == []
    assert bot.store.mentions_seen() is not None and bot.store.mentions_seen()[0] is False
    said = command(bot, f"{words['request']} 000 <!here>", "here")
    assert "@here" in said and requests(bot) == {}
    command(bot, f"{words['request']} 000 <@UANN|ann>", "escaped")
    seen = bot.store.mentions_seen()
    assert seen is not None and seen[0] is True


def test_a_user_group_is_its_members_and_one_that_cannot_be_read_is_refused(
    asking: Bot,
) -> None:
    bot = asking
    bot.fake.usergroups["S0DEV"] = ["UANN", "UBOB"]
    said = command(bot, "邀请 000 <!subteam^S0DEV|@dev> <@UANN>", "group")
    assert "已邀请 <@UANN>、<@UBOB>" in said
    assert sorted(requests(bot)) == ["UANN", "UBOB"] and len(dm(bot, "UANN")) == 1
    said = command(bot, "邀请 002 <!subteam^S0NONE|@ghosts>", "ghosts")
    assert "无法读取用户组" in said and requests(bot, OTHER) == {}


def test_without_reviewers_who_was_asked_who_decided_who_is_overdue(
    asking: Bot, team_clock: Clock
) -> None:
    bot = asking
    said = command(bot, "邀请 000", "none")
    assert "还没有邀请过任何评审" in said
    command(bot, "邀请 000 <@UANN> <@UBOB> 截止 明天", "ask")
    thread = bot.store.verdict_post(CID, CHANNEL)
    assert thread is not None
    bot.event(_reply("1800000000.000001", thread, "通过", "UANN"))
    wait_until("UANN decided", lambda: not requests(bot)["UANN"].open)
    bot.idle()
    team_clock.local(SHANGHAI, 2026, 12, 3, 9, 0)  # Thursday: Wednesday's deadline has passed
    said = command(bot, "邀请 000", "list")
    # when it was asked is the store's own time: any day
    assert re.search(r"<@UANN> · <@U123> 邀请于 [^·]+ · 周三（12月2日）截止 · 已决定（通过）", said)
    assert re.search(r"<@UBOB> · <@U123> 邀请于 [^·]+ · 周三（12月2日）截止 · \*已逾期\*", said)
    assert "等待 0 · 逾期 1 · 已决定 1" in said
    bot.event({**_reply("1800000000.000009", thread, "x", "UANN"), "text": "hold"})
    bot.idle()
    # the status message marks the overdue once it is edited again
    assert "已逾期：<@UBOB> · 周三（12月2日）截止" in status(bot)


def test_the_home_tab_lists_what_you_were_asked_earliest_deadline_first(
    asking: Bot, team_clock: Clock, tmp_path: Path
) -> None:
    bot = asking
    command(bot, "邀请 002 <@UANN> 截止 周五", "late")
    command(bot, "邀请 000 <@UANN> 截止 明天", "early")
    home = open_home(bot, "UANN")
    asked = section_of(home, "请你给结论（2）")
    assert lines(asked) == [CID, OTHER]  # Wednesday's before Friday's
    text = json.dumps(asked, ensure_ascii=False)
    assert "<@U123> 邀请 · 周三（12月2日）截止" in text and "已逾期" not in text
    click(bot, home, "home_open:0", user="UANN")
    modal = opened_modal(bot)
    assert "视频开发工程师" in json.dumps(modal["blocks"], ensure_ascii=False)

    team_clock.local(SHANGHAI, 2026, 12, 3, 9, 0)
    overdue = section_of(open_home(bot, "UANN"), "请你给结论")
    assert "*已逾期* · <@U123> 邀请 · 周三（12月2日）截止" in json.dumps(
        overdue, ensure_ascii=False
    )
    assert lines(section_of(open_home(bot, "UBOB"), "请你给结论（0）")) == []


def test_the_home_tab_pages_what_you_were_asked(asking: Bot, tmp_path: Path) -> None:
    bot = asking
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(12):
        (folder / f"m{i:03d}.txt").write_text(
            f"岗位：后端{i}\n问题1：x\n考察目标：y\n回答：z\n点评：ok\n", "utf-8"
        )
    assert not index_paths(bot.store, [folder]).failed
    for i in range(12):
        due = end_of_day(datetime(2026, 12, 2 + i).date(), SHANGHAI)
        bot.store.record_requests(f"m{i:03d}", ["UANN"], "U123", due, CHANNEL, f"17.{i}")
    home = open_home(bot, "UANN")
    asked = section_of(home, "请你给结论（12）")
    assert lines(asked) == [f"m{i:03d}" for i in range(10)]
    click(bot, home, "home_page:asked:next", user="UANN")
    page = bot.fake.wait_for("views.publish", count=2)[1].json_param("view")
    assert lines(section_of(page, "请你给结论")) == ["m010", "m011"]


def test_debrief_ask_refuses_to_ask_reviewers(asking: Bot) -> None:
    result = CliRunner().invoke(
        cli, ["ask", "/candidate 邀请 000 <@UANN>", "--db", asking.store.path]
    )
    assert result.exit_code != 0
    assert "debrief ask 不邀请评审" in result.output
    assert requests(asking) == {}


def test_a_dm_and_a_status_stay_within_slack_s_limits_however_large() -> None:
    """Pure: the DM of a candidate whose file is all excess, asked by a name with markup,
    and the status message of 120 reviewers on as many deadlines."""
    big = "很长的简介<b>。" * 3000
    questions = "".join(f"问题{i}：{'问' * 500}？\n回答：\n" for i in range(1, 60))
    text = f"姓名：{'<b>' * 200}\n岗位：{'x' * 500}\n简介：{big}\n总结：{big}\n{questions}点评：{big}\n"
    parsed = parse_transcript(text.encode(), "huge.txt")
    c = Candidate(**parsed.model_dump())
    target = Target(c.id, CHANNEL, "1700000000.000100")
    due = end_of_day(datetime(2026, 12, 4).date(), SHANGHAI)
    dm_message = ask_dm(c, "<@U1> & Co", due, target, {}, "zh", TUESDAY, SHANGHAI)
    assert block_problem(dm_message.blocks) is None
    assert json_size(dm_message.blocks) <= MESSAGE_BUDGET
    assert "<b>" not in json.dumps(dm_message.blocks, ensure_ascii=False)
    assert "&lt;@U1&gt; &amp; Co" in json.dumps(dm_message.blocks, ensure_ascii=False)
    assert dm_message.blocks[-1]["block_id"].startswith("decide@")

    many = [
        Request(
            candidate_id=c.id,
            reviewer=f"U{i:05d}",
            asked_by="U123",
            asked_at="2026-12-01T02:00:00.000000+00:00",
            due_at=end_of_day(datetime(2026, 12, 2).date() + timedelta(days=i % 60), SHANGHAI),
            channel=CHANNEL,
            thread_ts="1700000000.000100",
        )
        for i in range(120)
    ]
    status_now = status_message(many, "en", TUESDAY, SHANGHAI)
    assert block_problem(status_now.blocks) is None and len(status_now.text) <= 3000
    assert status_now.text.startswith("waiting for <@U00000>")
