"""The SQLite store: the only place that speaks SQL. It hands out pydantic models.

`Store` puts together the queries both backends share (store/queries.py: each concern
module at store/'s top holds its queries once) with what is SQLite's own:

- `connection.py`: opening the database (WAL, busy timeout), `tx()`, batched writes;
- `search.py`: the FTS5 rows of a save, and ranking with them;
- `migrations.py`: running the schema's steps (`store/schema/`);
- here: online backups, the health check, the database's size.

One `Store` per database file; it is safe to share between threads (each thread
gets its own connection).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from .. import rows
from ..errors import StoreError
from ..maintenance import check_backup_target
from ..models import HealthCheck
from ..private import private_file
from ..queries import Queries
from . import migrations
from .driver import sqlite3
from .search import FullText

if TYPE_CHECKING:
    from ..api import IndexTarget, StoreAPI

__all__ = ["Store"]


class Store(Queries, FullText):
    """The SQLite store: every concern's methods on one object."""

    def backup(self, dest: str | Path, *, overwrite: bool = False) -> int:
        """A consistent copy of the database at `dest`, taken online: readers and the
        bot's writers go on while it runs (SQLite's backup API, a few pages at a time).
        Returns the copy's size in bytes. The copy is readable by its owner alone (0600);
        it appears whole or not at all. An existing `dest` is refused unless `overwrite`;
        a missing folder is refused (a mistyped path should not grow folders)."""
        target = Path(dest)
        check_backup_target(target, overwrite)
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        private_file(partial)
        with self._said():
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

    def health(self) -> HealthCheck:
        with self._said():
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

    def database_bytes(self) -> int:
        """The database file and its WAL."""
        if self.path == ":memory:":
            return 0
        files = (Path(self.path), Path(self.path + "-wal"))
        return sum(p.stat().st_size for p in files if p.exists())


if TYPE_CHECKING:

    def _implements(store: Store) -> tuple[StoreAPI, IndexTarget]:
        return store, store  # mypy checks here that Store keeps the seam's signatures
