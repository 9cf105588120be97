"""Which PostgreSQL engine ranks a never-asked search faster: GIN + ts_rank or RUM.

Loads N transcripts of a corpus (bench/corpus.py's files, only read) into two tables
holding the same `tsvector` (store/pg/lexemes.py, over each file's text in one script),
one under a GIN index, one under RUM's `rum_tsvector_ops`, then times never-asked
searches in four mixes (2 Chinese characters / 3-4 / a Latin word / Latin + Chinese;
terms drawn from the corpus text with a fixed seed), the same ones on both:

- gin: `WHERE tsv @@ q ORDER BY ts_rank(tsv, q) DESC, rid DESC LIMIT 10` (every match's
  tsvector read from the heap to rank it);
- rum: `WHERE tsv @@ q ORDER BY tsv <=> q LIMIT 10` (the order from the index: a second
  sort key, `rid DESC`, makes the planner read and sort every match instead, as GIN),
  with RUM's score of the ten, as store/pg/search.py asks it;
- rum-new: the same matches newest first (`ORDER BY rid DESC`), as the product's
  `--sort newest`.

    python bench/pg_engines.py --corpus bench/.cache/corpus-100000-0 --count 20000 \\
        --url "postgresql://postgres@/debrief?host=/tmp/devpg&port=55432"

Prints p50/p99 (ms) per mix and engine, the matches' median, what inserting the next
`--inserts` transcripts costs each index, and the load average.
Everything lives in a schema of its own, dropped at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from store.fulltext import CJK_RANGES, terms
from store.pg import lexemes
from store.scripts import fold

SCHEMA = "bench_engines"
_CJK_RUN = re.compile(f"[{CJK_RANGES}]{{4,}}")
_LATIN = re.compile(r"\b[A-Za-z][A-Za-z+#]{3,}\b")


def load(conn: psycopg.Connection, files: list[Path]) -> float:
    started = time.monotonic()
    conn.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
    conn.execute(f"CREATE SCHEMA {SCHEMA}")
    conn.execute("CREATE EXTENSION IF NOT EXISTS rum")
    for table in ("t_gin", "t_rum"):
        conn.execute(f"CREATE TABLE {SCHEMA}.{table} (rid BIGINT PRIMARY KEY, tsv tsvector)")
    with conn.cursor() as cur, cur.copy(f"COPY {SCHEMA}.t_gin (rid, tsv) FROM STDIN") as copy:
        for rid, path in enumerate(files, 1):
            copy.write_row((rid, lexemes.document(fold(path.read_text("utf-8", "replace")))))
    conn.execute(f"INSERT INTO {SCHEMA}.t_rum SELECT * FROM {SCHEMA}.t_gin")
    conn.execute(f"CREATE INDEX ON {SCHEMA}.t_gin USING gin (tsv)")
    conn.execute(f"CREATE INDEX ON {SCHEMA}.t_rum USING rum (tsv rum_tsvector_ops)")
    conn.execute(f"ANALYZE {SCHEMA}.t_gin")
    conn.execute(f"ANALYZE {SCHEMA}.t_rum")
    return time.monotonic() - started


def mixes(files: list[Path], per_mix: int, seed: int) -> dict[str, list[str]]:
    rng = random.Random(seed)
    found: dict[str, list[str]] = {"2 CJK": [], "3-4 CJK": [], "Latin": [], "Latin+CJK": []}
    seen: set[str] = set()
    while any(len(q) < per_mix for q in found.values()):
        text = fold(rng.choice(files).read_text("utf-8", "replace"))
        runs, words = _CJK_RUN.findall(text), _LATIN.findall(text)
        if not runs or not words:
            continue
        run = rng.choice(runs)
        at = rng.randrange(len(run) - 3)
        candidates = {
            "2 CJK": run[at : at + 2],
            "3-4 CJK": run[at : at + rng.choice((3, 4))],
            "Latin": rng.choice(words),
            "Latin+CJK": f"{rng.choice(words)} {run[at : at + 2]}",
        }
        for mix, q in candidates.items():
            if len(found[mix]) < per_mix and q.casefold() not in seen:
                seen.add(q.casefold())
                found[mix].append(q)
    return found


SQL = {
    "gin": f"SELECT rid FROM {SCHEMA}.t_gin WHERE tsv @@ %(q)s::tsquery"
    " ORDER BY ts_rank(tsv, %(q)s::tsquery) DESC, rid DESC LIMIT 10",
    "rum": f"SELECT rid, rum_ts_score(tsv, %(q)s::tsquery) FROM {SCHEMA}.t_rum"
    " WHERE tsv @@ %(q)s::tsquery ORDER BY tsv <=> %(q)s::tsquery LIMIT 10",
    # the product's newest first (store/pg/search.py)
    "rum-new": f"SELECT rid FROM {SCHEMA}.t_rum WHERE tsv @@ %(q)s::tsquery"
    " ORDER BY rid DESC LIMIT 10",
}


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--per-mix", type=int, default=40)
    ap.add_argument("--seed", type=int, default=47)
    ap.add_argument("--inserts", type=int, default=500, help="transcripts inserted, timed")
    ap.add_argument("--url", default=os.environ.get("DEBRIEF_TEST_PG"))
    ap.add_argument("--reuse", action="store_true", help="the tables of a run with --keep")
    ap.add_argument("--keep", action="store_true", help="leave the tables for --reuse")
    args = ap.parse_args()
    files = sorted(args.corpus.glob("*.txt"))[: args.count]
    with psycopg.connect(args.url, autocommit=True) as conn:
        if not args.reuse:
            seconds = load(conn, files)
            print(f"{len(files)} transcripts loaded and indexed twice in {seconds:.0f} s")
        queries = mixes(files, args.per_mix, args.seed)
        print(f"load average before: {os.getloadavg()}")
        print(f"{'mix':<10} {'engine':<7} {'p50 ms':>8} {'p99 ms':>8} {'matches p50':>12}")
        for mix, qs in queries.items():
            # alternate the engines query by query, so both see the same cache state
            times: dict[str, list[float]] = {e: [] for e in SQL}
            matches: list[int] = []
            for q in qs:
                literal = lexemes.query(terms(q))
                if literal is None:
                    continue
                row = conn.execute(
                    f"SELECT count(*) FROM {SCHEMA}.t_gin WHERE tsv @@ %s::tsquery", [literal]
                ).fetchone()
                matches.append(int(row[0]) if row else 0)
                for engine, sql in SQL.items():
                    started = time.perf_counter()
                    conn.execute(sql, {"q": literal}).fetchall()
                    times[engine].append((time.perf_counter() - started) * 1000)
            for engine, ts in times.items():
                print(
                    f"{mix:<10} {engine:<7} {pct(ts, 0.5):8.1f} {pct(ts, 0.99):8.1f}"
                    f" {statistics.median(matches):12.0f}"
                )
        # what each index costs a save: the next transcripts inserted one by one (in one
        # transaction, then deleted: the tables hold what they held)
        extra = sorted(args.corpus.glob("*.txt"))[args.count : args.count + args.inserts]
        docs = [lexemes.document(fold(p.read_text("utf-8", "replace"))) for p in extra]
        for table in ("t_gin", "t_rum"):
            started = time.perf_counter()
            with conn.transaction():
                for i, literal in enumerate(docs, args.count + 1):
                    conn.execute(
                        f"INSERT INTO {SCHEMA}.{table} (rid, tsv) VALUES (%s, %s::tsvector)",
                        [i, literal],
                    )
                spent = time.perf_counter() - started
                conn.execute(f"DELETE FROM {SCHEMA}.{table} WHERE rid > %s", [args.count])
            print(f"insert into {table}: {spent / max(len(docs), 1) * 1000:.1f} ms a transcript")
        print(f"load average after: {os.getloadavg()}")
        if not args.keep:
            conn.execute(f"DROP SCHEMA {SCHEMA} CASCADE")


if __name__ == "__main__":
    main()
