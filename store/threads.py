"""Slack threads: the bot's posts and the reviewers' replies to them (decisions,
follow-up answers, notes). What a reply's text means is read by `reviews.py` (pure)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlite_utils

from . import rows
from .clock import utcnow
from .models import tally_decisions
from .sqlite.connection import Connection
from .transcripts.reviews import ReplyMeaning, parse_reply, recorded_meaning

# A reply is stored before Slack gets its 200: it waits this long for the write lock at
# most, then fails, and Slack is asked to send it again.
REPLY_WAIT_SECONDS = 2.0

# A candidate's open questions: unanswered in the transcript and not answered in a thread.
OPEN_COUNT_TEMPLATE = """
UPDATE candidates SET unanswered_count = (
    SELECT count(*) FROM questions q
    WHERE q.candidate_rid = candidates.rid AND q.answered = 0
      AND NOT EXISTS (
        SELECT 1 FROM replies r
        WHERE r.candidate_id = candidates.id AND r.followup_number = q.number
      )
) WHERE id = {mark}
"""
OPEN_COUNT_SQL = OPEN_COUNT_TEMPLATE.format(mark="?")


def reply_row(
    event: tuple[str, str, str, str, str, str], meaning: ReplyMeaning, at: str, react: bool
) -> list[Any]:
    """A `replies` row's values, in the order (channel, ts, thread_ts, candidate_id,
    reviewer, text, decision, followup_number, followup_answer, recorded_at, reacted);
    `event` is the first six."""
    return [
        *event,
        meaning.decision,
        meaning.followup_number,
        meaning.followup_answer,
        at,
        int(react),
    ]


class ReplyOutcome:
    """What recording a thread reply did."""

    def __init__(
        self, recorded: bool, decision: str | None, followup: int | None, react: bool
    ) -> None:
        self.recorded = recorded  # new or changed (False: the same event again)
        self.decision = decision
        self.followup = followup
        self.react = react  # this call claimed the acknowledgement reaction


def reviews_in(
    execute: Callable[[str, list[Any]], Any], mark: str, latest_sql: str, candidate_id: str
) -> rows.Reviews:
    """A candidate's reviews on either backend: `execute(sql, params)` is its
    connection's, `mark` its placeholder, `latest_sql` its query for each reviewer's
    latest decision (reviewer, decision, text, ts)."""
    return rows.reviews(
        execute(latest_sql, [candidate_id]).fetchall(),
        execute(
            "SELECT followup_number, followup_answer, reviewer, ts FROM replies"
            f" WHERE candidate_id = {mark} AND followup_number IS NOT NULL ORDER BY ts",
            [candidate_id],
        ).fetchall(),
        execute(
            f"SELECT reviewer, text, ts FROM replies WHERE candidate_id = {mark}"
            " AND followup_number IS NULL ORDER BY ts DESC LIMIT 10",
            [candidate_id],
        ).fetchall(),
    )


def read_reviews(db: sqlite_utils.Database, candidate_id: str) -> rows.Reviews:
    """Each reviewer's latest decision, every follow-up answer, the last 10 notes."""
    return reviews_in(
        db.execute,
        "?",
        "SELECT reviewer, decision, text, ts FROM replies r WHERE candidate_id = ?"
        " AND decision IS NOT NULL AND ts = (SELECT max(ts) FROM replies r2"
        " WHERE r2.candidate_id = r.candidate_id AND r2.reviewer = r.reviewer"
        " AND r2.decision IS NOT NULL) ORDER BY ts",
        candidate_id,
    )


def decision_tally(db: sqlite_utils.Database, candidate_id: str) -> dict[str, int]:
    decisions, _f, _n = read_reviews(db, candidate_id)
    return tally_decisions(decisions)


class ThreadStore(Connection):
    """Bot posts (which candidate a thread is about) and reviewers' replies."""

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
        with self.waiting_at_most(REPLY_WAIT_SECONDS), self.tx() as db:
            if db.execute(
                "SELECT 1 FROM forgotten_threads WHERE channel = ? AND ts = ?", [channel, thread_ts]
            ).fetchone():
                return ReplyOutcome(False, None, None, False)  # a forgotten candidate's thread
            old = db.execute(
                "SELECT text, reacted FROM replies WHERE channel = ? AND ts = ?", [channel, ts]
            ).fetchone()
            meaning = recorded_meaning(
                meaning,
                lambda n: bool(
                    db.execute(
                        "SELECT 1 FROM questions q JOIN candidates c ON c.rid = q.candidate_rid"
                        " WHERE c.id = ? AND q.number = ?",
                        [candidate_id, n],
                    ).fetchone()
                ),
            )
            followup = meaning.followup_number
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
                reply_row(
                    (channel, ts, thread_ts, candidate_id, reviewer, text), meaning, utcnow(), react
                ),
            )
            db.execute(OPEN_COUNT_SQL, [candidate_id])
        return ReplyOutcome(True, meaning.decision, followup, react)

    def delete_reply(self, channel: str, ts: str) -> bool:
        with self.waiting_at_most(REPLY_WAIT_SECONDS), self.tx() as db:
            row = db.execute(
                "SELECT candidate_id FROM replies WHERE channel = ? AND ts = ?", [channel, ts]
            ).fetchone()
            if row is None:
                return False
            db.execute("DELETE FROM replies WHERE channel = ? AND ts = ?", [channel, ts])
            db.execute(OPEN_COUNT_SQL, [row[0]])
        return True

    def tally(self, candidate_id: str) -> dict[str, int]:
        """How many reviewers decided what, each by their latest decision."""
        return decision_tally(self.db, candidate_id)
