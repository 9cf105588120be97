"""Searches nobody asked before, through the real server, beside the code before kept
postings (issue 47), in one run.

    git worktree add /tmp/base116 116dce0
    python bench/new_searches.py --count 2000                         # SQLite
    python bench/new_searches.py --corpus bench/.cache/corpus-100000-0 \
        --keep /tmp/ns-keep                                            # 100,000, kept
    python bench/new_searches.py --count 20000 --db postgresql://…    # PostgreSQL

1. The corpus of bench/run.py (bench/corpus.py, cached in bench/.cache/; a folder of it
   with --corpus). Each tree, this one and the one before (--base), indexes it with its
   own `debrief index` into its own database: SQLite files, or with --db databases of
   their own on that PostgreSQL server (`debrief_ns_this_<N>`, `debrief_ns_base_<N>`).
   With --keep DIR the databases stay (SQLite files in DIR; PostgreSQL's by name) and a
   later run reuses them, with the terms already asked of them listed in DIR so that
   none is asked again.
2. Terms drawn from the corpus text with a fixed seed (--seed): a random occurrence in a
   random transcript, so a common word comes up as often as it is common: jieba's words
   of 2 Chinese characters, of 3-4, a Latin word, and a Latin word with a 2-character
   Chinese word of the same transcript. None of bench/run.py's queries, none asked of
   these databases before, none twice.
3. `debrief serve` of each tree (HTTP mode, loopback, signed slash commands, the fake
   Slack Web API of tests/support/), both fresh, warmed by a summary and one search. Each
   term is asked once of each server, the two in turn (which goes first alternates):
   reply p50/p99 (from the request to the reply reaching the fake Slack) per mix. Then
   one term asked --repeat times of each: the repeated search's p50/p99 (its first ask
   not counted).
4. PostgreSQL only: two replicas of each tree on its database, five new searches a second
   (--rate) for --load-seconds, open loop, round the replicas: ack and reply p99.

Every figure is printed beside its baseline from the same run, with the ratio, and the
load average at the start and the end. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from run import (  # noqa: E402
    ALL_QUERIES,
    CACHE,
    ERROR_REPLY,
    SECRET,
    build_corpus,
    loadavg,
    pct,
    start_serve,
    stop_serve,
)
from support.fake_slack import FakeSlack  # noqa: E402
from support.signed import command_body, post_signed  # noqa: E402

MIXES = ("cjk-2", "cjk-3-4", "latin", "latin+cjk")
TREES = ("this", "base")
BUSY_REPLY = "稍后再试"  # handlers/words/cards.py "search_busy" (and "error"), zh
NO_HITS = "没有找到包含"  # handlers/words/cards.py "no_hits", zh

_CJK = "\u3400-\u4dbf\u4e00-\u9fff"
_CJK2 = re.compile(f"[{_CJK}]{{2}}")
_CJK34 = re.compile(f"[{_CJK}]{{3,4}}")
_LATIN = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]{2,}(?![A-Za-z0-9])")


# -- the corpus and the terms --------------------------------------------------------------


def corpus_folder(count: int, seed: int, given: str | None) -> Path:
    """--corpus as given; else bench/run.py's cached corpus of `count` (made if missing)."""
    if given:
        return Path(given)
    folder = CACHE / f"corpus-{count}-{seed}"
    if folder.is_dir() and sum(1 for _ in folder.glob("*.txt")) >= count:
        return folder  # complete (a copy or a link without run.py's marker included)
    return build_corpus(count, seed)


@dataclass
class Terms:
    mixes: dict[str, list[str]]
    repeated: str
    warm: str
    load: list[str]

    def all(self) -> list[str]:
        return [t for ts in self.mixes.values() for t in ts] + [
            self.repeated,
            self.warm,
            *self.load,
        ]


def draw_terms(folder: Path, seed: int, per_mix: int, load: int, exclude: set[str]) -> Terms:
    """Terms of the corpus text, drawn as occurrences (see the module's docstring)."""
    import rjieba

    rng = random.Random(seed)
    files = sorted(folder.glob("*.txt"))
    jieba = rjieba.Jieba()
    used = {q.casefold() for q in ALL_QUERIES} | {t.casefold() for t in exclude}
    for q in [*ALL_QUERIES, *exclude]:  # and each word of them: none is asked again
        used |= {w.casefold() for w in q.split()}
    pools: dict[str, list[str]] = {m: [] for m in MIXES}
    wanted = {
        "cjk-2": per_mix + 2 + load,
        "cjk-3-4": per_mix,
        "latin": per_mix,
        "latin+cjk": per_mix,
    }

    def fresh(word: str) -> bool:
        key = word.casefold()
        if key in used:
            return False
        used.add(key)
        return True

    tries = 0
    while any(len(pools[m]) < wanted[m] for m in MIXES):
        tries += 1
        if tries > 200_000:
            raise SystemExit(
                f"not enough distinct terms in {folder}: { ({m: len(p) for m, p in pools.items()}) }"
            )
        text = rng.choice(files).read_text(encoding="utf-8")
        words = [w for w in jieba.cut(text, False) if w.strip()]
        latin = _LATIN.findall(text)
        mix = MIXES[tries % len(MIXES)]
        if len(pools[mix]) >= wanted[mix]:
            continue
        if mix == "cjk-2":
            found = [w for w in words if _CJK2.fullmatch(w)]
        elif mix == "cjk-3-4":
            found = [w for w in words if _CJK34.fullmatch(w)]
        elif mix == "latin":
            found = latin
        else:
            cjk = [w for w in words if _CJK2.fullmatch(w)]
            if not latin or not cjk:
                continue
            a, b = rng.choice(latin), rng.choice(cjk)
            if a.casefold() not in used and b not in used and fresh(a) and fresh(b):
                pools[mix].append(f"{a} {b}")
            continue
        if found:
            word = rng.choice(found)
            if fresh(word):
                pools[mix].append(word)
    cjk2 = pools["cjk-2"]
    return Terms(
        mixes={
            "cjk-2": cjk2[:per_mix],
            **{m: pools[m] for m in MIXES[1:]},
        },
        repeated=cjk2[per_mix],
        warm=cjk2[per_mix + 1],
        load=cjk2[per_mix + 2 :],
    )


# -- the databases ---------------------------------------------------------------------------


@dataclass
class Database:
    tree: str  # "this" or "base"
    path: Path  # the tree
    target: str  # SQLite file or PostgreSQL URL
    asked_file: Path | None  # the terms already asked of it (--keep)
    index_s: float | None = None  # None: reused

    def asked(self) -> set[str]:
        if self.asked_file is None or not self.asked_file.exists():
            return set()
        return set(self.asked_file.read_text(encoding="utf-8").splitlines())

    def record(self, terms: list[str]) -> None:
        if self.asked_file is not None:
            with self.asked_file.open("a", encoding="utf-8") as f:
                f.writelines(t + "\n" for t in terms)


def tree_env(tree: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(tree)}


def index_into(tree: Path, folder: Path, target: str) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "bot", "index", str(folder), "--db", target, "--json"],
        cwd=tree,
        env=tree_env(tree),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: debrief index into {target} failed: {done.stderr[-2000:]}")
    return time.perf_counter() - started


def _pg_url(server: str, name: str) -> str:
    return urlunsplit(urlsplit(server)._replace(path="/" + name))


@contextmanager
def databases(
    trees: dict[str, Path], folder: Path, count: int, pg: str | None, keep: str | None
) -> Iterator[list[Database]]:
    """Each tree's database of the corpus: made (or, with --keep, reused), then dropped
    unless kept."""
    with ExitStack() as stack:
        if keep:
            place = Path(keep)
            place.mkdir(parents=True, exist_ok=True)
        else:
            place = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="debrief-ns-")))
        made: list[Database] = []
        for name, tree in trees.items():
            label = f"{name}-{'pg' if pg else 'sqlite'}-{count}"
            marker = place / f"{label}.indexed"
            asked = place / f"{label}.asked" if keep else None
            if pg:
                import psycopg

                dbname = f"debrief_ns_{name}_{count}"
                target = _pg_url(pg, dbname)
                if not (keep and marker.exists()):
                    with psycopg.connect(pg, autocommit=True) as conn:
                        conn.execute(f"DROP DATABASE IF EXISTS {dbname} WITH (FORCE)")
                        conn.execute(f"CREATE DATABASE {dbname}")
                if not keep:
                    stack.callback(_drop_pg, pg, dbname)
            else:
                target = str(place / f"{label}.db")
            db = Database(name, tree, target, asked)
            if not (keep and marker.exists()):
                if not pg:
                    for suffix in ("", "-wal", "-shm"):
                        Path(target + suffix).unlink(missing_ok=True)
                if asked is not None:
                    asked.unlink(missing_ok=True)
                db.index_s = index_into(tree, folder, target)
                marker.write_text(str(count))
                print(
                    f"{name}: indexed {count:,} in {db.index_s:.1f} s", file=sys.stderr, flush=True
                )
            made.append(db)
        yield made


def _drop_pg(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


# -- the servers -------------------------------------------------------------------------------


def start_tree_serve(
    tree: Path, fake: FakeSlack, target: str, extra: dict[str, str] | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """`debrief serve` of `tree` (its own modules), as bench/run.py starts this tree's."""
    env = {"DEBRIEF_LOG_LEVEL": "warning", **(extra or {})}
    return start_serve(fake, target, env, tree=tree, seconds=120)


class Asker:
    """Signed /candidate commands to servers of one fake Slack, one at a time."""

    def __init__(self, fake: FakeSlack, tag: str) -> None:
        self.fake = fake
        self.tag = tag
        self.n = 0
        self.no_hits: dict[str, int] = {}
        self.failed: dict[str, int] = {}

    def ask(self, url: str, text: str, who: str) -> tuple[float, float]:
        """(ack ms, reply ms) of one command."""
        self.n += 1
        name = f"{self.tag}{self.n}"
        body = command_body(text, response_url=self.fake.response_url(name))
        started = time.monotonic()  # the fake stamps calls with time.monotonic()
        status, _h, _b = post_signed(url + "/slack/events", body, SECRET, timeout=60)
        acked = time.monotonic()
        if status != 200:
            raise SystemExit(f"{who}: /candidate {text!r} answered {status}")
        self.fake.wait_for(f"response/{name}", timeout=60)
        replied = self.fake.calls(f"response/{name}")[0].time
        said = json.dumps(self.fake.responses(name), ensure_ascii=False)
        if NO_HITS in said:
            self.no_hits[who] = self.no_hits.get(who, 0) + 1
        if ERROR_REPLY in said or BUSY_REPLY in said:
            self.failed[who] = self.failed.get(who, 0) + 1
        return (acked - started) * 1000, (replied - started) * 1000


def figures(values: list[float]) -> dict[str, float]:
    return {"p50_ms": statistics.median(values), "p99_ms": pct(values, 99), "n": len(values)}


def one_server_each(dbs: list[Database], terms: Terms, repeat: int, some_id: str) -> dict[str, Any]:
    """Both trees' servers, fresh: every term once of each, in turn; then the repeated one."""
    with FakeSlack() as fake, ExitStack() as stack:
        urls: dict[str, str] = {}
        for db in dbs:
            proc, url = start_tree_serve(db.path, fake, db.target)
            stack.callback(stop_serve, proc)
            urls[db.tree] = url
        asker = Asker(fake, "n")
        for tree, url in urls.items():  # warm: a lookup and one search, not counted
            asker.ask(url, f"summary {some_id}", tree)
            asker.ask(url, f"search {terms.warm}", tree)
        replies: dict[str, dict[str, list[float]]] = {m: {t: [] for t in urls} for m in MIXES}
        k = 0
        for mix in MIXES:
            for term in terms.mixes[mix]:
                order = list(urls) if k % 2 == 0 else list(reversed(urls))
                k += 1
                for tree in order:
                    replies[mix][tree].append(asker.ask(urls[tree], f"search {term}", tree)[1])
        repeated: dict[str, list[float]] = {t: [] for t in urls}
        for n in range(repeat + 1):
            for tree in urls if n % 2 == 0 else reversed(list(urls)):
                reply = asker.ask(urls[tree], f"search {terms.repeated}", tree)[1]
                if n:  # the first ask is a new search
                    repeated[tree].append(reply)
        every = {t: [r for m in MIXES for r in replies[m][t]] for t in urls}
        return {
            "mixes": {m: {t: figures(replies[m][t]) for t in urls} for m in MIXES},
            "all_new": {t: figures(every[t]) for t in urls},
            "repeated": {t: figures(repeated[t]) for t in urls},
            "no_hits": asker.no_hits,
            "failed": asker.failed,
        }


def replicas_under_new_searches(
    db: Database, terms: list[str], rate: float, some_id: str, replicas: int = 2
) -> dict[str, Any]:
    """`replicas` servers of `db`'s tree on its database, a new search every 1/`rate`
    seconds (open loop, timed from when each is due), round the replicas."""
    acks: list[float] = []
    replies: list[float] = []
    failed = 0
    lock = threading.Lock()
    with FakeSlack() as fake, ExitStack() as stack:
        urls = []
        for _ in range(replicas):
            proc, url = start_tree_serve(db.path, fake, db.target)
            stack.callback(stop_serve, proc)
            urls.append(url)
        warm = Asker(fake, "w")
        for url in urls:
            warm.ask(url, f"summary {some_id}", db.tree)

        def one(n: int, term: str, due: float) -> None:
            nonlocal failed
            name = f"l{n}"
            body = command_body(f"search {term}", response_url=fake.response_url(name))
            status, _h, _b = post_signed(
                urls[n % len(urls)] + "/slack/events", body, SECRET, timeout=60
            )
            ack = (time.monotonic() - due) * 1000
            fake.wait_for(f"response/{name}", timeout=60)
            reply = (fake.calls(f"response/{name}")[0].time - due) * 1000
            said = json.dumps(fake.responses(name), ensure_ascii=False)
            with lock:
                if status == 200:
                    acks.append(ack)
                    replies.append(reply)
                if status != 200 or ERROR_REPLY in said or BUSY_REPLY in said:
                    failed += 1

        start = time.monotonic() + 0.5
        with ThreadPoolExecutor(max_workers=32) as pool:
            for n, term in enumerate(terms):
                due = start + n / rate
                time.sleep(max(0.0, due - time.monotonic()))
                pool.submit(one, n, term, due)
    return {
        "requests": len(terms),
        "answered": len(acks),
        "failed_or_busy": failed,
        "ack_p99_ms": pct(acks, 99),
        "reply_p50_ms": statistics.median(replies) if replies else float("nan"),
        "reply_p99_ms": pct(replies, 99),
    }


# -- the report -----------------------------------------------------------------------------


def _ratio(a: float, b: float) -> str:
    return f"{a / b:5.2f}x" if b else "   - "


def report(r: dict[str, Any]) -> str:
    s = r["served"]
    lines = [
        f"Never-asked searches through `debrief serve`, N = {r['count']:,}, {r['backend']},"
        f" this tree beside {r['base']} (load {r['load_start']} -> {r['load_end']})",
    ]
    idx = r["index_s"]
    if idx.get("this") and idx.get("base"):
        lines.append(
            f"index: this {idx['this']:.1f} s, base {idx['base']:.1f} s ({_ratio(idx['this'], idx['base'])})"
        )
    else:
        lines.append("index: databases reused (--keep)")
    lines.append(
        f"{'reply ms':<14}{'n':>4} {'this p50':>9} {'base p50':>9} {'ratio':>7}"
        f" {'this p99':>9} {'base p99':>9} {'ratio':>7}"
    )
    rows = [
        *((m, s["mixes"][m]) for m in MIXES),
        ("all new", s["all_new"]),
        ("repeated", s["repeated"]),
    ]
    for label, f in rows:
        a, b = f["this"], f["base"]
        lines.append(
            f"{label:<14}{a['n']:>4} {a['p50_ms']:>9.1f} {b['p50_ms']:>9.1f} {_ratio(a['p50_ms'], b['p50_ms']):>7}"
            f" {a['p99_ms']:>9.1f} {b['p99_ms']:>9.1f} {_ratio(a['p99_ms'], b['p99_ms']):>7}"
        )
    lines.append(
        f"no hits: {s['no_hits'] or 'none'}; error or busy replies: {s['failed'] or 'none'}"
    )
    if "replicas" in r:
        lines.append(
            f"two replicas, {r['rate']:g} new searches a second for {r['load_seconds']:g} s:"
        )
        a, b = r["replicas"]["this"], r["replicas"]["base"]
        for key in ("ack_p99_ms", "reply_p50_ms", "reply_p99_ms"):
            lines.append(
                f"  {key:<14} this {a[key]:>8.1f}  base {b[key]:>8.1f}  {_ratio(a[key], b[key])}"
            )
        lines.append(
            f"  answered this {a['answered']}/{a['requests']} ({a['failed_or_busy']} error/busy),"
            f" base {b['answered']}/{b['requests']} ({b['failed_or_busy']} error/busy)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--count", type=int, default=20000, help="transcripts (bench/corpus.py)")
    ap.add_argument("--corpus", help="a folder of the corpus instead (its files all indexed)")
    ap.add_argument("--seed", type=int, default=0, help="the corpus's and the terms' seed")
    ap.add_argument("--db", help="a PostgreSQL server (URL): each tree's database is made on it")
    ap.add_argument("--keep", help="a folder: keep the databases there and reuse them")
    ap.add_argument("--base", default="/tmp/base116", help="the tree before kept postings")
    ap.add_argument("--per-mix", type=int, default=20, help="new terms per mix (each asked once)")
    ap.add_argument("--repeat", type=int, default=30, help="asks of the repeated search")
    ap.add_argument("--rate", type=float, default=5, help="new searches a second (PostgreSQL)")
    ap.add_argument("--load-seconds", type=float, default=30)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = ap.parse_args(argv)
    base = Path(args.base).resolve()
    if not (base / "bot").is_dir():
        raise SystemExit(f"{base}: no tree there (git worktree add {base} 116dce0)")
    folder = corpus_folder(args.count, args.seed, args.corpus)
    count = sum(1 for _ in folder.glob("*.txt"))
    result: dict[str, Any] = {
        "count": count,
        "backend": "PostgreSQL" if args.db else "SQLite",
        "base": str(base),
        "load_start": loadavg(),
    }
    with databases({"this": ROOT, "base": base}, folder, count, args.db, args.keep) as dbs:
        result["index_s"] = {db.tree: db.index_s for db in dbs}
        asked = set().union(*(db.asked() for db in dbs))
        load = int(args.rate * args.load_seconds) if args.db else 0
        terms = draw_terms(folder, args.seed, args.per_mix, load, asked)
        for db in dbs:  # written first: a run stopped halfway asked some of them
            db.record(terms.all())
        result["terms"] = {"mixes": terms.mixes, "repeated": terms.repeated}
        # a transcript's id is its file's stem (read from the folder: this tree's store
        # opening the other tree's database would run this tree's schema steps on it)
        some_id = min(folder.glob("*.txt")).stem
        result["served"] = one_server_each(dbs, terms, args.repeat, some_id)
        if args.db:
            result["rate"], result["load_seconds"] = args.rate, args.load_seconds
            result["replicas"] = {
                db.tree: replicas_under_new_searches(db, terms.load, args.rate, some_id)
                for db in dbs
            }
    result["load_end"] = loadavg()
    print(report(result))
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
