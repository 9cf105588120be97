"""PostgreSQL's postings as blocks (pg015) beside the release before them, in one run.

    python bench/pg_blocks.py --db postgresql://.../empty --count 20000 [--baseline REF]

The same generated corpus (bench/corpus.py, cached) is indexed with `debrief index` into
a temporary SQLite file (the reference: its time, and its top 10 for every query), then
into two fresh schemas of the PostgreSQL database: one by the code at `--baseline` (a git
ref, checked out into a temporary worktree; default: the commit before pg015), one by
this tree. For each: `debrief index` time (and its ratio to SQLite's), the size of every
relation in its schema (and its ratio to the raw text), search p50/p99 per query mix with
the answer cache cleared before each call (bench/pg.py `search`, run by that tree's own
code), and how many of the 20 queries have the same top 10 as SQLite. The load average
is printed at the start and the end. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import psycopg  # noqa: E402
from run import ALL_QUERIES, build_corpus, loadavg  # noqa: E402

BASELINE = "b7e551a"  # main before pg015
SEARCH = """
import json, sys
sys.path[:0] = [{tree!r}, {tree!r} + "/tests", {tree!r} + "/bench"]
import pg
found = pg.search({db!r}, {repeat})
# newest first, answer cache cleared before each call (relevance is measured above)
from store.factory import open_store
store = open_store({db!r}, create=False)
for kind, queries in pg.QUERIES.items():
    took = []
    for q in queries:
        for _ in range({repeat}):
            store.clear_search_cache()
            took.append(pg._timed(lambda: store.search(q, sort="newest")))
    found[kind]["newest_p50_ms"] = pg.statistics.median(took)
    found[kind]["newest_p99_ms"] = pg.pct(took, 99)
store.close()
print(json.dumps(found))
"""


def in_schema(url: str, schema: str) -> str:
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options={quote(f'-csearch_path={schema},public')}"


def run(tree: Path, args: list[str]) -> str:
    done = subprocess.run(
        [sys.executable, *args],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args[:3])} in {tree} failed: {done.stderr[-2000:]}")
    return done.stdout


def index(tree: Path, folder: Path, db: str) -> float:
    started = time.perf_counter()
    run(tree, ["-m", "bot", "index", str(folder), "--db", db, "--json"])
    return time.perf_counter() - started


def search(tree: Path, db: str, repeat: int) -> dict[str, Any]:
    out = run(tree, ["-c", SEARCH.format(tree=str(tree), db=db, repeat=repeat)])
    found: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return found


def schema_mb(conn: psycopg.Connection[Any], schema: str) -> dict[str, float]:
    rows = conn.execute(
        "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c"
        " JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = %s AND c.relkind IN ('r', 'm')",
        [schema],
    ).fetchall()
    return {str(r[0]): int(r[1]) / 1e6 for r in rows}


def top10(result: dict[str, Any]) -> dict[str, list[str]]:
    return {q: ids for mix in result.values() for q, ids in mix["top10"].items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True, help="a PostgreSQL database (URL) to make schemas in")
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--baseline", default=BASELINE, help="the git ref measured beside this tree")
    ap.add_argument(
        "--skip-baseline",
        action="store_true",
        help="blocks and SQLite only (the baseline layout takes ~20 min at 100,000)",
    )
    ap.add_argument(
        "--migrate",
        action="store_true",
        help="also time this tree's migration of the baseline's database (the upgrade)",
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    print(f"load average at start: {loadavg()}", flush=True)
    folder = build_corpus(args.count, args.seed)
    raw = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
    report: dict[str, Any] = {"count": args.count, "raw_mb": raw / 1e6, "load_start": loadavg()}
    admin = psycopg.connect(args.db, autocommit=True)
    admin.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
    with tempfile.TemporaryDirectory(prefix="pg-blocks-") as tmp:
        base_tree = Path(tmp) / "baseline"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base_tree), args.baseline],
            check=True,
            capture_output=True,
        )
        try:
            lite = str(Path(tmp) / "bench.db")
            lite_s = index(ROOT, folder, lite)
            lite_search = search(ROOT, lite, args.repeat)
            report["sqlite"] = {
                "index_s": lite_s,
                "mb": Path(lite).stat().st_size / 1e6,
                "search": {k: [v["p50_ms"], v["p99_ms"]] for k, v in lite_search.items()},
                "newest": {
                    k: [v["newest_p50_ms"], v["newest_p99_ms"]] for k, v in lite_search.items()
                },
            }
            print(f"sqlite: index {lite_s:.0f} s", flush=True)
            reference = top10(lite_search)
            layouts = [("baseline", base_tree), ("blocks", ROOT)]
            for name, tree in layouts[1:] if args.skip_baseline else layouts:
                schema = f"bench_{name}"
                admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
                admin.execute(f"CREATE SCHEMA {schema}")
                url = in_schema(args.db, schema)
                seconds = index(tree, folder, url)
                admin.execute(f"SET search_path = {schema}, public")
                admin.execute("VACUUM ANALYZE")
                admin.execute("SET search_path = public")
                sizes = schema_mb(admin, schema)
                found = search(tree, url, args.repeat)
                tops = top10(found)
                same = sum(tops.get(q) == reference.get(q) for q in ALL_QUERIES)
                report[name] = {
                    "index_s": seconds,
                    "index_ratio": seconds / lite_s,
                    "mb": sum(sizes.values()),
                    "raw_ratio": sum(sizes.values()) / (raw / 1e6),
                    "largest": dict(sorted(sizes.items(), key=lambda kv: -kv[1])[:6]),
                    "search": {k: [v["p50_ms"], v["p99_ms"]] for k, v in found.items()},
                    "newest": {
                        k: [v["newest_p50_ms"], v["newest_p99_ms"]] for k, v in found.items()
                    },
                    "same_top10": f"{same}/{len(ALL_QUERIES)}",
                }
                print(
                    f"{name}: index {seconds:.0f} s ({seconds / lite_s:.1f}x sqlite),"
                    f" {sum(sizes.values()):,.0f} MB ({sum(sizes.values()) / (raw / 1e6):.1f}x raw),"
                    f" top 10 as sqlite {same}/{len(ALL_QUERIES)}",
                    flush=True,
                )
                if name == "baseline" and args.migrate:
                    # the upgrade: this tree opens the baseline's database (pg015 runs)
                    started = time.perf_counter()
                    run(ROOT, ["-m", "bot", "stats", "--db", url, "--json"])
                    migrate_s = time.perf_counter() - started
                    admin.execute(f"SET search_path = {schema}, public")
                    admin.execute("VACUUM ANALYZE")
                    admin.execute("SET search_path = public")
                    after = schema_mb(admin, schema)
                    migrated = top10(search(ROOT, url, args.repeat))
                    report["upgrade"] = {
                        "migrate_s": migrate_s,
                        "mb_after": sum(after.values()),
                        "same_top10_as_before": sum(
                            migrated.get(q) == tops.get(q) for q in ALL_QUERIES
                        ),
                    }
                    print(
                        f"upgrade of the baseline: {migrate_s:.0f} s, {sum(after.values()):,.0f} MB"
                        " after it (the old tables are dropped), top 10 as before"
                        f" {report['upgrade']['same_top10_as_before']}/{len(ALL_QUERIES)}",
                        flush=True,
                    )
                admin.execute(f"DROP SCHEMA {schema} CASCADE")
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base_tree)],
                check=False,
                capture_output=True,
            )
    report["load_end"] = loadavg()
    print(f"load average at end: {report['load_end']}")
    print(f"raw text {report['raw_mb']:,.0f} MB; p50 / p99 ms by mix (answer cache cleared):")
    print(
        "| | index s (x SQLite) | MB (x raw) | top 10 as SQLite | "
        + " | ".join(QUERY_MIXES)
        + " | newest first |"
    )
    for name in ("sqlite", "baseline", "blocks"):
        r = report.get(name)
        if r is None:
            continue
        ratio = f" ({r['index_ratio']:.1f}x)" if "index_ratio" in r else ""
        raw_ratio = f" ({r['raw_ratio']:.1f}x)" if "raw_ratio" in r else ""
        cells = " | ".join(f"{r['search'][k][0]:.0f}/{r['search'][k][1]:.0f}" for k in QUERY_MIXES)
        newest = " | ".join(f"{r['newest'][k][0]:.0f}/{r['newest'][k][1]:.0f}" for k in QUERY_MIXES)
        print(
            f"| {name} | {r['index_s']:.0f}{ratio} | {r['mb']:,.0f}{raw_ratio}"
            f" | {r.get('same_top10', '')} | {cells} | newest: {newest} |"
        )
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


QUERY_MIXES = ("cjk-2", "cjk-long", "ascii", "mixed")

if __name__ == "__main__":
    raise SystemExit(main())
