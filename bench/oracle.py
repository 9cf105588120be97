"""The exact answer a search must give on SQLite: FTS5's own bm25 over every match
(issue 39's oracle), computed apart from the store's ranking SQL.

A query's terms are the store's own (`fulltext.parse`, as typed); each FTS5 table's
`bm25()` of every row matching all of that table's terms is read without a LIMIT, a
row matching both tables' terms scores the sum of the two, and the order is
(score, newest first among equals) as `Store.search` promises. `search_ms` and this
answer must agree on every bench query (bench/run.py section 2, tests/test_search_oracle.py);
`floor_ms` times what any FTS5 ranking pays before scoring a row: bm25 counts every
match of each phrase for its idf.
"""

from __future__ import annotations

import time
from typing import Any

from store import fulltext
from store.sqlite import space_index


def _scores(db: Any, table: str, expression: str) -> dict[int, float]:
    sql = f"SELECT rowid, bm25({table}) FROM {table} WHERE {table} MATCH ?"
    return {r[0]: r[1] for r in db.execute(sql, [expression])}


def exact_top(db: Any, query: str, k: int = 10, ws: int = 0) -> list[int]:
    """The rowids of the best `k` candidates containing every term of `query` as typed,
    by FTS5's bm25 (lower is better), the newest first among equals."""
    match = fulltext.match_expressions(fulltext.parse(query, segment=False).exact)
    if match is None:
        return []
    trigrams, bigrams = space_index.tables(ws)
    found: dict[int, float] | None = None
    for table, expression in ((trigrams, match.trigram), (bigrams, match.bigram)):
        if expression is None:
            continue
        scores = _scores(db, table, expression)
        found = (
            scores if found is None else {r: s + scores[r] for r, s in found.items() if r in scores}
        )
    assert found is not None
    return sorted(found, key=lambda r: (found[r], -r))[:k]


def floor_ms(db: Any, query: str, ws: int = 0) -> float:
    """How long counting every match of the query's terms takes (each table's part)."""
    match = fulltext.match_expressions(fulltext.parse(query, segment=False).exact)
    if match is None:
        return 0.0
    trigrams, bigrams = space_index.tables(ws)
    started = time.perf_counter()
    for table, expression in ((trigrams, match.trigram), (bigrams, match.bigram)):
        if expression is not None:
            db.execute(
                f"SELECT count(*) FROM {table} WHERE {table} MATCH ?", [expression]
            ).fetchone()
    return (time.perf_counter() - started) * 1000


def block_ms(db: Any, query: str, width: int = 1000, ws: int = 0) -> float:
    """How long FTS5 takes to rank the matches among the newest `width` rowids alone
    (each table's part): what one block costs a block-max ranking over rowid ranges,
    the count of every match for bm25's idf included."""
    match = fulltext.match_expressions(fulltext.parse(query, segment=False).exact)
    if match is None:
        return 0.0
    trigrams, bigrams = space_index.tables(ws)
    started = time.perf_counter()
    for table, expression in ((trigrams, match.trigram), (bigrams, match.bigram)):
        if expression is None:
            continue
        (high,) = db.execute(f"SELECT max(rowid) FROM {table}").fetchone()
        db.execute(
            f"SELECT rowid FROM {table} WHERE {table} MATCH ? AND rowid > ? ORDER BY rank LIMIT 10",
            [expression, (high or 0) - width],
        ).fetchall()
    return (time.perf_counter() - started) * 1000
