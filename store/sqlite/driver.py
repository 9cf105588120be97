"""The sqlite3 module the store uses: pysqlite3 (a current SQLite, whose FTS5 indexes
Chinese faster) where it is installed, else Python's own. It is the
same choice sqlite-utils makes, so both always speak to one library."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3
else:
    try:
        import pysqlite3.dbapi2 as sqlite3
    except ImportError:  # no wheel for this platform: the standard library's
        import sqlite3

__all__ = ["sqlite3"]
