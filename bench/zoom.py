"""What Zoom's webhook costs Slack's side, and how soon a Zoom interview's card is in the
channel (issue 48).

    python bench/zoom.py --repeat 100 [--db postgresql://…]

The app in process, on loopback, with the strict fake Slack and the strict fake Zoom,
its fetcher running as `serve` runs it. Measured in the same run:

- the baseline: a signed `/candidate 帮助` timed to its acknowledgement;
- `POST /zoom/events` with a `recording.completed` of a new interview (verified, filtered,
  queued, acknowledged), timed to its acknowledgement, and from the event to its card
  reaching the fake Slack (download, reading in a bounded process, indexing, posting);
- the same with a meeting that is not an interview by its topic (passed over).

Medians and p99, and each acknowledgement's ratio to the baseline. Zoom gives up on an
event not acknowledged in 3 seconds. Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support.fake_slack import FakeSlack  # noqa: E402
from support.fake_zoom import FakeZoom  # noqa: E402
from support.signed import command_body, post_signed  # noqa: E402
from support.slackbot import SECRET, start_bot  # noqa: E402

CHANNEL = "C0ZOOM"
TRANSCRIPT = """WEBVTT

1
00:00:01.000 --> 00:00:03.000
王面试官: 你好，我们开始面试吧。

2
00:00:04.000 --> 00:00:05.000
{name}: 好的，你好。

3
00:03:15.000 --> 00:03:20.000
王面试官: 先请你介绍一下自己最近做的项目。

4
00:03:21.000 --> 00:03:40.000
{name}: 我最近在做一个实时数据平台，负责 Flink 作业的调度。

5
00:05:00.000 --> 00:05:05.000
王面试官: Redis 持久化有哪几种方式？

6
00:05:06.000 --> 00:05:08.000
{name}: RDB 和 AOF，我们线上用的是混合持久化。
"""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(label: str, values: list[float], base: float | None = None) -> str:
    med = statistics.median(values)
    ratio = f"  ×{med / base:.2f} of the baseline's median" if base else ""
    return f"{label:<44} p50 {med:8.1f} ms  p99 {pct(values, 0.99):8.1f} ms{ratio}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=100)
    parser.add_argument("--db", help="a postgresql:// URL (default: a SQLite file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, FakeSlack() as fake, FakeZoom() as zoom:
        fake.member_channels.add(CHANNEL)
        bot = start_bot(
            fake,
            args.db or str(Path(tmp) / "bench.db"),
            own_server=True,
            uploads=str(Path(tmp) / "uploads"),
            zoom_account_id=zoom.account_id,
            zoom_client_id=zoom.client_id,
            zoom_client_secret=zoom.client_secret,
            zoom_secret_token=zoom.secret_token,
            zoom_api_url=zoom.api_url,
            zoom_oauth_url=zoom.oauth_url,
            zoom_channel=CHANNEL,
        )
        try:
            base: list[float] = []
            for n in range(args.repeat):
                body = command_body("帮助", response_url=fake.response_url(f"h{n}"))
                started = time.perf_counter()
                status, _h, _b = post_signed(bot.events_url, body, SECRET)
                base.append((time.perf_counter() - started) * 1000)
                assert status == 200
            bot.idle()
            acks, cards, passed = [], [], []
            start = datetime.now(UTC) - timedelta(hours=2)
            for n in range(args.repeat):
                meeting = zoom.add_meeting(
                    topic=f"技术二面 候选人{n}",
                    start_time=start + timedelta(minutes=n),
                    host_email="li.wei@example.com",
                    transcript=TRANSCRIPT.format(name=f"Candidate {n:04d}").encode(),
                    other_files=False,
                )
                before = len(fake.messages(CHANNEL))
                started = time.perf_counter()
                status, _ = zoom.deliver(bot.zoom_url, zoom.event("recording.completed", meeting))
                acks.append((time.perf_counter() - started) * 1000)
                assert status == 200
                deadline = time.monotonic() + 60
                while len(fake.messages(CHANNEL)) <= before:
                    if time.monotonic() > deadline:
                        raise SystemExit(f"no card for meeting {n} in 60 s")
                    time.sleep(0.002)
                cards.append((time.perf_counter() - started) * 1000)
                weekly = zoom.add_meeting(
                    topic=f"周会 {n}",
                    start_time=start + timedelta(minutes=n),
                    host_email="pm@example.com",
                    transcript=TRANSCRIPT.format(name="x").encode(),
                    other_files=False,
                )
                started = time.perf_counter()
                status, _ = zoom.deliver(bot.zoom_url, zoom.event("recording.completed", weekly))
                passed.append((time.perf_counter() - started) * 1000)
                assert status == 200
            backend = "PostgreSQL" if args.db else "SQLite"
            print(f"{args.repeat} each, {backend}, in process on loopback")
            print(line("baseline: /candidate 帮助 acknowledged", base))
            b = statistics.median(base)
            print(line("/zoom/events, an interview: acknowledged", acks, b))
            print(line("/zoom/events, passed over: acknowledged", passed, b))
            print(line("an interview: event to its card in Slack", cards))
            print("Zoom's limit for an acknowledgement: 3000 ms")
        finally:
            bot.stop()


if __name__ == "__main__":
    main()
