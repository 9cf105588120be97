"""The daily digest on PostgreSQL: its lines, and the one-sender-per-day claim.

The claim is a row keyed by the day: `INSERT ... ON CONFLICT DO NOTHING` lets exactly
one replica take it, whatever the timing; a claim left `posting` by a replica that died
is taken over (the same statement's UPDATE, conditioned on its age) after
`stale_after_s`, and one whose outcome was unknown at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar

from .. import rows
from ..clock import utcnow
from ..digest import digest_query
from ..models import DIGEST_CATEGORIES, DigestCategory, DigestData, DigestLine
from .connection import PgConnection
from .threads import decision_tally


class PgDigest(PgConnection):
    DIGEST_CATEGORIES: ClassVar[tuple[DigestCategory, ...]] = DIGEST_CATEGORIES

    def digest_lines(
        self, category: str, since: str, limit: int, offset: int = 0
    ) -> tuple[list[DigestLine], int]:
        where, order = digest_query(category, "%(since)s", ' COLLATE "C"')
        params: dict[str, Any] = {"since": since, "limit": limit, "offset": offset}
        total_row = self._one(f"SELECT count(*) FROM ({where}) AS lines", params)
        found = self._rows(
            f"{where} ORDER BY {order}, c.rid LIMIT %(limit)s OFFSET %(offset)s", params
        )
        lines = [rows.digest_line(r) for r in found]
        if category == "decided":
            with self._said():
                for line in lines:
                    line.tally = decision_tally(self.conn, line.id)
        return lines, int(total_row[0]) if total_row else 0

    def digest_data(self, since: str, per_category: int) -> DigestData:
        return rows.digest_data(self.DIGEST_CATEGORIES, self.digest_lines, since, per_category)

    def last_digest_sent_at(self) -> str | None:
        row = self._one("SELECT max(sent_at) FROM digests WHERE status IN ('sent', 'empty')")
        return row[0] if row and row[0] else None

    def claim_digest(self, day: str, channel: str, claimer: str, stale_after_s: float) -> bool:
        """Take today's digest for `claimer`; False when it was sent or is being sent."""
        now = datetime.now(UTC)
        stale = (now - timedelta(seconds=stale_after_s)).isoformat()
        with self.tx() as conn:
            taken = conn.execute(
                "INSERT INTO digests (day, channel, status, claimed_by, claimed_at)"
                " VALUES (%s, %s, 'posting', %s, %s) ON CONFLICT (day) DO UPDATE SET"
                " channel = excluded.channel, claimed_by = excluded.claimed_by,"
                " claimed_at = excluded.claimed_at, sent_at = NULL, ts = NULL"
                " WHERE (digests.status = 'posting' AND digests.claimed_at < %s)"
                " OR digests.status = 'unknown'"
                " RETURNING 1",
                [day, channel, claimer, now.isoformat(), stale],
            ).fetchone()
        return taken is not None

    def finish_digest(self, day: str, claimer: str, ts: str | None) -> None:
        with self.tx() as conn:
            conn.execute(
                "UPDATE digests SET status = %s, sent_at = %s, ts = %s"
                " WHERE day = %s AND claimed_by = %s",
                ["sent" if ts else "empty", utcnow(), ts, day, claimer],
            )

    def mark_digest_unknown(self, day: str, claimer: str) -> None:
        """Slack did not say whether the post went out, and it was not found: the next
        sender looks for it before posting."""
        with self.tx() as conn:
            conn.execute(
                "UPDATE digests SET status = 'unknown'"
                " WHERE day = %s AND claimed_by = %s AND status = 'posting'",
                [day, claimer],
            )

    def release_digest(self, day: str, claimer: str) -> None:
        with self.tx() as conn:
            conn.execute(
                "DELETE FROM digests WHERE day = %s AND claimed_by = %s AND status = 'posting'",
                [day, claimer],
            )

    def digest_status(self, day: str) -> str | None:
        row = self._one("SELECT status FROM digests WHERE day = %s", [day])
        return str(row[0]) if row else None
