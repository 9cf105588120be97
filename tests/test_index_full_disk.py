"""A full disk never leaves `debrief index` waiting (issue 45): wherever the disk fills
(as the database opens, in a save while the parse workers are busy, at the last commit)
the run ends with the one line that says the disk is full, and exit 1; a parse worker
killed costs the file it was reading alone (skipped as stopped: the out-of-memory killer
takes the process reading the file that needs the memory) and leaves nothing waiting;
and the run killed leaves no worker behind.

Real processes: `python -m bot index` with its worker processes, the fault injected at
start-up by tests/support/faults/sitecustomize.py (no root needed: SQLite's
`max_page_count`, PostgreSQL's own `disk_full` error); the waiting is the point, so each
run has a deadline, and what it started is killed when it passes. The disk filling as
the database opens needs a real full disk (a small tmpfs): where this process may mount
one."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.waiting import wait_until

from store.transcripts.errors import READ_TOO_LONG

ROOT = Path(__file__).resolve().parent.parent
FAULTS = Path(__file__).resolve().parent / "support" / "faults"
DEADLINE = 120  # seconds: a run that takes longer is waiting on something that will not come
FILES = 120
TEXT = "岗位：后端工程师 从业年限：3年\n简介：{intro}\n{questions}点评：可以\n"
HAN = [chr(c) for c in range(0x4E00, 0x4E00 + 3000)]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Transcripts of distinct text."""
    rng = random.Random(45)
    folder = tmp_path / "transcripts"
    folder.mkdir()
    for n in range(FILES):
        questions = "".join(
            f"问题{q}：{''.join(rng.choices(HAN, k=30))}\n考察目标：目标\n"
            f"回答：{''.join(rng.choices(HAN, k=200))}\n"
            for q in range(1, 4)
        )
        text = TEXT.format(intro="".join(rng.choices(HAN, k=100)), questions=questions)
        (folder / f"c{n:03d}.txt").write_text(text, "utf-8")
    return folder


def start(folder: Path, db: str, fault: dict[str, Any], *more: str) -> subprocess.Popen[str]:
    """`debrief index` in a process of its own (and a session of its own, with the
    workers it starts), with `fault`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DEBRIEF_")}
    env |= {
        "PYTHONPATH": os.pathsep.join([str(FAULTS), str(ROOT)]),
        "DEBRIEF_TEST_FAULT": json.dumps(fault),
        "DEBRIEF_LOCALE": "zh",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "index", str(folder), "--db", db, *more],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def finish(proc: subprocess.Popen[str]) -> subprocess.CompletedProcess[str]:
    """What the run said, once its output ends (the run, and every process that holds
    its output, ended); fails the test when it has not by the deadline, and then ends
    every process the run started."""
    try:
        out, err = proc.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"debrief index, or a process it started, still ran after {DEADLINE} s")
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def index(
    folder: Path, db: str, fault: dict[str, Any], *more: str
) -> subprocess.CompletedProcess[str]:
    return finish(start(folder, db, fault, *more))


def says_disk_full(done: subprocess.CompletedProcess[str]) -> None:
    """Exit 1 and one line on stderr, the disk-full one, in DEBRIEF_LOCALE: no traceback."""
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("错误：磁盘已满"), done.stderr


@pytest.mark.both_backends
@pytest.mark.parametrize(
    "fault",
    [
        # the disk fills in a save, while both workers are busy parsing
        pytest.param({"workers": 2, "slow_worker": 0.05, "full_after": 10}, id="writer"),
        # every file saved, the disk fills as the last batch commits
        pytest.param({"workers": 2, "full_after": FILES}, id="last_commit"),
        # a worker is killed, and the disk fills afterwards
        pytest.param(
            {"workers": 2, "kill_worker_at": "c030.txt", "full_after": 60}, id="worker_killed"
        ),
    ],
)
def test_a_full_disk_ends_the_run_with_one_line(
    folder: Path, db_target: str, fault: dict[str, Any]
) -> None:
    says_disk_full(index(folder, db_target, fault))


def test_a_parse_worker_killed_leaves_nothing_waiting(folder: Path, tmp_path: Path) -> None:
    """A worker killed (the kernel's out-of-memory killer, on a machine whose memory a
    full tmpfs holds) never leaves the writer waiting for its files: the file it was
    reading is skipped as stopped, never read again by the run itself (which could take
    the run's memory); the files after it are read by another worker, and indexed."""
    db = tmp_path / "debrief.db"
    done = index(folder, str(db), {"workers": 2, "kill_worker_at": "c030.txt"}, "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert len(out["indexed"]) == FILES - 1 and "c030" not in out["indexed"]
    assert out["skipped"] == [{"path": str(folder / "c030.txt"), "reason": READ_TOO_LONG}]
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT count(*) FROM candidates").fetchone()[0] == FILES - 1
    finally:
        conn.close()


def test_the_run_killed_leaves_no_worker_behind(folder: Path, tmp_path: Path) -> None:
    """The run killed (the out-of-memory killer takes the largest process): its workers end
    with it; none lives on holding its output open, which whoever reads it would wait on."""
    started = tmp_path / "started"
    fault = {"workers": 2, "slow_worker": 0.05, "started": str(started)}
    proc = start(folder, str(tmp_path / "debrief.db"), fault)
    wait_until("a worker reading files", started.exists, timeout=DEADLINE)
    proc.kill()  # the run alone, not its workers
    assert finish(proc).returncode == -signal.SIGKILL


def mount(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["mount", *args], capture_output=True, text=True, check=False)


@pytest.fixture
def nearly_full_disk(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Path]:
    """A 1 MB tmpfs with `request.param` KB left free, where this process may mount one
    (root, no seccomp filter)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    done = mount("-t", "tmpfs", "-o", "size=1M", "tmpfs", str(disk))
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {(done.stderr or done.stdout).strip()}")
    try:
        with open(disk / "filler", "wb") as fh:
            fh.write(b"\0" * (1024 - request.param) * 1024)
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


@pytest.mark.parametrize(
    "nearly_full_disk",
    [
        # SQLite says "disk I/O error" when its -shm file cannot grow
        pytest.param(16, id="no_room_for_shared_memory"),
        # SQLITE_FULL in a schema step, which SQLite rolled back itself: rolling back
        # again ("cannot rollback - no transaction is active") must not hide it
        pytest.param(200, id="full_in_a_schema_step"),
    ],
    indirect=True,
)
def test_a_disk_that_fills_as_the_database_opens_is_said_to_be_full(
    folder: Path, nearly_full_disk: Path
) -> None:
    says_disk_full(index(folder, str(nearly_full_disk / "debrief.db"), {}))
