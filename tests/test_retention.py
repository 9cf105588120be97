"""DEBRIEF_RETENTION_DAYS, on SQLite and PostgreSQL: `debrief retention --dry-run` lists
who would go, `--apply` and the daily job `serve` runs erase them exactly as `forget`
does (uploaded files too, audited under a pseudonym), counting from the interview's
date (in DEBRIEF_TIMEZONE) or, without one, from the first indexing; the job runs once a
day across restarts and replicas."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from support.cli import Ran
from support.cli import debrief as run_debrief
from support.fake_slack import FakeSlack
from support.servers import free_port
from support.slackbot import SECRET
from support.waiting import wait_until

from store.factory import open_store

pytestmark = pytest.mark.both_backends

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
ZONE = "Asia/Shanghai"
OLD_INTERVIEW = "000_9e6b3ecb0732fcf3"  # interviewed 31 days ago: goes
OLD_INDEXING = "002_72ee0a76eea41e0e"  # no interview date, indexed long ago: goes
RECENT_INTERVIEW = "003_20561f43447eea49"  # indexed long ago, interviewed 30 days ago: stays
RECENT = "004_b1dde04b6d7437d5"  # indexed now, no date: stays


def env_of(db: str, **values: str) -> dict[str, str]:
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))}
    return kept | {"DEBRIEF_DB": db, "DEBRIEF_TIMEZONE": ZONE} | values


def debrief(db: str, *args: str, **env: str) -> Ran:
    return run_debrief(*args, env={"DEBRIEF_DB": db, "DEBRIEF_TIMEZONE": ZONE} | env)


def days_ago(n: int) -> str:
    return (datetime.now(ZoneInfo(ZONE)).date() - timedelta(days=n)).isoformat()


def date_them(db: str) -> None:
    store = open_store(db, create=False)
    dates = {
        OLD_INTERVIEW: (days_ago(31) + "T14:30", "2020-01-01T00:00:00.000000+00:00"),
        OLD_INDEXING: (None, "2020-01-01T00:00:00.000000+00:00"),
        RECENT_INTERVIEW: (days_ago(30), "2020-01-01T00:00:00.000000+00:00"),
    }
    for cid, (interviewed, indexed) in dates.items():
        store._write(  # type: ignore[attr-defined]
            lambda tx, i=interviewed, f=indexed, c=cid: tx.execute(
                "UPDATE candidates SET interviewed_at = ?, first_indexed_at = ? WHERE id = ?",
                [i, f, c],
            )
        )
    store.close()


@pytest.fixture
def db(db_target: str) -> str:
    done = debrief(db_target, "index", str(SEEDS))
    assert done.returncode == 0, done.stderr
    date_them(db_target)
    return db_target


def ids(db: str) -> set[str]:
    return {r["id"] for r in json.loads(debrief(db, "list", "--json").stdout)}


@pytest.mark.parametrize(
    ("locale", "interview", "indexed", "summary"),
    [
        ("zh", "面试于", "收录于", "以上 2 位候选人超过 30 天"),
        ("en", "interviewed", "indexed", "2 candidates older than 30 days"),
    ],
)
def test_dry_run_lists_who_would_go_and_changes_nothing(
    db: str, locale: str, interview: str, indexed: str, summary: str
) -> None:
    before = ids(db)
    done = debrief(db, "retention", "--dry-run", DEBRIEF_RETENTION_DAYS="30", DEBRIEF_LOCALE=locale)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith(f"{OLD_INDEXING}  {indexed} 2020-01-01")
    assert lines[1].startswith(f"{OLD_INTERVIEW}  {interview} {days_ago(31)}")
    assert summary in lines[2] and days_ago(30) in lines[2] and "--apply" in lines[2]
    assert ids(db) == before

    as_json = json.loads(debrief(db, "retention", "--dry-run", "--days", "30", "--json").stdout)
    assert as_json["days"] == 30 and as_json["before"] == days_ago(30)
    assert [(e["id"], e["basis"]) for e in as_json["would_forget"]] == [
        (OLD_INDEXING, "indexed"),
        (OLD_INTERVIEW, "interview"),
    ]


def test_apply_erases_exactly_as_forget_does(db: str, tmp_path: Path) -> None:
    # a transcript shared in Slack: its saved file goes with it
    shared = tmp_path / "uploads" / "shared.txt"
    shared.parent.mkdir()
    shared.write_text("the uploaded transcript", "utf-8")
    store = open_store(db, create=False)
    assert store.claim_upload("F1:C1", "F1", "C1", "1.1", "U1")
    store.finish_upload("F1:C1", "indexed", OLD_INTERVIEW, str(shared))
    store.close()

    done = debrief(db, "retention", "--apply", "--json", DEBRIEF_RETENTION_DAYS="30")
    assert done.returncode == 0, done.stderr
    assert {e["id"] for e in json.loads(done.stdout)["forgotten"]} == {OLD_INTERVIEW, OLD_INDEXING}
    assert ids(db) == {RECENT_INTERVIEW, RECENT}
    assert not shared.exists()

    audit = json.loads(debrief(db, "audit", "--json").stdout)
    erased = [e for e in audit if e["what"] == "forget:retention"]
    assert len(erased) == 2 and {e["who"] for e in erased} == {"cli"}
    assert all(e["candidate"].startswith("erased-") for e in erased)
    assert OLD_INTERVIEW not in json.dumps(audit) and OLD_INDEXING not in json.dumps(audit)
    # forgotten as by `forget`: indexing the folder again does not bring them back, and
    # `forget` says so
    assert debrief(db, "index", str(SEEDS)).returncode == 0
    assert OLD_INTERVIEW not in ids(db)
    again = debrief(db, "forget", OLD_INTERVIEW, DEBRIEF_LOCALE="en")
    assert again.returncode == 2 and "already forgotten" in again.stderr

    nothing = debrief(db, "retention", "--apply", "--days", "30", DEBRIEF_LOCALE="en")
    assert nothing.returncode == 0 and "no candidate is older than 30 days" in nothing.stdout


def test_without_a_policy_or_a_mode_it_says_what_to_give(db: str) -> None:
    unset = debrief(db, "retention", "--dry-run", DEBRIEF_LOCALE="en")
    assert unset.returncode == 2 and "DEBRIEF_RETENTION_DAYS is not set" in unset.stderr
    neither = debrief(db, "retention", "--days", "30")
    assert neither.returncode == 2 and "--dry-run" in neither.stderr and "--apply" in neither.stderr
    bad = debrief(db, "retention", "--dry-run", DEBRIEF_RETENTION_DAYS="thirty")
    assert bad.returncode == 2 and "DEBRIEF_RETENTION_DAYS" in bad.stderr
    assert len(ids(db)) == 4


# -- the daily job, in serve ----------------------------------------------------------------


class Serve:
    """The real `debrief serve`: the point is its daily job across restarts and two
    replicas on one database."""

    def __init__(self, db: str, fake: FakeSlack, uploads: Path, **env: str) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bot",
                "serve",
                "--port",
                str(free_port()),
                "--host",
                "127.0.0.1",
            ],
            env=env_of(
                db,
                SLACK_BOT_TOKEN="xoxb-test",
                SLACK_SIGNING_SECRET=SECRET,
                SLACK_API_URL=fake.base_url,
                DEBRIEF_UPLOADS=str(uploads),
                **env,
            ),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        self.lines += (line.rstrip("\n") for line in self.proc.stdout)

    def said(self, words: str) -> bool:
        if self.proc.poll() is not None:
            self.reader.join(timeout=5)
            raise AssertionError("serve exited:\n" + "\n".join(self.lines))
        return any(words in line for line in self.lines)

    def stop(self) -> str:
        self.proc.send_signal(signal.SIGTERM)
        assert self.proc.wait(timeout=30) == 0
        self.reader.join(timeout=5)
        log = "\n".join(self.lines)
        assert "Traceback" not in log
        return log


def test_serve_erases_once_a_day_across_restarts_and_replicas(
    db: str, fake_slack: FakeSlack, tmp_path: Path
) -> None:
    first = Serve(db, fake_slack, tmp_path, DEBRIEF_RETENTION_DAYS="30")
    try:
        wait_until("the daily run", lambda: first.said("retention: forgot 2 candidates"), 60)
        assert ids(db) == {RECENT_INTERVIEW, RECENT}
        # another replica, started the same day, on the same database: today's run is done
        second = Serve(db, fake_slack, tmp_path, DEBRIEF_RETENTION_DAYS="30")
        try:
            wait_until("its check", lambda: second.said("today's run was done already"), 60)
        finally:
            second.stop()
    finally:
        first.stop()
    audit = json.loads(debrief(db, "audit", "--json").stdout)
    assert [e["who"] for e in audit if e["what"] == "forget:retention"] == ["debrief", "debrief"]

    # restarted later the same day, with one more candidate now past the limit: it waits
    # for tomorrow's run (or `debrief retention --apply`)
    store = open_store(db, create=False)
    store._write(  # type: ignore[attr-defined]
        lambda tx: tx.execute(
            "UPDATE candidates SET interviewed_at = ? WHERE id = ?", [days_ago(40), RECENT]
        )
    )
    store.close()
    again = Serve(db, fake_slack, tmp_path, DEBRIEF_RETENTION_DAYS="30")
    try:
        wait_until("its check", lambda: again.said("today's run was done already"), 60)
    finally:
        again.stop()
    assert RECENT in ids(db)
    assert debrief(db, "retention", "--apply", "--days", "30").returncode == 0
    assert ids(db) == {RECENT_INTERVIEW}


def test_serve_without_a_policy_erases_nothing(
    db: str, fake_slack: FakeSlack, tmp_path: Path
) -> None:
    served = Serve(db, fake_slack, tmp_path)
    try:
        wait_until("ready", lambda: served.said("ready: "), 60)
    finally:
        log = served.stop()
    assert "DEBRIEF_RETENTION_DAYS is not set" in log
    assert len(ids(db)) == 4
