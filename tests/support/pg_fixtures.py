"""PostgreSQL for the tests: one server per session, one fresh schema per test.

`DEBRIEF_TEST_PG` (a postgresql:// URL, as `.ci/run` exports it) names a server to use;
without it the session starts a throwaway one itself (support/pgserver.py), so a developer
gets the PostgreSQL half by running pytest. Where there is neither, the PostgreSQL half
is skipped, and the session header says so in one loud line.

A test's `db_target` is a database of its own, cloned from one template the session
migrated once (`CREATE DATABASE … TEMPLATE`: cheaper than running every step for each
test, bench/pg_test_databases.py); at its end the database is dropped with every
connection the test left open, so a long session never runs out of connections. A test
that writes its own schema (a database of the release before) gets an empty schema of
its own instead (`fresh_pg_url`, or the marker `pg_empty` on a `db_target` test).
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Iterator
from urllib.parse import quote, urlsplit, urlunsplit

import psycopg
import pytest

from . import pgserver

_ids = itertools.count()
_UNAVAILABLE = (
    "PostgreSQL NOT AVAILABLE: no DEBRIEF_TEST_PG and no initdb/pg_ctl here;"
    " the PostgreSQL half of the tests is SKIPPED"
)


def pytest_report_header() -> str:
    if os.environ.get("DEBRIEF_TEST_PG"):
        return "postgresql: DEBRIEF_TEST_PG (the server CI started)"
    if pgserver.find_bin() is None:
        return "!!! " + _UNAVAILABLE + " !!!"
    return f"postgresql: a throwaway server from {pgserver.find_bin()}, started when first needed"


_template_lock = threading.Lock()
_templates: dict[str, str] = {}  # server URL -> the name of this process's migrated template


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a database on a PostgreSQL server for this session."""
    url = os.environ.get("DEBRIEF_TEST_PG")
    server = None
    if not url:
        if pgserver.find_bin() is None:
            pytest.skip(_UNAVAILABLE)
        server = pgserver.start()
        url = server.url
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
    try:
        yield url
    finally:
        template = _templates.pop(url, None)
        if template is not None:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {template} WITH (FORCE)")
        if server is not None:
            server.stop()


def in_database(url: str, name: str) -> str:
    """`url` with its database named `name` (host, port and options kept)."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def _template(base: str) -> str:
    """This process's template database on `base`'s server: made and migrated by the
    store once, then only ever cloned (a template may have no connection while cloned)."""
    from store.factory import open_store

    with _template_lock:
        name = _templates.get(base)
        if name is None:
            name = f"debrief_template_{os.getpid()}"
            with psycopg.connect(base, autocommit=True) as conn:
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
                conn.execute(f"CREATE DATABASE {name}")
            with psycopg.connect(in_database(base, name), autocommit=True) as conn:
                conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
            open_store(in_database(base, name)).close()
            _templates[base] = name
        return name


def migrated_pg_url(request: pytest.FixtureRequest) -> str:
    """A URL to a database of its own for one test, every schema step already run: a
    clone of the session's template."""
    base: str = request.getfixturevalue("pg_server")
    template = _template(base)
    name = f"t{os.getpid()}_{next(_ids)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name} TEMPLATE {template}")

    def drop() -> None:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE {name} WITH (FORCE)")

    request.addfinalizer(drop)
    return in_database(base, name)


def with_schema(url: str, schema: str) -> str:
    """`url`, its connections confined to `schema` (pg_trgm stays visible in public)."""
    sep = "&" if "?" in url else "?"
    options = quote(f"-csearch_path={schema},public", safe="")
    return f"{url}{sep}options={options}&application_name={schema}"


def fresh_pg_url(request: pytest.FixtureRequest) -> str:
    """A URL to an empty schema of its own, for one test."""
    base: str = request.getfixturevalue("pg_server")
    schema = f"t{os.getpid()}_{next(_ids)}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")

    def end_connections() -> None:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = %s",
                [schema],
            )
            conn.execute(f"DROP SCHEMA {schema} CASCADE")

    request.addfinalizer(end_connections)
    return with_schema(base, schema)
