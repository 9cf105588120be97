"""Two SQLite full-text layouts side by side: today's, and CJK bigrams only + Latin trigrams.

    python bench/fts_layouts.py --count 20000 [--repeat 3] [--json]

Today every transcript's indexed text goes whole into the trigram table (`candidates_fts`)
and its CJK bigrams (plus short Latin words) into the bigram table: every CJK character
is tokenized twice. The alternative indexes each character once: the trigram table gets
the text with every CJK run blanked out (a Latin term of 3+ characters is still a phrase of
trigrams), and a CJK term of 3+ characters becomes a phrase of its bigrams in the bigram
table, whose runs are kept apart by a token no query can hold (so `分布。布式` never
matches `分布式`).

The same parsed texts (bench/corpus.py, cached; parsing is not timed) go, in one run and
in turn, into: the bare FTS5 trigram table over the raw files (`bench/run.py`'s indexing
baseline), today's two tables, and the alternative's two, each in one transaction. Then
every query of bench/run.py's QUERIES is ranked on both layouts (FTS5's exact bm25, the
top 10), and the number of matches each finds is compared: they must be equal.
Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from run import QUERIES, build_corpus, loadavg, pct  # noqa: E402

from store import fulltext  # noqa: E402
from store.transcripts.parser import parse_transcript  # noqa: E402

_RUN = re.compile(f"[{fulltext.CJK_RANGES}]+")
_SEPARATOR = "zzz"  # 3 letters: never a short Latin word, never a CJK bigram
_UNICODE = "\"unicode61 tokenchars '#+'\""


def latin(text: str) -> str:
    """The trigram table's text in the alternative: every CJK run blanked out."""
    return _RUN.sub(" ", text)


def blanked(text: str) -> str:
    """The same, every CJK character a space: the text keeps its length."""
    return _RUN.sub(lambda m: " " * len(m.group()), text)


def bigrams_apart(text: str) -> str:
    """The bigram table's text in the alternative: each CJK run's bigrams; a run that
    begins with the character the one before ended with is kept apart from it, the only
    place where a phrase of bigrams could otherwise match across two runs."""
    folded = text.casefold()
    out: list[str] = []
    last = ""
    for run in (r for r in _RUN.findall(folded) if len(r) >= 2):
        if run[0] == last:
            out.append(_SEPARATOR)
        out.extend(run[i : i + 2] for i in range(len(run) - 1))
        last = run[-1]
    return " ".join(out) + " " + " ".join(fulltext._SHORT_RE.findall(folded))


Layout = list[tuple[str, str, Callable[[str], str]]]

LAYOUTS: dict[str, Layout] = {
    "today": [("tri", "'trigram'", lambda t: t), ("bi", _UNICODE, fulltext.bigrams)],
    "cjk-once": [("tri", "'trigram'", latin), ("bi", _UNICODE, bigrams_apart)],
    "cjk-once-same-length": [("tri", "'trigram'", blanked), ("bi", _UNICODE, bigrams_apart)],
}


def load(
    db: Path, tables: Layout, texts: list[str], raw: bool = False
) -> tuple[float, int, sqlite3.Connection]:
    for old in db.parent.glob(db.name + "*"):
        old.unlink()
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    for name, tokenizer, _f in tables:
        content = "" if raw else ", content=''"
        conn.execute(f"CREATE VIRTUAL TABLE {name} USING fts5(x, tokenize={tokenizer}{content})")
    prepared = [[f(t) for t in texts] for _n, _t, f in tables]  # Python's share, not timed
    started = time.perf_counter()
    conn.execute("BEGIN")
    for (name, _t, _f), values in zip(tables, prepared, strict=True):
        conn.executemany(f"INSERT INTO {name} (rowid, x) VALUES (?, ?)", enumerate(values, 1))
    conn.execute("COMMIT")
    took = time.perf_counter() - started
    size = sum(f.stat().st_size for f in db.parent.glob(db.name + "*"))
    return took, size, conn


def expressions(layout: str, query: str) -> tuple[str | None, str | None]:
    """(trigram MATCH, bigram MATCH) of a query's terms as typed, in a layout."""
    tri: list[str] = []
    bi: list[str] = []
    for term in fulltext.terms(query):
        if term.kind == "trigram" and fulltext.is_cjk(term.text) and layout != "today":
            pairs = [term.text[i : i + 2] for i in range(len(term.text) - 1)]
            bi.append(fulltext.quote(" ".join(pairs)))
        elif term.kind == "trigram":
            tri.append(fulltext.quote(term.text))
        else:
            star = "*" if len(term.text) == 1 and term.kind == "bigram" else ""
            bi.append(fulltext.quote(term.text) + star)
    return " AND ".join(tri) or None, " AND ".join(bi) or None


def ranked(conn: sqlite3.Connection, tri: str | None, bi: str | None) -> tuple[list[int], int]:
    """FTS5's exact bm25 top 10 (the two tables' scores added) and the number of matches."""
    if tri and bi:
        sql = (
            "WITH t AS MATERIALIZED (SELECT rowid AS r, rank AS s FROM tri WHERE tri MATCH :tri),"
            " b AS MATERIALIZED (SELECT rowid AS r, rank AS s FROM bi WHERE bi MATCH :bi)"
            " SELECT t.r, t.s + b.s AS score, count(*) OVER () FROM t JOIN b ON b.r = t.r"
            " ORDER BY score, t.r DESC LIMIT 10"
        )
    else:
        table = "tri" if tri else "bi"
        sql = (
            f"SELECT rowid, rank, count(*) OVER () FROM {table} WHERE {table} MATCH :q"
            " ORDER BY rank, rowid DESC LIMIT 10"
        )
    found = conn.execute(sql, {"tri": tri, "bi": bi, "q": tri or bi}).fetchall()
    return [r[0] for r in found], (found[0][2] if found else 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="loads of each layout, in turn")
    parser.add_argument("--queries", type=int, default=20, help="runs of each query")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    load_start = loadavg()
    folder = build_corpus(args.count, args.seed)
    files = sorted(p for p in folder.iterdir() if p.suffix == ".txt")
    raw = [p.read_text("utf-8") for p in files]
    texts = [fulltext.indexed(parse_transcript(p.read_bytes(), p.name))[0] for p in files]
    out: dict[str, Any] = {"count": len(files), "raw_mb": sum(map(len, map(str.encode, raw))) / 1e6}
    seconds: dict[str, list[float]] = {"baseline": [], **{name: [] for name in LAYOUTS}}
    sizes: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="fts-layouts-") as tmp:
        work = Path(tmp)
        conns: dict[str, sqlite3.Connection] = {}
        for _ in range(args.repeat):  # in turn, so that the machine's moods fall on all three
            took, size, conn = load(work / "baseline.db", [("t", "'trigram'", str)], raw, True)
            conn.close()
            seconds["baseline"].append(took)
            sizes["baseline"] = size
            for name, tables in LAYOUTS.items():
                if name in conns:
                    conns.pop(name).close()
                took, size, conn = load(work / f"{name}.db", tables, texts)
                seconds[name].append(took)
                sizes[name] = size
                conns[name] = conn
        median = {k: sorted(v)[len(v) // 2] for k, v in seconds.items()}
        out["load_seconds"] = seconds
        out["load_median"] = median
        out["ratio_to_baseline"] = {k: median["baseline"] / median[k] for k in LAYOUTS}
        out["db_mb"] = {k: v / 1e6 for k, v in sizes.items()}

        searches: dict[str, dict[str, dict[str, float]]] = {}
        agreement: dict[str, Any] = {}
        for mix, queries in QUERIES.items():
            for name, conn in conns.items():
                times: list[float] = []
                for q in queries:
                    tri, bi = expressions(name, q)
                    for _ in range(args.queries):
                        started = time.perf_counter()
                        ranked(conn, tri, bi)
                        times.append((time.perf_counter() - started) * 1000)
                searches.setdefault(mix, {})[name] = {"p50": pct(times, 50), "p99": pct(times, 99)}
            for q in queries:
                counts = {n: ranked(c, *expressions(n, q))[1] for n, c in conns.items()}
                agreement[q] = counts
        for conn in conns.values():
            conn.close()
    out["search_ms"] = searches
    out["matches"] = agreement
    out["load_average"] = {"start": load_start, "end": loadavg()}

    print(f"N = {out['count']}, raw text {out['raw_mb']:.0f} MB, load {load_start} -> {loadavg()}")
    print("layout      load s (median of runs)        ratio to bare trigram   database")
    for k in seconds:
        runs = ", ".join(f"{s:.1f}" for s in seconds[k])
        ratio = "" if k == "baseline" else f"{out['ratio_to_baseline'][k]:.2f}"
        print(f"{k:10}  {median[k]:6.1f} ({runs:22})  {ratio:>8}   {sizes[k] / 1e6:8.0f} MB")
    print("search, exact bm25 top 10, ms (p50 / p99): " + ", ".join(LAYOUTS))
    for mix, by in searches.items():
        cells = "".join(f"{by[n]['p50']:10.1f} / {by[n]['p99']:6.1f}" for n in LAYOUTS)
        print(f"  {mix:10}{cells}")
    unequal = {q: c for q, c in agreement.items() if len(set(c.values())) != 1}
    print(
        f"matches: equal for {len(agreement) - len(unequal)} of {len(agreement)} queries", unequal
    )
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
