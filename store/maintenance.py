"""Looking after the database: counts, the last index run, the schema's version.

What each backend does its own way (a backup, a health check, the database's size)
lives with its connection: `store/sqlite/store.py`, `store/pg/store.py`."""

from __future__ import annotations

import json
from abc import abstractmethod
from pathlib import Path

from . import rows
from .base import Base
from .clock import utcnow
from .errors import BackupTargetError
from .models import IndexResult, IndexRun, Stats

WORKSPACE = "slack_workspace"


def check_backup_target(target: Path, overwrite: bool) -> None:
    """Where a backup may go: a new file (or, with `overwrite`, an existing file, never a
    folder) in a folder that exists. BackupTargetError otherwise."""
    if target.is_dir() or (target.exists() and not overwrite):
        raise BackupTargetError(str(target), "exists")
    if not target.resolve().parent.is_dir():
        raise BackupTargetError(str(target), "no_folder")


class MaintenanceStore(Base):
    """`stats` and the record of the last index run."""

    @abstractmethod
    def database_bytes(self) -> int:
        """How much room the database takes."""

    def schema(self) -> str:
        """The last migration applied: the schema's version."""
        found = self._scalar("SELECT name FROM _migrations ORDER BY name DESC LIMIT 1")
        return "" if found is None else str(found)

    def workspace(self) -> tuple[str, str] | None:
        """The Slack workspace this database serves, (team id, name), as `serve` first
        recorded it; None before it ever ran."""
        found = self._scalar("SELECT value FROM meta WHERE key = ?", [WORKSPACE])
        if found is None:
            return None
        value = json.loads(found)
        return str(value["team_id"]), str(value["team"])

    def remember_workspace(self, team_id: str, team: str) -> tuple[str, str]:
        """Record the workspace this database serves, the first time only; the one it
        serves (the one recorded first), for the caller to compare with its token's."""
        value = json.dumps({"team_id": team_id, "team": team}, ensure_ascii=False)
        self._write(
            lambda tx: tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                [WORKSPACE, value],
            )
        )
        return self.workspace() or (team_id, team)

    @property
    def _index_run_key(self) -> str:
        """Where this space's last index run is kept: space 0's where it always was."""
        return rows.LAST_INDEX_RUN if self.ws == 0 else f"{rows.LAST_INDEX_RUN}:{self.ws:d}"

    def record_index_run(self, result: IndexResult) -> None:
        run = rows.index_run(result, utcnow())
        with self.tx() as tx:
            tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [self._index_run_key, run.model_dump_json()],
            )

    def last_index_run(self) -> IndexRun | None:
        found = self._scalar("SELECT value FROM meta WHERE key = ?", [self._index_run_key])
        return None if found is None else IndexRun.model_validate(json.loads(found))

    def stats(self) -> Stats:
        """This data space's figures (the database's size and schema are the whole's)."""

        def count(sql: str, params: list[int] | None = None) -> int:
            return int(self._scalar(sql, params or []) or 0)

        space = self.space
        return Stats(
            candidates=count(f"SELECT count(DISTINCT candidate_key) FROM candidates WHERE {space}"),
            interviews=count(f"SELECT count(*) FROM candidates WHERE {space}"),
            # a space's questions are those of its rids (store/base.py SPACE_BITS)
            # the questions that count either way: those whose answer the file records
            questions=count(
                "SELECT count(*) FROM questions WHERE candidate_rid BETWEEN ? AND ?"
                " AND answer_recorded = 1",
                list(self.rid_range),
            ),
            # issue 46: listed with no answer recorded (neither way); interviews whose
            # questions could not be read (no count at all)
            unrecorded=count(
                "SELECT count(*) FROM questions WHERE candidate_rid BETWEEN ? AND ?"
                " AND answer_recorded = 0",
                list(self.rid_range),
            ),
            questions_unread=count(
                f"SELECT count(*) FROM candidates WHERE {space} AND questions_read = 0"
            ),
            # open questions: unanswered in the transcript and not answered in a thread since
            unanswered=count(
                f"SELECT coalesce(sum(unanswered_count), 0) FROM candidates WHERE {space}"
            ),
            # each reviewer's current decision on a candidate counts once
            decisions=count(
                "SELECT count(*) FROM (SELECT DISTINCT candidate_id, reviewer FROM replies"
                f" WHERE {space} AND decision IS NOT NULL) AS d"
            ),
            database_bytes=self.database_bytes(),
            schema_version=self.schema(),
            last_index_run=self.last_index_run(),
            last_digest=self._scalar(
                f"SELECT max(sent_at) FROM digests WHERE {space} AND status = 'sent'"
            ),
        )
