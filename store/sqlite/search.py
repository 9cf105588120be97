"""Full text on SQLite: the FTS5 rows a save writes, and ranking a search with them.

The index itself (what text goes in, how a query becomes FTS5 expressions, snippets)
is pure and lives in `fulltext.py`; `search()` itself is `hits.py`'s, the same on both
backends; this module writes and queries the two FTS5 tables.

Ranking is FTS5's own bm25 over every match (`rank`), the newest first among equals.
A query with terms in both tables adds the two tables' bm25 scores. Each data space has
its own two tables (space_index.py), so bm25's figures (row count, average sizes,
document frequencies) are the space's own: another space's transcripts never move its
order.

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

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .. import fulltext, kept_postings, rows
from ..base import Tx
from ..fulltext import Sort
from ..hits import HitSearch, Ranking
from . import kept, space_index
from .connection import BUSY_TIMEOUT_MS, Connection
from .driver import sqlite3

log = logging.getLogger("debrief.store")

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
        """Each table's rows in one statement: FTS5 keeps them in memory until the commit
        (no savepoint in between), and writes them as one segment. Each row goes to its
        space's tables, made by the space's first save."""
        by_space: dict[int, list[tuple[int, tuple[str, str]]]] = {}
        for rid, indexed in found:
            by_space.setdefault(space_index.space_of(rid), []).append((rid, indexed))
        for ws, some in by_space.items():
            space_index.create(tx.execute, ws)
            tri, bi = space_index.tables(ws)
            tx.executemany(
                f"INSERT INTO {tri} (rowid, text) VALUES (?, ?)",
                [(rid, indexed[0]) for rid, indexed in some],
            )
            tx.executemany(
                f"INSERT INTO {bi} (rowid, bigrams) VALUES (?, ?)",
                [(rid, indexed[1]) for rid, indexed in some],
            )
            kept_postings.add_rows(tx.execute, ws, [(rid, t, row) for rid, (t, row) in some])

    def _unindex(self, tx: Tx, rid: int) -> None:
        """Contentless FTS5 forgets a row only when told exactly what it indexed."""
        batch = self._deferring()
        if batch is not None and batch.fulltext.pop(rid, None) is not None:
            return  # saved earlier in this batch: its rows were never written
        ws = space_index.space_of(rid)
        if not space_index.exists(tx.execute, ws):
            return  # the space never indexed anything
        row = tx.execute(
            "SELECT position, intro, summary, verdict, name, interviewers,"
            f" {fulltext.BODY_SQL} FROM candidates WHERE rid = ?",
            [rid],
        ).fetchone()
        if row is None:
            return
        text = fulltext.doc_text(
            row[0],
            row[1],
            row[2],
            space_index.indexed_questions(tx.execute, rid),
            row[3],
            row[4],
            rows.names(row[5]),
            row[6] or "",
        )
        tri, bi = space_index.tables(ws)
        tx.execute(f"INSERT INTO {tri} ({tri}, rowid, text) VALUES ('delete', ?, ?)", [rid, text])
        tx.execute(
            f"INSERT INTO {bi} ({bi}, rowid, bigrams) VALUES ('delete', ?, ?)",
            [rid, fulltext.bigrams(text)],
        )
        kept_postings.remove_row(tx.execute, rid)

    def _space_erased(self, tx: Tx, ws: int) -> None:
        """An erased space's tables go (dropped under secure_delete: their pages zeroed)."""
        space_index.drop(tx.execute, ws)
        kept_postings.drop_space(tx.execute, ws)

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
        built: dict[fulltext.Term, kept.Built],
    ) -> _Ranked:
        match = fulltext.match_expressions(terms)
        if match is None:
            return []

        def fresh() -> _Ranked:
            if not indexed:
                return []
            if sort == "relevance":
                found = self._kept_ranked(terms, limit, built)
                if found is not None:
                    return found
            assert match is not None
            return self._ranked(match, limit, sort)

        if state is None:
            return fresh()
        key: _Key = (self.ws, match.trigram, match.bigram, limit, sort)
        cache = self._cache()
        found = cache.get(state, key, self.ws)  # each space's state: its own tables'
        if found is None:
            found = fresh()
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
        """Ranked candidates for some terms, all read in one snapshot (and cached). A
        term without kept postings has them read in the same snapshot, ranked with, and
        kept afterwards (`_keep`)."""
        built: dict[fulltext.Term, kept.Built] = {}
        with self._snapshot() as (indexed, state):

            def ranked(terms: list[fulltext.Term], n: int) -> rows.Ranked:
                return self._ranked_cached(indexed, state, terms, n, sort, built)

            yield ranked
        if built and state is not None:  # (not inside a transaction of the caller's)
            self._keep(list(built.values()), state)

    def _kept_ranked(
        self, terms: list[fulltext.Term], limit: int, built: dict[fulltext.Term, kept.Built]
    ) -> _Ranked | None:
        """From kept postings, and the postings of the terms not kept yet read now (into
        `built`, to be kept); None when a term cannot be kept (FTS5 ranks the query). A
        failure reading them costs speed, never an answer: logged, and FTS5 ranks."""
        execute = self.db.conn.execute
        try:
            for term in kept_postings.missing(execute, self.ws, terms) or []:
                if term not in built:
                    found = kept.build(execute, self.ws, term, self.rid_range)
                    if found is None:
                        return None
                    built[term] = found
            fresh = {t: b[1:] for t, b in built.items()}
            figures = kept.figures(execute, self.ws)
            return kept_postings.rank(execute, self.ws, terms, limit, figures, fresh)
        except Exception:
            log.warning("search: could not rank %r from postings", terms, exc_info=True)
            return None

    def _keep(self, built: list[kept.Built], state: tuple[bytes, ...]) -> None:
        """Keep postings read in a snapshot whose full-text state was `state`, if the write
        lock is free now and no write has reached the index since: a search never waits
        for a writer, and holds the lock only to write the postings it read before."""
        conn = self.db.conn
        try:
            conn.execute("PRAGMA busy_timeout = 0")
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError:
                return  # a writer holds the lock: a later search keeps them
            finally:
                conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            try:
                now = tuple(bytes(r[0]) for r in conn.execute(space_index.state_sql(self.ws)))
                if now == state:  # else a write came between: a later search keeps them
                    wanted = {
                        t.text
                        for t in kept_postings.missing(conn.execute, self.ws, [b[0] for b in built])
                        or []
                    }
                    for term, rids, freqs, sizes in built:
                        if term.text in wanted:
                            kept_postings.store_term(
                                conn.execute, self.ws, term, rids, freqs, sizes
                            )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        except Exception:
            log.warning(
                "search: could not keep the postings of %d term(s)", len(built), exc_info=True
            )
