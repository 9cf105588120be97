"""`debrief forget` on SQLite and PostgreSQL: it asks first on a terminal (a real process
on a pseudo-terminal; `--yes` does not; without a terminal, the CLI in-process, nobody is
asked), and an unknown or already forgotten id is an error (exit 2) whose hint names
the id."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.cli import Ran
from support.cli import debrief as run_debrief

pytestmark = pytest.mark.both_backends

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
CID = "000_9e6b3ecb0732fcf3"


def env_of(db: str, **values: str) -> dict[str, str]:
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))}
    return kept | {"DEBRIEF_DB": db} | values


def debrief(db: str, *args: str, **env: str) -> Ran:
    return run_debrief(*args, env={"DEBRIEF_DB": db} | env)


def on_a_terminal(db: str, args: list[str], answer: str, **env: str) -> tuple[int, str]:
    """`debrief ARGS` on a terminal (a pseudo-terminal), answering `answer` to whatever
    it asks; its exit code and everything it wrote. A real process: the terminal is the
    point (whether it asks depends on stdin being one)."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", *args],
        env=env_of(db, **env),
        stdin=follower,
        stdout=follower,
        stderr=follower,
    )
    os.close(follower)
    seen = b""
    answered = False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _w, _x = select.select([leader], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the process ended and closed the terminal
                break
            if not chunk:
                break
            seen += chunk
        if not answered and (b"[y/N]" in seen):
            os.write(leader, answer.encode() + b"\n")
            answered = True
        if proc.poll() is not None and not ready:
            break
    code = proc.wait(timeout=30)
    os.close(leader)
    return code, seen.decode("utf-8", "replace")


@pytest.fixture
def db(db_target: str) -> str:
    done = debrief(db_target, "index", str(SEEDS))
    assert done.returncode == 0, done.stderr
    return db_target


def shown(db: str) -> bool:
    return debrief(db, "show", CID, "--json").returncode == 0


@pytest.mark.parametrize(("locale", "question"), [("zh", "无法撤销"), ("en", "cannot be undone")])
def test_forget_asks_on_a_terminal_and_no_keeps(db: str, locale: str, question: str) -> None:
    code, out = on_a_terminal(db, ["forget", CID], "n", DEBRIEF_LOCALE=locale)
    assert code == 1, out
    assert question in out and CID in out
    assert shown(db)  # kept
    code, out = on_a_terminal(db, ["forget", CID], "y", DEBRIEF_LOCALE=locale)
    assert code == 0, out
    assert f"debrief forget --restore {CID}" in out
    assert not shown(db)


def test_yes_asks_nothing_even_on_a_terminal(db: str) -> None:
    code, out = on_a_terminal(db, ["forget", CID, "--yes"], "n")
    assert code == 0, out
    assert "[y/N]" not in out and not shown(db)


@pytest.mark.parametrize(("locale", "words"), [("zh", "没有编号为"), ("en", "no candidate")])
def test_an_unknown_id_is_an_error(db: str, locale: str, words: str) -> None:
    done = debrief(db, "forget", "nobody_at_all", "--yes", DEBRIEF_LOCALE=locale)
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert words in line and "nobody_at_all" in line


@pytest.mark.parametrize(("locale", "words"), [("zh", "已经被忘记"), ("en", "already forgotten")])
def test_an_already_forgotten_id_is_an_error_naming_the_way_back(
    db: str, locale: str, words: str
) -> None:
    first = debrief(db, "forget", CID, "--json")  # no terminal: nobody to ask, no --yes needed
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["forgotten"] == CID
    audit_before = debrief(db, "audit", "--json").stdout
    done = debrief(db, "forget", CID, "--yes", DEBRIEF_LOCALE=locale)
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert words in line and f"debrief forget --restore {CID}" in line
    assert debrief(db, "audit", "--json").stdout == audit_before  # nothing recorded twice
    # the hint works, and a restored candidate can be forgotten again
    assert debrief(db, "forget", "--restore", CID).returncode == 0
    assert shown(db)
    assert debrief(db, "forget", CID, "--yes").returncode == 0
