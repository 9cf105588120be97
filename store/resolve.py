"""Resolving what someone typed to candidates, and listing them: a full id, else an id
prefix, else a name as the transcript writes it, else a name prefix, else words that all
occur in the position, else a full-text search. Each step is one query, said in the
store's dialect by its engine (store/engine.py). A step that finds several gives them
all: a pick list (two interviews of one person, or two people of one name)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import fulltext
from .engine import Clause, Engine
from .errors import QueryTooLong
from .models import CandidateSummary, SearchHit
from .rows import NEWEST_FIRST

NEWEST = NEWEST_FIRST.format(p="")


class Resolution:
    """What `resolve()` found for some text: one candidate, several, or none."""

    def __init__(self, query: str, matches: list[CandidateSummary]) -> None:
        self.query = query
        self.matches = matches

    @property
    def unique(self) -> CandidateSummary | None:
        return self.matches[0] if len(self.matches) == 1 else None


def position_has(engine: Engine) -> str:
    """A test that one parameter occurs in the candidate's position, in any case."""
    return engine.contains("lower(position)", "lower(?)")


def list_clause(
    engine: Engine, position: str | None, unanswered_only: bool, limit: int | None, offset: int
) -> Clause:
    """The clause after `SELECT ... FROM candidates` that lists candidates newest first,
    `position` a substring of theirs (any case), `unanswered_only` those with an open
    question."""
    where: list[str] = []
    params: list[Any] = []
    if position:
        where.append(position_has(engine))
        params.append(position)
    if unanswered_only:
        where.append("unanswered_count > 0")
    clause = " WHERE " + " AND ".join(where) if where else ""
    clause += f" ORDER BY {NEWEST}, id LIMIT ? OFFSET ?"
    return clause, [*params, engine.no_limit if limit is None else limit, offset]


def resolve(
    text: str,
    limit: int,
    engine: Engine,
    summaries: Callable[[str, list[Any]], list[CandidateSummary]],
    search: Callable[[str, int], list[SearchHit]],
) -> Resolution:
    """`summaries(clause, params)`: the summaries `SELECT ... FROM candidates` + clause
    finds; `search(text, limit)`: the full-text hits, without snippets."""
    text = " ".join(text.replace("\x00", " ").split())
    if not text:
        return Resolution(text, [])
    exact = summaries(" WHERE id = ?", [text])
    if exact:
        return Resolution(text, exact[:1])
    prefix, params = engine.starts_with("id", text)
    found = summaries(f" WHERE {prefix} ORDER BY id LIMIT ?", [*params, limit])
    if found:
        return Resolution(text, found)
    named = summaries(f" WHERE name = ? ORDER BY {NEWEST}, id LIMIT ?", [text, limit])
    if named:
        return Resolution(text, named)
    prefix, params = engine.starts_with("name", text)
    named = summaries(f" WHERE {prefix} ORDER BY {NEWEST}, id LIMIT ?", [*params, limit])
    if named:
        return Resolution(text, named)
    words = list(dict.fromkeys(text.split()))[: fulltext.MAX_TERMS]
    by_position = summaries(
        " WHERE "
        + " AND ".join(position_has(engine) for _ in words)
        + f" ORDER BY {NEWEST}, id LIMIT ?",
        [*words, limit],
    )
    if by_position:
        return Resolution(text, by_position)
    try:
        hits = search(text, limit)
    except QueryTooLong:  # more than a search takes: no candidate is named by so much
        return Resolution(text, [])
    if not hits:
        return Resolution(text, [])
    ids, params = engine.in_list("id", [h.id for h in hits])
    by_id = {s.id: s for s in summaries(f" WHERE {ids}", params)}
    return Resolution(text, [by_id[h.id] for h in hits if h.id in by_id])
