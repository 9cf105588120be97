"""A test's PostgreSQL database: a fresh schema migrated step by step (what the tests do,
tests/support/pg_fixtures.py) beside a database cloned from one migrated template
(`CREATE DATABASE … TEMPLATE`, issue 35's proposal), in one run.

    python bench/pg_test_databases.py --db postgresql://postgres@/debrief?host=/tmp/pg [--n 40]

For each way, N databases are made and opened by the store (which runs or checks the
migrations, as a test's first `open_store` does), then dropped; the median and p99 of
making one (ready for the first query) and of its whole life (made, opened, dropped, as a
test's finalizer drops it) are printed, with their ratios. The load
average is printed at the start and the end. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

import psycopg  # noqa: E402

from store.factory import open_store  # noqa: E402


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def in_schema(url: str, schema: str) -> str:
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options={quote(f'-csearch_path={schema},public', safe='')}"


def in_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def by_schema(base: str, i: int) -> tuple[float, float]:
    schema = f"bench_schema_{os.getpid()}_{i}"
    started = time.perf_counter()
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    store = open_store(in_schema(base, schema))
    took = time.perf_counter() - started
    store.close()
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")
    return took, time.perf_counter() - started


def by_template(base: str, template: str, i: int) -> tuple[float, float]:
    name = f"bench_db_{os.getpid()}_{i}"
    started = time.perf_counter()
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
    store = open_store(in_database(base, name))
    took = time.perf_counter() - started
    store.close()
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE {name} WITH (FORCE)")
    return took, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", required=True, help="a postgresql:// URL (a superuser's)")
    parser.add_argument("--n", type=int, default=40)
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()}")
    template = f"bench_template_{os.getpid()}"
    with psycopg.connect(args.db, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {template}")
    try:
        with psycopg.connect(in_database(args.db, template), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
        open_store(in_database(args.db, template)).close()  # migrated once
        schema = [by_schema(args.db, i) for i in range(args.n)]
        cloned = [by_template(args.db, template, i) for i in range(args.n)]
    finally:
        with psycopg.connect(args.db, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {template} WITH (FORCE)")
    for what, at in (("ready", 0), ("made, used and dropped", 1)):
        print(f"{what}:")
        for label, runs in (("fresh schema, migrated", schema), ("template clone", cloned)):
            took = [run[at] for run in runs]
            print(
                f"  {label:24} n={len(took)}  median {statistics.median(took) * 1000:6.1f} ms"
                f"  p99 {pct(took, 99) * 1000:6.1f} ms"
            )
        ratio = statistics.median(r[at] for r in cloned) / statistics.median(r[at] for r in schema)
        print(f"  template clone / fresh schema (medians): {ratio:.2f}")
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
