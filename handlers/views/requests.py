"""Pure views for asking reviewers (`/candidate 邀请`): what the asker is told, the DM
each reviewer gets, the status message in the verdict's thread, the list of who was
asked, and a line of the App Home's "you were asked".

`Ask` is what `/candidate 邀请` decided (handlers/commands.py): whom to ask, by when, and
who is not asked and why. handlers/asking.py carries it out and says how it went.

People are mentions here on purpose: the asker's reply and the list are private, the
DM is read by the reviewer alone, and the status message is the one message meant to
notify the people asked. Nothing from a file is shown unescaped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block

from store.models import Candidate
from store.request_models import Request

from ..blocks import (
    MAX_BLOCKS,
    MESSAGE_BUDGET,
    Message,
    _shrink,
    context,
    escape,
    fit,
    json_size,
    message,
    section,
)
from ..deadlines import Due, day_text, due_text, local_day, today, utc_iso
from ..i18n import Locale, t
from .cards import summary_view
from .common import People, _who
from .decide import Target, decide_actions, label, targets

MAX_REVIEWERS = 30  # asked at once (a user group counts its members)
NAMES_SHOWN = 40  # people named on one line of the status message; the rest are counted
_USER_ID = re.compile(r"[UW][A-Z0-9]{2,}")


@dataclass(frozen=True)
class Ask:
    """What `/candidate 邀请` decided: ask `reviewers` about the candidate by `due`, in
    the verdict's thread of `channel`; `refused` (user, catalogue key of why) and
    `decided` (who decided already) are not asked."""

    candidate_id: str
    candidate: str  # how the candidate is named: `name · position` (raw)
    asker: str
    channel: str
    due: Due
    reviewers: tuple[str, ...] = ()
    refused: tuple[tuple[str, str], ...] = ()
    decided: tuple[str, ...] = ()
    failed: Mapping[str, str] = field(default_factory=dict)  # DMs that did not go: user -> error
    # asked about the candidate in the last day (by anyone): not asked again
    already: tuple[str, ...] = ()
    # left out by the asker's hourly limit (`limit`), who may ask again from `retry_at`
    limited: tuple[str, ...] = ()
    limit: int = 0
    retry_at: str | None = None  # UTC ISO


def named(c: Candidate, locale: Locale) -> str:
    """How a candidate is named in these messages: `name · position` (raw: escape it)."""
    return _who(c, locale)


def mention(user: str) -> str:
    """A Slack user as a mention; anything that is not a user id is shown as it is."""
    return f"<@{user}>" if _USER_ID.fullmatch(user) else escape(user)


def mentions(users: Iterable[str], locale: Locale, limit: int = NAMES_SHOWN) -> str:
    """`<@a>、<@b>` / `<@a>, <@b>`; past `limit`, the rest counted."""
    people = list(dict.fromkeys(users))
    text = t(locale, "name_separator").join(mention(u) for u in people[:limit])
    if len(people) > limit:
        text += t(locale, "name_separator") + t(locale, "status_more", count=len(people) - limit)
    return text


def _due(ask: Ask, locale: Locale, now: datetime, tz: ZoneInfo) -> str:
    return day_text(ask.due.day, locale, today(now, tz).year)


def time_text(at: str, locale: Locale, now: datetime, tz: ZoneInfo) -> str:
    """A UTC ISO time as the minute it is reached in the team's zone (rounded up):
    `14:05`, with its day before it when that is not today's."""
    local = datetime.fromisoformat(at).astimezone(tz)
    if local.second or local.microsecond:
        local = local.replace(second=0, microsecond=0) + timedelta(minutes=1)
    clock = local.strftime("%H:%M")
    if local.date() == today(now, tz):
        return clock
    return f"{day_text(local.date(), locale, today(now, tz).year)} {clock}"


# -- what the asker is told ---------------------------------------------------------------


class LeftOut(Protocol):
    """Whom a command that DMs people (an ask, a handoff) did not reach for the rule of
    store/dm_limits.py, and whose DM Slack did not take."""

    @property
    def already(self) -> tuple[str, ...]: ...  # DMed about the candidate in the last day
    @property
    def limited(self) -> tuple[str, ...]: ...  # past the sender's hourly `limit`
    @property
    def limit(self) -> int: ...
    @property
    def retry_at(self) -> str | None: ...  # UTC ISO: the sender may DM someone again
    @property
    def failed(self) -> Mapping[str, str]: ...  # user -> Slack's error


@dataclass(frozen=True)
class LeftOutWords:
    """The catalogue keys a command says `LeftOut` with: `{who}`; `{who}`, `{limit}`,
    `{at}`; `{who}`, `{error}`."""

    already: str
    limited: str
    failed: str


ASKED = LeftOutWords("request_already", "request_limited", "request_dm_failed")


def refused_lines(refused: Iterable[tuple[str, str]], locale: Locale) -> list[str]:
    """Who may not be DMed (user, catalogue key of why with `{who}`), a line a reason."""
    by_reason: dict[str, list[str]] = {}
    for user, reason in refused:
        by_reason.setdefault(reason, []).append(user)
    return [t(locale, reason, who=mentions(users, locale)) for reason, users in by_reason.items()]


def left_out_lines(
    words: LeftOutWords, left: LeftOut, locale: Locale, now: datetime, tz: ZoneInfo
) -> list[str]:
    """Who was DMed in the last day, who the hourly limit left out and from when the
    sender may go on, whose DM did not go: a line each, in `words`."""
    lines: list[str] = []
    if left.already:
        lines.append(t(locale, words.already, who=mentions(left.already, locale)))
    if left.limited:
        at = time_text(left.retry_at, locale, now, tz) if left.retry_at else "?"
        who = mentions(left.limited, locale)
        lines.append(t(locale, words.limited, who=who, limit=left.limit, at=at))
    lines += [
        t(locale, words.failed, who=mention(user), error=escape(error))
        for user, error in left.failed.items()
    ]
    return lines


def ask_reply(ask: Ask, locale: Locale, now: datetime, tz: ZoneInfo) -> Message:
    """Who was asked and by when; who was not, and why; whose DM did not go."""
    lines: list[str] = []
    if ask.reviewers:
        lines.append(
            t(
                locale,
                "request_asked",
                who=mentions(ask.reviewers, locale),
                candidate=f"*{escape(ask.candidate)}*",
                due=_due(ask, locale, now, tz),
            )
        )
    else:
        lines.append(t(locale, "request_nobody"))
    lines += refused_lines(ask.refused, locale)
    if ask.decided:
        lines.append(t(locale, "request_skipped_decided", who=mentions(ask.decided, locale)))
    lines += left_out_lines(ASKED, ask, locale, now, tz)
    blocks: list[Block] = [section("\n".join(lines))]
    if ask.reviewers:
        blocks.append(context(t(locale, "request_where")))
    return message("\n".join(lines), blocks)


# -- the reviewer's DM ------------------------------------------------------------------


def ask_dm(
    c: Candidate,
    asker: str,
    due_at: str,
    target: Target,
    people: People,
    locale: Locale,
    now: datetime,
    tz: ZoneInfo,
    hidden: Sequence[str] | None = None,
) -> Message:
    """Who asked (`asker`: a display name), the candidate's card, the deadline, and the
    decision buttons naming the verdict thread (a reply there does as well). `hidden`
    (independent review, handlers/review.py; the others' decisions left out of `c`, who
    decided): the card says who decided, not what; the decision is asked for through the
    buttons, and the DM says that replies in the thread are seen by everyone."""
    who, _ = fit(asker, 100)
    due = due_text(due_at, tz, locale, now)
    candidate = escape(named(c, locale))
    card = summary_view(c, locale, asker, people, hidden, for_channel=False)
    channel = f"<#{target.channel}>"
    head = [section(t(locale, "request_dm", asker=who, candidate=candidate, due=due)).to_dict()]
    if targets(target):
        hint = "review_dm_hint" if hidden is not None else "request_dm_hint"
        tail = [
            context(t(locale, hint, channel=channel)).to_dict(),
            decide_actions(locale, target).to_dict(),
        ]
    else:  # a candidate id too long for a button's block_id: the thread alone
        reply = t(locale, "request_dm_reply", channel=channel)
        if hidden is not None:
            reply += " " + t(locale, "review_thread_public")
        tail = [context(reply).to_dict()]
    # the card fits a message on its own: with the lines around it, it may have to give
    blocks = card.blocks[: MAX_BLOCKS - len(head) - len(tail)]
    _shrink(blocks, MESSAGE_BUDGET - json_size(head + tail))
    blocks = [*head, *blocks, *tail]
    text = t(locale, "request_dm_text", asker=asker, candidate=named(c, locale), due=due)
    return Message(text=fit(text, 3000)[0], blocks=blocks)


# -- the status message in the verdict's thread -------------------------------------------


def _by_day(requests: Sequence[Request], tz: ZoneInfo) -> list[tuple[str, list[str]]]:
    """Requests grouped by their deadline's day, the earliest first: (a due_at, users)."""
    groups: dict[date, tuple[str, list[str]]] = {}
    for r in sorted(requests, key=lambda r: (r.due_at, r.asked_at)):
        groups.setdefault(local_day(r.due_at, tz), (r.due_at, []))[1].append(r.reviewer)
    return list(groups.values())


def status_lines(
    requests: Sequence[Request], locale: Locale, now: datetime, tz: ZoneInfo
) -> list[str]:
    """Who is still waited for (by deadline), who is overdue, who decided, who withdrew a
    decision after it had shown them the others', whose request the hiring decision
    closed; "all decided" once nobody is waited for."""
    at = utc_iso(now)
    waiting = [r for r in requests if r.open and not r.overdue(at)]
    overdue = [r for r in requests if r.overdue(at)]
    decided = [r.reviewer for r in requests if r.closed_by == "decision"]
    withdrew = [r.reviewer for r in requests if r.withdrawn_at is not None]
    closed = [r.reviewer for r in requests if r.closed_by == "outcome"]
    lines: list[str] = []
    for key, group in (("status_overdue", overdue), ("status_waiting", waiting)):
        for due_at, users in _by_day(group, tz):
            due = due_text(due_at, tz, locale, now)
            lines.append(t(locale, key, who=mentions(users, locale), due=due))
    if decided:
        lines.append(t(locale, "status_decided", who=mentions(decided, locale)))
    if withdrew:  # independent review: what they decided since was not independent
        lines.append(t(locale, "status_withdrew", who=mentions(withdrew, locale)))
    if closed:
        lines.append(t(locale, "status_outcome", who=mentions(closed, locale)))
    if not waiting and not overdue:
        lines.append(t(locale, "status_all_decided"))
    return lines


def status_message(
    requests: Sequence[Request], locale: Locale, now: datetime, tz: ZoneInfo
) -> Message:
    """The status message: its text carries the mentions too, so that the people asked
    are notified when it is posted (an edit notifies nobody)."""
    text = "\n".join(status_lines(requests, locale, now, tz))
    text, _ = fit_mrkdwn(text, 2900)
    return Message(text=text, blocks=[section(text).to_dict()], response_type="in_channel")


def fit_mrkdwn(text: str, limit: int) -> tuple[str, bool]:
    """Text of ours (mentions, no file text) cut at a line's end to fit `limit`."""
    if len(text) <= limit:
        return text, False
    kept: list[str] = []
    size = 1
    for line in text.split("\n"):
        if size + len(line) + 1 > limit:
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join([*kept, "…"]), True


# -- who was asked (`/candidate 邀请 <who>`) ----------------------------------------------


def _state(r: Request, c: Candidate, locale: Locale, at: str) -> str:
    if r.overdue(at):
        return t(locale, "request_state_overdue")
    if r.open:
        return t(locale, "request_state_waiting")
    if r.closed_by == "outcome":
        return t(locale, "request_state_outcome")
    decision = next((d.decision for d in c.decisions if d.reviewer == r.reviewer), None)
    if decision is None:
        return t(locale, "request_state_closed")
    return t(locale, "request_state_decided", decision=label(locale, decision))


def request_list(
    c: Candidate, requests: Sequence[Request], locale: Locale, now: datetime, tz: ZoneInfo
) -> Message:
    """Everyone asked about the candidate: by whom, when, by when, and where it stands."""
    title = t(locale, "request_list_title", candidate=f"*{escape(named(c, locale))}*")
    if not requests:
        return message(
            named(c, locale),
            [section(title), context(t(locale, "request_list_none", who=escape(c.id)))],
        )
    at = utc_iso(now)
    year = today(now, tz).year
    lines = [
        "• "
        + t(
            locale,
            "request_list_line",
            reviewer=mention(r.reviewer),
            asker=mention(r.asked_by),
            asked=day_text(local_day(r.asked_at, tz), locale, year),
            due=due_text(r.due_at, tz, locale, now),
            state=_state(r, c, locale, at),
        )
        for r in requests
    ]
    counts = t(
        locale,
        "request_list_counts",
        waiting=sum(1 for r in requests if r.open and not r.overdue(at)),
        overdue=sum(1 for r in requests if r.overdue(at)),
        decided=sum(1 for r in requests if not r.open),
    )
    body, _ = fit_mrkdwn("\n".join(lines), 2900)
    return message(named(c, locale), [section(title), section(body), context(counts)])


# -- the App Home's "you were asked" ------------------------------------------------------


def home_note(r: Request, locale: Locale, now: datetime, tz: ZoneInfo) -> str:
    """What a line of "you were asked" says beside the candidate: who asked, by when."""
    key = "home_asked_overdue" if r.overdue(utc_iso(now)) else "home_asked_note"
    return t(locale, key, asker=mention(r.asked_by), due=due_text(r.due_at, tz, locale, now))
