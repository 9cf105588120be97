"""Postings kept for the terms a space searches: bm25 over every match from a few arrays.

FTS5's bm25 reads every match's position lists, twice (once to count the matching rows
for the idf, once to score them): for a term found in most transcripts that is most of
a search's time (BENCHMARKS.md, issue 39). So, for each term searched in a space, the
store keeps each matching candidate's instances of it and its size in the term's table
(`search_postings`, blocks of 4,096 rids, a packed array each), and ranks with them:
the same idf, average size and formula as FTS5, computed to the last bit (bm25.py),
so the top 10 is FTS5's exact top 10.

- A term is kept by the first search that uses it (`keep`): FTS5's bm25 of the term
  alone over every match, turned back into instances (bm25.invert, checked by scoring
  again), each with its size from FTS5's `_docsize`. That search takes the write lock
  without waiting; if a writer holds it, the term is kept by a later search.
- Every write that reaches the FTS5 tables updates the kept terms' postings in the same
  transaction (`add_rows`, `remove_row`, `drop_space`), counting each term in the
  saved text as FTS5 does (term_counts.py); a search reads postings and FTS5's row
  count and total size in one snapshot, so they always agree.
- A schema step may write the FTS5 tables itself: every kept posting is dropped after
  any step (migrations.py), and searches keep them again.
- A space keeps its `MAX_KEPT` most recently kept terms; the oldest go first.
- Only terms of ASCII and CJK characters are kept (term_counts.keepable); a query
  with any other term is ranked by FTS5 itself, as before.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import bm25, term_counts
from ..fulltext import Term, match_expressions
from . import space_index

log = logging.getLogger("debrief.store")

Execute = Callable[..., Any]

BLOCK_BITS = 12
_OFFSET_MASK = (1 << BLOCK_BITS) - 1
MAX_KEPT = 128
POSTING = np.dtype([("off", "<u2"), ("tf", "<u4"), ("size", "<u4")])

KeptTerm = tuple[int, str, str]  # (id, kind, text)
Ranked = list[tuple[int, float]]


def kept_terms(execute: Execute, ws: int) -> list[KeptTerm]:
    return [
        (r[0], r[1], r[2])
        for r in execute(
            "SELECT id, kind, term FROM search_terms WHERE ws = ? ORDER BY id", [ws]
        ).fetchall()
    ]


def _table_of(kind: str) -> int:
    return 0 if kind == "trigram" else 1  # index into space_index.tables()


# -- writes: every change to the FTS5 rows of a space with kept terms ---------------------


def add_rows(execute: Execute, ws: int, found: Sequence[tuple[int, tuple[str, str]]]) -> None:
    """The postings of rows just written to space `ws`'s FTS5 tables: (rid, (text,
    bigram row)) as `fulltext.indexed` made them."""
    terms = kept_terms(execute, ws)
    if not terms or not found:
        return
    kinds = {term_id: kind for term_id, kind, _t in terms}
    new: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    for rid, (text, row) in found:
        counted = term_counts.count(text, row, terms)
        for term_id, n in counted.found.items():
            size = counted.trigram_size if _table_of(kinds[term_id]) == 0 else counted.bigram_size
            new.setdefault((term_id, rid >> BLOCK_BITS), []).append((rid & _OFFSET_MASK, n, size))
    for (term_id, block), items in new.items():
        added = np.array(items, dtype=POSTING)
        old = _block(execute, term_id, block)
        if old is not None:
            old = old[~np.isin(old["off"], added["off"])]
            added = np.concatenate([old, added])
        added = added[np.argsort(added["off"], kind="stable")]
        _write_block(execute, term_id, block, added)


def remove_row(execute: Execute, rid: int) -> None:
    """A row leaves its space's FTS5 tables: it leaves the kept terms' postings too."""
    terms = kept_terms(execute, space_index.space_of(rid))
    if not terms:
        return
    block, off = rid >> BLOCK_BITS, rid & _OFFSET_MASK
    ids = [t[0] for t in terms]
    marks = ", ".join("?" for _ in ids)
    for term_id, blob in execute(
        f"SELECT term_id, postings FROM search_postings WHERE term_id IN ({marks}) AND block = ?",
        [*ids, block],
    ).fetchall():
        postings = np.frombuffer(blob, dtype=POSTING)
        kept = postings[postings["off"] != off]
        if len(kept) != len(postings):
            _write_block(execute, term_id, block, kept)


def drop_space(execute: Execute, ws: int) -> None:
    """An erased space's kept terms go with its tables."""
    execute(
        "DELETE FROM search_postings WHERE term_id IN (SELECT id FROM search_terms WHERE ws = ?)",
        [ws],
    )
    execute("DELETE FROM search_terms WHERE ws = ?", [ws])


def _block(execute: Execute, term_id: int, block: int) -> np.ndarray[Any, Any] | None:
    row = execute(
        "SELECT postings FROM search_postings WHERE term_id = ? AND block = ?", [term_id, block]
    ).fetchone()
    return None if row is None else np.frombuffer(row[0], dtype=POSTING)


def _write_block(execute: Execute, term_id: int, block: int, postings: Any) -> None:
    if len(postings) == 0:
        execute("DELETE FROM search_postings WHERE term_id = ? AND block = ?", [term_id, block])
        return
    execute(
        "INSERT OR REPLACE INTO search_postings (term_id, block, postings) VALUES (?, ?, ?)",
        [term_id, block, postings.tobytes()],
    )


# -- keeping a term: from FTS5's own bm25 of it alone -------------------------------------


def _varints(blob: bytes) -> list[int]:
    """SQLite's varints, one after the other (FTS5's sizes and counts)."""
    found = []
    at = 0
    while at < len(blob):
        value = 0
        for k in range(9):
            byte = blob[at]
            at += 1
            if k == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if byte < 0x80:
                break
        found.append(value)
    return found


def _varint(blob: bytes) -> int:
    return _varints(blob)[0]


def averages(execute: Execute, table: str) -> tuple[int, int]:
    """(rows, total tokens) of an FTS5 table: its averages record, as bm25 reads it."""
    row = execute(f"SELECT block FROM {table}_data WHERE id = 1").fetchone()
    found = _varints(bytes(row[0])) if row is not None and row[0] else []
    return (found[0], sum(found[1:])) if found else (0, 0)


def keep(execute: Execute, ws: int, term: Term, rid_range: tuple[int, int]) -> bool:
    """Keep `term`'s postings in space `ws` (inside the caller's write transaction);
    False when FTS5's scores could not be turned back into counts exactly."""
    kind = term_counts.kind_of(term)
    table = space_index.tables(ws)[_table_of(kind)]
    expression = match_expressions([term])
    assert expression is not None
    phrase = expression.trigram or expression.bigram
    low, high = rid_range
    found = execute(
        f"SELECT f.rowid, bm25({table}), d.sz FROM {table} f JOIN {table}_docsize d"
        f" ON d.id = f.rowid WHERE {table} MATCH ? AND f.rowid BETWEEN {low:d} AND {high:d}"
        " ORDER BY f.rowid",
        [phrase],
    ).fetchall()
    rids = np.array([r[0] for r in found], dtype=np.int64)
    scores = np.array([r[1] for r in found], dtype=np.float64)
    sizes = np.array([_varint(r[2]) for r in found], dtype=np.float64)
    n_rows, tokens = averages(execute, table)
    if len(found):
        avgdl = bm25.average_size(n_rows, tokens)
        weight = bm25.idf(n_rows, len(found))
        freqs = bm25.invert(scores, sizes, avgdl, weight)
        again = bm25.table_score([bm25.phrase_part(weight, freqs.astype(np.float64), sizes, avgdl)])
        if not np.array_equal(again, scores) or bool((freqs < 1).any()):
            log.warning("search: FTS5's scores of %r are not bm25's; not kept", term.text)
            return False
    else:
        freqs = np.zeros(0, dtype=np.int64)
    _make_room(execute, ws)
    cursor = execute(
        "INSERT INTO search_terms (ws, kind, term) VALUES (?, ?, ?)", [ws, kind, term.text]
    )
    term_id = int(cursor.lastrowid)
    blocks = rids >> BLOCK_BITS
    for block in np.unique(blocks):
        at = blocks == block
        postings = np.zeros(int(at.sum()), dtype=POSTING)
        postings["off"] = rids[at] & _OFFSET_MASK
        postings["tf"] = freqs[at]
        postings["size"] = sizes[at].astype(np.uint32)
        _write_block(execute, term_id, int(block), postings)
    return True


def _make_room(execute: Execute, ws: int) -> None:
    ids = [r[0] for r in execute("SELECT id FROM search_terms WHERE ws = ? ORDER BY id", [ws])]
    for term_id in ids[: max(0, len(ids) - MAX_KEPT + 1)]:
        execute("DELETE FROM search_postings WHERE term_id = ?", [term_id])
        execute("DELETE FROM search_terms WHERE id = ?", [term_id])


# -- ranking with kept postings ------------------------------------------------------------


def missing(execute: Execute, ws: int, terms: Sequence[Term]) -> list[Term] | None:
    """The terms of a query not kept yet in space `ws`; None when one of them can never
    be (the query is FTS5's to rank)."""
    if not all(term_counts.keepable(t) for t in terms):
        return None
    have = {(kind, text) for _i, kind, text in kept_terms(execute, ws)}
    return [t for t in terms if (term_counts.kind_of(t), t.text) not in have]


def _postings(execute: Execute, term_id: int) -> tuple[Any, Any, Any]:
    """(rids, instances, sizes) of a kept term, by rid."""
    parts = []
    blocks = []
    for block, blob in execute(
        "SELECT block, postings FROM search_postings WHERE term_id = ? ORDER BY block",
        [term_id],
    ).fetchall():
        postings = np.frombuffer(blob, dtype=POSTING)
        parts.append(postings)
        blocks.append(np.full(len(postings), block, dtype=np.int64))
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty.astype(np.float64), empty.astype(np.float64)
    joined = np.concatenate(parts)
    rids = (np.concatenate(blocks) << BLOCK_BITS) | joined["off"].astype(np.int64)
    return rids, joined["tf"].astype(np.float64), joined["size"].astype(np.float64)


def rank(execute: Execute, ws: int, terms: Sequence[Term], limit: int) -> Ranked | None:
    """The best `limit` candidates containing every term, by FTS5's bm25 of each table
    (the two tables' scores added, as the store's ranking SQL adds them), the newest
    first among equals; None when a term is not kept."""
    ids = {(kind, text): i for i, kind, text in kept_terms(execute, ws)}
    wanted = [ids.get((term_counts.kind_of(t), t.text)) for t in terms]
    if not terms or any(i is None for i in wanted):
        return None
    tables = space_index.tables(ws)
    loaded = []
    for term, term_id in zip(terms, wanted, strict=True):
        assert term_id is not None
        loaded.append((_table_of(term_counts.kind_of(term)), *_postings(execute, term_id)))
    rids = loaded[0][1]
    for _table, other, _f, _s in loaded[1:]:
        rids = np.intersect1d(rids, other, assume_unique=True)
    if len(rids) == 0:
        return []
    stats = {t: averages(execute, tables[t]) for t in {entry[0] for entry in loaded}}
    totals = []
    for t in (0, 1):  # the trigram table's score first: `t.s + b.s`
        parts = []
        for table, term_rids, freqs, sizes in loaded:
            if table != t:
                continue
            n_rows, tokens = stats[t]
            at = np.searchsorted(term_rids, rids)
            weight = bm25.idf(n_rows, len(term_rids))
            avgdl = bm25.average_size(n_rows, tokens)
            parts.append(bm25.phrase_part(weight, freqs[at], sizes[at], avgdl))
        if parts:
            totals.append(bm25.table_score(parts))
    scores = totals[0] if len(totals) == 1 else totals[0] + totals[1]
    return bm25.best(rids, scores, limit)
