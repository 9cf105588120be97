"""Full-text search over the store: find the matching candidates, rank them, cut snippets.

The index itself (what text goes in, how a query becomes FTS5 expressions, snippets)
is pure and lives in `fulltext.py`; this module runs its queries against the database.

Ranking is FTS5's own bm25 over every match (`rank`), the newest first among equals.
A query with terms in both tables adds the two tables' bm25 scores.

bm25 scores every match, so a term found in most transcripts costs ~1 µs per match
(~100 ms at 100,000). The ranked rowids of recent queries are therefore kept, each
with the state of the two full-text indexes it was computed on: FTS5's structure
record (whose cookie changes with every write that reaches the index, merges included)
and its averages record (row count and total size, which bm25 reads). A query is
answered from the cache only when both records are byte-for-byte what they were, read
in the same snapshot as the answer, so a cached top-k is always the top-k a fresh
bm25 query would give. Snippets and candidate fields are always read fresh.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .. import fulltext, rows
from ..fulltext import Sort
from ..hits import HitSearch, Ranking
from .connection import Connection

# FTS5's shadow table rows: 1 = averages (rows, total tokens), 10 = the structure
# (segments and a cookie bumped on every change).
_STATE_SQL = (
    "SELECT block FROM candidates_fts_data WHERE id IN (1, 10)"
    " UNION ALL SELECT x'00'"
    " UNION ALL SELECT block FROM candidates_bigrams_data WHERE id IN (1, 10)"
)

_Key = tuple[str | None, str | None, int, str]
_Ranked = list[tuple[int, float]]


class SearchStore(Connection, HitSearch):
    """`search()`: candidates containing every term, best (or newest) first, with snippets."""

    @contextmanager
    def _snapshot(self) -> Iterator[tuple[bytes, ...] | None]:
        """One read snapshot for the whole search, and the indexes' state in it; None
        (no caching) inside a transaction of this connection, whose uncommitted index
        data is not in the structure record yet."""
        conn = self.db.conn
        if conn.in_transaction:
            yield None
            return
        conn.execute("BEGIN")
        try:
            state = tuple(bytes(r[0]) for r in conn.execute(_STATE_SQL))
            yield state
        finally:
            conn.execute("COMMIT")  # read-only: nothing to keep or lose

    def _ranked_cached(
        self, state: tuple[bytes, ...] | None, match: fulltext.Match, limit: int, sort: Sort
    ) -> _Ranked:
        if state is None:
            return self._ranked(match, limit, sort)
        key: _Key = (match.trigram, match.bigram, limit, sort)
        cache = self._cache()
        found = cache.get(state, key)
        if found is None:
            found = self._ranked(match, limit, sort)
            cache.put(state, key, found)
        return list(found)

    def _ranked(self, match: fulltext.Match, limit: int, sort: Sort) -> list[tuple[int, float]]:
        """(rowid, score) of the best `limit` candidates matching every term; score is
        -bm25 (higher is better), 0 when sorting newest first."""
        params = {"tri": match.trigram, "bi": match.bigram, "n": limit}
        if sort == "newest":
            if match.trigram and match.bigram:
                sql = (
                    "SELECT rowid, 0 FROM candidates_fts WHERE candidates_fts MATCH :tri AND +rowid IN"
                    " (SELECT rowid FROM candidates_bigrams WHERE candidates_bigrams MATCH :bi)"
                    " ORDER BY rowid DESC LIMIT :n"
                )
            else:
                table = "candidates_fts" if match.trigram else "candidates_bigrams"
                key = "tri" if match.trigram else "bi"
                sql = (
                    f"SELECT rowid, 0 FROM {table} WHERE {table} MATCH :{key}"
                    " ORDER BY rowid DESC LIMIT :n"
                )
        elif match.trigram and match.bigram:
            sql = (
                "WITH t AS MATERIALIZED (SELECT rowid AS r, rank AS s FROM candidates_fts"
                " WHERE candidates_fts MATCH :tri),"
                " b AS MATERIALIZED (SELECT rowid AS r, rank AS s FROM candidates_bigrams"
                " WHERE candidates_bigrams MATCH :bi)"
                " SELECT t.r, t.s + b.s AS score FROM t JOIN b ON b.r = t.r"
                " ORDER BY score, t.r DESC LIMIT :n"
            )
        else:
            table = "candidates_fts" if match.trigram else "candidates_bigrams"
            key = "tri" if match.trigram else "bi"
            sql = (
                f"SELECT rowid, rank FROM {table} WHERE {table} MATCH :{key}"
                " ORDER BY rank, rowid DESC LIMIT :n"
            )
        return [(r[0], -float(r[1])) for r in self.db.execute(sql, params)]

    def _fields(self, rowids: list[int]) -> rows.Fields:
        """The indexed text of some candidates, field by field in reading order, each
        with the number of the question it belongs to (None outside the questions)."""
        marks = ", ".join("?" for _ in rowids)
        return rows.fields(
            self.db.execute(
                "SELECT rid, position, intro, summary, verdict FROM candidates"
                f" WHERE rid IN ({marks})",
                rowids,
            ),
            self.db.execute(
                "SELECT candidate_rid, number, question, goal, answer FROM questions"
                f" WHERE candidate_rid IN ({marks}) ORDER BY candidate_rid, seq",
                rowids,
            ),
        )

    def _rid_in(self, rids: list[int]) -> tuple[str, list[Any]]:
        return f"WHERE rid IN ({', '.join('?' for _ in rids)})", list(rids)

    @contextmanager
    def _ranking(self, sort: Sort) -> Iterator[Ranking]:
        """Ranked candidates for some terms, all read in one snapshot (and cached)."""
        with self._snapshot() as state:

            def ranked(terms: list[fulltext.Term], n: int) -> rows.Ranked:
                match = fulltext.match_expressions(terms)
                return [] if match is None else self._ranked_cached(state, match, n, sort)

            yield ranked
