"""The PostgreSQL store: the same seam (`StoreAPI`, `IndexTarget`) as the SQLite one,
for several `debrief serve` replicas sharing one database.

`PgStore` puts together the queries both backends share (store/queries.py: each concern
module at store/'s top holds its queries once) with what is PostgreSQL's own:

- `connection.py`: connections, transactions, batches, advisory locks;
- `indexing.py` and `lexemes.py`: the `tsv` column of a save; `search.py`: PostgreSQL's
  text search over it (a RUM index), each data space's matches alone;
- `migrations.py`: running the schema's steps (`store/schema/`);
- here: backups (pg_dump), the health check, the database's size.

Select it with `DEBRIEF_DB=postgresql://...` (see store/factory.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from .. import rows
from ..errors import StoreError
from ..maintenance import check_backup_target
from ..models import HealthCheck
from ..private import FILE_MODE, private_file
from ..queries import Queries
from . import migrations
from .search import FullText

if TYPE_CHECKING:
    from ..api import IndexTarget, StoreAPI

__all__ = ["PgStore"]


class PgStore(Queries, FullText):
    """The PostgreSQL store: every concern's methods on one object."""

    def backup(self, dest: str | Path, *, overwrite: bool = False) -> int:
        """A consistent copy with `pg_dump` (custom format, restore with `pg_restore`),
        taken online, readable by its owner alone (0600). An existing `dest` is refused
        unless `overwrite`, a missing folder always. Without `pg_dump` on this machine:
        StoreError saying so."""
        target = Path(dest)
        check_backup_target(target, overwrite)
        pg_dump = shutil.which("pg_dump")
        if pg_dump is None:
            raise StoreError(
                "this database is PostgreSQL: back it up with pg_dump (not found on this"
                f" machine), e.g. pg_dump -Fc -f {target} '{self.path}'"
            )
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        private_file(partial)  # pg_dump writes into it and keeps its mode
        done = subprocess.run(
            [pg_dump, "-Fc", "-f", str(partial), "-d", self.url],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            partial.unlink(missing_ok=True)
            raise StoreError(f"pg_dump failed: {done.stderr.strip()}")
        os.chmod(partial, FILE_MODE)
        os.replace(partial, target)
        return target.stat().st_size

    def health(self) -> HealthCheck:
        try:
            writable = bool(self._scalar("SELECT NOT pg_is_in_recovery()"))
            check = "ok"
        except StoreError as exc:
            writable, check = False, str(exc)
        with self._said():
            pending = migrations.pending(self.conn)
        return rows.health(writable, check, self.schema(), pending)

    def database_bytes(self) -> int:
        return int(self._scalar("SELECT pg_database_size(current_database())") or 0)


if TYPE_CHECKING:

    def _implements(store: PgStore) -> tuple[StoreAPI, IndexTarget]:
        return store, store  # mypy checks here that PgStore keeps the seam's signatures
