"""Resolving what someone typed to candidates, the same steps on every backend.

A full id, else a unique id prefix, else words that all occur in the position, else a
full-text search. Each backend says the steps in its own SQL (`ResolveSQL`) and reads
the summaries through its own connection."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import fulltext
from .models import CandidateSummary, SearchHit

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
    (one parameter), and the clauses (with their parameters) for an id prefix and for
    a list of ids."""

    mark: str
    position: str
    prefix: Callable[[str, int], Where]
    ids: Callable[[list[str]], Where]


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
