"""What installing in many workspaces costs a request, beside one workspace's bot token.

    python bench/workspaces.py --repeat 300

The same app, in process, on loopback, with the strict fake Slack: once with
SLACK_BOT_TOKEN (the baseline, measured in the same run), once installed in many
workspaces through the browser's OAuth flow, with `--spaces` workspaces installed and
the seeds indexed into each. Each signed `/candidate 000` is timed to its
acknowledgement and to its reply reaching the fake Slack; the multi-workspace request
also finds its installation, decrypts its token (Fernet), and compares its workspace's
settings version. Medians and p99, and the ratio to the baseline. Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support.fake_oauth import Installer  # noqa: E402
from support.fake_slack import FakeSlack  # noqa: E402
from support.installed import install, start_installed_bot  # noqa: E402
from support.signed import command_body, post_signed  # noqa: E402
from support.slackbot import SECRET, Bot, start_bot  # noqa: E402

from store.indexer import index_paths  # noqa: E402

SEEDS = ROOT / "seeds"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timed(bot: Bot, team: str, repeat: int) -> tuple[list[float], list[float]]:
    acks, replies = [], []
    for n in range(repeat):
        name = f"r{n}"
        body = command_body("000", team_id=team, response_url=bot.fake.response_url(name))
        started = time.perf_counter()
        status, _h, _b = post_signed(bot.events_url, body, SECRET)
        acked = time.perf_counter()
        assert status == 200
        bot.fake.wait_for(f"response/{name}", timeout=30)
        acks.append((acked - started) * 1000)
        replies.append((time.perf_counter() - started) * 1000)
    bot.idle()
    return acks, replies


def line(label: str, acks: list[float], replies: list[float]) -> str:
    return (
        f"{label:<28} ack p50 {statistics.median(acks):6.1f} ms  p99 {pct(acks, 0.99):6.1f} ms"
        f"   reply p50 {statistics.median(replies):6.1f} ms  p99 {pct(replies, 0.99):6.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--spaces", type=int, default=20, help="workspaces installed")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as work, FakeSlack() as fake:
        single = start_bot(fake, str(Path(work) / "single.db"), search_workers=0)
        assert not index_paths(single.store, [SEEDS]).failed
        timed(single, "T0001", 20)  # warm
        base = timed(single, "T0001", args.repeat)
        single.stop()
        many = start_installed_bot(fake, str(Path(work) / "many.db"), search_workers=0)
        for n in range(args.spaces):
            team = f"T1{n:04d}"
            install(many, Installer(team_id=team, team_name=f"team {n}"))
            found = many.store.find_installation(team)
            assert found is not None
            assert not index_paths(many.store.in_workspace(found.ws), [SEEDS]).failed
        last = f"T1{args.spaces - 1:04d}"
        timed(many, last, 20)
        multi = timed(many, last, args.repeat)
        many.stop()
    print(f"{args.repeat} requests each, `/candidate 000`, SQLite, loopback")
    print(line("one workspace (baseline)", *base))
    print(line(f"{args.spaces} workspaces installed", *multi))
    ratio = statistics.median(multi[0]) / statistics.median(base[0])
    print(f"ack median ratio (many / one): {ratio:.2f}")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
