"""The SQLite store: the only place that speaks SQL. It hands out pydantic models.

`Store` is the SQLite implementation, put together from one part per concern:

- `connection.py`: opening the database (WAL, busy timeout), `tx()`, batched writes;
- `candidates.py`: save, get, list, count, resolve;
- `search.py`: full-text search and ranking (the index's pure side is `fulltext.py`);
- `threads.py`: bot posts and reviewers' replies (decisions, follow-ups, notes);
- `decisions.py`: decisions made with the verdict's buttons (recorded as replies);
- `uploads.py`: transcripts shared in Slack (claims, saved files);
- `home.py`: the App Home tab's queues (waiting for a reviewer, their decisions);
- `digest.py`: the daily digest's lines and its per-day claim;
- `audit.py`: the audit log and erasure (forget, restore);
- `maintenance.py`: online backups, stats, health, the last index run.

One `Store` per database file; it is safe to share between threads (each thread
gets its own connection).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..api import IndexTarget, StoreAPI
from ..audit import AuditStore
from ..candidates import CandidateStore
from ..decisions import DecisionStore
from ..digest import DigestStore
from ..home import HomeStore
from ..maintenance import MaintenanceStore
from ..threads import ThreadStore
from ..uploads import UploadStore

__all__ = ["Store"]


class Store(
    CandidateStore,
    ThreadStore,
    DecisionStore,
    HomeStore,
    UploadStore,
    DigestStore,
    AuditStore,
    MaintenanceStore,
):
    """The SQLite store: every concern's methods on one object."""


if TYPE_CHECKING:

    def _implements(store: Store) -> tuple[StoreAPI, IndexTarget]:
        return store, store  # mypy checks here that Store keeps the seam's signatures
