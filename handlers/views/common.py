"""What every view shares: how a candidate, years, a person and a marked word are shown,
and the action ids of the buttons. Pure; no I/O."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from slack_sdk.models.blocks import Block
from slack_sdk.models.views import View

from store.models import (
    DECISIONS,
    Candidate,
    CandidateSummary,
    DigestLine,
    Question,
    SearchHit,
    Transcript,
    plain_years,
)

from ..blocks import (
    Message,
    actions,
    button,
    context,
    divider,
    escape,
    fit,
    message,
    section,
    unescape,
)
from ..i18n import Locale, t

POSITION_LIMIT = 100
# a header is at most 150 characters (Slack): name, position, round and date fit in it
HEAD_LIMITS = {"name": 40, "position": 50, "round": 20, "date": 24}
INTERVIEWERS_LIMIT = 120
ROUNDS_NAMED = 6  # the rounds a line of a list that counts people names

POST = "post_in_channel"
OPEN = "open_view"
PAGE = "page"
CONTINUE = "more_parts"

People = Mapping[str, str]


Shown = Candidate | CandidateSummary | DigestLine | SearchHit


def _cut(text: str, limit: int) -> str:
    """`text` on one line, at most `limit` characters (raw: escape it where it is shown)."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _name(c: Shown, limit: int = HEAD_LIMITS["name"]) -> str:
    """The candidate's name as the file writes it, or the id where it gives none (raw)."""
    return _cut(c.name or c.id, limit)


def _who(c: Shown, locale: Locale) -> str:
    """`name · position`, the id standing for the name where the file gives none (raw:
    escape it where it is shown)."""
    return f"{_name(c)} · {_cut(c.position or t(locale, 'position_unknown'), POSITION_LIMIT)}"


def interview_date(c: Candidate | CandidateSummary | DigestLine) -> str:
    """When the interview took place: `2026-11-28` or `2026-11-28 14:30` where the file
    gives a date, else what it wrote (`下周二`), else nothing (raw)."""
    if c.interviewed_at:
        return c.interviewed_at.replace("T", " ")[:16]
    return _cut(getattr(c, "interviewed_at_text", ""), HEAD_LIMITS["date"])


def headline(c: Candidate | CandidateSummary, locale: Locale) -> str:
    """`name · position · round · date`, each where the file gives it; at most Slack's 150
    characters for a header (raw: `header` escapes it)."""
    parts = [
        _name(c),
        _cut(c.position or t(locale, "position_unknown"), HEAD_LIMITS["position"]),
        _cut(c.round or "", HEAD_LIMITS["round"]),
        _cut(interview_date(c), HEAD_LIMITS["date"]),
    ]
    return " · ".join(p for p in parts if p)


def _dated(c: Candidate | CandidateSummary | DigestLine, locale: Locale) -> str:
    """`name · position`, then ` · date` where the file gives one (raw). A line of a list
    that counts people (issue 38) names its rounds between: `王小明 · 后端 · 一面、二面`."""
    who = _who(c, locale)
    rounds = (c.rounds or [c.round]) if isinstance(c, DigestLine) else []
    if len(rounds) > 1:
        sep = t(locale, "name_separator")
        who += " · " + sep.join(
            _cut(r, HEAD_LIMITS["round"]) if r else t(locale, "loop_round_unknown")
            for r in rounds[:ROUNDS_NAMED]
        )
        who += "…" if len(rounds) > ROUNDS_NAMED else ""
    elif rounds and rounds[0]:
        who += " · " + _cut(rounds[0], HEAD_LIMITS["round"])
    when = interview_date(c)
    return f"{who} · {when}" if when else who


def interviewers_text(names: list[str], locale: Locale) -> str:
    """`面试官：李四、王五` / `Interviewers: Alice, Bob`, the names as the file writes them
    (they are not Slack users: never a mention), escaped; empty when there are none."""
    if not names:
        return ""
    joined = t(locale, "name_separator").join(" ".join(n.split()) for n in names)
    text, _ = fit(joined, INTERVIEWERS_LIMIT)
    return t(locale, "labelled", label=t(locale, "interviewers_label"), text=text)


def _years(years: float | None, locale: Locale, text: str = "") -> str:
    """`3 年经验`; unknown years show what the file said (`不到1年`), else 年限未知."""
    if years is not None:
        return t(locale, "years", years=plain_years(years))
    return escape(text) if text else t(locale, "years_unknown")


def nothing_counted(questions_read: bool, unrecorded: int, locale: Locale) -> str:
    """What a line says where no question counts either way, never `0 题，0 题未回答`:
    the questions could not be read (issue 46), the file lists questions with no answer
    recorded, or no question was found."""
    if not questions_read:
        return t(locale, "questions_unread_short")
    if unrecorded:
        return t(locale, "unrecorded_count", count=unrecorded)
    return t(locale, "no_questions_short")


def questions_text(
    total: int, open_count: int, locale: Locale, questions_read: bool = True, unrecorded: int = 0
) -> str:
    """`3 题，2 题未回答` on a line of a list (`total`: the questions that count either
    way), and how many have no answer recorded; `nothing_counted` where none counts."""
    if not total or not questions_read:
        return nothing_counted(questions_read, unrecorded, locale)
    counts = t(locale, "questions_count", total=total, open=open_count)
    if unrecorded:
        counts += t(locale, "list_separator") + t(locale, "unrecorded_count", count=unrecorded)
    return counts


def no_questions_text(c: Transcript, locale: Locale) -> str:
    """No question counts, and why: the questions could not be read from the file (issue
    46); the file lists its questions with no answer recorded; no `问题N` labels and no
    table of questions in the file; in a meeting's export, no turn that asks the
    candidate something."""
    if not c.questions_read:
        return t(locale, "questions_unread")
    if c.unrecorded and not c.counted:
        return t(locale, "all_unrecorded", count=len(c.unrecorded))
    return t(locale, "no_questions_meeting" if c.kind == "meeting" else "no_questions")


def no_verdict_text(c: Transcript, locale: Locale) -> str:
    """The file has no verdict (a meeting's export: no summary and no verdict)."""
    return t(locale, "meeting_no_verdict" if c.kind == "meeting" else "no_verdict")


def _reason(q: Question, locale: Locale) -> str:
    """Why a question is unanswered, to show beside it: 未作答 / 跳过 / 不会."""
    return t(locale, f"reason_{q.unanswered_reason or 'empty'}")


def person(user: str, people: People | None) -> str:
    """A Slack user: a mention in a private reply (`people` is None), else the display name
    as plain text (the id when Slack did not say): a post in a channel pings nobody."""
    if people is None:
        return f"<@{escape(user)}>"
    return escape(people.get(user) or user)


def spaced(before: str, marked: str, after: str) -> str:
    """`before` + `marked` + `after`, with a space wherever the marker would touch a
    character: Slack renders `*bold*` only when a space or the line's edge is outside."""
    if before and not before[-1].isspace():
        before += " "
    if after and not after[0].isspace():
        after = " " + after
    return before + marked + after


def _post_button(locale: Locale, ref: dict[str, Any]) -> Block:
    return actions([button(t(locale, "post_in_channel"), POST, ref)])


def _posted_by(locale: Locale, user: str | None) -> list[Block]:
    return [context(t(locale, "posted_by", user=escape(user)))] if user else []


def decision_label(locale: Locale, decision: str) -> str:
    return t(locale, f"decision_{decision}")


def _tally_text(tally: dict[str, int], locale: Locale) -> str:
    """`2 Hire, 1 No hire`: the decisions in their order, strongest for first."""
    return ", ".join(f"{tally[d]} {decision_label(locale, d)}" for d in DECISIONS if d in tally)


def notice(text: str, with_help: bool = False, locale: Locale = "zh") -> Message:
    """A short, kind answer (text is ours, with user input already escaped by the caller)."""
    blocks: list[Block] = [section(text)]
    if with_help:
        blocks += [divider(), section(t(locale, "help_body"))]
    return message(_plain(text), blocks)


def no_access_home(text: str, settings: str | None = None) -> dict[str, Any]:
    """The Home tab of someone who may not see candidates: it replaces whatever Slack kept
    of an earlier Home view (ids, positions, counts) with one sentence and nothing else
    (but, for a workspace's admin, the button of its settings: `settings`, its label)."""
    blocks: list[Any] = [section(text)]
    if settings:
        blocks.append(actions([button(settings, "ws_settings", {})]))
    return View(type="home", blocks=blocks).to_dict()


def _plain(text: str) -> str:
    return unescape(text).replace("`", "")
