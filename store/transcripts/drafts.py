"""The pieces a parse puts together: a question as it is read (its lines, and whether its
考察目标 and 回答 were seen), a block of lines made text, the summary without its title,
whether a who-or-when value reads as one, and the questions a parse found. Pure
functions, used by `parser.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..models import Question
from .answers import unanswered_reason
from .labels import NEXT_LINE_VALUE_MAX, SENTENCE_END, HeaderKind, summary_label_re, title_re
from .names import NAME_MAX, looks_like_name, says_nothing, split_names


@dataclass
class Draft:
    """A question as it is read: where it starts, its lines, what was seen of it."""

    number: int
    line: int
    question: list[str] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    answer: list[str] = field(default_factory=list)
    has_goal: bool = False
    has_answer: bool = False


def block(lines: list[str]) -> str:
    """Join lines, keeping inner line breaks and paragraphs, trimming the edges."""
    text = "\n".join(line.rstrip(" \t\u3000\u00a0") for line in lines)
    return text.strip("\n \t\u3000\u00a0\ufeff")


def clean_summary(lines: list[str]) -> str:
    """The text before 岗位, without a title line such as `XX面试笔记` or `# …`."""
    non_blank = [i for i, line in enumerate(lines) if line.strip(" \t\u3000\u00a0")]
    if non_blank:
        first = lines[non_blank[0]].strip(" \t\u3000\u00a0")
        is_title = not summary_label_re().match(first) and (
            first.startswith("#")
            or (
                len(first) <= 40
                and not first.endswith(SENTENCE_END)
                and bool(title_re().match(first))
            )
        )
        if not is_title and len(non_blank) > 1 and not summary_label_re().match(first):
            is_title = len(first) <= 30 and not first.endswith(SENTENCE_END)
        if is_title:
            lines = lines[non_blank[0] + 1 :]
    return summary_label_re().sub("", block(lines), count=1)


REF_MAX = 80
"""A candidate's explicit key (an applicant's number, an e-mail address) is at most this long."""


def identity_accepted(kind: HeaderKind, value: str) -> bool:
    """Does `value` read as what a who-or-when label says? A name that looks like one,
    names, a date of any form (what cannot be read is kept as text), a short round.
    Otherwise the label and its value stay text where they are."""
    if says_nothing(value):
        return True
    if kind == "name":
        return looks_like_name(value)
    if kind == "interviewers":
        return split_names(value) is not None
    if kind == "date":
        return len(value) <= NEXT_LINE_VALUE_MAX
    if kind == "ref":  # one word: `A-1024`, `wang@example.com`
        return len(value) <= REF_MAX and len(value.split()) == 1
    return kind == "round" and len(value) <= NAME_MAX


def questions(drafts: list[Draft]) -> list[Question]:
    """The questions as read, each answered or not, and why not."""
    found = []
    for d in drafts:
        answer = block(d.answer)
        reason = unanswered_reason(answer)
        found.append(
            Question(
                number=d.number,
                question=block(d.question),
                goal=block(d.goal),
                answer=answer,
                answered=reason is None,
                unanswered_reason=reason,
            )
        )
    return found
