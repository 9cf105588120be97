"""Unsupported claims counted on list lines (the digest, App Home): each candidate read
once through `get` (a store's `get_candidate`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from store.models import Candidate, DigestLine

from .check import claims_of


def count_claims(lines: Iterable[DigestLine], get: Callable[[str], Candidate | None]) -> None:
    """Set each line's `claims`: how many unsupported claims are made about its candidate."""
    counted: dict[str, int] = {}
    for line in lines:
        if line.id not in counted:
            c = get(line.id)
            counted[line.id] = len(claims_of(c)) if c is not None else 0
        line.claims = counted[line.id]
