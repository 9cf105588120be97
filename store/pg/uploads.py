"""Transcripts shared in Slack, on PostgreSQL: the counterpart of `store/uploads.py`.

A shared file is claimed by its key with `INSERT ... ON CONFLICT DO NOTHING`, so an
event Slack delivers twice, to one replica or to two, is indexed once."""

from __future__ import annotations

from ..clock import utcnow
from ..models import PendingUpload
from ..uploads import lease_cutoff
from .connection import PgConnection


class PgUploads(PgConnection):
    def claim_upload(self, key: str, file_id: str, channel: str, ts: str, user: str) -> bool:
        with self.tx() as conn:
            cur = conn.execute(
                'INSERT INTO uploads (key, file_id, channel, ts, "user", outcome, at)'
                " VALUES (%s, %s, %s, %s, %s, 'claimed', %s)"
                " ON CONFLICT (key) DO UPDATE SET at = excluded.at"
                " WHERE uploads.outcome = 'claimed' AND uploads.at < %s",
                [key, file_id, channel, ts, user, utcnow(), lease_cutoff()],
            )
            return cur.rowcount > 0

    def stale_uploads(self) -> list[PendingUpload]:
        return [
            PendingUpload(**r)
            for r in self._rows(
                'SELECT key, file_id, channel, ts, "user" FROM uploads'
                " WHERE outcome = 'claimed' AND at < %s ORDER BY at",
                [lease_cutoff()],
            )
        ]

    def release_upload(self, key: str) -> None:
        with self.tx() as conn:
            conn.execute("DELETE FROM uploads WHERE key = %s AND outcome = 'claimed'", [key])

    def finish_upload(
        self, key: str, outcome: str, candidate_id: str | None = None, path: str | None = None
    ) -> None:
        with self.tx() as conn:
            conn.execute(
                "UPDATE uploads SET outcome = %s, candidate_id = %s, path = %s WHERE key = %s",
                [outcome, candidate_id, path, key],
            )

    def candidate_with_hash(self, content_hash: str) -> str | None:
        row = self._one(
            "SELECT id FROM candidates WHERE hash = %s ORDER BY id LIMIT 1", [content_hash]
        )
        return str(row[0]) if row else None

    def uploaded_files(self, candidate_id: str) -> list[str]:
        return [
            str(r[0])
            for r in self._all_rows(
                "SELECT DISTINCT path FROM uploads WHERE candidate_id = %s AND path IS NOT NULL",
                [candidate_id],
            )
        ]

    def forget_uploads(self, candidate_id: str) -> list[str]:
        paths = self.uploaded_files(candidate_id)
        with self.tx() as conn:
            conn.execute(
                "UPDATE uploads SET candidate_id = NULL, path = NULL, outcome = 'forgotten'"
                " WHERE candidate_id = %s",
                [candidate_id],
            )
        return paths
