"""The figures bm25 takes from the corpus on PostgreSQL, each data space's own: its
document count and average lengths, each term's idf, and the rid range that keeps a
query to the space (base.py SPACE_BITS). One company's transcripts never move another's
order. Counted at search time and kept, per space, while the index's `fts_version` stays (any
write moves it); how a term's documents are counted is the ranking's (`_count_idf`,
search.py).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

from ..fulltext import Term
from .connection import PgConnection


class Figures(PgConnection):
    """bm25's corpus figures of this data space, cached."""

    def _version(self) -> int:
        """The full-text index's `fts_version` in this snapshot: any save or delete on any
        replica moves it (pg008)."""
        row = self._one("SELECT version FROM fts_version")
        return int(row[0]) if row else -1

    def _corpus(self) -> tuple[int, float, float]:
        """(documents, average trigram-side length, average terms length) of this data
        space, as FTS5 counts them; kept while the index's version stays (each space its
        own), so they always agree with the postings read in the same snapshot."""
        corpora: dict[int, tuple[float, int, float, float]] = self._shared.corpus
        cached = corpora.get(self.ws)
        version = self._version()
        if cached is None or cached[0] != version:
            # FTS5's avgdl: its tables' total tokens over their rows, one float division
            # (a trigram side's tokens: the text's characters less two)
            row = self._one(
                "SELECT count(*),"
                " coalesce(sum(greatest(fts_len - 2, 0))::float8 / nullif(count(*), 0)::float8, 1),"
                " coalesce(sum(terms_len)::float8 / nullif(count(*), 0)::float8, 1)"
                f" FROM candidates WHERE {self.space}"
            )
            assert row is not None
            cached = (version, int(row[0]), float(row[1]), float(row[2]))
            if len(corpora) > 10_000:
                corpora.clear()
            corpora[self.ws] = cached
        return cached[1], cached[2] or 1.0, cached[3] or 1.0

    def _idf(self, term: Term, n: int) -> float:
        """FTS5's idf of a term in this data space; document frequencies are kept per
        space and term while the index's version stays, as the corpus figures are
        (counting a common term's matches costs as much as ranking them)."""
        cache: dict[tuple[int, Term], tuple[float, float]] = self._shared.idf
        key = (self.ws, term)
        hit = cache.get(key)
        version = self._version()
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
