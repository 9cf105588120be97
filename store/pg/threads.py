"""Slack threads on PostgreSQL: the bot's posts, reviewers' replies, button decisions.

The counterpart of `store/threads.py` and `store/decisions.py`. Every event is keyed by
Slack's (channel, ts): a retried or duplicated event, whichever replica gets it, is one
`INSERT ... ON CONFLICT` on that key, and the row lock it takes makes the second
replica wait for the first and then see the same text (recorded once)."""

from __future__ import annotations

from .. import rows
from ..clock import utcnow
from ..decisions import DecisionWriter
from ..models import Decision, tally_decisions
from ..threads import OPEN_COUNT_TEMPLATE, ReplyOutcome, reply_row, reviews_in
from ..transcripts.reviews import parse_reply, recorded_meaning
from .connection import Conn, PgConnection

OPEN_COUNT_SQL = OPEN_COUNT_TEMPLATE.format(mark="%s")


def read_reviews(conn: Conn, candidate_id: str) -> rows.Reviews:
    """Each reviewer's latest decision, every follow-up answer, the last 10 notes."""
    return reviews_in(
        conn.execute,
        "%s",
        "SELECT DISTINCT ON (reviewer) reviewer, decision, text, ts FROM replies"
        " WHERE candidate_id = %s AND decision IS NOT NULL ORDER BY reviewer, ts DESC",
        candidate_id,
    )


def decision_tally(conn: Conn, candidate_id: str) -> dict[str, int]:
    decisions, _f, _n = read_reviews(conn, candidate_id)
    return tally_decisions(decisions)


class PgThreads(PgConnection, DecisionWriter):
    _MARK = "%s"

    def record_post(self, channel: str, ts: str, candidate_id: str, kind: str) -> None:
        with self.tx() as conn:
            conn.execute(
                "INSERT INTO posts (channel, ts, candidate_id, kind, posted_at)"
                " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (channel, ts) DO UPDATE SET"
                " candidate_id = excluded.candidate_id, kind = excluded.kind,"
                " posted_at = excluded.posted_at",
                [channel, ts, candidate_id, kind, utcnow()],
            )

    def post_candidate(self, channel: str, ts: str) -> str | None:
        row = self._one(
            "SELECT candidate_id FROM posts WHERE channel = %s AND ts = %s", [channel, ts]
        )
        return str(row[0]) if row else None

    def record_reply(
        self, channel: str, ts: str, thread_ts: str, candidate_id: str, reviewer: str, text: str
    ) -> ReplyOutcome:
        """Record (or update, when edited) one reply. The same event twice records once,
        on one replica or two: the row is claimed first (`ON CONFLICT DO NOTHING`, then
        `FOR UPDATE`), so a concurrent duplicate waits and then finds the same text."""
        meaning = parse_reply(text)
        with self.tx() as conn:
            if conn.execute(
                "SELECT 1 FROM forgotten_threads WHERE channel = %s AND ts = %s",
                [channel, thread_ts],
            ).fetchone():
                return ReplyOutcome(False, None, None, False)
            meaning = recorded_meaning(
                meaning,
                lambda n: bool(
                    conn.execute(
                        "SELECT 1 FROM questions q JOIN candidates c ON c.rid = q.candidate_rid"
                        " WHERE c.id = %s AND q.number = %s",
                        [candidate_id, n],
                    ).fetchone()
                ),
            )
            followup = meaning.followup_number
            now = utcnow()
            inserted = conn.execute(
                "INSERT INTO replies (channel, ts, thread_ts, candidate_id, reviewer, text,"
                " decision, followup_number, followup_answer, recorded_at, reacted)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (channel, ts) DO NOTHING RETURNING 1",
                reply_row(
                    (channel, ts, thread_ts, candidate_id, reviewer, text),
                    meaning,
                    now,
                    meaning.decision is not None,
                ),
            ).fetchone()
            if inserted:
                conn.execute(OPEN_COUNT_SQL, [candidate_id])
                return ReplyOutcome(True, meaning.decision, followup, meaning.decision is not None)
            old = conn.execute(
                "SELECT text, reacted FROM replies WHERE channel = %s AND ts = %s FOR UPDATE",
                [channel, ts],
            ).fetchone()
            assert old is not None
            react = meaning.decision is not None and not old[1]
            if old[0] == text:
                if react:
                    conn.execute(
                        "UPDATE replies SET reacted = 1 WHERE channel = %s AND ts = %s",
                        [channel, ts],
                    )
                return ReplyOutcome(False, meaning.decision, followup, react)
            conn.execute(
                "UPDATE replies SET text = %s, decision = %s, followup_number = %s,"
                " followup_answer = %s, edited_at = %s, reacted = reacted | %s"
                " WHERE channel = %s AND ts = %s",
                [
                    text,
                    meaning.decision,
                    followup,
                    meaning.followup_answer,
                    now,
                    int(react),
                    channel,
                    ts,
                ],
            )
            conn.execute(OPEN_COUNT_SQL, [candidate_id])
        return ReplyOutcome(True, meaning.decision, followup, react)

    def delete_reply(self, channel: str, ts: str) -> bool:
        with self.tx() as conn:
            row = conn.execute(
                "DELETE FROM replies WHERE channel = %s AND ts = %s RETURNING candidate_id",
                [channel, ts],
            ).fetchone()
            if row is None:
                return False
            conn.execute(OPEN_COUNT_SQL, [row[0]])
        return True

    def tally(self, candidate_id: str) -> dict[str, int]:
        with self._said():
            return decision_tally(self.conn, candidate_id)

    # -- decisions made with the verdict post's buttons (store/decisions.py) -------------

    def current_decision(self, candidate_id: str, reviewer: str) -> Decision | None:
        row = self._one(
            "SELECT decision FROM replies WHERE candidate_id = %s AND reviewer = %s"
            " AND decision IS NOT NULL ORDER BY ts DESC LIMIT 1",
            [candidate_id, reviewer],
        )
        return rows.decision(row[0]) if row else None
