"""PostgreSQL for the tests: one server per session, one fresh schema per test.

`DEBRIEF_TEST_PG` (a postgresql:// URL, as `.ci/run` exports it) names a server to use;
without it the session starts a throwaway one itself (support/pgserver.py), so a developer
gets the PostgreSQL half by running pytest. Where there is neither, the PostgreSQL half
is skipped, and the session header says so in one loud line.

A test's `db_target` is a database of its own, cloned from one template the session
migrated once (`CREATE DATABASE … TEMPLATE`: cheaper than running every step for each
test, bench/pg_test_databases.py). At its end every connection the test left open is
ended, so a long session never runs out of connections, and the database is given a
new name (nothing the test started can reach it again) and put back as the template
left it, for a later test: its schema must be the template's, as written (else it is
dropped), then every table is emptied, the template's rows written back and every
sequence set where the template's was (`_Pristine`). Cloning a database and dropping it
was most of the server's work for a test on PostgreSQL; putting one back is a fraction
of it (the server's CPU for tests/test_store.py on PostgreSQL: 28 s -> 7 s). A test
that writes its own schema (a database of the release before) gets an empty schema of
its own instead (`fresh_pg_url`, or the marker `pg_empty` on a `db_target` test).
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import quote, urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import sql

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
_pristine: dict[str, _Pristine] = {}  # server URL -> what its template holds
_spare: dict[str, list[str]] = {}  # server URL -> databases put back as the template left them

# A database's schema, as written: its schemas, extensions, tables, columns (and their
# defaults), privileges, types, indexes, constraints, triggers, functions, rules,
# sequences, policies and settings. A test that changed any of these leaves a database
# that is dropped, not put back.
_SCHEMA = """
SELECT md5(concat_ws('|',
  (SELECT string_agg(nspname, ',' ORDER BY nspname) FROM pg_namespace
    WHERE nspname NOT LIKE 'pg_temp%' AND nspname NOT LIKE 'pg_toast_temp%'),
  (SELECT string_agg(extname || extversion, ',' ORDER BY extname) FROM pg_extension),
  (SELECT string_agg(concat_ws(':', c.relnamespace::regnamespace, c.relname, c.relkind,
                               c.relpersistence, c.reloptions::text),
                     ',' ORDER BY c.relnamespace::regnamespace::text, c.relname)
     FROM pg_class c WHERE c.relnamespace NOT IN ('pg_catalog'::regnamespace,
                                                  'information_schema'::regnamespace)
                       AND c.relnamespace::regnamespace::text NOT LIKE 'pg_toast%'
                       AND c.relnamespace::regnamespace::text NOT LIKE 'pg_temp%'),
  (SELECT string_agg(concat_ws(':', a.attrelid::regclass, a.attname, a.atttypid, a.atttypmod,
                               a.attnum, a.attnotnull, a.attisdropped, a.attcollation,
                               pg_get_expr(d.adbin, d.adrelid)),
                     ',' ORDER BY a.attrelid::regclass::text, a.attnum)
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
     LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0),
  (SELECT string_agg(concat_ws(':', c.relname, c.relacl::text), ',' ORDER BY c.relname)
     FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace),
  (SELECT string_agg(typname, ',' ORDER BY typname) FROM pg_type
    WHERE typnamespace = 'public'::regnamespace),
  (SELECT string_agg(concat_ws(':', seqrelid::regclass, seqincrement, seqmin, seqmax, seqcycle),
                     ',' ORDER BY seqrelid::regclass::text) FROM pg_sequence),
  (SELECT string_agg(pg_get_indexdef(indexrelid), ',' ORDER BY indexrelid::regclass::text)
     FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
    WHERE c.relnamespace = 'public'::regnamespace),
  (SELECT string_agg(concat_ws(':', conrelid::regclass, conname, pg_get_constraintdef(oid)), ','
                     ORDER BY conrelid::regclass::text, conname)
     FROM pg_constraint WHERE connamespace = 'public'::regnamespace),
  (SELECT string_agg(concat_ws(':', tgrelid::regclass, tgname, tgenabled), ',' ORDER BY tgname)
     FROM pg_trigger WHERE NOT tgisinternal),
  (SELECT string_agg(concat_ws(':', p.oid::regprocedure, md5(p.prosrc)), ','
                     ORDER BY p.oid::regprocedure::text)
     FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace),
  (SELECT string_agg(r.rulename, ',' ORDER BY r.rulename) FROM pg_rewrite r
     JOIN pg_class c ON c.oid = r.ev_class WHERE c.relnamespace = 'public'::regnamespace),
  (SELECT string_agg(array_to_string(setconfig, ';'), ',') FROM pg_db_role_setting
    WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())),
  (SELECT string_agg(p.polname, ',' ORDER BY p.polname) FROM pg_policy p)
))
"""


@dataclass(frozen=True)
class _Pristine:
    """What a template holds: its schema (`_SCHEMA`), the rows of each table as JSON,
    and where each sequence stands."""

    schema: str
    tables: tuple[str, ...]
    rows: dict[str, str]  # table -> its rows as a JSON array, for the tables with rows
    sequences: dict[str, tuple[int, bool]]  # sequence -> (last_value, is_called)

    @classmethod
    def of(cls, url: str) -> _Pristine:
        with psycopg.connect(url, autocommit=True) as conn:
            schema = conn.execute(_SCHEMA).fetchone()
            tables = conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
            ).fetchall()
            rows: dict[str, str] = {}
            for (table,) in tables:
                held = conn.execute(
                    sql.SQL("SELECT json_agg(t)::text FROM {} t").format(sql.Identifier(table))
                ).fetchone()
                if held and held[0] is not None:
                    rows[table] = held[0]
            sequences: dict[str, tuple[int, bool]] = {}
            for (name,) in conn.execute(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'"
            ).fetchall():
                at = conn.execute(
                    sql.SQL("SELECT last_value, is_called FROM {}").format(sql.Identifier(name))
                ).fetchone()
                assert at is not None
                sequences[name] = (int(at[0]), bool(at[1]))
        assert schema is not None
        return cls(str(schema[0]), tuple(t for (t,) in tables), rows, sequences)

    def restore(self, url: str) -> bool:
        """Put the database at `url` back as the template left it; False (nothing
        changed) when its schema is not the template's any more."""
        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute(_SCHEMA).fetchone()
            if row is None or row[0] != self.schema:
                return False
            with conn.transaction():
                # no trigger or foreign key is checked while the rows are put back
                conn.execute("SET LOCAL session_replication_role = replica")
                for table in self.tables:
                    conn.execute(sql.SQL("DELETE FROM {}").format(sql.Identifier(table)))
                for table, held in self.rows.items():
                    conn.execute(
                        sql.SQL(
                            "INSERT INTO {t} SELECT * FROM json_populate_recordset(NULL::{t}, %s)"
                        ).format(t=sql.Identifier(table)),
                        [held],
                    )
                for name, (last, called) in self.sequences.items():
                    conn.execute("SELECT setval(%s, %s, %s)", [name, last, called])
        return True


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
        conn.execute("CREATE EXTENSION IF NOT EXISTS rum SCHEMA public")
    try:
        yield url
    finally:
        template = _templates.pop(url, None)
        _pristine.pop(url, None)
        with psycopg.connect(url, autocommit=True) as conn:
            for name in _spare.pop(url, []):
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            if template is not None:
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
                conn.execute("CREATE EXTENSION IF NOT EXISTS rum SCHEMA public")
            open_store(in_database(base, name)).close()
            _pristine[base] = _Pristine.of(in_database(base, name))
            _templates[base] = name
        return name


def migrated_pg_url(request: pytest.FixtureRequest) -> str:
    """A URL to a database of its own for one test, every schema step already run: a
    clone of the session's template, or one an earlier test used, put back as the
    template left it."""
    base: str = request.getfixturevalue("pg_server")
    template = _template(base)
    spare = _spare.setdefault(base, [])
    if spare:
        name = spare.pop()
    else:
        name = f"t{os.getpid()}_{next(_ids)}"
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE {template}")

    def put_back() -> None:
        kept = _put_back(base, name)
        if kept is not None:
            spare.append(kept)

    request.addfinalizer(put_back)
    return in_database(base, name)


def _put_back(base: str, name: str) -> str | None:
    """End every connection to database `name`, then rename it (nothing the test started
    can reach it again) and put it back as the template left it; its new name, or None
    when it was dropped instead (its schema changed, or a connection would not end)."""
    renamed = f"t{os.getpid()}_{next(_ids)}"
    with psycopg.connect(base, autocommit=True) as conn:
        gone = False
        deadline = time.monotonic() + 30
        while not gone and time.monotonic() < deadline:
            # pg_terminate_backend only signals: the rename waits until they ended
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                [name],
            )
            try:
                conn.execute(f"ALTER DATABASE {name} RENAME TO {renamed}")
                gone = True
            except psycopg.errors.ObjectInUse:
                conn.execute("SELECT pg_sleep(0.01)")  # a poll: they end within milliseconds
        if gone and _pristine[base].restore(in_database(base, renamed)):
            return renamed
        conn.execute(f"DROP DATABASE IF EXISTS {name if not gone else renamed} WITH (FORCE)")
    return None


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
