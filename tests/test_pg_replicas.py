"""Two `debrief serve` replicas (real processes, HTTP mode) on one PostgreSQL database:
the digest is posted once, a duplicated event is recorded once, one replica indexes the
folder, and the other takes over when the first is killed."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.fake_slack import FakeSlack
from support.pg_fixtures import fresh_pg_url
from support.servers import free_port
from support.signed import event_body, post_signed
from support.slackbot import SECRET
from support.waiting import wait_until

from store.indexer import index_paths
from store.pg import PgStore

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


@dataclass
class Replica:
    name: str
    proc: subprocess.Popen[bytes]
    url: str
    log: Path

    def text(self) -> str:
        return self.log.read_text("utf-8", "replace")


def _up(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/healthz", timeout=1) as r:
            return bool(r.status == 200)
    except OSError:
        return False


@pytest.fixture
def two_replicas(
    request: pytest.FixtureRequest, fake_slack: FakeSlack, tmp_path: Path
) -> Iterator[tuple[str, Path, list[Replica]]]:
    db = fresh_pg_url(request)
    folder = tmp_path / "transcripts"
    shutil.copytree(SEEDS, folder)
    seeded = PgStore(db)
    assert not index_paths(seeded, [folder]).failed  # so that the digest has news
    seeded.close()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))}
    env |= {
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_SIGNING_SECRET": SECRET,
        "SLACK_API_URL": fake_slack.base_url,
        "DEBRIEF_DB": db,
        "DEBRIEF_TRANSCRIPTS": str(folder),
        "DEBRIEF_DIGEST_CHANNEL": "CHIRE",
        "DEBRIEF_DIGEST_TIME": "00:00",  # due at once: both replicas try at start
        "DEBRIEF_LOG_LEVEL": "debug",
        "DEBRIEF_WATCH": "poll",
    }
    replicas: list[Replica] = []
    try:
        for name in ("a", "b"):
            port = free_port()
            log = tmp_path / f"{name}.log"
            with log.open("wb") as out:
                proc = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "bot",
                        "serve",
                        "--port",
                        str(port),
                        "--host",
                        "127.0.0.1",
                    ],
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            replicas.append(Replica(name, proc, f"http://127.0.0.1:{port}", log))
        for r in replicas:
            wait_until(
                f"replica {r.name} answers",
                lambda r=r: _up(r.url) or r.proc.poll() is not None,
                timeout=30,
            )
            assert r.proc.poll() is None, r.text()
        yield db, folder, replicas
    finally:
        for r in replicas:
            if r.proc.poll() is None:
                r.proc.send_signal(signal.SIGTERM)
                try:
                    r.proc.wait(10)
                except subprocess.TimeoutExpired:
                    r.proc.kill()
                    r.proc.wait()
        for r in replicas:
            assert "Traceback" not in r.text(), r.text()


def _reply(ts: str, thread_ts: str, text: str) -> dict[str, str]:
    return {
        "type": "message",
        "channel": "C123",
        "user": "U777",
        "text": text,
        "ts": ts,
        "thread_ts": thread_ts,
        "channel_type": "channel",
        "event_ts": ts,
    }


def test_two_replicas_on_one_database(
    fake_slack: FakeSlack, two_replicas: tuple[str, Path, list[Replica]]
) -> None:
    db, folder, (a, b) = two_replicas
    store = PgStore(db)

    # One replica leads and watches the folder; the other stands by.
    wait_until(
        "one replica leads, the other stands by",
        lambda: all("this replica leads" in r.text() or "standing by" in r.text() for r in (a, b)),
        timeout=30,
    )
    leaders = [r for r in (a, b) if "this replica leads" in r.text()]
    assert len(leaders) == 1, [r.text() for r in (a, b)]
    leader = leaders[0]
    follower = b if leader is a else a
    assert "standing by" in follower.text()

    # The digest: both replicas ran it at start; it was posted once.
    wait_until(
        "both replicas tried the digest",
        lambda: all("digest run:" in r.text() for r in (a, b)),
        timeout=30,
    )
    digests = [c for c in fake_slack.calls("chat.postMessage") if c.params["channel"] == "CHIRE"]
    assert len(digests) == 1
    (sent,) = store.db.execute("SELECT count(*) FROM digests WHERE status = 'sent'").fetchone()
    assert sent == 1

    # A duplicated event, delivered to both replicas at once, is recorded once.
    cid = store.ids()[0]
    store.record_post("C123", "1700000000.000100", cid, "verdict")
    event = _reply("1800000000.000200", "1700000000.000100", "Hire: 沟通清楚")
    statuses: list[int] = []

    def deliver(replica: Replica, retry: bool) -> None:
        headers = (
            {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"} if retry else None
        )
        status, _h, _b = post_signed(
            replica.url + "/slack/events",
            event_body(event, event_id="EvDup"),
            SECRET,
            extra_headers=headers,
        )
        statuses.append(status)

    threads = [threading.Thread(target=deliver, args=(r, r is b)) for r in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == [200, 200]
    (replies,) = store.db.execute("SELECT count(*) FROM replies").fetchone()
    assert replies == 1
    fake_slack.wait_for("reactions.add")
    assert [d.decision for d in store.get_candidate(cid).decisions] == ["hire"]  # type: ignore[union-attr]

    # The leader indexes a new file; then it dies, and the other takes over the folder.
    (folder / "老人.txt").write_text(
        "岗位：后端工程师 从业年限：5年\n问题1：你好\n考察目标：礼貌\n回答：你好\n点评：通过\n",
        "utf-8",
    )
    wait_until("the leader indexes a new file", lambda: store.count() == 5, timeout=30)
    leader.proc.send_signal(signal.SIGKILL)
    leader.proc.wait(10)
    (folder / "新人.txt").write_text(
        "岗位：测试工程师 从业年限：2年\n问题1：你好\n考察目标：礼貌\n回答：\n点评：待定\n", "utf-8"
    )
    wait_until(
        "the other replica leads", lambda: "this replica leads" in follower.text(), timeout=30
    )
    wait_until("the new file is indexed by the new leader", lambda: store.count() == 6, timeout=30)
    assert follower.proc.poll() is None
    store.close()
