"""Up to four candidates side by side (`/candidate 对比`), pure: a section a candidate,
the same rows in the same order in each (position, years, interviews, answered of
asked, still open, the reviewers' decisions, the hiring decision), so they read as
columns on a phone."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from slack_sdk.models.blocks import Block

from store.loop_models import Loop

from ..blocks import Message, button, escape, header, message, section
from ..i18n import Locale, t
from .common import OPEN, _years, nothing_counted, person
from .hidden import NAMED
from .loops import LOOP, decisions_line, loop_name, round_name

MAX_COMPARED = 4


@dataclass(frozen=True)
class Compared:
    """One candidate of a comparison: their loop, and the years their newest interview gives."""

    loop: Loop
    years: float | None = None
    years_text: str = ""
    # independent review (handlers/review.py): the viewer may not see the reviewers'
    # decisions, only who decided (None: they see them)
    hidden: tuple[str, ...] | None = None


def _decisions(c: Compared, locale: Locale) -> str:
    if c.hidden is None:
        decisions: Counter[str] = Counter()
        for iv in c.loop.interviews:
            decisions.update({str(k): v for k, v in iv.decisions.items()})
        return decisions_line(dict(decisions), locale)
    text = t(locale, "review_loop_hidden")
    if c.hidden:
        who = t(locale, "name_separator").join(person(u, None) for u in c.hidden[:NAMED])
        text += " · " + t(locale, "review_decided_who", who=who)
    return text


def _rows(c: Compared, locale: Locale) -> list[str]:
    loop = c.loop
    asked = sum(iv.questions for iv in loop.interviews)
    still_open = len(loop.open)
    rounds = t(locale, "name_separator").join(round_name(iv, locale) for iv in loop.interviews)
    outcome = (
        t(locale, "compare_outcome", decision=t(locale, f"outcome_{loop.outcome.decision}"))
        if loop.outcome is not None
        else t(locale, "compare_no_outcome")
    )
    unread = not all(iv.questions_read for iv in loop.interviews)
    unrecorded = sum(iv.unrecorded for iv in loop.interviews)
    questions = (
        t(locale, "compare_answered", answered=asked - still_open, asked=asked)
        if asked
        else nothing_counted(not unread, unrecorded, locale)
    )
    return [
        f"*{escape(loop_name(loop, locale))}*",
        _years(c.years, locale, c.years_text),
        t(locale, "compare_interviews", count=len(loop.interviews), rounds=rounds),
        # no "0 still open" where nothing counted (issue 46)
        f"{questions} · {t(locale, 'compare_open', count=still_open)}" if asked else questions,
        _decisions(c, locale),
        outcome,
    ]


def compare_view(compared: list[Compared], locale: Locale) -> Message:
    """The candidates side by side, each with a button to their loop (privately)."""
    title = t(locale, "compare_title", count=len(compared))
    blocks: list[Block] = [header(title)]
    for i, c in enumerate(compared[:MAX_COMPARED]):
        ids = [iv.id for iv in c.loop.interviews]
        opened = None
        if ids:
            kind = LOOP if len(ids) > 1 else "summary"
            opened = button(t(locale, "open"), f"{OPEN}:{i}", {"v": kind, "id": ids[0]})
        blocks.append(section("\n".join(_rows(c, locale)), accessory=opened))
    return message(title, blocks)
