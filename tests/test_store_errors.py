"""The store's errors are part of its interface: whichever the backend, what it raises
is one of store/errors.py's, never the driver's (sqlite3, psycopg), so that bot/ and
handlers/ catch those alone. And opening a SQLite file never loads psycopg."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from test_odd_files import debrief, normal_files, transcript

from store.errors import BusyError, UnstorableError
from store.factory import Backend, open_store
from store.sqlite.driver import sqlite3  # the library the store uses: its locks are seen
from store.transcripts.parser import parse_transcript

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

ROOT = Path(__file__).resolve().parent.parent


def test_opening_a_sqlite_file_never_imports_psycopg(tmp_path: Path) -> None:
    code = textwrap.dedent(
        f"""
        import sys
        import store.factory
        store.factory.open_store({str(tmp_path / "x.db")!r}).close()
        assert "psycopg" not in sys.modules, "psycopg was imported"
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


@contextmanager
def writes_held(db: str, store: Backend) -> Iterator[None]:
    """Another connection holds what a reply's write needs (SQLite: the database's write
    lock; PostgreSQL: the replies table), and this store's waits are short."""
    if db.startswith("postgresql://"):
        store.conn.execute("SET lock_timeout = 200")  # type: ignore[attr-defined]
        with psycopg.connect(db) as other:
            other.execute("LOCK TABLE replies IN ACCESS EXCLUSIVE MODE")
            yield
            other.rollback()
        return
    other = sqlite3.connect(db, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


def test_a_write_that_waits_too_long_is_a_busy_error(db_target: str) -> None:
    store = open_store(db_target)
    try:
        store.record_post("C1", "1700000000.000001", "someone", "verdict")
        with writes_held(db_target, store), pytest.raises(BusyError):
            store.record_reply(
                "C1", "1700000000.000002", "1700000000.000001", "someone", "U1", "a note"
            )
        outcome = store.record_reply(  # once the lock is free, the retry is recorded
            "C1", "1700000000.000002", "1700000000.000001", "someone", "U1", "a note"
        )
        assert outcome.recorded
    finally:
        store.close()


def refuse_at_save(db: str) -> None:
    """Make the database refuse the candidate `poison` when it is saved (not later, when
    its batch commits): a trigger on SQLite, a CHECK constraint on PostgreSQL."""
    open_store(db, create=True).close()  # the schema, migrated
    if db.startswith("postgresql://"):
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute("ALTER TABLE candidates ADD CONSTRAINT refused CHECK (id <> 'poison')")
        return
    conn = sqlite3.connect(db)
    conn.execute(
        "CREATE TRIGGER refuse BEFORE INSERT ON candidates WHEN NEW.id = 'poison'"
        " BEGIN SELECT RAISE(ABORT, 'refused'); END"
    )
    conn.commit()
    conn.close()


def test_a_file_refused_at_its_save_fails_alone(db_target: str, tmp_path: Path) -> None:
    refuse_at_save(db_target)
    folder = tmp_path / "transcripts"
    ids = normal_files(folder)
    poison = folder / "poison.txt"
    poison.write_text(transcript("一个普通的回答。"), "utf-8")
    done = debrief("index", str(folder), "--db", db_target, "--json")
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1  # something failed: the exit code says so
    report = json.loads(done.stdout)
    assert [f["path"] for f in report["failed"]] == [str(poison)]
    assert report["failed"][0]["error"].startswith("cannot be stored: ")
    assert sorted(report["indexed"]) == sorted(ids)


def test_a_save_the_database_refuses_is_an_unstorable_error(db_target: str) -> None:
    refuse_at_save(db_target)
    poison = parse_transcript(transcript("一个普通的回答。").encode(), "poison.txt")
    store = open_store(db_target)
    try:
        with pytest.raises(UnstorableError):
            store.save(poison)
        assert store.get_candidate("poison") is None
        store.save(parse_transcript(transcript("另一个回答。").encode(), "fine.txt"))
        assert store.get_candidate("fine") is not None
    finally:
        store.close()
