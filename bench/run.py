"""Debrief's benchmark suite: every figure beside the baseline it is compared with.

    python bench/run.py --count 100000          # the figures in BENCHMARKS.md
    python bench/run.py --count 200 --quick     # a smoke run (the tests do this)

1. Indexing: `debrief index` into an empty database (transcripts/s, MB/s) beside
   the same raw text inserted into a bare FTS5 trigram table with executemany,
   measured in the same run; then re-indexing the unchanged folder.
2. Search: p50/p99 of Store.search for 2-character CJK words, longer CJK phrases,
   ASCII terms and mixed queries, beside `grep -rl` over the same files.
3. End to end: `debrief serve` (HTTP mode, loopback) holding the N transcripts;
   p50/p99 from a signed /candidate request to its acknowledgement and to the
   reply reaching a fake Slack Web API, for summary, unanswered and search.
4. Peak RSS of `debrief serve`; database size against the raw text.

Machines are noisy: medians and p99 over repeated runs, and ratios to baselines
measured in the same run. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

import corpus  # noqa: E402
from fakes import FakeSlack, command_body, post_signed  # noqa: E402

from store.db import Store  # noqa: E402
from store.sqlite import sqlite3  # noqa: E402  (the library the store uses)

CACHE = ROOT / "bench" / ".cache"
SECRET = "bench-signing-secret"

QUERIES = {
    "cjk-2": ["并行", "模型", "数据", "优化", "框架", "蛋糕"],
    "cjk-long": ["分布式训练", "神经网络模型", "数据并行", "图优化", "推荐系统模型"],
    "ascii": ["TensorFlow", "Kubernetes", "C++", "LazyBuilder", "Worker"],
    "mixed": ["TensorFlow 分布式", "Client/Server 架构", "模型 C++", "Keras 图像分类"],
}

ALL_QUERIES = [q for queries in QUERIES.values() for q in queries]

TARGETS = {
    "index_seconds": 120.0,
    "index_ratio": 0.8,
    "reindex_seconds": 10.0,
    "search_p99_ms": 50.0,
    "search_vs_grep": 100.0,
    "ack_p99_ms": 100.0,
    "reply_p99_ms": 300.0,
    "rss_mb": 200.0,
    "db_ratio": 4.0,
}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def build_corpus(count: int, seed: int) -> Path:
    folder = CACHE / f"corpus-{count}-{seed}"
    marker = folder / ".complete"
    if not marker.exists():
        shutil.rmtree(folder, ignore_errors=True)
        started = time.perf_counter()
        corpus.generate(count, folder, seed=seed)
        marker.write_text(str(count))
        print(f"corpus: {count} transcripts written in {time.perf_counter() - started:.1f} s")
    return folder


def raw_size(folder: Path) -> tuple[int, list[Path]]:
    files = sorted(p for p in folder.iterdir() if p.suffix == ".txt")
    return sum(p.stat().st_size for p in files), files


def debrief(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def bench_index(folder: Path, files: list[Path], raw: int, work: Path) -> dict[str, float]:
    db = work / "bench.db"
    started = time.perf_counter()
    done = debrief("index", str(folder), "--db", str(db), "--json")
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"debrief index failed: {done.stderr[-2000:]}")
    indexed = len(json.loads(done.stdout)["indexed"])

    # Baseline: the same raw text into a bare FTS5 trigram table, one executemany.
    base_db = work / "baseline.db"
    started = time.perf_counter()
    conn = sqlite3.connect(base_db, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(text, tokenize='trigram')")
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO t (text) VALUES (?)", ((p.read_text("utf-8"),) for p in files))
    conn.execute("COMMIT")
    conn.close()
    base_took = time.perf_counter() - started

    started = time.perf_counter()
    again = debrief("index", str(folder), "--db", str(db), "--json")
    reindex = time.perf_counter() - started
    unchanged = len(json.loads(again.stdout)["unchanged"])

    db_bytes = sum(f.stat().st_size for f in work.glob("bench.db*"))
    return {
        "files": indexed,
        "index_seconds": took,
        "index_files_per_s": indexed / took,
        "index_mb_per_s": raw / took / 1e6,
        "baseline_seconds": base_took,
        "baseline_mb_per_s": raw / base_took / 1e6,
        "index_ratio": base_took / took,
        "reindex_seconds": reindex,
        "reindex_unchanged": unchanged,
        "db_mb": db_bytes / 1e6,
        "raw_mb": raw / 1e6,
        "db_ratio": db_bytes / raw,
    }


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        out.append((time.perf_counter() - started) * 1000)
    return out


def bench_search(db: Path, folder: Path, repeat: int, grep_repeat: int) -> dict[str, Any]:
    store = Store(db)
    results: dict[str, Any] = {}
    for kind, queries in QUERIES.items():
        samples: list[float] = []
        hits: dict[str, int] = {}
        for q in queries:
            store.search(q)  # warm
            samples += timed(lambda q=q: store.search(q), repeat)  # type: ignore[misc]
            hits[q] = len(store.search(q, limit=1000))
        grep_ms: list[float] = []
        for q in queries[:2]:
            for _ in range(grep_repeat):
                started = time.perf_counter()
                subprocess.run(
                    ["grep", "-rlF", "--", q.split()[0], str(folder)],
                    stdout=subprocess.DEVNULL,
                    check=False,
                )
                grep_ms.append((time.perf_counter() - started) * 1000)
        p50 = statistics.median(samples)
        results[kind] = {
            "p50_ms": p50,
            "p99_ms": pct(samples, 99),
            "grep_p50_ms": statistics.median(grep_ms),
            "vs_grep": statistics.median(grep_ms) / p50,
            "hits_at_1000": hits,
        }
    return results


# Ranking: terms found in most transcripts and terms found in a few. The rare ones
# come from the corpus's rare lexicon (2-3 Chinese characters, or a made-up name).
COMMON_TERMS = ["梯度下降", "负载均衡", "分布式", "模型", "TensorFlow"]


def rare_terms(seed: int) -> list[str]:
    m = corpus.model(seed)
    return [m.rare_word(k) for k in (1, 3, 5, 9, 15, 2, 4)]


def exact_bm25(store: Store, term: str, k: int = 10) -> list[int]:
    """FTS5's own bm25 over every match, as a plain query on the term's table."""
    table = "candidates_bigrams" if len(term) < 3 else "candidates_fts"
    sql = f"SELECT rowid FROM {table} WHERE {table} MATCH ? ORDER BY bm25({table}) LIMIT {k}"
    return [r[0] for r in store.db.execute(sql, ['"' + term.casefold() + '"'])]


def window_baseline(store: Store, term: str, k: int = 10, window: int = 100) -> list[int]:
    """The ranking this replaced: the newest `window` matches ranked by bm25's
    term-frequency part counted in their text (no IDF)."""
    table = "candidates_bigrams" if len(term) < 3 else "candidates_fts"
    rids = [
        r[0]
        for r in store.db.execute(
            f"SELECT rowid FROM {table} WHERE {table} MATCH ? ORDER BY rowid DESC LIMIT {window}",
            ['"' + term.casefold() + '"'],
        )
    ]
    if not rids:
        return []
    marks = ", ".join("?" for _ in rids)
    texts = {
        rid: "\n".join(x or "" for x in (p, i, s, v))
        for rid, p, i, s, v in store.db.execute(
            f"SELECT rid, position, intro, summary, verdict FROM candidates WHERE rid IN ({marks})",
            rids,
        )
    }
    for rid, q, g, a in store.db.execute(
        f"SELECT candidate_rid, question, goal, answer FROM questions WHERE candidate_rid IN ({marks})",
        rids,
    ):
        texts[rid] += "\n" + "\n".join((q, g, a))
    folded = term.casefold()
    average = sum(len(t) for t in texts.values()) / len(texts)
    scores = {}
    for rid, text in texts.items():
        tf = text.casefold().count(folded)
        norm = 1.2 * (0.25 + 0.75 * len(text) / average)
        scores[rid] = tf * 2.2 / (tf + norm)
    return sorted(rids, key=lambda r: (-scores[r], -r))[:k]


def bench_ranking(db: Path, seed: int, repeat: int) -> dict[str, Any]:
    """Top-10 agreement with FTS5's exact bm25, beside the newest-100 window it replaced,
    and search latency for each term."""
    store = Store(db)
    rid_of = {r[1]: r[0] for r in store.db.execute("SELECT rid, id FROM candidates")}
    out: dict[str, Any] = {}
    for kind, terms in (("common", COMMON_TERMS), ("rare", rare_terms(seed))):
        for term in terms:
            matches = store.db.execute(
                "SELECT count(*) FROM "
                + ("candidates_bigrams" if len(term) < 3 else "candidates_fts")
                + " WHERE "
                + ("candidates_bigrams" if len(term) < 3 else "candidates_fts")
                + " MATCH ?",
                ['"' + term.casefold() + '"'],
            ).fetchone()[0]
            exact = exact_bm25(store, term)
            ours = [rid_of[h.id] for h in store.search(term, snippets=False)]
            base = window_baseline(store, term)
            samples = timed(lambda term=term: store.search(term), repeat)  # type: ignore[misc]
            exact_ms = timed(lambda term=term: exact_bm25(store, term), max(3, repeat // 4))
            out[term] = {
                "kind": kind,
                "matches": matches,
                "top": len(exact),
                "agreement": len(set(ours) & set(exact)),
                "baseline_agreement": len(set(base) & set(exact)),
                "p50_ms": statistics.median(samples),
                "p99_ms": pct(samples, 99),
                "exact_bm25_p50_ms": statistics.median(exact_ms),
            }
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def peak_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def bench_serve(db: Path, ids: list[str], repeat: int) -> dict[str, Any]:
    port = free_port()
    results: dict[str, Any] = {}
    with FakeSlack() as fake:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))}
        env |= {
            "SLACK_BOT_TOKEN": "xoxb-bench",
            "SLACK_SIGNING_SECRET": SECRET,
            "SLACK_API_URL": fake.base_url,
            "DEBRIEF_DB": str(db),
        }
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot", "serve", "--port", str(port), "--host", "127.0.0.1"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.time() + 60
            while True:
                try:
                    with urllib.request.urlopen(url + "/healthz", timeout=1):
                        break
                except OSError:
                    if time.time() > deadline or proc.poll() is not None:
                        raise SystemExit("debrief serve did not start") from None
                    time.sleep(0.1)
            rng = random.Random(7)
            commands = {
                "summary": lambda: f"summary {rng.choice(ids)}",
                "unanswered": lambda: f"unanswered {rng.choice(ids)}",
                "search": lambda: "search " + rng.choice(ALL_QUERIES),
            }
            n = 0
            for kind, make in commands.items():
                acks: list[float] = []
                replies: list[float] = []
                for _ in range(repeat):
                    n += 1
                    name = f"r{n}"
                    body = command_body(make(), response_url=fake.response_url(name))
                    started = time.monotonic()  # the fake stamps calls with time.monotonic()
                    status, _h, _b = post_signed(url + "/slack/events", body, SECRET)
                    acked = time.monotonic()
                    fake.wait_for(f"response/{name}", timeout=30)
                    replied = fake.calls(f"response/{name}")[0].time
                    if status != 200:
                        raise SystemExit(f"/candidate answered {status}")
                    acks.append((acked - started) * 1000)
                    replies.append((replied - started) * 1000)
                results[kind] = {
                    "ack_p50_ms": statistics.median(acks),
                    "ack_p99_ms": pct(acks, 99),
                    "reply_p50_ms": statistics.median(replies),
                    "reply_p99_ms": pct(replies, 99),
                }
            results["rss_mb"] = peak_rss_mb(proc.pid)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    return results


def verdict(value: float, target: float, higher_is_better: bool = False) -> str:
    ok = value >= target if higher_is_better else value <= target
    if ok:
        return "met"
    miss = (target / value) if higher_is_better else (value / target)
    return f"MISSED ({miss:.1f}x)"


def report(n: int, r: dict[str, Any]) -> str:
    ix, se, sv = r["index"], r["search"], r["serve"]
    lines = [
        f"Debrief benchmark, N = {n:,} transcripts ({ix['raw_mb']:.0f} MB of text)",
        f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]},"
        f" SQLite {sqlite3.sqlite_version}",
        "",
        "1. indexing                     figure           baseline / target",
        f"   debrief index from empty    {ix['index_seconds']:8.1f} s       target < {TARGETS['index_seconds']:.0f} s: {verdict(ix['index_seconds'], TARGETS['index_seconds'])}",
        f"   throughput                  {ix['index_files_per_s']:8.0f} files/s {ix['index_mb_per_s']:6.2f} MB/s",
        f"   bare FTS5 trigram baseline  {ix['baseline_seconds']:8.1f} s       {ix['baseline_mb_per_s']:6.2f} MB/s",
        f"   ratio to baseline           {ix['index_ratio']:8.2f}         target >= {TARGETS['index_ratio']}: {verdict(ix['index_ratio'], TARGETS['index_ratio'], True)}",
        f"   re-index unchanged          {ix['reindex_seconds']:8.2f} s       target < {TARGETS['reindex_seconds']:.0f} s: {verdict(ix['reindex_seconds'], TARGETS['reindex_seconds'])}",
        "",
        "2b. ranking: top-10 shared with FTS5's exact bm25 (target >= 8 of 10, p99 < 50 ms)",
        "   term            kind     matches  ours  newest-100 window  p50 ms  p99 ms  plain bm25 query ms",
    ]
    for term, g in r.get("ranking", {}).items():
        lines.append(
            f"   {term:<14} {g['kind']:<7} {g['matches']:8} {g['agreement']:4}/{g['top']:<2}"
            f" {g['baseline_agreement']:8}/{g['top']:<2}       {g['p50_ms']:7.1f} {g['p99_ms']:7.1f}"
            f" {g['exact_bm25_p50_ms']:12.1f}"
        )
    lines += [
        "",
        "2. search          p50 ms   p99 ms   grep -rl p50 ms   x faster   (p99 < 50 ms, >= 100x grep)",
    ]
    for kind, s in se.items():
        lines.append(
            f"   {kind:<12} {s['p50_ms']:8.2f} {s['p99_ms']:8.2f} {s['grep_p50_ms']:14.0f} {s['vs_grep']:10.0f}"
            f"   {verdict(s['p99_ms'], TARGETS['search_p99_ms'])}, {verdict(s['vs_grep'], TARGETS['search_vs_grep'], True)}"
        )
    lines += [
        "",
        "3. /candidate over HTTP   ack p50  ack p99  reply p50  reply p99 ms  (ack p99 < 100, reply p99 < 300)",
    ]
    for kind in ("summary", "unanswered", "search"):
        s = sv[kind]
        lines.append(
            f"   {kind:<20} {s['ack_p50_ms']:8.1f} {s['ack_p99_ms']:8.1f} {s['reply_p50_ms']:10.1f} {s['reply_p99_ms']:10.1f}"
            f"   {verdict(s['ack_p99_ms'], TARGETS['ack_p99_ms'])}, {verdict(s['reply_p99_ms'], TARGETS['reply_p99_ms'])}"
        )
    lines += [
        "",
        "4. footprint",
        f"   debrief serve peak RSS      {sv['rss_mb']:8.0f} MB      target < {TARGETS['rss_mb']:.0f} MB: {verdict(sv['rss_mb'], TARGETS['rss_mb'])}",
        f"   database / raw text         {ix['db_ratio']:8.2f}x        ({ix['db_mb']:.0f} MB / {ix['raw_mb']:.0f} MB) target < {TARGETS['db_ratio']}x: {verdict(ix['db_ratio'], TARGETS['db_ratio'])}",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (smoke run)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument(
        "--index-from",
        metavar="JSON",
        help="reuse the indexing figures and database of an earlier run (index_figures.json"
        " beside its database) and measure search, serving and footprint only",
    )
    args = parser.parse_args(argv)
    repeat, grep_repeat, serve_repeat = (5, 1, 5) if args.quick else (40, 3, 100)

    folder = build_corpus(args.count, args.seed)
    raw, files = raw_size(folder)
    with tempfile.TemporaryDirectory(prefix="debrief-bench-") as tmp:
        work = Path(tmp)
        figures: dict[str, Any] = {"count": args.count}
        if args.index_from:
            saved = Path(args.index_from)
            figures["index"] = json.loads(saved.read_text())
            db = saved.parent / "bench.db"
        else:
            figures["index"] = bench_index(folder, files, raw, work)
            db = work / "bench.db"
        figures["search"] = bench_search(db, folder, repeat, grep_repeat)
        figures["ranking"] = bench_ranking(db, args.seed, repeat)
        ids = [p.stem for p in files]
        figures["serve"] = bench_serve(db, ids, serve_repeat)
    print(report(args.count, figures))
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
