"""Opening a SQLite database and writing to it: connections, transactions, batches:
the primitives of store/base.py on SQLite.

One connection per thread (a `Store` is shared between threads). WAL lets readers go
on while an index run writes, and the busy timeout makes writers wait for each other
instead of failing. Every write is atomic (`_write`); inside `batch()` an index run's
writes share one transaction that commits every `max_seconds` (longer for `debrief
index` than for the watcher), so a crash loses only the last whole candidates.
SQLite's errors become the store's (`said`): a full disk, a lock waited for too long
(BusyError), data it refuses (UnstorableError), any other a StoreError.
"""

from __future__ import annotations

import errno
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

import sqlite_utils

from ..base import Base, Shared, T, Tx
from ..engine import Engine
from ..errors import (
    BusyError,
    DiskFullError,
    NewerSchemaError,
    NoDatabaseError,
    StoreError,
    UnstorableError,
)
from ..private import private_dir, private_file
from .driver import sqlite3
from .engine import ENGINE
from .migrations import migrate

BUSY_TIMEOUT_MS = 15_000
WAL_SIZE_LIMIT = 64 * 1024 * 1024

SQLITE_FULL = 13
_SQLITE_IOERR = 10
_SQLITE_BUSY = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED
ROOM_NEEDED = 1024 * 1024  # free bytes below which SQLite's I/O error is a full disk


def is_disk_full(exc: BaseException, path: str | None = None) -> bool:
    """SQLITE_FULL from SQLite, or ENOSPC from the operating system; or, for the
    database at `path`, an I/O error while its disk has (almost) no room left: SQLite
    says "disk I/O error", not "full", when growing its shared memory (-shm) fails."""
    if isinstance(exc, DiskFullError):
        return True
    if isinstance(exc, OSError):
        return exc.errno == errno.ENOSPC
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", None)
        if code is not None:
            full = code & 0xFF == SQLITE_FULL
            io_error = code & 0xFF == _SQLITE_IOERR
        else:
            full = "database or disk is full" in str(exc)
            io_error = "disk I/O error" in str(exc)
        return full or (io_error and path is not None and no_room(path))
    return False


def no_room(path: str) -> bool:
    """The disk that holds the database at `path` has (almost) nothing left free."""
    if path == ":memory:":
        return False
    try:
        disk = os.statvfs(Path(path).resolve().parent)
    except OSError:
        return False
    return disk.f_bavail * disk.f_frsize < ROOM_NEEDED


def said(exc: sqlite3.Error, path: str) -> StoreError:
    """The store's error for one of SQLite's."""
    if is_disk_full(exc, path):
        return DiskFullError(path)
    if isinstance(exc, sqlite3.IntegrityError | sqlite3.DataError):
        return UnstorableError(exc)  # the data itself: a constraint, a value too big
    code = getattr(exc, "sqlite_errorcode", None)
    if (code is not None and code & 0xFF in _SQLITE_BUSY) or "database is locked" in str(exc):
        return BusyError(f"database error: {exc}")
    return StoreError(f"database error: {exc}")


def _rollback(db: sqlite_utils.Database) -> None:
    """Roll back what is open. SQLite rolls a transaction back by itself after some
    errors (SQLITE_FULL among them): rolling back again would only hide that error."""
    if db.conn.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.OperationalError:
            if db.conn.in_transaction:
                raise


class _Batch:
    def __init__(self) -> None:
        self.pending: list[Callable[[Tx], object]] = []
        self.started = 0.0
        # Full-text rows of the batch's saves, by rid, written just before it commits
        # (search.py): written between the saves, every savepoint a save opens would
        # make FTS5 flush a segment of one transcript, and merging those costs more than
        # the rest of the run.
        self.fulltext: dict[int, tuple[str, str]] = {}
        self.replaying = False  # writes redone one transaction each: nothing deferred

    def restart(self, db: sqlite_utils.Database) -> None:
        db.execute("BEGIN IMMEDIATE")
        self.pending = []
        self.fulltext = {}
        self.started = time.monotonic()


class Connection(Base):
    """The database file, its per-thread connections and its write transactions: the
    primitives of store/base.py on SQLite."""

    engine: ClassVar[Engine] = ENGINE
    one_writer: ClassVar[bool] = True

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        """Open (and migrate) the database at `path`. With `create=False` a missing file
        is NoDatabaseError and nothing is created: reading never makes a database."""
        self.path = str(path)
        self._shared = Shared()
        self._local = threading.local()
        self._all_conns: list[sqlite3.Connection] = []  # every thread's, for close()
        self._all_lock = threading.Lock()
        if "://" in self.path:  # never a SQLite file named after a server's URL
            raise StoreError(
                f"{self.path.split('://')[0]}:// is not a SQLite file: open it with"
                " store.factory.open_store"
            )
        if not create and self.path != ":memory:" and not Path(self.path).is_file():
            raise NoDatabaseError(self.path)
        try:
            migrate(self.db)
        except (sqlite3.DatabaseError, NewerSchemaError, OSError) as exc:
            self.close()
            if is_disk_full(exc, self.path):
                raise DiskFullError(self.path) from exc
            if isinstance(exc, OSError):
                raise
            error = NewerSchemaError if isinstance(exc, NewerSchemaError) else StoreError
            raise error(f"cannot open database {self.path}: {exc}") from exc

    @property
    def db(self) -> sqlite_utils.Database:
        """This thread's connection, as sqlite_utils has it (SQLite's own code, tests)."""
        db: sqlite_utils.Database | None = getattr(self._local, "db", None)
        if db is not None and getattr(self._local, "closes", 0) != self._shared.closes:
            db = None  # closed by close(): this thread opens a new one
        if db is None:
            if self.path != ":memory:":  # new: readable by the owner alone (-wal, -shm too)
                private_dir(Path(self.path).parent)
                private_file(self.path)
            conn = sqlite3.connect(
                self.path,
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,  # transactions are explicit: see tx()
                check_same_thread=False,
            )
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            # a WAL that grew during a long index run (readers kept it from restarting)
            # is cut back to this size once a checkpoint lets it restart
            conn.execute(f"PRAGMA journal_size_limit = {WAL_SIZE_LIMIT}")
            conn.execute("PRAGMA foreign_keys = ON")
            db = sqlite_utils.Database(conn)
            self._local.db = db
            self._local.closes = self._shared.closes
            with self._all_lock:
                self._all_conns.append(conn)
        return db

    def _disconnect(self) -> None:
        """Close every thread's connection (a store is shared between threads)."""
        with self._all_lock:
            conns, self._all_conns = self._all_conns, []
            self._shared.closes += 1
        for conn in conns:
            conn.close()
        self._local.db = None

    def _connection(self) -> sqlite3.Connection:
        return self.db.conn

    def _store_error(self, exc: Exception) -> StoreError | None:
        if isinstance(exc, sqlite3.Error):
            return said(exc, self.path)
        return DiskFullError(self.path) if is_disk_full(exc, self.path) else None  # ENOSPC

    @contextmanager
    def tx(self) -> Iterator[Tx]:
        """One write transaction: all of it lands, or none of it."""
        with self._said():
            db = self.db
            db.execute("BEGIN IMMEDIATE")
            try:
                yield Tx(db.conn, ENGINE)
            except BaseException:
                _rollback(db)
                raise
            try:
                db.execute("COMMIT")
            except BaseException:
                _rollback(db)
                raise

    def _write(self, fn: Callable[[Tx], T]) -> T:
        """One atomic write. Inside `batch()` it joins the batch's transaction; should it
        fail half-way, the batch is rolled back and its earlier writes are replayed one
        transaction each, so no half-written candidate is ever committed. On a full disk
        nothing is replayed: the batch is rolled back whole and DiskFullError raised (the
        next run, once there is space, redoes what was not committed)."""
        batch: _Batch | None = getattr(self._local, "batch", None)
        if batch is None:
            with self.tx() as tx:
                return fn(tx)
        db = self.db
        with self._said():
            try:
                result = fn(Tx(db.conn, ENGINE))
            except BaseException as exc:
                _rollback(db)
                if not is_disk_full(exc, self.path):
                    self._replay(batch)
                    batch.restart(db)
                raise
        batch.pending.append(fn)
        return result

    def _replay(self, batch: _Batch) -> None:
        """The batch was rolled back: redo its writes, one transaction each."""
        batch.replaying = True
        try:
            for earlier in batch.pending:
                with self.tx() as again:
                    earlier(again)
        finally:
            batch.replaying = False

    def _deferring(self) -> _Batch | None:
        """The batch this thread's writes join, when its full-text rows may wait for its
        commit (not while its writes are redone one by one)."""
        batch: _Batch | None = getattr(self._local, "batch", None)
        return batch if batch is not None and not batch.replaying else None

    def _before_commit(self, tx: Tx, batch: _Batch) -> None:
        """What a batch writes just before it commits (search.py: its full-text rows)."""

    def _commit_batch(self, db: sqlite_utils.Database, batch: _Batch) -> None:
        """Write what the batch deferred, then commit; should that fail, the batch is
        rolled back and its writes redone one transaction each (as a failing write's are)."""
        try:
            self._before_commit(Tx(db.conn, ENGINE), batch)
            db.execute("COMMIT")  # a deferred constraint is checked here
        except BaseException as exc:
            _rollback(db)
            if not is_disk_full(exc, self.path):
                self._replay(batch)
            batch.pending, batch.fulltext = [], {}
            raise

    @contextmanager
    def batch(self, max_seconds: float = 0.25) -> Iterator[Callable[[], None]]:
        """Group an index run's writes into few commits: FTS5 flushes its index at every
        commit (and savepoint), so one commit per file costs several times the work.

        Every write stays atomic (see _write); the yielded `tick()` commits once the
        batch has run `max_seconds`, so other writers wait at most that long and a crash
        loses only the last fraction of a second of whole candidates."""
        batch = _Batch()
        with self._said():
            db = self.db
            batch.restart(db)
        self._local.batch = batch

        def tick() -> None:
            if time.monotonic() - batch.started >= max_seconds:
                with self._said():
                    self._commit_batch(db, batch)
                    batch.restart(db)

        try:
            yield tick
        except BaseException:
            _rollback(db)
            raise
        finally:
            self._local.batch = None
        with self._said():
            if db.conn.in_transaction:
                self._commit_batch(db, batch)

    @contextmanager
    def waiting_at_most(self, seconds: float) -> Iterator[None]:
        """This thread's writes wait at most `seconds` for the write lock (then fail with
        'database is locked') instead of the usual busy timeout."""
        with self._said():
            db = self.db
            db.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
        try:
            yield
        finally:
            with self._said():
                db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")

    def _one_at_a_time(self, tx: Tx, key: str) -> None:
        """Nothing to do: a write transaction already excludes every other writer."""

    def _new_rid(self, tx: Tx) -> str | None:
        """The next rid of this space's range, always: SQLite's own choice (the table's
        highest rid + 1) would fall in the highest space's range. One writer at a time
        (the transaction's lock), so no two saves take the same one."""
        low, high = self.rid_range
        return f"(SELECT coalesce(max(rid), {low - 1:d}) + 1 FROM candidates WHERE rid BETWEEN {low:d} AND {high:d})"

    def _erase_for_good(self, write: Callable[[Tx], T | None], *, wipe: bool = True) -> T | None:
        """The deleted bytes are overwritten (secure_delete) and, when something was
        deleted, the WAL emptied: the database files no longer hold the text."""
        with self._said():
            db = self.db
            db.execute("PRAGMA secure_delete = ON")
            try:
                with self.tx() as tx:
                    done = write(tx)
            finally:
                db.execute("PRAGMA secure_delete = OFF")
        if done is not None and wipe:
            self.checkpoint()
        return done

    def checkpoint(self) -> bool:
        """Copy the WAL into the database file and empty it (TRUNCATE); False when a
        reader kept it from finishing within the busy timeout."""
        with self._said():
            row = self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return row is None or row[0] == 0
