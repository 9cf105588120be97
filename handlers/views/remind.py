"""Pure views for overdue requests: a reviewer's reminder (a DM) and how a deadline and
the time past it are said (the reminder, the digest's "overdue feedback").

Deadlines are kept as UTC ISO times, the end of a day in the team's time zone: they are
shown as that day. The reminder lists as many candidates as Slack's limits allow, each
with the decision buttons that name its verdict thread, and says how many more there are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block

from store.request_models import Request

from ..blocks import (
    MAX_BLOCKS,
    MESSAGE_BUDGET,
    Message,
    context,
    escape,
    header,
    json_size,
    message,
    section,
)
from ..i18n import Locale, t
from .common import Shown, _who
from .decide import Target, decide_actions, targets

REMIND_MAX = 10  # candidates listed in one reminder at most; the rest are counted
_TAIL_BLOCKS = 2  # "and N more" and the closing line
_TAIL_SIZE = 1200  # room kept for them, in characters of the blocks' JSON
_USER_ID = re.compile(r"[UW][A-Z0-9]{2,}")


def deadline_day(due_at: str, tz: ZoneInfo) -> date:
    """The day a deadline ends, in `tz`: a deadline at midnight ends the day before."""
    local = datetime.fromisoformat(due_at).astimezone(tz)
    if (local.hour, local.minute, local.second, local.microsecond) == (0, 0, 0, 0):
        local -= timedelta(microseconds=1)
    return local.date()


def deadline_text(due_at: str, tz: ZoneInfo) -> str:
    """`2026-12-01`: the day the deadline ends, with its time when it is not the day's end."""
    local = datetime.fromisoformat(due_at).astimezone(tz)
    day = deadline_day(due_at, tz)
    if local.date() != day or (local.hour, local.minute) >= (23, 59):
        return day.isoformat()
    return local.strftime("%Y-%m-%d %H:%M")


def days_overdue(due_at: str, now: datetime, tz: ZoneInfo) -> int:
    """Calendar days in `tz` since the deadline's day (at least 1 once it has passed)."""
    return max(1, (now.astimezone(tz).date() - deadline_day(due_at, tz)).days)


def overdue_text(locale: Locale, days: int) -> str:
    return t(locale, "remind_overdue_one" if days == 1 else "remind_overdue_days", days=days)


def asker(user: str) -> str:
    """Who asked, in a DM only the reviewer reads: a mention renders as their name and
    pings nobody else; anything that is not a user id (`cli`) is shown as it is."""
    return f"<@{user}>" if _USER_ID.fullmatch(user) else escape(user)


def _item(locale: Locale, request: Request, candidate: Shown, now: datetime, tz: ZoneInfo) -> str:
    line = t(
        locale,
        "remind_line",
        asker=asker(request.asked_by),
        due=deadline_text(request.due_at, tz),
        overdue=overdue_text(locale, days_overdue(request.due_at, now, tz)),
    )
    return f"*{escape(_who(candidate, locale))}*\n{line}"


def _buttons(locale: Locale, request: Request) -> Block:
    target = Target(request.candidate_id, request.channel, request.thread_ts)
    if targets(target):
        return decide_actions(locale, target)
    return context(t(locale, "remind_in_thread", channel=f"<#{escape(request.channel)}>"))


def reminder_view(
    locale: Locale,
    items: Sequence[tuple[Request, Shown]],
    now: datetime,
    tz: ZoneInfo,
) -> tuple[Message, int]:
    """One reviewer's reminder: each overdue candidate, who asked, the deadline and how
    long ago it passed, and the decision buttons. -> (the message, how many it lists)."""
    total = len(items)
    blocks: list[Block] = [
        header(t(locale, "remind_title")),
        section(t(locale, "remind_intro", count=total)),
    ]
    shown = 0
    for request, candidate in items[:REMIND_MAX]:
        more = [section(_item(locale, request, candidate, now, tz)), _buttons(locale, request)]
        room = MAX_BLOCKS - _TAIL_BLOCKS - len(blocks)
        rendered = [b.to_dict() for b in [*blocks, *more]]
        if shown and (len(more) > room or json_size(rendered) > MESSAGE_BUDGET - _TAIL_SIZE):
            break
        blocks += more
        shown += 1
    if total > shown:
        blocks.append(context(t(locale, "remind_more", count=total - shown)))
    blocks.append(context(t(locale, "remind_footer")))
    return message(t(locale, "remind_text", count=total), blocks), shown
