"""PostgreSQL beside SQLite: index time, search p50/p99, and two `serve` replicas under load.

    python bench/pg.py --db postgresql://... --count 20000

The PostgreSQL database must be empty (or a fresh schema); the same generated corpus
(bench/corpus.py, cached) is indexed into a temporary SQLite file and into it, with
`debrief index`. Search runs the queries of bench/run.py on both stores and checks
they find the same number of transcripts. Then two `debrief serve` replicas (HTTP,
loopback) on the PostgreSQL database take /candidate requests in turn (summary and
search) at a steady rate; ack and reply latencies are reported per replica pair. The
same replicas take the repeated searches, then the distinct ones: a start is no part of
any figure, and starting each set of processes once halves what the smoke run in
tests/test_bench.py spends starting them. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from run import (  # noqa: E402
    ALL_QUERIES,
    QUERIES,
    build_corpus,
    loadavg,
    pct,
    start_serve,
    stop_serve,
)
from support.fake_slack import FakeSlack  # noqa: E402
from support.signed import command_body, post_signed  # noqa: E402

from store.factory import open_store  # noqa: E402

SECRET = "bench-signing-secret"


def index(folder: Path, db: str) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "bot", "index", str(folder), "--db", db, "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"index into {db} failed: {done.stderr}")
    return time.perf_counter() - started


def search(db: str, repeat: int) -> dict[str, Any]:
    """Per kind of query: the first call in this process (nothing cached, not even the
    idf), then `repeat` calls with the answer cache cleared before each (as after any
    write: bm25 over every match), then `repeat` answered from the cache."""
    store = open_store(db, create=False)
    out: dict[str, Any] = {}
    for kind, queries in QUERIES.items():
        cold: list[float] = []
        cached: list[float] = []
        first: list[float] = []
        hits: dict[str, int] = {}
        top: dict[str, list[str]] = {}
        for q in queries:
            one = functools.partial(store.search, q)
            first.append(_timed(one))
            for _ in range(repeat):
                store.clear_search_cache()
                cold.append(_timed(one))
            cached += [_timed(one) for _ in range(repeat)]
            hits[q] = len(store.search(q, limit=1000))
            top[q] = [h.id for h in store.search(q)]
        out[kind] = {
            "first_max_ms": max(first),
            "p50_ms": statistics.median(cold),
            "p99_ms": pct(cold, 99),
            "cached_p50_ms": statistics.median(cached),
            "hits": hits,
            "top10": top,
        }
    store.close()
    return out


def _timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


_COMMON = [
    "模型",
    "数据",
    "训练",
    "系统",
    "优化",
    "性能",
    "项目",
    "经验",
    "设计",
    "框架",
    "并行",
    "分布",
]


BUSY_REPLY = "稍后再试"  # handlers/words/cards.py "search_busy", in the default locale


def replicas_under_load(
    db: str,
    seconds: float,
    rate: float,
    replicas: int = 2,
    loads: tuple[bool, ...] = (False, True),
    workers: int | None = None,
) -> list[dict[str, Any]]:
    """`replicas` serve processes under `rate` commands a second for `seconds`, once for
    each of `loads` in turn (True: distinct searches), the same processes
    throughout (started once: a start is no part of any figure); `workers`: their
    DEBRIEF_SEARCH_WORKERS (None: the default; 0: ranking in the serving process, the
    baseline of what the workers are for). The figures of each load, in order."""
    store = open_store(db, create=False)
    ids = [s.id for s in store.list_candidates(limit=2000)]
    store.close()
    with FakeSlack() as fake:
        procs: list[subprocess.Popen[bytes]] = []
        urls: list[str] = []
        try:
            for _ in range(replicas):
                env = {"DEBRIEF_LOG_LEVEL": "warning"}
                if workers is not None:
                    env["DEBRIEF_SEARCH_WORKERS"] = str(workers)
                proc, url = start_serve(fake, db, env)
                procs.append(proc)
                urls.append(url)
            return [
                _load(fake, urls, ids, seconds, rate, distinct, workers, f"l{n}")
                for n, distinct in enumerate(loads)
            ]
        finally:
            for p in procs:
                stop_serve(p)


def _load(
    fake: FakeSlack,
    urls: list[str],
    ids: list[str],
    seconds: float,
    rate: float,
    distinct: bool,
    workers: int | None,
    tag: str,
) -> dict[str, Any]:
    """`seconds` of `rate` commands a second sent round the replicas at `urls`, their
    replies awaited on the fake Slack under names starting with `tag`."""
    rng = random.Random(7)
    acks: list[float] = []
    replies: list[float] = []
    busy: list[int] = []
    lock = threading.Lock()

    total = int(seconds * rate)
    # the same commands for every backend: summaries and searches in turn; with
    # `distinct`, each search adds a common word to a bench query, so most are
    # new to the answer cache (bm25 over ~100,000 matches each)
    texts = [
        f"summary {rng.choice(ids)}"
        if n % 2
        else "search " + rng.choice(ALL_QUERIES) + (f" {rng.choice(_COMMON)}" if distinct else "")
        for n in range(total)
    ]

    def one(n: int, due: float) -> None:
        name = f"{tag}r{n}"
        body = command_body(texts[n], response_url=fake.response_url(name))
        # summaries and searches alternate, so pairs go round the replicas: each
        # takes its share of both (n % replicas sent every search to the first)
        status, _h, _b = post_signed(
            urls[(n // 2) % len(urls)] + "/slack/events", body, SECRET, timeout=30
        )
        ack = (time.monotonic() - due) * 1000
        fake.wait_for(f"response/{name}", timeout=30)
        reply = (time.monotonic() - due) * 1000
        said = json.dumps(fake.responses(name), ensure_ascii=False)
        with lock:
            if status == 200:
                acks.append(ack)
                replies.append(reply)
            if BUSY_REPLY in said:
                busy.append(n)

    start = time.monotonic() + 0.5
    with ThreadPoolExecutor(max_workers=32) as pool:
        for n in range(total):
            due = start + n / rate
            time.sleep(max(0.0, due - time.monotonic()))
            pool.submit(one, n, due)
    return {
        "distinct_searches": len({t for t in texts if t.startswith("search ")}),
        "requests": total,
        "answered": len(acks),
        "busy_replies": len(busy),
        "search_workers": "default" if workers is None else workers,
        "rate_per_s": rate,
        "ack_p50_ms": statistics.median(acks),
        "ack_p99_ms": pct(acks, 99),
        "reply_p50_ms": statistics.median(replies),
        "reply_p99_ms": pct(replies, 99),
    }


def report(r: dict[str, Any]) -> str:
    lines = [
        f"PostgreSQL beside SQLite, N = {r['count']:,} (load {r['load_start']} -> {r['load_end']})"
    ]
    idx = r.get("index_s")
    if idx:
        lines.append(
            f"index: SQLite {idx['sqlite']:.0f} s, PostgreSQL {idx['postgresql']:.0f} s"
            f" ({idx['postgresql'] / idx['sqlite']:.1f}x)"
        )
    else:
        lines.append("index: not measured (--reuse: both databases already held the corpus)")
    lines.append(
        "search (ms; p50/p99 with the answer cache cleared, then cached p50)\n"
        "                 SQLite first  p50   p99 cached    PostgreSQL first  p50   p99 cached"
    )
    for kind, lite in r["search"]["sqlite"].items():
        pg = r["search"]["postgresql"][kind]
        lines.append(
            f"  {kind:<10} {lite['first_max_ms']:12.1f} {lite['p50_ms']:5.1f} {lite['p99_ms']:5.1f}"
            f" {lite['cached_p50_ms']:6.2f} {pg['first_max_ms']:16.1f} {pg['p50_ms']:5.1f}"
            f" {pg['p99_ms']:5.1f} {pg['cached_p50_ms']:6.2f}"
        )
    lines.append(f"same hits on both: {r['same_hits']} {r['differing_hits'] or ''}")
    shared = [t["shared"] for t in r["top10"].values()]
    in_order = sum(t["same_order"] for t in r["top10"].values())
    lines.append(
        f"top 10 beside SQLite's: {sum(shared)}/{10 * len(shared)} shared,"
        f" {in_order}/{len(shared)} queries in the same order"
    )
    names = ["sqlite_one_serve", "two_replicas"]
    more = [n + "_distinct" for n in names] + [n + "_distinct_in_process" for n in names]
    for name in [*names, *more]:
        x = r.get(name)
        if x is None:
            continue
        lines.append(
            f"{name} at {x['rate_per_s']}/s ({x['distinct_searches']} distinct searches,"
            f" search workers: {x.get('search_workers', 'default')}):"
            f" {x['answered']}/{x['requests']} answered, {x.get('busy_replies', 0)} busy;"
            f" ack p50 {x['ack_p50_ms']:.0f} p99 {x['ack_p99_ms']:.0f} ms;"
            f" reply p50 {x['reply_p50_ms']:.0f} p99 {x['reply_p99_ms']:.0f} ms"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--db", required=True, help="an empty PostgreSQL database (URL)")
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--load-seconds", type=float, default=30)
    ap.add_argument("--rate", type=float, default=10)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    ap.add_argument(
        "--reuse",
        metavar="SQLITE_FILE",
        help="skip indexing: this SQLite file and the PostgreSQL database already hold the"
        " corpus (search and serving figures only)",
    )
    args = ap.parse_args(argv)
    folder = build_corpus(args.count, args.seed)
    result: dict[str, Any] = {"count": args.count, "load_start": loadavg()}
    with tempfile.TemporaryDirectory(prefix="debrief-bench-pg-") as tmp:
        if args.reuse:
            lite = args.reuse
        else:
            lite = str(Path(tmp) / "bench.db")
            result["index_s"] = {
                "sqlite": index(folder, lite),
                "postgresql": index(folder, args.db),
            }
            print(json.dumps({"index_s": result["index_s"]}), file=sys.stderr, flush=True)
        result["search"] = {
            "sqlite": search(lite, args.repeat),
            "postgresql": search(args.db, args.repeat),
        }
        print(json.dumps({"search": result["search"]}, ensure_ascii=False), file=sys.stderr)
        same = {
            q: (n, result["search"]["postgresql"][k]["hits"][q])
            for k, v in result["search"]["sqlite"].items()
            for q, n in v["hits"].items()
        }
        result["same_hits"] = all(a == b for a, b in same.values())
        # the top 10 of each query on both: how many of SQLite's ten PostgreSQL has, and
        # whether in the same order
        result["top10"] = {
            q: {
                "shared": len(set(ten) & set(result["search"]["postgresql"][k]["top10"][q])),
                "same_order": ten == result["search"]["postgresql"][k]["top10"][q],
            }
            for k, v in result["search"]["sqlite"].items()
            for q, ten in v["top10"].items()
        }
        result["differing_hits"] = {q: ab for q, ab in same.items() if ab[0] != ab[1]}
        # each serving: the repeated searches, then the distinct ones, on the same
        # processes; the baseline of the search workers: the same loads ranked in the
        # serving process (DEBRIEF_SEARCH_WORKERS=0), in the same run (its first load
        # warms it as the first warms the others, and is not reported)
        for name, db, replicas in (("sqlite_one_serve", lite, 1), ("two_replicas", args.db, 2)):
            plain, distinct = replicas_under_load(db, args.load_seconds, args.rate, replicas)
            result[name], result[name + "_distinct"] = plain, distinct
            _warm, distinct = replicas_under_load(
                db, args.load_seconds, args.rate, replicas, workers=0
            )
            result[name + "_distinct_in_process"] = distinct
    result["load_end"] = loadavg()
    print(report(result))
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
