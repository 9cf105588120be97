"""Running the schema's steps on PostgreSQL (the steps: `store/schema/steps.py`).

Each step runs once, in order, with its record in `_migrations`. All of them run in one
transaction that first takes an advisory lock, so two replicas starting at once do not
both migrate: the second waits, then finds nothing to do. A database with a step this
release does not know was written by a newer Debrief and is not touched.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import psycopg

from ..schema import steps as schema

Conn = psycopg.Connection[Any]
_LOCK = "debrief:migrate"


def _done(conn: Conn) -> list[str]:
    row = conn.execute("SELECT to_regclass('_migrations')").fetchone()
    if row is None or row[0] is None:
        return []
    return [r[0] for r in conn.execute("SELECT name FROM _migrations ORDER BY applied_at, name")]


def pending(conn: Conn) -> list[str]:
    return schema.pending("pg", _done(conn))


def migrate(conn: Conn) -> list[str]:
    """Apply what is missing, in one transaction; return the names applied."""
    applied: list[str] = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [_LOCK])
        done = _done(conn)
        schema.refuse_newer("pg", done)
        conn.execute(
            "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        for name, step in schema.steps("pg"):
            if name in done:
                continue
            step.run("pg", conn)
            conn.execute(
                "INSERT INTO _migrations (name, applied_at) VALUES (%s, %s)",
                [name, datetime.now(UTC).isoformat(timespec="microseconds")],
            )
            applied.append(name)
    return applied
