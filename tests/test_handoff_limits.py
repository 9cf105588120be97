"""Issue 45, item 10: `/candidate 交接 <who> @next…` follows the rules `邀请` follows. The
same handoff typed again and again DMs each person once a day about the candidate (the
asker is told who was handed it already); a user group counts its members, at most 30
at once; one user has the bot DM at most DEBRIEF_ASK_LIMIT_PER_HOUR people an hour,
asks and handoffs together (the asker is told the limit, who was left out and when
they can go on); and the asker gets one reply naming who was reached, who was not and
why, a DM Slack refused among them (which may be sent again). Signed HTTP requests
against the strict fake Slack with the bot's clock handed in, on SQLite and PostgreSQL;
the store's count and writes are exact under two replicas handing off at once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from support.fake_slack import FakeSlack
from support.slackbot import Bot, all_text
from test_requests import CID, OTHER, TUESDAY, Clock, audit, dm, started

from store.factory import open_store
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


@pytest.fixture
def team_clock() -> Clock:
    """The bot's clock, Tuesday 10:00 in Shanghai (the fake Slack's own is `clock`)."""
    return Clock(TUESDAY)


@pytest.fixture
def bot(fake_slack: FakeSlack, db_target: str, tmp_path: Path, team_clock: Clock) -> Iterator[Bot]:
    """The bot in Chinese, DEBRIEF_ASK_LIMIT_PER_HOUR left at its default (20)."""
    fake_slack.users.update({"UNEXT": "Next", "UDAN": "Dan", "UEVE": "Eve"})
    running = started(fake_slack, db_target, tmp_path, team_clock)
    try:
        yield running
    finally:
        running.server.stop()


@pytest.fixture(params=["zh", "en"])
def limited(
    request: pytest.FixtureRequest,
    fake_slack: FakeSlack,
    db_target: str,
    tmp_path: Path,
    team_clock: Clock,
) -> Iterator[Bot]:
    """The bot in each language, each user having at most 3 people DMed an hour."""
    fake_slack.users.update({"UNEXT": "Next", "UDAN": "Dan", "UEVE": "Eve"})
    running = started(
        fake_slack,
        db_target,
        tmp_path,
        team_clock,
        locale=request.param,
        ask_limit_per_hour="3",
    )
    try:
        yield running
    finally:
        running.server.stop()


def hand(bot: Bot, text: str, name: str, user: str = "U123") -> list[str]:
    """Type `/candidate <text>`; every private reply it got, as text."""
    bot.command(text, name=name, user_id=user, channel_id="C123")
    bot.idle()
    return [all_text(reply) for reply in bot.replies(name)]


def opened(bot: Bot) -> list[str]:
    """Whom the bot opened a DM with, in order."""
    return [str(c.params["users"]) for c in bot.fake.calls("conversations.open")]


def test_the_same_handoff_25_times_dms_once_a_day(bot: Bot, team_clock: Clock) -> None:
    said = [hand(bot, "交接 000 <@UNEXT>", f"handoff{i}") for i in range(25)]
    assert opened(bot) == ["UNEXT"] and len(dm(bot, "UNEXT")) == 1
    assert all(len(replies) == 1 for replies in said)  # one reply each
    assert "的交接私信发给 <@UNEXT>" in said[0][0]
    for again in said[1:]:
        assert "没有发给任何人" in again[0]
        assert "没有再私信 <@UNEXT>：过去 24 小时内已经把这位候选人交接给过他们。" in again[0]
    # someone else handing the same candidate to them: not DMed again either
    [other] = hand(bot, "交接 000 <@UNEXT>", "lead", user="ULEAD")
    assert "没有再私信 <@UNEXT>" in other and len(dm(bot, "UNEXT")) == 1
    # another candidate is another handoff
    hand(bot, "交接 002 <@UNEXT>", "other")
    assert len(dm(bot, "UNEXT")) == 2
    assert [what for _who, what, cid in audit(bot) if what.startswith("handoff")] == [
        "handoff:UNEXT",
        "handoff:UNEXT",
    ]

    team_clock.at += timedelta(hours=23, minutes=59)  # still within the day
    hand(bot, "交接 000 <@UNEXT>", "later")
    assert len(dm(bot, "UNEXT")) == 2
    team_clock.at += timedelta(minutes=2)  # a day and a minute after: handed again
    [again] = hand(bot, "交接 000 <@UNEXT>", "next-day")
    assert "的交接私信发给 <@UNEXT>" in again and "没有再私信" not in again
    assert len(dm(bot, "UNEXT")) == 3


def test_at_most_30_at_once_and_a_group_counts_its_members(bot: Bot) -> None:
    bot.fake.usergroups["S0ALL"] = [f"UG{i:02d}" for i in range(60)]
    [said] = hand(bot, "交接 000 <!subteam^S0ALL|@everyone-here>", "sixty")
    assert "一次最多交接给 30 人。没有发出任何私信。" in said
    assert opened(bot) == []
    # 30 of them: the hourly limit (20) leaves 10 out, and says when
    bot.fake.usergroups["S0HALF"] = [f"UG{i:02d}" for i in range(30)]
    [said] = hand(bot, "交接 000 <!subteam^S0HALF|@half>", "thirty")
    assert opened(bot) == [f"UG{i:02d}" for i in range(20)]
    left = "、".join(f"<@UG{i:02d}>" for i in range(20, 30))
    assert f"没有发给 {left}：每人每小时最多让 Debrief 私信 20 人" in said
    assert "11:00 起可以再发" in said


def test_one_reply_names_who_was_reached_and_who_not_and_why(bot: Bot) -> None:
    bot.fake.user_teams["UOUT"] = "TOTHERORG"  # a Slack Connect user of another organisation
    bot.fake.fail_next("conversations.open", status=200, error="cannot_dm_bot")  # UEVE's
    replies = hand(bot, "交接 000 <@UEVE> <@UNEXT> <@UOUT> <@UDAN>", "mixed")
    assert len(replies) == 1
    [said] = replies
    assert "的交接私信发给 <@UNEXT>、<@UDAN>：" in said
    assert "没有发给 <@UOUT>：不是本工作区的成员" in said
    assert "没能私信 <@UEVE>（cannot_dm_bot），交接没有发出。" in said
    assert dm(bot, "UOUT") == [] and len(dm(bot, "UNEXT")) == 1
    # the handoff Slack refused counts for nothing: sent again at once, the others not
    [again] = hand(bot, "交接 000 <@UEVE> <@UNEXT>", "again")
    assert "的交接私信发给 <@UEVE>：" in again and "没有再私信 <@UNEXT>" in again
    assert len(dm(bot, "UEVE")) == 1 and len(dm(bot, "UNEXT")) == 1


def test_asks_and_handoffs_share_the_hourly_limit_and_it_says_when_to_go_on(
    limited: Bot, team_clock: Clock
) -> None:
    bot = limited
    english = bot.settings.locale == "en"
    ask, handoff = ("request", "handoff") if english else ("邀请", "交接")
    hand(bot, f"{ask} 000 <@UANN> <@UBOB>", "ask")  # two of the three
    assert sorted(opened(bot)) == ["UANN", "UBOB"]
    [said] = hand(bot, f"{handoff} 002 <@UDAN> <@UEVE>", "handoff")
    assert opened(bot)[2:] == ["UDAN"] and dm(bot, "UEVE") == []
    if english:
        assert "Sent <@UDAN> the handoff for" in said
        assert (
            "Not sent to <@UEVE>: Debrief DMs at most 3 people an hour for you (asks and"
            " handoffs together); you can send again from 11:00." in said
        )
    else:
        assert "的交接私信发给 <@UDAN>" in said
        assert (
            "没有发给 <@UEVE>：每人每小时最多让 Debrief 私信 3 人（邀请评审和交接一起算），"
            "11:00 起可以再发。" in said
        )
    # someone else has a limit of their own
    hand(bot, f"{handoff} 002 <@UEVE>", "lead", user="ULEAD")
    assert len(dm(bot, "UEVE")) == 1
    team_clock.at += timedelta(minutes=61)  # an hour and a minute after the first ask
    hand(bot, f"{handoff} 000 <@UEVE>", "later")
    assert len(dm(bot, "UEVE")) == 2


def test_two_replicas_handing_off_at_once_never_pass_the_limit_nor_dm_twice(
    db_target: str,
) -> None:
    """Two stores on one database (two replicas), eight threads each handing off at
    once: one sender's handoffs and asks together stay within the limit, and one
    person is handed one candidate once, whoever hands it."""
    first, second = open_store(db_target), open_store(db_target)
    try:
        assert not index_paths(first, [SEEDS]).failed
        candidates = [c.id for c in first.list_candidates()]
        now = datetime(2026, 12, 1, 2, 0, tzinfo=UTC)
        barrier = threading.Barrier(8)
        results: list[list[str]] = []
        errors: list[BaseException] = []

        def handing(i: int) -> None:
            store = (first, second)[i % 2]
            cid = candidates[i % len(candidates)]
            try:
                barrier.wait()
                if i % 4 == 0:  # the same sender asking reviewers meanwhile
                    done = store.record_asks(
                        cid, [f"UR{i}A", f"UR{i}B"], "UFLOOD", "2099-01-01", "C1", "1.1", 5, now
                    )
                else:
                    done = store.record_handoffs(
                        cid, [cid], [f"UR{i}A", f"UR{i}B"], "UFLOOD", 5, now
                    )
                assert done is not None
                results.append(done.asked)
                # others all handing one person the same candidate
                again = store.record_handoffs(CID, [CID], ["USAME"], f"UOTHER{i}", 20, now)
                assert again is not None
                results.append(again.asked)
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=handing, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert not errors, errors
        reached = [r for found in results for r in found]
        assert len([r for r in reached if r.startswith("UR")]) == 5
        assert reached.count("USAME") == 1
        # the limit reached, by asks and handoffs alike: nobody more this hour
        plan = second.ask_plan(OTHER, ["UNEW"], "UFLOOD", 5, now)
        assert plan.asked == [] and plan.limited == ["UNEW"]
        handed = first.record_handoffs(OTHER, [OTHER], ["UNEW"], "UFLOOD", 5, now)
        assert handed is not None and handed.limited == ["UNEW"]
        assert handed.retry_at == (now + timedelta(hours=1)).isoformat(timespec="microseconds")
    finally:
        first.close()
        second.close()
