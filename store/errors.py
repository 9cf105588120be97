"""The store's own errors: what bot/ and handlers/ catch, whichever the backend.

Each backend turns its driver's errors into these (nothing outside store/ catches
`sqlite3` or `psycopg` errors): a problem with the database itself is a StoreError,
which the CLI prints as one line and the Slack handlers answer kindly."""

from __future__ import annotations

from pathlib import Path


class StoreError(Exception):
    """A problem with the database itself (not with a transcript)."""


class NoDatabaseError(StoreError):
    """Reading was asked of a database that does not exist; nothing was created."""

    def __init__(self, path: str) -> None:
        super().__init__(f"no database at {path}: run 'debrief index' or set DEBRIEF_DB")
        self.path = path


class DiskFullError(StoreError):
    """The disk (or the database's size limit) is full: nothing half-written was kept."""

    def __init__(self, path: str) -> None:
        where = str(Path(path).resolve().parent) if path != ":memory:" else "memory"
        super().__init__(
            f"disk full: cannot write to {path} (no space left in {where});"
            " nothing half-written was kept: free some space and run again"
        )
        self.path = path


class UnstorableError(StoreError):
    """The database cannot hold some data it was given (text it refuses, a number out
    of its range, a key too long for an index, a constraint it breaks): the write, or
    the batch holding it, was rolled back. Another file's data is not affected, so an
    index run reports that file and goes on (store/indexer.py)."""

    def __init__(self, reason: object) -> None:
        # a driver's error, its first line: its DETAIL may repeat a whole row
        first = str(reason).strip().split("\n", 1)[0]
        super().__init__(first[:300] or type(reason).__name__)
