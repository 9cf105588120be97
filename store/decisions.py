"""Decisions made with a button: recorded in the same table as a thread reply.

A reviewer clicks 通过 / 待定 / 不通过 under a verdict post, confirms in a modal, and the
bot posts `<name>: 通过 — note` in the verdict's thread. That post is recorded as the
reviewer's reply (keyed by its channel and ts, like any reply), so each reviewer keeps
one current decision (their latest), a deleted post no longer counts, and the summary
and the digest count it like a typed one. A modal submission is claimed by its key
before anything is recorded, so a retried submission is recorded once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import rows
from .connection import Connection, utcnow
from .models import Decision

Execute = Callable[[str, list[Any]], Any]


def write_decision(
    execute: Execute,
    mark: str,
    channel: str,
    ts: str,
    thread_ts: str,
    candidate_id: str,
    reviewer: str,
    decision: Decision,
    text: str,
) -> bool:
    """Record a button decision inside a write transaction, on either backend:
    `execute(sql, params)` is its connection's, `mark` its parameter placeholder.
    False (nothing recorded) when the candidate was forgotten or is not indexed."""

    def sql(text: str) -> str:
        return text.replace("?", mark)

    if execute(
        sql("SELECT 1 FROM forgotten_threads WHERE channel = ? AND ts = ?"), [channel, thread_ts]
    ).fetchone():
        return False
    if not execute(sql("SELECT 1 FROM candidates WHERE id = ?"), [candidate_id]).fetchone():
        return False
    execute(
        sql(
            "INSERT INTO replies (channel, ts, thread_ts, candidate_id, reviewer, text,"
            " decision, recorded_at, reacted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)"
            " ON CONFLICT (channel, ts) DO UPDATE SET text = excluded.text,"
            " decision = excluded.decision, reviewer = excluded.reviewer,"
            " edited_at = excluded.recorded_at"
        ),
        [channel, ts, thread_ts, candidate_id, reviewer, text, decision, utcnow()],
    )
    return True


class DecisionStore(Connection):
    def claim_submission(self, key: str) -> bool:
        """True the first time `key` (a modal's view id) is claimed, False after."""
        with self.tx() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO submissions (key, at) VALUES (?, ?)", [key, utcnow()]
            )
            return bool(cursor.rowcount)

    def record_decision(
        self,
        channel: str,
        ts: str,
        thread_ts: str,
        candidate_id: str,
        reviewer: str,
        decision: Decision,
        text: str,
    ) -> bool:
        """Record `reviewer`'s decision as their reply `ts` in the thread `thread_ts`.

        False (nothing recorded) when the candidate was forgotten or is not indexed."""
        with self.tx() as db:
            return write_decision(
                db.execute, "?", channel, ts, thread_ts, candidate_id, reviewer, decision, text
            )

    def current_decision(self, candidate_id: str, reviewer: str) -> Decision | None:
        """`reviewer`'s current decision about the candidate (their latest), if any."""
        row = self.db.execute(
            "SELECT decision FROM replies WHERE candidate_id = ? AND reviewer = ?"
            " AND decision IS NOT NULL ORDER BY ts DESC LIMIT 1",
            [candidate_id, reviewer],
        ).fetchone()
        return rows.decision(row[0]) if row else None
