"""A test's PostgreSQL database, put back for a later test (support/pg_fixtures.py): it
holds what the template holds and nothing a test wrote, no connection the test left
reaches it, and a database whose schema a test changed is dropped, never handed on."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from support.pg_fixtures import _pristine, _put_back, _template, in_database

from store.errors import StoreError
from store.factory import open_store
from store.indexer import index_paths

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


@pytest.fixture
def clone(pg_server: str) -> Iterator[str]:
    """A database cloned from this session's template, as a test's would be."""
    name = f"put_back_{os.getpid()}"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name} TEMPLATE {_template(pg_server)}")
    yield name
    _drop(pg_server, name)


def _drop(base: str, name: str) -> None:
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _names(base: str) -> set[str]:
    with psycopg.connect(base, autocommit=True) as conn:
        return {r[0] for r in conn.execute("SELECT datname FROM pg_database").fetchall()}


def test_a_database_put_back_holds_what_the_template_holds(pg_server: str, clone: str) -> None:
    store = open_store(in_database(pg_server, clone))
    assert not index_paths(store, [SEEDS]).failed
    store.remember_workspace("T0THERS", "Elsewhere")
    assert store.count() == 4
    with psycopg.connect(in_database(pg_server, clone), autocommit=True) as conn:
        conn.execute("SELECT nextval('audit_seq_seq')")
    # the test's store is still open: its connection is ended, not waited for

    kept = _put_back(pg_server, clone)
    assert kept is not None and kept != clone
    assert clone not in _names(pg_server)  # nothing the test started reaches it again
    with pytest.raises(StoreError):
        store.count()
    try:
        assert type(_pristine[pg_server]).of(in_database(pg_server, kept)) == _pristine[pg_server]
        again = open_store(in_database(pg_server, kept))
        assert again.count() == 0
        assert not index_paths(again, [SEEDS]).failed and again.count() == 4
        again.close()
    finally:
        _drop(pg_server, kept)


@pytest.mark.parametrize(
    "change",
    [
        "ALTER TABLE candidates ADD CONSTRAINT refused CHECK (id <> 'poison')",
        "ALTER TABLE candidates DROP COLUMN kind",
        "ALTER TABLE candidates ALTER COLUMN name SET DEFAULT 'someone'",
        "DROP INDEX candidates_name",
        "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql"
        " AS $$ BEGIN RAISE EXCEPTION 'no'; END $$",
        "CREATE TABLE extra (id TEXT)",
        "CREATE SCHEMA elsewhere",
        "ALTER SEQUENCE audit_seq_seq INCREMENT 5",
        "REVOKE ALL ON candidates FROM PUBLIC",
    ],
)
def test_a_database_whose_schema_a_test_changed_is_dropped(
    pg_server: str, clone: str, change: str
) -> None:
    with psycopg.connect(in_database(pg_server, clone), autocommit=True) as conn:
        conn.execute(change)
    kept = _put_back(pg_server, clone)
    if kept is not None:
        _drop(pg_server, kept)
    assert kept is None
    assert not {clone, kept} & _names(pg_server)
