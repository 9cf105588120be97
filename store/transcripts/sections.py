"""The interviews a written file holds: one, or several under headings of their own.

A heading names a round when it says one (`一面`, `二面`, `终面`, `HR面`, `电面`, `第二轮`,
`Round 2`, `Transcript 2`, `Interview 3`); where no heading does, a short paragraph of
its own that only names one (`**二面**`, a line `一面` of a Word file) counts as one. A file holds several interviews when at least
two such headings each hold questions (kinds.py `asks_question`, under them up to the
next heading of their level or above): each is an interview. Beside them, a heading of
the same level as one that holds round headings (a company, `## 滴滴` over `### 一面`,
`### 二面`), or of the same level as a round heading, that holds questions of its own but
no round heading is one interview too (`## 美团` with its list of questions): a file of
interviews by company. A heading that is a question (`### Question 3`) is a question, and
a heading of what follows an interview (总结, 反问, 感受, 不足…) is never an interview.

Where no two round headings hold questions, headings under each of which the questions
start again at 1 (`# Participant 2` over `### Question 1` … `### Question 5`, after
`# Participant 1` over its own) are one interview each: numbering that starts over is
another interview, often of another person, never the same interview's questions 6-10.

With fewer than two, the whole file is one interview, whose round is the one named by
the only round heading that holds questions, else by the file's first heading
(`# 字节前端一面-byc`), else none.

Pure: a `Document` in, `Section`s out, in file order."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from .document import Block, Document
from .kinds import asks_question, asks_strictly, question_heading, round_named

_AFTER_WORDS = (
    "总结",
    "小结",
    "反问",
    "感受",
    "心得",
    "体会",
    "建议",
    "不足",
    "复盘",
    "反思",
    "准备",
    "summary",
    "reflection",
    "takeaways",
    "notes",
)


@dataclass(frozen=True)
class Section:
    """One interview of a file: its blocks, the round its heading names, and the lines
    of the source text it spans (1-based, both ends included)."""

    blocks: tuple[Block, ...]
    round: str | None
    first_line: int
    last_line: int
    heading: Block | None = None


def _numbered_one(text: str) -> bool:
    """Is this question heading the first question (`Question 1`, `问题1`, `Q1`)?"""
    m = re.search(r"\d++", text)  # (re's cache: compiled on first use, not at import)
    return m is not None and int(m.group()) == 1


def _after_interview(text: str) -> bool:
    lowered = text.strip().lower()
    return any(lowered.startswith(w) or lowered.endswith(w) for w in _AFTER_WORDS)


def _asking(block: Block) -> bool:
    if block.kind == "heading":
        return question_heading(block.text)
    if block.kind == "paragraph":
        return asks_strictly(block.text)
    return block.kind == "item" and asks_question(block.text)


def _spans(blocks: Sequence[Block], heads: Sequence[int]) -> tuple[dict[int, int], dict[int, int]]:
    """For each heading of `heads`: where its span ends (the next of `heads` of its level
    or above, else the end) and the heading it is under (the last before it of a higher
    level; -1 when none). One pass, with a stack."""
    ends: dict[int, int] = {}
    parents: dict[int, int] = {}
    open_: list[int] = []
    for i in heads:
        level = blocks[i].level
        while open_ and blocks[open_[-1]].level >= level:
            ends[open_.pop()] = i
        parents[i] = open_[-1] if open_ else -1
        open_.append(i)
    for i in open_:
        ends[i] = len(blocks)
    return ends, parents


def _round_lines(blocks: Sequence[Block]) -> tuple[Block, ...]:
    """`blocks`, with a short paragraph that only names a round (`**二面**`, a line `一面`
    in a Word file's text) read as a heading below every other, where no heading names
    a round: people set rounds apart so as often as with headings."""
    if any(b.kind == "heading" and round_named(b.text) for b in blocks):
        return tuple(blocks)
    return tuple(
        Block("heading", b.text, 7, b.marks, line=b.line)
        if b.kind == "paragraph"
        and len(b.text) <= 20
        and not any(ch in b.text for ch in "\n:：")  # (`轮次：二面` is a label)
        and round_named(b.text)
        and not b.text.rstrip().endswith(("。", ".", "！", "!", "了", "？", "?", "：", ":"))
        else b
        for b in blocks
    )


def sections(doc: Document, source_lines: int) -> list[Section]:
    """The interviews of `doc`, in file order; `source_lines` is how many lines the
    text given to document() has (the last section runs to it)."""
    blocks = _round_lines(doc.blocks)
    # the headings that are no question: the ones that may bound an interview
    heads = [
        i for i, b in enumerate(blocks) if b.kind == "heading" and not question_heading(b.text)
    ]
    ends, parents = _spans(blocks, heads)
    asking = [0]  # how many blocks ask something, before each block
    for b in blocks:
        asking.append(asking[-1] + _asking(b))

    def asked(i: int) -> int:
        return asking[ends[i]] - asking[i + 1]

    rounds = [
        i
        for i in heads
        if round_named(blocks[i].text) and not _after_interview(blocks[i].text) and asked(i)
    ]

    def holds_round(i: int) -> bool:
        """Is a round heading inside the span of heading `i`?"""
        at = bisect_right(rounds, i)
        return at < len(rounds) and rounds[at] < ends[i]

    # the innermost: `# 字节一面二面` over `## 一面`, `## 二面` is not an interview itself
    rounds = [i for i in rounds if not holds_round(i)]
    chosen = set(rounds)
    if len(rounds) >= 2:
        levels = {blocks[i].level for i in rounds}
        for i in rounds:  # the headings that hold round headings: `## 滴滴`
            if parents[i] >= 0:
                levels.add(blocks[parents[i]].level)
        for i in heads:
            if (
                i not in chosen
                and blocks[i].level in levels
                and not _after_interview(blocks[i].text)
                and not holds_round(i)
                and asked(i) >= 1
            ):
                chosen.add(i)
    if len(chosen) < 2:
        restarts = _starting_over(blocks, heads, ends)
        if len(restarts) >= 2:
            chosen = set(restarts)
    if len(chosen) < 2:
        only = rounds[0] if len(rounds) == 1 else None
        named = round_named(blocks[only].text) if only is not None else None
        if named is None:
            first = next((b for b in blocks if b.kind == "heading"), None)
            named = round_named(first.text) if first is not None else None
        return [Section(tuple(blocks), named, 1, source_lines)]
    order = sorted(chosen)
    found: list[Section] = []
    for n, i in enumerate(order):
        end = ends[i]
        if n + 1 < len(order):
            end = min(end, order[n + 1])
        last = blocks[end].line - 1 if end < len(blocks) else source_lines
        found.append(
            Section(
                tuple(blocks[i + 1 : end]),
                round_named(blocks[i].text),
                blocks[i].line,
                max(last, blocks[i].line),
                blocks[i],
            )
        )
    return found


def _starting_over(
    blocks: Sequence[Block], heads: Sequence[int], ends: dict[int, int]
) -> list[int]:
    """The innermost headings under which the question headings start at 1: the first
    question heading in each one's span is numbered 1 (`### Question 1`)."""
    starts = [
        i
        for i, b in enumerate(blocks)
        if b.kind == "heading" and question_heading(b.text) and _numbered_one(b.text)
    ]
    found: list[int] = []
    for i in heads:
        if _after_interview(blocks[i].text):
            continue
        at = bisect_right(starts, i)
        inside = [s for s in starts[at:] if s < ends[i]]
        if len(inside) != 1:  # none, or several interviews under it (a title over them)
            continue
        first_question = next(
            (
                j
                for j in range(i + 1, ends[i])
                if blocks[j].kind == "heading" and question_heading(blocks[j].text)
            ),
            None,
        )
        if first_question == inside[0]:
            found.append(i)
    # innermost only: a heading that holds another of them is not an interview itself
    return [i for i in found if not any(i < j < ends[i] for j in found)]


def preface(doc: Document, found: Sequence[Section]) -> tuple[Block, ...]:
    """The blocks before the first interview (the file's title and header)."""
    if not found or found[0].heading is None:
        return ()
    first = found[0].first_line
    return tuple(b for b in doc.blocks if b.line < first)
