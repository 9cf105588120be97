"""Zoom's cloud transcripts arrive by themselves (issue 48), through the real wire: the
strict fake Zoom (support/fake_zoom.py) posts its webhooks to the bot's HTTP server,
serves the OAuth token, the recordings lists and the downloads; the strict fake Slack
takes the cards. Each test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from support.fake_slack import FakeSlack
from support.fake_zoom import FakeZoom, Meeting
from support.slackbot import Bot, start_bot
from support.waiting import wait_until

from bot.cli import cli
from bot.zoom import ZoomFetcher
from bot.zoom_events import fresh
from store.models import Transcript, ZoomRecording
from store.zoom import with_meeting

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

CHANNEL = "C0ZOOM"

INTERVIEW = """WEBVTT

1
00:00:01.000 --> 00:00:03.000
王面试官: 你好，听得到吗？

2
00:00:04.000 --> 00:00:05.000
Zhang San: 听得到，你好。

3
00:03:15.000 --> 00:03:20.000
王面试官: 先请你介绍一下自己最近做的项目。

4
00:03:21.000 --> 00:03:40.000
Zhang San: 我最近在做一个实时数据平台，负责 Flink 作业的调度。

5
00:05:00.000 --> 00:05:05.000
王面试官: 第二个问题，Redis 持久化有哪几种方式？

6
00:05:06.000 --> 00:05:08.000
Zhang San: 这个我不太清楚。

7
00:06:00.000 --> 00:06:05.000
王面试官: 好的。你有什么想问我们的吗？

8
00:06:06.000 --> 00:06:15.000
Zhang San: 团队现在用什么技术栈？
""".encode()

WORKSHOP = b"""WEBVTT

1
00:00:16.000 --> 00:00:18.000
Meera Iyer: Hi everyone! Give me one second.

2
00:00:20.000 --> 00:00:21.000
Arun K: Hi Meera!

3
00:01:30.000 --> 00:01:40.000
Meera Iyer: Today we look at negative numbers with a number line.

4
00:02:00.000 --> 00:02:05.000
Ravi N: Should we bring the worksheets from last week?

5
00:02:05.000 --> 00:02:10.000
Meera Iyer: Yes. So why do we need negative numbers? Anyone?

6
00:02:20.000 --> 00:02:30.000
Arun K: Thermometers go below zero, so the children see them there.

7
00:03:00.000 --> 00:03:10.000
Deepa S: In my class they use a lift going below the ground floor.
"""

START = datetime(2026, 12, 3, 6, 30, tzinfo=UTC)  # 14:30 in Asia/Shanghai
FETCHED_S = 30.0
"""How long a test waits for a transcript to be fetched and read: the reader runs twice
in a process of its own, which a loaded 2-core machine can hold up for seconds."""


def zoom_settings(zoom: FakeZoom, **more: Any) -> dict[str, Any]:
    return {
        "zoom_account_id": zoom.account_id,
        "zoom_client_id": zoom.client_id,
        "zoom_client_secret": zoom.client_secret,
        "zoom_secret_token": zoom.secret_token,
        "zoom_api_url": zoom.api_url,
        "zoom_oauth_url": zoom.oauth_url,
        "zoom_channel": CHANNEL,
    } | more


def zoom_env(zoom: FakeZoom, tmp: Path, **more: str) -> dict[str, str]:
    """`zoom_settings` as a process reads them: DEBRIEF_ZOOM_* and the uploads folder."""
    named = {f"DEBRIEF_{k.upper()}": str(v) for k, v in zoom_settings(zoom).items()}
    return named | {"DEBRIEF_UPLOADS": str(tmp / "uploads")} | more


def zoom_bot(fake: FakeSlack, zoom: FakeZoom, db: str, tmp: Path, **more: Any) -> Bot:
    settings = zoom_settings(zoom, uploads=str(tmp / "uploads")) | more
    fake.member_channels.add(CHANNEL)
    return start_bot(fake, db, **settings)


def cards(fake: FakeSlack, channel: str = CHANNEL) -> list[dict[str, Any]]:
    return fake.messages(channel)


def text_of(message: dict[str, Any]) -> str:
    return json.dumps(message.get("blocks") or [], ensure_ascii=False) + str(message.get("text"))


def show(db: str, cid: str) -> dict[str, Any]:
    out = CliRunner().invoke(cli, ["show", "--db", db, cid, "--json"])
    assert out.exit_code == 0, out.output
    found: dict[str, Any] = json.loads(out.output)
    return found


def arrived(bot: Bot, count: int = 1) -> list[ZoomRecording]:
    """Wait until `count` transcripts of the bot's space were taken (or refused)."""
    return wait_until(
        f"{count} Zoom transcripts finished",
        lambda: (
            done
            if len(done := [r for r in bot.store.zoom_recordings() if r.state != "waiting"])
            >= count
            else None
        ),
        FETCHED_S,
    )


def interview(zoom: FakeZoom, topic: str = "技术二面 - 张三", **kw: Any) -> Meeting:
    return zoom.add_meeting(
        topic=topic,
        start_time=kw.pop("start_time", START),
        host_email=kw.pop("host_email", "li.wei@example.com"),
        transcript=kw.pop("transcript", INTERVIEW),
        **kw,
    )


def test_an_interview_arrives_as_one_interview_with_its_card_once(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path)
    meeting = interview(zoom)
    started = time.monotonic()
    status, body = zoom.deliver(bot.zoom_url, zoom.event("recording.completed", meeting))
    assert status == 200 and time.monotonic() - started < 3, body
    (taken,) = arrived(bot)
    assert taken.state == "taken" and taken.candidate_id
    wait_until("the card", lambda: cards(fake_slack) or None, FETCHED_S)
    # Zoom again: the same event (a retry), then the transcript's own event, and a replica
    # of the same meeting: one interview, one download, one card
    again = zoom.deliver(bot.zoom_url, zoom.event("recording.completed", meeting))
    also = zoom.deliver(bot.zoom_url, zoom.event("recording.transcript_completed", meeting))
    assert again[0] == 200 and also[0] == 200
    assert bot.zoom is not None
    bot.zoom.fetch_due()
    bot.idle()
    (card,) = cards(fake_slack)
    assert "thread_ts" not in card or not card["thread_ts"]  # a top-level message
    assert "Zhang San" in text_of(card)
    assert "Zoom 会议「技术二面 - 张三」" in text_of(card)  # where it came from
    assert zoom.downloads(str(meeting.transcript_file_id)) == 1
    assert len(bot.store.zoom_recordings()) == 1
    shown = show(db_target, taken.candidate_id)
    assert shown["origin"] == {
        "kind": "zoom",
        "meeting_id": meeting.id,
        "meeting_uuid": meeting.uuid,
    }
    assert shown["title"] == "技术二面 - 张三"
    assert shown["interviewed_at"] == "2026-12-03T14:30"  # the start, in the team's zone
    assert shown["round"] == "二面"  # from the topic
    assert shown["source"].endswith(".vtt")
    assert [q["question"] for q in shown["questions"]][:1] == ["先请你介绍一下自己最近做的项目。"]
    bot.stop()


def test_a_meeting_that_is_not_an_interview_is_never_downloaded_nor_kept(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path)
    weekly = zoom.add_meeting(
        topic="产品周会", start_time=START, host_email="pm@example.com", transcript=INTERVIEW
    )
    for kind in ("recording.completed", "recording.transcript_completed"):
        status, _ = zoom.deliver(bot.zoom_url, zoom.event(kind, weekly))
        assert status == 200
    assert bot.zoom is not None
    bot.zoom.fetch_due()
    assert zoom.downloads(str(weekly.transcript_file_id)) == 0
    assert not [r for r in zoom.requests if "/rec/" in r.path or "/cdn/" in r.path]
    assert bot.store.zoom_recordings() == []
    assert not bot.store.zoom_seen(weekly.uuid, str(weekly.transcript_file_id))
    assert cards(fake_slack) == []
    bot.stop()


def test_unsigned_stale_and_foreign_events_change_nothing(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path)
    meeting = interview(zoom)
    event = zoom.event("recording.completed", meeting)
    now = int(time.time())
    refused = [
        zoom.deliver(bot.zoom_url, event, signed=False),
        zoom.deliver(bot.zoom_url, event, secret="not-the-secret-token"),
        zoom.deliver(bot.zoom_url, event, timestamp=now - 330),
        zoom.deliver(bot.zoom_url, event, timestamp=now + 330),  # (a loaded machine's
    ]  # second or two between `now` and the request stays well inside the margin)
    assert [status for status, _ in refused] == [401, 401, 401, 401]
    # the window itself: 5 minutes either way, to the second
    assert fresh(str(now - 300), now) and fresh(str(now + 300), now)
    assert not fresh(str(now - 301), now) and not fresh(str(now + 301), now)
    assert fresh(str((now - 300) * 1000), now)  # milliseconds read as such
    assert not fresh("", now) and not fresh("12a", now) and not fresh("-5", now)
    # signed for one body, sent with another
    raw = json.dumps(event).encode()
    headers = zoom.signed_headers(raw)
    other = json.dumps({**event, "event_ts": 1}).encode()
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        bot.zoom_url, other, {**headers, "Content-Type": "application/json"}, method="POST"
    )
    with pytest.raises(urllib.error.HTTPError) as tampered:
        urllib.request.urlopen(request, timeout=10)
    assert tampered.value.code == 401
    # correctly signed, of an account no workspace has: acknowledged, ignored
    foreign = zoom.event("recording.completed", meeting, account_id="someOtherAccount")
    assert zoom.deliver(bot.zoom_url, foreign)[0] == 200
    assert bot.zoom is not None
    bot.zoom.fetch_due()
    assert bot.store.zoom_recordings() == []
    assert zoom.downloads(str(meeting.transcript_file_id)) == 0
    assert cards(fake_slack) == []
    bot.stop()


def test_the_endpoint_is_validated_as_zoom_asks(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path)
    status, answer = zoom.validate_endpoint(bot.zoom_url)
    assert status == 200 and zoom.validation_ok(answer)
    bot.stop()


def test_a_restart_between_the_acknowledgement_and_the_download_still_fetches_it(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    first = zoom_bot(fake_slack, zoom, db_target, tmp_path, zoom_fetching=False)
    meeting = interview(zoom)
    assert (
        zoom.deliver(first.zoom_url, zoom.event("recording.transcript_completed", meeting))[0]
        == 200
    )
    assert zoom.downloads(str(meeting.transcript_file_id)) == 0
    first.stop()  # the process ends before it downloaded anything
    second = zoom_bot(fake_slack, zoom, db_target, tmp_path)
    (taken,) = arrived(second)
    assert taken.state == "taken"
    wait_until("the card", lambda: cards(fake_slack) or None, FETCHED_S)
    assert zoom.downloads(str(meeting.transcript_file_id)) == 1
    second.stop()


def test_a_process_that_stops_or_dies_mid_download_leaves_it_to_the_next(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path, zoom_fetching=False)
    first, second = (
        interview(zoom, "一面 A"),
        interview(zoom, "一面 B", transcript=INTERVIEW.replace(b"Zhang San", b"Qian Er")),
    )
    for meeting in (first, second):
        event = zoom.event("recording.completed", meeting)
        assert zoom.deliver(bot.zoom_url, event)[0] == 200
    # one process took the first and stopped (SIGTERM): it gives it back as it goes
    stopping = ZoomFetcher(bot.settings, bot.store, lambda ws: None, claimer="stopping")
    assert len(bot.store.claim_zoom_recordings("stopping", 30.0, limit=1)) == 1
    stopping.stop()
    # another took the second and died (SIGKILL): its lease runs out
    assert len(bot.store.claim_zoom_recordings("killed", 0.3, limit=1)) == 1
    assert bot.zoom is not None
    bot.zoom.start()
    done = arrived(bot, 2)
    assert {r.state for r in done} == {"taken"}
    assert zoom.downloads(str(first.transcript_file_id)) == 1
    assert zoom.downloads(str(second.transcript_file_id)) == 1
    bot.stop()


def test_429_5xx_a_cut_download_and_an_expired_token_are_tried_again_and_never_lost(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path, zoom_fetching=False)
    meeting = interview(zoom)
    assert zoom.deliver(bot.zoom_url, zoom.event("recording.completed", meeting))[0] == 200
    zoom.expire_download_tokens()  # the event's token no longer works: the app's is used
    zoom.fail("download", 429, times=1, retry_after=0)
    zoom.fail("download", 503, times=1)
    zoom.cut_short(str(meeting.transcript_file_id), times=1)
    assert bot.zoom is not None
    bot.zoom.start()
    (taken,) = arrived(bot)
    assert taken.state == "taken"
    wait_until("the card", lambda: cards(fake_slack) or None, FETCHED_S)
    assert zoom.downloads(str(meeting.transcript_file_id)) == 1
    assert zoom.token_requests >= 1  # the account's own token fetched it
    bot.stop()


def test_zoom_s_daily_limit_is_waited_for_until_the_time_it_names(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    # Zoom's docs: past a daily limit, Retry-After is the date and time to try again
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path, zoom_fetching=False)
    meeting = interview(zoom)
    assert zoom.deliver(bot.zoom_url, zoom.event("recording.completed", meeting))[0] == 200
    later = (datetime.now(UTC) + timedelta(minutes=40)).strftime("%Y-%m-%dT%H:%M:%SZ")
    zoom.fail("download", 429, retry_after=later)  # type: ignore[arg-type]
    assert bot.zoom is not None
    tried = bot.zoom.fetch_one()
    assert tried is not None and tried.outcome == "later" and tried.next_at is not None
    assert tried.next_at > datetime.now(UTC) + timedelta(minutes=30)  # not the first 2 s
    assert zoom.downloads(str(meeting.transcript_file_id)) == 0
    bot.stop()


def test_a_fault_after_the_interview_was_indexed_still_gives_its_card(
    fake_slack: FakeSlack,
    zoom: FakeZoom,
    db_target: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the database (or the process) goes away once the interview is indexed and before
    # the transcript is marked taken: the next try finds the same bytes indexed, from
    # this very meeting, and the card is still owed
    from store.errors import StoreError
    from store.zoom import ZoomStore

    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path, zoom_fetching=False)
    meeting = interview(zoom)
    assert zoom.deliver(bot.zoom_url, zoom.event("recording.completed", meeting))[0] == 200
    finished = ZoomStore.zoom_finished

    def gone(*args: Any, **kwargs: Any) -> bool:
        raise StoreError("the database went away")

    monkeypatch.setattr(ZoomStore, "zoom_finished", gone)
    assert bot.zoom is not None
    first = bot.zoom.fetch_one()
    assert first is not None and first.outcome == "later"
    assert bot.store.count() == 1 and cards(fake_slack) == []
    monkeypatch.setattr(ZoomStore, "zoom_finished", finished)
    bot.zoom.start()
    (taken,) = arrived(bot)
    assert taken.state == "taken" and taken.candidate_id
    (card,) = wait_until("the card", lambda: cards(fake_slack) or None, FETCHED_S)
    assert "Zhang San" in text_of(card)
    bot.stop()


def test_after_the_last_try_the_channel_is_told_once_which_meeting(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path, zoom_schedule=(0.05, 0.05))
    meeting = interview(zoom)
    zoom.fail("download", 500, times=20)
    assert zoom.deliver(bot.zoom_url, zoom.event("recording.completed", meeting))[0] == 200
    (failed,) = arrived(bot)
    assert failed.state == "failed" and failed.attempts == 3
    told = wait_until("the notice", lambda: cards(fake_slack) or None, FETCHED_S)
    assert len(told) == 1
    assert "2026-12-03 14:30" in text_of(told[0])  # the meeting, by its start time
    assert "张三" not in text_of(told[0])  # its topic is not repeated
    bot.stop()


def test_serve_s_poll_does_not_try_a_failed_transcript_again_and_again(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    # the channel was told once that it could not be fetched, and that `zoom sync`
    # tries again: the poll every DEBRIEF_ZOOM_POLL is not that, or the notice would
    # come back after each round of tries for as long as Zoom lists the meeting
    from bot.zoom import ZoomPoller

    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path, zoom_schedule=(0.05, 0.05))
    meeting = interview(zoom)
    zoom.fail("download", 500, times=3)
    assert zoom.deliver(bot.zoom_url, zoom.event("recording.completed", meeting))[0] == 200
    (failed,) = arrived(bot)
    assert failed.state == "failed"
    wait_until("the notice", lambda: cards(fake_slack) or None, FETCHED_S)
    assert bot.zoom is not None
    poller = ZoomPoller(bot.settings, bot.store, bot.zoom, 900)
    poller.run()
    assert poller.last is not None and poller.last.again == 0 and poller.last.seen == 1
    (still,) = bot.store.zoom_recordings()
    assert still.state == "failed"
    bot.stop()


def test_a_recording_the_reader_refuses_is_said_once_and_no_card(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path)
    workshop = zoom.add_meeting(
        topic="Interview skills workshop",
        start_time=START,
        host_email="coach@example.com",
        transcript=WORKSHOP,
    )
    assert zoom.deliver(bot.zoom_url, zoom.event("recording.completed", workshop))[0] == 200
    (refused,) = arrived(bot)
    assert refused.state == "refused" and refused.candidate_id is None
    assert refused.topic is None  # nothing of it is kept but its start
    told = wait_until("the notice", lambda: cards(fake_slack) or None, FETCHED_S)
    assert len(told) == 1 and "2026-12-03 14:30" in text_of(told[0])
    assert bot.store.count() == 0
    bot.stop()


def test_a_transcript_past_the_readers_limit_is_refused_with_that_reason(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path)
    cue = "\n\n{n}\n00:00:01.000 --> 00:00:02.000\n王面试官: 请介绍一下你自己。"
    huge = INTERVIEW + "".join(cue.format(n=n) for n in range(9, 120_000)).encode()
    assert len(huge) > 5 * 1024 * 1024
    meeting = interview(zoom, transcript=huge)
    assert zoom.deliver(bot.zoom_url, zoom.event("recording.completed", meeting))[0] == 200
    (refused,) = arrived(bot)
    assert refused.state == "refused"
    (told,) = wait_until("the notice", lambda: cards(fake_slack) or None, FETCHED_S)
    assert "MB" in text_of(told)  # the reader's reason: too large, and its limit
    assert bot.store.count() == 0
    bot.stop()


def test_a_transcript_past_the_readers_limit_is_told_with_its_true_size(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path)
    cue = "\n\n{n}\n00:00:01.000 --> 00:00:02.000\n王面试官: 请介绍一下你自己。"
    huge = INTERVIEW + "".join(cue.format(n=n) for n in range(9, 120_000)).encode()
    meeting = interview(zoom, transcript=huge)
    assert zoom.deliver(bot.zoom_url, zoom.event("recording.completed", meeting))[0] == 200
    arrived(bot)
    (told,) = wait_until("the notice", lambda: cards(fake_slack) or None, FETCHED_S)
    bot.stop()
    assert f"{len(huge) / 1e6:.1f}" in text_of(told), text_of(told)  # not a size it never read


def test_the_card_shows_the_topic_as_zoom_wrote_it_and_pings_nobody(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path)
    meeting = interview(zoom, "R&D 二面 <!channel> <@U0HOST>")
    assert zoom.deliver(bot.zoom_url, zoom.event("recording.completed", meeting))[0] == 200
    (card,) = wait_until("the card", lambda: cards(fake_slack) or None, FETCHED_S)
    bot.stop()
    (fact,) = [
        e["text"]
        for b in card["blocks"]
        if b["type"] == "context"
        for e in b["elements"]
        if "U0HOST" in e["text"]
    ]
    # escaped once, as Slack reads mrkdwn: shown as written, no @channel, no mention
    assert "R&amp;D 二面 &lt;!channel&gt; &lt;@U0HOST&gt;" in fact, fact
    assert "<!channel>" not in fact and "<@U0HOST>" not in fact


def test_a_channel_shared_with_another_organisation_gets_no_card(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    fake_slack.shared_channels.add(CHANNEL)
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path)
    meeting = interview(zoom)
    assert zoom.deliver(bot.zoom_url, zoom.event("recording.completed", meeting))[0] == 200
    (taken,) = arrived(bot)
    assert taken.state == "taken"  # indexed, searchable: only not posted there
    bot.idle()
    assert cards(fake_slack) == []
    bot.stop()


def test_the_host_is_named_as_slack_names_them(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    fake_slack.emails["li.wei@example.com"] = "U0HOST"
    fake_slack.users["U0HOST"] = "Li Wei"
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path)
    meeting = interview(zoom)
    assert zoom.deliver(bot.zoom_url, zoom.event("recording.completed", meeting))[0] == 200
    (taken,) = arrived(bot)
    assert taken.interviewer == "Li Wei"
    bot.stop()


def test_what_the_meeting_says_fills_only_what_the_transcript_does_not() -> None:
    meeting = ZoomRecording(
        meeting_uuid="u==",
        file_id="f1",
        meeting_id="81234567890",
        account_id="acc",
        topic="终面 - Bob",
        start_time="2026-12-03T06:30:00Z",
        interviewed_at="2026-12-03T14:30",
        interviewer="Li Wei",
    )
    bare = with_meeting(Transcript(id="a"), meeting)
    assert (bare.interviewed_at, bare.interviewers, bare.round) == (
        "2026-12-03T14:30",
        ["Li Wei"],
        "终面",
    )
    assert bare.title == "终面 - Bob" and bare.origin is not None
    assert bare.origin.meeting_id == 81234567890
    said = Transcript(id="b", interviewed_at="2026-12-04", interviewers=["王五"], round="二面")
    kept = with_meeting(said, meeting)
    assert (kept.interviewed_at, kept.interviewers, kept.round) == ("2026-12-04", ["王五"], "二面")


# -- zoom sync ----------------------------------------------------------------------------------


def sync(db: str, zoom: FakeZoom, fake: FakeSlack, tmp: Path, *args: str) -> Any:
    fake.member_channels.add(CHANNEL)
    env = zoom_env(zoom, tmp, SLACK_BOT_TOKEN="xoxb-test", SLACK_API_URL=fake.base_url)
    return CliRunner().invoke(cli, ["zoom", "sync", "--db", db, *args], env=env)


def test_zoom_sync_takes_what_the_webhook_missed_once(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    missed = interview(zoom, "一面：王五", start_time=now - timedelta(days=2))
    also = interview(
        zoom,
        "HR面 赵六",
        start_time=now - timedelta(days=40),
        transcript=INTERVIEW.replace(b"Zhang San", b"Zhao Liu"),
    )
    weekly = zoom.add_meeting(
        topic="周会", start_time=now - timedelta(days=1), host_email="pm@example.com",
        transcript=INTERVIEW,
    )  # fmt: skip
    out = sync(db_target, zoom, fake_slack, tmp_path, "--json")
    assert out.exit_code == 0, out.output
    said = json.loads(out.output)
    assert said["queued"] == 1 and said["passed_over"] == 1 and len(said["indexed"]) == 1
    assert zoom.downloads(str(missed.transcript_file_id)) == 1
    assert zoom.downloads(str(weekly.transcript_file_id)) == 0
    assert zoom.downloads(str(also.transcript_file_id)) == 0  # before the 30 days
    assert len(cards(fake_slack)) == 1
    # again, from further back (past Zoom's month a call: split), and the webhook late
    since = (now - timedelta(days=70)).date().isoformat()
    out = sync(db_target, zoom, fake_slack, tmp_path, "--from", since, "--json")
    assert out.exit_code == 0, out.output
    said = json.loads(out.output)
    assert said["queued"] == 1 and said["seen"] == 1
    assert zoom.downloads(str(missed.transcript_file_id)) == 1
    assert zoom.downloads(str(also.transcript_file_id)) == 1
    assert len(cards(fake_slack)) == 2
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path)
    assert zoom.deliver(bot.zoom_url, zoom.event("recording.completed", missed))[0] == 200
    assert bot.zoom is not None
    bot.zoom.fetch_due()
    bot.idle()
    assert zoom.downloads(str(missed.transcript_file_id)) == 1
    assert len(cards(fake_slack)) == 2
    bot.stop()


def test_zoom_sync_reads_each_users_recordings_where_the_account_list_is_refused(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    zoom.disable_account_recordings()
    now = datetime.now(UTC).replace(microsecond=0)
    meeting = interview(zoom, "技术面试 孙七", start_time=now - timedelta(days=3))
    out = sync(db_target, zoom, fake_slack, tmp_path, "--json")
    assert out.exit_code == 0, out.output
    assert len(json.loads(out.output)["indexed"]) == 1
    assert zoom.downloads(str(meeting.transcript_file_id)) == 1


def test_zoom_sync_reads_its_own_users_recordings_where_it_may_not_list_users(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    zoom.disable_account_recordings()
    zoom.fail("users", 400)  # an app without the scope to list users
    zoom.fail("recordings", 429, retry_after=1)  # Zoom's rate: waited for, tried again
    now = datetime.now(UTC).replace(microsecond=0)
    meeting = interview(zoom, "技术面试 郑十", start_time=now - timedelta(days=2))
    out = sync(db_target, zoom, fake_slack, tmp_path, "--json")
    assert out.exit_code == 0, out.output
    assert len(json.loads(out.output)["indexed"]) == 1
    assert zoom.downloads(str(meeting.transcript_file_id)) == 1
    assert any(r.path.endswith("/users/me/recordings") for r in zoom.requests)


def test_zoom_sync_without_slack_indexes_and_says_nothing_was_posted(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    meeting = interview(zoom, "终面 钱二", start_time=now - timedelta(days=1))
    env = zoom_env(zoom, tmp_path, DEBRIEF_LOCALE="en")
    out = CliRunner().invoke(cli, ["zoom", "sync", "--db", db_target], env=env)
    assert out.exit_code == 0, out.output
    assert "Indexed 1 interviews" in out.output and "SLACK_BOT_TOKEN is not set" in out.output
    assert zoom.downloads(str(meeting.transcript_file_id)) == 1
    assert fake_slack.calls("chat.postMessage") == []


def test_a_forgotten_zoom_interview_is_erased_and_not_fetched_again(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    meeting = interview(zoom, "二面 周八", start_time=now - timedelta(days=1))
    out = sync(db_target, zoom, fake_slack, tmp_path, "--json")
    (cid,) = json.loads(out.output)["indexed"]
    saved = show(db_target, cid)["source"]
    assert Path(saved).exists()
    forgot = CliRunner().invoke(cli, ["forget", "--db", db_target, cid, "--yes"])
    assert forgot.exit_code == 0, forgot.output
    assert not Path(saved).exists()
    again = sync(db_target, zoom, fake_slack, tmp_path, "--json")
    assert json.loads(again.output)["seen"] == 1
    assert zoom.downloads(str(meeting.transcript_file_id)) == 1
    out = CliRunner().invoke(cli, ["show", "--db", db_target, cid, "--json"])
    assert out.exit_code != 0


def test_zoom_sync_says_what_is_missing(db_target: str, tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["zoom", "sync", "--db", db_target], env={})
    assert out.exit_code == 2 and "DEBRIEF_ZOOM_ACCOUNT_ID" in out.output
    env = {"DEBRIEF_ZOOM_ACCOUNT_ID": "acc"}
    out = CliRunner().invoke(cli, ["zoom", "sync", "--db", db_target], env=env)
    assert out.exit_code == 2 and "DEBRIEF_ZOOM_CLIENT_ID" in out.output
    out = CliRunner().invoke(
        cli, ["zoom", "sync", "--db", db_target], env=env | {"DEBRIEF_ZOOM_CLIENT_ID": "c"}
    )
    assert out.exit_code == 2 and "DEBRIEF_ZOOM_CLIENT_SECRET" in out.output
    env |= {"DEBRIEF_ZOOM_CLIENT_ID": "c", "DEBRIEF_ZOOM_CLIENT_SECRET": "s"}
    out = CliRunner().invoke(
        cli, ["zoom", "sync", "--db", db_target, "--from", "yesterday"], env=env
    )
    assert out.exit_code == 2 and "--from" in out.output


def test_serve_takes_zoom_s_webhook_and_polls_beside_slack(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    """The real `debrief serve`: Zoom's webhook on the same port as Slack's events, the
    fetcher started once Slack answered, DEBRIEF_ZOOM_POLL's sync at start; SIGTERM ends
    it cleanly."""
    from support.serve import ServeProcess

    fake_slack.member_channels.add(CHANNEL)
    now = datetime.now(UTC).replace(microsecond=0)
    missed = interview(zoom, "二面 吴九", start_time=now - timedelta(days=1))
    live = interview(
        zoom,
        "Interview - Round 2",
        start_time=now - timedelta(hours=1),
        transcript=INTERVIEW.replace(b"Zhang San", b"Wu Jiu"),
    )
    env = zoom_env(
        zoom,
        tmp_path,
        SLACK_BOT_TOKEN="xoxb-test",
        SLACK_SIGNING_SECRET="secret",
        SLACK_API_URL=fake_slack.base_url,
        DEBRIEF_DB=db_target,
        DEBRIEF_ZOOM_POLL="1h",
    )
    serve = ServeProcess(env)
    try:
        wait_until("serve is up", lambda: (serve.healthz() or (0, ""))[0] == 200, timeout=60)
        status, _ = zoom.deliver(
            serve.url + "/zoom/events", zoom.event("recording.completed", live)
        )
        assert status == 200
        wait_until("two cards", lambda: len(cards(fake_slack)) == 2 or None, timeout=60)
    finally:
        assert serve.terminate() == 0
    assert "Traceback" not in serve.log
    assert zoom.downloads(str(missed.transcript_file_id)) == 1
    assert zoom.downloads(str(live.transcript_file_id)) == 1


def test_the_accounts_token_goes_to_zoom_s_hosts_alone() -> None:
    from bot.settings import load_settings

    settings = load_settings(zoom_api_url="http://127.0.0.1:5555/v2/")
    fetcher = ZoomFetcher(settings, None, lambda ws: None)  # type: ignore[arg-type]
    assert fetcher.zooms_own("https://us06web.zoom.us/rec/download/abc")
    assert fetcher.zooms_own("https://zoom.us/rec/download/abc")
    assert fetcher.zooms_own("http://127.0.0.1:6000/rec/download/abc")  # the API's host
    assert not fetcher.zooms_own("https://zoom.us.example.com/rec/download/abc")
    assert not fetcher.zooms_own("https://evil.example/rec/download/abc")


def test_zoom_sync_fetches_again_a_transcript_that_failed_after_the_last_try(
    fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path
) -> None:
    # the webhook's transcript could not be fetched after the last try (its download
    # URL dropped then); zoom sync lists it again: fetched with the URL Zoom lists now
    bot = zoom_bot(fake_slack, zoom, db_target, tmp_path, zoom_schedule=(0.05, 0.05))
    now = datetime.now(UTC).replace(microsecond=0)
    meeting = interview(zoom, "二面 吴九", start_time=now - timedelta(days=1))
    zoom.fail("download", 500, times=3)
    assert zoom.deliver(bot.zoom_url, zoom.event("recording.completed", meeting))[0] == 200
    (failed,) = arrived(bot)
    assert failed.state == "failed"
    # no candidate to forget it with: nothing of the meeting is kept but its start (the
    # topic names the candidate; forget and retention would never reach it)
    assert (failed.topic, failed.host_email, failed.host_id) == (None, None, None)
    assert failed.start_time
    wait_until("the notice", lambda: cards(fake_slack) or None, FETCHED_S)
    bot.stop()
    out = sync(db_target, zoom, fake_slack, tmp_path, "--json")
    assert out.exit_code == 0, out.output
    said = json.loads(out.output)
    assert said["retried"] == 1 and len(said["indexed"]) == 1, said
    assert zoom.downloads(str(meeting.transcript_file_id)) == 1
    shown = show(db_target, said["indexed"][0])
    assert shown["title"] == "二面 吴九" and shown["round"] == "二面"  # the listing's again


def test_names_and_keys_from_files_are_escaped_once_in_the_alike_lines() -> None:
    """`fit` escapes: escaping its result again showed `R&D` as `R&amp;D` (found beside
    the Zoom card's topic, issue 48's review)."""
    import json as _json

    from handlers.views.alike import alike_blocks
    from store.loop_models import Alike

    pending = alike_blocks("iv", "R&D <张三>", Alike(why="split", pending=True), "zh", False)
    said = _json.dumps([b.to_dict() for b in pending], ensure_ascii=False)
    assert "R&amp;D &lt;张三&gt;" in said and "&amp;amp;" not in said
    conflict = alike_blocks("iv", "x", Alike(why="conflict", ref="A&B"), "en", False)
    said = _json.dumps([b.to_dict() for b in conflict], ensure_ascii=False)
    assert "A&amp;B" in said and "&amp;amp;" not in said
