"""The SQLite store: the only module that speaks SQL. It hands out pydantic models.

One `Store` per database file; it is safe to share between threads (each thread
gets its own connection). WAL lets readers go on while an index run writes, and the
busy timeout makes writers wait for each other instead of failing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import sqlite_utils

from . import fulltext
from .migrations import migrate
from .models import (
    AuditEntry,
    Candidate,
    CandidateSummary,
    DecisionRecord,
    DigestData,
    DigestLine,
    Followup,
    Note,
    Question,
    SearchHit,
    Transcript,
)
from .reviews import parse_reply
from .sqlite import sqlite3

BUSY_TIMEOUT_MS = 15_000


def utcnow() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class StoreError(Exception):
    """A problem with the database itself (not with a transcript)."""


class Resolution:
    """What `resolve()` found for some text: one candidate, several, or none."""

    def __init__(self, query: str, matches: list[CandidateSummary]) -> None:
        self.query = query
        self.matches = matches

    @property
    def unique(self) -> CandidateSummary | None:
        return self.matches[0] if len(self.matches) == 1 else None


_OPEN_COUNT_SQL = """
UPDATE candidates SET unanswered_count = (
    SELECT count(*) FROM questions q
    WHERE q.candidate_rid = candidates.rid AND q.answered = 0
      AND NOT EXISTS (
        SELECT 1 FROM replies r
        WHERE r.candidate_id = candidates.id AND r.followup_number = q.number
      )
) WHERE id = ?
"""


class ReplyOutcome:
    """What recording a thread reply did."""

    def __init__(
        self, recorded: bool, decision: str | None, followup: int | None, react: bool
    ) -> None:
        self.recorded = recorded  # new or changed (False: the same event again)
        self.decision = decision
        self.followup = followup
        self.react = react  # this call claimed the acknowledgement reaction


_T = TypeVar("_T")


class _Batch:
    def __init__(self) -> None:
        self.pending: list[Callable[[sqlite_utils.Database], object]] = []
        self.started = 0.0

    def restart(self, db: sqlite_utils.Database) -> None:
        db.execute("BEGIN IMMEDIATE")
        self.pending = []
        self.started = time.monotonic()


class Store:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._local = threading.local()
        try:
            migrate(self.db)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open database {self.path}: {exc}") from exc

    # -- connections and transactions -------------------------------------------

    @property
    def db(self) -> sqlite_utils.Database:
        db: sqlite_utils.Database | None = getattr(self._local, "db", None)
        if db is None:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self.path,
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,  # transactions are explicit: see tx()
                check_same_thread=False,
            )
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            db = sqlite_utils.Database(conn)
            self._local.db = db
        return db

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.conn.close()
            self._local.db = None

    @contextmanager
    def tx(self) -> Iterator[sqlite_utils.Database]:
        """One write transaction: all of it lands, or none of it."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def _write(self, fn: Callable[[sqlite_utils.Database], _T]) -> _T:
        """One atomic write. Inside `batch()` it joins the batch's transaction; should it
        fail half-way, the batch is rolled back and its earlier writes are replayed one
        transaction each, so no half-written candidate is ever committed."""
        batch: _Batch | None = getattr(self._local, "batch", None)
        if batch is None:
            with self.tx() as db:
                return fn(db)
        db = self.db
        try:
            result = fn(db)
        except BaseException:
            db.execute("ROLLBACK")
            for earlier in batch.pending:
                with self.tx() as again:
                    earlier(again)
            batch.restart(db)
            raise
        batch.pending.append(fn)
        return result

    @contextmanager
    def batch(self, max_seconds: float = 0.25) -> Iterator[Callable[[], None]]:
        """Group an index run's writes into few commits: FTS5 flushes its index at every
        commit (and savepoint), so one commit per file costs several times the work.

        Every write stays atomic (see _write); the yielded `tick()` commits once the
        batch has run `max_seconds`, so other writers wait at most that long and a crash
        loses only the last fraction of a second of whole candidates."""
        db = self.db
        batch = _Batch()
        batch.restart(db)
        self._local.batch = batch

        def tick() -> None:
            if time.monotonic() - batch.started >= max_seconds:
                db.execute("COMMIT")
                batch.restart(db)

        try:
            yield tick
        except BaseException:
            if db.conn.in_transaction:
                db.execute("ROLLBACK")
            raise
        finally:
            self._local.batch = None
        if db.conn.in_transaction:
            db.execute("COMMIT")

    def _rows(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[dict[str, Any]]:
        return list(self.db.query(sql, params))

    # -- writing transcripts --------------------------------------------------------

    def file_state(self) -> dict[str, tuple[str, str, int, int]]:
        """source -> (id, hash, mtime_ns, size), for deciding what an index run must redo."""
        return {
            r["source"]: (r["id"], r["hash"], r["mtime_ns"] or 0, r["size"] or 0)
            for r in self.db.query("SELECT id, source, hash, mtime_ns, size FROM candidates")
        }

    def touch_file(self, candidate_id: str, mtime_ns: int, size: int) -> None:
        """The file was touched but its content is the same: remember the new stat."""
        self._write(
            lambda db: db.execute(
                "UPDATE candidates SET mtime_ns = ?, size = ? WHERE id = ?",
                [mtime_ns, size, candidate_id],
            )
        )

    def save(
        self,
        t: Transcript,
        mtime_ns: int = 0,
        size: int = 0,
        prepared: tuple[str, str] | None = None,
    ) -> None:
        """Insert or replace one transcript, atomically. `prepared`: its full-text and
        bigram strings, when a worker process already computed them."""
        now = utcnow()
        if prepared is None:
            text = fulltext.doc_text(t.position, t.intro, t.summary, t.questions, t.verdict)
            prepared = (text, fulltext.bigrams(text))
        fts = prepared
        self._write(lambda db: self._save(db, t, mtime_ns, size, now, fts))

    def _save(
        self,
        db: sqlite_utils.Database,
        t: Transcript,
        mtime_ns: int,
        size: int,
        now: str,
        fts: tuple[str, str],
    ) -> None:
        old = db.execute(
            "SELECT rid, first_indexed_at FROM candidates WHERE id = ?", [t.id]
        ).fetchone()
        values = [
            t.id,
            t.position,
            t.years,
            t.intro,
            t.summary,
            t.verdict,
            t.source,
            t.hash,
            mtime_ns,
            size,
            len(t.questions),
            len(t.unanswered),
        ]
        if old is None:
            cur = db.execute(
                "INSERT INTO candidates (id, position, years, intro, summary, verdict, source,"
                " hash, mtime_ns, size, question_count, unanswered_count, first_indexed_at,"
                " indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [*values, now, now],
            )
            rid = cur.lastrowid
        else:
            rid = old[0]
            self._fts_delete(db, rid)
            db.execute("DELETE FROM questions WHERE candidate_rid = ?", [rid])
            db.execute(
                "UPDATE candidates SET id = ?, position = ?, years = ?, intro = ?, summary = ?,"
                " verdict = ?, source = ?, hash = ?, mtime_ns = ?, size = ?,"
                " question_count = ?, unanswered_count = ?, indexed_at = ? WHERE rid = ?",
                [*values, now, rid],
            )
        db.conn.executemany(
            "INSERT INTO questions (candidate_rid, seq, number, question, goal, answer,"
            " answered) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (rid, seq, q.number, q.question, q.goal, q.answer, int(q.answered))
                for seq, q in enumerate(t.questions)
            ],
        )
        db.execute(_OPEN_COUNT_SQL, [t.id])
        db.execute("INSERT INTO candidates_fts (rowid, text) VALUES (?, ?)", [rid, fts[0]])
        db.execute("INSERT INTO candidates_bigrams (rowid, bigrams) VALUES (?, ?)", [rid, fts[1]])

    def _fts_delete(self, db: sqlite_utils.Database, rid: int) -> None:
        """Contentless FTS5 forgets a row only when told exactly what it indexed."""
        row = db.execute(
            "SELECT position, intro, summary, verdict FROM candidates WHERE rid = ?", [rid]
        ).fetchone()
        if row is None:
            return
        text = fulltext.doc_text(row[0], row[1], row[2], self._questions(db, rid), row[3])
        db.execute(
            "INSERT INTO candidates_fts (candidates_fts, rowid, text) VALUES ('delete', ?, ?)",
            [rid, text],
        )
        db.execute(
            "INSERT INTO candidates_bigrams (candidates_bigrams, rowid, bigrams)"
            " VALUES ('delete', ?, ?)",
            [rid, fulltext.bigrams(text)],
        )

    def remove(self, candidate_id: str) -> bool:
        """Delete a candidate's transcript (its questions and full-text row too)."""

        def write(db: sqlite_utils.Database) -> bool:
            row = db.execute("SELECT rid FROM candidates WHERE id = ?", [candidate_id]).fetchone()
            if row is None:
                return False
            self._fts_delete(db, row[0])
            db.execute("DELETE FROM candidates WHERE rid = ?", [row[0]])
            return True

        return self._write(write)

    # -- posts in Slack ------------------------------------------------------------------

    def record_post(self, channel: str, ts: str, candidate_id: str, kind: str) -> None:
        with self.tx() as db:
            db.execute(
                "INSERT OR REPLACE INTO posts (channel, ts, candidate_id, kind, posted_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [channel, ts, candidate_id, kind, utcnow()],
            )

    def post_candidate(self, channel: str, ts: str) -> str | None:
        """Which candidate a bot post (a thread's parent) is about."""
        row = self.db.execute(
            "SELECT candidate_id FROM posts WHERE channel = ? AND ts = ?", [channel, ts]
        ).fetchone()
        return str(row[0]) if row else None

    # -- reviewers' replies in threads -------------------------------------------------

    def record_reply(
        self, channel: str, ts: str, thread_ts: str, candidate_id: str, reviewer: str, text: str
    ) -> ReplyOutcome:
        """Record (or update, when edited) one reply. The same event twice records once."""
        meaning = parse_reply(text)
        with self.tx() as db:
            old = db.execute(
                "SELECT text, reacted FROM replies WHERE channel = ? AND ts = ?", [channel, ts]
            ).fetchone()
            followup = meaning.followup_number
            if (
                followup is not None
                and not db.execute(
                    "SELECT 1 FROM questions q JOIN candidates c ON c.rid = q.candidate_rid"
                    " WHERE c.id = ? AND q.number = ?",
                    [candidate_id, followup],
                ).fetchone()
            ):
                followup = None  # no such question: it is a note
            react = meaning.decision is not None and not (old and old[1])
            if old is not None and old[0] == text:
                if react:
                    db.execute(
                        "UPDATE replies SET reacted = 1 WHERE channel = ? AND ts = ?", [channel, ts]
                    )
                return ReplyOutcome(False, meaning.decision, followup, react)
            # One upsert: a new reply is inserted, an edited one keeps when it was recorded.
            db.execute(
                "INSERT INTO replies (channel, ts, thread_ts, candidate_id, reviewer, text,"
                " decision, followup_number, followup_answer, recorded_at, reacted)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (channel, ts) DO UPDATE SET text = excluded.text,"
                " decision = excluded.decision, followup_number = excluded.followup_number,"
                " followup_answer = excluded.followup_answer, edited_at = excluded.recorded_at,"
                " reacted = reacted OR excluded.reacted",
                [
                    channel,
                    ts,
                    thread_ts,
                    candidate_id,
                    reviewer,
                    text,
                    meaning.decision,
                    followup,
                    meaning.followup_answer if followup is not None else None,
                    utcnow(),
                    int(react),
                ],
            )
            db.execute(_OPEN_COUNT_SQL, [candidate_id])
        return ReplyOutcome(True, meaning.decision, followup, react)

    def delete_reply(self, channel: str, ts: str) -> bool:
        with self.tx() as db:
            row = db.execute(
                "SELECT candidate_id FROM replies WHERE channel = ? AND ts = ?", [channel, ts]
            ).fetchone()
            if row is None:
                return False
            db.execute("DELETE FROM replies WHERE channel = ? AND ts = ?", [channel, ts])
            db.execute(_OPEN_COUNT_SQL, [row[0]])
        return True

    def _reviews(
        self, candidate_id: str
    ) -> tuple[list[DecisionRecord], list[Followup], list[Note]]:
        db = self.db
        decisions = [
            DecisionRecord.model_validate(
                {"reviewer": r[0], "decision": r[1], "text": r[2], "ts": r[3]}
            )
            for r in db.execute(
                "SELECT reviewer, decision, text, ts FROM replies r WHERE candidate_id = ?"
                " AND decision IS NOT NULL AND ts = (SELECT max(ts) FROM replies r2"
                " WHERE r2.candidate_id = r.candidate_id AND r2.reviewer = r.reviewer"
                " AND r2.decision IS NOT NULL) ORDER BY ts",
                [candidate_id],
            )
        ]
        followups = [
            Followup(number=r[0], answer=r[1], reviewer=r[2], ts=r[3])
            for r in db.execute(
                "SELECT followup_number, followup_answer, reviewer, ts FROM replies"
                " WHERE candidate_id = ? AND followup_number IS NOT NULL ORDER BY ts",
                [candidate_id],
            )
        ]
        notes = [
            Note(reviewer=r[0], text=r[1], ts=r[2])
            for r in reversed(
                db.execute(
                    "SELECT reviewer, text, ts FROM replies WHERE candidate_id = ?"
                    " AND followup_number IS NULL ORDER BY ts DESC LIMIT 10",
                    [candidate_id],
                ).fetchall()
            )
        ]
        return decisions, followups, notes

    # -- the daily digest -----------------------------------------------------------------

    DIGEST_CATEGORIES = ("new", "waiting", "unanswered", "decided")

    def _digest_query(self, category: str) -> tuple[str, str]:
        """-> (select ... from ... where, order by) for one digest category; `:since` is bound."""
        base = "SELECT c.id, c.position, c.years, {count} AS count FROM candidates c WHERE "
        if category == "new":
            return base.format(count="0") + "c.first_indexed_at > :since", "c.first_indexed_at DESC"
        if category == "waiting":
            return (
                base.format(count="0")
                + "NOT EXISTS (SELECT 1 FROM replies r WHERE r.candidate_id = c.id"
                " AND r.decision IS NOT NULL)",
                "c.first_indexed_at ASC",
            )
        if category == "unanswered":
            return base.format(count="c.unanswered_count") + "c.unanswered_count > 0", (
                "c.unanswered_count DESC, c.first_indexed_at ASC"
            )
        if category == "decided":
            recent = (
                "(SELECT count(*) FROM replies r WHERE r.candidate_id = c.id"
                " AND r.decision IS NOT NULL AND coalesce(r.edited_at, r.recorded_at) > :since)"
            )
            return base.format(count=recent) + f"{recent} > 0", "c.first_indexed_at ASC"
        raise ValueError(f"unknown digest category {category!r}")

    def digest_lines(
        self, category: str, since: str, limit: int, offset: int = 0
    ) -> tuple[list[DigestLine], int]:
        where, order = self._digest_query(category)
        params: dict[str, Any] = {"since": since, "limit": limit, "offset": offset}
        total = self.db.execute(f"SELECT count(*) FROM ({where})", params).fetchone()[0]
        rows = self._rows(f"{where} ORDER BY {order} LIMIT :limit OFFSET :offset", params)
        lines = [
            DigestLine(id=r["id"], position=r["position"], years=r["years"], count=r["count"])
            for r in rows
        ]
        if category == "decided":
            for line in lines:
                line.tally = self.tally(line.id)
        return lines, int(total)

    def tally(self, candidate_id: str) -> dict[str, int]:
        decisions, _f, _n = self._reviews(candidate_id)
        counts: dict[str, int] = {}
        for d in decisions:
            counts[d.decision] = counts.get(d.decision, 0) + 1
        return counts

    def digest_data(self, since: str, per_category: int) -> DigestData:
        data = DigestData(since=since)
        for category in self.DIGEST_CATEGORIES:
            lines, total = self.digest_lines(category, since, per_category)
            setattr(data, category, lines)
            setattr(data, f"{category}_total", total)
        return data

    def last_digest_sent_at(self) -> str | None:
        row = self.db.execute(
            "SELECT max(sent_at) FROM digests WHERE status IN ('sent', 'empty')"
        ).fetchone()
        return row[0] if row and row[0] else None

    def claim_digest(self, day: str, channel: str, claimer: str, stale_after_s: float) -> bool:
        """Take today's digest for `claimer`; False when it was sent or is being sent."""
        now = datetime.now(UTC)
        with self.tx() as db:
            row = db.execute(
                "SELECT status, claimed_at FROM digests WHERE day = ?", [day]
            ).fetchone()
            if row is not None:
                if row[0] in ("sent", "empty"):
                    return False
                age = (now - datetime.fromisoformat(row[1])).total_seconds()
                if age < stale_after_s:
                    return False
                db.execute("DELETE FROM digests WHERE day = ?", [day])  # a crashed sender
            db.execute(
                "INSERT INTO digests (day, channel, status, claimed_by, claimed_at)"
                " VALUES (?, ?, 'posting', ?, ?)",
                [day, channel, claimer, now.isoformat()],
            )
        return True

    def finish_digest(self, day: str, claimer: str, ts: str | None) -> None:
        """Slack accepted it (ts), or there was nothing to say (None)."""
        with self.tx() as db:
            db.execute(
                "UPDATE digests SET status = ?, sent_at = ?, ts = ? WHERE day = ? AND claimed_by = ?",
                ["sent" if ts else "empty", utcnow(), ts, day, claimer],
            )

    def release_digest(self, day: str, claimer: str) -> None:
        """Posting failed: let a later attempt try again."""
        with self.tx() as db:
            db.execute(
                "DELETE FROM digests WHERE day = ? AND claimed_by = ? AND status = 'posting'",
                [day, claimer],
            )

    def digest_status(self, day: str) -> str | None:
        row = self.db.execute("SELECT status FROM digests WHERE day = ?", [day]).fetchone()
        return str(row[0]) if row else None

    # -- audit and erasure --------------------------------------------------------------

    def audit(
        self, actor: str, action: str, candidate_id: str | None = None, channel: str | None = None
    ) -> None:
        """Append one line: who did what, about which candidate, from which channel."""
        with self.tx() as db:
            db.execute(
                "INSERT INTO audit (at, actor, action, candidate_id, channel) VALUES (?, ?, ?, ?, ?)",
                [utcnow(), actor or "?", action, candidate_id, channel],
            )

    def audit_log(self, since: str | None = None) -> list[AuditEntry]:
        rows = self.db.execute(
            "SELECT at, actor, action, candidate_id, channel FROM audit WHERE at >= ? ORDER BY seq",
            [since or ""],
        ).fetchall()
        return [
            AuditEntry(when=r[0], who=r[1], what=r[2], candidate=r[3], channel=r[4]) for r in rows
        ]

    def forget(self, candidate_id: str) -> dict[str, int] | None:
        """Erase a candidate and everything recorded about them; None when unknown.
        The audit keeps only the id. Their file stays forgotten until it changes."""
        with self.tx() as db:
            row = db.execute(
                "SELECT rid, hash, source FROM candidates WHERE id = ?", [candidate_id]
            ).fetchone()
            if row is None:
                return None
            rid, content_hash, source = row
            counts = {
                "questions": db.execute(
                    "SELECT count(*) FROM questions WHERE candidate_rid = ?", [rid]
                ).fetchone()[0],
                "decisions": db.execute(
                    "SELECT count(*) FROM replies WHERE candidate_id = ? AND decision IS NOT NULL",
                    [candidate_id],
                ).fetchone()[0],
                "followups": db.execute(
                    "SELECT count(*) FROM replies WHERE candidate_id = ?"
                    " AND followup_number IS NOT NULL",
                    [candidate_id],
                ).fetchone()[0],
                "replies": db.execute(
                    "SELECT count(*) FROM replies WHERE candidate_id = ?", [candidate_id]
                ).fetchone()[0],
                "posts": db.execute(
                    "SELECT count(*) FROM posts WHERE candidate_id = ?", [candidate_id]
                ).fetchone()[0],
                "fulltext_rows": 1,
            }
            self._fts_delete(db, rid)
            db.execute("DELETE FROM questions WHERE candidate_rid = ?", [rid])
            db.execute("DELETE FROM candidates WHERE rid = ?", [rid])
            db.execute("DELETE FROM replies WHERE candidate_id = ?", [candidate_id])
            db.execute("DELETE FROM posts WHERE candidate_id = ?", [candidate_id])
            db.execute(
                "INSERT OR REPLACE INTO forgotten (id, hash, source, forgotten_at)"
                " VALUES (?, ?, ?, ?)",
                [candidate_id, content_hash, source or "", utcnow()],
            )
        return counts

    def forgotten(self) -> dict[str, tuple[str, str]]:
        """id -> (content hash, source) of every forgotten candidate."""
        return {
            r[0]: (r[1], r[2]) for r in self.db.execute("SELECT id, hash, source FROM forgotten")
        }

    def restore(self, candidate_id: str) -> str | None:
        """Lift a forget; returns the file it came from (to index again), None if not forgotten."""
        with self.tx() as db:
            row = db.execute("SELECT source FROM forgotten WHERE id = ?", [candidate_id]).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM forgotten WHERE id = ?", [candidate_id])
        return str(row[0])

    def unforget(self, candidate_id: str) -> None:
        self._write(lambda db: db.execute("DELETE FROM forgotten WHERE id = ?", [candidate_id]))

    # -- reading ----------------------------------------------------------------------

    @staticmethod
    def _questions(db: sqlite_utils.Database, rid: int) -> list[Question]:
        return [
            Question(number=r[0], question=r[1], goal=r[2], answer=r[3], answered=bool(r[4]))
            for r in db.execute(
                "SELECT number, question, goal, answer, answered FROM questions"
                " WHERE candidate_rid = ? ORDER BY seq",
                [rid],
            ).fetchall()
        ]

    def get_candidate(self, candidate_id: str) -> Candidate | None:
        rows = self._rows("SELECT * FROM candidates WHERE id = ?", [candidate_id])
        if not rows:
            return None
        r = rows[0]
        decisions, followups, notes = self._reviews(r["id"])
        return Candidate(
            id=r["id"],
            position=r["position"],
            years=r["years"],
            intro=r["intro"] or "",
            summary=r["summary"] or "",
            questions=self._questions(self.db, r["rid"]),
            verdict=r["verdict"],
            source=r["source"] or "",
            hash=r["hash"],
            indexed_at=r["first_indexed_at"],
            decisions=decisions,
            followups=followups,
            notes=notes,
        )

    _SUMMARY_SQL = (
        "SELECT id, position, years, question_count, unanswered_count, verdict IS NOT NULL"
        " AS has_verdict, first_indexed_at FROM candidates"
    )

    @staticmethod
    def _summary(r: dict[str, Any]) -> CandidateSummary:
        return CandidateSummary(
            id=r["id"],
            position=r["position"],
            years=r["years"],
            questions=r["question_count"],
            unanswered=r["unanswered_count"],
            has_verdict=bool(r["has_verdict"]),
            indexed_at=r["first_indexed_at"],
        )

    def count(self, position: str | None = None) -> int:
        if position:
            row = self.db.execute(
                "SELECT count(*) FROM candidates WHERE instr(lower(position), lower(?)) > 0",
                [position],
            ).fetchone()
        else:
            row = self.db.execute("SELECT count(*) FROM candidates").fetchone()
        return int(row[0])

    def list_candidates(
        self,
        position: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        unanswered_only: bool = False,
    ) -> list[CandidateSummary]:
        """Candidates, newest first; `position` filters by substring, any case."""
        where: list[str] = []
        params: list[Any] = []
        if position:
            where.append("instr(lower(position), lower(?)) > 0")
            params.append(position)
        if unanswered_only:
            where.append("unanswered_count > 0")
        sql = self._SUMMARY_SQL
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY first_indexed_at DESC, id LIMIT ? OFFSET ?"
        params += [-1 if limit is None else limit, offset]
        return [self._summary(r) for r in self._rows(sql, params)]

    def count_unanswered(self) -> int:
        """How many candidates have at least one open question."""
        row = self.db.execute(
            "SELECT count(*) FROM candidates WHERE unanswered_count > 0"
        ).fetchone()
        return int(row[0])

    def ids(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM candidates ORDER BY id")]

    def resolve(self, text: str, limit: int = 25) -> Resolution:
        """A full id, a unique id prefix, or words that match one candidate."""
        text = " ".join(text.replace("\x00", " ").split())
        if not text:
            return Resolution(text, [])
        exact = self._rows(self._SUMMARY_SQL + " WHERE id = ?", [text])
        if exact:
            return Resolution(text, [self._summary(exact[0])])
        prefix = self._rows(
            self._SUMMARY_SQL + " WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
            [text, text + "\U0010ffff", limit],
        )
        if prefix:
            return Resolution(text, [self._summary(r) for r in prefix])
        words = list(dict.fromkeys(text.split()))[: fulltext.MAX_TERMS]
        by_position = self._rows(
            self._SUMMARY_SQL
            + " WHERE "
            + " AND ".join("instr(lower(position), lower(?)) > 0" for _ in words)
            + " ORDER BY first_indexed_at DESC, id LIMIT ?",
            [*words, limit],
        )
        if by_position:
            return Resolution(text, [self._summary(r) for r in by_position])
        hits = self.search(text, limit=limit, snippets=False)
        if not hits:
            return Resolution(text, [])
        found = {
            r["id"]: r
            for r in self._rows(
                self._SUMMARY_SQL + f" WHERE id IN ({', '.join('?' for _ in hits)})",
                [h.id for h in hits],
            )
        }
        return Resolution(text, [self._summary(found[h.id]) for h in hits if h.id in found])

    # -- full-text search ----------------------------------------------------------------

    def _expand(self, prefix: str) -> list[str]:
        return [
            r[0]
            for r in self.db.execute(
                "SELECT term FROM candidates_fts_vocab WHERE term >= ? AND term < ?",
                [prefix, prefix + "\U0010ffff"],
            )
        ]

    def _matches(self, match: fulltext.Match, window: int) -> list[int]:
        """The newest `window` candidates (rowids) matching every term."""
        if match.trigram and match.bigram:
            sql = (
                "SELECT rowid FROM candidates_fts WHERE candidates_fts MATCH :tri AND +rowid IN"
                " (SELECT rowid FROM candidates_bigrams WHERE candidates_bigrams MATCH :bi)"
                " ORDER BY rowid DESC LIMIT :n"
            )
        elif match.trigram:
            sql = (
                "SELECT rowid FROM candidates_fts WHERE candidates_fts MATCH :tri"
                " ORDER BY rowid DESC LIMIT :n"
            )
        else:
            sql = (
                "SELECT rowid FROM candidates_bigrams WHERE candidates_bigrams MATCH :bi"
                " ORDER BY rowid DESC LIMIT :n"
            )
        params = {"tri": match.trigram, "bi": match.bigram, "n": window}
        return [r[0] for r in self.db.execute(sql, params)]

    def _fields(self, rowids: list[int]) -> dict[int, list[str]]:
        """The indexed text of some candidates, field by field, in reading order."""
        marks = ", ".join("?" for _ in rowids)
        head: dict[int, list[str]] = {}
        verdicts: dict[int, str] = {}
        for rid, position, intro, summary, verdict in self.db.execute(
            f"SELECT rid, position, intro, summary, verdict FROM candidates WHERE rid IN ({marks})",
            rowids,
        ):
            head[rid] = [position or "", intro or "", summary or ""]
            verdicts[rid] = verdict or ""
        for rid, question, goal, answer in self.db.execute(
            "SELECT candidate_rid, question, goal, answer FROM questions"
            f" WHERE candidate_rid IN ({marks}) ORDER BY candidate_rid, seq",
            rowids,
        ):
            head[rid] += (question, goal, answer)
        return {rid: [*parts, verdicts[rid]] for rid, parts in head.items()}

    def _ranked(
        self,
        query_terms: list[fulltext.Term],
        fields: dict[int, list[str]],
        rowids: list[int],
        limit: int,
    ) -> list[tuple[int, float]]:
        """Rank the window by bm25's term-frequency part, counted in the text itself.
        FTS5's own bm25 first counts every match in the whole index (its IDF): 0.1 s
        for a common term at 100,000 transcripts, whatever the window."""
        texts = {rid: "\n".join(parts).casefold() for rid, parts in fields.items()}
        scores = fulltext.bm25_tf(texts, [t.text for t in query_terms])
        ranked = sorted(rowids, key=lambda rid: (-scores.get(rid, 0.0), -rid))
        return [(rid, scores.get(rid, 0.0)) for rid in ranked[:limit]]

    def search(self, query: str, limit: int = 10, snippets: bool = True) -> list[SearchHit]:
        """Candidates containing every term of `query`, best first. Never raises on input."""
        query_terms = fulltext.terms(query)
        match = fulltext.match_expressions(query_terms, self._expand)
        if match is None:
            return []
        limit = max(1, min(limit, 1000))
        window = self._matches(match, max(limit, fulltext.RANK_WINDOW))
        if not window:
            return []
        fields = self._fields(window)  # read once: ranking and snippets both use it
        rows = self._ranked(query_terms, fields, window, limit)
        if not rows:
            return []
        info = {
            r["rid"]: r
            for r in self._rows(
                "SELECT rid, id, position, years FROM candidates"
                f" WHERE rid IN ({', '.join('?' for _ in rows)})",
                [r[0] for r in rows],
            )
        }
        hits: list[SearchHit] = []
        for rid, score in rows:
            r = info.get(rid)
            if r is None:
                continue
            text, hl = "", None
            if snippets:
                text, hl = fulltext.snippet(fields.get(rid, []), query_terms)
            hits.append(
                SearchHit(
                    id=r["id"],
                    position=r["position"],
                    years=r["years"],
                    snippet=text,
                    score=round(score, 6),
                    highlight=hl,
                )
            )
        return hits
