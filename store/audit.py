"""The audit log (who did what, about which candidate) and erasure: forget, restore.

Forgetting erases a candidate and everything recorded about them in one transaction,
keeps their threads forgotten (replies arriving later are not recorded, on any
replica: `record_reply` checks `forgotten_threads` inside its own transaction), and
leaves a keyed pseudonym in the audit instead of their id. How the deleted text is
then wiped from the database's files is the backend's (`_erase_for_good`)."""

from __future__ import annotations

import atexit
import hashlib
import hmac
import logging
import queue
import secrets
import threading
import time
from typing import Literal

from pydantic import BaseModel

from .base import Base, Tx
from .clock import utcnow
from .models import AuditEntry
from .outcomes import hand_over_outcome
from .schema.tables import forgotten_by

PSEUDONYM_KEY = "audit_pseudonym_key"
RETENTION_DAY = "retention_day"  # the last day the retention job was claimed for

ErasureState = Literal["indexed", "reviews", "forgotten"]


class Expired(BaseModel):
    """A candidate kept longer than a retention policy allows, and the date that counts:
    the interview's (`interview`), else when the file was first indexed (`indexed`), or,
    for a candidate whose file was removed while reviews remain, its removal (`removed`)."""

    id: str
    when: str
    basis: Literal["interview", "indexed", "removed"]


logger = logging.getLogger("debrief.audit")

# ws, at, actor, action, candidate, channel: a line carries its data space through the queue
_Line = tuple[int, str, str, str, str | None, str | None]
_WRITERS_LOCK = threading.Lock()


def _keyed(key: bytes, ws: int, candidate_id: str) -> str:
    """The pseudonym of a candidate of data space `ws`: space 0's are what they always
    were; another space's hash its number too, so that nothing links two spaces' ids."""
    subject = candidate_id if ws == 0 else f"{ws}:{candidate_id}"
    return "erased-" + hmac.new(key, subject.encode(), hashlib.sha256).hexdigest()[:24]


class _AuditWriter:
    """One thread that writes a store's queued audit lines, many per transaction. A line
    that cannot be written yet (a busy or full database) is kept and tried again.
    Where the database takes one writer at a time (SQLite), a lookup's audit line goes
    through it, so the lookup never waits for the write lock."""

    def __init__(self, store: AuditStore) -> None:
        self.store = store
        self.queue: queue.Queue[_Line | None] = queue.Queue()  # None: stop
        self.thread = threading.Thread(target=self._run, name="debrief-audit", daemon=True)
        self.thread.start()
        atexit.register(self.flush, 10)

    def put(self, line: _Line) -> None:
        self.queue.put(line)

    def flush(self, timeout: float = 10) -> bool:
        done = self.queue.all_tasks_done
        with done:
            return done.wait_for(lambda: self.queue.unfinished_tasks == 0, timeout)

    def stop(self, timeout: float = 10) -> None:
        """Write what is queued, then end the thread (the store is being closed)."""
        atexit.unregister(self.flush)
        self.queue.put(None)
        self.thread.join(timeout)

    def _run(self) -> None:
        stopping = False
        while not stopping:
            lines: list[_Line] = []
            item = self.queue.get()
            while item is not None:
                lines.append(item)
                if len(lines) >= 500:
                    break
                try:
                    item = self.queue.get_nowait()
                except queue.Empty:
                    break
            if item is None:
                stopping = True
                self.queue.task_done()
            while lines:
                try:
                    self.store._write_audit(lines)
                    break
                except Exception as exc:
                    logger.error("audit lines not written yet, trying again: %s", exc)
                    time.sleep(1)
            for _ in lines:
                self.queue.task_done()


class AuditStore(Base):
    """Who did what (append-only), and erasing a candidate with everything about them."""

    def audit(
        self, actor: str, action: str, candidate_id: str | None = None, channel: str | None = None
    ) -> None:
        """Append one line: who did what, about which candidate, from which channel.

        Where the database takes one writer at a time, off the reply path: the line is
        queued (stamped now) and written by this store's one audit writer thread, so a
        lookup never waits for the write lock. The queue is flushed by `flush_audit()`,
        `audit_log()`, `close()` and at exit. Elsewhere it is written at once."""
        line = (self.ws, utcnow(), actor or "?", action, candidate_id, channel)
        if self.one_writer:
            self._audit_writer().put(line)
        else:
            self._write_audit([line])

    def _audit_writer(self) -> _AuditWriter:
        shared = self._shared
        writer: _AuditWriter | None = shared.audit_writer
        if writer is None:
            with _WRITERS_LOCK:
                writer = shared.audit_writer
                if writer is None:
                    writer = shared.audit_writer = _AuditWriter(self)
        return writer

    def flush_audit(self, timeout: float = 10) -> bool:
        """Wait until every queued audit line is written; False on timeout."""
        writer: _AuditWriter | None = self._shared.audit_writer
        return writer.flush(timeout) if writer is not None else True

    def close(self) -> None:
        with _WRITERS_LOCK:
            writer: _AuditWriter | None = self._shared.audit_writer
            self._shared.audit_writer = None
        if writer is not None:
            writer.stop()
        super().close()

    def _write_audit(self, lines: list[_Line]) -> None:
        with self.tx() as tx:
            tx.executemany(
                "INSERT INTO audit (ws, at, actor, action, candidate_id, channel)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (ws, at, actor, action, self._audit_subject(tx, ws, cid), channel)
                    for ws, at, actor, action, cid, channel in lines
                ],
            )

    def audit_log(self, since: str | None = None) -> list[AuditEntry]:
        self.flush_audit()
        rows = self._all(
            "SELECT at, actor, action, candidate_id, channel FROM audit"
            f" WHERE {self.space} AND at >= ? ORDER BY seq",
            [since or ""],
        )
        return [
            AuditEntry(when=r[0], who=r[1], what=r[2], candidate=r[3], channel=r[4]) for r in rows
        ]

    def forget(self, candidate_id: str, webhook: bool = False) -> dict[str, int] | None:
        """Erase a candidate and everything recorded about them, in one transaction, whether
        or not their file is still indexed; None when nothing at all is known about them.
        The hiring decision recorded through this interview stays with the person while
        another interview of theirs remains (store/outcomes.py `hand_over_outcome`; with
        `webhook`, the ATS is sent it again, naming the interview that holds it now).

        Their threads stay forgotten (replies arriving later are not recorded), the audit
        holds a pseudonym instead of the id from then on, and the deleted text is wiped
        from the database's files as far as the backend can (`_erase_for_good`). Their
        file stays forgotten until it changes."""
        return self._erase_for_good(lambda tx: self._erase(tx, candidate_id, webhook))

    def _erase(self, tx: Tx, candidate_id: str, webhook: bool = False) -> dict[str, int] | None:
        def count(sql: str) -> int:
            return int(tx.execute(sql, [candidate_id]).fetchone()[0])

        space = self.space
        self._one_at_a_time(tx, f"forget:{self.ws:d}:{candidate_id}")
        row = tx.execute(
            f"SELECT rid, hash, source FROM candidates WHERE {space} AND id = ?", [candidate_id]
        ).fetchone()
        counts = {
            "questions": count(
                "SELECT count(*) FROM questions q JOIN candidates c ON c.rid = q.candidate_rid"
                f" WHERE c.{space} AND c.id = ?"
            ),
            "decisions": count(
                f"SELECT count(*) FROM replies WHERE {space} AND candidate_id = ?"
                " AND decision IS NOT NULL"
            ),
            "followups": count(
                f"SELECT count(*) FROM replies WHERE {space} AND candidate_id = ?"
                " AND followup_number IS NOT NULL"
            ),
            "replies": count(f"SELECT count(*) FROM replies WHERE {space} AND candidate_id = ?"),
            "posts": count(f"SELECT count(*) FROM posts WHERE {space} AND candidate_id = ?"),
            "fulltext_rows": 1 if row is not None else 0,
        }
        audited = count(f"SELECT count(*) FROM audit WHERE {space} AND candidate_id = ?")
        already = tx.execute(
            f"SELECT 1 FROM forgotten WHERE {space} AND id = ?", [candidate_id]
        ).fetchone()
        decided = count(f"SELECT count(*) FROM outcomes WHERE {space} AND candidate_id = ?")
        decided += count(f"SELECT count(*) FROM requests WHERE {space} AND candidate_id = ?")
        decided += count(f"SELECT count(*) FROM webhook_events WHERE {space} AND candidate_id = ?")
        if row is None and not any(counts.values()) and not (audited or decided or already):
            return None
        if row is not None:
            rid, content_hash, source = row
            hand_over_outcome(tx, self.ws, candidate_id, webhook)  # the person's, not the file's
            self._unindex(tx, rid)
            tx.execute("DELETE FROM questions WHERE candidate_rid = ?", [rid])
            tx.execute("DELETE FROM candidates WHERE rid = ?", [rid])
        else:  # the file was removed: what it last held, if anything names it still
            gone = tx.execute(
                f"SELECT hash, source FROM retired WHERE {space} AND id = ?", [candidate_id]
            ).fetchone()
            content_hash, source = gone if gone is not None else ("", "")
        # The threads stay forgotten: record_reply checks this in its own transaction.
        tx.execute(
            f"INSERT INTO forgotten_threads (ws, channel, ts) SELECT {self.ws:d}, channel, ts"
            f" FROM posts WHERE {space} AND candidate_id = ?"
            f" UNION SELECT {self.ws:d}, channel, thread_ts FROM replies WHERE {space}"
            " AND candidate_id = ? ON CONFLICT DO NOTHING",
            [candidate_id, candidate_id],
        )
        for t in forgotten_by("rows"):
            tx.execute(f"DELETE FROM {t.name} WHERE {space} AND {t.subject} = ?", [candidate_id])
        if row is not None or not already:
            tx.execute(
                "INSERT INTO forgotten (ws, id, hash, source, forgotten_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (ws, id) DO UPDATE SET"
                " hash = excluded.hash, source = excluded.source,"
                " forgotten_at = excluded.forgotten_at",
                [self.ws, candidate_id, content_hash, source or "", utcnow()],
            )
        pseudonym = self._pseudonym(tx, self.ws, candidate_id)
        tx.execute(
            "INSERT INTO erased (ws, pseudonym) VALUES (?, ?) ON CONFLICT DO NOTHING",
            [self.ws, pseudonym],
        )
        tx.execute(
            f"UPDATE audit SET candidate_id = ? WHERE {space} AND candidate_id = ?",
            [pseudonym, candidate_id],
        )
        return counts

    def erasure_state(self, candidate_id: str) -> ErasureState | None:
        """What `forget` would find: an indexed candidate (`indexed`), reviews, posts or
        audit lines left by one whose file was removed (`reviews`), a candidate already
        forgotten with nothing left to erase (`forgotten`), or nothing at all (None)."""
        space = self.space
        if self._one(f"SELECT 1 FROM candidates WHERE {space} AND id = ?", [candidate_id]):
            return "indexed"
        for t in forgotten_by("rows", "pseudonym"):
            if self._one(
                f"SELECT 1 FROM {t.name} WHERE {space} AND {t.subject} = ?", [candidate_id]
            ):
                return "reviews"
        if self._one(f"SELECT 1 FROM forgotten WHERE {space} AND id = ?", [candidate_id]):
            return "forgotten"
        return None

    def expired(self, before_day: str, before: str) -> list[Expired]:
        """Who a retention policy erases, oldest first: candidates interviewed before
        `before_day` (a date in the team's time zone, `YYYY-MM-DD`: interview dates are
        local) or, without an interview date, first indexed before `before` (a UTC time,
        as the store keeps them); and those whose file was removed before `before` while
        their reviews remain."""
        bytewise = self.engine.bytewise
        rows = self._all(
            "SELECT id, coalesce(interviewed_at, first_indexed_at),"
            " CASE WHEN interviewed_at IS NULL THEN 'indexed' ELSE 'interview' END"
            f" FROM candidates WHERE {self.space}"
            f" AND ((interviewed_at IS NOT NULL AND interviewed_at {bytewise} < ?)"
            f" OR (interviewed_at IS NULL AND first_indexed_at {bytewise} < ?))",
            [before_day, before],
        ) + self._all(
            f"SELECT id, at, 'removed' FROM retired WHERE {self.space} AND at {bytewise} < ?",
            [before],
        )
        found = [Expired(id=r[0], when=r[1], basis=r[2]) for r in rows]
        return sorted(found, key=lambda e: (e.when[:10], e.id))

    def claim_retention(self, day: str) -> bool:
        """Whether this caller is the first to run the retention job on `day` (a local
        date): one replica a day does, whichever asks first."""
        with self.tx() as tx:
            row = tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE"
                f" SET value = excluded.value WHERE meta.value {self.engine.bytewise}"
                " < excluded.value RETURNING key",
                [RETENTION_DAY, day],
            ).fetchone()
        return row is not None

    def release_retention(self, day: str) -> None:
        """A run claimed for `day` failed: the next check may run it again."""
        self._write(
            lambda tx: tx.execute(
                "DELETE FROM meta WHERE key = ? AND value = ?", [RETENTION_DAY, day]
            )
        )

    def pseudonym(self, candidate_id: str) -> str:
        """The keyed hash that stands for an erased candidate's id in the audit: the same
        for every event about them, meaningless without the key (kept in `meta`)."""
        key: bytes | None = self._shared.audit_key
        if key is None:
            with self.tx() as tx:
                return self._pseudonym(tx, self.ws, candidate_id)
        return _keyed(key, self.ws, candidate_id)

    def _pseudonym(self, tx: Tx, ws: int, candidate_id: str) -> str:
        key = self._pseudonym_key(tx, create=True)
        assert key is not None
        return _keyed(key, ws, candidate_id)

    def _pseudonym_key(self, tx: Tx, create: bool) -> bytes | None:
        key: bytes | None = self._shared.audit_key
        if key is not None:
            return key
        row = tx.execute("SELECT value FROM meta WHERE key = ?", [PSEUDONYM_KEY]).fetchone()
        if row is None:
            if not create:
                return None
            # Inside the caller's write transaction: two processes cannot both create one.
            tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING",
                [PSEUDONYM_KEY, secrets.token_hex(32)],
            )
            row = tx.execute("SELECT value FROM meta WHERE key = ?", [PSEUDONYM_KEY]).fetchone()
        key = bytes.fromhex(row[0])
        self._shared.audit_key = key
        return key

    def _audit_subject(self, tx: Tx, ws: int, candidate_id: str | None) -> str | None:
        """The id, or its pseudonym when the candidate (of data space `ws`) was ever
        forgotten."""
        if not candidate_id:
            return candidate_id
        if self._pseudonym_key(tx, create=False) is None:
            return candidate_id  # nobody was ever forgotten
        pseudonym = self._pseudonym(tx, ws, candidate_id)
        erased = tx.execute("SELECT 1 FROM erased WHERE pseudonym = ?", [pseudonym]).fetchone()
        return pseudonym if erased else candidate_id

    def forgotten(self) -> dict[str, tuple[str, str]]:
        """id -> (content hash, source) of every forgotten candidate."""
        return {
            r[0]: (r[1], r[2])
            for r in self._all(f"SELECT id, hash, source FROM forgotten WHERE {self.space}")
        }

    def restore(self, candidate_id: str) -> str | None:
        """Lift a forget; returns the file it came from (to index again), None if not forgotten."""
        with self.tx() as tx:
            row = tx.execute(
                f"DELETE FROM forgotten WHERE {self.space} AND id = ? RETURNING source",
                [candidate_id],
            ).fetchone()
        return None if row is None else str(row[0])

    def unforget(self, candidate_id: str) -> None:
        self._write(
            lambda tx: tx.execute(
                f"DELETE FROM forgotten WHERE {self.space} AND id = ?", [candidate_id]
            )
        )
