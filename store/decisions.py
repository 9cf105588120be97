"""Decisions made with a button: recorded in the same table as a thread reply.

A reviewer clicks 通过 / 待定 / 不通过 under a verdict post, confirms in a modal, and the
bot posts `<name>: 通过 — note` in the verdict's thread. That post is recorded as the
reviewer's reply (keyed by its channel and ts, like any reply), so each reviewer keeps
one current decision (their latest), a deleted post no longer counts, and the summary
and the digest count it like a typed one.

The decision is recorded before it is posted (what is posted is always recorded): first
under a provisional ts, in the same transaction as the claim of the modal submission's
key (so a retried submission is recorded once, and a failed write leaves the key free
for the retry), then, once posted, moved to the post's ts (`settle_decision`).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, ClassVar

from . import rows
from .clock import utcnow
from .models import Decision
from .sqlite.connection import Connection


class DecisionWriter:
    """`record_decision` and `settle_decision` for either backend: its `tx()` yields a
    connection whose `execute(sql, params)` runs SQL written with `_MARK` as the
    parameter placeholder."""

    _MARK: ClassVar[str] = "?"

    if TYPE_CHECKING:

        def tx(self) -> AbstractContextManager[Any]: ...

    def _sql(self, text: str) -> str:
        """`text`, written with `?` placeholders, in this backend's."""
        return text.replace("?", self._MARK)

    def record_decision(
        self,
        channel: str,
        ts: str,
        thread_ts: str,
        candidate_id: str,
        reviewer: str,
        decision: Decision,
        text: str,
        claim: str | None = None,
    ) -> bool:
        """Record `reviewer`'s decision as their reply `ts` in the thread `thread_ts`.

        With `claim` (a modal submission's key), the key is claimed in the same
        transaction: False, and nothing recorded, when it was claimed before; and `ts`
        must be free. False too when the candidate was forgotten or is not indexed."""
        sql = self._sql
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
            if claim is not None:
                claimed = conn.execute(
                    sql("INSERT INTO submissions (key, at) VALUES (?, ?) ON CONFLICT DO NOTHING"),
                    [claim, utcnow()],
                )
                if claimed.rowcount < 1:
                    return False
            # A claimed submission is a new reply: should its ts be taken, the write fails
            # whole (claim included) rather than replace someone else's reply.
            again = (
                ""
                if claim is not None
                else " ON CONFLICT (channel, ts) DO UPDATE SET text = excluded.text,"
                " decision = excluded.decision, reviewer = excluded.reviewer,"
                " edited_at = excluded.recorded_at"
            )
            conn.execute(
                sql(
                    "INSERT INTO replies (channel, ts, thread_ts, candidate_id, reviewer, text,"
                    " decision, recorded_at, reacted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)" + again
                ),
                [channel, ts, thread_ts, candidate_id, reviewer, text, decision, utcnow()],
            )
        return True

    def settle_decision(self, channel: str, provisional_ts: str, ts: str) -> bool:
        """The decision recorded under `provisional_ts` now stands under `ts`, its post's
        (so deleting the post takes it back). False when there was nothing to move, or
        `ts` already holds a reply."""
        with self.tx() as conn:
            moved = conn.execute(
                self._sql(
                    "UPDATE replies SET ts = ? WHERE channel = ? AND ts = ? AND NOT EXISTS"
                    " (SELECT 1 FROM replies r WHERE r.channel = ? AND r.ts = ?)"
                ),
                [ts, channel, provisional_ts, channel, ts],
            )
            return bool(moved.rowcount > 0)


class DecisionStore(Connection, DecisionWriter):
    def current_decision(self, candidate_id: str, reviewer: str) -> Decision | None:
        """`reviewer`'s current decision about the candidate (their latest), if any."""
        row = self.db.execute(
            "SELECT decision FROM replies WHERE candidate_id = ? AND reviewer = ?"
            " AND decision IS NOT NULL ORDER BY ts DESC LIMIT 1",
            [candidate_id, reviewer],
        ).fetchone()
        return rows.decision(row[0]) if row else None
