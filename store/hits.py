"""`search()`, the same on both backends: rank (the backend's SQL), merge the phrase's
and the words' matches, read the hits' fields and cut their snippets (store/rows.py).

A backend supplies `_ranking` (its ranked candidates for a list of terms, inside one
read snapshot where it has one), `_rid_in` (its words for "rid is one of these") and
`_fields` (the hits' indexed text)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from . import rows
from .fulltext import Sort, Term
from .models import SearchHit

Ranking = Callable[[list[Term], int], rows.Ranked]


class HitSearch:
    if TYPE_CHECKING:

        def _rows(
            self, sql: str, params: Sequence[Any] | dict[str, Any] = ()
        ) -> list[dict[str, Any]]: ...

    def _ranking(self, sort: Sort) -> AbstractContextManager[Ranking]:
        raise NotImplementedError

    def _rid_in(self, rids: list[int]) -> tuple[str, list[Any]]:
        raise NotImplementedError

    def _fields(self, rids: list[int]) -> rows.Fields:
        raise NotImplementedError

    def search(
        self,
        query: str,
        limit: int = 10,
        snippets: bool = True,
        sort: Sort = "relevance",
    ) -> list[SearchHit]:
        """Candidates containing every term of `query`, best first (or newest first).
        Matches of a Chinese phrase as typed come before matches of its words.
        Never raises on input."""
        with self._ranking(sort) as ranked:
            found = rows.ranked_rows(query, limit, sort, ranked)
        if not found:
            return []
        rids = [r[0] for r in found]
        where, params = self._rid_in(rids)
        info = {
            r["rid"]: r
            for r in self._rows(f"SELECT rid, id, position, years FROM candidates {where}", params)
        }
        return rows.search_hits(found, info, self._fields(rids) if snippets else None)
