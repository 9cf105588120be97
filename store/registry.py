"""A schema as an ordered registry of migrations (after simonw/llm's migrations.py),
the mechanics shared by SQLite (`store/sqlite/migrations.py`) and PostgreSQL
(`store/pg/migrations.py`); each backend keeps its own steps, transaction and locking.

A database that has a migration this release does not know was written by a newer
Debrief and is not touched: NewerSchemaError."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

from .errors import NewerSchemaError

C = TypeVar("C")

REPARSE_MTIME = -1
"""A `candidates.mtime_ns` that asks the next index run to parse the file again, even
when its content is unchanged: the parser learned facts the stored rows lack."""


SPACE_TABLES_M018 = (
    "candidates",
    "posts",
    "replies",
    "forgotten_threads",
    "submissions",
    "outcomes",
    "requests",
    "reminders",
    "webhook_events",
    "uploads",
    "digests",
    "audit",
    "forgotten",
    "erased",
    "retired",
)
"""The tables whose rows belong to one data space (a workspace or organisation), as
schema steps m018 and pg019 gave each a `ws` column. (`questions` and the full-text
tables are reached only through a candidate's rid.)"""


SPACE_KEYS_M019 = (
    ("posts", "channel, ts"),
    ("replies", "channel, ts"),
    ("forgotten_threads", "channel, ts"),
    ("submissions", "key"),
    ("outcomes", "candidate_id"),
    ("requests", "candidate_id, reviewer"),
    ("reminders", "reviewer, day"),
    ("uploads", "key"),
    ("digests", "day"),
    ("forgotten", "id"),
    ("retired", "id"),
)
"""The keys schema steps m019 and pg020 moved into each data space: (ws, these). `erased`
keeps its key (a pseudonym names its space), `audit` and `webhook_events` theirs (a
sequence, a uuid); `candidates` is keyed on (ws, id) beside its rid."""


class Registry(Generic[C]):
    """Migrations (functions of a connection `C`), in the order they were registered."""

    def __init__(self) -> None:
        self.migrations: list[Callable[[C], None]] = []

    def migration(self, fn: Callable[[C], None]) -> Callable[[C], None]:
        """A decorator: `fn` is the next migration."""
        self.migrations.append(fn)
        return fn

    def known(self) -> list[str]:
        """This release's migrations, in order."""
        return [fn.__name__ for fn in self.migrations]

    def pending(self, done: Iterable[str]) -> list[str]:
        """This release's migrations not among `done`, in order."""
        have = set(done)
        return [name for name in self.known() if name not in have]

    def unknown(self, done: Iterable[str]) -> list[str]:
        """The migrations among `done` that this release does not have, in their order."""
        ours = set(self.known())
        return [name for name in done if name not in ours]

    def refuse_newer(self, done: Iterable[str]) -> None:
        """NewerSchemaError when `done` (in the order applied) has a migration this
        release does not know."""
        newer = self.unknown(done)
        if newer:
            raise NewerSchemaError(
                f"written by a newer Debrief (schema step {newer[-1]} is unknown to this"
                " release): upgrade Debrief, or restore a backup made by this release"
            )
