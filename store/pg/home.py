"""The App Home tab's queues on PostgreSQL: the counterpart of `store/home.py`."""

from __future__ import annotations

from typing import Any

from .. import rows
from ..models import Decision, DigestLine
from .connection import PgConnection


class PgHome(PgConnection):
    def verdict_channels(self) -> list[str]:
        return [
            str(r[0])
            for r in self._all_rows("SELECT DISTINCT channel FROM posts WHERE kind = 'verdict'")
        ]

    def waiting_for(
        self, channels: list[str], reviewer: str, limit: int, offset: int = 0
    ) -> tuple[list[DigestLine], int]:
        if not channels:
            return [], 0
        where = (
            "FROM posts p JOIN candidates c ON c.id = p.candidate_id"
            " WHERE p.kind = 'verdict' AND p.channel = ANY(%s)"
            " AND NOT EXISTS (SELECT 1 FROM replies r WHERE r.candidate_id = c.id"
            " AND r.reviewer = %s AND r.decision IS NOT NULL)"
        )
        params: list[Any] = [channels, reviewer]
        total = self._one(f"SELECT count(DISTINCT c.id) {where}", params)
        found = self._rows(
            f"SELECT c.id, min(c.position) AS position, min(c.years) AS years,"
            f" min(p.posted_at) AS first {where}"
            " GROUP BY c.id ORDER BY first ASC, c.id LIMIT %s OFFSET %s",
            [*params, limit, offset],
        )
        return [rows.digest_line(r) for r in found], int(total[0]) if total else 0

    def recent_decisions(
        self, reviewer: str, limit: int, offset: int = 0
    ) -> tuple[list[tuple[DigestLine, Decision]], int]:
        latest = (
            "FROM replies r JOIN candidates c ON c.id = r.candidate_id"
            " WHERE r.reviewer = %s AND r.decision IS NOT NULL AND r.ts = ("
            "SELECT max(r2.ts) FROM replies r2 WHERE r2.candidate_id = r.candidate_id"
            " AND r2.reviewer = r.reviewer AND r2.decision IS NOT NULL)"
        )
        total = self._one(f"SELECT count(*) {latest}", [reviewer])
        found = self._rows(
            f"SELECT c.id, c.position, c.years, r.decision {latest}"
            " ORDER BY r.ts DESC LIMIT %s OFFSET %s",
            [reviewer, limit, offset],
        )
        return [(rows.digest_line(r), r["decision"]) for r in found], int(total[0]) if total else 0
