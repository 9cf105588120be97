"""The handoff to the next interviewer (`/candidate 交接`), pure: the DM (the earlier
rounds in three lines each, each one click from its card; the questions to ask again,
marked with their round; the reviewers' concerns: their `no_hire`/`hold` notes) and
what the asker is told."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from slack_sdk.models.blocks import Block

from store.loop_models import Loop

from ..blocks import Message, context, fit, header, message, section
from ..i18n import Locale, t
from .common import decision_label
from .hidden import hidden_block
from .loops import interview_lines, loop_name, open_card_button, open_lines, round_name

CONCERNS_SHOWN = 8
CONCERN_LIMIT = 300
OPEN_SHOWN = 15


@dataclass(frozen=True)
class Concern:
    """A reviewer's no-hire or hold, with what they wrote, in the round they reviewed."""

    interview: str
    reviewer: str  # how to name them (a display name, or a mention)
    decision: str
    text: str


def handoff_dm(
    loop: Loop,
    asker: str,
    concerns: list[Concern],
    locale: Locale,
    hidden: Sequence[str] | None = None,
) -> Message:
    """What the next interviewer receives. `asker`: how to name who handed it off.
    `hidden`: independent review hides the reviewers' decisions and concerns from them
    (they have an open request about the candidate): who decided is said, not what."""
    who = loop_name(loop, locale)
    title = t(locale, "handoff_title", who=who)
    lead = t(
        locale,
        "handoff_lead",
        asker=asker,
        who=fit(who, 200)[0],
        count=len(loop.interviews),
    )
    blocks: list[Block] = [header(title), section(lead)]
    for i, iv in enumerate(loop.interviews[-12:]):
        lines = interview_lines(iv, locale, hidden is not None)
        lines[0] = f"*{lines[0]}*"
        blocks.append(section("\n".join(lines), accessory=open_card_button(iv.id, i, locale)))
    ask_again = f"*{t(locale, 'handoff_ask_again')}*"
    if loop.open:
        blocks.append(section("\n".join([ask_again, *open_lines(loop, locale, OPEN_SHOWN)])))
    else:
        blocks.append(context(t(locale, "handoff_nothing_open")))
    rounds = {iv.id: iv for iv in loop.interviews}
    if hidden is not None:
        blocks.append(hidden_block(hidden, locale, None, for_channel=False))
    elif concerns:
        lines = [f"*{t(locale, 'handoff_concerns')}*"]
        for c in concerns[:CONCERNS_SHOWN]:
            of = rounds.get(c.interview)
            where = round_name(of, locale) if of is not None else ""
            note = fit(c.text, CONCERN_LIMIT)[0]
            label = decision_label(locale, c.decision)
            lines.append(
                t(locale, "handoff_concern", round=where, who=c.reviewer, decision=label, note=note)
            )
        blocks.append(section("\n".join(lines)))
    else:
        blocks.append(context(t(locale, "handoff_no_concerns")))
    return message(title, blocks)
