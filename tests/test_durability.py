"""Nothing lost: a full disk says so and keeps nothing half-written; the next run, once
there is space, finishes the job. Real processes, a real (small) tmpfs."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from slackbot import Bot

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
    assert len(lines) == 1 and "disk full" in lines[0], done.stderr
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
    assert any("disk full" in line for line in lines) and len(lines) <= 2, done.stderr


def test_lookups_never_wait_on_a_writer(bot: Bot) -> None:
    """Another process holds the write lock (an index run, say): /candidate still answers,
    and its audit line is written once the lock is free."""
    holder = sqlite3.connect(bot.store.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # the write lock, held
    try:
        status, _seconds = bot.command("summary 002", name="locked")
        assert status == 200
        [reply] = bot.replies("locked", timeout=5)  # well within the 15 s busy timeout
        assert "002_72ee0a76eea41e0e" in json.dumps(reply, ensure_ascii=False)
        audited = holder.execute("SELECT count(*) FROM audit").fetchone()[0]
        assert audited == 0  # not written yet: it waits for the lock, the reply did not
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert bot.store.flush_audit(timeout=15)
    seen = {(e.who, e.what, e.candidate) for e in bot.store.audit_log()}
    assert ("U123", "lookup:summary", "002_72ee0a76eea41e0e") in seen
