"""Kept postings on PostgreSQL (store/kept_postings.py): a term is kept from the same
counts PostgreSQL's ranking reads (terms_sql.py: the frequency tables where one holds the
term exactly, else the text of the candidates holding all its bigrams), in the search's
own snapshot; a table's row count and average length are the space's figures the
ranking SQL takes (figures.py).

Postings read in a snapshot are written afterwards only if no write has reached the
full-text index since: every such write bumps `fts_version` first and holds its row
until it commits (pg008), so a keep that takes that row (without waiting) and finds the
snapshot's number knows no save or delete came between, and none can until it commits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .. import kept_postings, term_counts
from ..fulltext import Term
from ..kept_postings import Execute
from .terms_sql import all_bigrams, frequency, indexed_source

Built = tuple[Term, Any, Any, Any]  # (term, rids, instances, lengths)
InSpace = Callable[[tuple[str, list[Any]]], tuple[str, list[Any]]]


def build(execute: Execute, term: Term, in_space: InSpace) -> Built:
    """`term`'s postings in the searching space (`in_space` keeps a source to it), read
    (nothing written) as the ranking SQL counts the term."""
    source = indexed_source(term)
    if source is not None:
        sql, params = in_space(source)
        found = execute(f"SELECT s.rid, s.tf, s.dl FROM {sql} AS s ORDER BY s.rid", params)
    else:  # a CJK term of 3+ characters: counted in the text of the candidates it may be in
        sql, params = in_space(all_bigrams(term))
        count, counted = frequency(term)
        found = execute(
            f"SELECT c.rid, {count}, c.fts_len FROM {sql} AS p JOIN candidates AS c"
            " ON c.rid = p.rid WHERE strpos(c.fts, ?) > 0 ORDER BY c.rid",
            [counted, *params, term.text],
        )
    rows = [r for r in found.fetchall() if r[1] > 0]
    rids = np.array([int(r[0]) for r in rows], dtype=np.int64)
    freqs = np.array([int(r[1]) for r in rows], dtype=np.int64)
    lengths = np.array([int(r[2]) for r in rows], dtype=np.int64)
    if term_counts.kind_of(term) == "trigram":
        lengths = np.maximum(lengths - 2, 0)  # FTS5's trigram count, as the ranking's
    return term, rids, freqs, lengths.astype(np.uint32)


def keep(execute: Execute, ws: int, built: list[Built], version: int) -> bool:
    """Keep postings read in a snapshot at `fts_version` `version`, inside the caller's
    write transaction; False (nothing written) when a write holds or has moved the
    version since."""
    row = execute("SELECT version FROM fts_version FOR UPDATE SKIP LOCKED").fetchone()
    if row is None or int(row[0]) != version:
        return False
    wanted = {t.text for t in kept_postings.missing(execute, ws, [b[0] for b in built]) or []}
    for term, rids, freqs, lengths in built:
        if term.text in wanted:
            kept_postings.store_term(execute, ws, term, rids, freqs, lengths)
    return True
