"""The figures bm25 takes from the corpus on PostgreSQL, each data space's own: its
document count and average lengths (kept by a trigger, store/schema/kept_tables.py, read
in the search's snapshot), each term's idf (counted, and kept while the index's
`fts_version` stays), and the rid range that keeps a query to the space (base.py
SPACE_BITS). One company's transcripts never move another's order; how a term's
documents are counted is the ranking's (`_count_idf`, search.py).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from ..fulltext import Term
from .connection import PgConnection


class Figures(PgConnection):
    """bm25's corpus figures of this data space, cached."""

    def _corpus(self) -> tuple[int, float, float]:
        """(documents, average trigram-side length, average terms length) of this data
        space, as FTS5 counts them, read in this snapshot (`search_figures`, kept by a
        trigger with every candidate written: store/schema/kept_tables.py), so they
        always agree with the postings read beside them."""
        row = self._one(
            "SELECT rows, tri_tokens, bi_tokens FROM search_figures WHERE ws = ?", [self.ws]
        )
        if row is None or not row[0]:
            return 0, 1.0, 1.0
        rows = int(row[0])
        # FTS5's avgdl: total tokens over rows, one float division
        return rows, (float(row[1]) / float(rows)) or 1.0, (float(row[2]) / float(rows)) or 1.0

    def _idf(self, term: Term, n: int) -> float:
        """FTS5's idf of a term in this data space; document frequencies are kept per
        space and term while the index's version (`fts_version`, read by the search's
        snapshot) stays: counting a common term's matches costs as much as ranking them."""
        cache: dict[tuple[int, Term], tuple[float, float]] = self._shared.idf
        key = (self.ws, term)
        hit = cache.get(key)
        version = getattr(self._local, "snapshot_version", None)
        if version is None:  # in a transaction of its own (a batch): counted, not kept
            return self._count_idf(term, n)
        if hit is not None and hit[0] == version:
            return hit[1]
        idf = self._count_idf(term, n)
        if len(cache) > 10_000:
            cache.clear()
        cache[key] = (version, idf)
        return idf

    @abstractmethod
    def _count_idf(self, term: Term, n: int) -> float:
        """FTS5's idf of `term` among `n` documents, counted afresh."""

    def _in_space(self, source: tuple[str, list[Any]]) -> tuple[str, list[Any]]:
        """A (rid, tf, dl) subquery kept to this store's data space: its rid range
        (base.py SPACE_BITS), so that another space's match never takes a place in the top."""
        sql, params = source
        return f"(SELECT * FROM {sql} AS s WHERE {self._rids_in_space('s.rid')})", params

    def _rids_in_space(self, rid: str) -> str:
        """`rid` within this space's range. A source's rid is computed per posting (a block
        and an offset), and each comparison recomputes it: space 0's lowest rid is 0, which
        every rid passes, so its one test is the upper bound (at 100,000, two-character
        searches, p50: 62 ms with the two-sided test, 49 ms with this, 47 ms with none)."""
        low, high = self.rid_range
        return f"{rid} <= {high:d}" if low == 0 else f"{rid} BETWEEN {low:d} AND {high:d}"
