"""Replies to the asker, pure: help, "no such candidate", a pick list, the unanswered
questions, a question's answer in parts, the kind error; and how a reply of several
messages is labelled and windowed (`MAX_PARTS` at a time, a button that continues).
The card and the verdict are in cards.py, the lists in lists.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from slack_sdk.models.blocks import Block

from store.models import Candidate, CandidateSummary, Question

from ..blocks import (
    Message,
    button,
    chunks,
    context,
    escape,
    fit,
    header,
    message,
    pack,
    section,
)
from ..i18n import Locale, t
from .cards import label_parts
from .common import (
    OPEN,
    People,
    _post_button,
    _posted_by,
    _reason,
    _who,
    _years,
    headline,
    interviewers_text,
    no_questions_text,
    nothing_counted,
    notice,
    person,
    questions_text,
)

# The card fits a phone screen: the profile's and the summary's first sentences, the rest
# one click away (the full view, `Kind.FULL`).


PICK_LIMIT = 10


def help_view(locale: Locale, lead: str | None = None) -> Message:
    blocks: list[Block] = [header(t(locale, "help_title"))]
    if lead:
        blocks.append(section(escape(lead)))
    blocks.append(section(t(locale, "help_body")))
    return message(t(locale, "help_title"), blocks)


def not_found_view(
    locale: Locale, query: str, suggestion: tuple[str, str] | None = None
) -> Message:
    """No candidate matches `query`. When its first word looks like a mistyped subcommand,
    `suggestion` (the subcommand's name, the command with it) is the whole answer: the
    command as it was meant, nothing else to read past."""
    if suggestion is not None:
        _name, example = suggestion
        return notice(t(locale, "did_you_mean", example=fit(example, 200)[0]))
    q, _ = fit(query, 200)
    return notice(t(locale, "not_found", query=q), with_help=True, locale=locale)


def pick_view(
    locale: Locale, query: str, matches: Sequence[CandidateSummary], ref: dict[str, Any]
) -> Message:
    """Who matches, each as `name · position · round · date` and the interviewers, so
    two interviews of one person (or two people of one name) are told apart; where even
    those agree, by the interview's id (issue 45: never two identical lines)."""
    q, _ = fit(query, 200)
    blocks: list[Block] = [section(t(locale, "pick", count=len(matches), query=q))]
    shown = matches[:PICK_LIMIT]
    lines = []
    for m in shown:
        facts = [
            interviewers_text(m.interviewers, locale),
            _years(m.years, locale, m.years_text),
            questions_text(m.questions, m.unanswered, locale, m.questions_read, m.unrecorded),
        ]
        lines.append(f"*{escape(headline(m, locale))}*\n" + " · ".join(f for f in facts if f))
    for i, m in enumerate(shown):
        line = lines[i] + (f" · `{escape(m.id)}`" if lines.count(lines[i]) > 1 else "")
        blocks.append(
            section(line, accessory=button(t(locale, "open"), f"{OPEN}:{i}", {**ref, "id": m.id}))
        )
    if len(matches) > PICK_LIMIT:
        blocks.append(context(t(locale, "pick_more", shown=PICK_LIMIT)))
    return message(t(locale, "pick", count=len(matches), query=query), blocks)


def _question_line(q: Question, locale: Locale) -> str:
    question, _ = fit(q.question, 1200)
    text = f"*{t(locale, 'question', n=q.number)}* ({_reason(q, locale)}) {question}"
    if q.goal:
        goal, _ = fit(q.goal, 800)
        text += f"\n_{t(locale, 'goal')}_ {goal}"
    return text


def unanswered_view(c: Candidate, locale: Locale, posted_by: str | None = None) -> list[Message]:
    open_qs = c.open_questions
    head: list[Block] = [header(f"{t(locale, 'unanswered_title')} · {_who(c, locale)}")]
    if not c.counted:  # never "every question answered" of a file that gave none (or
        # whose questions could not be read, or records no answer: issue 46)
        head.append(section(no_questions_text(c, locale)))
    elif not open_qs:
        head.append(section(t(locale, "none_unanswered", who=escape(c.id))))
    body: list[Block] = [section(_question_line(q, locale)) for q in open_qs]
    tail: list[Block] = (
        _posted_by(locale, posted_by)
        if posted_by
        else [_post_button(locale, {"v": "unanswered", "id": c.id})]
    )
    count = (
        str(len(open_qs))
        if c.counted
        else nothing_counted(c.questions_read, len(c.unrecorded), locale)
    )
    fallback = f"{t(locale, 'unanswered_title')} · {_who(c, locale)}: {count}"
    kind = "in_channel" if posted_by else "ephemeral"
    return label_parts(pack(head, body, fallback, kind, tail), locale)


def question_views(
    c: Candidate,
    q: Question,
    locale: Locale,
    posted_by: str | None = None,
    people: People | None = None,
) -> list[Message]:
    head: list[Block] = [header(f"{_who(c, locale)} · {t(locale, 'question', n=q.number)}")]
    body: list[Block] = [section(p) for p in chunks(q.question)]
    if q.goal:
        body.append(section(f"_{t(locale, 'goal')}_"))
        body += [section(p) for p in chunks(q.goal)]
    answer_title = f"*{t(locale, 'answer')}*"
    if c.is_open(q) and q.answer:  # `不知道`, `跳过`: say what it means
        answer_title += f" ({_reason(q, locale)})"
    body.append(section(answer_title))
    if q.answer:
        body += [section(p) for p in chunks(q.answer)]
    elif not q.answer_recorded:  # the file lists it and records nothing of the answer
        body.append(section(t(locale, "answer_not_recorded")))
    else:
        body.append(section(t(locale, "no_answer")))
    followup = c.followup_for(q.number)
    if followup:
        who = person(followup.reviewer, None if not posted_by else (people or {}))
        body.append(section(f"*{t(locale, 'followup', who=who)}*"))
        body += [section(p) for p in chunks(followup.answer)]
    tail: list[Block] = (
        _posted_by(locale, posted_by)
        if posted_by
        else [_post_button(locale, {"v": "question", "id": c.id, "n": q.number})]
    )
    fallback = f"{_who(c, locale)} · {t(locale, 'question', n=q.number)}: {q.question}"
    messages = pack(head, body, fallback, "in_channel" if posted_by else "ephemeral", tail)
    return label_parts(messages, locale)


def error_view(locale: Locale) -> Message:
    return notice(t(locale, "error"))
