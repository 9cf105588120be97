"""The daily digest: what it lists (by category) and who may send it today (claims)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from . import rows
from .clock import utcnow
from .models import DIGEST_CATEGORIES, DigestCategory, DigestData, DigestLine
from .sqlite.connection import Connection
from .threads import decision_tally


def digest_query(category: str, since: str = ":since", collate: str = "") -> tuple[str, str]:
    """-> (select ... from ... where, order by) for one digest category, on either
    backend: `since` is the dialect's named parameter, `collate` what makes a text
    comparison bytewise (PostgreSQL's `COLLATE "C"`; SQLite's is already)."""
    base = "SELECT c.id, c.position, c.years, {count} AS count FROM candidates c WHERE "
    if category == "new":
        return base.format(count="0") + f"c.first_indexed_at > {since}", "c.first_indexed_at DESC"
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
            "(SELECT count(*) FROM replies r WHERE r.candidate_id = c.id AND r.decision IS NOT NULL"
            f" AND coalesce(r.edited_at, r.recorded_at){collate} > {since})"
        )
        return base.format(count=recent) + f"{recent} > 0", "c.first_indexed_at ASC"
    raise ValueError(f"unknown digest category {category!r}")


class DigestStore(Connection):
    """The digest's lines by category, and the one-sender-per-day claim on it."""

    DIGEST_CATEGORIES: ClassVar[tuple[DigestCategory, ...]] = DIGEST_CATEGORIES

    def digest_lines(
        self, category: str, since: str, limit: int, offset: int = 0
    ) -> tuple[list[DigestLine], int]:
        where, order = digest_query(category)
        params: dict[str, Any] = {"since": since, "limit": limit, "offset": offset}
        total = self.db.execute(f"SELECT count(*) FROM ({where})", params).fetchone()[0]
        found = self._rows(f"{where} ORDER BY {order} LIMIT :limit OFFSET :offset", params)
        lines = [rows.digest_line(r) for r in found]
        if category == "decided":
            for line in lines:
                line.tally = decision_tally(self.db, line.id)
        return lines, int(total)

    def digest_data(self, since: str, per_category: int) -> DigestData:
        return rows.digest_data(self.DIGEST_CATEGORIES, self.digest_lines, since, per_category)

    def last_digest_sent_at(self) -> str | None:
        row = self.db.execute(
            "SELECT max(sent_at) FROM digests WHERE status IN ('sent', 'empty')"
        ).fetchone()
        return row[0] if row and row[0] else None

    def claim_digest(self, day: str, channel: str, claimer: str, stale_after_s: float) -> bool:
        """Take today's digest for `claimer`; False when it was sent or is being sent.

        A claim older than `stale_after_s` belonged to a sender that died; one whose post's
        outcome was unknown (`mark_digest_unknown`) may be taken at once. Either way the
        new sender should look for the post before posting (see `digest_status`)."""
        now = datetime.now(UTC)
        with self.tx() as db:
            row = db.execute(
                "SELECT status, claimed_at FROM digests WHERE day = ?", [day]
            ).fetchone()
            if row is not None:
                if row[0] in ("sent", "empty"):
                    return False
                age = (now - datetime.fromisoformat(row[1])).total_seconds()
                if age < stale_after_s and row[0] != "unknown":
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

    def mark_digest_unknown(self, day: str, claimer: str) -> None:
        """Slack did not say whether the post went out, and it was not found: the next
        sender looks for it before posting."""
        with self.tx() as db:
            db.execute(
                "UPDATE digests SET status = 'unknown'"
                " WHERE day = ? AND claimed_by = ? AND status = 'posting'",
                [day, claimer],
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
