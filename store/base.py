"""What every query module of the store builds on, whichever the backend.

The concern modules at store/'s top (candidates, threads, decisions, uploads, home,
digest, audit, maintenance, hits) hold the one implementation of each query, written
with `?` parameters; `Base` gives them the same primitives on SQLite
(`store/sqlite/connection.py`) and PostgreSQL (`store/pg/connection.py`): the
backend's `engine` (store/engine.py), rows read as dicts or tuples, one row, and
write transactions whose `execute` takes `?` SQL. Every primitive raises the store's
own errors (store/errors.py), never the driver's.
"""

from __future__ import annotations

import copy
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any, ClassVar, Protocol, Self, TypeVar

from .engine import Engine
from .errors import StoreError

T = TypeVar("T")

SPACE_BITS = 40
"""Data space `ws` owns the candidate rids [ws << 40, (ws + 1) << 40): space 0 every rid a
database had before spaces; a full-text match is kept to its space by a rid range,
which FTS5 and the PostgreSQL blocks take at no cost (docs/plan-many-workspaces.md §3.10)."""


class Cursor(Protocol):
    """What a statement's result gives, on either driver."""

    @property
    def rowcount(self) -> int: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


class Tx:
    """The statements of one write transaction, written with `?` on every backend."""

    def __init__(self, conn: Any, engine: Engine) -> None:
        self.conn = conn  # the driver's connection (sqlite3 or psycopg)
        self.engine = engine

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        cursor: Cursor = self.conn.execute(self.engine.convert(sql), params)
        return cursor

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.conn.executemany(self.engine.convert(sql), rows)

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """Every row of a `?` query, as dicts, inside this transaction."""
        cursor = self.conn.execute(self.engine.convert(sql), params)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


class Shared:
    """What a store and every workspace's view of it share, made once by the store that
    opened the database. A view is a copy of the store: anything it set on itself would
    be its own alone (a second audit writer, a cache nobody else reads), so state that
    changes after opening lives here, and a view refuses attribute assignment."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # for making what is made on first use
        self.rank_cache: Any = None  # hits.RankCache, made by the first search
        self.search_pool: Any = None  # hits.Ranker ranking the searches, if any
        self.audit_writer: Any = None  # audit._AuditWriter (SQLite's one writer thread)
        self.audit_key: bytes | None = None  # the pseudonym key, once read
        self.closes = 0  # SQLite: how many times close() ran (older connections are shut)
        self.slots: threading.BoundedSemaphore | None = None  # PostgreSQL: searches at once


class Base(ABC):
    """The primitives a backend's connection gives every query module."""

    engine: ClassVar[Engine]
    one_writer: ClassVar[bool]
    """True where the database takes one writer at a time (SQLite): a write may wait for
    the whole database's lock, not only for the rows it writes."""

    path: str
    _shared: Shared
    ws: int = 0
    """The data space this store reads and writes (issue 26): 0, the single-workspace
    mode's, unless this is a view from `in_workspace`."""
    _view: bool = False

    @property
    def space(self) -> str:
        """`ws = <this store's space>`: the condition that keeps a query to its rows (an
        int from the store itself, never from a request, so written into the SQL)."""
        return f"ws = {self.ws:d}"

    @property
    def rid_range(self) -> tuple[int, int]:
        """The lowest and highest rid of this store's data space."""
        low = self.ws << SPACE_BITS
        return low, low + (1 << SPACE_BITS) - 1

    @abstractmethod
    def _new_rid(self, tx: Tx) -> str | None:
        """SQL for the rid a new candidate of this space takes, or None where the
        table's own default is right (PostgreSQL's identity, in space 0)."""

    def in_workspace(self, ws: int) -> Self:
        """This store as data space `ws` sees it: the same connections, caches, pool and
        audit writer (one `Shared`), its rows those of `ws`. Cheap: one per request."""
        view = copy.copy(self)
        view.__dict__["ws"] = ws
        view.__dict__["_view"] = True
        return view

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.get("_view"):
            raise AttributeError(
                f"a workspace's view of the store sets nothing on itself ({name}):"
                " what changes after opening belongs in Shared"
            )
        super().__setattr__(name, value)

    @abstractmethod
    def _connection(self) -> Any:
        """This thread's connection, as the driver has it."""

    @abstractmethod
    def _store_error(self, exc: Exception) -> StoreError | None:
        """The store's error for one the driver (or the system under it) raised; None
        for any other."""

    @contextmanager
    def _said(self) -> Iterator[None]:
        """The driver's errors raised inside become the store's (store/errors.py)."""
        try:
            yield
        except StoreError:
            raise
        except Exception as exc:
            error = self._store_error(exc)
            if error is None:
                raise
            raise error from exc

    @abstractmethod
    def tx(self) -> AbstractContextManager[Tx]:
        """One write transaction: all of it lands, or none of it."""

    @abstractmethod
    def _write(self, fn: Callable[[Tx], T]) -> T:
        """One atomic write, which joins an index run's batch where one is open."""

    @abstractmethod
    def batch(self, max_seconds: float = 0.25) -> AbstractContextManager[Callable[[], None]]:
        """An index run's writes in few commits; the yielded `tick()` may commit."""

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """Every row of a `?` query, as dicts."""
        with self._said():
            cursor = self._connection().execute(self.engine.convert(sql), params)
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Every row of a `?` query, as tuples."""
        with self._said():
            return list(self._connection().execute(self.engine.convert(sql), params).fetchall())

    def _one(self, sql: str, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """The first row of a `?` query, or None."""
        with self._said():
            row: tuple[Any, ...] | None = (
                self._connection().execute(self.engine.convert(sql), params).fetchone()
            )
            return row

    def _scalar(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first column of the first row, or None when there is no row."""
        row = self._one(sql, params)
        return None if row is None else row[0]

    @abstractmethod
    def waiting_at_most(self, seconds: float) -> AbstractContextManager[None]:
        """This thread's writes wait at most `seconds` for a lock, then fail."""

    @abstractmethod
    def _one_at_a_time(self, tx: Tx, key: str) -> None:
        """Until `tx` ends, no other writer holds `key` (on any replica)."""

    @abstractmethod
    def _erase_for_good(self, write: Callable[[Tx], T | None], *, wipe: bool = True) -> T | None:
        """Run `write` in one transaction whose deletions leave no readable trace of the
        deleted text behind in the database (as far as the backend can); it returns
        None when it deleted nothing. `wipe=False` leaves the backend's clean-up after
        the transaction (a checkpoint, a vacuum) to a later call: a space's erasure
        runs many short transactions and wipes once at the end."""

    # -- the full-text part of a save, which each backend writes its own way ------------
    # (store/sqlite/search.py: FTS5 tables; store/pg/search.py: columns and postings)

    @abstractmethod
    def _index_columns(self, indexed: tuple[str, str]) -> tuple[dict[str, Any], Any]:
        """`candidates` columns of a save beside the transcript's own, from its indexed
        text and bigram string (`fulltext.indexed`), and what `_index` then needs of that
        text: worked out once a save, for both."""

    @abstractmethod
    def _reindexing(self, tx: Tx, candidate_id: str) -> None:
        """A save is about to replace this candidate's row and questions (if it has any)."""

    @abstractmethod
    def _index(self, tx: Tx, rid: int, prepared: Any) -> None:
        """A save wrote this candidate's row and questions: its full-text rows, from what
        `_index_columns` prepared."""

    @abstractmethod
    def _unindex(self, tx: Tx, rid: int) -> None:
        """This candidate's row is about to be deleted: its full-text rows go."""

    @abstractmethod
    def _space_erased(self, tx: Tx, ws: int) -> None:
        """Data space `ws` was erased: what the backend's full text kept for it alone goes
        (SQLite: the space's own FTS5 tables; PostgreSQL keeps nothing per space)."""

    @abstractmethod
    def checkpoint(self) -> bool:
        """Make what was written durable in the database's own files."""

    @abstractmethod
    def _disconnect(self) -> None:
        """Close every connection this store opened."""

    def close(self) -> None:
        """Done with this store: its connections are closed."""
        self._disconnect()


__all__ = ["Base", "Cursor", "T", "Tx"]
