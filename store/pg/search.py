"""Search on PostgreSQL: its own text search ranks (schema step pg035).

Each candidate's `tsv` holds the lexemes of its indexed text (store/pg/lexemes.py: CJK
bigrams and words, with their positions), under a RUM index (the `rum` extension). A
query's terms become one `tsquery` (lexemes.query); the matches in the searching data
space (its rid range, base.py SPACE_BITS) come from that index:

- relevance: `ORDER BY tsv <=> q` (RUM's distance, the inverse of its score, computed
  from the positions the index keeps: no match's row is read to rank it), the top
  ordered again here with ties newest first. A second sort key in the SQL would make
  the planner read and sort every match instead (bench/pg_engines.py); which of several
  equal matches make the cut is the index's own order, the same for the same index, so
  the same query gives the same answer every time;
- newest: the matches, newest first.

The score shown is RUM's (`rum_ts_score`), each space's own order whatever the other
spaces hold. Answers are cached with the `fts_version` (pg008) of the snapshot they
were read in: every save or delete of a candidate moves it, on every replica.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from psycopg import pq

from .. import rows
from ..fulltext import Sort, Term
from ..hits import HitSearch, Ranking
from . import lexemes
from .indexing import Indexing

# Searches a process ranks at once; more wait their turn, so that replicas starting
# many searches at once leave the database CPU for the acknowledgements Slack needs
# within 3 s.
SEARCH_SLOTS = 2

_MATCHES = "FROM candidates WHERE tsv @@ %(q)s::tsquery AND rid BETWEEN %(low)s AND %(high)s"
_SQL = {
    "relevance": f"SELECT rid, rum_ts_score(tsv, %(q)s::tsquery) {_MATCHES}"
    " ORDER BY tsv <=> %(q)s::tsquery LIMIT %(n)s",
    "newest": f"SELECT rid, 0.0 {_MATCHES} ORDER BY rid DESC LIMIT %(n)s",
}


class FullText(HitSearch, Indexing):
    """PostgreSQL's text search over every save's `tsv`."""

    def _search_slots(self) -> threading.BoundedSemaphore:
        """The searches this process ranks at once (SEARCH_SLOTS), one bound for the store
        and its workspaces' views."""
        shared = self._shared
        with shared.lock:
            if shared.slots is None:
                shared.slots = threading.BoundedSemaphore(SEARCH_SLOTS)
            return shared.slots

    def _ranked(self, terms: list[Term], limit: int, sort: Sort) -> rows.Ranked:
        """(rid, score) of the best `limit` candidates of this space matching every term
        (score 0 when sorting newest first)."""
        q = lexemes.query(terms)
        if q is None:
            return []
        low, high = self.rid_range
        params = {"q": q, "low": low, "high": high, "n": limit}
        with self._said():
            # never prepared: psycopg prepares a statement run five times, and PostgreSQL
            # then plans it once for any query, which reads RUM's matches without its
            # order (100-180 ms against 2-40 ms at 5,000 transcripts)
            found = self.conn.execute(_SQL[sort], params, prepare=False).fetchall()
        ranked = [(int(r[0]), float(r[1])) for r in found]
        return sorted(ranked, key=lambda r: (-r[1], -r[0])) if sort == "relevance" else ranked

    @contextmanager
    def _ranking(self, sort: Sort) -> Iterator[Ranking]:
        """Ranked candidates for some terms, all read in one snapshot, and cached with the
        `fts_version` of that snapshot (pg008). Inside a transaction of this thread's
        connection (a batch), nothing is cached."""
        conn = self.conn
        if conn.info.transaction_status != pq.TransactionStatus.IDLE:
            yield lambda terms, n: self._ranked(terms, n, sort)
            return
        with self._said():
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        try:
            row = self._one("SELECT version FROM fts_version")
            state = int(row[0]) if row else None
            cache = self._cache()
            slots = self._search_slots()

            def ranked(terms: list[Term], n: int) -> rows.Ranked:
                key = (self.ws, tuple(terms), n, sort)
                found = None if state is None else cache.get(state, key)
                if found is None:
                    with slots:
                        found = self._ranked(terms, n, sort)
                    if state is not None:
                        cache.put(state, key, found)
                return list(found)

            yield ranked
        finally:
            if not conn.closed and not conn.broken:
                conn.execute("ROLLBACK")  # read only: nothing to keep
