"""The pieces a parse puts together: a question as it is read (its lines, and whether its
考察目标 and 回答 were seen), a block of lines made text, the summary without its title,
whether a who-or-when value reads as one, and the questions a parse found. Pure
functions, used by `parser.py`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from ..models import Question
from .answers import unanswered_reason
from .labels import (
    NEXT_LINE_VALUE_MAX,
    SENTENCE_END,
    HeaderKind,
    list_item_re,
    numbered_re,
    summary_label_re,
    title_re,
)
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


_QUESTION_END = ("?", "？")
_meta_key_re = cache(lambda: re.compile(r"^[A-Za-z_][\w-]{0,40}[ \t]*:"))


def _says_no_summary(paragraph: list[str]) -> bool:
    """Is the first paragraph before the header something else than a summary: a list
    (`- 自我介绍`, `1. 问题：`), a question (`你如何确保…？`), metadata left from front
    matter without its fences (`createTime: …`, `tags: 面经`), or a table's rows, their
    cells apart by tabs (`候选人\t刘强`)?"""
    first = paragraph[0].strip(" \t\u3000\u00a0")
    last = paragraph[-1].strip(" \t\u3000\u00a0")
    if list_item_re().match(first) or numbered_re().match(first):
        return True
    if first.endswith(_QUESTION_END) or last.endswith(_QUESTION_END):
        return True
    if all("\t" in line.strip(" \u3000\u00a0") for line in paragraph):
        return True  # a table's rows, cells apart (`候选人\t刘强`, a Word table as text)
    return all(_meta_key_re().match(line.strip()) for line in paragraph)


def clean_summary(lines: list[str]) -> str:
    """The text before 岗位, without a title line such as `XX面试笔记` or `# …`; "" when
    its first paragraph is not a summary but a list, a question or metadata (facts only
    from what the file states as such: the summary may be a label's, `总结：…`, always)."""
    non_blank = [i for i, line in enumerate(lines) if line.strip(" \t\u3000\u00a0")]
    if non_blank:
        first = lines[non_blank[0]].strip(" \t\u3000\u00a0")
        if summary_label_re().match(first):
            return summary_label_re().sub("", block(lines), count=1)
        listed = bool(list_item_re().match(first) or numbered_re().match(first))
        is_title = not listed and (
            first.startswith("#")
            or (
                len(first) <= 40
                and not first.endswith(SENTENCE_END)
                and bool(title_re().match(first))
            )
        )
        if not is_title and not listed and len(non_blank) > 1:
            is_title = len(first) <= 30 and not first.endswith(SENTENCE_END)
        if is_title:
            lines = lines[non_blank[0] + 1 :]
    text = block(lines)
    if text and _says_no_summary(text.split("\n\n", 1)[0].split("\n")):
        return ""
    return summary_label_re().sub("", text, count=1)


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
