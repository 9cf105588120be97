"""Every table of data the store keeps, declared once: its data-space column, its key
within the space, the column that names a candidate, what `forget` does to it, how
erasing a whole space empties it, how `migrate-db` copies it.

The code that goes over tables reads this: `forget` and `erasure_state`
(`store/audit.py`), erasing a space (`store/spaces.py`), `migrate-db`
(`store/pg/copy.py`). Adding a table: its query module, its schema step
(`store/schema/steps.py`) and a line here. The full-text tables are not here: SQLite
builds them from the candidates' text (its FTS5 tables, and `search_texts`, the text
each row was given, written and deleted with them); PostgreSQL's is the `tsv`
column of `candidates` (and `fts_version`, the answer cache's key), which migrate-db
builds from the same text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Forget = Literal["candidate", "rows", "pseudonym"]
"""What `forget` does to a table's rows naming the candidate (its `subject`): erases the
candidate itself, with its questions and full text (`candidate`); deletes them (`rows`);
keeps them with a pseudonym instead of the id (`pseudonym`)."""

Emptied = Literal["forget", "rows", "kept", "mark"]
"""How erasing a whole data space empties a table: each candidate as `forget` erases one
(`forget`); its rows deleted a batch at a time by `key` (`rows`); kept, pseudonymized
(`kept`); with the space's erased mark, last (`mark`)."""


@dataclass(frozen=True)
class Table:
    name: str
    space: str | None = "ws"
    """Its data-space column; None: the database's own rows, the spaces' own rows, or
    rows reached through a candidate's rid (`questions`)."""
    key: str | None = None
    """Its key within its space (a space's rows are deleted by it)."""
    subject: str | None = None
    """The column naming a candidate: where `forget` and `erasure_state` look for them,
    and where erasing a space finds its candidates."""
    forget: Forget | None = None
    emptied: Emptied | None = None
    copy: Literal["rows", "text"] = "rows"
    """How `migrate-db` copies it: row for row (`rows`), or row for row with the
    full-text columns built from the same text as SQLite's index (`text`)."""
    identity: str | None = None
    """Its identity column: `migrate-db` sets the sequence past the rows copied."""


TABLES: tuple[Table, ...] = (
    Table(
        "candidates",
        subject="id",
        forget="candidate",
        emptied="forget",
        copy="text",
        identity="rid",
    ),
    Table("questions", space=None),
    Table("replies", key="channel, ts", subject="candidate_id", forget="rows", emptied="rows"),
    Table(
        "deleted_replies",
        key="channel, ts",
        subject="candidate_id",
        forget="rows",
        emptied="rows",
    ),
    Table("posts", key="channel, ts", subject="candidate_id", forget="rows", emptied="rows"),
    Table("digests", key="day", emptied="rows"),
    Table("audit", subject="candidate_id", forget="pseudonym", emptied="kept", identity="seq"),
    Table("forgotten", key="id", emptied="rows"),
    Table("forgotten_threads", key="channel, ts", emptied="rows"),
    Table("erased", key="pseudonym", emptied="mark"),
    Table("meta", space=None, key="key"),
    Table("submissions", key="key", emptied="rows"),
    Table("uploads", key="key", emptied="rows"),
    Table("retired", key="id", subject="id", forget="rows", emptied="rows"),
    Table("outcomes", key="candidate_id", subject="candidate_id", forget="rows", emptied="rows"),
    Table(
        "candidate_links", key="interview_id", subject="interview_id", forget="rows", emptied="rows"
    ),
    Table(
        "candidate_alikes",
        key="shared_key, candidate_key, interview_id",
        subject="interview_id",
        forget="rows",
        emptied="rows",
    ),
    Table(
        "requests",
        key="candidate_id, reviewer",
        subject="candidate_id",
        forget="rows",
        emptied="rows",
    ),
    Table("reminders", key="reviewer, day", emptied="rows"),
    Table(
        "handoffs",
        key="candidate_id, recipient",
        subject="candidate_id",
        forget="rows",
        emptied="rows",
    ),
    Table("webhook_events", key="event_id", subject="candidate_id", forget="rows", emptied="rows"),
    Table(
        "zoom_recordings",
        key="meeting_uuid, file_id",
        subject="candidate_id",
        forget="rows",
        emptied="rows",
    ),
    Table("workspaces", space=None, key="ws", identity="ws"),
    Table("installations", space=None, key="ws"),
    Table("oauth_states", space=None, key="state"),
    Table("uninstall_events", space=None, key="event_id"),
)
"""In the order `migrate-db` copies them, one that satisfies the foreign keys
(questions after candidates, installations after workspaces)."""


def in_spaces() -> list[Table]:
    """The tables whose rows belong to one data space."""
    return [t for t in TABLES if t.space is not None]


def forgotten_by(*what: Forget) -> list[Table]:
    """The tables whose rows naming a candidate `forget` treats as `what` says."""
    return [t for t in TABLES if t.forget in what]


def emptied_by(*how: Emptied) -> list[Table]:
    """The tables erasing a space empties as `how` says."""
    return [t for t in TABLES if t.emptied in how]
