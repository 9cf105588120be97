"""The databases the release before wrote (tests/data/, made by
tests/data/make_release_before.py with that release's code): a copy for one test."""

from __future__ import annotations

import itertools
import os
import shutil
from pathlib import Path

import psycopg
import pytest

from .pg_fixtures import in_database

DATA = Path(__file__).resolve().parent.parent / "data"
_ids = itertools.count()


def release_before(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A copy of the release before's SQLite file, or a PostgreSQL database of its own
    restored from its dump (pg_dump --inserts; psql's own commands such as `\\restrict`
    are not SQL and are left out), dropped at the test's end."""
    if backend == "sqlite":
        target = tmp_path / "release_before.db"
        shutil.copyfile(DATA / "release_before.db", target)
        return str(target)
    base: str = request.getfixturevalue("pg_server")
    name = f"release_before_{os.getpid()}_{next(_ids)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")

    def drop() -> None:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")

    request.addfinalizer(drop)
    url = in_database(base, name)
    dump = "\n".join(
        line
        for line in (DATA / "release_before_pg.sql").read_text("utf-8").splitlines()
        if not line.startswith("\\")
    )
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(dump.encode())  # type: ignore[call-overload]
    return url
