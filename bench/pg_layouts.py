"""PostgreSQL full-text layouts side by side: load time, size, search p50/p99 and top 10.

    python bench/pg_layouts.py --db postgresql://... --count 20000 [--json]

The database must be empty (each layout gets a schema of its own in it, dropped at the
end unless --keep). In one run, on the same generated corpus (bench/corpus.py, cached):

- `sqlite`: `debrief index` into a temporary SQLite file (or --reuse-sqlite), the
  reference ranking;
- `current`: `debrief index` into schema `cur`, the real schema as it is today
  (skipped with --skip-current-pg);
- `base`: `debrief index` into schema `base` with the frequency rows left out
  (`store.pg.postings.Rows.add` made a no-op in that process only): every other table,
  the `fts` column and its pg_trgm index. Each layout below is built beside it from
  base's `candidates.fts`, tokenized exactly as postings.py does it, and is searched
  over base's candidates: its index-time estimate is base's time plus its own load
  (tokenizing, COPY, index builds, ANALYZE; reading `fts` back is measured apart and left
  out), its size base's plus its own tables';
- `rows-bulk`: today's frequency tables (one row per key and candidate), rows COPYed
  first, primary keys and other indexes built after;
- `blocks`: compressed postings: one row per key and block of BLOCK consecutive rids
  (rid >> 7 with the default 128), int arrays of rids and frequencies, the lengths bm25
  needs in a side table (`docs`: one row per block, arrays indexed by the rid's offset in
  it, so a block of postings meets its lengths in one join, not one per posting); views
  named like today's tables unnest them, so the
  product's own search code (store/pg/search.py, unchanged) ranks over them;
- `tsvector`: one tsvector per candidate over the same tokens (CJK bigrams, short
  Latin words, words, runs), positions = character offsets (a CJK phrase is its bigrams
  at consecutive positions), under a GIN index. Ranked two ways: bm25 with the frequencies
  read back from each match's tsvector (`unnest`, scored in Python with the same
  formula), and PostgreSQL's ts_rank (not bm25).

Search: every query of bench/run.py's QUERIES through `rows.ranked_rows` (the phrase,
then its words), the answer cache cleared before each call (idf and corpus figures stay
cached, as in the product); no snippets, on every layout alike. The top 10 of each is
compared with SQLite's (same ids in the same order; ids shared). Nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from run import QUERIES, build_corpus, loadavg, pct, raw_size  # noqa: E402

from store import fulltext, rows  # noqa: E402
from store.factory import open_store  # noqa: E402
from store.fulltext import CJK_RANGES, Term, is_cjk  # noqa: E402
from store.hits import HitSearch  # noqa: E402
from store.pg.postings import MAX_KEY, postings, runs, words  # noqa: E402
from store.pg.terms_sql import K1, B  # noqa: E402

Conn = psycopg.Connection[Any]
LAYOUTS = ("rows-bulk", "blocks", "tsvector")
SLOW_MS = 2000.0  # a query slower than this the first time is not repeated
MAINTENANCE_MEM = "1GB"

# `debrief index` without the frequency rows: what every layout shares.
NO_ROWS = (
    "import runpy, sys\n"
    "from store.pg.postings import Rows\n"
    "Rows.add = lambda self, rid, tokens, fts: None\n"
    "sys.argv = ['debrief', *sys.argv[1:]]\n"
    "runpy.run_module('bot', run_name='__main__', alter_sys=True)\n"
)


def in_schema(url: str, *schemas: str, jit: bool = True) -> str:
    sep = "&" if "?" in url else "?"
    options = "-csearch_path=" + ",".join([*schemas, "public"]) + ("" if jit else " -cjit=off")
    return f"{url}{sep}options={quote(options, safe='')}"


def index(folder: Path, db: str, without_rows: bool = False) -> float:
    head = ["-c", NO_ROWS] if without_rows else ["-m", "bot"]
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *head, "index", str(folder), "--db", db, "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"index into {db} failed: {done.stderr[-3000:]}")
    return time.perf_counter() - started


def connect(url: str) -> Conn:
    return psycopg.connect(url, autocommit=True)


def schema_sizes(conn: Conn, schema: str) -> dict[str, int]:
    """Each table's pg_total_relation_size (heap, TOAST, indexes) in `schema`."""
    found = conn.execute(
        "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c"
        " JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = %s AND c.relkind IN ('r', 'm')",
        [schema],
    ).fetchall()
    return {str(name): int(size) for name, size in found if size}


def relation_size(conn: Conn, name: str) -> int:
    row = conn.execute("SELECT pg_relation_size(to_regclass(%s))", [name]).fetchone()
    return int(row[0]) if row and row[0] is not None else 0


# -- the documents, as postings.py tokenizes them -------------------------------------


def documents(url: str, chunk: int = 500) -> Iterator[tuple[int, str]]:
    """(rid, fts) of base's candidates, in rid order (a server-side cursor)."""
    with psycopg.connect(url) as conn, conn.cursor(name="docs") as cur:
        cur.itersize = chunk
        cur.execute("SELECT rid, fts FROM base.candidates ORDER BY rid")
        for rid, fts in cur:
            yield int(rid), str(fts)


_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def copy_text(key: str) -> str:
    return key.translate(_COPY_ESCAPES)


class Copier:
    """One COPY per table, each on its own connection, fed in chunks."""

    def __init__(self, url: str, stack: ExitStack, tables: dict[str, str]) -> None:
        self._copies: dict[str, Any] = {}
        self._buffers: dict[str, list[str]] = {}
        for table, columns in tables.items():
            conn = stack.enter_context(connect(url))
            cur = stack.enter_context(conn.cursor())
            self._copies[table] = stack.enter_context(
                cur.copy(f"COPY {table} ({columns}) FROM STDIN")
            )
            self._buffers[table] = []

    def add(self, table: str, line: str) -> None:
        buffer = self._buffers[table]
        buffer.append(line)
        if len(buffer) >= 20000:
            self.flush(table)

    def flush(self, table: str | None = None) -> None:
        for name in [table] if table else list(self._buffers):
            if self._buffers[name]:
                self._copies[name].write("".join(self._buffers[name]))
                self._buffers[name] = []


def split_long(found: list[tuple[str, int, int, int]]) -> tuple[list[Any], list[Any]]:
    short = [r for r in found if len(r[0]) <= MAX_KEY]
    return short, [r for r in found if len(r[0]) > MAX_KEY]


@dataclass
class Load:
    """What building one layout took and holds."""

    seconds: float = 0.0
    phases: dict[str, float] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)


def run_ddl(conn: Conn, statements: list[str]) -> None:
    for sql in statements:
        conn.execute(sql)


def finish(conn: Conn, schema: str, statements: list[str], load: Load, started: float) -> None:
    """Indexes after the rows, then VACUUM ANALYZE (a bulk load leaves the visibility map
    unset: index-only scans would visit the heap for every row); phase times into `load`."""
    t = time.perf_counter()
    conn.execute(f"SET maintenance_work_mem = '{MAINTENANCE_MEM}'")
    conn.execute(f"SET search_path = {schema}, base, public")
    run_ddl(conn, statements)
    # base's migration record, seen first: opening a store creates `_migrations` where
    # none is visible in the first schema of its path
    conn.execute(f"CREATE VIEW {schema}._migrations AS SELECT * FROM base._migrations")
    load.phases["indexes_s"] = time.perf_counter() - t
    t = time.perf_counter()
    for (name,) in conn.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = %s AND c.relkind = 'r'",
        [schema],
    ).fetchall():
        conn.execute(f"VACUUM ANALYZE {schema}.{name}")
    load.phases["vacuum_analyze_s"] = time.perf_counter() - t
    load.seconds = time.perf_counter() - started


_TABLE_DDL = [
    'CREATE TABLE {s}.{t} ({k} TEXT COLLATE "C" NOT NULL, rid BIGINT NOT NULL,'
    " tf INTEGER NOT NULL, dl INTEGER NOT NULL)"
]


def vocabulary_and_long(schema: str) -> list[str]:
    """Vocabularies and the long-key tables, as today (pg005, pg006, pg010)."""
    out = [
        f'CREATE TABLE {schema}.vocabulary (word TEXT COLLATE "C" NOT NULL)',
        f'CREATE TABLE {schema}.run_vocabulary (run TEXT COLLATE "C" NOT NULL)',
    ]
    for table, key in (("long_words", "word"), ("long_runs", "run")):
        out.append(_TABLE_DDL[0].format(s=schema, t=table, k=key))
    return out


VOCABULARY_INDEXES = [
    "ALTER TABLE vocabulary ADD PRIMARY KEY (word)",
    "CREATE INDEX vocabulary_trgm ON vocabulary USING gin (word gin_trgm_ops)",
    "ALTER TABLE run_vocabulary ADD PRIMARY KEY (run)",
    "CREATE INDEX long_words_rid ON long_words (rid)",
    "CREATE INDEX long_words_trgm ON long_words USING gin (word gin_trgm_ops)",
    "CREATE INDEX long_runs_rid ON long_runs (rid)",
    "CREATE INDEX long_runs_trgm ON long_runs USING gin (run gin_trgm_ops)",
]


def write_vocabulary(
    url: str, vocab: dict[str, set[str]], long_rows: dict[str, list[Any]], load: Load
) -> None:
    with ExitStack() as stack:
        copier = Copier(
            url,
            stack,
            {
                "vocabulary": "word",
                "run_vocabulary": "run",
                "long_words": "word, rid, tf, dl",
                "long_runs": "run, rid, tf, dl",
            },
        )
        for table, keys in vocab.items():
            for key in sorted(keys):
                copier.add(table, copy_text(key) + "\n")
        for table, found in long_rows.items():
            for key, rid, tf, dl in found:
                copier.add(table, f"{copy_text(key)}\t{rid}\t{tf}\t{dl}\n")
        copier.flush()
    load.counts["vocabulary"] = len(vocab["vocabulary"])
    load.counts["run_vocabulary"] = len(vocab["run_vocabulary"])
    load.counts["long_rows"] = sum(len(v) for v in long_rows.values())


def load_rows_bulk(url: str, schema: str) -> Load:
    """Today's tables, one row per key and candidate; indexes after the rows."""
    load = Load()
    conn = connect(url)
    run_ddl(
        conn,
        [f"CREATE SCHEMA {schema}"]
        + [
            _TABLE_DDL[0].format(s=schema, t=t, k=k)
            for t, k in (("postings", "term"), ("words", "word"), ("runs", "run"))
        ]
        + vocabulary_and_long(schema),
    )
    started = time.perf_counter()
    vocab: dict[str, set[str]] = {"vocabulary": set(), "run_vocabulary": set()}
    long_rows: dict[str, list[Any]] = {"long_words": [], "long_runs": []}
    n = Counter[str]()
    target = in_schema(url, schema)
    with ExitStack() as stack:
        copier = Copier(
            target,
            stack,
            {
                "postings": "term, rid, tf, dl",
                "words": "word, rid, tf, dl",
                "runs": "run, rid, tf, dl",
            },
        )
        for rid, fts in documents(url):
            found = {
                "postings": list(postings(rid, fulltext.bigrams(fts).split())),
                "words": list(words(rid, fts)),
                "runs": list(runs(rid, fts)),
            }
            for table, got in found.items():
                short, long = (got, []) if table == "postings" else split_long(got)
                if table != "postings":
                    long_rows["long_" + table] += long
                    vocab["vocabulary" if table == "words" else "run_vocabulary"].update(
                        r[0] for r in short
                    )
                n[table] += len(short)
                for key, r, tf, dl in short:
                    copier.add(table, f"{copy_text(key)}\t{r}\t{tf}\t{dl}\n")
        copier.flush()
    load.phases["tokenize_copy_s"] = time.perf_counter() - started
    write_vocabulary(target, vocab, long_rows, load)
    load.counts.update({f"{t}_rows": c for t, c in n.items()})
    finish(
        conn,
        schema,
        [
            "ALTER TABLE postings ADD PRIMARY KEY (term, rid) INCLUDE (tf, dl)",
            "ALTER TABLE words ADD PRIMARY KEY (word, rid) INCLUDE (tf, dl)",
            "ALTER TABLE runs ADD PRIMARY KEY (run, rid) INCLUDE (tf, dl)",
            "CREATE INDEX runs_rid ON runs (rid)",
            *VOCABULARY_INDEXES,
        ],
        load,
        started,
    )
    conn.close()
    return load


def load_blocks(url: str, schema: str, block_bits: int) -> Load:
    """One row per key and block of 2**block_bits consecutive rids: arrays of rids and
    frequencies; the lengths in `docs`; views with today's names and columns."""
    load = Load()
    conn = connect(url)
    keys = {"b_postings": "term", "b_words": "word", "b_runs": "run"}
    run_ddl(
        conn,
        [f"CREATE SCHEMA {schema}"]
        + [
            f'CREATE TABLE {schema}.{t} ({k} TEXT COLLATE "C" NOT NULL, block INTEGER NOT NULL,'
            " rids INTEGER[] NOT NULL, tfs INTEGER[] NOT NULL)"
            for t, k in keys.items()
        ]
        + [
            f"CREATE TABLE {schema}.docs (block INTEGER NOT NULL, blens INTEGER[] NOT NULL,"
            " flens INTEGER[] NOT NULL)"
        ]
        + vocabulary_and_long(schema),
    )
    started = time.perf_counter()
    vocab: dict[str, set[str]] = {"vocabulary": set(), "run_vocabulary": set()}
    long_rows: dict[str, list[Any]] = {"long_words": [], "long_runs": []}
    n = Counter[str]()
    target = in_schema(url, schema)
    with ExitStack() as stack:
        copier = Copier(
            target,
            stack,
            {
                **{t: f"{k}, block, rids, tfs" for t, k in keys.items()},
                "docs": "block, blens, flens",
            },
        )
        current = -1
        pending: dict[str, dict[str, tuple[list[int], list[int]]]] = {t: {} for t in keys}
        size = 1 << block_bits
        blens = [0] * size
        flens = [0] * size

        def emit() -> None:
            if current >= 0:
                copier.add(
                    "docs",
                    f"{current}\t{{{','.join(map(str, blens))}}}\t{{{','.join(map(str, flens))}}}\n",
                )
                blens[:] = flens[:] = [0] * size
            for table, by_key in pending.items():
                for key, (rids, tfs) in by_key.items():
                    copier.add(
                        table,
                        f"{copy_text(key)}\t{current}\t{{{','.join(map(str, rids))}}}"
                        f"\t{{{','.join(map(str, tfs))}}}\n",
                    )
                    n[table] += 1
                    n[table + "_postings"] += len(rids)
                by_key.clear()

        for rid, fts in documents(url):
            block = rid >> block_bits
            if block != current:
                emit()
                current = block
            tokens = fulltext.bigrams(fts).split()
            blens[rid - (block << block_bits)] = len(tokens)
            flens[rid - (block << block_bits)] = len(fts)
            for term, tf in Counter(tokens).items():
                got = pending["b_postings"].get(term)
                if got is None:
                    pending["b_postings"][term] = ([rid], [tf])
                else:
                    got[0].append(rid)
                    got[1].append(tf)
            for table, found in (("words", words(rid, fts)), ("runs", runs(rid, fts))):
                short, long = split_long(list(found))
                long_rows["long_" + table] += long
                vocab["vocabulary" if table == "words" else "run_vocabulary"].update(
                    r[0] for r in short
                )
                by_key = pending["b_" + table]
                for key, _rid, tf, _dl in short:
                    got = by_key.get(key)
                    if got is None:
                        by_key[key] = ([rid], [tf])
                    else:
                        got[0].append(rid)
                        got[1].append(tf)
        emit()
        copier.flush()
    load.phases["tokenize_copy_s"] = time.perf_counter() - started
    write_vocabulary(target, vocab, long_rows, load)
    load.counts.update(n)
    offset = f"u.rid - (b.block << {block_bits}) + 1"
    views = [
        f"CREATE VIEW {t} AS SELECT b.{k}, u.rid::bigint AS rid, u.tf, d.{lens}[{offset}] AS dl"
        f" FROM b_{t} b JOIN docs d ON d.block = b.block"
        " CROSS JOIN LATERAL unnest(b.rids, b.tfs) AS u(rid, tf)"
        for t, k, lens in (
            ("postings", "term", "blens"),
            ("words", "word", "flens"),
            ("runs", "run", "flens"),
        )
    ]
    finish(
        conn,
        schema,
        [
            "ALTER TABLE b_postings ADD PRIMARY KEY (term, block)",
            "ALTER TABLE b_words ADD PRIMARY KEY (word, block)",
            "ALTER TABLE b_runs ADD PRIMARY KEY (run, block)",
            "ALTER TABLE docs ADD PRIMARY KEY (block)",
            *VOCABULARY_INDEXES,
            *views,
        ],
        load,
        started,
    )
    conn.close()
    return load


# -- tsvector ---------------------------------------------------------------------------

_BIGRAM_AT = re.compile(f"(?=[{CJK_RANGES}]{{2}})")
_SHORT_RE = fulltext._SHORT_RE  # the short Latin words `fulltext.bigrams` keeps
_WORD_RE = re.compile("[0-9a-z]{3,}")
_RUN_RE = re.compile(f"[^{CJK_RANGES}\\s]+")
_ALNUM_RE = re.compile("[0-9a-z]+")
MAX_POS = 16383  # tsvector positions stop there
MAX_POSITIONS = 256  # and keep at most this many per lexeme
MAX_LEXEME = 2046  # bytes


def tsvector_of(fts: str, skipped: Counter[str]) -> tuple[str, int]:
    """(tsvector literal, bigram-side token count) of one candidate's text: every token
    at its character offset + 1."""
    at: dict[str, list[int]] = {}
    blen = 0
    for m in _BIGRAM_AT.finditer(fts):
        at.setdefault(fts[m.start() : m.start() + 2], []).append(m.start() + 1)
        blen += 1
    for m in _SHORT_RE.finditer(fts):
        at.setdefault(m.group(), []).append(m.start() + 1)
        blen += 1
    for m in _WORD_RE.finditer(fts):
        at.setdefault(m.group(), []).append(m.start() + 1)
    for m in _RUN_RE.finditer(fts):
        if not _ALNUM_RE.fullmatch(m.group()):
            at.setdefault(m.group(), []).append(m.start() + 1)
    parts = []
    for lexeme, positions in at.items():
        if len(lexeme.encode()) > MAX_LEXEME:
            skipped["long_lexemes"] += 1
            continue
        if len(positions) > MAX_POSITIONS:
            skipped["positions_over_256"] += 1
        if positions[-1] > MAX_POS:
            skipped["positions_over_16383"] += 1
        kept = sorted({min(p, MAX_POS) for p in positions[:MAX_POSITIONS]})
        quoted = lexeme.replace("\\", "\\\\").replace("'", "''")
        parts.append(f"'{quoted}':{','.join(map(str, kept))}")
    return " ".join(parts), blen


def load_tsvector(url: str, schema: str) -> Load:
    load = Load()
    conn = connect(url)
    run_ddl(
        conn,
        [
            f"CREATE SCHEMA {schema}",
            f"CREATE TABLE {schema}.tdocs (rid BIGINT NOT NULL, blen INTEGER NOT NULL,"
            " flen INTEGER NOT NULL, tsv TSVECTOR NOT NULL)",
        ],
    )
    started = time.perf_counter()
    skipped = Counter[str]()
    with ExitStack() as stack:
        copier = Copier(in_schema(url, schema), stack, {"tdocs": "rid, blen, flen, tsv"})
        for rid, fts in documents(url):
            literal, blen = tsvector_of(fts, skipped)
            copier.add("tdocs", f"{rid}\t{blen}\t{len(fts)}\t{copy_text(literal)}\n")
        copier.flush()
    load.phases["tokenize_copy_s"] = time.perf_counter() - started
    load.counts.update(skipped)
    finish(
        conn,
        schema,
        [
            "ALTER TABLE tdocs ADD PRIMARY KEY (rid)",
            "CREATE INDEX tdocs_tsv ON tdocs USING gin (tsv)",
        ],
        load,
        started,
    )
    conn.close()
    return load


def read_seconds(url: str) -> float:
    """Reading every candidate's fts back (part of each layout's load, not of a save)."""
    started = time.perf_counter()
    for _ in documents(url):
        pass
    return time.perf_counter() - started


def _lex(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def tsquery_of(term: Term) -> str:
    """The tsquery matching `term` over `tsvector_of`'s lexemes. A Latin term of 3+
    characters matches the words and runs it begins (a tsquery prefix); one inside a
    word (`flow` in `tensorflow`) is not found: tsvector has no infix match."""
    if term.kind == "trigram" and is_cjk(term.text):
        grams = [term.text[i : i + 2] for i in range(len(term.text) - 1)]
        return "(" + " <-> ".join(_lex(g) for g in grams) + ")"
    if term.kind == "trigram" or (term.kind == "bigram" and len(term.text) == 1):
        return _lex(term.text) + ":*"
    return _lex(term.text)


def _phrase_count(grams: list[str], at: dict[str, list[int]], length: int) -> int:
    """Non-overlapping occurrences of a CJK phrase from its bigrams' positions."""
    sets = [set(at.get(g, ())) for g in grams]
    count = 0
    last_end = -1
    for p in sorted(sets[0]):
        if p >= last_end and all(p + i in s for i, s in enumerate(sets)):
            count += 1
            last_end = p + length
    return count


class TsvRanking:
    """bm25 (store/pg/search.py's formula) or ts_rank over the `tsvector` layout."""

    def __init__(self, url: str, schema: str) -> None:
        self.conn = connect(in_schema(url, schema))
        self.conn.execute("SET statement_timeout = '60s'")
        self.conn.execute("SET work_mem = '64MB'")
        row = self.conn.execute(
            "SELECT count(*), coalesce(avg(flen), 1), coalesce(avg(blen), 1) FROM tdocs"
        ).fetchone()
        assert row is not None
        self.n, self.avg_fts, self.avg_terms = int(row[0]), float(row[1]), float(row[2])
        self.df: dict[Term, int] = {}

    def idf(self, term: Term) -> float:
        hits = self.df.get(term)
        if hits is None:
            row = self.conn.execute(
                "SELECT count(*) FROM tdocs WHERE tsv @@ %s::tsquery", [tsquery_of(term)]
            ).fetchone()
            hits = self.df[term] = int(row[0]) if row else 0
        idf = math.log((self.n - hits + 0.5) / (hits + 0.5))
        return idf if idf > 0 else 1e-6

    def bm25(self, terms: list[Term], limit: int) -> list[tuple[int, float]]:
        if not terms:
            return []
        query = " & ".join(tsquery_of(t) for t in terms)
        exact = [t.text for t in terms if tsquery_of(t)[-2:] != ":*" and not is_cjk_long(t)]
        exact += [g for t in terms if is_cjk_long(t) for g in grams_of(t)]
        prefixes = [_like_prefix(t.text) for t in terms if tsquery_of(t)[-2:] == ":*"]
        found = self.conn.execute(
            "SELECT d.rid, d.blen, d.flen, u.lexeme, u.positions FROM tdocs d,"
            " unnest(d.tsv) AS u WHERE d.tsv @@ %s::tsquery"
            " AND (u.lexeme = ANY(%s) OR u.lexeme LIKE ANY(%s))",
            [query, exact, prefixes],
        ).fetchall()
        docs: dict[int, tuple[int, int, dict[str, list[int]]]] = {}
        for rid, blen, flen, lexeme, positions in found:
            docs.setdefault(int(rid), (int(blen), int(flen), {}))[2][str(lexeme)] = list(positions)
        weights = [(t, self.idf(t)) for t in terms]
        scored: list[tuple[int, float]] = []
        for rid, (blen, flen, at) in docs.items():
            score = 0.0
            for term, idf in weights:
                if is_cjk_long(term):
                    tf, dl, avg = (
                        _phrase_count(grams_of(term), at, len(term.text)),
                        flen,
                        self.avg_fts,
                    )
                elif term.kind == "trigram":
                    tf = sum(len(p) for lx, p in at.items() if lx.startswith(term.text))
                    dl, avg = flen, self.avg_fts
                elif term.kind == "bigram" and len(term.text) == 1:
                    tf = sum(len(p) for lx, p in at.items() if lx.startswith(term.text))
                    dl, avg = blen, self.avg_terms
                else:
                    tf, dl, avg = len(at.get(term.text, ())), blen, self.avg_terms
                score += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / avg))
            scored.append((rid, score))
        scored.sort(key=lambda s: (-s[1], -s[0]))
        return scored[:limit]

    def ts_rank(self, terms: list[Term], limit: int) -> list[tuple[int, float]]:
        if not terms:
            return []
        query = " & ".join(tsquery_of(t) for t in terms)
        found = self.conn.execute(
            "SELECT rid, ts_rank(tsv, q) AS r FROM tdocs, CAST(%s AS tsquery) AS q"
            " WHERE tsv @@ q ORDER BY r DESC, rid DESC LIMIT %s",
            [query, limit],
        ).fetchall()
        return [(int(r[0]), float(r[1])) for r in found]


def _like_prefix(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def is_cjk_long(term: Term) -> bool:
    return term.kind == "trigram" and is_cjk(term.text)


def grams_of(term: Term) -> list[str]:
    return [term.text[i : i + 2] for i in range(len(term.text) - 1)]


# -- search ---------------------------------------------------------------------------


def _ms(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def measure(
    top10: Callable[[str], list[str]], cold: Callable[[str], object], repeat: int
) -> dict[str, Any]:
    """Per mix: p50/p99 of `repeat` cold calls per query (a query slower than SLOW_MS
    the first time: that one call), and each query's top 10 ids."""
    out: dict[str, Any] = {}
    for kind, queries in QUERIES.items():
        samples: list[float] = []
        first: list[float] = []
        top: dict[str, list[str]] = {}
        for q in queries:
            took = _ms(lambda q=q: cold(q))  # type: ignore[misc]
            first.append(took)
            if took < SLOW_MS:
                samples += [_ms(lambda q=q: cold(q)) for _ in range(repeat)]  # type: ignore[misc]
            else:
                samples.append(took)
            top[q] = top10(q)
        out[kind] = {
            "first_max_ms": max(first),
            "p50_ms": statistics.median(samples),
            "p99_ms": pct(samples, 99),
            "top10": top,
        }
    return out


def store_search(url: str, repeat: int) -> dict[str, Any]:
    store = open_store(url, create=False)
    assert isinstance(store, HitSearch)

    def cold(q: str) -> object:
        store.clear_search_cache()
        return store.search(q, snippets=False)

    try:
        return measure(lambda q: [h.id for h in store.search(q, snippets=False)], cold, repeat)
    finally:
        store.close()


def tsv_search(url: str, schema: str, repeat: int, how: str) -> dict[str, Any]:
    ranking = TsvRanking(url, schema)
    rank = ranking.bm25 if how == "bm25" else ranking.ts_rank
    ids = dict(ranking.conn.execute("SELECT rid, id FROM base.candidates").fetchall())

    def top(q: str) -> list[str]:
        return [ids[r[0]] for r in rows.ranked_rows(q, 10, "relevance", rank)]

    try:
        return measure(top, top, repeat)
    finally:
        ranking.conn.close()


def agreement(lite: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    per = {
        q: {
            "same_order": ten == other[k]["top10"][q],
            "shared": len(set(ten) & set(other[k]["top10"][q])),
        }
        for k, v in lite.items()
        for q, ten in v["top10"].items()
    }
    return {
        "same_order": sum(p["same_order"] for p in per.values()),
        "shared": sum(p["shared"] for p in per.values()),
        "queries": len(per),
        "per_query": per,
    }


# -- the run ----------------------------------------------------------------------------


@contextmanager
def noted(what: str) -> Iterator[None]:
    started = time.perf_counter()
    print(f"[{time.strftime('%H:%M:%S')}] {what} ...", file=sys.stderr, flush=True)
    yield
    took = time.perf_counter() - started
    print(f"[{time.strftime('%H:%M:%S')}] {what}: {took:.1f} s", file=sys.stderr, flush=True)


def brief(name: str, x: dict[str, Any]) -> str:
    """A layout's figures as they come, without the top 10 lists."""
    agree = x.get("agreement", {})
    shown = {k: v for k, v in x.items() if k not in ("search", "agreement", "tables")}
    shown["search"] = {
        k: [round(v["p50_ms"]), round(v["p99_ms"])] for k, v in x.get("search", {}).items()
    }
    shown["top10"] = [agree.get("same_order"), agree.get("shared")]
    return json.dumps({name: shown}, ensure_ascii=False, default=str)


def _row(x: dict[str, Any], raw: int, lite_s: float) -> str:
    """One layout's figures, blank where it has none."""
    load, idx, own, db, agree = (
        x.get(k) for k in ("load_s", "index_s", "own_bytes", "db_bytes", "agreement")
    )
    cells = [
        "" if load is None else f"{load:6.0f}",
        "" if idx is None else f"{idx:7.0f} ({idx / lite_s:4.1f}x)",
        "" if own is None else f"{own / 1e6:8,.0f}",
        "" if db is None else f"{db / 1e6:7,.0f} ({db / raw:4.1f}x)",
        ""
        if agree is None
        else f"{agree['same_order']:>2}/{agree['queries']} {agree['shared']:>3}/"
        f"{10 * agree['queries']}",
    ]
    widths = [6, 16, 8, 15, 16]
    text = " ".join(f"{c:>{w}}" for c, w in zip(cells, widths, strict=True))
    for s in x.get("search", {}).values():
        text += f"  {s['p50_ms']:6.0f}/{s['p99_ms']:<6.0f}"
    return text


def report(r: dict[str, Any]) -> str:
    raw = r["raw_bytes"]
    lite_s = r["sqlite"]["index_s"]
    lines = [
        f"PostgreSQL full-text layouts, N = {r['count']:,}, raw text {raw / 1e6:,.0f} MB"
        f" (load {r['load_start']} -> {r['load_end']})",
        f"SQLite: index {lite_s:.0f} s{' (' + r['sqlite']['note'] + ')' if r['sqlite'].get('note') else ''},"
        f" file {r['sqlite']['bytes'] / 1e6:,.0f} MB ({r['sqlite']['bytes'] / raw:.1f}x raw)",
        f"base (every table but the frequency rows): index {r['base']['index_s']:.0f} s"
        f"{' (pg_trgm index built after the rows)' if r['base'].get('trgm_after_rows') else ''},"
        f" {r['base']['bytes'] / 1e6:,.0f} MB (pg_trgm index on fts"
        f" {r['base']['fts_trgm_bytes'] / 1e6:,.0f} MB); reading fts back {r['read_s']:.0f} s",
        "",
        "layout        load s  index s (xSQLite)   own MB   DB MB (xraw)  top10 same/shared"
        "  " + "  ".join(f"{k:>13}" for k in QUERIES),
        " " * 81 + "  ".join(f"{'p50/p99 ms':>13}" for _ in QUERIES),
    ]
    for name, x in r["layouts"].items():
        lines.append(f"{name:<13} " + _row(x, raw, lite_s))
        if x.get("note"):
            lines.append(f"{'':14}{x['note']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--db", required=True, help="an empty PostgreSQL database (URL)")
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=5, help="cold calls per query")
    ap.add_argument("--layouts", default=",".join(LAYOUTS), help="of " + ",".join(LAYOUTS))
    ap.add_argument("--block-bits", type=int, default=7, help="blocks of 2**N rids")
    ap.add_argument("--reuse-sqlite", metavar="PATH", help="a SQLite file holding the corpus")
    ap.add_argument(
        "--sqlite-seconds", type=float, help="with --reuse-sqlite: its index time, as measured"
    )
    ap.add_argument("--skip-current-pg", action="store_true", help="no `debrief index` as today")
    ap.add_argument(
        "--tsv-ranking",
        choices=("bm25", "ts_rank", "both"),
        default="both",
        help="how the tsvector layout is ranked (bm25 reads every match's tsvector)",
    )
    ap.add_argument(
        "--defer-trgm",
        action="store_true",
        help="base: build the pg_trgm index on fts after `debrief index` (counted in its time)",
    )
    ap.add_argument("--keep", action="store_true", help="keep the schemas")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = ap.parse_args(argv)
    chosen = [x for x in args.layouts.split(",") if x]
    unknown = set(chosen) - set(LAYOUTS)
    if unknown:
        raise SystemExit(f"unknown layouts: {', '.join(sorted(unknown))}")
    folder = build_corpus(args.count, args.seed)
    raw, _files = raw_size(folder)
    r: dict[str, Any] = {"count": args.count, "raw_bytes": raw, "load_start": loadavg()}
    r["layouts"] = {}
    admin = connect(args.db)
    admin.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
    made: list[str] = []
    try:
        with tempfile.TemporaryDirectory(prefix="debrief-bench-layouts-") as tmp:
            if args.reuse_sqlite:
                lite = args.reuse_sqlite
                r["sqlite"] = {
                    "index_s": args.sqlite_seconds or float("nan"),
                    "note": "reused file: its time as given, not measured in this run",
                }
            else:
                lite = str(Path(tmp) / "bench.db")
                with noted("sqlite index"):
                    r["sqlite"] = {"index_s": index(folder, lite)}
            r["sqlite"]["bytes"] = sum(
                p.stat().st_size for p in Path(lite).parent.glob(Path(lite).name + "*")
            )
            with noted("sqlite search"):
                r["sqlite"]["search"] = store_search(lite, args.repeat)
            lite_search = r["sqlite"]["search"]

            if not args.skip_current_pg:
                admin.execute("CREATE SCHEMA cur")
                made.append("cur")
                url = in_schema(args.db, "cur")
                x: dict[str, Any] = {}
                with noted("current index"):
                    x["index_s"] = index(folder, url)
                sizes = schema_sizes(admin, "cur")
                x.update(own_bytes=sum(sizes.values()), db_bytes=sum(sizes.values()), tables=sizes)
                with noted("current search"):
                    x["search"] = store_search(url, args.repeat)
                x["agreement"] = agreement(lite_search, x["search"])
                r["layouts"]["current"] = x
                print(brief("current", x), file=sys.stderr, flush=True)
                if not args.keep:
                    admin.execute("DROP SCHEMA cur CASCADE")
                    made.remove("cur")

            admin.execute("CREATE SCHEMA base")
            made.append("base")
            base_url = in_schema(args.db, "base")
            if args.defer_trgm:
                # the schema first (migrated by opening it), without the pg_trgm index
                # on fts: `debrief index` fills the table, the index is built after
                open_store(base_url).close()
                admin.execute("DROP INDEX base.candidates_fts")
            with noted("base index"):
                base_s = index(folder, base_url, without_rows=True)
            if args.defer_trgm:
                with noted("base pg_trgm index after the rows"):
                    started = time.perf_counter()
                    admin.execute(f"SET maintenance_work_mem = '{MAINTENANCE_MEM}'")
                    admin.execute(
                        "CREATE INDEX candidates_fts ON base.candidates USING gin (fts gin_trgm_ops)"
                    )
                    admin.execute("VACUUM ANALYZE base.candidates")
                    trgm_s = time.perf_counter() - started
                r["base_trgm_after_s"] = trgm_s
                base_s += trgm_s
            sizes = schema_sizes(admin, "base")
            r["base"] = {
                "index_s": base_s,
                "trgm_after_rows": args.defer_trgm,
                "bytes": sum(sizes.values()),
                "tables": sizes,
                "fts_trgm_bytes": relation_size(admin, "base.candidates_fts"),
            }
            with noted("read fts"):
                r["read_s"] = read_seconds(args.db)

            for name in chosen:
                schema = "l_" + name.replace("-", "_")
                made.append(schema)
                with noted(f"{name} load"):
                    if name == "rows-bulk":
                        load = load_rows_bulk(args.db, schema)
                    elif name == "blocks":
                        load = load_blocks(args.db, schema, args.block_bits)
                    else:
                        load = load_tsvector(args.db, schema)
                sizes = schema_sizes(admin, schema)
                own = sum(sizes.values())
                x = {
                    "load_s": load.seconds,
                    "phases": load.phases,
                    "counts": dict(load.counts),
                    "index_s": base_s + load.seconds - r["read_s"],
                    "own_bytes": own,
                    "db_bytes": r["base"]["bytes"] + own,
                    "tables": sizes,
                }
                # blocks: the product's SQL turns nested loops off for one query, and
                # unnesting arrays is one: its cost then starts JIT compilation (~100 ms)
                url = in_schema(args.db, schema, "base", jit=name != "blocks")
                if name == "tsvector":
                    x["db_bytes_without_trgm"] = x["db_bytes"] - r["base"]["fts_trgm_bytes"]
                    x["note"] = (
                        "DB MB keeps base's pg_trgm index on fts; without it"
                        f" {x['db_bytes_without_trgm'] / 1e6:,.0f} MB"
                        f" ({x['db_bytes_without_trgm'] / raw:.1f}x raw); counts {dict(load.counts)}"
                    )
                    if args.tsv_ranking in ("bm25", "both"):
                        with noted("tsvector bm25 search"):
                            x["search"] = tsv_search(args.db, schema, args.repeat, "bm25")
                        x["agreement"] = agreement(lite_search, x["search"])
                    r["layouts"][name] = x
                    if args.tsv_ranking in ("ts_rank", "both"):
                        y: dict[str, Any] = {"note": "the same tables, ranked by ts_rank"}
                        with noted("tsvector ts_rank search"):
                            y["search"] = tsv_search(args.db, schema, args.repeat, "ts_rank")
                        y["agreement"] = agreement(lite_search, y["search"])
                        r["layouts"]["tsv-ts_rank"] = y
                else:
                    with noted(f"{name} search"):
                        x["search"] = store_search(url, args.repeat)
                    x["agreement"] = agreement(lite_search, x["search"])
                    x["note"] = f"rows {dict(load.counts)}"
                    r["layouts"][name] = x
                print(brief(name, x), file=sys.stderr, flush=True)
                if not args.keep:
                    admin.execute(f"DROP SCHEMA {schema} CASCADE")
                    made.remove(schema)
    finally:
        if not args.keep:
            for schema in made:
                admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        admin.close()
    r["load_end"] = loadavg()
    print(report(r))
    if args.json:
        print(json.dumps(r, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
