"""Looking after a PostgreSQL database: backups (pg_dump), counts, health, index runs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from .. import rows
from ..clock import utcnow
from ..errors import StoreError
from ..models import HealthCheck, IndexResult, IndexRun, Stats
from . import migrations
from .connection import PgConnection


class PgMaintenance(PgConnection):
    def backup(self, dest: str | Path) -> int:
        """A consistent copy with `pg_dump` (custom format, restore with `pg_restore`),
        taken online. Without `pg_dump` on this machine: StoreError saying so."""
        target = Path(dest)
        if target.exists():
            raise StoreError(f"{target} already exists: choose a new file for the backup")
        pg_dump = shutil.which("pg_dump")
        if pg_dump is None:
            raise StoreError(
                "this database is PostgreSQL: back it up with pg_dump (not found on this"
                f" machine), e.g. pg_dump -Fc -f {target} '{self.path}'"
            )
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        done = subprocess.run(
            [pg_dump, "-Fc", "-f", str(partial), "-d", self.url],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            partial.unlink(missing_ok=True)
            raise StoreError(f"pg_dump failed: {done.stderr.strip()}")
        os.replace(partial, target)
        return target.stat().st_size

    def schema(self) -> str:
        row = self._one("SELECT name FROM _migrations ORDER BY name DESC LIMIT 1")
        return str(row[0]) if row else ""

    def health(self) -> HealthCheck:
        try:
            row = self._one("SELECT NOT pg_is_in_recovery()")
            writable = bool(row and row[0])
            check = "ok"
        except StoreError as exc:
            writable, check = False, str(exc)
        with self._said():
            pending = migrations.pending(self.conn)
        return rows.health(writable, check, self.schema(), pending)

    def record_index_run(self, result: IndexResult) -> None:
        run = rows.index_run(result, utcnow())
        with self.tx() as conn:
            conn.execute(
                "INSERT INTO meta (key, value) VALUES (%s, %s)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [rows.LAST_INDEX_RUN, run.model_dump_json()],
            )

    def last_index_run(self) -> IndexRun | None:
        row = self._one("SELECT value FROM meta WHERE key = %s", [rows.LAST_INDEX_RUN])
        return IndexRun.model_validate(json.loads(row[0])) if row else None

    def stats(self) -> Stats:
        def one(sql: str) -> int:
            row = self._one(sql)
            return int(row[0] or 0) if row else 0

        last_digest = self._one("SELECT max(sent_at) FROM digests WHERE status = 'sent'")
        return Stats(
            candidates=one("SELECT count(*) FROM candidates"),
            questions=one("SELECT count(*) FROM questions"),
            unanswered=one("SELECT coalesce(sum(unanswered_count), 0) FROM candidates"),
            decisions=one(
                "SELECT count(*) FROM (SELECT DISTINCT candidate_id, reviewer FROM replies"
                " WHERE decision IS NOT NULL) AS d"
            ),
            database_bytes=one("SELECT pg_database_size(current_database())"),
            schema_version=self.schema(),
            last_index_run=self.last_index_run(),
            last_digest=last_digest[0] if last_digest else None,
        )

    def checkpoint(self) -> bool:
        return True  # nothing to do: PostgreSQL checkpoints by itself
