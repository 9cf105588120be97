"""Postings kept for the terms a space searches, on both backends (issue 39): bm25 over
every match read from a few arrays instead of the full-text index's position lists.

For each term searched in a data space, the store keeps each matching candidate's
instances of the term and its length in the term's table (`search_postings`: blocks of
4,096 rids, a packed array each), and ranks with them: the same idf, average length and
formula as FTS5, computed to the last bit (bm25.py), so the top 10 is FTS5's exact top
10, ties included. How a term is kept the first time (from FTS5's own bm25 on SQLite,
store/sqlite/kept.py; from the frequency tables on PostgreSQL, store/pg/kept.py) and
where a table's row count and average length come from are the backend's; the rest is
here, written once for both (`?` parameters, SQL both dialects take).

- Every write that reaches the full-text index updates the kept terms' postings in the
  same transaction (`add_rows`, `remove_row`, `drop_space`), counting each term in the
  saved text as FTS5 counts it (term_counts.py).
- A space keeps its `MAX_KEPT` most recently kept terms; the oldest go first.
- Only terms of ASCII and CJK characters are kept (term_counts.keepable); a query
  with any other term is ranked by the backend's own query, as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from . import bm25, term_counts
from .base import SPACE_BITS
from .fulltext import Term

Execute = Callable[..., Any]
Figures = Callable[[int], tuple[int, float]]
"""A table's (row count, average length): 0 the trigram side, 1 the bigram side."""

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


def table_of(kind: str) -> int:
    """0: the trigram side; 1: the bigram side."""
    return 0 if kind == "trigram" else 1


# -- writes: every change to the FTS5 rows of a space with kept terms ---------------------


def add_rows(
    execute: Execute, ws: int, found: Sequence[tuple[int, str, str | Mapping[str, int]]]
) -> None:
    """The postings of rows just written to space `ws`'s full-text index: (rid, text,
    bigrams), the text as indexed (`fulltext.indexed`; PostgreSQL's case-folded `fts`),
    the bigram row as `fulltext.bigrams` made it or its tokens counted."""
    terms = kept_terms(execute, ws)
    if not terms or not found:
        return
    kinds = {term_id: kind for term_id, kind, _t in terms}
    new: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
    for rid, text, row in found:
        counted = term_counts.count(text, row, terms)
        for term_id, n in counted.found.items():
            size = counted.trigram_size if table_of(kinds[term_id]) == 0 else counted.bigram_size
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
    """A row leaves its space's full-text index: it leaves the kept terms' postings too.
    A term it was the last match of goes with it: a search for a forgotten candidate's
    name is not kept after them."""
    terms = kept_terms(execute, rid >> SPACE_BITS)
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
        if len(kept) == len(postings):
            continue
        _write_block(execute, term_id, block, kept)
        if (
            not len(kept)
            and not execute(
                "SELECT 1 FROM search_postings WHERE term_id = ? LIMIT 1", [term_id]
            ).fetchone()
        ):
            execute("DELETE FROM search_terms WHERE id = ?", [term_id])


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
        "INSERT INTO search_postings (term_id, block, postings) VALUES (?, ?, ?)"
        " ON CONFLICT (term_id, block) DO UPDATE SET postings = excluded.postings",
        [term_id, block, postings.tobytes()],
    )


def store_term(execute: Execute, ws: int, term: Term, rids: Any, freqs: Any, sizes: Any) -> None:
    """Keep `term` in space `ws` with its postings (rids in order, their instances and
    lengths), inside the caller's write transaction; the space's oldest kept term goes
    when it has `MAX_KEPT`."""
    _make_room(execute, ws)
    (term_id,) = execute(
        "INSERT INTO search_terms (ws, kind, term) VALUES (?, ?, ?) RETURNING id",
        [ws, term_counts.kind_of(term), term.text],
    ).fetchone()
    blocks = rids >> BLOCK_BITS
    for block in np.unique(blocks):
        at = blocks == block
        postings = np.zeros(int(at.sum()), dtype=POSTING)
        postings["off"] = rids[at] & _OFFSET_MASK
        postings["tf"] = freqs[at]
        postings["size"] = sizes[at]
        _write_block(execute, int(term_id), int(block), postings)


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


Read = tuple[Any, Any, Any]  # a term's (rids, instances, lengths), by rid


def rank(
    execute: Execute,
    ws: int,
    terms: Sequence[Term],
    limit: int,
    figures: Figures,
    fresh: Mapping[Term, Read] | None = None,
) -> Ranked | None:
    """The best `limit` candidates containing every term, by FTS5's bm25 of each table
    (the two tables' scores added, as SQLite's ranking SQL adds them), the newest first
    among equals; None when a term is neither kept nor in `fresh` (postings just read in
    the same snapshot, not kept yet). `figures` gives a table's row count and average
    length."""
    ids = {(kind, text): i for i, kind, text in kept_terms(execute, ws)}
    fresh = fresh or {}
    wanted = [ids.get((term_counts.kind_of(t), t.text)) for t in terms]
    if not terms or any(i is None and t not in fresh for i, t in zip(wanted, terms, strict=True)):
        return None
    loaded = []
    for term, term_id in zip(terms, wanted, strict=True):
        read = fresh[term] if term_id is None else _postings(execute, term_id)
        loaded.append((table_of(term_counts.kind_of(term)), *read))
    rids = loaded[0][1]
    for _table, other, _f, _s in loaded[1:]:
        rids = np.intersect1d(rids, other, assume_unique=True)
    if len(rids) == 0:
        return []
    stats = {t: figures(t) for t in {entry[0] for entry in loaded}}
    totals = []
    for t in (0, 1):  # the trigram table's score first: `t.s + b.s`
        parts = []
        for table, term_rids, freqs, sizes in loaded:
            if table != t:
                continue
            n_rows, avgdl = stats[t]
            if len(term_rids) > n_rows:
                return None  # figures older than the postings: the backend's query answers
            at = np.searchsorted(term_rids, rids)
            weight = bm25.idf(n_rows, len(term_rids))
            parts.append(bm25.phrase_part(weight, freqs[at], sizes[at], avgdl))
        if parts:
            totals.append(bm25.table_score(parts))
    scores = totals[0] if len(totals) == 1 else totals[0] + totals[1]
    return bm25.best(rids, scores, limit)
