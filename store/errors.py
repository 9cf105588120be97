"""The store's own errors: what bot/ and handlers/ catch, whichever the backend.

Each backend turns its driver's errors into these (nothing outside store/ catches
`sqlite3` or `psycopg` errors): a problem with the database itself is a StoreError,
which the CLI prints as one line and the Slack handlers answer kindly."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class StoreError(Exception):
    """A problem with the database itself (not with a transcript)."""


class NoDatabaseError(StoreError):
    """Reading was asked of a database that does not exist; nothing was created."""

    def __init__(self, path: str) -> None:
        super().__init__(f"no database at {path}: run 'debrief index' or set DEBRIEF_DB")
        self.path = path


class BackupTargetError(StoreError):
    """A backup was asked to go where it should not: over an existing file (without
    `overwrite`), or into a folder that does not exist. Nothing was written."""

    def __init__(self, path: str, reason: str) -> None:
        what = "already exists" if reason == "exists" else "is in a folder that does not exist"
        super().__init__(f"{path} {what}")
        self.path = path
        self.reason = reason  # "exists" or "no_folder"


class NewerSchemaError(StoreError):
    """The database was written by a newer Debrief: opening it could damage it."""


class BusyError(StoreError):
    """Another writer held what this write needed for longer than it may wait."""


class SearchBusyError(StoreError):
    """The searches' worker processes are all busy and their queue is full, or the search
    took too long: a polite "busy, try again" rather than a late answer."""


class QueryTooLong(Exception):
    """A search the store will not run: its query has more distinct terms than a search
    matches (`fulltext.MAX_TERMS`) or more characters than it reads
    (`fulltext.MAX_QUERY_CHARS`). Raised by `fulltext.parse` before anything is
    searched, never cut short silently. Not a StoreError: nothing is wrong with the
    database; the one who asked says it differently. `reason` is "terms" or "chars",
    `found` how many the query has, `most` how many are allowed."""

    def __init__(self, reason: str, found: int, most: int) -> None:
        super().__init__(reason, found, most)  # as given: it crosses the search workers
        self.reason = reason
        self.found = found
        self.most = most

    def __str__(self) -> str:
        what = "distinct terms" if self.reason == "terms" else "characters"
        return f"the query has {self.found} {what}; a search takes at most {self.most}"


class UnreachableError(StoreError):
    """The database server cannot be reached (down, refusing, a wrong address)."""


class DiskFullError(StoreError):
    """The disk (or the database's size limit) is full: nothing half-written was kept."""

    def __init__(self, path: str) -> None:
        where = str(Path(path).resolve().parent) if path != ":memory:" else "memory"
        super().__init__(
            f"disk full: cannot write to {path} (no space left in {where});"
            " nothing half-written was kept: free some space and run again"
        )
        self.path = path


class UnknownCandidateError(StoreError):
    """`link` or `unlink` named an interview (or a candidate's key) the data space does
    not hold: nothing was changed (issue 38)."""

    def __init__(self, what: str) -> None:
        super().__init__(f"no interview or candidate {what!r}")
        self.what = what


class UnstorableError(StoreError):
    """The database cannot hold some data it was given (text it refuses, a number out
    of its range, a key too long for an index, a constraint it breaks): the write, or
    the batch holding it, was rolled back. Another file's data is not affected, so an
    index run reports that file and goes on (store/indexer.py)."""

    def __init__(self, reason: object) -> None:
        # a driver's error, its first line: its DETAIL may repeat a whole row
        first = str(reason).strip().split("\n", 1)[0]
        super().__init__(first[:300] or type(reason).__name__)


@contextmanager
def refused_data() -> Iterator[None]:
    """A Python value the driver cannot bind (an integer out of range, text it cannot
    encode) becomes UnstorableError: around a save, whose data comes from a file."""
    try:
        yield
    except (OverflowError, ValueError) as exc:
        raise UnstorableError(exc) from exc
