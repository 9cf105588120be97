"""Where `debrief index` into PostgreSQL spends its time, beside SQLite's, in one run.

    python bench/pg_writer.py --db postgresql://.../empty --count 20000

The same generated corpus (bench/corpus.py, cached) is indexed into a temporary SQLite
file (the baseline: its wall time) and into a fresh schema of the PostgreSQL database,
each by `index_paths` in a child process, as `debrief index` runs it (one parse worker).
For PostgreSQL the child also reports:

- the writer's own CPU time (the main process; the parse worker is apart),
- the wall time it spent in psycopg's `wait` (the server working, or the reply on its
  way), and waiting for the parse worker's next file,
- the server backend's CPU time (/proc, when the server runs on this machine),
- the statements that took the server longest, when `pg_stat_statements` is loaded.

The load average is printed at the start and the end. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import psycopg  # noqa: E402
from pg_blocks import in_schema  # noqa: E402
from run import build_corpus, loadavg  # noqa: E402

CHILD = """
import json, os, sys, time
sys.path[:0] = [{root!r}]
if __name__ == "__main__":
    from psycopg import connection
    import store.indexer as ix
    from store.factory import open_store

    waited = [0.0, 0.0]  # psycopg's wait, the parse worker's next file
    real_wait = connection.Connection.wait

    def wait(self, *args, **kwargs):
        started = time.perf_counter()
        try:
            return real_wait(self, *args, **kwargs)
        finally:
            waited[0] += time.perf_counter() - started

    connection.Connection.wait = wait
    real_prepared = ix._prepared

    def prepared(paths, workers, *rest):
        parsed = real_prepared(paths, workers, *rest)
        try:
            while True:
                started = time.perf_counter()
                try:
                    item = next(parsed)
                except StopIteration:
                    return
                finally:
                    waited[1] += time.perf_counter() - started
                yield item
        finally:
            parsed.close()  # the run's workers end with it (store/indexer.py)

    ix._prepared = prepared
    store = open_store({db!r})
    backend = None
    if type(store).__module__.startswith("store.pg"):
        backend = store.conn.execute("SELECT pg_backend_pid()").fetchone()[0]

    def backend_cpu():
        try:
            fields = open(f"/proc/{{backend}}/stat").read().rsplit(")", 1)[1].split()
        except (OSError, TypeError):
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    cpu_before = backend_cpu()
    started, cpu = time.perf_counter(), time.process_time()
    # as `debrief index` runs it (bot/cli.py)
    result = ix.index_paths(store, [{folder!r}], workers=ix.default_workers(), batch_seconds=2.0)
    figures = {{
        "wall_s": time.perf_counter() - started,
        "writer_cpu_s": time.process_time() - cpu,
        "db_wait_s": waited[0],
        "parse_wait_s": waited[1],
        "indexed": len(result.indexed),
        "failed": len(result.failed),
    }}
    cpu_after = backend_cpu()
    if cpu_before is not None and cpu_after is not None:
        figures["server_cpu_s"] = cpu_after - cpu_before
    store.close()
    print(json.dumps(figures))
"""


def child(folder: Path, db: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(root=str(ROOT), db=db, folder=str(folder))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"index into {db} failed: {done.stderr[-2000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def statements(admin: psycopg.Connection[Any]) -> list[tuple[float, int, str]] | None:
    """The 8 statements with the most server time, if pg_stat_statements is loaded."""
    try:
        rows = admin.execute(
            "SELECT total_exec_time / 1000, calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 90)"
            " FROM pg_stat_statements WHERE query NOT ILIKE '%pg_stat_statements%'"
            " ORDER BY total_exec_time DESC LIMIT 8"
        ).fetchall()
    except psycopg.Error:
        return None
    return [(float(r[0]), int(r[1]), str(r[2])) for r in rows]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True, help="a PostgreSQL database (URL) to make a schema in")
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    report: dict[str, Any] = {"count": args.count, "load_start": loadavg()}
    print(f"load average at start: {report['load_start']}", flush=True)
    folder = build_corpus(args.count, args.seed)
    admin = psycopg.connect(args.db, autocommit=True)
    admin.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
    with tempfile.TemporaryDirectory(prefix="pg-writer-") as tmp:
        report["sqlite"] = child(folder, str(Path(tmp) / "bench.db"))
        schema = "bench_writer"
        admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        admin.execute(f"CREATE SCHEMA {schema}")
        with contextlib.suppress(psycopg.Error):  # when pg_stat_statements is loaded
            admin.execute("SELECT pg_stat_statements_reset()")
        report["postgresql"] = child(folder, in_schema(args.db, schema))
        report["statements"] = statements(admin)
        admin.execute(f"DROP SCHEMA {schema} CASCADE")
    report["load_end"] = loadavg()
    lite, pg = report["sqlite"], report["postgresql"]
    print(f"load average at end: {report['load_end']}")
    print(f"SQLite (the baseline): {lite['wall_s']:.1f} s")
    print(
        f"PostgreSQL: {pg['wall_s']:.1f} s ({pg['wall_s'] / lite['wall_s']:.2f}x SQLite);"
        f" writer CPU {pg['writer_cpu_s']:.1f} s, waiting on the server {pg['db_wait_s']:.1f} s,"
        f" on the parse worker {pg['parse_wait_s']:.1f} s, server backend CPU"
        f" {pg.get('server_cpu_s', float('nan')):.1f} s"
    )
    for seconds, calls, query in report["statements"] or []:
        print(f"  {seconds:7.1f} s {calls:8} x  {query}")
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
