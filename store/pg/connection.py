"""Opening a PostgreSQL database and writing to it: connections, transactions, batches.

The primitives of store/base.py on PostgreSQL: one connection per thread (a store is
shared between threads), autocommit outside explicit transactions, every write atomic
(`_write`). Inside `batch()` an index run's writes share one transaction that
commits every `max_seconds`; each write is a savepoint, so one that fails is rolled
back alone and no half-written candidate is ever committed.

psycopg's errors become the store's (`said`): the server down (UnreachableError), a
full disk, a lock wait given up (BusyError), any other a StoreError, which the CLI
prints as one line and the Slack handlers answer with a 503 (Slack sends the event
again). Data it refuses (text it cannot hold, a key too long for an index, a constraint
broken) is UnstorableError: in a save or at a batch's commit, an index run then fails
that file alone.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import dict_row

from ..base import Base, Shared, T, Tx
from ..engine import Engine
from ..errors import (
    BusyError,
    DiskFullError,
    NewerSchemaError,
    NoDatabaseError,
    StoreError,
    UnreachableError,
    UnstorableError,
)
from .engine import ENGINE
from .migrations import migrate

Conn = psycopg.Connection[Any]

LOCK_TIMEOUT_MS = 15_000
WORK_MEM = "32MB"


def display_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class PgDiskFullError(DiskFullError):
    def __init__(self, path: str) -> None:
        StoreError.__init__(
            self,
            f"disk full: the PostgreSQL server at {path} has no space left;"
            " nothing half-written was kept: free some space and run again",
        )
        self.path = path


def said(exc: psycopg.Error, path: str) -> StoreError:
    """The store's error for one of psycopg's."""
    if isinstance(exc, pg_errors.DiskFull):
        return PgDiskFullError(path)
    if isinstance(exc, psycopg.DataError | psycopg.IntegrityError):
        return UnstorableError(exc)  # text it cannot hold, a value out of range, a constraint
    if isinstance(exc, pg_errors.ProgramLimitExceeded):  # a value too large for where it goes
        return UnstorableError(exc)
    message = f"database error ({path}): {exc}".strip()
    if isinstance(exc, pg_errors.LockNotAvailable):
        return BusyError(message)
    return StoreError(message)


class PgTx(Tx):
    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self.conn.cursor() as cur:  # a psycopg connection has no executemany
            cur.executemany(self.engine.convert(sql), rows)


class PgConnection(Base):
    """The database, its per-thread connections and its write transactions: the
    primitives of store/base.py on PostgreSQL."""

    engine: ClassVar[Engine] = ENGINE
    one_writer: ClassVar[bool] = False

    def __init__(self, url: str, *, create: bool = True) -> None:
        """Open (and migrate) the database at `url`. With `create=False` a database
        without Debrief's tables is NoDatabaseError and nothing is created."""
        self.url = url
        self.path = display_url(url)
        self._shared = Shared()
        self._local = threading.local()
        self._all_conns: list[Conn] = []
        self._all_lock = threading.Lock()
        try:
            with self._said():
                if not create:
                    row = self.conn.execute("SELECT to_regclass('_migrations')").fetchone()
                    if row is None or row[0] is None:
                        raise NoDatabaseError(self.path)
                migrate(self.conn)
        except NewerSchemaError as exc:
            self.close()
            raise NewerSchemaError(f"cannot open database {self.path}: {exc}") from exc
        except BaseException:
            self.close()
            raise

    @property
    def conn(self) -> Conn:
        """This thread's connection (autocommit outside explicit transactions)."""
        conn: Conn | None = getattr(self._local, "conn", None)
        if conn is None or conn.closed or conn.broken:
            try:
                conn = psycopg.connect(self.url, autocommit=True)
            except psycopg.OperationalError as exc:
                if "does not exist" in str(exc):
                    raise NoDatabaseError(self.path) from exc
                raise UnreachableError(f"cannot connect to {self.path}: {exc}".strip()) from exc
            conn.execute(f"SET lock_timeout = {LOCK_TIMEOUT_MS}")
            # sorting a common term's matches (newest first): in memory, not in batches
            # on disk (PostgreSQL's default is 4 MB; a few connections per thread at most)
            conn.execute(f"SET work_mem = '{WORK_MEM}'")
            # compiling a query costs ~100 ms and runs none of Debrief's faster
            conn.execute("SET jit = off")
            self._local.conn = conn
            with self._all_lock:
                self._all_conns.append(conn)
        return conn

    def _disconnect(self) -> None:
        """Close every thread's connection (a store is closed once, when done)."""
        with self._all_lock:
            conns, self._all_conns = self._all_conns, []
        for conn in conns:
            conn.close()
        self._local.conn = None

    def _connection(self) -> Conn:
        return self.conn

    def _store_error(self, exc: Exception) -> StoreError | None:
        return said(exc, self.path) if isinstance(exc, psycopg.Error) else None

    @contextmanager
    def tx(self) -> Iterator[Tx]:
        """One write transaction: all of it lands, or none of it. Inside `batch()` it is
        a savepoint of the batch's transaction."""
        conn = self.conn
        with self._said(), conn.transaction():
            yield PgTx(conn, ENGINE)

    def _write(self, fn: Callable[[Tx], T]) -> T:
        with self.tx() as tx:
            return fn(tx)

    @contextmanager
    def batch(self, max_seconds: float = 0.25) -> Iterator[Callable[[], None]]:
        """Group an index run's writes into few commits (each write stays atomic, as a
        savepoint); the yielded `tick()` commits once the batch has run `max_seconds`."""
        conn = self.conn
        started = time.monotonic()
        with self._said():
            conn.execute("BEGIN")

        def commit() -> None:
            with self._said():
                conn.execute("COMMIT")

        def tick() -> None:
            nonlocal started
            if time.monotonic() - started >= max_seconds:
                commit()
                with self._said():
                    conn.execute("BEGIN")
                started = time.monotonic()

        try:
            yield tick
            commit()
        except BaseException:
            if not conn.closed and not conn.broken:
                with self._said():
                    conn.execute("ROLLBACK")
            raise

    @contextmanager
    def waiting_at_most(self, seconds: float) -> Iterator[None]:
        """Nothing to change: replicas write rows, not the whole database, at once, and
        a lock wait is already bounded (lock_timeout)."""
        yield

    def _one_at_a_time(self, tx: Tx, key: str) -> None:
        """A transaction-level advisory lock on `key`, on every replica."""
        tx.execute("SELECT pg_advisory_xact_lock(hashtext(?))", [key])

    def _new_rid(self, tx: Tx) -> str | None:
        """Space 0 keeps the identity sequence (it never reaches 2^40); another space takes
        the next rid of its range, one save of that space at a time on every replica."""
        if self.ws == 0:
            return None
        self._one_at_a_time(tx, f"debrief:rids:{self.ws:d}")
        low, high = self.rid_range
        return f"(SELECT coalesce(max(rid), {low - 1:d}) + 1 FROM candidates WHERE rid BETWEEN {low:d} AND {high:d})"

    def _erase_for_good(self, write: Callable[[Tx], T | None], *, wipe: bool = True) -> T | None:
        """PostgreSQL does not overwrite deleted bytes in place: after the write, the
        tables that held the text are vacuumed, so their space is reclaimed and reused
        (the server's WAL and backups are the operator's)."""
        with self.tx() as tx:
            done = write(tx)
        if done is not None and wipe:
            with self._said():
                for table in _VACUUMED:
                    self.conn.execute(f"VACUUM {table}")
        return done

    def checkpoint(self) -> bool:
        return True  # nothing to do: PostgreSQL checkpoints by itself

    @property
    def db(self) -> QmarkReader:
        return QmarkReader(self)

    # -- replicas: advisory locks ---------------------------------------------------------

    def try_lead(self, name: str) -> bool:
        """Take the session-level advisory lock `name` on this thread's connection: True
        when this process now holds it (it is released when the connection ends, so a
        replica that dies lets another take over)."""
        row = self._one(
            "SELECT pg_try_advisory_lock(hashtext(current_schema() || ':' || ?))", [name]
        )
        return bool(row and row[0])

    def still_leading(self) -> bool:
        """This thread's session is the one that took an advisory lock, and holds it."""
        row = self._one(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
            " AND pid = pg_backend_pid() AND granted"
        )
        return bool(row and row[0])

    def step_down(self, name: str) -> None:
        self._one("SELECT pg_advisory_unlock(hashtext(current_schema() || ':' || ?))", [name])


_VACUUMED = (
    "candidates",
    "questions",
    "replies",
    "posts",
    "audit",
)
"""Vacuumed after an erasure: the deleted rows' space is freed, and the entries of
`candidates`' indexes (its text search's among them, store/pg/indexing.py) taken out."""


class QmarkReader:
    """`store.db` on PostgreSQL: `execute` and `query` with SQLite's `?` placeholders
    (a `%s` already there is kept), for tools and tests that read a few rows the same
    way from either backend."""

    def __init__(self, store: PgConnection) -> None:
        self.store = store

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        with self.store._said():
            return self.store.conn.execute(sql.replace("?", "%s"), params)

    def query(self, sql: str, params: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
        with self.store._said(), self.store.conn.cursor(row_factory=dict_row) as cur:
            cur.execute(sql.replace("?", "%s"), params)
            yield from cur.fetchall()
