"""Faults for `debrief index` run as a real process (tests/test_index_full_disk.py): on the
PYTHONPATH of that process alone, so it and its worker processes load this at start-up.

`DEBRIEF_TEST_FAULT` (JSON) says what goes wrong:
- `workers`: parse in that many worker processes, however few the files and cores;
- `slow_worker`: a worker takes that many seconds over each file (it is busy when the
  disk fills);
- `started`: a worker creates this file as it reads its first file;
- `kill_worker_at`: the worker that reads the file of that name is killed (SIGKILL, as
  the kernel's out-of-memory killer does);
- `full_after`: once that many files are saved the database's disk is full: SQLite may
  grow no more (`max_page_count`); PostgreSQL's server answers `disk_full` (SQLSTATE
  53100) to every save and commit from then on."""

from __future__ import annotations

import functools
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

FAULT: dict[str, Any] = json.loads(os.environ.get("DEBRIEF_TEST_FAULT") or "{}")
DISK_FULL = (
    "DO $$ BEGIN RAISE EXCEPTION 'could not extend file' USING ERRCODE = 'disk_full'; END $$"
)


def _install() -> None:
    import multiprocessing

    from store import indexer
    from store.transcripts import files

    real_prepare = files.prepare

    @functools.wraps(real_prepare)
    def prepare(path: str) -> Any:
        if multiprocessing.parent_process() is not None:  # in a worker
            if "started" in FAULT:
                Path(FAULT["started"]).touch()
            if os.path.basename(path) == FAULT.get("kill_worker_at"):
                os.kill(os.getpid(), signal.SIGKILL)
            time.sleep(FAULT.get("slow_worker", 0))
        return real_prepare(path)

    files.prepare = prepare
    indexer.prepare = prepare
    if "workers" in FAULT:
        indexer.PARALLEL_FROM = 1
        indexer.default_workers = lambda: FAULT["workers"]
    if "full_after" in FAULT:
        real_write = indexer._write_one
        saved = [0]

        def write_one(store: Any, *args: Any) -> None:
            real_write(store, *args)
            saved[0] += 1
            if saved[0] == FAULT["full_after"]:
                _fill(store)

        indexer._write_one = write_one


def _fill(store: Any) -> None:
    """The database's disk is full from now on: every write that needs room is refused."""
    if hasattr(store, "url"):  # PostgreSQL: its server answers disk_full to every write
        backend = type(store)

        def refused(self: Any, *args: Any) -> None:
            with self._said():
                self.conn.execute(DISK_FULL)

        backend._write = refused  # a save
        import psycopg

        execute = psycopg.Connection.execute

        def commit_refused(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            if query == "COMMIT":  # a batch's commit (its rows' last pages)
                execute(self, DISK_FULL)
            return execute(self, query, *args, **kwargs)

        psycopg.Connection.execute = commit_refused  # type: ignore[method-assign]
        return
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages}")


if FAULT:
    _install()
