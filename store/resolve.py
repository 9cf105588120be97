"""What both backends' candidate stores do alike: list candidates, resolve what someone
typed to candidates, and work out a save's indexed text (`CandidateLookups`).

Resolving: a full id, else a unique id prefix, else words that all occur in the
position, else a full-text search. Each backend says the steps in its own SQL
(`ResolveSQL`) and reads the summaries through its own connection."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from . import fulltext, rows
from .clock import utcnow
from .models import CandidateSummary, SearchHit, Transcript

if TYPE_CHECKING:
    from .fulltext import Sort

Where = tuple[str, list[Any]]


class Resolution:
    """What `resolve()` found for some text: one candidate, several, or none."""

    def __init__(self, query: str, matches: list[CandidateSummary]) -> None:
        self.query = query
        self.matches = matches

    @property
    def unique(self) -> CandidateSummary | None:
        return self.matches[0] if len(self.matches) == 1 else None


@dataclass(frozen=True)
class ResolveSQL:
    """A backend's words for the steps: its parameter mark, a position-contains test
    (one parameter), the clauses (with their parameters) for an id prefix and for a
    list of ids, and its LIMIT for no limit."""

    mark: str
    position: str
    prefix: Callable[[str, int], Where]
    ids: Callable[[list[str]], Where]
    no_limit: int | None  # what LIMIT takes for "all rows"


def list_clause(
    sql: ResolveSQL, position: str | None, unanswered_only: bool, limit: int | None, offset: int
) -> Where:
    """The clause after `SELECT ... FROM candidates` that lists candidates newest first,
    `position` a substring of theirs (any case), `unanswered_only` those with an open
    question."""
    where: list[str] = []
    params: list[Any] = []
    if position:
        where.append(sql.position)
        params.append(position)
    if unanswered_only:
        where.append("unanswered_count > 0")
    clause = " WHERE " + " AND ".join(where) if where else ""
    clause += f" ORDER BY first_indexed_at DESC, id LIMIT {sql.mark} OFFSET {sql.mark}"
    return clause, [*params, sql.no_limit if limit is None else limit, offset]


def resolve(
    text: str,
    limit: int,
    sql: ResolveSQL,
    summaries: Callable[[str, list[Any]], list[CandidateSummary]],
    search: Callable[[str, int], list[SearchHit]],
) -> Resolution:
    """`summaries(clause, params)`: the summaries `SELECT ... FROM candidates` + clause
    finds; `search(text, limit)`: the full-text hits, without snippets."""
    text = " ".join(text.replace("\x00", " ").split())
    if not text:
        return Resolution(text, [])
    exact = summaries(f" WHERE id = {sql.mark}", [text])
    if exact:
        return Resolution(text, exact[:1])
    prefix = summaries(*sql.prefix(text, limit))
    if prefix:
        return Resolution(text, prefix)
    words = list(dict.fromkeys(text.split()))[: fulltext.MAX_TERMS]
    by_position = summaries(
        " WHERE "
        + " AND ".join(sql.position for _ in words)
        + f" ORDER BY first_indexed_at DESC, id LIMIT {sql.mark}",
        [*words, limit],
    )
    if by_position:
        return Resolution(text, by_position)
    hits = search(text, limit)
    if not hits:
        return Resolution(text, [])
    found = {s.id: s for s in summaries(*sql.ids([h.id for h in hits]))}
    return Resolution(text, [found[h.id] for h in hits if h.id in found])


class CandidateLookups:
    """The candidate-store methods both backends share. A backend supplies its
    `_RESOLVE_SQL`, `_rows`, `search` and `_save_indexed` (the write itself)."""

    _RESOLVE_SQL: ClassVar[ResolveSQL]

    if TYPE_CHECKING:

        def _rows(
            self, sql: str, params: Sequence[Any] | dict[str, Any] = ()
        ) -> list[dict[str, Any]]: ...

        def search(
            self, query: str, limit: int = 10, snippets: bool = True, sort: Sort = "relevance"
        ) -> list[SearchHit]: ...

    def _save_indexed(
        self, t: Transcript, mtime_ns: int, size: int, now: str, fts: tuple[str, str]
    ) -> None:
        raise NotImplementedError

    def save(
        self,
        t: Transcript,
        mtime_ns: int = 0,
        size: int = 0,
        prepared: tuple[str, str] | None = None,
    ) -> None:
        """Insert or replace one transcript, atomically. `prepared`: its full-text and
        bigram strings, when a worker process already computed them."""
        now = utcnow()
        self._save_indexed(t, mtime_ns, size, now, prepared or fulltext.indexed(t))

    def list_candidates(
        self,
        position: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        unanswered_only: bool = False,
    ) -> list[CandidateSummary]:
        """Candidates, newest first; `position` filters by substring, any case."""
        sql = self._RESOLVE_SQL
        return self._summaries(*list_clause(sql, position, unanswered_only, limit, offset))

    def resolve(self, text: str, limit: int = 25) -> Resolution:
        """A full id, a unique id prefix, or words that match one candidate."""
        return resolve(text, limit, self._RESOLVE_SQL, self._summaries, self._plain_search)

    def _summaries(self, clause: str, params: list[Any]) -> list[CandidateSummary]:
        return [rows.summary(r) for r in self._rows(rows.SUMMARY_SQL + clause, params)]

    def _plain_search(self, text: str, limit: int) -> list[SearchHit]:
        return self.search(text, limit=limit, snippets=False)
