"""Debrief's SQLite FTS5 search beside tantivy over exactly the same text, in one run.

    pip install tantivy                               # not a dependency of Debrief
    python bench/engines.py --count 100000 --json
    python bench/engines.py --count 20000 --keep DIR  # leaves DIR/bench.db and DIR/tantivy
    python bench/engines.py --count 20000 --sqlite DIR/bench.db   # no indexing figures
    python bench/engines.py --count 20000 --sqlite DIR/bench.db --tantivy DIR/tantivy  # queries only

1. Indexing: `debrief index` into an empty SQLite file beside the bare FTS5 trigram
   `executemany` baseline (bench/run.py's `bench_index`), unless `--sqlite` names a
   database that already holds the corpus.
2. tantivy: an index built from what the store indexed, read back from the SQLite file
   (each candidate's rid and the `doc_text`/`bigrams` pair that `_unindex` rebuilds), with
   the same tokens as FTS5:
   - `tri`: every 3-character window of the text, lower-cased character by character as
     FTS5's trigram tokenizer folds it, written space-separated and indexed with
     tantivy's whitespace tokenizer (its n-gram tokenizer gives every gram position 0,
     so a phrase of grams never matches). ASCII whitespace inside a window, which
     tantivy would split at, becomes U+E000: windows keep their count and positions,
     and no query term holds whitespace.
   - `bi`: the store's bigram row (CJK bigrams and short Latin words, space separated),
     whitespace tokenizer, as FTS5's unicode61 tokenizes it.
   A sample of rows is checked: the token counts equal FTS5's own (`*_docsize`).
3. Search, every query of bench/run.py's QUERIES, the repetitions of the engines
   interleaved: `Store.search` as bench/run.py times it cold (answer cache cleared before
   each), the same `search()` with tantivy ranking behind it (fields and snippets still
   read from SQLite), and each engine's ranking alone (`rows.ranked_rows`: the terms as
   typed, then a Chinese phrase's words when it finds fewer than 10). A term of 3+
   characters is a phrase of its trigrams on `tri`, a shorter one a term on `bi`, all
   terms required, best 10 by tantivy's BM25 (ties: the higher rowid first, as the store
   orders them). Matches are counted for the terms as typed on both; agreement is how
   many of FTS5's exact bm25 top 10 (the store's ranking SQL, no cache) tantivy's top 10
   shares, and how many of `search()`'s 10 hits the tantivy-backed `search()` shares.
4. A table, the load average at the start and end, and `--json`.

Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import tantivy

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from run import QUERIES, bench_index, build_corpus, loadavg, pct, raw_size, timed  # noqa: E402

from store import fulltext, rows  # noqa: E402
from store.fulltext import Sort, Term  # noqa: E402
from store.hits import Ranking  # noqa: E402
from store.sqlite.driver import sqlite3  # noqa: E402
from store.sqlite.space_index import indexed_questions  # noqa: E402
from store.sqlite.store import Store  # noqa: E402

HEAP_BYTES = 256_000_000  # tantivy writer's memory budget
WRITER_THREADS = 1  # the machine has 2 cores: one for this Python loop, one for tantivy
TOP = 10
VERSION = str(getattr(tantivy, "__version__", "tantivy"))
CHECK_ROWS = 500  # rows whose token counts are compared with FTS5's
_ASCII_SPACE = " \t\n\x0c\r"  # where tantivy's whitespace tokenizer splits


# -- the text, as the store indexed it ------------------------------------------------------


def stored_texts(db: Path) -> Iterator[tuple[int, str]]:
    """(rid, doc_text) of every candidate, rebuilt as `FullText._unindex` rebuilds it."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        heads = conn.execute(
            "SELECT rid, position, intro, summary, verdict, name, interviewers FROM candidates"
            " ORDER BY rid"
        )
        for rid, position, intro, summary, verdict, name, interviewers in heads:
            yield (
                rid,
                fulltext.doc_text(
                    position,
                    intro,
                    summary,
                    indexed_questions(conn.execute, rid),
                    verdict,
                    name,
                    rows.names(interviewers),
                ),
            )
    finally:
        conn.close()


def fold(text: str) -> str:
    """Lower case, character by character (FTS5's trigram tokenizer folds each code point
    to one code point; `str.lower` of a few, such as İ, is two)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def trigrams(text: str) -> list[str]:
    """Every 3-character window of the folded text, as FTS5's trigram tokenizer has them."""
    s = fold(text)
    for c in _ASCII_SPACE:
        s = s.replace(c, "\ue000")
    return [s[i : i + 3] for i in range(len(s) - 2)]


def _varint(blob: bytes) -> int:
    """The first value of an FTS5 docsize record (SQLite varint)."""
    n = 0
    for b in blob[:9]:
        n = (n << 7) | (b & 0x7F)
        if b < 0x80:
            break
    return n


# -- tantivy ---------------------------------------------------------------------------------


def schema() -> tantivy.Schema:
    return (
        tantivy.SchemaBuilder()
        .add_integer_field("rid", stored=True, indexed=True, fast=True)
        .add_text_field("tri", tokenizer_name="ws", index_option="position")
        .add_text_field("bi", tokenizer_name="ws", index_option="position")
        .build()
    )


def open_index(path: Path) -> tantivy.Index:
    index = tantivy.Index(schema(), path=str(path), reuse=True)
    index.register_tokenizer(
        "ws", tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace()).build()
    )
    return index


def dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def build_tantivy(db: Path, path: Path) -> dict[str, Any]:
    """Index every candidate's stored text into a new tantivy index at `path`."""
    path.mkdir(parents=True)
    index = open_index(path)
    writer = index.writer(heap_size=HEAP_BYTES, num_threads=WRITER_THREADS)
    docsize = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    checked = mismatched = docs = 0
    tokenize_s = 0.0
    started = time.perf_counter()
    for rid, text in stored_texts(db):
        t0 = time.perf_counter()
        tri = trigrams(text)
        bi = fulltext.bigrams(text)
        tokenize_s += time.perf_counter() - t0
        if checked < CHECK_ROWS:
            checked += 1
            want = [
                _varint(bytes(r[0]))
                for r in (
                    docsize.execute("SELECT sz FROM candidates_fts_docsize WHERE id = ?", [rid]),
                    docsize.execute(
                        "SELECT sz FROM candidates_bigrams_docsize WHERE id = ?", [rid]
                    ),
                )
                for r in r.fetchall()
            ]
            mismatched += want != [len(tri), len(bi.split())]
        writer.add_document(tantivy.Document(rid=rid, tri=" ".join(tri), bi=bi))
        docs += 1
    added = time.perf_counter() - started
    writer.commit()
    committed = time.perf_counter() - started
    writer.wait_merging_threads()
    merged = time.perf_counter() - started
    docsize.close()
    index.reload()
    return {
        "docs": docs,
        "heap_mb": HEAP_BYTES / 1e6,
        "threads": WRITER_THREADS,
        "add_seconds": added,
        "tokenize_seconds": tokenize_s,
        "commit_seconds": committed - added,
        "merge_wait_seconds": merged - committed,
        "seconds": merged,
        "segments": index.searcher().num_segments,
        "mb": dir_bytes(path) / 1e6,
        "files": sum(1 for p in path.rglob("*") if p.is_file()),
        "token_check_rows": checked,
        "token_check_mismatches": mismatched,
    }


class Tantivy:
    """Ranked (rid, score) lists from the tantivy index, for the store's terms."""

    def __init__(self, path: Path) -> None:
        self.index = open_index(path)
        self.schema = self.index.schema
        self.searcher = self.index.searcher()

    def query(self, terms: list[Term]) -> tantivy.Query | None:
        parts: list[tantivy.Query] = []
        for term in terms:
            if term.kind == "trigram":
                grams = trigrams(term.text)
                parts.append(
                    tantivy.Query.phrase_query(self.schema, "tri", list(grams))
                    if len(grams) > 1
                    else tantivy.Query.term_query(self.schema, "tri", grams[0])
                )
            elif term.kind == "bigram" and len(term.text) == 1:  # FTS5: the prefix "x"*
                parts.append(tantivy.Query.regex_query(self.schema, "bi", term.text + "."))
            else:
                parts.append(tantivy.Query.term_query(self.schema, "bi", term.text))
        if not parts:
            return None
        if len(parts) == 1:
            return parts[0]
        return tantivy.Query.boolean_query([(tantivy.Occur.Must, p) for p in parts])

    def ranked(self, terms: list[Term], n: int, sort: Sort = "relevance") -> rows.Ranked:
        query = self.query(terms)
        if query is None:
            return []
        if sort == "newest":
            found = self.searcher.search(
                query, n, count=False, order_by_field="rid", order=tantivy.Order.Desc
            ).hits
            rids = self.searcher.fast_field_values("rid", [a for _, a in found])
            return [(int(r), 0.0) for r in rids if r is not None]
        # twice as many as asked, so that ties at the cut go to the higher rowid
        found = self.searcher.search(query, 2 * n, count=False).hits
        rids = self.searcher.fast_field_values("rid", [a for _, a in found])
        scored = [
            (int(r), float(s)) for (s, _), r in zip(found, rids, strict=True) if r is not None
        ]
        scored.sort(key=lambda x: (-x[1], -x[0]))
        return scored[:n]

    def count(self, terms: list[Term]) -> int:
        query = self.query(terms)
        if query is None:
            return 0
        found = self.searcher.search(query, 1, count=True)
        return int(getattr(found, "count", 0) or 0)  # the stub does not declare it


class TantivyStore(Store):
    """The SQLite store with its ranking done by tantivy: `search()` unchanged otherwise
    (fields and snippets read from SQLite)."""

    engine_: Tantivy | None = None

    @contextmanager
    def _ranking(self, sort: Sort) -> Iterator[Ranking]:
        engine = self.engine_
        assert engine is not None

        def ranked(terms: list[Term], n: int) -> rows.Ranked:
            return engine.ranked(terms, n, sort)

        yield ranked


# -- FTS5, as the store ranks ----------------------------------------------------------------


def fts5_ranked(store: Store, terms: list[Term], n: int) -> rows.Ranked:
    """The store's bm25 ranking SQL over every match (no answer cache)."""
    match = fulltext.match_expressions(terms)
    return [] if match is None else store._ranked(match, n, "relevance")


def fts5_count(store: Store, terms: list[Term]) -> int:
    match = fulltext.match_expressions(terms)
    if match is None:
        return 0
    if match.trigram and match.bigram:
        sql = (
            "SELECT count(*) FROM candidates_fts WHERE candidates_fts MATCH ? AND rowid IN"
            " (SELECT rowid FROM candidates_bigrams WHERE candidates_bigrams MATCH ?)"
        )
        return int(store.db.execute(sql, [match.trigram, match.bigram]).fetchone()[0])
    table = "candidates_fts" if match.trigram else "candidates_bigrams"
    return int(
        store.db.execute(
            f"SELECT count(*) FROM {table} WHERE {table} MATCH ?", [match.trigram or match.bigram]
        ).fetchone()[0]
    )


# -- the comparison --------------------------------------------------------------------------

ENGINES = ("fts5_search", "tantivy_search", "fts5_rank", "tantivy_rank")


def bench_queries(db: Path, tv_path: Path, repeat: int) -> dict[str, Any]:
    store = Store(db)
    tv = Tantivy(tv_path)
    tv_store = TantivyStore(db)
    tv_store.engine_ = tv
    rid_of = {r[1]: r[0] for r in store.db.execute("SELECT rid, id FROM candidates")}

    def fts5_search(q: str) -> None:
        store.clear_search_cache()  # as bench/run.py's cold search: bm25 over every match
        store.search(q)

    runs: dict[str, Callable[[str], object]] = {
        "fts5_search": fts5_search,
        "tantivy_search": lambda q: tv_store.search(q),
        "fts5_rank": lambda q: rows.ranked_rows(
            q, TOP, "relevance", lambda t, n: fts5_ranked(store, t, n)
        ),
        "tantivy_rank": lambda q: rows.ranked_rows(q, TOP, "relevance", tv.ranked),
    }
    out: dict[str, Any] = {}
    for kind, queries in QUERIES.items():
        samples: dict[str, list[float]] = {e: [] for e in ENGINES}
        per_query: dict[str, Any] = {}
        for q in queries:
            mine: dict[str, list[float]] = {e: [] for e in ENGINES}
            for run in runs.values():
                run(q)  # warm
            for _ in range(repeat):
                for engine, run in runs.items():
                    mine[engine] += timed(lambda run=run, q=q: run(q), 1)  # type: ignore[misc]
            for engine in ENGINES:
                samples[engine] += mine[engine]
            exact = fulltext.terms(q)
            fts_top = [r for r, _ in fts5_ranked(store, exact, TOP)]
            tv_top = [r for r, _ in tv.ranked(exact, TOP)]
            store.clear_search_cache()
            ours = [rid_of[h.id] for h in store.search(q, snippets=False)]
            theirs = [rid_of[h.id] for h in tv_store.search(q, snippets=False)]
            per_query[q] = {
                "terms": [f"{t.text}:{t.kind}" for t in exact],
                "fts5_matches": fts5_count(store, exact),
                "tantivy_matches": tv.count(exact),
                "top": len(fts_top),
                "agreement": len(set(fts_top) & set(tv_top)),
                "search_hits": len(ours),
                "search_agreement": len(set(ours) & set(theirs)),
                **{f"{e}_p50_ms": statistics.median(mine[e]) for e in ENGINES},
                **{f"{e}_p99_ms": pct(mine[e], 99) for e in ENGINES},
            }
        out[kind] = {
            **{f"{e}_p50_ms": statistics.median(samples[e]) for e in ENGINES},
            **{f"{e}_p99_ms": pct(samples[e], 99) for e in ENGINES},
            "queries": per_query,
        }
    store.close()
    tv_store.close()
    return out


def report(r: dict[str, Any]) -> str:
    ix, tv, reused = r.get("index"), r.get("tantivy"), r.get("tantivy_reused")
    lines = [
        f"Debrief SQLite FTS5 beside {VERSION}, {r['count']:,} transcripts,"
        f" SQLite {sqlite3.sqlite_version}, {r['repeat']} repetitions a query;"
        f" load average {r['load_start']} at the start, {r['load_end']} at the end",
        "",
        "1. indexing                          seconds   on disk MB",
    ]
    if ix is not None:
        lines += [
            f"   debrief index (SQLite, from files) {ix['index_seconds']:8.1f}   {ix['db_mb']:9.0f}",
            f"   bare FTS5 trigram executemany      {ix['baseline_seconds']:8.1f}",
        ]
    else:
        lines.append(f"   SQLite database (reused)                   {r['sqlite_mb']:9.0f}")
    if tv is not None:
        lines += [
            f"   tantivy from the SQLite store      {tv['seconds']:8.1f}   {tv['mb']:9.0f}"
            f"   ({tv['docs']:,} docs, heap {tv['heap_mb']:.0f} MB, {tv['threads']} thread;"
            f" Python tokens {tv['tokenize_seconds']:.0f} s, add {tv['add_seconds']:.0f} s,"
            f" commit {tv['commit_seconds']:.1f} s, merges {tv['merge_wait_seconds']:.1f} s;"
            f" {tv['segments']} segments, {tv['files']} files)",
            f"   token counts equal to FTS5's docsize:"
            f" {tv['token_check_rows'] - tv['token_check_mismatches']}/{tv['token_check_rows']} rows",
        ]
    if reused is not None:
        lines.append(
            f"   tantivy index (reused)                     {reused['mb']:9.0f}"
            f"   ({reused['docs']:,} docs, {reused['segments']} segments)"
        )
    lines += [
        "",
        "2. search, ms       search() FTS5 cold   search() tantivy   ranking FTS5     ranking tantivy",
        "   mix               p50     p99          p50     p99        p50     p99      p50     p99",
    ]
    for kind, s in r["search"].items():
        cells = "".join(f"  {s[f'{e}_p50_ms']:7.1f} {s[f'{e}_p99_ms']:7.1f}   " for e in ENGINES)
        lines.append(f"   {kind:<10}{cells}")
    lines += [
        "",
        "3. per query       matches FTS5  tantivy  top 10 shared with:  search() p50 / p99 ms",
        "                                              exact bm25  search()"
        "   FTS5 cold        tantivy",
    ]
    for s in r["search"].values():
        for q, g in s["queries"].items():
            lines.append(
                f"   {q:<18} {g['fts5_matches']:9} {g['tantivy_matches']:8}"
                f"   {g['agreement']:8}/{g['top']:<2} {g['search_agreement']:6}/{g['search_hits']:<2}"
                f"  {g['fts5_search_p50_ms']:7.1f} {g['fts5_search_p99_ms']:7.1f}"
                f"  {g['tantivy_search_p50_ms']:6.1f} {g['tantivy_search_p99_ms']:6.1f}"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=40, help="timed runs of each query")
    parser.add_argument(
        "--sqlite", metavar="PATH", help="a SQLite file already holding the corpus: no indexing"
    )
    parser.add_argument(
        "--tantivy",
        metavar="DIR",
        help="with --sqlite: a tantivy index this script built from that file: no building",
    )
    parser.add_argument("--keep", metavar="DIR", help="build in DIR and leave the indexes there")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)

    figures: dict[str, Any] = {"count": args.count, "repeat": args.repeat, "load_start": loadavg()}
    with tempfile.TemporaryDirectory(prefix="debrief-engines-") as tmp:
        work = Path(args.keep or tmp)
        work.mkdir(parents=True, exist_ok=True)
        if args.sqlite:
            db = Path(args.sqlite)
            figures["sqlite_mb"] = (
                sum(f.stat().st_size for f in db.parent.glob(db.name + "*")) / 1e6
            )
        else:
            folder = build_corpus(args.count, args.seed)
            raw, files = raw_size(folder)
            figures["index"] = bench_index(folder, files, raw, work)
            (work / "baseline.db").unlink(missing_ok=True)
            db = work / "bench.db"
        if args.tantivy:
            tv_path = Path(args.tantivy)
            index = open_index(tv_path)
            figures["tantivy_reused"] = {
                "docs": index.searcher().num_docs,
                "segments": index.searcher().num_segments,
                "mb": dir_bytes(tv_path) / 1e6,
            }
        else:
            tv_path = work / "tantivy"
            shutil.rmtree(tv_path, ignore_errors=True)
            figures["tantivy"] = build_tantivy(db, tv_path)
        figures["search"] = bench_queries(db, tv_path, args.repeat)
        figures["load_end"] = loadavg()
    print(report(figures))
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
