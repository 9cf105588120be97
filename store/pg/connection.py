"""Opening a PostgreSQL database and writing to it: connections, transactions, batches.

The PostgreSQL counterpart of `store/sqlite/connection.py`: one connection per thread (a store
is shared between threads), autocommit outside explicit transactions, every write
atomic (`_write`). Inside `batch()` an index run's writes share one transaction that
commits every `max_seconds`; each write is a savepoint, so one that fails is rolled
back alone and no half-written candidate is ever committed. The batch's frequency rows
(`postings.Rows`) are written just before each commit, in key order.

Errors the database raises for reasons outside the code (the server down, a full disk,
a lock wait given up) become StoreError, which the CLI prints as one line and the
Slack handlers answer with a 503 (Slack sends the event again). Data it refuses (text it
cannot hold, a key too long for an index, a constraint broken) becomes UnstorableError
in a save or at a batch's commit: an index run then fails that file alone.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import dict_row

from ..errors import DiskFullError, NoDatabaseError, StoreError, UnstorableError
from .migrations import NewerSchemaError, migrate
from .postings import Rows

_T = TypeVar("_T")
Conn = psycopg.Connection[Any]

LOCK_TIMEOUT_MS = 15_000
WORK_MEM = "32MB"


def is_pg_url(text: str) -> bool:
    return text.startswith(("postgresql://", "postgres://"))


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


class PgConnection:
    """The database, its per-thread connections and its write transactions."""

    def __init__(self, url: str, *, create: bool = True) -> None:
        """Open (and migrate) the database at `url`. With `create=False` a database
        without Debrief's tables is NoDatabaseError and nothing is created."""
        self.url = url
        self.path = display_url(url)
        self._local = threading.local()
        self._all: list[Conn] = []
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
            raise StoreError(f"cannot open database {self.path}: {exc}") from exc
        except BaseException:
            self.close()
            raise

    @property
    def conn(self) -> Conn:
        conn: Conn | None = getattr(self._local, "conn", None)
        if conn is None or conn.closed or conn.broken:
            try:
                conn = psycopg.connect(self.url, autocommit=True)
            except psycopg.OperationalError as exc:
                if "does not exist" in str(exc):
                    raise NoDatabaseError(self.path) from exc
                raise StoreError(f"cannot connect to {self.path}: {exc}".strip()) from exc
            conn.execute(f"SET lock_timeout = {LOCK_TIMEOUT_MS}")
            # ranking a common term groups ~100,000 postings: in memory, not in batches on
            # disk (PostgreSQL's default is 4 MB; a few connections per thread at most)
            conn.execute(f"SET work_mem = '{WORK_MEM}'")
            self._local.conn = conn
            with self._all_lock:
                self._all.append(conn)
        return conn

    def close(self) -> None:
        """Close every thread's connection (a store is closed once, when done)."""
        with self._all_lock:
            conns, self._all = self._all, []
        for conn in conns:
            conn.close()
        self._local.conn = None

    @contextmanager
    def _said(self) -> Iterator[None]:
        """Database errors from outside the code become one StoreError that says what."""
        try:
            yield
        except StoreError:
            raise
        except pg_errors.DiskFull as exc:
            raise PgDiskFullError(self.path) from exc
        except pg_errors.ProgramLimitExceeded as exc:  # a value too large for where it goes
            raise UnstorableError(exc) from exc
        except (psycopg.OperationalError, pg_errors.LockNotAvailable) as exc:
            raise StoreError(f"database error ({self.path}): {exc}".strip()) from exc

    @contextmanager
    def _stored(self) -> Iterator[None]:
        """The database's refusals of the data itself (text it cannot hold, a value out of
        range, a constraint broken) become UnstorableError: that data fails, not the run."""
        try:
            yield
        except (psycopg.DataError, psycopg.IntegrityError, ValueError) as exc:
            raise UnstorableError(exc) from exc

    @contextmanager
    def tx(self) -> Iterator[Conn]:
        """One write transaction: all of it lands, or none of it. Inside `batch()` it is
        a savepoint of the batch's transaction."""
        conn = self.conn
        with self._said(), conn.transaction():
            yield conn

    def _write(self, fn: Callable[[Conn], _T]) -> _T:
        with self.tx() as conn:
            return fn(conn)

    @contextmanager
    def batch(self, max_seconds: float = 0.25) -> Iterator[Callable[[], None]]:
        """Group an index run's writes into few commits (each write stays atomic, as a
        savepoint); the yielded `tick()` commits once the batch has run `max_seconds`.
        Saves inside it leave their frequency rows in `batch_rows()`, written in key
        order just before each commit (`debrief index` commits every 2 s: ~200
        transcripts, whose rows then fill the B-trees in order)."""
        conn = self.conn
        rows = Rows()
        started = time.monotonic()
        with self._said():
            conn.execute("BEGIN")
        self._local.rows = rows

        def commit() -> None:
            # the frequency rows go in here: data refused now is refused at the commit
            with self._said(), self._stored():
                rows.write(conn)
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
            rows.clear()
            if not conn.closed and not conn.broken:
                conn.execute("ROLLBACK")
            raise
        finally:
            self._local.rows = None

    def batch_rows(self) -> Rows | None:
        """The frequency rows of this thread's open batch (None outside a batch)."""
        rows: Rows | None = getattr(self._local, "rows", None)
        return rows

    def _rows(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[dict[str, Any]]:
        with self._said(), self.conn.cursor(row_factory=dict_row) as cur:
            cur.execute(sql, params)
            return list(cur.fetchall())

    def _one(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> tuple[Any, ...] | None:
        with self._said():
            return self.conn.execute(sql, params).fetchone()

    def _all_rows(
        self, sql: str, params: Sequence[Any] | dict[str, Any] = ()
    ) -> list[tuple[Any, ...]]:
        with self._said():
            return self.conn.execute(sql, params).fetchall()

    @property
    def db(self) -> QmarkReader:
        return QmarkReader(self)

    # -- replicas: advisory locks ---------------------------------------------------------

    def try_lead(self, name: str) -> bool:
        """Take the session-level advisory lock `name` on this thread's connection: True
        when this process now holds it (it is released when the connection ends, so a
        replica that dies lets another take over)."""
        row = self._one(
            "SELECT pg_try_advisory_lock(hashtext(current_schema() || ':' || %s))", [name]
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
        self._one("SELECT pg_advisory_unlock(hashtext(current_schema() || ':' || %s))", [name])


class QmarkReader:
    """`store.db` on PostgreSQL: `execute` and `query` with SQLite's `?` placeholders,
    for tools and tests that read a few rows the same way from either backend."""

    def __init__(self, store: PgConnection) -> None:
        self.store = store

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        with self.store._said():
            return self.store.conn.execute(sql.replace("?", "%s"), params)

    def query(self, sql: str, params: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
        yield from self.store._rows(sql.replace("?", "%s"), params)
