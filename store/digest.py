"""The daily digest: what it lists (by category) and who may send it today (claims).

The claim is a row keyed by the day: `INSERT ... ON CONFLICT DO UPDATE ... WHERE` lets
exactly one sender (one replica, on PostgreSQL) take it, whatever the timing; a claim
left `posting` by a sender that died is taken over after `stale_after_s`, and one whose
post's outcome was unknown (`mark_digest_unknown`) at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import ClassVar

from . import rows
from .base import Base
from .clock import utcnow
from .engine import Engine
from .models import DIGEST_CATEGORIES, DigestCategory, DigestData, DigestLine
from .people_lines import PERSON, people_lines
from .threads import decision_tally


def digest_query(engine: Engine, ws: int, category: str, since: str) -> tuple[str, list[str], str]:
    """-> (select ... from ... where, its parameters, order by) for one digest category
    of data space `ws`."""
    base = (
        "SELECT c.id, c.position, c.years, c.name, c.interviewed_at, c.round,"
        f" c.first_indexed_at, {PERSON} AS person, {{count}} AS count,"
        " c.question_count AS questions, c.questions_read, c.unrecorded_count AS unrecorded,"
        " row_number() OVER (ORDER BY {order}, c.rid) AS pos"  # a person: their first line's
        f" FROM candidates c WHERE c.ws = {ws:d} AND "
    )
    # when the interview took place where the file says, else when it was first indexed
    newest = rows.NEWEST_FIRST.format(p="c.")
    oldest = newest.removesuffix(" DESC") + " ASC"
    if category == "new":
        where = base.format(count="0", order=newest) + "c.first_indexed_at > ?"
        return where, [since], newest
    if category == "waiting":
        where = base.format(count="0", order=oldest) + (
            "NOT EXISTS (SELECT 1 FROM replies r WHERE r.ws = c.ws AND r.candidate_id = c.id"
            " AND r.decision IS NOT NULL)"
            " AND NOT EXISTS (SELECT 1 FROM outcomes o WHERE o.ws = c.ws"
            " AND o.candidate_id IN (SELECT c3.id FROM candidates c3 WHERE c3.ws = c.ws"
            " AND c3.candidate_key = c.candidate_key))"
        )
        return where, [], oldest
    if category == "unanswered":
        order = f"c.unanswered_count DESC, {oldest}"
        where = base.format(count="c.unanswered_count", order=order) + "c.unanswered_count > 0"
        return where, [], order
    if category == "decided":
        recent = (
            "(SELECT count(*) FROM replies r WHERE r.ws = c.ws AND r.candidate_id = c.id"
            " AND r.decision IS NOT NULL"
            f" AND coalesce(r.edited_at, r.recorded_at) {engine.bytewise} > ?)"
        )
        where = base.format(count=recent, order=oldest) + f"{recent} > 0"
        return where, [since, since], oldest
    raise ValueError(f"unknown digest category {category!r}")


class DigestStore(Base):
    """The digest's lines by category, and the one-sender-per-day claim on it."""

    DIGEST_CATEGORIES: ClassVar[tuple[DigestCategory, ...]] = DIGEST_CATEGORIES

    def digest_lines(
        self, category: str, since: str, limit: int, offset: int = 0
    ) -> tuple[list[DigestLine], int]:
        """A category's lines, one a candidate (a person, issue 38: store/people_lines.py),
        each with the interviews of theirs the category has; and how many candidates."""
        where, params, _order = digest_query(self.engine, self.ws, category, since)
        total = self._scalar(f"SELECT count(DISTINCT person) FROM ({where}) AS lines", params)
        keys = [
            str(r[0])
            for r in self._all(
                f"SELECT person FROM ({where}) AS lines GROUP BY person"
                " ORDER BY min(pos), person LIMIT ? OFFSET ?",
                [*params, limit, offset],
            )
        ]
        if not keys:
            return [], int(total or 0)
        of_keys, key_params = self.engine.in_list("person", keys)
        found = self._rows(
            f"SELECT * FROM ({where}) AS lines WHERE {of_keys}"
            " ORDER BY coalesce(interviewed_at, first_indexed_at), first_indexed_at, id",
            [*params, *key_params],
        )
        if category == "decided":
            found = [{**r, "tally": decision_tally(self, r["id"])} for r in found]
        lines = people_lines(found, keys)
        return lines, int(total or 0)

    def digest_data(self, since: str, per_category: int) -> DigestData:
        return rows.digest_data(self.DIGEST_CATEGORIES, self.digest_lines, since, per_category)

    def last_digest_sent_at(self) -> str | None:
        sent = self._scalar(
            f"SELECT max(sent_at) FROM digests WHERE {self.space} AND status IN ('sent', 'empty')"
        )
        return str(sent) if sent else None

    def claim_digest(self, day: str, channel: str, claimer: str, stale_after_s: float) -> bool:
        """Take today's digest for `claimer`; False when it was sent or is being sent.

        A claim older than `stale_after_s` belonged to a sender that died; one whose post's
        outcome was unknown (`mark_digest_unknown`) may be taken at once. Either way the
        new sender should look for the post before posting (see `digest_status`)."""
        now = datetime.now(UTC)
        stale = (now - timedelta(seconds=stale_after_s)).isoformat()
        with self.tx() as tx:
            taken = tx.execute(
                "INSERT INTO digests (ws, day, channel, status, claimed_by, claimed_at)"
                " VALUES (?, ?, ?, 'posting', ?, ?) ON CONFLICT (ws, day) DO UPDATE SET"
                " channel = excluded.channel, status = excluded.status,"
                " claimed_by = excluded.claimed_by, claimed_at = excluded.claimed_at,"
                " sent_at = NULL, ts = NULL"
                " WHERE (digests.status = 'posting'"
                f" AND digests.claimed_at {self.engine.bytewise} < ?)"
                " OR digests.status = 'unknown'"
                " RETURNING 1",
                [self.ws, day, channel, claimer, now.isoformat(), stale],
            ).fetchone()
        return taken is not None

    def finish_digest(self, day: str, claimer: str, ts: str | None) -> None:
        """Slack accepted it (ts), or there was nothing to say (None)."""
        with self.tx() as tx:
            tx.execute(
                "UPDATE digests SET status = ?, sent_at = ?, ts = ?"
                f" WHERE {self.space} AND day = ? AND claimed_by = ?",
                ["sent" if ts else "empty", utcnow(), ts, day, claimer],
            )

    def mark_digest_unknown(self, day: str, claimer: str) -> None:
        """Slack did not say whether the post went out, and it was not found: the next
        sender looks for it before posting."""
        with self.tx() as tx:
            tx.execute(
                "UPDATE digests SET status = 'unknown'"
                f" WHERE {self.space} AND day = ? AND claimed_by = ? AND status = 'posting'",
                [day, claimer],
            )

    def release_digest(self, day: str, claimer: str) -> None:
        """Posting failed: let a later attempt try again."""
        with self.tx() as tx:
            tx.execute(
                f"DELETE FROM digests WHERE {self.space} AND day = ? AND claimed_by = ?"
                " AND status = 'posting'",
                [day, claimer],
            )

    def digest_status(self, day: str) -> str | None:
        status = self._scalar(f"SELECT status FROM digests WHERE {self.space} AND day = ?", [day])
        return None if status is None else str(status)
