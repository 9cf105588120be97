"""PostgreSQL for the tests: one server per session, one fresh schema per test.

`DEBRIEF_TEST_PG` (a postgresql:// URL, as `.ci/run` exports it) names a server to use;
without it the session starts a throwaway one itself (support/pgserver.py), so a developer
gets the PostgreSQL half by running pytest. Where there is neither, the PostgreSQL half
is skipped, and the session header says so in one loud line.

Each test gets its own schema (`search_path`) and `application_name`; at its end every
connection it left open is ended, so a long session never runs out of connections.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from urllib.parse import quote

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
        if server is not None:
            server.stop()


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
