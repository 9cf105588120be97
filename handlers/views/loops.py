"""The candidate as a person (issue 38), pure: the loop card (every interview of one
candidate on one phone screen), the pick list of candidates (people, not files), and
the line an interview's own card gets ("第 1 场，共 2 场") with its button to the loop.

Sized for the worst case: `LOOP_SHOWN` interviews, each a section of at most about
`INTERVIEW_BUDGET` characters, fit Slack's 50 blocks and ~13,200 characters of block
text with room to spare (tests/test_loop_card.py builds twelve of long verdicts)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from slack_sdk.models.blocks import Block

from store.loop_models import Loop, LoopInterview, LoopSummary, OpenQuestion
from store.models import DECISIONS

from ..blocks import Message, button, context, escape, fit, header, message, section
from ..i18n import Locale, t
from .alike import rounds_text
from .common import (
    HEAD_LIMITS,
    OPEN,
    POSITION_LIMIT,
    _cut,
    _post_button,
    _posted_by,
    decision_label,
    interviewers_text,
    nothing_counted,
)

LOOP_SHOWN = 12  # interviews on the card, the newest ones (more: a line says how many)
VERDICT_GIST = 160  # the first sentence of each interview's verdict, at most
OPEN_NUMBERS = 12  # an interview's open questions, by number
OPEN_SHOWN = 8  # the questions still open across the loop, each with its first words
OPEN_WORDS = 40
PICK_LIMIT = 10
LOOP = "loop"  # the Kind a button to the loop names (handlers/route.py Kind.LOOP)


def first_sentence(text: str, limit: int = VERDICT_GIST) -> str:
    """A verdict's first sentence (up to `limit`, escaped; `…` where it was cut)."""
    text = " ".join(text.split())
    m = re.search(r"[。！？!?]|\.(?:\s|$)", text)
    first = text[: m.end()].strip() if m else text
    cut, was_cut = fit(first, limit)
    return cut if was_cut or first == text else cut + "…"


def _words(text: str, limit: int = OPEN_WORDS) -> str:
    return fit(" ".join(text.split()), limit)[0]


def round_name(iv: LoopInterview | OpenQuestion, locale: Locale) -> str:
    """The round as written (`一面`), or that it was not given (escaped)."""
    if iv.round:
        return escape(_cut(iv.round, HEAD_LIMITS["round"]))
    return t(locale, "loop_round_unknown")


def date_of(iv: LoopInterview, locale: Locale) -> str:
    """`2026-11-20` (or what the file wrote), else that it is unknown (escaped)."""
    if iv.interviewed_at:
        return escape(iv.interviewed_at.replace("T", " ")[:16])
    if iv.interviewed_at_text:
        return escape(_cut(iv.interviewed_at_text, HEAD_LIMITS["date"]))
    return t(locale, "loop_date_unknown")


def tally_text(counts: dict[str, int], locale: Locale) -> str:
    """`1 通过, 1 不通过`: reviewers' decisions in their order, strongest for first."""
    return ", ".join(f"{counts[d]} {decision_label(locale, d)}" for d in DECISIONS if counts.get(d))


def decisions_line(counts: dict[str, int], locale: Locale) -> str:
    if not any(counts.values()):
        return t(locale, "loop_no_decisions")
    return t(locale, "loop_card_decisions", tally=tally_text(counts, locale))


def loop_name(loop: Loop | LoopSummary, locale: Locale) -> str:
    """`name · position` (raw), the first interview's id standing for a missing name."""
    first = loop.interviews[0].id if isinstance(loop, Loop) and loop.interviews else loop.key
    name = _cut(loop.name or first, HEAD_LIMITS["name"])
    position = _cut(loop.position or t(locale, "position_unknown"), POSITION_LIMIT)
    return f"{name} · {position}"


def loop_headline(loop: Loop, locale: Locale) -> str:
    """`王小明 · 后端工程师 · 2 场面试` (raw: `header` escapes it)."""
    first = loop.interviews[0].id if loop.interviews else loop.key
    return t(
        locale,
        "loop_card_head",
        name=_cut(loop.name or first, HEAD_LIMITS["name"]),
        position=_cut(loop.position or t(locale, "position_unknown"), HEAD_LIMITS["position"]),
        count=len(loop.interviews),
    )


def open_line(q: OpenQuestion, locale: Locale) -> str:
    """`一面 · 问题3：What the question asks…`, escaped."""
    return t(
        locale,
        "loop_card_open_line",
        round=round_name(q, locale),
        n=q.number,
        words=_words(q.question),
    )


def open_lines(loop: Loop, locale: Locale, shown: int = OPEN_SHOWN) -> list[str]:
    lines = ["• " + open_line(q, locale) for q in loop.open[:shown]]
    if len(loop.open) > shown:
        lines.append(t(locale, "more_items", count=len(loop.open) - shown))
    return lines


def interview_lines(iv: LoopInterview, locale: Locale, hidden: bool = False) -> list[str]:
    """An interview in three lines: round · date · interviewers; the reviewers'
    decisions and its open questions; the first sentence of its verdict."""
    first = " · ".join(
        p
        for p in (
            round_name(iv, locale),
            date_of(iv, locale),
            interviewers_text(iv.interviewers, locale),
        )
        if p
    )
    second = decisions_line({str(k): v for k, v in iv.decisions.items()}, locale)
    if hidden:  # independent review (handlers/review.py): not what was decided
        second = t(locale, "review_loop_hidden")
    if iv.open_questions:
        numbers = t(locale, "name_separator").join(
            t(locale, "loop_question_ref", n=n) for n in iv.open_questions[:OPEN_NUMBERS]
        )
        if len(iv.open_questions) > OPEN_NUMBERS:
            numbers += "…"
        second += " · " + t(locale, "loop_interview_open", numbers=numbers)
    if not iv.questions and (not iv.questions_read or iv.unrecorded):  # never looks answered
        second += " · " + nothing_counted(iv.questions_read, iv.unrecorded, locale)
    third = first_sentence(iv.verdict) if iv.verdict else t(locale, "loop_no_verdict")
    return [first, second, third]


def all_counted(loop: Loop) -> bool:
    """Whether every interview's questions were read, with their answers recorded (issue
    46): only then may nothing open be said of the whole loop."""
    return all(iv.questions_read and not iv.unrecorded for iv in loop.interviews)


def open_card_button(iv_id: str, i: int, locale: Locale) -> Any:
    """The button that opens an interview's own card (privately)."""
    return button(t(locale, "open"), f"{OPEN}:{i}", {"v": "summary", "id": iv_id})


def outcome_line(loop: Loop, locale: Locale) -> str:
    if loop.outcome is None:
        return t(locale, "loop_card_no_outcome")
    decision = t(locale, f"outcome_{loop.outcome.decision}")
    lines = [t(locale, "outcome_card", decision=decision)]
    if loop.outcome.note:
        lines.append(fit(loop.outcome.note, 300)[0])
    return "\n".join(lines)


def loop_view(
    loop: Loop,
    locale: Locale,
    posted_by: str | None = None,
    hidden: bool = False,
    edited: str | None = None,
) -> Message:
    """The loop card: who, each interview in date order (round · date · interviewers, the
    reviewers' decisions, the verdict's first sentence, its open questions), what is
    still open across the loop, marked with its round, and the hiring decision. `edited`:
    a card in a channel made to say something else since, with this line where the
    poster was named (handlers/sealing.py)."""
    posted = bool(posted_by or edited)
    shown = loop.interviews[-LOOP_SHOWN:]
    blocks: list[Block] = [header(loop_headline(loop, locale))]
    if len(loop.interviews) > len(shown):
        blocks.append(
            context(t(locale, "loop_more_interviews", count=len(loop.interviews) - len(shown)))
        )
    for i, iv in enumerate(shown):
        lines = interview_lines(iv, locale, hidden)
        lines[0] = f"*{lines[0]}*" if not lines[0].endswith("*") else lines[0]
        opened = None if posted else open_card_button(iv.id, i, locale)
        blocks.append(section("\n".join(lines), accessory=opened))
    title = t(locale, "loop_card_open_title", count=len(loop.open))
    if loop.open:
        blocks.append(section("\n".join([f"*{title}*", *open_lines(loop, locale)])))
    elif all_counted(loop):
        blocks.append(context(t(locale, "loop_card_open_none")))
    else:  # an interview whose questions are unread or record no answer: not "none open"
        blocks.append(context(t(locale, "loop_card_open_none_counted")))
    blocks.append(section(outcome_line(loop, locale)))
    first = loop.interviews[0].id if loop.interviews else loop.key
    if edited:
        blocks.append(context(edited))
    elif posted_by:
        blocks += _posted_by(locale, posted_by)
    else:
        blocks.append(_post_button(locale, {"v": LOOP, "id": first}))
    return message(loop_headline(loop, locale), blocks, "in_channel" if posted else "ephemeral")


def summary_of(loop: Loop) -> LoopSummary:
    """A loop as a line of a pick list."""
    dates = [iv.interviewed_at for iv in loop.interviews if iv.interviewed_at]
    return LoopSummary(
        key=loop.key,
        name=loop.name,
        position=loop.position,
        interviews=len(loop.interviews),
        newest=max(dates) if dates else None,
        ids=[iv.id for iv in loop.interviews],
        rounds=[iv.round for iv in loop.interviews],
        dates=[iv.interviewed_at or iv.interviewed_at_text or "" for iv in loop.interviews],
        interviewers=list(dict.fromkeys(n for iv in loop.interviews for n in iv.interviewers)),
    )


def loop_pick_view(locale: Locale, query: str, loops: Sequence[LoopSummary]) -> Message:
    """Several candidates match: each as name · position · interviews · newest date,
    then each interview's round and date and the interviewers, so that two people of one
    name and position are told apart (issue 45; where even those agree, their first
    interview's id), a button to their loop (their card, when they have one interview)."""
    q, _ = fit(query, 200)
    text = t(locale, "loop_pick", count=len(loops), query=q)
    blocks: list[Block] = [section(text)]
    shown = loops[:PICK_LIMIT]
    lines = [_pick_line(s, locale) for s in shown]
    for i, s in enumerate(shown):
        line = lines[i]
        if lines.count(line) > 1 and s.ids:
            line += f"\n`{escape(s.ids[0])}`"
        target = s.ids[0] if s.ids else s.key
        kind = LOOP if s.interviews > 1 else "summary"
        opened = button(t(locale, "open"), f"{OPEN}:{i}", {"v": kind, "id": target})
        blocks.append(section(line, accessory=opened))
    if len(loops) > PICK_LIMIT:
        blocks.append(context(t(locale, "pick_more", shown=PICK_LIMIT)))
    return message(text, blocks)


def _pick_line(s: LoopSummary, locale: Locale) -> str:
    newest = escape(s.newest[:10]) if s.newest else t(locale, "loop_date_unknown")
    line = f"*{escape(loop_name(s, locale))}*\n" + t(
        locale, "loop_pick_line", count=s.interviews, newest=newest
    )
    if s.rounds:
        line += " · " + rounds_text(s, locale)
    who = interviewers_text(s.interviewers, locale)
    return f"{line} · {who}" if who else line


def place_block(interview_id: str, loop: Loop, locale: Locale, private: bool) -> Block | None:
    """ "第 1 场，共 2 场" on an interview's own card, with the button to the whole loop
    (privately); None when the candidate has one interview."""
    ids = [iv.id for iv in loop.interviews]
    if len(ids) < 2 or interview_id not in ids:
        return None
    text = t(locale, "loop_place", n=ids.index(interview_id) + 1, total=len(ids))
    if not private:
        return context(text)
    return section(
        text,
        accessory=button(t(locale, "loop_button"), f"{OPEN}:9", {"v": LOOP, "id": interview_id}),
    )
