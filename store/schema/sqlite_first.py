"""SQLite's schema steps m001-m016 (before the data spaces): the transcripts and their
full text, what Slack said about them, the audit, erasure, uploads, decisions, requests.

Bodies only: `store/schema/steps.py` lists them in order, beside PostgreSQL's."""

from __future__ import annotations

import sqlite_utils

from . import REPARSE_MTIME


def m001_transcripts(db: sqlite_utils.Database) -> None:
    db.table("candidates").create(
        {
            "rid": int,
            "id": str,
            "position": str,
            "years": int,
            "intro": str,
            "summary": str,
            "verdict": str,
            "source": str,
            "hash": str,
            "mtime_ns": int,
            "size": int,
            "question_count": int,
            "unanswered_count": int,
            "first_indexed_at": str,
            "indexed_at": str,
        },
        pk="rid",
        not_null={"id", "hash", "first_indexed_at", "indexed_at"},
    )
    db.table("candidates").create_index(["id"], unique=True)
    db.table("candidates").create_index(["first_indexed_at"])
    db.table("candidates").create_index(["source"])
    db.execute(
        """
        CREATE TABLE questions (
            candidate_rid INTEGER NOT NULL REFERENCES candidates(rid) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            number INTEGER NOT NULL,
            question TEXT NOT NULL,
            goal TEXT NOT NULL,
            answer TEXT NOT NULL,
            answered INTEGER NOT NULL
        )
        """
    )
    # A rowid table: rows hold long answers, which WITHOUT ROWID tables store poorly.
    db.execute("CREATE UNIQUE INDEX questions_order ON questions (candidate_rid, seq)")
    # Full text, as store/fulltext.py explains: trigrams for terms of 3+ characters,
    # each candidate's distinct CJK bigrams for 2-character words. Both contentless:
    # the text lives once, in the tables above.
    db.execute(
        "CREATE VIRTUAL TABLE candidates_fts USING fts5(text, tokenize='trigram', content='')"
    )
    # A bigger in-memory hash before each flush: index runs go about twice as fast.
    db.execute("INSERT INTO candidates_fts (candidates_fts, rank) VALUES ('hashsize', 67108864)")
    db.execute("CREATE VIRTUAL TABLE candidates_fts_vocab USING fts5vocab(candidates_fts, 'row')")
    db.execute(
        "CREATE VIRTUAL TABLE candidates_bigrams USING fts5("
        "bigrams, tokenize='unicode61', content='', detail='none', columnsize=0)"
    )


def m002_posts(db: sqlite_utils.Database) -> None:
    """Every message the bot posts about a candidate: replies in its thread belong to them."""
    db.execute(
        """
        CREATE TABLE posts (
            channel TEXT NOT NULL,
            ts TEXT NOT NULL,
            candidate_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            posted_at TEXT NOT NULL,
            PRIMARY KEY (channel, ts)
        )
        """
    )
    db.execute("CREATE INDEX posts_candidate ON posts (candidate_id)")


def m003_replies(db: sqlite_utils.Database) -> None:
    """Reviewers' replies in threads under the bot's posts: notes, decisions, follow-ups."""
    db.execute(
        """
        CREATE TABLE replies (
            channel TEXT NOT NULL,
            ts TEXT NOT NULL,
            thread_ts TEXT NOT NULL,
            candidate_id TEXT NOT NULL,
            reviewer TEXT NOT NULL,
            text TEXT NOT NULL,
            decision TEXT,
            followup_number INTEGER,
            followup_answer TEXT,
            recorded_at TEXT NOT NULL,
            edited_at TEXT,
            reacted INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (channel, ts)
        )
        """
    )
    db.execute("CREATE INDEX replies_candidate ON replies (candidate_id, ts)")
    db.execute("CREATE INDEX replies_recorded ON replies (recorded_at)")


def m004_digests(db: sqlite_utils.Database) -> None:
    """One row a day: the claim that makes the daily digest go out exactly once."""
    db.execute(
        """
        CREATE TABLE digests (
            day TEXT PRIMARY KEY,
            channel TEXT NOT NULL,
            status TEXT NOT NULL,
            claimed_by TEXT NOT NULL,
            claimed_at TEXT NOT NULL,
            sent_at TEXT,
            ts TEXT
        )
        """
    )


def m005_audit_and_forgotten(db: sqlite_utils.Database) -> None:
    """Who looked at or decided what, and the candidates erased on request."""
    db.execute(
        """
        CREATE TABLE audit (
            seq INTEGER PRIMARY KEY,
            at TEXT NOT NULL,
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            candidate_id TEXT,
            channel TEXT
        )
        """
    )
    db.execute("CREATE INDEX audit_at ON audit (at)")
    db.execute(
        """
        CREATE TABLE forgotten (
            id TEXT PRIMARY KEY,
            hash TEXT NOT NULL,
            source TEXT NOT NULL,
            forgotten_at TEXT NOT NULL
        )
        """
    )


def m006_meta(db: sqlite_utils.Database) -> None:
    """Small facts about the database itself: the last index run, for `stats` and `doctor`."""
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")


def m007_erasure(db: sqlite_utils.Database) -> None:
    """What erasure keeps: the threads of forgotten candidates (so late replies in them are
    not recorded), the pseudonyms that stand for their ids in the audit, and settings such
    as the pseudonyms' key."""
    db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.execute(
        "CREATE TABLE forgotten_threads (channel TEXT NOT NULL, ts TEXT NOT NULL,"
        " PRIMARY KEY (channel, ts))"
    )
    db.execute("CREATE TABLE erased (pseudonym TEXT PRIMARY KEY)")


def m008_search_terms(db: sqlite_utils.Database) -> None:
    """Search ranks by bm25 over every match: the 2-character table keeps every CJK bigram
    occurrence with positions (bm25 needs their counts) plus short Latin words (AI, Go,
    C#) as whole-word tokens. Rebuilt from the stored text (see store/fulltext.py)."""
    from .. import fulltext
    from ..sqlite.space_index import indexed_questions

    db.execute("DROP TABLE IF EXISTS candidates_bigrams")
    db.execute(
        "CREATE VIRTUAL TABLE candidates_bigrams USING fts5("
        "bigrams, tokenize=\"unicode61 tokenchars '#+'\", content='')"
    )
    db.execute(
        "INSERT INTO candidates_bigrams (candidates_bigrams, rank) VALUES ('hashsize', 67108864)"
    )
    rows = db.execute("SELECT rid, position, intro, summary, verdict FROM candidates").fetchall()
    for rid, position, intro, summary, verdict in rows:
        text = fulltext.written_text(  # as written: one script came with m027
            position, intro or "", summary or "", indexed_questions(db.execute, rid), verdict
        )
        db.execute(
            "INSERT INTO candidates_bigrams (rowid, bigrams) VALUES (?, ?)",
            [rid, fulltext.bigrams(text)],
        )


def m009_transcript_facts(db: sqlite_utils.Database) -> None:
    """What the parser now keeps: the years as the file said them (`years_text`; `years`
    itself may now be 1.5, which its INTEGER-affinity column stores as REAL, unchanged)
    and why each unanswered question is unanswered (empty, skipped, dont_know).

    Rows indexed before are given the reason their answer text shows, and marked for a
    re-parse, so the next index run fills `years_text`, the new label names and years
    like `1年半` from the files themselves."""
    from ..transcripts.answers import unanswered_reason

    db.execute("ALTER TABLE candidates ADD COLUMN years_text TEXT NOT NULL DEFAULT ''")
    db.execute("ALTER TABLE questions ADD COLUMN unanswered_reason TEXT")
    rows = db.execute("SELECT rowid, answer FROM questions WHERE answered = 0").fetchall()
    db.conn.executemany(
        "UPDATE questions SET unanswered_reason = ? WHERE rowid = ?",
        [(unanswered_reason(answer) or "empty", rowid) for rowid, answer in rows],
    )
    db.execute("UPDATE candidates SET mtime_ns = ?", [REPARSE_MTIME])


def m010_button_decisions(db: sqlite_utils.Database) -> None:
    """Decisions made with the verdict post's buttons: each modal submission is claimed
    once (by the modal's view id), so a retried submission is recorded once."""
    db.execute("CREATE TABLE IF NOT EXISTS submissions (key TEXT PRIMARY KEY, at TEXT NOT NULL)")


def m011_uploads(db: sqlite_utils.Database) -> None:
    """Transcripts shared in Slack: each shared file claimed once (a retried event is
    indexed once), who shared it where, the file saved and the candidate it became."""
    db.execute(
        """
        CREATE TABLE IF NOT EXISTS uploads (
            key TEXT PRIMARY KEY,
            file_id TEXT NOT NULL,
            channel TEXT NOT NULL,
            ts TEXT NOT NULL,
            user TEXT NOT NULL,
            path TEXT,
            candidate_id TEXT,
            outcome TEXT NOT NULL,
            at TEXT NOT NULL
        )
        """
    )
    db.execute("CREATE INDEX IF NOT EXISTS uploads_candidate ON uploads (candidate_id)")
    db.execute("CREATE INDEX IF NOT EXISTS candidates_hash ON candidates (hash)")


def m014_interview_facts(db: sqlite_utils.Database) -> None:
    """Who and when, from the transcript's header: the candidate's name, the interviewers
    (a JSON array of names as written), the interview's date (ISO 8601, NULL when the file
    gives none that is sure) and as written, the round. Lists sort by the interview's date
    where known, else by when the file was first indexed; names are looked up as ids are.

    Rows indexed before are marked for a re-parse: the next index run reads the facts from
    the files themselves."""
    for column in (
        "name TEXT",
        "interviewers TEXT NOT NULL DEFAULT '[]'",
        "interviewed_at TEXT",
        "interviewed_at_text TEXT NOT NULL DEFAULT ''",
        "round TEXT",
    ):
        db.execute(f"ALTER TABLE candidates ADD COLUMN {column}")
    db.execute("CREATE INDEX IF NOT EXISTS candidates_name ON candidates (name)")
    db.execute(
        "CREATE INDEX IF NOT EXISTS candidates_newest"
        " ON candidates ((coalesce(interviewed_at, first_indexed_at)))"
    )
    db.execute("UPDATE candidates SET mtime_ns = ?", [REPARSE_MTIME])


def m016_requests_reminders_webhooks(db: sqlite_utils.Database) -> None:
    """Reviewers asked for their decision (one row per candidate and reviewer: asking
    again reopens it with the new deadline), the reminder each reviewer got on a day
    (claimed once, like the digest), and the hiring decisions waiting to be POSTed to
    the ATS (written in the decision's transaction, kept until delivered)."""
    db.execute(
        "CREATE TABLE IF NOT EXISTS requests (candidate_id TEXT NOT NULL,"
        " reviewer TEXT NOT NULL, asked_by TEXT NOT NULL, asked_at TEXT NOT NULL,"
        " due_at TEXT NOT NULL, channel TEXT NOT NULL, thread_ts TEXT NOT NULL,"
        " closed_at TEXT, closed_by TEXT, PRIMARY KEY (candidate_id, reviewer))"
    )
    db.execute("CREATE INDEX IF NOT EXISTS requests_reviewer ON requests (reviewer, due_at)")
    db.execute("CREATE INDEX IF NOT EXISTS requests_due ON requests (closed_at, due_at)")
    db.execute(
        "CREATE TABLE IF NOT EXISTS reminders (reviewer TEXT NOT NULL, day TEXT NOT NULL,"
        " status TEXT NOT NULL, claimer TEXT NOT NULL, claimed_at TEXT NOT NULL,"
        " sent_at TEXT, ts TEXT, PRIMARY KEY (reviewer, day))"
    )
    db.execute(
        "CREATE TABLE IF NOT EXISTS webhook_events (event_id TEXT PRIMARY KEY,"
        " candidate_id TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL,"
        " attempts INTEGER NOT NULL DEFAULT 0, next_at TEXT NOT NULL,"
        " claimed_by TEXT, claimed_until TEXT, delivered_at TEXT, last_error TEXT)"
    )
    db.execute(
        "CREATE INDEX IF NOT EXISTS webhook_events_due ON webhook_events (delivered_at, next_at)"
    )
    db.execute(
        "CREATE INDEX IF NOT EXISTS webhook_events_candidate ON webhook_events (candidate_id)"
    )
