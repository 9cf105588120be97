"""Transcripts shared in Slack (handlers/uploads.py): claims, outcomes, saved files.

A shared file is claimed by its key (channel, message ts, file id) before anything is
downloaded, with `INSERT ... ON CONFLICT`, so an event Slack delivers twice (to one
replica or to two) is indexed once. The saved file's path
and the candidate it became are kept, so `forget` can delete the file too.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from .base import Base
from .clock import utcnow
from .models import PendingUpload

UPLOAD_LEASE_S = 120.0
"""How long a claim holds before another delivery of the same event may take it over:
far longer than fetching and indexing one file takes, shorter than Slack's last retry."""


def lease_cutoff(lease_s: float = UPLOAD_LEASE_S) -> str:
    """Claims made before this moment were left by a process that died."""
    return (datetime.now(UTC) - timedelta(seconds=lease_s)).isoformat(timespec="microseconds")


class UploadStore(Base):
    def claim_upload(self, key: str, file_id: str, channel: str, ts: str, user: str) -> bool:
        """True the first time a shared file is seen, or when its claim was left unfinished
        for longer than the lease (the process that took it died); False for the same
        event again while it is handled or once it was."""
        with self.tx() as tx:
            cursor = tx.execute(
                'INSERT INTO uploads (ws, key, file_id, channel, ts, "user", outcome, at)'
                " VALUES (?, ?, ?, ?, ?, ?, 'claimed', ?)"
                " ON CONFLICT (ws, key) DO UPDATE SET at = excluded.at"
                " WHERE uploads.outcome = 'claimed' AND uploads.at < ?",
                [self.ws, key, file_id, channel, ts, user, utcnow(), lease_cutoff()],
            )
            return cursor.rowcount > 0

    def stale_uploads(self) -> list[PendingUpload]:
        """Claims left unfinished for longer than the lease: files nobody answered."""
        return [
            PendingUpload(**r)
            for r in self._rows(
                'SELECT key, file_id, channel, ts, "user" FROM uploads'
                f" WHERE {self.space} AND outcome = 'claimed' AND at < ? ORDER BY at",
                [lease_cutoff()],
            )
        ]

    def release_upload(self, key: str) -> None:
        """Forget a claim whose file could not be fetched, so that sharing it again works."""
        with self.tx() as tx:
            tx.execute(
                f"DELETE FROM uploads WHERE {self.space} AND key = ? AND outcome = 'claimed'",
                [key],
            )

    def finish_upload(
        self, key: str, outcome: str, candidate_id: str | None = None, path: str | None = None
    ) -> None:
        with self.tx() as tx:
            tx.execute(
                "UPDATE uploads SET outcome = ?, candidate_id = ?, path = ?"
                f" WHERE {self.space} AND key = ?",
                [outcome, candidate_id, path, key],
            )

    def candidate_with_hash(self, content_hash: str) -> str | None:
        """The candidate indexed from a file with this content, if any."""
        found = self._scalar(
            f"SELECT id FROM candidates WHERE {self.space} AND hash = ? ORDER BY id LIMIT 1",
            [content_hash],
        )
        return None if found is None else str(found)

    def uploaded_files(self, candidate_id: str) -> list[str]:
        """The files saved from Slack that became this candidate."""
        return [
            str(r[0])
            for r in self._all(
                f"SELECT DISTINCT path FROM uploads WHERE {self.space} AND candidate_id = ?"
                " AND path IS NOT NULL",
                [candidate_id],
            )
        ]

    def forget_uploads(self, candidate_id: str, source: str | None = None) -> list[str]:
        """Drop what is kept about a candidate's uploads; return their saved files' paths
        (for the caller to delete). The claims stay, without the file or candidate.
        `source`: the file the interview was read from, which holds it even when the
        upload is recorded under another interview of the same file (a file of several
        interviews names its first: issue 46)."""
        paths = self.uploaded_files(candidate_id)
        where = "candidate_id = ?" if source is None else "(candidate_id = ? OR path = ?)"
        params = [candidate_id] if source is None else [candidate_id, source]
        if source is not None:
            paths += [
                str(r[0])
                for r in self._all(
                    f"SELECT DISTINCT path FROM uploads WHERE {self.space} AND path = ?",
                    [source],
                )
                if str(r[0]) not in paths
            ]
        with self.tx() as tx:
            tx.execute(
                "UPDATE uploads SET candidate_id = NULL, path = NULL, outcome = 'forgotten'"
                f" WHERE {self.space} AND {where}",
                params,
            )
        return paths
