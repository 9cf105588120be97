"""Nothing lost: a full disk says so and keeps nothing half-written; the next run, once
there is space, finishes the job. Real processes, a real (small) tmpfs."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from support.fake_slack import FakeSlack
from support.servers import free_port
from support.signed import command_body, event_body, post_signed
from support.slackbot import SECRET, Bot

TEXT = "岗位：后端工程师 从业年限：3年\n简介：{intro}\n{questions}点评：可以\n"
HAN = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]


def debrief(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], capture_output=True, text=True, check=False
    )


def mount(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["mount", *args], capture_output=True, text=True, check=False)


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB tmpfs, where this process may mount one (root, no seccomp filter)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    done = mount("-t", "tmpfs", "-o", "size=1M", "tmpfs", str(disk))
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {(done.stderr or done.stdout).strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


@pytest.fixture
def big_folder(tmp_path: Path) -> Path:
    """300 transcripts of distinct text: several MB once indexed."""
    rng = random.Random(3)
    folder = tmp_path / "transcripts"
    folder.mkdir()
    for n in range(300):
        questions = "".join(
            f"问题{q}：{''.join(rng.choices(HAN, k=40))}\n考察目标：目标\n"
            f"回答：{''.join(rng.choices(HAN, k=300))}\n"
            for q in range(1, 6)
        )
        text = TEXT.format(intro="".join(rng.choices(HAN, k=200)), questions=questions)
        (folder / f"c{n:03d}.txt").write_text(text, "utf-8")
    return folder


def whole(db: Path) -> int:
    """Check the database is sound and every candidate in it is whole; return how many."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = conn.execute(
            "SELECT c.id, c.question_count, count(q.seq) FROM candidates c"
            " LEFT JOIN questions q ON q.candidate_rid = c.rid GROUP BY c.rid"
        ).fetchall()
        assert all(expected == found == 5 for _id, expected, found in rows), rows
        return len(rows)
    finally:
        conn.close()


def test_index_on_a_full_disk_says_so_and_the_next_run_finishes(
    tiny_disk: Path, big_folder: Path
) -> None:
    db = tiny_disk / "debrief.db"
    done = debrief("index", str(big_folder), "--db", str(db))
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "磁盘已满" in lines[0], done.stderr  # in DEBRIEF_LOCALE (zh)
    assert "rollback" not in done.stderr and "Traceback" not in done.stderr
    kept = whole(db)
    assert kept < 300  # it did run out of space

    assert mount("-o", "remount,size=64M", str(tiny_disk)).returncode == 0
    again = debrief("index", str(big_folder), "--db", str(db), "--json")
    assert again.returncode == 0, again.stderr
    assert whole(db) == 300


def test_serve_on_a_full_disk_says_so_in_one_line(tiny_disk: Path, big_folder: Path) -> None:
    """serve cannot even create its database: one line, exit 1, no traceback."""
    filler = tiny_disk / "filler"
    with open(filler, "wb") as fh:
        try:
            while True:
                fh.write(b"\0" * 65536)
                fh.flush()
        except OSError:
            pass  # the disk is full now: that is the point
    done = subprocess.run(
        [sys.executable, "-m", "bot", "serve", "--db", str(tiny_disk / "serve.db")],
        env={
            "PATH": "/usr/bin:/bin",
            "SLACK_BOT_TOKEN": "xoxb-test",
            "SLACK_SIGNING_SECRET": "secret",
            "SLACK_API_URL": "http://127.0.0.1:9/api/",
        },
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
    assert any("磁盘已满" in line for line in lines) and len(lines) <= 2, done.stderr


HOLD_LOCK = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()
conn.execute("ROLLBACK")
"""


@contextmanager
def write_lock_held(db: str) -> Iterator[None]:
    """Another process holds the database's write lock (as an index run would)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD_LOCK, db],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
        yield
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
        proc.wait(timeout=10)


def test_lookups_never_wait_on_a_writer(bot: Bot) -> None:
    """Another process holds the write lock (an index run, say): /candidate still answers,
    and its audit line is written once the lock is free."""
    with write_lock_held(bot.store.path):
        status, _seconds = bot.command("summary 002", name="locked")
        assert status == 200
        [reply] = bot.replies("locked", timeout=5)  # well within the 15 s busy timeout
        assert "002_72ee0a76eea41e0e" in json.dumps(reply, ensure_ascii=False)
        audited = bot.store.db.execute("SELECT count(*) FROM audit").fetchone()[0]
        assert audited == 0  # not written yet: it waits for the lock, the reply did not
    assert bot.store.flush_audit(timeout=15)
    seen = {(e.who, e.what, e.candidate) for e in bot.store.audit_log()}
    assert ("U123", "lookup:summary", "002_72ee0a76eea41e0e") in seen


def test_a_reply_is_kept_before_it_is_acknowledged(bot: Bot) -> None:
    """A 200 for a thread reply means it is in the database; when the database stays
    locked past the bounded wait, Slack gets a 503 (and sends it again) instead."""
    bot.command("点评 002", name="v")
    bot.fake.wait_for("chat.postMessage")
    deadline = time.monotonic() + 10
    while bot.store.db.execute("SELECT count(*) FROM posts").fetchone()[0] == 0:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    parent = bot.store.db.execute("SELECT ts FROM posts").fetchone()[0]
    event = {
        "type": "message",
        "channel": "C123",
        "user": "UREV",
        "text": "hire",
        "ts": "1800000000.7",
        "thread_ts": parent,
    }
    with write_lock_held(bot.store.path):
        assert bot.event(event, event_id="Ev1") == 503  # not kept: not acknowledged
    assert bot.store.db.execute("SELECT count(*) FROM replies").fetchone()[0] == 0
    assert bot.event(event, event_id="Ev1") == 200  # Slack's retry
    # acknowledged: already in the database, no waiting
    assert bot.store.db.execute("SELECT decision FROM replies").fetchall() == [("hire",)]


def start_serve(fake: FakeSlack, tmp_path: Path, seeds: Path) -> tuple[subprocess.Popen[str], str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))}
    env |= {
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_SIGNING_SECRET": SECRET,
        "SLACK_API_URL": fake.base_url,
        "DEBRIEF_DB": str(tmp_path / "served.db"),
        "DEBRIEF_TRANSCRIPTS": str(seeds),
    }
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve", "--port", str(port), "--host", "127.0.0.1"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1):
                break
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline, "serve did not start"
            time.sleep(0.05)
    return proc, url + "/slack/events"


def reply_in_a_thread(fake: FakeSlack, url: str, db: Path) -> None:
    """Post a verdict through the running serve, then reply `hire` in its thread (200)."""
    deadline = time.monotonic() + 30
    while True:  # the watcher's first rescan indexes the seeds
        body = command_body("点评 002", response_url=fake.response_url("v"))
        assert post_signed(url, body, SECRET)[0] == 200
        if fake.calls("chat.postMessage"):
            break
        assert time.monotonic() < deadline
        time.sleep(0.2)
    conn = sqlite3.connect(db)
    while not (row := conn.execute("SELECT ts FROM posts").fetchone()):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    conn.close()
    event = {"type": "message", "channel": "C123", "user": "UREV", "text": "hire"}
    body = event_body(event | {"ts": "1800000000.5", "thread_ts": row[0]})
    assert post_signed(url, body, SECRET)[0] == 200


def decisions(db: Path) -> list[tuple[str, str]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT reviewer, decision FROM replies").fetchall()
    finally:
        conn.close()


@pytest.mark.parametrize("how", ["SIGTERM", "SIGKILL"])
def test_an_acknowledged_reply_survives_the_process_stopping(
    fake_slack: FakeSlack, tmp_path: Path, seeds_dir: Path, how: str
) -> None:
    proc, url = start_serve(fake_slack, tmp_path, seeds_dir)
    try:
        reply_in_a_thread(fake_slack, url, tmp_path / "served.db")
        proc.send_signal(getattr(signal, how))  # right after the 200
        out, _ = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert decisions(tmp_path / "served.db") == [("UREV", "hire")]
    if how == "SIGTERM":  # a clean stop: exit 0, the audit flushed, no traceback
        assert proc.returncode == 0, out
        assert "stopped" in out and "Traceback" not in out, out
        conn = sqlite3.connect(tmp_path / "served.db")
        actions = {r[0] for r in conn.execute("SELECT action FROM audit")}
        conn.close()
        assert {"lookup:verdict", "decision:hire"} <= actions
