"""The facts of an interview read from a written file other than the labelled layout (a
question list, a dialogue): who, which position, which round, when, the summary and the
verdict, each only from what the file states as such.

- Who and when, the position and the years: a label of the labelled layout's grammar
  (labels.py: `姓名：`, `面试官：`, `Interviewer:`, `Date:`, `岗位：`, `Position:`) on a line
  of a paragraph or a two-cell table row before the interview's first question. Of a
  file of several interviews, the header before the first one gives who (name, key,
  position, years) to each, never when nor who interviewed: each may differ. Never
  from an item: `- 面试评价：…` inside a list is what a list says, not a label.
- The round: the interview's heading (sections.py), else a 轮次 / Round label.
- The summary: the paragraphs under a heading that says so (总结, 面试总结, 小结,
  Summary, Overview…), or a paragraph labelled so (`总结：…`). The first paragraph of a
  file is never taken for one: it may be a question, a list, a title, or front matter.
- The verdict: the paragraphs under a heading that is a verdict label (点评, 面试评价,
  Verdict, Feedback…), or a paragraph labelled so (`点评：…`).

Pure: blocks in, `Facts` out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .document import Block
from .drafts import identity_accepted
from .kinds import asks_question, question_heading
from .labels import HeaderKind, identity_kind, label_kind, match_field, match_identity, split_header
from .meeting_facts import HeaderFacts


@dataclass
class Facts(HeaderFacts):
    summary: str = ""
    verdict: str | None = None


def _lines(block: Block) -> list[str]:
    if block.kind == "table":
        return [f"{row[0]}：{row[1]}" for row in block.rows if len(row) == 2]
    if block.kind == "paragraph":
        return block.text.split("\n")
    return []


def _header(facts: Facts, line: str) -> None:
    parts: list[tuple[HeaderKind, str]]
    m = match_identity(line)
    if m is not None:
        parts = split_header(identity_kind(m), m.group("rest") or "", identity_accepted)
        if not identity_accepted(*parts[0]):
            return
    else:
        fm = match_field(line)
        if fm is None or label_kind(fm) not in ("position", "years"):
            return
        kind: HeaderKind = "position" if label_kind(fm) == "position" else "years"
        parts = split_header(kind, fm.group("rest") or "", identity_accepted)
    for part, value in parts:
        facts.take(part, value)


def _labelled_as(text: str) -> str | None:
    """ "summary" or "verdict" when a heading's or a paragraph's first line starts with
    that label; None otherwise."""
    first = text.split("\n", 1)[0]
    fm = match_field(first.strip().rstrip("：:") + "：") if len(first) <= 40 else None
    if fm is None:
        fm = match_field(first)
    if fm is None:
        return None
    kind = label_kind(fm)
    return kind if kind in ("summary", "verdict") else None


def _under(blocks: Sequence[Block], at: int) -> str:
    """The paragraphs and quotes under the heading `blocks[at]`, to the next heading."""
    out: list[str] = []
    for b in blocks[at + 1 :]:
        if b.kind == "heading":
            break
        if b.kind in ("paragraph", "quote"):
            out.append(b.text)
    return "\n\n".join(out).strip()


def written_facts(blocks: Sequence[Block], header: Sequence[Block] = ()) -> Facts:
    """The facts `blocks` state (one interview's), with those of the file's `header`
    (the blocks before its interviews) for who and when."""
    facts = Facts()
    for b in blocks:
        if (b.kind == "heading" and question_heading(b.text)) or (
            b.kind == "item" and asks_question(b.text)
        ):
            break
        for line in _lines(b):
            _header(facts, line)
    summary: list[str] = []
    verdict: list[str] = []
    for at, b in enumerate(blocks):
        if b.kind == "heading":
            said = _labelled_as(b.text)
            if said is not None:
                rest = _under(blocks, at)
                if rest:
                    (summary if said == "summary" else verdict).append(rest)
        elif b.kind == "paragraph" and _labelled_as(b.text) is not None:
            fm = match_field(b.text)
            if fm is None:
                continue
            said = label_kind(fm)
            rest = b.text[fm.start("rest") :].strip() if fm.group("rest") is not None else ""
            if rest:
                (summary if said == "summary" else verdict).append(rest)
    shared = Facts()  # the file's header, over several interviews: who, not when
    for b in header:
        for line in _lines(b):
            _header(shared, line)
    facts.name = facts.name or shared.name
    facts.ref = facts.ref or shared.ref
    facts.position = facts.position or shared.position
    facts.years_text = facts.years_text or shared.years_text
    facts.summary = "\n\n".join(summary)
    facts.verdict = "\n\n".join(verdict) or None
    return facts
