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
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

import corpus  # noqa: E402
import oracle  # noqa: E402
from support.fake_slack import FakeSlack  # noqa: E402
from support.signed import command_body, post_signed  # noqa: E402

from store.sqlite.driver import sqlite3  # noqa: E402  (the library the store uses)
from store.sqlite.store import Store  # noqa: E402

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
    rid_of = {r[1]: r[0] for r in store.db.execute("SELECT rid, id FROM candidates")}
    results: dict[str, Any] = {}
    for kind, queries in QUERIES.items():
        samples: list[float] = []
        cold_ms: list[float] = []
        floor: list[float] = []
        block: list[float] = []
        hits: dict[str, int] = {}
        exact: dict[str, bool] = {}
        first: list[float] = []
        for q in queries:
            # the same top 10 as FTS5's exact bm25 (bench/oracle.py), every query, from
            # the first search and from the same search again
            expected = oracle.exact_top(store.db, q)
            store.clear_search_cache()
            started = time.perf_counter()
            ours = [rid_of[h.id] for h in store.search(q, snippets=False) if not h.partial]
            first.append((time.perf_counter() - started) * 1000)
            store.clear_search_cache()
            again = [rid_of[h.id] for h in store.search(q, snippets=False) if not h.partial]
            exact[q] = ours == expected and again == expected
            floor += [oracle.floor_ms(store.db, q) for _ in range(max(3, repeat // 4))]
            block += [oracle.block_ms(store.db, q) for _ in range(max(3, repeat // 4))]
            store.search(q)  # warm
            samples += timed(lambda q=q: store.search(q), repeat)  # type: ignore[misc]

            def cold(q: str = q) -> None:
                store.clear_search_cache()  # as after a write: bm25 over every match
                store.search(q)

            cold_ms += timed(cold, repeat)
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
            "cold_p50_ms": statistics.median(cold_ms),
            "cold_p99_ms": pct(cold_ms, 99),
            "grep_p50_ms": statistics.median(grep_ms),
            "vs_grep": statistics.median(grep_ms) / statistics.median(cold_ms),
            "hits_at_1000": hits,
            "exact_top10": exact,
            "first_search_max_ms": max(first),
            "count_floor_p99_ms": pct(floor, 99),
            "newest_1000_rank_p99_ms": pct(block, 99),
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

            def cold(term: str = term) -> None:
                store.clear_search_cache()  # as after a write: bm25 over every match
                store.search(term)

            cold_ms = timed(cold, repeat)
            exact_ms = timed(lambda term=term: exact_bm25(store, term), max(3, repeat // 4))
            out[term] = {
                "kind": kind,
                "matches": matches,
                "top": len(exact),
                "agreement": len(set(ours) & set(exact)),
                "baseline_agreement": len(set(base) & set(exact)),
                "p50_ms": statistics.median(samples),
                "p99_ms": pct(samples, 99),
                "cold_p50_ms": statistics.median(cold_ms),
                "cold_p99_ms": pct(cold_ms, 99),
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


def serve_env(
    fake: FakeSlack, db: str | Path, extra: dict[str, str] | None = None
) -> dict[str, str]:
    """The environment of a benchmarked `debrief serve`: this one's, without its Slack
    and Debrief settings, pointed at the fake Slack and `db`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))}
    return env | {
        "SLACK_BOT_TOKEN": "xoxb-bench",
        "SLACK_SIGNING_SECRET": SECRET,
        "SLACK_API_URL": fake.base_url,
        "DEBRIEF_DB": str(db),
        **(extra or {}),
    }


def start_serve(
    fake: FakeSlack,
    db: str | Path,
    env_extra: dict[str, str] | None = None,
    tree: Path = ROOT,
    seconds: float = 60,
) -> tuple[subprocess.Popen[bytes], str]:
    """Start `debrief serve` (HTTP mode, loopback) of `tree` (this one, or another
    checkout, run from it on its own PYTHONPATH) on `db` against the fake Slack Web API;
    return (process, base URL) once /healthz answers, within `seconds`."""
    port = free_port()
    env = serve_env(fake, db, env_extra)
    if tree != ROOT:
        env["PYTHONPATH"] = str(tree)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve", "--port", str(port), "--host", "127.0.0.1"],
        cwd=tree,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + seconds
    while True:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1):
                return proc, url
        except OSError:
            if time.time() > deadline or proc.poll() is not None:
                stop_serve(proc)
                raise SystemExit(f"debrief serve of {tree} did not start") from None
            time.sleep(0.1)


def stop_serve(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextmanager
def serving(db: Path) -> Iterator[tuple[FakeSlack, str, subprocess.Popen[bytes]]]:
    """`debrief serve` on `db` with a fake Slack Web API: yields (fake, base URL,
    process) once /healthz answers."""
    with FakeSlack() as fake:
        proc, url = start_serve(fake, db)
        try:
            yield fake, url, proc
        finally:
            stop_serve(proc)


def bench_serve(db: Path, ids: list[str], repeat: int) -> dict[str, Any]:
    results: dict[str, Any] = {}
    with serving(db) as (fake, url, proc):
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
                if n == 1:  # the first request after serve said ready: no cold start
                    results["first_request"] = {"ack_ms": acks[0], "reply_ms": replies[0]}
            results[kind] = {
                "ack_p50_ms": statistics.median(acks),
                "ack_p99_ms": pct(acks, 99),
                "reply_p50_ms": statistics.median(replies),
                "reply_p99_ms": pct(replies, 99),
            }
        results["rss_mb"] = peak_rss_mb(proc.pid)
    return results


# -- 5. /candidate during a full index run (issue 13 item 1) -------------------------------

ERROR_REPLY = "出了点问题"  # handlers/words/cards.py "error", in the default locale


class IndexedIds:
    """Ids of candidates already committed, read from the database by a reader of its
    own (WAL: it never waits for the index run), a few new rows at a time."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.ids: list[str] = []
        self.last_rid = 0
        self.conn: Any = None

    def refresh(self) -> None:
        if self.conn is None:
            if not self.db.exists():
                return
            self.conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=1)
        try:
            rows = self.conn.execute(
                "SELECT rid, id FROM candidates WHERE rid > ? ORDER BY rid LIMIT 5000",
                [self.last_rid],
            ).fetchall()
        except sqlite3.OperationalError:  # the schema is not there yet
            return
        for rid, cid in rows:
            self.ids.append(cid)
            self.last_rid = rid

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


def load_phase(
    fake: FakeSlack,
    url: str,
    ids: IndexedIds,
    rate: float,
    until: Callable[[int], bool],
    tag: str,
) -> dict[str, Any]:
    """Send signed /candidate commands at `rate` per second (open loop: a slow answer
    does not delay the next request) until `until(sent)` is true; then collect the
    replies. Kinds rotate summary / unanswered / search over ids already indexed."""
    rng = random.Random(13)
    sent: list[tuple[str, str, float]] = []  # (kind, response name, monotonic start)
    acks: dict[str, tuple[int, float]] = {}
    lock = threading.Lock()

    def send(name: str, text: str, started: float) -> None:
        body = command_body(text, response_url=fake.response_url(name))
        try:
            status, _h, _b = post_signed(url + "/slack/events", body, SECRET, timeout=30)
        except OSError:
            status = -1  # no HTTP answer at all
        with lock:
            acks[name] = (status, (time.monotonic() - started) * 1000)

    kinds = ("summary", "unanswered", "search")
    with ThreadPoolExecutor(max_workers=32) as pool:
        n = 0
        next_at = time.monotonic()
        last_refresh = 0.0
        while not until(n):
            now = time.monotonic()
            if now - last_refresh > 1.0:
                ids.refresh()
                last_refresh = now
            if now < next_at:
                time.sleep(min(next_at - now, 0.05))
                continue
            # lookups name ids already committed; before the first commit, searches only
            kind = kinds[n % 3] if ids.ids else "search"
            text = (
                "search " + rng.choice(ALL_QUERIES)
                if kind == "search"
                else f"{kind} {rng.choice(ids.ids)}"
            )
            name = f"{tag}{n}"
            # timed from the moment it is due (as Slack would send it), so time spent
            # waiting for a free client thread counts against the server too
            sent.append((kind, name, next_at))
            pool.submit(send, name, text, next_at)
            n += 1
            next_at += 1.0 / rate
    # every request has its HTTP answer now (the pool has shut down); replies follow
    per_kind: dict[str, Any] = {}
    statuses: dict[str, int] = {}
    all_acks: list[float] = []
    all_replies: list[float] = []
    lost = errors = 0
    deadline = time.monotonic() + 30  # replies still missing 30 s after the last ack: lost
    for kind in kinds:
        k_acks: list[float] = []
        k_replies: list[float] = []
        for k, name, started in sent:
            if k != kind:
                continue
            status, ack_ms = acks[name]
            statuses[str(status)] = statuses.get(str(status), 0) + 1
            k_acks.append(ack_ms)
            if status != 200:
                continue
            try:
                fake.wait_for(f"response/{name}", timeout=max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                lost += 1
                continue
            call = fake.calls(f"response/{name}")[0]
            k_replies.append((call.time - started) * 1000)
            if ERROR_REPLY in json.dumps(fake.responses(name), ensure_ascii=False):
                errors += 1
        all_acks += k_acks
        all_replies += k_replies
        per_kind[kind] = summary_of(k_acks, k_replies)
    return {
        "requests": len(sent),
        "statuses": statuses,
        "non_200": sum(v for k, v in statuses.items() if k != "200"),
        "status_404": statuses.get("404", 0),
        "replies_missing": lost,
        "error_replies": errors,
        **summary_of(all_acks, all_replies),
        "by_kind": per_kind,
    }


def summary_of(acks: list[float], replies: list[float]) -> dict[str, float]:
    return {
        "ack_p50_ms": statistics.median(acks) if acks else float("nan"),
        "ack_p99_ms": pct(acks, 99),
        "ack_max_ms": max(acks, default=float("nan")),
        "reply_p50_ms": statistics.median(replies) if replies else float("nan"),
        "reply_p99_ms": pct(replies, 99),
        "reply_max_ms": max(replies, default=float("nan")),
    }


def loadavg() -> str:
    """The 1, 5 and 15 minute load averages (other processes share this machine)."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def bench_during_index(
    folder: Path, work: Path, rate: float, baseline_count: int
) -> dict[str, Any]:
    """`debrief serve` on an empty database; `debrief index <folder>` on the same database
    as a separate process; /candidate commands at `rate`/s while it runs. Then, the
    index run over, the same load with nothing else running: the baseline."""
    db = work / "during.db"
    out: dict[str, Any] = {"rate_per_s": rate}
    with serving(db) as (fake, url, proc):
        # Ready means warm: serve loads the Chinese segmenter (~1 s, holding the GIL) in
        # the background at start; one search that needs it, answered, before timing.
        body = command_body("search 分布式训练调优", response_url=fake.response_url("warm"))
        post_signed(url + "/slack/events", body, SECRET, timeout=30)
        fake.wait_for("response/warm", timeout=60)
        ids = IndexedIds(db)
        out["load_before"] = loadavg()
        started = time.monotonic()
        indexer = subprocess.Popen(
            [sys.executable, "-m", "bot", "index", str(folder), "--db", str(db), "--json"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        # the index's own stdout (one JSON document) is read after it ends; its size is
        # a few MB at 100,000 files, so drain it in a thread not to block the pipe
        captured: dict[str, bytes] = {}

        def drain_pipes() -> None:
            captured["out"], captured["err"] = indexer.communicate()

        drain = threading.Thread(target=drain_pipes, daemon=True)
        drain.start()
        out["during"] = load_phase(fake, url, ids, rate, lambda _n: indexer.poll() is not None, "d")
        drain.join()
        out["index_seconds"] = time.monotonic() - started
        out["load_during_end"] = loadavg()
        if indexer.returncode != 0:
            raise SystemExit(f"debrief index failed: {captured.get('err', b'')[-2000:]!r}")
        out["indexed"] = len(json.loads(captured["out"])["indexed"])
        ids.refresh()
        while len(ids.ids) < out["indexed"]:
            before = len(ids.ids)
            ids.refresh()
            if len(ids.ids) == before:
                break
        out["baseline"] = load_phase(fake, url, ids, rate, lambda n: n >= baseline_count, "b")
        out["load_after"] = loadavg()
        out["serve_rss_mb"] = peak_rss_mb(proc.pid)
        ids.close()
    return out


def verdict(value: float, target: float, higher_is_better: bool = False) -> str:
    ok = value >= target if higher_is_better else value <= target
    if ok:
        return "met"
    miss = (target / value) if higher_is_better else (value / target)
    return f"MISSED ({miss:.1f}x)"


def report(n: int, r: dict[str, Any]) -> str:
    se, sv = r["search"], r["serve"]
    ix = r.get("index")
    lines = [
        f"Debrief benchmark, N = {n:,} transcripts",
        f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]},"
        f" SQLite {sqlite3.sqlite_version}; load average {r.get('load_start')} at the start,"
        f" {r.get('load_end')} at the end",
        "",
    ]
    if ix is not None:
        lines += [
            "1. indexing                     figure           baseline / target",
            f"   debrief index from empty    {ix['index_seconds']:8.1f} s       target < {TARGETS['index_seconds']:.0f} s: {verdict(ix['index_seconds'], TARGETS['index_seconds'])}",
            f"   throughput                  {ix['index_files_per_s']:8.0f} files/s {ix['index_mb_per_s']:6.2f} MB/s",
            f"   bare FTS5 trigram baseline  {ix['baseline_seconds']:8.1f} s       {ix['baseline_mb_per_s']:6.2f} MB/s",
            f"   ratio to baseline           {ix['index_ratio']:8.2f}         target >= {TARGETS['index_ratio']}: {verdict(ix['index_ratio'], TARGETS['index_ratio'], True)}",
            f"   re-index unchanged          {ix['reindex_seconds']:8.2f} s       target < {TARGETS['reindex_seconds']:.0f} s: {verdict(ix['reindex_seconds'], TARGETS['reindex_seconds'])}",
            "",
        ]
    lines += [
        "2b. ranking: top-10 shared with FTS5's exact bm25 (target >= 8 of 10, p99 < 50 ms)",
        "   (cached: the same query again, the indexes unchanged; cold: the first query after"
        " a write)",
        "   term            kind     matches  ours  newest-100 window  cached p50  p99"
        "  cold p50  cold p99  plain bm25 query p50 ms",
    ]
    for term, g in r.get("ranking", {}).items():
        lines.append(
            f"   {term:<14} {g['kind']:<7} {g['matches']:8} {g['agreement']:4}/{g['top']:<2}"
            f" {g['baseline_agreement']:8}/{g['top']:<2}       {g['p50_ms']:10.1f} {g['p99_ms']:5.1f}"
            f" {g['cold_p50_ms']:9.1f} {g['cold_p99_ms']:9.1f} {g['exact_bm25_p50_ms']:12.1f}"
        )
    lines += [
        "",
        "2. search   cached p50   p99   cold p50   p99 ms   grep -rl p50 ms   x faster (cold p50)"
        "   (p99 < 50 ms, >= 100x grep; cold judged)   top 10 = exact bm25   count floor p99 ms"
        "   newest-1000 rank p99 ms   first search max ms",
    ]
    for kind, s in se.items():
        same = sum(s["exact_top10"].values())
        lines.append(
            f"   {kind:<8} {s['p50_ms']:10.2f} {s['p99_ms']:6.2f} {s['cold_p50_ms']:9.2f}"
            f" {s['cold_p99_ms']:7.2f} {s['grep_p50_ms']:14.0f} {s['vs_grep']:10.0f}"
            f"   {verdict(s['cold_p99_ms'], TARGETS['search_p99_ms'])},"
            f" {verdict(s['vs_grep'], TARGETS['search_vs_grep'], True)}"
            f"   {same}/{len(s['exact_top10'])} queries   {s['count_floor_p99_ms']:8.1f}"
            f" {s['newest_1000_rank_p99_ms']:8.1f} {s.get('first_search_max_ms', 0.0):9.1f}"
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
    first = sv.get("first_request")
    if first:
        lines.append(
            f"   the first request after serve said ready: ack {first['ack_ms']:.1f} ms,"
            f" reply {first['reply_ms']:.1f} ms   {verdict(first['ack_ms'], TARGETS['ack_p99_ms'])}"
        )
    lines += [
        "",
        "4. footprint",
        f"   debrief serve peak RSS      {sv['rss_mb']:8.0f} MB      target < {TARGETS['rss_mb']:.0f} MB: {verdict(sv['rss_mb'], TARGETS['rss_mb'])}",
    ]
    if ix is not None:
        lines.append(
            f"   database / raw text         {ix['db_ratio']:8.2f}x        ({ix['db_mb']:.0f} MB / {ix['raw_mb']:.0f} MB) target < {TARGETS['db_ratio']}x: {verdict(ix['db_ratio'], TARGETS['db_ratio'])}"
        )
    return "\n".join(lines)


def report_during(n: int, d: dict[str, Any]) -> str:
    lines = [
        f"5. /candidate during a full `debrief index` of {n:,} files"
        f" ({d['indexed']:,} indexed in {d['index_seconds']:.0f} s), {d['rate_per_s']:g} commands/s",
        f"   load average before {d['load_before']}, at the index's end {d['load_during_end']},"
        f" after {d['load_after']}",
        "   phase            requests  non-200  404  no reply  error reply"
        "   ack p50  ack p99  ack max  reply p50  reply p99  reply max ms",
    ]
    for phase, label in (("during", "index running"), ("baseline", "no index (base)")):
        g = d[phase]
        lines.append(
            f"   {label:<16} {g['requests']:8} {g['non_200']:8} {g['status_404']:4} {g['replies_missing']:9}"
            f" {g['error_replies']:12}   {g['ack_p50_ms']:7.1f} {g['ack_p99_ms']:8.1f} {g['ack_max_ms']:8.1f}"
            f" {g['reply_p50_ms']:10.1f} {g['reply_p99_ms']:10.1f} {g['reply_max_ms']:10.1f}"
        )
    for kind in ("summary", "unanswered", "search"):
        g, b = d["during"]["by_kind"][kind], d["baseline"]["by_kind"][kind]
        lines.append(
            f"     {kind:<12} ack p99 {g['ack_p99_ms']:7.1f} (base {b['ack_p99_ms']:6.1f})"
            f"  reply p99 {g['reply_p99_ms']:7.1f} (base {b['reply_p99_ms']:6.1f}) ms"
        )
    g = d["during"]
    lines.append(
        f"   during the index run: ack p99 < {TARGETS['ack_p99_ms']:.0f} ms:"
        f" {verdict(g['ack_p99_ms'], TARGETS['ack_p99_ms'])}; zero 404s:"
        f" {'met' if g['status_404'] == 0 and g['non_200'] == 0 else 'MISSED'};"
        f" reply p99 < {TARGETS['reply_p99_ms']:.0f} ms: {verdict(g['reply_p99_ms'], TARGETS['reply_p99_ms'])}"
    )
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
    parser.add_argument(
        "--db",
        metavar="FILE|URL",
        help="a SQLite file: measure search, ranking and serving on it, already holding the"
        " corpus (no indexing figures); a postgresql:// URL of an empty database: index the"
        " corpus into it and into SQLite, and compare them (bench/pg.py)",
    )
    parser.add_argument(
        "--during-index",
        action="store_true",
        help="only section 5: /candidate ack and reply times while `debrief index` indexes"
        " the corpus into an empty database, beside the same load with no index running",
    )
    parser.add_argument("--rate", type=float, default=8.0, help="commands/s in section 5")
    parser.add_argument(
        "--beside",
        metavar="TREE",
        help="only search: this tree's beside another checkout's (today's code: `git"
        " worktree add /tmp/base HEAD`), on the same corpus indexed by that tree, in one"
        " run (bench/beside.py); with --db postgresql://… on PostgreSQL",
    )
    parser.add_argument(
        "--spaces", type=int, default=1, help="with --beside: workspaces the corpus is split over"
    )
    parser.add_argument(
        "--keep",
        metavar="DIR",
        help="with --during-index: leave the database it built in DIR (for --db)",
    )
    args = parser.parse_args(argv)
    repeat, grep_repeat, serve_repeat = (5, 1, 5) if args.quick else (40, 3, 100)
    if args.beside:
        import beside  # this tree's search beside another tree's

        pg_url = (
            args.db if args.db and args.db.startswith(("postgresql://", "postgres://")) else None
        )
        figures = beside.compare(
            Path(args.beside), args.count, args.seed, args.spaces, repeat, pg_url
        )
        print(beside.report(figures))
        if args.json:
            print(json.dumps(figures, ensure_ascii=False))
        return 0
    if args.db and args.db.startswith(("postgresql://", "postgres://")):
        import pg  # PostgreSQL beside SQLite: index, search, two replicas under load

        quick = ["--repeat", "3", "--load-seconds", "1"] if args.quick else []
        more = ["--json"] if args.json else []
        return pg.main(
            ["--db", args.db, "--count", str(args.count), "--seed", str(args.seed), *quick, *more]
        )

    folder = build_corpus(args.count, args.seed)
    raw, files = raw_size(folder)
    with tempfile.TemporaryDirectory(prefix="debrief-bench-") as tmp:
        work = Path(tmp)
        figures: dict[str, Any] = {"count": args.count, "load_start": loadavg()}
        if args.during_index:
            base_n = 30 if args.quick else 600
            figures["during_index"] = bench_during_index(folder, work, args.rate, base_n)
            if args.keep:
                keep = Path(args.keep)
                keep.mkdir(parents=True, exist_ok=True)
                shutil.move(work / "during.db", keep / "bench.db")
            print(report_during(args.count, figures["during_index"]))
            if args.json:
                print(json.dumps(figures, ensure_ascii=False))
            return 0
        if args.db:
            db = Path(args.db)
        elif args.index_from:
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
        figures["load_end"] = loadavg()
    print(report(args.count, figures))
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
