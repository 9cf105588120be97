"""`search()`, the same on both backends: rank (the backend's SQL), merge the phrase's
and the words' matches, read the hits' fields and cut their snippets (store/rows.py).

A backend supplies `_ranking`: its ranked candidates for a list of terms, inside one
read snapshot where it has one (store/sqlite/search.py, store/pg/search.py)."""

from __future__ import annotations

import threading
from abc import abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Hashable
from contextlib import AbstractContextManager
from typing import Protocol

from . import fulltext, rows
from .base import Base
from .fulltext import Sort, Term
from .models import SearchHit

Ranking = Callable[[list[Term], int], rows.Ranked]


class Ranker(Protocol):
    """What ranks a store's searches elsewhere: the search workers `serve` starts
    (bot/search_pool.py), so that the process answering Slack never ranks. It raises
    SearchBusyError (store/errors.py) when it cannot take one more in good time."""

    def search(
        self, query: str, limit: int, snippets: bool, sort: Sort, ws: int
    ) -> list[SearchHit]: ...


_CACHE_ENTRIES = 256


class RankCache:
    """Ranked (rowid, score) lists of recent queries, each kept with the state of the
    full-text index it was computed in (what a state is, and that an answer is only
    kept with the state it was computed in, is the backend's business). A state is that
    of a `scope`: the whole index (PostgreSQL), or one data space's own (SQLite, whose
    spaces each have their tables); a scope's new state drops that scope's answers
    alone. Shared by the store's threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._states: dict[Hashable, Hashable] = {}
        self._entries: OrderedDict[Hashable, tuple[Hashable, rows.Ranked]] = OrderedDict()

    def get(self, state: Hashable, key: Hashable, scope: Hashable = None) -> rows.Ranked | None:
        with self._lock:
            if scope not in self._states or state != self._states[scope]:
                return None
            found = self._entries.get(key)
            if found is None or found[0] != scope:
                return None
            self._entries.move_to_end(key)
            return found[1]

    def put(
        self, state: Hashable, key: Hashable, ranked: rows.Ranked, scope: Hashable = None
    ) -> None:
        with self._lock:
            if scope not in self._states or state != self._states[scope]:
                stale = [k for k, (s, _r) in self._entries.items() if s == scope]
                for k in stale:
                    del self._entries[k]
                self._states[scope] = state
            self._entries[key] = (scope, ranked)
            while len(self._entries) > _CACHE_ENTRIES:
                self._entries.popitem(last=False)
            if len(self._states) > _CACHE_ENTRIES:  # scopes with no answer left
                kept = {s for s, _r in self._entries.values()}
                self._states = {s: v for s, v in self._states.items() if s in kept}

    def clear(self) -> None:
        with self._lock:
            self._states.clear()
            self._entries.clear()


class HitSearch(Base):
    def use_search_pool(self, pool: Ranker | None) -> None:
        """Rank this store's searches in `pool`'s worker processes (None: here again)."""
        self._shared.search_pool = pool

    @property
    def search_pool(self) -> Ranker | None:
        pool: Ranker | None = self._shared.search_pool
        return pool

    def clear_search_cache(self) -> None:
        """Forget cached rankings (the benchmark times cold queries with it)."""
        self._cache().clear()

    def _cache(self) -> RankCache:
        shared = self._shared
        cache: RankCache | None = shared.rank_cache
        if cache is None:
            with shared.lock:
                if shared.rank_cache is None:
                    shared.rank_cache = RankCache()
                cache = shared.rank_cache
        assert cache is not None
        return cache

    @abstractmethod
    def _ranking(self, sort: Sort) -> AbstractContextManager[Ranking]:
        """Ranked candidates for some terms, all read in one snapshot (and cached)."""

    def _fields(self, rids: list[int]) -> rows.Fields:
        """The indexed text of some candidates, field by field in reading order, each
        with the number of the question it belongs to (None outside the questions)."""
        rid_in, params = self.engine.in_list("rid", rids)
        of_rid, same = self.engine.in_list("candidate_rid", rids)
        return rows.fields(
            self._all(
                "SELECT rid, position, intro, summary, verdict, name, interviewers,"
                f" {fulltext.BODY_SQL} FROM candidates WHERE {rid_in}",
                params,
            ),
            self._all(
                "SELECT candidate_rid, number, question, goal, answer FROM questions"
                f" WHERE {of_rid} ORDER BY candidate_rid, seq",
                same,
            ),
        )

    def search(
        self,
        query: str,
        limit: int = 10,
        snippets: bool = True,
        sort: Sort = "relevance",
    ) -> list[SearchHit]:
        """Candidates containing every term of `query`, best first (or newest first).
        Matches of a Chinese phrase as typed come before matches of its words.
        QueryTooLong (store/errors.py) for more terms or characters than a search takes;
        SearchBusyError when a pool ranks searches and is full. Never raises on other input."""
        pool = self.search_pool
        if pool is not None:
            return pool.search(query, limit, snippets, sort, self.ws)
        with self._said(), self._ranking(sort) as ranked:
            found = rows.ranked_rows(query, limit, sort, ranked)
        if not found:
            return []
        rids = [r[0] for r in found]
        rid_in, params = self.engine.in_list("rid", rids)
        info = {
            r["rid"]: r
            for r in self._rows(
                f"SELECT rid, id, position, years, name FROM candidates WHERE {rid_in}", params
            )
        }
        return rows.search_hits(found, info, self._fields(rids) if snippets else None)
