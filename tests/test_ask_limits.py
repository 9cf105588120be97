"""Issue 34, item 10: a DM flood. `/candidate 邀请 000 @…` typed again and again DMs a
reviewer once a day about a candidate (the asker is told who was already asked), and one
user asks at most DEBRIEF_ASK_LIMIT_PER_HOUR reviewers an hour (the asker is told the
limit, who was not asked and when they can ask again). Signed HTTP requests against the
strict fake Slack with the bot's clock handed in, on SQLite and PostgreSQL; the store's
count and writes are exact under two replicas asking at once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from support.fake_slack import FakeSlack
from support.slackbot import Bot
from test_requests import (
    CHANNEL,
    CID,
    OTHER,
    TUESDAY,
    Clock,
    command,
    dm,
    posts,
    requests,
    started,
    status,
)

from store.factory import open_store
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
REVIEWERS = ("UANN", "UBOB", "UCAT")


@pytest.fixture
def team_clock() -> Clock:
    """The bot's clock, Tuesday 10:00 in Shanghai (the fake Slack's own is `clock`)."""
    return Clock(TUESDAY)


@pytest.fixture
def bot(fake_slack: FakeSlack, db_target: str, tmp_path: Path, team_clock: Clock) -> Iterator[Bot]:
    """The bot in Chinese, DEBRIEF_ASK_LIMIT_PER_HOUR left at its default."""
    fake_slack.users.update({"UDAN": "Dan", "UEVE": "Eve"})
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
    """The bot in each language, each user asking at most 3 reviewers an hour."""
    fake_slack.users.update({"UDAN": "Dan", "UEVE": "Eve"})
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


def dms(bot: Bot) -> int:
    """The reviewers' DMs sent so far."""
    return len(bot.fake.calls("conversations.open"))


def test_the_same_request_five_times_dms_each_reviewer_once(bot: Bot) -> None:
    mentions = " ".join(f"<@{r}>" for r in REVIEWERS)
    said = [command(bot, f"邀请 000 {mentions}", f"ask{i}") for i in range(5)]
    assert dms(bot) == 3
    assert all(len(dm(bot, r)) == 1 for r in REVIEWERS)
    assert "已邀请 <@UANN>、<@UBOB>、<@UCAT>" in said[0]
    for again in said[1:]:
        assert "没有邀请任何人" in again
        assert (
            "没有再私信 <@UANN>、<@UBOB>、<@UCAT>：过去 24 小时内已经就这位候选人邀请过。" in again
        )
    assert len([p for p in posts(bot) if p.get("thread_ts")]) == 1  # one status message


def test_asked_by_someone_else_is_not_dmed_again_and_after_a_day_is(
    bot: Bot, team_clock: Clock
) -> None:
    command(bot, "邀请 000 <@UANN> 截止 周五", "first")
    thread_status = bot.store.status_post(CID, CHANNEL)
    said = command(bot, "邀请 000 <@UANN> <@UBOB> 截止 2026-12-10", "second", user="ULEAD")
    assert "已邀请 <@UBOB>" in said and "没有再私信 <@UANN>" in said
    assert len(dm(bot, "UANN")) == 1 and len(dm(bot, "UBOB")) == 1
    # UANN's request stays as it was asked: by U123, due Friday
    asked = requests(bot)
    assert (asked["UANN"].asked_by, asked["UBOB"].asked_by) == ("U123", "ULEAD")
    assert status(bot) == "等待 <@UANN> · 周五（12月4日）截止\n等待 <@UBOB> · 周四（12月10日）截止"
    assert bot.store.status_post(CID, CHANNEL) == thread_status  # the same message, edited

    team_clock.at += timedelta(hours=23, minutes=59)  # still within the day
    command(bot, "邀请 000 <@UANN>", "third")
    assert len(dm(bot, "UANN")) == 1
    team_clock.at += timedelta(minutes=2)  # a day and a minute after: asked again, told again
    said = command(bot, "邀请 000 <@UANN> 截止 2026-12-10", "fourth")
    assert "已邀请 <@UANN>" in said and "没有再私信" not in said
    assert len(dm(bot, "UANN")) == 2
    assert status(bot) == "等待 <@UBOB>、<@UANN> · 周四（12月10日）截止"


def test_a_user_asks_at_most_the_limit_an_hour_and_is_told_when_to_try_again(
    limited: Bot, team_clock: Clock
) -> None:
    bot = limited
    english = bot.settings.locale == "en"
    word = "request" if english else "邀请"
    said = command(bot, f"{word} 000 <@UANN> <@UBOB> <@UCAT> <@UDAN>", "first")
    assert dms(bot) == 3 and dm(bot, "UDAN") == []
    assert sorted(requests(bot)) == ["UANN", "UBOB", "UCAT"]
    if english:
        assert "Asked <@UANN>, <@UBOB>, <@UCAT>" in said
        assert (
            "Not asked: <@UDAN>: you may ask at most 3 reviewers an hour;"
            " you can ask again from 11:00." in said
        )
    else:
        assert "已邀请 <@UANN>、<@UBOB>、<@UCAT>" in said
        assert "未邀请 <@UDAN>：每人每小时最多邀请 3 位评审，11:00 起可以再邀请。" in said

    # another candidate: nobody asked, and its verdict is not posted for nothing
    team_clock.at += timedelta(minutes=30)
    said = command(bot, f"{word} 002 <@UEVE>", "second")
    assert dm(bot, "UEVE") == [] and requests(bot, OTHER) == {}
    assert bot.store.verdict_post(OTHER, CHANNEL) is None
    assert ("Nobody was asked" if english else "没有邀请任何人") in said
    assert "11:00" in said

    # someone else has a limit of their own
    command(bot, f"{word} 002 <@UEVE>", "third", user="ULEAD")
    assert len(dm(bot, "UEVE")) == 1

    team_clock.at += timedelta(minutes=31)  # an hour and a minute after the first ask
    said = command(bot, f"{word} 000 <@UDAN>", "fourth")
    assert len(dm(bot, "UDAN")) == 1 and "UDAN" in requests(bot)


def test_the_limit_is_a_setting_checked_at_start() -> None:
    from bot.settings import SettingsError, load_settings

    assert load_settings().ask_limit_per_hour == 20
    assert load_settings(ask_limit_per_hour="5").ask_limit_per_hour == 5
    for bad in ("0", "-1", "lots", "1001"):
        with pytest.raises(SettingsError, match="DEBRIEF_ASK_LIMIT_PER_HOUR"):
            load_settings(ask_limit_per_hour=bad)


def test_two_replicas_asking_at_once_never_pass_the_limit_nor_ask_twice(db_target: str) -> None:
    """Two stores on one database (two replicas), eight threads each asking at once:
    one asker's reviewers across candidates stay within the limit, and one reviewer is
    asked about one candidate once, whoever asks."""
    first, second = open_store(db_target), open_store(db_target)
    try:
        assert not index_paths(first, [SEEDS]).failed
        candidates = [c.id for c in first.list_candidates()]
        now = datetime(2026, 12, 1, 2, 0, tzinfo=UTC)
        barrier = threading.Barrier(8)
        results: list[list[str]] = []
        errors: list[BaseException] = []

        def asking(i: int) -> None:
            store = (first, second)[i % 2]
            try:
                barrier.wait()
                # the same asker, each thread another candidate and reviewers: limit 5
                done = store.record_asks(
                    candidates[i % len(candidates)],
                    [f"UR{i}A", f"UR{i}B"],
                    "UFLOOD",
                    "2099-01-01T00:00:00.000000+00:00",
                    "C1",
                    "1.1",
                    5,
                    now,
                )
                assert done is not None
                results.append(done.asked)
                # others all asking one reviewer about one candidate
                again = store.record_asks(
                    candidates[0], ["USAME"], f"UOTHER{i}", "2099-01-01", "C1", "1.1", 20, now
                )
                assert again is not None
                results.append(again.asked)
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=asking, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert not errors, errors
        asked = [r for found in results for r in found]
        assert len([r for r in asked if r.startswith("UR")]) == 5
        assert asked.count("USAME") == 1
        flood = [r for r in first.requests_for(candidates[0]) if r.reviewer == "USAME"]
        assert len(flood) == 1
        plan = second.ask_plan(candidates[1], ["UNEW"], "UFLOOD", 5, now)
        assert plan.asked == [] and plan.limited == ["UNEW"]
        assert plan.retry_at == (now + timedelta(hours=1)).isoformat(timespec="microseconds")
    finally:
        first.close()
        second.close()
