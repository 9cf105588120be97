"""Lists that count people (issue 38): the digest's categories, App Home's new
transcripts and unanswered questions, `未回答` without a name show one line a candidate
(a person: their interviews one loop, `candidates.candidate_key`), not one a file.

A person's line is made of the lines of their interviews the list has (oldest first):
the newest one's facts (its id opens its card, which leads to the whole loop), the
round of each, the counts summed. Pure: the queries that read the lines are the
store's (store/digest.py, store/loops.py)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .models import DigestLine
from .rows import digest_line

PERSON = "coalesce(c.candidate_key, c.id)"
"""Who an interview's candidate is, in SQL over `candidates c` (an interview whose key was
never written stands alone)."""


def person_line(lines: Sequence[DigestLine]) -> DigestLine:
    """One candidate's lines (their interviews, oldest first) as one line."""
    newest = lines[-1]

    def latest(attr: str) -> Any:
        return next((v for x in reversed(lines) if (v := getattr(x, attr)) is not None), None)

    questions = [x.questions for x in lines if x.questions is not None]
    tally: dict[str, int] = {}
    for x in lines:
        for decision, n in x.tally.items():
            tally[decision] = tally.get(decision, 0) + n
    return newest.model_copy(
        update={
            "name": latest("name"),
            "position": latest("position"),
            "years": latest("years"),
            "ids": [x.id for x in lines],
            "rounds": [x.round for x in lines],
            "count": sum(x.count for x in lines),
            "questions": sum(questions) if questions else None,
            # issue 46: a round whose questions are unread makes the count partial
            "questions_read": all(x.questions_read for x in lines),
            "unrecorded": sum(x.unrecorded for x in lines),
            "claims": sum(x.claims for x in lines),
            "tally": tally,
        }
    )


def people_lines(rows: Iterable[dict[str, Any]], keys: Sequence[str]) -> list[DigestLine]:
    """`rows` (each with its candidate's key as `person`, oldest first) as one line for
    each of `keys`, in that order."""
    found: dict[str, list[DigestLine]] = {}
    for r in rows:
        line = digest_line(r)
        line.tally = dict(r.get("tally") or {})  # the decisions recorded, where counted
        found.setdefault(str(r["person"]), []).append(line)
    return [person_line(found[k]) for k in keys if k in found]


__all__ = ["PERSON", "people_lines", "person_line"]
