"""The audit log (who did what, about which candidate) and erasure: forget, restore."""

from __future__ import annotations

from .candidates import fts_delete
from .connection import Connection, utcnow
from .models import AuditEntry


class AuditStore(Connection):
    """Who did what (append-only), and erasing a candidate with everything about them."""

    def audit(
        self, actor: str, action: str, candidate_id: str | None = None, channel: str | None = None
    ) -> None:
        """Append one line: who did what, about which candidate, from which channel."""
        with self.tx() as db:
            db.execute(
                "INSERT INTO audit (at, actor, action, candidate_id, channel) VALUES (?, ?, ?, ?, ?)",
                [utcnow(), actor or "?", action, candidate_id, channel],
            )

    def audit_log(self, since: str | None = None) -> list[AuditEntry]:
        rows = self.db.execute(
            "SELECT at, actor, action, candidate_id, channel FROM audit WHERE at >= ? ORDER BY seq",
            [since or ""],
        ).fetchall()
        return [
            AuditEntry(when=r[0], who=r[1], what=r[2], candidate=r[3], channel=r[4]) for r in rows
        ]

    def forget(self, candidate_id: str) -> dict[str, int] | None:
        """Erase a candidate and everything recorded about them; None when unknown.
        The audit keeps only the id. Their file stays forgotten until it changes."""
        with self.tx() as db:
            row = db.execute(
                "SELECT rid, hash, source FROM candidates WHERE id = ?", [candidate_id]
            ).fetchone()
            if row is None:
                return None
            rid, content_hash, source = row
            counts = {
                "questions": db.execute(
                    "SELECT count(*) FROM questions WHERE candidate_rid = ?", [rid]
                ).fetchone()[0],
                "decisions": db.execute(
                    "SELECT count(*) FROM replies WHERE candidate_id = ? AND decision IS NOT NULL",
                    [candidate_id],
                ).fetchone()[0],
                "followups": db.execute(
                    "SELECT count(*) FROM replies WHERE candidate_id = ?"
                    " AND followup_number IS NOT NULL",
                    [candidate_id],
                ).fetchone()[0],
                "replies": db.execute(
                    "SELECT count(*) FROM replies WHERE candidate_id = ?", [candidate_id]
                ).fetchone()[0],
                "posts": db.execute(
                    "SELECT count(*) FROM posts WHERE candidate_id = ?", [candidate_id]
                ).fetchone()[0],
                "fulltext_rows": 1,
            }
            fts_delete(db, rid)
            db.execute("DELETE FROM questions WHERE candidate_rid = ?", [rid])
            db.execute("DELETE FROM candidates WHERE rid = ?", [rid])
            db.execute("DELETE FROM replies WHERE candidate_id = ?", [candidate_id])
            db.execute("DELETE FROM posts WHERE candidate_id = ?", [candidate_id])
            db.execute(
                "INSERT OR REPLACE INTO forgotten (id, hash, source, forgotten_at)"
                " VALUES (?, ?, ?, ?)",
                [candidate_id, content_hash, source or "", utcnow()],
            )
        return counts

    def forgotten(self) -> dict[str, tuple[str, str]]:
        """id -> (content hash, source) of every forgotten candidate."""
        return {
            r[0]: (r[1], r[2]) for r in self.db.execute("SELECT id, hash, source FROM forgotten")
        }

    def restore(self, candidate_id: str) -> str | None:
        """Lift a forget; returns the file it came from (to index again), None if not forgotten."""
        with self.tx() as db:
            row = db.execute("SELECT source FROM forgotten WHERE id = ?", [candidate_id]).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM forgotten WHERE id = ?", [candidate_id])
        return str(row[0])

    def unforget(self, candidate_id: str) -> None:
        self._write(lambda db: db.execute("DELETE FROM forgotten WHERE id = ?", [candidate_id]))
