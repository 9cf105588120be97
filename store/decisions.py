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

from . import rows
from .base import Base
from .clock import utcnow
from .models import Decision
from .requests import close_requests


class DecisionStore(Base):
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
        must be free (UnstorableError when it is not). False too when the candidate was
        forgotten or is not indexed."""
        with self.tx() as tx:
            if tx.execute(
                f"SELECT 1 FROM forgotten_threads WHERE {self.space} AND channel = ? AND ts = ?",
                [channel, thread_ts],
            ).fetchone():
                return False
            if not tx.execute(
                f"SELECT 1 FROM candidates WHERE {self.space} AND id = ?", [candidate_id]
            ).fetchone():
                return False
            if claim is not None:
                claimed = tx.execute(
                    "INSERT INTO submissions (ws, key, at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    [self.ws, claim, utcnow()],
                )
                if claimed.rowcount < 1:
                    return False
            # A claimed submission is a new reply: should its ts be taken, the write fails
            # whole (claim included) rather than replace someone else's reply.
            again = (
                ""
                if claim is not None
                else " ON CONFLICT (ws, channel, ts) DO UPDATE SET text = excluded.text,"
                " decision = excluded.decision, reviewer = excluded.reviewer,"
                " edited_at = excluded.recorded_at"
            )
            tx.execute(
                "INSERT INTO replies (ws, channel, ts, thread_ts, candidate_id, reviewer, text,"
                " decision, recorded_at, reacted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)" + again,
                [self.ws, channel, ts, thread_ts, candidate_id, reviewer, text, decision, utcnow()],
            )
            close_requests(tx, self.ws, candidate_id, reviewer, "decision")
        return True

    def settle_decision(self, channel: str, provisional_ts: str, ts: str) -> bool:
        """The decision recorded under `provisional_ts` now stands under `ts`, its post's
        (so deleting the post takes it back). False when there was nothing to move, or
        `ts` already holds a reply."""
        with self.tx() as tx:
            moved = tx.execute(
                f"UPDATE replies SET ts = ? WHERE {self.space} AND channel = ? AND ts = ?"
                " AND NOT EXISTS (SELECT 1 FROM replies r WHERE r.ws = replies.ws AND r.channel = ?"
                " AND r.ts = ?)",
                [ts, channel, provisional_ts, channel, ts],
            )
            return bool(moved.rowcount > 0)

    def current_decision(self, candidate_id: str, reviewer: str) -> Decision | None:
        """`reviewer`'s current decision about the candidate (their latest), if any."""
        found = self._scalar(
            f"SELECT decision FROM replies WHERE {self.space} AND candidate_id = ?"
            " AND reviewer = ? AND decision IS NOT NULL ORDER BY ts DESC LIMIT 1",
            [candidate_id, reviewer],
        )
        return None if found is None else rows.decision(found)
