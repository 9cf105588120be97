"""Searches ranked in worker processes, so the process that acknowledges Slack never
waits for ranking.

Ranking a query is CPU work (bm25 over every match, snippets); in the serving process it
would hold the interpreter that answers Slack's requests within 3 seconds. A
`SearchPool` runs `search()` in a few worker processes, each with its own connection to
the same database (a SQLite file or PostgreSQL) and its own rank cache; the serving
process only waits, off the interpreter, for the answer. The pool is bounded: a search
that would queue behind more than `capacity` others is refused at once
(`SearchBusyError`), so a burst gets a polite "busy, try again" rather than a late
answer, and one that takes longer than `timeout` is given up the same way.

Workers are started by the "spawn" method (the serving process has threads; forking it
is unsafe) and each loads the word splitter and opens the database before `start()`
returns: `serve` starts the pool before it says it is ready, so no request waits for a
worker to start. A worker that dies takes its searches with it (`StoreError`) and the
pool is started again for the next one.
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from store.errors import SearchBusyError, StoreError
from store.factory import open_store
from store.fulltext import warm

if TYPE_CHECKING:
    from multiprocessing.synchronize import Barrier

    from store.fulltext import Sort
    from store.models import SearchHit

log = logging.getLogger("debrief.search")

START_TIMEOUT_S = 120.0  # spawning and warming a worker (imports, dictionary, database)


# -- in each worker process ---------------------------------------------------------------

_worker_store: Any = None
_worker_barrier: Barrier | None = None


def _end_with_parent() -> None:
    """A worker outlives no serving process, however that one ended (SIGKILL included):
    it would hold the database and the serving process's output open."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="debrief-search-parent", daemon=True).start()


def _init_worker(target: str, barrier: Barrier) -> None:
    """A worker's start: its own store on the same database, the word splitter loaded."""
    global _worker_store, _worker_barrier
    _end_with_parent()
    warm()
    _worker_store = open_store(target, create=False)
    _worker_barrier = barrier


def _ready() -> int:
    """Each worker runs one of these at start, all at once (the barrier): when every one
    has returned, every worker is up."""
    assert _worker_barrier is not None
    _worker_barrier.wait(START_TIMEOUT_S)
    return os.getpid()


def _search(query: str, limit: int, snippets: bool, sort: Sort, ws: int) -> list[SearchHit]:
    hits: list[SearchHit] = _worker_store.in_workspace(ws).search(query, limit, snippets, sort)
    return hits


# -- in the serving process ---------------------------------------------------------------


class SearchPool:
    """`workers` processes ranking searches on the database at `target`."""

    def __init__(
        self, target: str, workers: int, capacity: int | None = None, timeout: float = 20.0
    ) -> None:
        if workers < 1:
            raise ValueError("a search pool needs at least one worker")
        self.target = target
        self.workers = workers
        self.capacity = capacity if capacity is not None else workers * 4
        self.timeout = timeout
        self._slots = threading.BoundedSemaphore(self.capacity)
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None
        self.pids: list[int] = []

    def start(self) -> SearchPool:
        """Start every worker and wait until each is ready (imports, dictionary, database)."""
        with self._lock:
            self._executor = self._spawn()
        return self

    def _spawn(self) -> ProcessPoolExecutor:
        context = multiprocessing.get_context("spawn")
        barrier = context.Barrier(self.workers)
        executor = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=context,
            initializer=_init_worker,
            initargs=(self.target, barrier),
        )
        started = [executor.submit(_ready) for _ in range(self.workers)]
        try:
            self.pids = sorted(f.result(timeout=START_TIMEOUT_S) for f in started)
        except BaseException:
            executor.shutdown(wait=False, cancel_futures=True)
            raise
        log.info("%d search workers ready (pids %s)", self.workers, self.pids)
        return executor

    def run(self, fn: Any, *args: Any) -> Any:
        """`fn(*args)` in a worker (a module-level function); SearchBusyError when the pool
        is full or it takes longer than `timeout`."""
        if not self._slots.acquire(blocking=False):
            raise SearchBusyError("every search worker is busy")
        try:
            future = self._submit(fn, *args)
            try:
                return future.result(timeout=self.timeout)
            except FutureTimeout:
                future.cancel()
                raise SearchBusyError("the search took too long") from None
            except BrokenProcessPool as exc:
                self._restart()
                raise StoreError("a search worker stopped") from exc
        finally:
            self._slots.release()

    def _submit(self, fn: Any, *args: Any) -> Future[Any]:
        with self._lock:
            if self._executor is None:
                raise StoreError("the search pool is not started")
            try:
                return self._executor.submit(fn, *args)
            except BrokenProcessPool:
                log.warning("a search worker had stopped: starting the workers again")
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = self._spawn()
                return self._executor.submit(fn, *args)

    def _restart(self) -> None:
        with self._lock:
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
            log.warning("a search worker stopped: starting the workers again")
            self._executor = self._spawn()

    def search(
        self, query: str, limit: int, snippets: bool, sort: Sort, ws: int = 0
    ) -> list[SearchHit]:
        """`search` in a worker, as data space `ws` sees it."""
        hits: list[SearchHit] = self.run(_search, query, limit, snippets, sort, ws)
        return hits

    def stop(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


__all__ = ["SearchBusyError", "SearchPool"]
