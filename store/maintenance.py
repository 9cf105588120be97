"""Looking after the database: online backups, counts, health, the last index run."""

from __future__ import annotations

import json
import os
from pathlib import Path

from . import rows
from .clock import utcnow
from .errors import StoreError
from .models import HealthCheck, IndexResult, IndexRun, Stats
from .sqlite import migrations
from .sqlite.connection import Connection
from .sqlite.driver import sqlite3


class MaintenanceStore(Connection):
    """`backup`, `stats`, `health` and the record of the last index run."""

    def backup(self, dest: str | Path) -> int:
        """A consistent copy of the database at `dest`, taken online: readers and the
        bot's writers go on while it runs (SQLite's backup API, a few pages at a time).
        Returns the copy's size in bytes. An existing `dest` is refused."""
        target = Path(dest)
        if target.exists():
            raise StoreError(f"{target} already exists: choose a new file for the backup")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        copy = sqlite3.connect(str(partial))
        try:
            self.db.conn.backup(copy, pages=1024)
            copy.execute("PRAGMA journal_mode = DELETE")
            check = copy.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            copy.close()
        if check != "ok":
            partial.unlink(missing_ok=True)
            raise StoreError(f"the backup failed its integrity check: {check}")
        os.replace(partial, target)
        return target.stat().st_size

    def schema(self) -> str:
        """The last migration applied: the schema's version."""
        row = self.db.execute("SELECT name FROM _migrations ORDER BY name DESC LIMIT 1").fetchone()
        return str(row[0]) if row else ""

    def health(self) -> HealthCheck:
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            db.execute("ROLLBACK")
            writable = True
        except sqlite3.Error:
            writable = False
        check = "; ".join(str(r[0]) for r in db.execute("PRAGMA quick_check"))
        pending = migrations.pending(db)
        return rows.health(writable, check, self.schema(), pending)

    def record_index_run(self, result: IndexResult) -> None:
        run = rows.index_run(result, utcnow())
        with self.tx() as db:
            db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [rows.LAST_INDEX_RUN, run.model_dump_json()],
            )

    def last_index_run(self) -> IndexRun | None:
        row = self.db.execute(
            "SELECT value FROM meta WHERE key = ?", [rows.LAST_INDEX_RUN]
        ).fetchone()
        return IndexRun.model_validate(json.loads(row[0])) if row else None

    def stats(self) -> Stats:
        db = self.db
        (candidates,) = db.execute("SELECT count(*) FROM candidates").fetchone()
        (questions,) = db.execute("SELECT count(*) FROM questions").fetchone()
        # open questions: unanswered in the transcript and not answered in a thread since
        (unanswered,) = db.execute(
            "SELECT coalesce(sum(unanswered_count), 0) FROM candidates"
        ).fetchone()
        # each reviewer's current decision on a candidate counts once
        (decisions,) = db.execute(
            "SELECT count(*) FROM (SELECT DISTINCT candidate_id, reviewer FROM replies"
            " WHERE decision IS NOT NULL)"
        ).fetchone()
        size = 0
        if self.path != ":memory:":
            size = sum(
                p.stat().st_size for p in (Path(self.path), Path(self.path + "-wal")) if p.exists()
            )
        last_digest = db.execute(
            "SELECT max(sent_at) FROM digests WHERE status = 'sent'"
        ).fetchone()[0]
        return Stats(
            candidates=candidates,
            questions=questions,
            unanswered=unanswered,
            decisions=decisions,
            database_bytes=size,
            schema_version=self.schema(),
            last_index_run=self.last_index_run(),
            last_digest=last_digest,
        )
