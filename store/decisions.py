"""Decisions made with a button: recorded in the same table as a thread reply.

A reviewer clicks 通过 / 待定 / 不通过 under a verdict post, confirms in a modal, and the
bot posts `<name>: 通过 — note` in the verdict's thread. That post is recorded as the
reviewer's reply (keyed by its channel and ts, like any reply), so each reviewer keeps
one current decision (their latest), a deleted post no longer counts, and the summary
and the digest count it like a typed one. A modal submission is claimed by its key
before anything is recorded, so a retried submission is recorded once.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, ClassVar

from . import rows
from .connection import Connection, utcnow
from .models import Decision


class DecisionWriter:
    """`record_decision` for either backend: its `tx()` yields a connection whose
    `execute(sql, params)` runs SQL written with `_MARK` as the parameter placeholder."""

    _MARK: ClassVar[str] = "?"

    if TYPE_CHECKING:

        def tx(self) -> AbstractContextManager[Any]: ...

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
        text = text.replace("\x00", "")  # PostgreSQL text cannot hold NUL, SQLite's can

        def sql(text: str) -> str:
            return text.replace("?", self._MARK)

        with self.tx() as conn:
            if conn.execute(
                sql("SELECT 1 FROM forgotten_threads WHERE channel = ? AND ts = ?"),
                [channel, thread_ts],
            ).fetchone():
                return False
            if not conn.execute(
                sql("SELECT 1 FROM candidates WHERE id = ?"), [candidate_id]
            ).fetchone():
                return False
            conn.execute(
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


class DecisionStore(Connection, DecisionWriter):
    def claim_submission(self, key: str) -> bool:
        """True the first time `key` (a modal's view id) is claimed, False after."""
        with self.tx() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO submissions (key, at) VALUES (?, ?)", [key, utcnow()]
            )
            return bool(cursor.rowcount)

    def current_decision(self, candidate_id: str, reviewer: str) -> Decision | None:
        """`reviewer`'s current decision about the candidate (their latest), if any."""
        row = self.db.execute(
            "SELECT decision FROM replies WHERE candidate_id = ? AND reviewer = ?"
            " AND decision IS NOT NULL ORDER BY ts DESC LIMIT 1",
            [candidate_id, reviewer],
        ).fetchone()
        return rows.decision(row[0]) if row else None
