"""What a reviewer's reply in a thread says: a decision, a follow-up answer, or a note.

Pure functions, forgiving of case, spaces, punctuation and script:
`Hire: 沟通清楚`, `通过，基础扎实`, `通過`, `no-hire`, `Strong No Hire!`, `问题2：补充…`,
`問題2：…`, `Q2: …`. A follow-up's answer is kept as written.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ..models import Decision
from ..scripts import fold
from .numerals import CN_NUMERALS, parse_question_number

# Longest first, so that 不通过 is not read as 通过 and "strong no hire" not as "strong hire".
_DECISIONS: list[tuple[str, Decision]] = [
    ("strong no hire", "strong_no_hire"),
    ("strongly no hire", "strong_no_hire"),
    ("强烈不推荐", "strong_no_hire"),
    ("strong hire", "strong_hire"),
    ("strongly hire", "strong_hire"),
    ("强烈推荐", "strong_hire"),
    ("no hire", "no_hire"),
    ("nohire", "no_hire"),
    ("不通过", "no_hire"),
    ("hire", "hire"),
    ("通过", "hire"),
    ("hold", "hold"),
    ("待定", "hold"),
]

# matched in the reply folded to one script (the same length), the answer cut from the reply
_followup_re = cache(
    lambda: re.compile(
        rf"^\s*(?:问题|question|q|ｑ)\s*(?P<n>[0-9０-９]+|[{CN_NUMERALS}]+)\s*[:：.、)）]\s*(?P<answer>.*)\s*$",
        re.IGNORECASE | re.DOTALL,
    )
)
_LEAD = " \t\n*_~>`\"'“”‘’「」【】[]()（）-—•·"


@dataclass(frozen=True)
class ReplyMeaning:
    decision: Decision | None = None
    followup_number: int | None = None
    followup_answer: str | None = None


_mention_re = cache(lambda: re.compile(r"^\s*(?:<[@!][^>]*>\s*)+"))


def _fold(text: str) -> str:
    text = _mention_re().sub("", unicodedata.normalize("NFKC", text)).lower()
    return re.sub(r"[\s\-_]+", " ", text)


def parse_decision(text: str) -> Decision | None:
    """The decision a reply starts with, if any."""
    folded = fold(_fold(text)).lstrip(_LEAD)
    for word, decision in _DECISIONS:
        if folded.startswith(word):
            after = folded[len(word) : len(word) + 1]
            if not after or not (after.isalnum() or after == "'"):
                return decision
            # glued to more letters: "hired", "通过率" are not decisions
    return None


def parse_followup(text: str) -> tuple[int, str] | None:
    reply = _mention_re().sub("", text)
    m = _followup_re().match(fold(reply))
    if not m:
        return None
    number = parse_question_number(m.group("n"))
    answer = reply[m.start("answer") : m.end("answer")].strip()
    if not number or not answer:
        return None
    return number, answer


def parse_reply(text: str) -> ReplyMeaning:
    followup = parse_followup(text)
    if followup:
        return ReplyMeaning(followup_number=followup[0], followup_answer=followup[1])
    return ReplyMeaning(decision=parse_decision(text))


def recorded_meaning(meaning: ReplyMeaning, has_question: Callable[[int], bool]) -> ReplyMeaning:
    """What a reply is recorded as: a follow-up answer to a question the candidate does
    not have (`has_question(number)` is False) is a note."""
    if meaning.followup_number is None or has_question(meaning.followup_number):
        return meaning
    return ReplyMeaning(decision=meaning.decision)
