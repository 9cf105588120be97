"""Unsupported claims counted on list lines (the digest, App Home): each candidate read
once through `get` (a store's `get_candidate`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from store.models import Candidate, DigestLine

from .check import claims_of


def count_claims(lines: Iterable[DigestLine], get: Callable[[str], Candidate | None]) -> None:
    """Set each line's `claims`: how many unsupported claims are made about its candidate,
    over every interview the line lists (a person's line lists each of their rounds)."""
    counted: dict[str, int] = {}
    for line in lines:
        for interview in line.ids or [line.id]:
            if interview not in counted:
                c = get(interview)
                counted[interview] = len(claims_of(c)) if c is not None else 0
        line.claims = sum(counted[interview] for interview in line.ids or [line.id])
