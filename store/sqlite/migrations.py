"""Running the schema's steps on SQLite (the steps: `store/schema/steps.py`).

Each step runs once, in order, inside one transaction with its record in `_migrations`,
so a database is always at a known step and two processes starting at once do not both
migrate.
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlite_utils

from ..schema import steps as schema


def unknown_applied(db: sqlite_utils.Database) -> list[str]:
    """Steps recorded in the database that this release does not have."""
    if "_migrations" not in db.table_names():
        return []
    return schema.unknown(
        "sqlite", (r[0] for r in db.execute("SELECT name FROM _migrations ORDER BY name"))
    )


def pending(db: sqlite_utils.Database) -> list[str]:
    """This release's steps not yet applied to the database."""
    if "_migrations" not in db.table_names():
        return schema.known("sqlite")
    return schema.pending("sqlite", (r[0] for r in db.execute("SELECT name FROM _migrations")))


def migrate(db: sqlite_utils.Database) -> list[str]:
    """Apply what is missing; return the names applied. A database that has steps this
    release does not know was written by a newer Debrief: NewerSchemaError, and nothing
    is changed."""
    schema.refuse_newer("sqlite", unknown_applied(db))
    db.execute(
        "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
    )
    applied: list[str] = []
    for name, step in schema.steps("sqlite"):
        db.execute("BEGIN IMMEDIATE")
        try:
            done = db.execute("SELECT 1 FROM _migrations WHERE name = ?", [name]).fetchone()
            if not done:
                step.run("sqlite", db)
                db.execute(
                    "INSERT INTO _migrations (name, applied_at) VALUES (?, ?)",
                    [name, datetime.now(UTC).isoformat(timespec="seconds")],
                )
                applied.append(name)
            db.execute("COMMIT")
        except BaseException:
            # SQLite rolls back by itself after some errors (a full disk): rolling back
            # again would fail, and hide why
            if db.conn.in_transaction:
                db.execute("ROLLBACK")
            raise
    return applied
