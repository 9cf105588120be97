"""The App Home tab's queues (handlers/home.py): what waits for one reviewer.

`waiting_for` is the candidates whose verdict was posted in one of the given channels
(those the reviewer is in) and on whom that reviewer has recorded no decision, oldest
post first; `recent_decisions` the reviewer's own latest decisions. Both page.
"""

from __future__ import annotations

from . import rows
from .base import Base
from .models import Decision, DigestLine


class HomeStore(Base):
    def verdict_channels(self) -> list[str]:
        """Every channel a verdict was posted in."""
        return [
            str(r[0])
            for r in self._all(
                f"SELECT DISTINCT channel FROM posts WHERE {self.space} AND kind = 'verdict'"
            )
        ]

    def waiting_for(
        self, channels: list[str], reviewer: str, limit: int, offset: int = 0
    ) -> tuple[list[DigestLine], int]:
        """Candidates with a verdict posted in `channels`, no decision by `reviewer` and no
        hiring decision yet."""
        if not channels:
            return [], 0
        in_channels, params = self.engine.in_list("p.channel", channels)
        where = (
            "FROM posts p JOIN candidates c ON c.ws = p.ws AND c.id = p.candidate_id"
            f" WHERE p.{self.space} AND p.kind = 'verdict' AND {in_channels}"
            " AND NOT EXISTS (SELECT 1 FROM replies r WHERE r.ws = c.ws AND r.candidate_id = c.id"
            " AND r.reviewer = ? AND r.decision IS NOT NULL)"
            " AND NOT EXISTS (SELECT 1 FROM outcomes o WHERE o.ws = c.ws"
            " AND o.candidate_id IN (SELECT c3.id FROM candidates c3 WHERE c3.ws = c.ws"
            " AND c3.candidate_key = c.candidate_key))"
        )
        params.append(reviewer)
        total = self._scalar(f"SELECT count(DISTINCT c.id) {where}", params)
        found = self._rows(
            "SELECT c.id, min(c.position) AS position, min(c.years) AS years,"
            " min(c.name) AS name, min(c.interviewed_at) AS interviewed_at, min(c.round) AS round,"
            " min(c.question_count) AS questions, min(c.questions_read) AS questions_read,"
            f" min(c.unrecorded_count) AS unrecorded, min(p.posted_at) AS first {where}"
            " GROUP BY c.id ORDER BY first ASC, c.id LIMIT ? OFFSET ?",
            [*params, limit, offset],
        )
        return [rows.digest_line(r) for r in found], int(total or 0)

    def recent_decisions(
        self, reviewer: str, limit: int, offset: int = 0
    ) -> tuple[list[tuple[DigestLine, Decision]], int]:
        """`reviewer`'s current decision on each candidate, latest first."""
        latest = (
            "FROM replies r JOIN candidates c ON c.ws = r.ws AND c.id = r.candidate_id"
            f" WHERE r.{self.space} AND r.reviewer = ? AND r.decision IS NOT NULL AND r.ts = ("
            "SELECT max(r2.ts) FROM replies r2 WHERE r2.ws = r.ws"
            " AND r2.candidate_id = r.candidate_id AND r2.reviewer = r.reviewer"
            " AND r2.decision IS NOT NULL)"
        )
        total = self._scalar(f"SELECT count(*) {latest}", [reviewer])
        found = self._rows(
            "SELECT c.id, c.position, c.years, c.name, c.interviewed_at, c.round,"
            " c.question_count AS questions, c.questions_read, c.unrecorded_count AS unrecorded,"
            f" r.decision {latest}"
            " ORDER BY r.ts DESC LIMIT ? OFFSET ?",
            [reviewer, limit, offset],
        )
        return [(rows.digest_line(r), r["decision"]) for r in found], int(total or 0)
