"""The handoff to the next interviewer (`/candidate 交接`), pure: the DM (the earlier
rounds in three lines each, each one click from its card; the questions to ask again,
marked with their round; the reviewers' concerns: their `no_hire`/`hold` notes) and
what the asker is told: one reply naming who was handed it, who not and why.

`Handoff` is what `/candidate 交接` decided (handlers/loop_answers.py): whom to DM and
what, who may not be DMed and why. handlers/handoffs.py records it under the rule
asking reviewers follows (store/dm_limits.py), sends the DMs and says how it went."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block

from store.loop_models import Loop

from ..blocks import Message, context, escape, fit, header, message, section
from ..i18n import Locale, t
from .common import decision_label, notice
from .hidden import hidden_block
from .loops import all_counted, interview_lines, loop_name, open_card_button, open_lines, round_name
from .requests import LeftOutWords, left_out_lines, mentions, refused_lines

HANDED = LeftOutWords("handoff_already", "handoff_limited", "handoff_failed")
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


@dataclass(frozen=True)
class Handoff:
    """What `/candidate 交接` decided: hand the candidate (named `candidate`, raw; their
    newest interview `candidate_id`, and all of theirs, `interviews`) to each person of
    `dms` in their own DM (user, message); `refused` (user, catalogue key of why) are
    not. Once carried out: who got it (`reached`), who was handed it in the last day
    (`already`), whom the asker's hourly `limit` left out (`limited`, until
    `retry_at`), whose DM did not go (`failed`: user -> Slack's error)."""

    candidate_id: str
    interviews: tuple[str, ...]
    candidate: str
    asker: str
    channel: str | None
    dms: tuple[tuple[str, Message], ...] = ()
    refused: tuple[tuple[str, str], ...] = ()
    reached: tuple[str, ...] = ()
    already: tuple[str, ...] = ()
    limited: tuple[str, ...] = ()
    limit: int = 0
    retry_at: str | None = None
    failed: Mapping[str, str] = field(default_factory=dict)


def handoff_reply(handoff: Handoff, locale: Locale, now: datetime, tz: ZoneInfo) -> Message:
    """The one reply to the asker: who was handed the candidate; who was not, and why."""
    reached = [u for u in handoff.reached if u not in handoff.failed]
    who = fit(handoff.candidate, 200)[0]
    if reached:
        lines = [t(locale, "handoff_sent", who=escape(who), reviewer=mentions(reached, locale))]
    else:
        lines = [t(locale, "handoff_nobody", who=escape(who))]
    lines += refused_lines(handoff.refused, locale)
    lines += left_out_lines(HANDED, handoff, locale, now, tz)
    return notice("\n".join(lines))


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
    elif all_counted(loop):
        blocks.append(context(t(locale, "handoff_nothing_open")))
    else:  # a round whose questions are unread or record no answer (issue 46)
        blocks.append(context(t(locale, "loop_card_open_none_counted")))
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
