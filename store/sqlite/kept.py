"""Kept postings on SQLite (store/kept_postings.py): a term is kept from FTS5's own bm25
of it alone over every match, turned back into instances (bm25.invert, checked by
scoring again), each with its length from FTS5's `_docsize`; a table's row count and
average length are read from FTS5's averages record, in the search's snapshot, so
postings and figures always agree (a write updates both in one transaction).

The first search of a term keeps it after answering, if the write lock is free then
(store/sqlite/search.py); a schema step may write the FTS5 tables itself, so every kept
posting is dropped after any step (migrations.py) and searches keep them again.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from .. import bm25, kept_postings, term_counts
from ..fulltext import Term, match_expressions
from ..kept_postings import Execute, Figures
from . import space_index

log = logging.getLogger("debrief.store")


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


Built = tuple[Term, Any, Any, Any]  # (term, rids, instances, lengths)


def build(execute: Execute, ws: int, term: Term, rid_range: tuple[int, int]) -> Built | None:
    """`term`'s postings in space `ws`, read (nothing written) from FTS5's bm25 of the
    term alone over every match; None when FTS5's scores could not be turned back into
    counts exactly (then the term is not kept)."""
    kind = term_counts.kind_of(term)
    table = space_index.tables(ws)[kept_postings.table_of(kind)]
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
    if not found:
        return term, rids, np.zeros(0, dtype=np.int64), sizes.astype(np.uint32)
    if n_rows < len(found):
        return None
    avgdl = bm25.average_size(n_rows, tokens)
    weight = bm25.idf(n_rows, len(found))
    freqs = bm25.invert(scores, sizes, avgdl, weight)
    again = bm25.table_score([bm25.phrase_part(weight, freqs.astype(np.float64), sizes, avgdl)])
    if not np.array_equal(again, scores) or bool((freqs < 1).any()):
        log.warning("search: FTS5's scores of %r are not bm25's; not kept", term.text)
        return None
    return term, rids, freqs, sizes.astype(np.uint32)


def figures(execute: Execute, ws: int) -> Figures:
    """Space `ws`'s tables' (row count, average length), as FTS5's bm25 reads them."""
    tables = space_index.tables(ws)

    def of(table: int) -> tuple[int, float]:
        rows, tokens = averages(execute, tables[table])
        return rows, bm25.average_size(rows, tokens) if rows else 1.0

    return of
