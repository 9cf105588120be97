"""Transcripts shared in Slack (handlers/uploads.py): claims, outcomes, saved files.

A shared file is claimed by its key (channel, message ts, file id) before anything is
downloaded, so an event Slack delivers twice is indexed once. The saved file's path
and the candidate it became are kept, so `forget` can delete the file too.
"""

from __future__ import annotations

from .connection import Connection, utcnow


class UploadStore(Connection):
    def claim_upload(self, key: str, file_id: str, channel: str, ts: str, user: str) -> bool:
        """True the first time a shared file is seen; False for the same event again."""
        with self.tx() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO uploads (key, file_id, channel, ts, user, outcome, at)"
                " VALUES (?, ?, ?, ?, ?, 'claimed', ?)",
                [key, file_id, channel, ts, user, utcnow()],
            )
            return bool(cursor.rowcount)

    def release_upload(self, key: str) -> None:
        """Forget a claim whose file could not be fetched, so that sharing it again works."""
        with self.tx() as db:
            db.execute("DELETE FROM uploads WHERE key = ? AND outcome = 'claimed'", [key])

    def finish_upload(
        self, key: str, outcome: str, candidate_id: str | None = None, path: str | None = None
    ) -> None:
        with self.tx() as db:
            db.execute(
                "UPDATE uploads SET outcome = ?, candidate_id = ?, path = ? WHERE key = ?",
                [outcome, candidate_id, path, key],
            )

    def candidate_with_hash(self, content_hash: str) -> str | None:
        """The candidate indexed from a file with this content, if any."""
        row = self.db.execute(
            "SELECT id FROM candidates WHERE hash = ? ORDER BY id LIMIT 1", [content_hash]
        ).fetchone()
        return str(row[0]) if row else None

    def uploaded_files(self, candidate_id: str) -> list[str]:
        """The files saved from Slack that became this candidate."""
        return [
            str(r[0])
            for r in self.db.execute(
                "SELECT DISTINCT path FROM uploads WHERE candidate_id = ? AND path IS NOT NULL",
                [candidate_id],
            )
        ]

    def forget_uploads(self, candidate_id: str) -> list[str]:
        """Drop what is kept about a candidate's uploads; return their saved files' paths
        (for the caller to delete). The claims stay, without the file or candidate."""
        paths = self.uploaded_files(candidate_id)
        with self.tx() as db:
            db.execute(
                "UPDATE uploads SET candidate_id = NULL, path = NULL, outcome = 'forgotten'"
                " WHERE candidate_id = ?",
                [candidate_id],
            )
        return paths
