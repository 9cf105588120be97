"""The audit log and erasure (forget, restore) on PostgreSQL.

The counterpart of `store/audit.py`, and it does what that does: forgetting erases a
candidate and everything recorded about them in one transaction, keeps their threads
forgotten (replies arriving later are not recorded, on any replica), and leaves a keyed
pseudonym in the audit instead of their id. A forget committed on one replica is final
for all: every replica reads the same rows, and `record_reply` checks
`forgotten_threads` inside its own transaction.

PostgreSQL does not overwrite deleted bytes in place as SQLite's secure_delete does:
after a forget the candidate's table pages are vacuumed (`VACUUM` of the tables that
held the text), so the space is reclaimed and reused; the server's WAL and backups are
the operator's (their retention decides how long the text may survive there).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from ..clock import utcnow
from ..models import AuditEntry
from .connection import Conn, PgConnection

PSEUDONYM_KEY = "audit_pseudonym_key"
_VACUUMED = ("candidates", "questions", "replies", "posts", "audit")


class PgAudit(PgConnection):
    _audit_key: bytes | None = None

    def audit(
        self, actor: str, action: str, candidate_id: str | None = None, channel: str | None = None
    ) -> None:
        """Append one line (one short INSERT: PostgreSQL has no single write lock to
        wait for, so it is written at once)."""
        with self.tx() as conn:
            conn.execute(
                "INSERT INTO audit (at, actor, action, candidate_id, channel)"
                " VALUES (%s, %s, %s, %s, %s)",
                [utcnow(), actor or "?", action, self._audit_subject(conn, candidate_id), channel],
            )

    def flush_audit(self, timeout: float = 10) -> bool:
        return True  # every line is written when audit() returns

    def audit_log(self, since: str | None = None) -> list[AuditEntry]:
        rows = self._all_rows(
            "SELECT at, actor, action, candidate_id, channel FROM audit WHERE at >= %s"
            " ORDER BY seq",
            [since or ""],
        )
        return [
            AuditEntry(when=r[0], who=r[1], what=r[2], candidate=r[3], channel=r[4]) for r in rows
        ]

    def forget(self, candidate_id: str) -> dict[str, int] | None:
        with self.tx() as conn:
            counts = self._erase(conn, candidate_id)
        if counts is not None:
            with self._said():
                for table in _VACUUMED:
                    self.conn.execute(f"VACUUM {table}")
        return counts

    def _erase(self, conn: Conn, candidate_id: str) -> dict[str, int] | None:
        def count(sql: str) -> int:
            row = conn.execute(sql, [candidate_id]).fetchone()
            return int(row[0]) if row else 0

        # One forget at a time per candidate, on every replica.
        conn.execute("SELECT pg_advisory_xact_lock(hashtext('forget:' || %s))", [candidate_id])
        row = conn.execute(
            "SELECT rid, hash, source FROM candidates WHERE id = %s", [candidate_id]
        ).fetchone()
        counts = {
            "questions": count(
                "SELECT count(*) FROM questions q JOIN candidates c ON c.rid = q.candidate_rid"
                " WHERE c.id = %s"
            ),
            "decisions": count(
                "SELECT count(*) FROM replies WHERE candidate_id = %s AND decision IS NOT NULL"
            ),
            "followups": count(
                "SELECT count(*) FROM replies WHERE candidate_id = %s"
                " AND followup_number IS NOT NULL"
            ),
            "replies": count("SELECT count(*) FROM replies WHERE candidate_id = %s"),
            "posts": count("SELECT count(*) FROM posts WHERE candidate_id = %s"),
            "fulltext_rows": 1 if row is not None else 0,
        }
        audited = count("SELECT count(*) FROM audit WHERE candidate_id = %s")
        already = conn.execute("SELECT 1 FROM forgotten WHERE id = %s", [candidate_id]).fetchone()
        if row is None and not any(counts.values()) and not audited and not already:
            return None
        if row is not None:
            rid, content_hash, source = row
            conn.execute("DELETE FROM candidates WHERE rid = %s", [rid])  # questions cascade
        else:  # the file was removed: what it last held, if anything names it still
            gone = conn.execute(
                "SELECT hash, source FROM retired WHERE id = %s", [candidate_id]
            ).fetchone()
            content_hash, source = gone if gone is not None else ("", "")
        conn.execute("DELETE FROM retired WHERE id = %s", [candidate_id])
        conn.execute(
            "INSERT INTO forgotten_threads (channel, ts)"
            " SELECT channel, ts FROM posts WHERE candidate_id = %s"
            " UNION SELECT channel, thread_ts FROM replies WHERE candidate_id = %s"
            " ON CONFLICT DO NOTHING",
            [candidate_id, candidate_id],
        )
        conn.execute("DELETE FROM replies WHERE candidate_id = %s", [candidate_id])
        conn.execute("DELETE FROM posts WHERE candidate_id = %s", [candidate_id])
        if row is not None or not already:
            conn.execute(
                "INSERT INTO forgotten (id, hash, source, forgotten_at) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (id) DO UPDATE SET hash = excluded.hash, source = excluded.source,"
                " forgotten_at = excluded.forgotten_at",
                [candidate_id, content_hash, source or "", utcnow()],
            )
        pseudonym = self.pseudonym(candidate_id, conn)
        conn.execute(
            "INSERT INTO erased (pseudonym) VALUES (%s) ON CONFLICT DO NOTHING", [pseudonym]
        )
        conn.execute(
            "UPDATE audit SET candidate_id = %s WHERE candidate_id = %s", [pseudonym, candidate_id]
        )
        return counts

    def pseudonym(self, candidate_id: str, conn: Conn | None = None) -> str:
        key = self._pseudonym_key(conn or self.conn, create=True)
        assert key is not None
        return "erased-" + hmac.new(key, candidate_id.encode(), hashlib.sha256).hexdigest()[:24]

    def _pseudonym_key(self, conn: Conn, create: bool) -> bytes | None:
        if self._audit_key is not None:
            return self._audit_key
        row = conn.execute("SELECT value FROM meta WHERE key = %s", [PSEUDONYM_KEY]).fetchone()
        if row is None:
            if not create:
                return None
            conn.execute(
                "INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                [PSEUDONYM_KEY, secrets.token_hex(32)],
            )
            row = conn.execute("SELECT value FROM meta WHERE key = %s", [PSEUDONYM_KEY]).fetchone()
            assert row is not None
        self._audit_key = bytes.fromhex(row[0])
        return self._audit_key

    def _audit_subject(self, conn: Conn, candidate_id: str | None) -> str | None:
        if not candidate_id:
            return candidate_id
        if self._pseudonym_key(conn, create=False) is None:
            return candidate_id
        pseudonym = self.pseudonym(candidate_id, conn)
        erased = conn.execute("SELECT 1 FROM erased WHERE pseudonym = %s", [pseudonym]).fetchone()
        return pseudonym if erased else candidate_id

    def forgotten(self) -> dict[str, tuple[str, str]]:
        return {
            r[0]: (r[1], r[2]) for r in self._all_rows("SELECT id, hash, source FROM forgotten")
        }

    def restore(self, candidate_id: str) -> str | None:
        with self.tx() as conn:
            row = conn.execute(
                "DELETE FROM forgotten WHERE id = %s RETURNING source", [candidate_id]
            ).fetchone()
        return str(row[0]) if row else None

    def unforget(self, candidate_id: str) -> None:
        self._write(lambda c: c.execute("DELETE FROM forgotten WHERE id = %s", [candidate_id]))
