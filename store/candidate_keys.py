"""Who is one candidate (issue 38): the key that names a person applying for a position,
worked out from one interview's file. Pure: the store saves it with each interview
(`candidates.candidate_key`), the schema step m028 computes it for the rows an earlier
release wrote, both with this one function, so both backends agree.

Interviews are one candidate when they carry the same explicit key (`候选人编号`,
`应聘编号`, `简历编号`, `Candidate ID`, an e-mail address under `邮箱`/`Email`: the
transcript's `candidate_ref`), else the same name and the same position (in the same
data space: every query keeps to one), written alike once spaces, width, script and
case are set aside. Never by name alone: a name without a position, or a file with no
name (and no key), is a candidate of its own. `debrief link` / `unlink` put a wrong
grouping right (store/loops.py); what they say wins over this."""

from __future__ import annotations

import hashlib
import unicodedata

from .scripts import fold


def normalised(text: str) -> str:
    """`text` as the key compares it: NFKC (width), no spaces, one script, any case."""
    plain = unicodedata.normalize("NFKC", text)
    return fold("".join(plain.split())).casefold()


def _hashed(kind: str, value: str) -> str:
    return "c_" + hashlib.sha256(f"{kind}:{value}".encode()).hexdigest()[:12]


def own_key(interview_id: str) -> str:
    """The key of an interview that is a candidate of its own (no name, no key, or split
    off with `unlink`)."""
    return _hashed("file", interview_id)


def natural_key(interview_id: str, name: str | None, position: str | None, ref: str | None) -> str:
    """The candidate an interview's file says it belongs to (before any override)."""
    if ref and normalised(ref):
        return _hashed("ref", normalised(ref))
    who = normalised(name or "")
    what = normalised(position or "")
    if who and what:
        return _hashed("name", f"{who}\x1f{what}")
    return own_key(interview_id)


SAME_CANDIDATE = (
    "(SELECT c2.id FROM candidates c1 JOIN candidates c2 ON c2.ws = c1.ws"
    " AND c2.candidate_key = c1.candidate_key WHERE c1.ws = ? AND c1.id = ?)"
)
"""SQL: the ids of every interview of the candidate of one interview (parameters: its
data space, its id)."""


def looks_like_key(text: str) -> bool:
    """Could `text` be a candidate's key (`c_` and 12 hex digits)?"""
    t = text.strip()
    return len(t) == 14 and t.startswith("c_") and all(ch in "0123456789abcdef" for ch in t[2:])


__all__ = ["SAME_CANDIDATE", "looks_like_key", "natural_key", "normalised", "own_key"]
