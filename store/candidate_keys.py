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
grouping right (store/loops.py); what they say wins over this.

Two people who share what would make them one (issue 45): a key with two names
(`names_contradict`), or a person split off another of the same name and position,
are recorded as alike (store/alikes.py); a later interview joins the one of them its
name fits, else none until someone picks."""

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


def has_ref(ref: str | None) -> bool:
    """Does the file give an explicit key (one that is more than spaces)?"""
    return bool(ref and normalised(ref))


def _han(text: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in text)


def name_form(name: str) -> str:
    """A name as two names of one key are compared: as `normalised`, without its
    punctuation (the dot of `迪丽热巴·迪力木拉提` written `・` or `•`, an apostrophe or a
    hyphen: a space), a name in Latin letters with its words in any order (`Li Lei`,
    `lei li`)."""
    plain = "".join(
        " " if unicodedata.category(ch).startswith("P") else ch
        for ch in unicodedata.normalize("NFKC", name)
    )
    if _han(plain):
        return normalised(plain)
    return " ".join(sorted(fold(plain).casefold().split()))


def names_contradict(a: str | None, b: str | None) -> bool:
    """Do two names of one explicit key say two people? Only when both are given, both
    in one script (Chinese characters, or letters), and differ once spaces, width,
    script, case and the order of Latin words are set aside. `李雷` and `Li Lei` cannot
    be compared (no romanisation is guessed): they do not contradict."""
    if not a or not b or not a.strip() or not b.strip():
        return False
    if _han(a) != _han(b):
        return False
    return name_form(a) != name_form(b)


def ref_name_key(ref: str, name: str) -> str:
    """The key of the interviews whose explicit key another person's name holds already
    (issue 45): the key and the name together, so that they are one candidate among
    themselves and not the other's."""
    return _hashed("ref+name", f"{normalised(ref)}\x1f{name_form(name)}")


def natural_key(interview_id: str, name: str | None, position: str | None, ref: str | None) -> str:
    """The candidate an interview's file says it belongs to (before any override)."""
    if ref and has_ref(ref):
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


__all__ = [
    "SAME_CANDIDATE",
    "has_ref",
    "looks_like_key",
    "name_form",
    "names_contradict",
    "natural_key",
    "normalised",
    "own_key",
    "ref_name_key",
]
