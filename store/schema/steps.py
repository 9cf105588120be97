"""The schema's steps, in one ordered list for both backends (after simonw/llm's
migrations, and element-hq/synapse's delta folders, where each dialect's DDL sits side
by side only where the two differ).

A step is written once: the SQL both dialects take as written (`both`, run first), and
each dialect's own body where they differ (`on_sqlite`, `on_pg`). Each backend records
a step under its own name in `_migrations` (`sqlite`, `pg`: the names earlier releases
recorded, so a database they wrote upgrades unchanged); a step one backend has no need
of has no name there. PostgreSQL came at SQLite's m010: its first step is the whole
schema m001-m010 built, so m002-m010 have no PostgreSQL side; its full-text tables
(`pg_search.py`) have no SQLite side.

A database that has a step this release does not know was written by a newer Debrief
and is not touched: NewerSchemaError. Adding a step: append it at the end, with the
next name of each backend it touches (and the table's declaration, `tables.py`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..errors import NewerSchemaError
from ..sqlite import space_index
from . import (
    REPARSE_MTIME,
    candidate_loops,
    pg_first,
    pg_search,
    pg_text_search,
    sqlite_first,
)
from . import workspaces as ws

if TYPE_CHECKING:
    import psycopg
    import sqlite_utils

Backend = Literal["sqlite", "pg"]


@dataclass(frozen=True)
class Step:
    """One schema step: its name in each backend's `_migrations` (None: not a step
    there), the SQL both run as written, then each one's own body."""

    sqlite: str | None
    pg: str | None
    both: tuple[str, ...] = ()
    on_sqlite: Callable[[sqlite_utils.Database], None] | None = None
    on_pg: Callable[[psycopg.Connection[Any]], None] | None = None

    def name(self, backend: Backend) -> str | None:
        return self.sqlite if backend == "sqlite" else self.pg

    def run(self, backend: Backend, db: Any) -> None:
        """Apply the step to `db` (a sqlite_utils Database, a psycopg connection), in the
        caller's transaction."""
        for sql in self.both:
            db.execute(sql)
        body = self.on_sqlite if backend == "sqlite" else self.on_pg
        if body is not None:
            body(db)


def _sqlite(name: str, body: Callable[[sqlite_utils.Database], None]) -> Step:
    return Step(sqlite=name, pg=None, on_sqlite=body)


def _pg(name: str, body: Callable[[psycopg.Connection[Any]], None]) -> Step:
    return Step(sqlite=None, pg=name, on_pg=body)


s1, p1, pgs = sqlite_first, pg_first, pg_search


def _handoffs(execute: Callable[[str], Any], text: str) -> None:
    """m032 / pg032: the handoffs table (`text`: a column compared bytewise) and its
    index by sender and time."""
    execute(
        f"CREATE TABLE IF NOT EXISTS handoffs (ws INTEGER NOT NULL DEFAULT 0,"
        f" candidate_id {text} NOT NULL, recipient {text} NOT NULL, handed_by TEXT NOT NULL,"
        f" handed_at {text} NOT NULL, PRIMARY KEY (ws, candidate_id, recipient))"
    )
    execute("CREATE INDEX IF NOT EXISTS handoffs_sender ON handoffs (ws, handed_by, handed_at)")


def _reply_order(execute: Callable[[str], Any], text: str) -> None:
    """m033 / pg033: the Slack time of the text a reply holds (`edited_ts`: its edit's
    `edited.ts`; NULL: as first posted, at `ts`), and the replies deleted, kept so that a
    late delivery of one or of its edit is not recorded (`text`: a column compared
    bytewise)."""
    execute("ALTER TABLE replies ADD COLUMN edited_ts TEXT")
    execute(
        f"CREATE TABLE IF NOT EXISTS deleted_replies (ws INTEGER NOT NULL DEFAULT 0,"
        f" channel {text} NOT NULL, ts {text} NOT NULL, thread_ts TEXT NOT NULL,"
        f" candidate_id {text} NOT NULL, deleted_at TEXT NOT NULL,"
        " PRIMARY KEY (ws, channel, ts))"
    )
    execute(
        "CREATE INDEX IF NOT EXISTS deleted_replies_candidate ON deleted_replies (ws, candidate_id)"
    )


def _zoom(execute: Callable[[str], Any], text: str) -> None:
    """m036 / pg036 (issue 48): an interview's title and origin (where a meeting tool
    brought it by itself), and Zoom's cloud transcripts waiting to be fetched or taken
    (`text`: a column compared bytewise). Once a transcript is taken, its row keeps what
    the meeting says of the interview (the indexer gives it to the interview each time
    the file is read) until `forget` erases the interview; the once-only rule is the
    upload's claim (`uploads`, key `zoom:{uuid}:{file id}`), which outlives it."""
    execute("ALTER TABLE candidates ADD COLUMN title TEXT")
    execute("ALTER TABLE candidates ADD COLUMN origin TEXT")
    execute(
        "CREATE TABLE IF NOT EXISTS zoom_recordings (ws INTEGER NOT NULL DEFAULT 0,"
        f" meeting_uuid {text} NOT NULL, file_id {text} NOT NULL, meeting_id TEXT NOT NULL,"
        " account_id TEXT NOT NULL, topic TEXT, start_time TEXT NOT NULL,"
        " timezone TEXT, host_email TEXT, host_id TEXT, download_url TEXT,"
        " download_token TEXT, via TEXT NOT NULL, state TEXT NOT NULL,"
        " attempts INTEGER NOT NULL DEFAULT 0, next_at TEXT NOT NULL, claimed_by TEXT,"
        " claimed_until TEXT, last_error TEXT, interviewed_at TEXT, interviewer TEXT,"
        f" candidate_id {text}, path TEXT, created_at TEXT NOT NULL, finished_at TEXT,"
        " PRIMARY KEY (ws, meeting_uuid, file_id))"
    )
    execute("CREATE INDEX IF NOT EXISTS zoom_recordings_due ON zoom_recordings (state, next_at)")
    execute("CREATE INDEX IF NOT EXISTS zoom_recordings_path ON zoom_recordings (ws, path)")
    execute(
        "CREATE INDEX IF NOT EXISTS zoom_recordings_candidate ON zoom_recordings (ws, candidate_id)"
    )


STEPS: list[Step] = [
    Step("m001_transcripts", "pg001_schema", on_sqlite=s1.m001_transcripts, on_pg=p1.pg001_schema),
    _sqlite("m002_posts", s1.m002_posts),
    _sqlite("m003_replies", s1.m003_replies),
    _sqlite("m004_digests", s1.m004_digests),
    _sqlite("m005_audit_and_forgotten", s1.m005_audit_and_forgotten),
    _sqlite("m006_meta", s1.m006_meta),
    _sqlite("m007_erasure", s1.m007_erasure),
    _sqlite("m008_search_terms", s1.m008_search_terms),
    _sqlite("m009_transcript_facts", s1.m009_transcript_facts),
    _sqlite("m010_button_decisions", s1.m010_button_decisions),
    Step("m011_uploads", "pg002_uploads", on_sqlite=s1.m011_uploads, on_pg=p1.pg002_uploads),
    # The Home tab asks per reviewer: verdict posts by channel, a reviewer's decisions.
    Step(
        "m012_home_queues",
        "pg003_home_queues",
        both=(
            "CREATE INDEX IF NOT EXISTS posts_kind_channel ON posts (kind, channel)",
            "CREATE INDEX IF NOT EXISTS replies_reviewer ON replies (reviewer, candidate_id, ts)",
        ),
    ),
    # pg004-pg017 built and tuned a hand-made index for ranking on PostgreSQL; pg035
    # drops whatever of it a database holds, so only their names are left here, and
    # what outlives them (pg_search.py).
    Step(None, "pg004_postings"),
    Step(None, "pg005_words"),
    Step(None, "pg006_runs"),
    Step(None, "pg007_no_terms_index"),
    _pg("pg008_fts_version", pgs.pg008_fts_version),
    Step(None, "pg009_candidates_length"),
    _pg("pg010_long_keys", pgs.pg010_path_index),
    # The content and path a removed candidate last had, kept while anything recorded
    # about them (a post, a reply, a decision) still names their id: a different file
    # that comes later with the same name gets an id of its own, not their history.
    Step(
        "m013_retired_ids",
        "pg011_retired_ids",
        both=(
            "CREATE TABLE IF NOT EXISTS retired (id TEXT PRIMARY KEY, hash TEXT NOT NULL,"
            " source TEXT NOT NULL, at TEXT NOT NULL)",
        ),
    ),
    Step(
        "m014_interview_facts",
        "pg012_interview_facts",
        on_sqlite=s1.m014_interview_facts,
        on_pg=p1.pg012_interview_facts,
    ),
    # The hiring decision about a candidate (hire, reject, hold): one row each, a later
    # decision replaces the earlier one (the audit keeps every one).
    Step(
        "m015_outcomes",
        "pg013_outcomes",
        both=(
            "CREATE TABLE IF NOT EXISTS outcomes (candidate_id TEXT PRIMARY KEY,"
            " decision TEXT NOT NULL, note TEXT NOT NULL DEFAULT '', decided_by TEXT NOT NULL,"
            " decided_at TEXT NOT NULL)",
        ),
    ),
    Step(
        "m016_requests_reminders_webhooks",
        "pg014_requests_reminders_webhooks",
        on_sqlite=s1.m016_requests_reminders_webhooks,
        on_pg=p1.pg014_requests_reminders_webhooks,
    ),
    Step(None, "pg015_blocks"),
    Step(None, "pg016_no_text_trigram_index"),
    Step(None, "pg017_cheaper_candidate_writes"),
    Step(
        "m017_workspaces",
        "pg018_workspaces",
        on_sqlite=ws.m017_workspaces,
        on_pg=ws.pg018_workspaces,
    ),
    Step(
        "m018_workspace_columns",
        "pg019_workspace_columns",
        on_sqlite=ws.m018_workspace_columns,
        on_pg=ws.pg019_workspace_columns,
    ),
    Step(
        "m019_keys_in_a_space",
        "pg020_keys_in_a_space",
        on_sqlite=ws.m019_keys_in_a_space,
        on_pg=ws.pg020_keys_in_a_space,
    ),
    # The audit's lines by data space and subject: forgetting someone rewrites their
    # lines to a pseudonym, and erasing a whole space walks its subjects; both read every
    # line of the audit without it. PostgreSQL's pg001 had an index on the subject alone:
    # every query names a space, so it goes.
    Step(
        "m020_audit_by_subject",
        "pg021_audit_by_subject",
        both=("CREATE INDEX IF NOT EXISTS audit_subject ON audit (ws, candidate_id)",),
        on_pg=ws.pg021_no_audit_candidate,
    ),
    Step(
        "m021_workspace_settings",
        "pg022_workspace_settings",
        on_sqlite=ws.m021_workspace_settings,
        on_pg=ws.pg022_workspace_settings,
    ),
    Step(
        "m022_uninstall_events",
        "pg023_uninstall_events",
        on_sqlite=ws.m022_uninstall_events,
        on_pg=ws.pg023_uninstall_events,
    ),
    Step(
        "m023_webhook_order",
        "pg024_webhook_order",
        on_sqlite=ws.m023_webhook_order,
        on_pg=ws.pg024_webhook_order,
    ),
    # (m024's SQLite body moved each space's rows into its own FTS5 tables: m035 now
    # builds every space's tables from the stored text, so it has nothing left to do.)
    Step("m024_ranking_by_space", None),
    # Issue 34: how many reviewers one user asked in the last hour (their limit,
    # DEBRIEF_ASK_LIMIT_PER_HOUR) is counted from the requests they made, by space, asker
    # and time.
    Step(
        "m025_ask_limits",
        "pg025_ask_limits",
        both=("CREATE INDEX IF NOT EXISTS requests_asker ON requests (ws, asked_by, asked_at)",),
    ),
    # Issue 36: a meeting transcript (WebVTT, SRT, a meeting tool's export, a typed
    # dialogue) keeps each question's time in the recording, and a transcript what it is
    # (`notes`, the rows earlier releases wrote; `meeting`). A transcript indexed with no
    # question (a typed dialogue was) is read again by the next index run.
    Step(
        "m026_meeting_times",
        "pg026_meeting_times",
        both=(
            "ALTER TABLE questions ADD COLUMN started_at TEXT",
            "ALTER TABLE candidates ADD COLUMN kind TEXT NOT NULL DEFAULT 'notes'",
            f"UPDATE candidates SET mtime_ns = {REPARSE_MTIME:d} WHERE question_count = 0",
        ),
    ),
    # Issue 36: 繁體 and 简体 alike. The full-text index holds each text in one script
    # (simplified, character for character); the rows indexed as written before, where
    # they hold a traditional character, were indexed again. (Both bodies went with
    # issue 47: m035 and pg035 index every row again from the stored text, folded.)
    Step("m027_one_script_index", "pg027_one_script_index"),
    # Issue 38: the candidate is a person; their interviews one loop (candidate_loops.py).
    Step(
        "m028_candidate_loops",
        "pg028_candidate_loops",
        on_sqlite=candidate_loops.m028_candidate_loops,
        on_pg=candidate_loops.pg028_candidate_loops,
    ),
    # Issue 39 kept the postings of the terms each space searched (its tables and, on
    # PostgreSQL, each space's bm25 figures); issue 47 dropped them (m035, pg035), so a
    # database that never had them is not given them first.
    Step("m029_kept_postings", "pg029_kept_postings"),
    # Issue 45: two people who share a name and a position (one split off the other),
    # or an explicit key with two names, recorded as two (store/alikes.py), so that a
    # later interview matching both joins neither until someone picks.
    Step(
        "m030_candidate_alikes",
        "pg030_candidate_alikes",
        both=(
            "CREATE TABLE IF NOT EXISTS candidate_alikes (ws INTEGER NOT NULL DEFAULT 0,"
            " shared_key TEXT NOT NULL, candidate_key TEXT NOT NULL, why TEXT NOT NULL,"
            " interview_id TEXT NOT NULL, noted_by TEXT NOT NULL, noted_at TEXT NOT NULL,"
            " PRIMARY KEY (ws, shared_key, candidate_key, interview_id))",
        ),
    ),
    # Issue 45: a reviewer who withdraws a decision (deletes the reply, edits it into
    # none) is asked again (their request reopens); when that decision had shown them
    # the others', when they withdrew it is kept: the thread's status says so.
    Step(
        "m031_request_withdrawals",
        "pg031_request_withdrawals",
        both=("ALTER TABLE requests ADD COLUMN withdrawn_at TEXT",),
    ),
    # Issue 45: a handoff to the next interviewer (`/candidate 交接`) is recorded, so that
    # it follows the rule an ask follows (store/dm_limits.py): nobody handed the same
    # candidate twice in a day, and a user's hourly limit counted from their handoffs
    # with their asks, by space, sender and time.
    Step(
        "m032_handoffs",
        "pg032_handoffs",
        on_sqlite=lambda db: _handoffs(db.execute, "TEXT"),
        on_pg=lambda conn: _handoffs(conn.execute, 'TEXT COLLATE "C"'),
    ),
    # Issue 45: Slack retries an event it was not answered in 3 s, so a reply, its edits
    # and its deletion can arrive late, twice or out of order. A reply keeps the Slack
    # time of the text it holds (an older edit never overwrites a newer one), and a
    # deleted reply is remembered (a late delivery of it, or of its edit, stays deleted).
    Step(
        "m033_reply_order",
        "pg033_reply_order",
        on_sqlite=lambda db: _reply_order(db.execute, "TEXT"),
        on_pg=lambda conn: _reply_order(conn.execute, 'TEXT COLLATE "C"'),
    ),
    # Issue 46: the reader says less when it is not sure. A question the file lists with
    # nothing of its answer counts neither way (`answer_recorded`; `question_count` counts
    # those that do, `unrecorded_count` the others); an interview whose
    # questions could not be read keeps its text as written (`body`) for its card and
    # its search (`questions_read`). Files are read again: one may hold several
    # interviews now, each a row of its own (`part`: its place in the file, 1, 2, …;
    # 0 for a file of one interview).
    Step(
        "m034_files_read_in_part",
        "pg034_files_read_in_part",
        both=(
            "ALTER TABLE questions ADD COLUMN answer_recorded INTEGER NOT NULL DEFAULT 1",
            "ALTER TABLE candidates ADD COLUMN questions_read INTEGER NOT NULL DEFAULT 1",
            "ALTER TABLE candidates ADD COLUMN body TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE candidates ADD COLUMN unrecorded_count INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE candidates ADD COLUMN part INTEGER NOT NULL DEFAULT 0",
            f"UPDATE candidates SET mtime_ns = {REPARSE_MTIME:d}",
        ),
    ),
    # Issue 47: forget takes a candidate out of the SQLite index with the very text it
    # was indexed with, kept since (`search_texts`, space_index.py): every space's index
    # is built again from the stored text with today's folding; the kept postings go.
    _sqlite("m035_deletable_index", space_index.m035_deletable_index),
    # Issue 47: PostgreSQL ranks with its own text search (a tsvector under RUM), and
    # what ranked by hand before goes.
    _pg("pg035_text_search", pg_text_search.pg035_text_search),
    # Issue 48: Zoom's cloud transcripts arrive by themselves (bot/zoom.py).
    Step(
        "m036_zoom",
        "pg036_zoom",
        on_sqlite=lambda db: _zoom(db.execute, "TEXT"),
        on_pg=lambda conn: _zoom(conn.execute, 'TEXT COLLATE "C"'),
    ),
]
"""Every step, in the order they run: each backend's own steps keep their order here."""


def steps(backend: Backend) -> list[tuple[str, Step]]:
    """`backend`'s steps with the names it records them under, in order."""
    return [(name, step) for step in STEPS if (name := step.name(backend)) is not None]


def known(backend: Backend) -> list[str]:
    """This release's step names for `backend`, in order."""
    return [name for name, _step in steps(backend)]


def pending(backend: Backend, done: Iterable[str]) -> list[str]:
    """This release's steps not among `done`, in order."""
    have = set(done)
    return [name for name in known(backend) if name not in have]


def unknown(backend: Backend, done: Iterable[str]) -> list[str]:
    """The steps among `done` that this release does not have, in their order."""
    ours = set(known(backend))
    return [name for name in done if name not in ours]


def refuse_newer(backend: Backend, done: Iterable[str]) -> None:
    """NewerSchemaError when `done` (in the order applied) has a step this release does
    not know."""
    newer = unknown(backend, done)
    if newer:
        raise NewerSchemaError(
            f"written by a newer Debrief (schema step {newer[-1]} is unknown to this"
            " release): upgrade Debrief, or restore a backup made by this release"
        )
