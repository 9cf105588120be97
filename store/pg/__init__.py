"""The PostgreSQL store: the same seam (`StoreAPI`, `IndexTarget`) as the SQLite one,
for several `debrief serve` replicas sharing one database.

One part per concern, as on SQLite: `connection.py` (connections, transactions,
batches, advisory locks), `migrations.py` (its own registry), `candidates.py`,
`search.py` (pg_trgm and CJK bigrams), `threads.py`, `uploads.py`, `home.py`, `digest.py`, `audit.py`,
`maintenance.py`. Select it with `DEBRIEF_DB=postgresql://...` (see store/factory.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .audit import PgAudit
from .candidates import PgCandidates
from .connection import display_url, is_pg_url
from .digest import PgDigest
from .home import PgHome
from .maintenance import PgMaintenance
from .threads import PgThreads
from .uploads import PgUploads

if TYPE_CHECKING:
    from ..api import IndexTarget, StoreAPI


class PgStore(PgCandidates, PgThreads, PgUploads, PgHome, PgDigest, PgAudit, PgMaintenance):
    """The PostgreSQL store: every concern's methods on one object."""


__all__ = ["PgStore", "display_url", "is_pg_url"]

if TYPE_CHECKING:

    def _implements(store: PgStore) -> tuple[StoreAPI, IndexTarget]:
        return store, store  # mypy checks here that PgStore keeps the seam's signatures
