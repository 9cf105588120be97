"""Search on PostgreSQL: bm25 over the columns and frequency rows a save writes
(indexing.py). The same terms as SQLite find the same candidates.

What a query means comes from `fulltext.py` (pure, shared with SQLite); here it becomes
SQL over the frequency tables (postings.py) and the `fts` column (see
store/schema/pg_search.py):

- a CJK term of 3+ characters: a case-folded substring of `fts` (as FTS5's trigram
  tokenizer matches it), looked for only in the candidates holding all its bigrams
  (`postings`);
- any other term of 3+ characters: the `words` or `runs` entries containing it;
- a 2-character CJK word or a short Latin word: the candidates `postings` lists for it;
- one CJK character: the bigrams starting with it (FTS5's prefix query).

Ranking is bm25 with FTS5's constants (k1 = 1.2, b = 0.75, its idf), the document
lengths as FTS5 counts them (characters for the trigram side, tokens for the bigram
side); the two sides' scores add up, as they do on SQLite. Every figure bm25 takes
from the corpus (document count, average lengths, each term's document frequency) is
that of the searching data space alone, as SQLite's per-space FTS5 tables give it
(figures.py). Term frequencies come from an index where one holds
them exactly (`indexed_source`: `postings` for the bigram side, `words` and `runs` for other
terms of 3+ characters); a CJK term of 3+ characters is counted in the text, and only
for the candidates a postings bound says can reach the top (`_bounded`).
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from psycopg import pq

from .. import kept_postings, rows
from ..fulltext import Sort, Term
from ..hits import HitSearch, Ranking
from . import kept
from .figures import Figures
from .indexing import Indexing
from .terms_sql import all_bigrams, bigrams_of, condition, frequency, indexed_source, score_sql

log = logging.getLogger("debrief.store")

# Searches a process ranks at once; more wait their turn. A common term's bm25 takes
# much of the database's CPU: replicas that started every new search at once left the
# acknowledgements Slack needs within 3 s waiting for a CPU behind them.
SEARCH_SLOTS = 2


class FullText(HitSearch, Figures, Indexing):
    """bm25 over the full-text columns and frequency rows of every save."""

    def _search_slots(self) -> threading.BoundedSemaphore:
        """The searches this process ranks at once (SEARCH_SLOTS), one bound for the store
        and its workspaces' views."""
        shared = self._shared
        with shared.lock:
            if shared.slots is None:
                shared.slots = threading.BoundedSemaphore(SEARCH_SLOTS)
            return shared.slots

    def _count_idf(self, term: Term, n: int) -> float:
        # A CJK term of 3+ characters is not in an index: counting the transcripts that
        # hold it would read each match's text (slow for a common phrase), so
        # the transcripts holding all its bigrams are counted. That can only be more
        # (SQLite counts the phrase): the idf, the same factor for every match, is a
        # little lower, which leaves one term's order as it was and shifts the weight
        # between several terms only where a phrase's bigrams often occur apart.
        # the space's own matches: its document frequency (`_in_space`)
        sql, param = self._in_space(indexed_source(term) or all_bigrams(term))
        row = self._one(f"SELECT count(*) FROM {sql} AS p", param)
        hits = int(row[0]) if row else 0
        idf = math.log((n - hits + 0.5) / (hits + 0.5))
        return idf if idf > 0 else 1e-6

    def _ranked(self, terms: list[Term], limit: int, sort: Sort) -> list[tuple[int, float]]:
        """(rid, score) of the best `limit` candidates matching every term; score is
        bm25 (higher is better), 0 when sorting newest first."""
        if not terms:
            return []
        newest = sort == "newest"
        n, avg_fts, avg_terms = (0, 1.0, 1.0) if newest else self._corpus()
        # A term's frequencies come from an index where one holds them exactly (`postings`
        # for the bigram side, `words` for a Latin word of 3+ characters: one index scan
        # each, the matches being the candidates it lists); any other term's are counted
        # in the text of the candidates matching everything else. The inner query (kept
        # apart by OFFSET 0) reads each text once; the outer one turns counts into bm25.
        counts: list[str] = []
        count_params: list[Any] = []
        sources: list[str] = []
        source_params: list[Any] = []
        where = []
        where_params: list[Any] = []
        weights: list[tuple[float, float]] = []
        first: str | None = None
        in_text = False
        for i, term in enumerate(terms):
            avg = avg_fts if term.kind == "trigram" else avg_terms
            indexed = indexed_source(term)
            source = indexed
            if indexed is None:
                sql, param = frequency(term)
                counts.append(f"{sql} AS tf{i}, fts_len AS len{i}")
                count_params.append(param)
                cond, cond_param = condition(term)
                where.append(cond)
                where_params.append(cond_param)
                in_text = True
                if newest:
                    # no index lists the term (nor its text, since pg016): the text read
                    # is that of the candidates holding all its bigrams, newest first
                    source = all_bigrams(term)
            if source is not None:
                sql, sub_params = self._in_space(source)
                alias = f"p{i}"
                if first is None:
                    sources.append(f"{sql} AS {alias}")
                    first = alias
                else:
                    sources.append(f"JOIN {sql} AS {alias} ON {alias}.rid = {first}.rid")
                source_params += sub_params
                if indexed is not None:
                    counts.append(f"{alias}.tf AS tf{i}, {alias}.dl AS len{i}")
            weights.append((0.0 if newest else self._idf(term, n), avg))
        score, score_params = score_sql(terms, weights, "tf{i}", lambda i: f"len{i}")
        scope: list[str] = []  # the sources are kept to this space (`_in_space`)
        if first is None:  # every term is read in the text: this space's candidates
            rid, table = "rid", "candidates"
            scope.append(self._rids_in_space("rid"))
        else:
            rid, table = f"{first}.rid", " ".join(sources)
            if in_text:
                table += f" JOIN candidates AS c ON c.rid = {first}.rid"

        if newest and in_text:
            return self._newest_in_text(
                " ".join(sources), rid, source_params, where, where_params, limit
            )
        if newest:  # the same matches, latest first
            rows = self._all(
                f"SELECT {rid} FROM {table} ORDER BY {rid} DESC LIMIT ?", [*source_params, limit]
            )
            return [(int(r[0]), 0.0) for r in rows]

        def query(conditions: list[str]) -> str:
            return (
                f"SELECT rid, ({score}) AS score FROM ("
                f"SELECT {rid} AS rid, {', '.join(counts)} FROM {table}"
                f"{' WHERE ' + ' AND '.join(conditions) if conditions else ''}"
                " OFFSET 0) AS matches"
            )

        sql = query([*where, *scope])
        params = [*score_params, *count_params, *source_params, *where_params]
        if in_text and all(bigrams_of(t) for t in terms if indexed_source(t) is None):
            # strpos, not LIKE: the same test, but the planner fetches the few rids
            # by key instead of scanning the pg_trgm index for every match.
            among = query([*("strpos(fts, ?) > 0" for _ in where), f"{rid} = ANY(?)", *scope])
            texts = [t.text for t in terms if indexed_source(t) is None]
            among_params = [*score_params, *count_params, *source_params, *texts]
            return self._bounded(terms, limit, among, among_params, weights)
        rows = self._all(sql + " ORDER BY score DESC, rid DESC LIMIT ?", [*params, limit])
        return [(int(r[0]), float(r[1])) for r in rows]

    def _newest_in_text(
        self,
        sources: str,
        rid: str,
        source_params: list[Any],
        where: list[str],
        where_params: list[Any],
        limit: int,
    ) -> list[tuple[int, float]]:
        """The newest `limit` candidates matching terms of which some only the text can
        confirm (CJK terms of 3+ characters): the candidates the indexes list (holding
        every such term's bigrams, and every other term), newest first, a page at a time,
        and only their text read. In one query the planner may read every candidate's
        text first (seconds at 100,000 transcripts)."""
        page_sql = f"SELECT {rid} FROM {sources} ORDER BY {rid} DESC LIMIT ? OFFSET ?"
        check_sql = (
            f"SELECT rid FROM candidates WHERE rid = ANY(?) AND {' AND '.join(where)}"
            " ORDER BY rid DESC"
        )
        found: list[int] = []
        step = max(limit * 4, 200)
        offset = 0
        while len(found) < limit:
            page = [int(r[0]) for r in self._all(page_sql, [*source_params, step, offset])]
            if page:
                found += [int(r[0]) for r in self._all(check_sql, [page, *where_params])]
            if len(page) < step:
                break  # no candidate left
            offset += step
        return [(r, 0.0) for r in found[:limit]]

    def _bounded(
        self,
        terms: list[Term],
        limit: int,
        among: str,
        params: list[Any],
        weights: list[tuple[float, float]],
    ) -> list[tuple[int, float]]:
        """The same top `limit` as the exact query, reading the text of few matches.

        A CJK term of 3+ characters occurs at most as often as the
        rarest of its bigrams, so `postings` gives every candidate holding all its
        bigrams a bm25 no lower than its real one (with its real length, `fts_len`).
        Candidates are scored exactly, by the exact query, in order of that bound, until
        the `limit`-th best exact score is above every bound left: no candidate left can
        then enter the top (ties included), so the answer is the exact query's. `among`
        is the exact query for the candidates in a list (its last parameter)."""
        sources: list[str] = []
        source_params: list[Any] = []
        lengths: list[str] = []
        for i, term in enumerate(terms):
            indexed = indexed_source(term)
            if indexed is None:
                sql, sub = self._in_space(all_bigrams(term))
                lengths.append("c.fts_len")
            else:
                sql, sub = self._in_space(indexed)
                lengths.append(f"p{i}.dl")
            on = f" ON p{i}.rid = p0.rid" if i else ""
            sources.append(f"{'JOIN ' if i else ''}{sql} AS p{i}{on}")
            source_params += sub
        bound, idf_avg = score_sql(terms, weights, "p{i}.tf", lambda i: lengths[i])
        bound_sql = (
            f"SELECT p0.rid, ({bound}) AS bound FROM {' '.join(sources)}"
            " JOIN candidates AS c ON c.rid = p0.rid ORDER BY bound DESC, p0.rid DESC"
            " LIMIT ? OFFSET ?"
        )
        found: list[tuple[int, float]] = []
        step = max(limit * 4, 200)
        offset = 0
        while True:
            # a page at a time, and the first bound after it (one page is nearly always
            # enough): the server keeps a top-N instead of sending every match's bound
            page = self._hash_joined(bound_sql, [*idf_avg, *source_params, step + 1, offset])
            rows = self._all(among, [*params, [int(r[0]) for r in page[:step]]])
            found += [(int(r[0]), float(r[1])) for r in rows]
            found.sort(key=lambda f: (-f[1], -f[0]))
            if len(page) <= step:
                break  # no candidate left
            if len(found) >= limit:
                kth = found[limit - 1][1]
                if kth > float(page[step][1]) * (1 + 1e-9) + 1e-12:
                    break  # no bound left can reach the top (ties included)
            offset += step
        return found[:limit]

    def _hash_joined(self, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
        """`sql` planned without nested loops. The planner underestimates a term's matches
        (a LIKE over the vocabulary, the union with `long_words`: tens of rows where
        there are tens of thousands) and joins two terms' matches with a nested loop,
        one side re-read for every row of the other: seconds where hash joins take tens
        of milliseconds. `SET LOCAL` holds in the search's own transaction only, and is
        undone right after this statement."""
        conn = self._connection()
        with self._said():
            conn.execute("SET LOCAL enable_nestloop = off")
        rows = self._all(sql, params)
        with self._said():
            conn.execute("SET LOCAL enable_nestloop = on")
        return rows

    @contextmanager
    def _ranking(self, sort: Sort) -> Iterator[Ranking]:
        """Ranked candidates for some terms, all read in one snapshot, and cached with the
        `fts_version` of that snapshot (pg008): any save or delete on any replica changes
        it, so a cached answer is the one a fresh query would give. Inside a transaction
        of this thread's connection (a batch), nothing is cached. Terms whose postings
        are kept (store/kept_postings.py) are ranked from them; the others' postings are
        read in the same snapshot and kept after it (`_keep`)."""
        conn = self.conn
        if conn.info.transaction_status != pq.TransactionStatus.IDLE:
            yield lambda terms, n: self._ranked(terms, n, sort)
            return
        with self._said():
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        to_keep: list[Term] = []  # read after the answer: CJK phrases, whose text is read
        built: dict[Term, kept.Built] = {}
        state: int | None = None
        try:
            row = self._one("SELECT version FROM fts_version")
            state = int(row[0]) if row else None
            self._local.snapshot_version = state  # the figures' cache key (figures.py)
            cache = self._cache()
            slots = self._search_slots()

            def ranked(terms: list[Term], n: int) -> rows.Ranked:
                key = (self.ws, tuple(terms), n, sort)
                found = None if state is None else cache.get(state, key)
                if found is None:
                    with slots:
                        found = self._kept_ranked(terms, n, sort, built, to_keep)
                    if state is not None:
                        cache.put(state, key, found)
                return list(found)

            yield ranked
            if to_keep and state is not None:
                built.update(self._build(list(dict.fromkeys(to_keep))))
        finally:
            self._local.snapshot_version = None
            if not conn.closed and not conn.broken:
                conn.execute("ROLLBACK")  # read only: nothing to keep
        if built and state is not None:
            self._keep(list(built.values()), state)

    def _execute(self, sql: str, params: Any = ()) -> Any:
        """A `?` statement on this thread's connection (kept_postings' SQL)."""
        return self.conn.execute(self.engine.convert(sql), params)

    def _kept_ranked(
        self,
        terms: list[Term],
        limit: int,
        sort: Sort,
        built: dict[Term, kept.Built],
        to_keep: list[Term],
    ) -> rows.Ranked:
        """From the kept postings, with those of the terms not kept yet read now (into
        `built`, to be kept) where an index holds them; a CJK phrase of 3+ characters is
        counted in the text (slow for a common one), so a query with one not kept yet is
        answered by the ranking SQL and the phrase read after the answer (`to_keep`)."""
        if sort == "relevance":
            missing = kept_postings.missing(self._execute, self.ws, terms)
            later = [t for t in missing or [] if indexed_source(t) is None]
            if missing is not None and not later:
                built.update(self._build([t for t in missing if t not in built]))
                n, avg_fts, avg_terms = self._corpus()
                averages = (avg_fts, avg_terms)
                found = kept_postings.rank(
                    self._execute,
                    self.ws,
                    terms,
                    limit,
                    lambda side: (n, averages[side]),
                    {t: b[1:] for t, b in built.items()},
                )
                if found is not None:
                    return found
            to_keep.extend(later)
        return self._ranked(terms, limit, sort)

    def _build(self, terms: list[Term]) -> dict[Term, kept.Built]:
        """The postings of `terms`, read in the search's snapshot; a failure here costs
        speed, never an answer: it is logged and the search goes on."""
        try:
            return {term: kept.build(self._execute, term, self._in_space) for term in terms}
        except Exception:
            log.warning("search: could not read the postings of %r", terms, exc_info=True)
            return {}

    def _keep(self, built: list[kept.Built], version: int) -> None:
        """Keep postings read at `fts_version` `version`, unless a write holds or moved it
        since (store/pg/kept.py); never waits for a writer, never fails the search."""
        try:
            with self.tx() as tx:
                kept.keep(tx.execute, self.ws, built, version)
        except Exception:
            log.warning(
                "search: could not keep the postings of %d term(s)", len(built), exc_info=True
            )
