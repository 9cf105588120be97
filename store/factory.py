"""Which backend: `open_store(url_or_path)` is the one place that decides.

`postgresql://user:pass@host/db` (or `postgres://`) opens the PostgreSQL store, for
several replicas on one database; anything else is a SQLite file path. Only the
backend asked for is imported: a SQLite file never loads psycopg. The rest of the code
holds the result as a `Backend`: the seam of store/api.py plus the looking-after that
`debrief backup`, `stats` and `doctor` need, and the leader lock of the replicas.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol, Self

from .api import IndexTarget, StoreAPI
from .audit import ErasureState, Expired
from .hits import Ranker
from .models import HealthCheck, IndexResult, IndexRun, Stats
from .workspace_models import Installation, Workspace, WorkspaceSettings


class Backend(StoreAPI, IndexTarget, Protocol):
    """A store of either kind, as bot/ holds it."""

    path: str
    ws: int  # its data space (`in_workspace`)

    def close(self) -> None: ...
    def backup(self, dest: str | Path, *, overwrite: bool = False) -> int: ...
    def stats(self) -> Stats: ...
    def health(self) -> HealthCheck: ...
    def record_index_run(self, result: IndexResult) -> None: ...
    def last_index_run(self) -> IndexRun | None: ...
    def flush_audit(self, timeout: float = 10) -> bool: ...
    def digest_status(self, day: str) -> str | None: ...
    def mark_digest_unknown(self, day: str, claimer: str) -> None: ...
    def workspace(self) -> tuple[str, str] | None: ...
    def remember_workspace(self, team_id: str, team: str) -> tuple[str, str]: ...
    def erasure_state(self, candidate_id: str) -> ErasureState | None: ...
    def expired(self, before_day: str, before: str) -> list[Expired]: ...
    def claim_retention(self, day: str) -> bool: ...
    def release_retention(self, day: str) -> None: ...
    def use_search_pool(self, pool: Ranker | None) -> None: ...
    def in_workspace(self, ws: int) -> Self: ...
    def workspaces(self) -> list[Workspace]: ...
    def installation_of(self, ws: int) -> Installation | None: ...
    def workspace_settings(self, ws: int) -> WorkspaceSettings: ...
    def save_workspace_settings(
        self, ws: int, values: WorkspaceSettings, by: str, over: int | None = None
    ) -> int | None: ...


def is_pg_url(text: str) -> bool:
    """A PostgreSQL URL, not a SQLite file path."""
    return text.startswith(("postgresql://", "postgres://"))


def is_shared(target: str | Path) -> bool:
    """True for a database several processes on several machines share (PostgreSQL)."""
    return is_pg_url(str(target))


def open_store(target: str | Path, *, create: bool = True) -> Backend:
    """The store at `target`: a PostgreSQL URL or a SQLite file. With `create=False`
    a missing database is NoDatabaseError and nothing is created."""
    if is_pg_url(str(target)):
        from .pg import PgStore

        return PgStore(str(target), create=create)
    from .sqlite.store import Store

    return Store(target, create=create)


__all__ = ["Backend", "is_pg_url", "is_shared", "open_store"]
