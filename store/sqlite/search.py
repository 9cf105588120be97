"""Full text on SQLite: the FTS5 rows a save writes, and ranking a search with them.

The index itself (what text goes in, how a query becomes FTS5 expressions, snippets)
is pure and lives in `fulltext.py`; `search()` itself is `hits.py`'s, the same on both
backends; this module writes and queries the two FTS5 tables.

Ranking is FTS5's own bm25 over every match (`rank`), the newest first among equals.
A query with terms in both tables adds the two tables' bm25 scores. Each data space has
its own two tables (space_index.py), so bm25's figures (row count, average sizes,
document frequencies) are the space's own: another space's transcripts never move its
order. A save inserts a candidate's rows and keeps the text they were given; forget
deletes them with that text (space_index.py).

bm25 scores every match, so a term found in most transcripts costs time in proportion
to its matches. The ranked rowids of recent queries are therefore kept, each
with the state of the space's two full-text indexes it was computed on: FTS5's structure
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
from ..base import Tx
from ..fulltext import Sort
from ..hits import HitSearch, Ranking
from . import space_index
from .connection import Connection
from .driver import sqlite3

_Key = tuple[int, str | None, str | None, int, str]  # (ws, trigram, bigram, limit, sort)
_Ranked = list[tuple[int, float]]


class FullText(HitSearch, Connection):
    """The FTS5 rows of every save, and the ranking `search()` reads."""

    def _index_columns(self, indexed: tuple[str, str]) -> tuple[dict[str, Any], Any]:
        return {}, indexed  # the text lives once, in candidates and questions (contentless FTS5)

    def _reindexing(self, tx: Tx, candidate_id: str) -> None:
        row = tx.execute(
            f"SELECT rid FROM candidates WHERE {self.space} AND id = ?", [candidate_id]
        ).fetchone()
        if row is not None:
            self._unindex(tx, row[0])

    def _index(self, tx: Tx, rid: int, prepared: Any) -> None:
        indexed: tuple[str, str] = prepared
        batch = self._deferring()
        if batch is not None:  # an index run's batch: written, all together, at its commit
            batch.fulltext[rid] = indexed
            return
        self._insert_fulltext(tx, [(rid, indexed)])

    def _before_commit(self, tx: Tx, batch: Any) -> None:
        self._insert_fulltext(tx, list(batch.fulltext.items()))
        batch.fulltext = {}

    @staticmethod
    def _insert_fulltext(tx: Tx, found: list[tuple[int, tuple[str, str]]]) -> None:
        """Each row goes to its space's tables (space_index.py), made by its first save."""
        by_space: dict[int, list[tuple[int, tuple[str, str]]]] = {}
        for rid, indexed in found:
            by_space.setdefault(space_index.space_of(rid), []).append((rid, indexed))
        for ws, some in by_space.items():
            space_index.insert(tx.conn, ws, some)

    def _unindex(self, tx: Tx, rid: int) -> None:
        """With the text its rows were given, kept since (space_index.py): nothing of the
        candidate is computed again, from text or a folding table that may have changed."""
        batch = self._deferring()
        if batch is not None and batch.fulltext.pop(rid, None) is not None:
            return  # saved earlier in this batch: its rows were never written
        space_index.delete(tx.execute, rid)

    def _space_erased(self, tx: Tx, ws: int) -> None:
        """An erased space's tables go (dropped under secure_delete: their pages zeroed)."""
        space_index.drop(tx.execute, ws)

    @contextmanager
    def _snapshot(self) -> Iterator[tuple[bool, tuple[bytes, ...] | None]]:
        """One read snapshot for the whole search: whether this space has its tables yet,
        and the state of its indexes in it; None (no caching) inside a transaction of
        this connection, whose uncommitted index data is not in the structure record yet."""
        conn = self.db.conn
        if conn.in_transaction:
            yield space_index.exists(conn.execute, self.ws), None
            return
        conn.execute("BEGIN")
        try:
            try:
                sql = space_index.state_sql(self.ws)
                state: tuple[bytes, ...] | None = tuple(bytes(r[0]) for r in conn.execute(sql))
            except sqlite3.OperationalError:  # (no lookup of the tables when they are there)
                if space_index.exists(conn.execute, self.ws):
                    raise
                state = None
            # no tables yet: nothing found, a state of its own until they are made
            yield (True, state) if state is not None else (False, ())
        finally:
            conn.execute("COMMIT")  # read-only: nothing to keep or lose

    def _ranked_cached(
        self,
        indexed: bool,
        state: tuple[bytes, ...] | None,
        terms: list[fulltext.Term],
        limit: int,
        sort: Sort,
    ) -> _Ranked:
        match = fulltext.match_expressions(terms)
        if match is None:
            return []
        if state is None:
            return self._ranked(match, limit, sort) if indexed else []
        key: _Key = (self.ws, match.trigram, match.bigram, limit, sort)
        cache = self._cache()
        found = cache.get(state, key, self.ws)  # each space's state: its own tables'
        if found is None:  # (a space with no tables yet finds nothing)
            found = self._ranked(match, limit, sort) if indexed else []
            cache.put(state, key, found, self.ws)
        return list(found)

    def _ranked(self, match: fulltext.Match, limit: int, sort: Sort) -> list[tuple[int, float]]:
        """(rowid, score) of the best `limit` candidates matching every term; score is
        -bm25 (higher is better), 0 when sorting newest first."""
        params = {"tri": match.trigram, "bi": match.bigram, "n": limit}
        # this space's tables, and in them its rid range (base.py SPACE_BITS), which FTS5
        # seeks within at no cost: a row could not be ranked in another space's order
        trigrams, bigrams = space_index.tables(self.ws)
        low, high = self.rid_range
        tri = f"{trigrams} MATCH :tri AND rowid BETWEEN {low:d} AND {high:d}"
        bi = f"{bigrams} MATCH :bi AND rowid BETWEEN {low:d} AND {high:d}"
        if sort == "newest":
            if match.trigram and match.bigram:
                sql = (
                    f"SELECT rowid, 0 FROM {trigrams} WHERE {tri} AND +rowid IN"
                    f" (SELECT rowid FROM {bigrams} WHERE {bi})"
                    " ORDER BY rowid DESC LIMIT :n"
                )
            else:
                table, matched = (trigrams, tri) if match.trigram else (bigrams, bi)
                sql = f"SELECT rowid, 0 FROM {table} WHERE {matched} ORDER BY rowid DESC LIMIT :n"
        elif match.trigram and match.bigram:
            sql = (
                f"WITH t AS MATERIALIZED (SELECT rowid AS r, rank AS s FROM {trigrams}"
                f" WHERE {tri}),"
                f" b AS MATERIALIZED (SELECT rowid AS r, rank AS s FROM {bigrams}"
                f" WHERE {bi})"
                " SELECT t.r, t.s + b.s AS score FROM t JOIN b ON b.r = t.r"
                " ORDER BY score, t.r DESC LIMIT :n"
            )
        else:
            table, matched = (trigrams, tri) if match.trigram else (bigrams, bi)
            sql = f"SELECT rowid, rank FROM {table} WHERE {matched} ORDER BY rank, rowid DESC LIMIT :n"
        return [(r[0], -float(r[1])) for r in self.db.execute(sql, params)]

    @contextmanager
    def _ranking(self, sort: Sort) -> Iterator[Ranking]:
        """Ranked candidates for some terms, all read in one snapshot (and cached)."""
        with self._snapshot() as (indexed, state):

            def ranked(terms: list[fulltext.Term], n: int) -> rows.Ranked:
                return self._ranked_cached(indexed, state, terms, n, sort)

            yield ranked
