"""Pure view functions: models in, Block Kit messages out. No I/O.

Every view fits Slack's limits for any transcript (see blocks.py): long text is cut
with a note in summaries, and spread over several messages where the user asked
for the whole thing (a question's answer, the verdict), never cut. A reply of more
than `MAX_PARTS` messages shows the first five and a button that continues.

Two rules hold in every view: text from a file (ids included) is escaped, and no
mrkdwn marker (`*`, `_`, `` ` ``) sits between a Chinese character and anything but a
space, where Slack would show the marker instead of the formatting (`spaced`).
People are `<@U…>` mentions only in private replies; a message for the channel gets
`people` (user id -> display name) and names them in plain text.

The replies to the asker (help, a pick list, the questions, the error) are in
replies.py, the lists (search, list, overview, digest) in lists.py.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from slack_sdk.models.blocks import Block

from store.claims.check import claims_of
from store.models import Candidate, Outcome
from store.transcripts.warnings import warnings_of

from ..blocks import (
    Message,
    actions,
    button,
    chunks,
    context,
    escape,
    fit,
    header,
    message,
    pack,
    section,
    unescape,
)
from ..i18n import Locale, t
from .claims import CARD_LIMIT, claim_lines
from .common import (
    CONTINUE,
    OPEN,
    People,
    _post_button,
    _posted_by,
    _reason,
    _tally_text,
    _who,
    _years,
    decision_label,
    headline,
    interviewers_text,
    no_questions_text,
    no_verdict_text,
    person,
)
from .decide import decide_actions
from .hidden import hidden_block

# The card fits a phone screen: the profile's and the summary's first sentences, the rest
# one click away (the full view, `Kind.FULL`).
INTRO_GIST = 120
SUMMARY_GIST = 200
GIST_LIMIT = 160
OPEN_SHOWN = 5  # unanswered questions listed on the card, each with its first words
MEETING_SHOWN = 8  # a meeting's questions listed on the card, each with its time
FIRST_WORDS = 40
MAX_PARTS = 5  # messages one response_url takes (Slack: 5 posts in 30 minutes)
# a file whose questions could not be read: its text as written on the card, up to this
# many characters (escaped), in sections of Slack's 3,000; with the rest of the card it
# stays well within a message's ~13,200 (blocks.MESSAGE_BUDGET)
BODY_SHOWN = 6000


def label_parts(messages: list[Message], locale: Locale) -> list[Message]:
    """`(part 2/7)` in every message of a reply in several (`pack` kept room for it)."""
    if len(messages) > 1:
        for i, m in enumerate(messages, start=1):
            label = context(t(locale, "question_part", part=i, parts=len(messages))).to_dict()
            m.blocks.insert(0 if i > 1 else min(1, len(m.blocks)), label)
    return messages


def window(
    messages: list[Message], start: int, ref: dict[str, Any], locale: Locale
) -> list[Message]:
    """At most `MAX_PARTS` messages from part `start` on; when more follow, the last ends with
    a button whose value says where to go on (`ref` + the part index, never the text)."""
    start = min(max(0, start), max(0, len(messages) - 1))
    shown = messages[start : start + MAX_PARTS]
    following = start + len(shown)
    if following < len(messages):
        label = t(locale, "continue", first=following + 1, total=len(messages))
        more = actions([button(label, CONTINUE, {**ref, "p": following}, primary=True)])
        shown[-1].blocks.append(more.to_dict())
    return shown


def _gist(text: str, limit: int = GIST_LIMIT) -> tuple[str, bool]:
    """The first sentences of a verdict, up to `limit`."""
    sentences = re.split(r"(?<=[。！？!?])", text.strip())
    gist = ""
    for s in sentences:
        if len(gist) + len(s) > limit:
            break
        gist += s
    if not gist:
        return fit(text, limit)
    escaped, _ = fit(gist, limit)
    return escaped, len(gist.strip()) < len(text.strip())


# -- messages in parts ------------------------------------------------------------------------


# -- help and simple answers ----------------------------------------------------------------


# -- summary -------------------------------------------------------------------------------


def first_words(text: str, limit: int = FIRST_WORDS) -> str:
    """The start of a question, up to `limit` characters (never inside a Latin word),
    escaped; `…` where it goes on."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return escape(text)
    cut = text[:limit]
    space = cut.rfind(" ")
    inside_a_word = text[limit - 1].isascii() and text[limit].isascii()
    if inside_a_word and text[limit - 1].isalnum() and text[limit].isalnum() and space > 0:
        cut = cut[:space]
    return escape(cut.rstrip(" ,，、:：")) + "…"


def _open_lines(c: Candidate, locale: Locale) -> list[str]:
    """Each unanswered question: its number, why, and the first words of the question."""
    open_qs = c.open_questions
    lines = [
        "• "
        + t(
            locale,
            "open_question",
            n=q.number,
            reason=_reason(q, locale),
            words=first_words(q.question),
        )
        for q in open_qs[:OPEN_SHOWN]
    ]
    if len(open_qs) > OPEN_SHOWN:
        lines.append(t(locale, "more_items", count=len(open_qs) - OPEN_SHOWN))
    return lines


def _unrecorded_lines(c: Candidate, locale: Locale) -> list[str]:
    """The questions the file lists with no answer recorded (issue 46), each with its
    number and first words: never called unanswered."""
    shown = [q for q in c.unrecorded if c.followup_for(q.number) is None]
    lines = [
        "• " + t(locale, "question", n=q.number) + " " + first_words(q.question)
        for q in shown[:OPEN_SHOWN]
    ]
    if len(shown) > OPEN_SHOWN:
        lines.append(t(locale, "more_items", count=len(shown) - OPEN_SHOWN))
    return lines


def body_blocks(c: Candidate, locale: Locale, limit: int = BODY_SHOWN) -> list[Block]:
    """The interview's text as written, for a file whose questions could not be read:
    escaped, cut to `limit` characters (and said to be cut), in sections Slack takes."""
    text = c.body.strip()
    if not text:
        return []
    shown, cut = fit(text, limit)
    blocks: list[Block] = [section(f"*{t(locale, 'body_title')}*")]
    blocks += [section(piece) for piece in chunks(unescape(shown))]
    if cut:
        kept = len(unescape(shown).removesuffix("…"))
        blocks.append(context(t(locale, "body_cut", shown=kept, total=len(text))))
    return blocks


def _meeting_lines(c: Candidate, locale: Locale) -> list[str]:
    """A meeting's questions, each with its time in the recording (`问题2（00:03:15）`) so
    it can be found there, and why an unanswered one is."""
    lines = []
    for q in c.questions[:MEETING_SHOWN]:
        at = escape(q.started_at or "–")
        words = first_words(q.question)
        if c.is_open(q):
            reason = _reason(q, locale)
            lines.append(
                "• "
                + t(locale, "meeting_open_question", n=q.number, at=at, reason=reason, words=words)
            )
        else:
            lines.append("• " + t(locale, "meeting_question", n=q.number, at=at, words=words))
    if len(c.questions) > MEETING_SHOWN:
        lines.append(t(locale, "more_items", count=len(c.questions) - MEETING_SHOWN))
    return lines


def summary_view(
    c: Candidate,
    locale: Locale,
    posted_by: str | None = None,
    people: People | None = None,
    hidden: Sequence[str] | None = None,
    for_channel: bool | None = None,
    edited: str | None = None,
) -> Message:
    """The card: who and when in the header, the id once in the line under it, the first
    sentences of the profile and the summary (the rest one click away), what was left
    unanswered, the verdict's gist and what reviewers decided. Posted in the channel
    (`posted_by`), reviewers are named by `people`. `hidden`: independent review hides
    the others' decisions and notes (`c` holds the viewer's own); who decided is said,
    for everyone in a channel (`for_channel`, by default: when posted) or for one reviewer.
    `edited`: a card in a channel made to say something else since, with this line where
    the poster was named (handlers/sealing.py)."""
    posted = bool(posted_by or edited)
    open_qs = c.open_questions
    total = len(c.counted)  # the questions whose answer the file records (issue 46)
    facts = [_years(c.years, locale, c.years_text), interviewers_text(c.interviewers, locale)]
    if c.name:  # else the id is the header's first word already
        facts.append(escape(c.id))
    if c.origin is not None and c.title:  # issue 48: the meeting it came from by itself
        facts.append(t(locale, "from_zoom_meeting", title=fit(c.title, 150)[0]))
    blocks: list[Block] = [
        header(headline(c, locale)),
        context(" · ".join(f for f in facts if f)),
    ]
    cut_any = False
    texts: list[str] = []
    for title, text, limit in (
        (t(locale, "profile"), c.intro, INTRO_GIST),
        (t(locale, "summary"), c.summary, SUMMARY_GIST),
    ):
        if text:
            gist, cut = _gist(text, limit)
            cut_any = cut_any or cut
            texts.append(f"*{title}*\n{gist}" + ("…" if cut and not gist.endswith("…") else ""))
    if c.kind == "meeting" and not c.summary:
        blocks.append(context(t(locale, "meeting_no_summary")))
    if texts:
        full = None
        if cut_any:  # the profile and summary in full, privately
            full = button(t(locale, "read_full_summary"), f"{OPEN}:1", {"v": "full", "id": c.id})
        blocks.append(section("\n".join(texts), accessory=full))
    missing = warnings_of(c)
    if "no_summary" in missing and c.kind != "meeting":  # a meeting's export says so above
        blocks.append(context(t(locale, "no_summary")))
    counts = t(locale, "answered", answered=total - len(open_qs), open=len(open_qs), total=total)
    if not total:  # never "0 answered, 0 unanswered": none found, none read, none recorded
        counts = no_questions_text(c, locale)
    elif c.unrecorded:
        counts += t(locale, "list_separator") + t(
            locale, "unrecorded_count", count=len(c.unrecorded)
        )
    if not c.questions_read:  # what the file says, as written: no count, nothing claimed
        blocks.append(section(counts))
        blocks += body_blocks(c, locale)
    elif c.kind == "meeting" and any(q.started_at for q in c.questions):
        label = t(locale, "heading", label=t(locale, "meeting_questions_title"))
        blocks.append(section("\n".join([counts, label, *_meeting_lines(c, locale)])))
    elif open_qs:
        label = t(locale, "heading", label=t(locale, "unanswered_title"))
        blocks.append(section("\n".join([counts, label, *_open_lines(c, locale)])))
    else:
        blocks.append(section(counts))
    if c.questions_read and c.kind != "meeting" and _unrecorded_lines(c, locale):
        label = t(locale, "heading", label=t(locale, "answer_not_recorded"))
        blocks.append(section("\n".join([label, *_unrecorded_lines(c, locale)])))
    if c.verdict:
        gist, cut = _gist(c.verdict)
        read_all = None
        if cut:  # the whole verdict, privately: `点评 X` would post it for everyone
            read_all = button(
                t(locale, "read_verdict"), f"{OPEN}:0", {"v": "verdict_full", "id": c.id}
            )
        blocks.append(section(f"*{t(locale, 'verdict_gist')}*\n{gist}", accessory=read_all))
    else:
        blocks.append(context(no_verdict_text(c, locale)))
    claims = claims_of(c)
    if claims:  # what the summary, verdict or a note credits that was never answered
        blocks.append(section("\n".join(claim_lines(claims, locale, limit=CARD_LIMIT))))
    named = None if not posted else (people or {})
    channel = posted if for_channel is None else for_channel
    blocks += _reviewer_blocks(c, locale, named, hidden, channel)
    if c.outcome is not None:
        blocks.append(_outcome_block(c.outcome, locale, named))
    if edited:
        blocks.append(context(edited))
    elif posted_by:
        blocks += _posted_by(locale, posted_by)
    else:
        blocks.append(_post_button(locale, {"v": "summary", "id": c.id}))
    return message(
        f"{headline(c, locale)} — {counts}",
        blocks,
        "in_channel" if posted else "ephemeral",
    )


def full_summary_views(c: Candidate, locale: Locale) -> list[Message]:
    """The profile and summary in full, as many messages as it takes."""
    body: list[Block] = []
    for title, text in ((t(locale, "profile"), c.intro), (t(locale, "summary"), c.summary)):
        if text:
            body.append(section(f"*{title}*"))
            body += [section(piece) for piece in chunks(text)]
    if not body:  # nothing to show in full: say so, make nothing up
        body.append(
            section(t(locale, "no_summary") if c.kind != "meeting" else no_verdict_text(c, locale))
        )
    return label_parts(pack([header(_who(c, locale))], body, _who(c, locale)), locale)


def _reviewer_blocks(
    c: Candidate,
    locale: Locale,
    people: People | None,
    hidden: Sequence[str] | None = None,
    posted: bool = False,
) -> list[Block]:
    if hidden is not None and not c.decisions and not c.notes and not c.followups:
        return [hidden_block(hidden, locale, people, posted)]
    lines: list[str] = []
    if c.decisions:
        lines.append(f"*{t(locale, 'tally')}* " + _tally_text(c.tally, locale))
        for d in sorted(c.decisions, key=lambda d: d.ts)[-10:]:
            note, _ = fit(d.text, 160)
            who = person(d.reviewer, people)
            lines.append(f"{who}: *{decision_label(locale, d.decision)}* {note}")
    if c.notes:
        lines.append(f"*{t(locale, 'notes')}*")
        for n in c.notes[-3:]:
            note, _ = fit(n.text, 240)
            lines.append(f"{person(n.reviewer, people)}: {note}")
    blocks: list[Block] = [] if c.decisions else [context(t(locale, "no_decisions"))]
    if hidden is not None:
        blocks = [hidden_block(hidden, locale, people, posted)]
    if lines:
        blocks.append(section(f"*{t(locale, 'reviewers')}*\n" + "\n".join(lines)))
    if c.followups:
        follow: list[str] = []
        for f in c.followups[-5:]:
            answer, _ = fit(f.answer, 300)
            who = person(f.reviewer, people)
            title = t(locale, "question", n=f.number)
            follow.append(f"*{title}* · {t(locale, 'followup', who=who)}\n{answer}")
        blocks.append(section("\n".join(follow)))
    return blocks


def _outcome_block(outcome: Outcome, locale: Locale, people: People | None) -> Block:
    """The hiring decision on the card: what, the note, who recorded it and when."""
    lines = [t(locale, "outcome_card", decision=outcome_label(locale, outcome.decision))]
    if outcome.note:
        lines.append(fit(outcome.note, 300)[0])
    by = t(locale, "outcome_by", who=person(outcome.by, people), at=escape(outcome.at[:10]))
    return section("\n".join([*lines, by]))


def outcome_label(locale: Locale, decision: str) -> str:
    """录用 / 不录用 / 待定 (hire / reject / hold)."""
    return t(locale, f"outcome_{decision}")


def outcome_post_text(
    who: str, outcome: Outcome, before: Outcome | None, before_by: str, locale: Locale
) -> str:
    """What is posted in the verdict's thread: who (a display name, never a mention)
    recorded which decision, the note, and the decision it replaces, if any."""
    name, _ = fit(who, 100)
    text = t(locale, "outcome_posted", who=name, decision=outcome_label(locale, outcome.decision))
    if outcome.note:
        text += " — " + fit(outcome.note, 2000)[0]
    if before is not None:
        text += "\n" + t(
            locale,
            "outcome_replaces",
            decision=outcome_label(locale, before.decision),
            who=fit(before_by, 100)[0],
            at=escape(before.at[:10]),
        )
    return text


def people_in(c: Candidate) -> list[str]:
    """The Slack users a summary of `c` names: reviewers, note and follow-up authors, who
    recorded the hiring decision."""
    ids = [d.reviewer for d in c.decisions] + [n.reviewer for n in c.notes]
    ids += [f.reviewer for f in c.followups]
    ids += [c.outcome.by] if c.outcome is not None else []
    return sorted(set(ids))


# -- verdict -------------------------------------------------------------------------------


def verdict_views(
    c: Candidate, locale: Locale, posted_by: str | None, edited: str | None = None
) -> list[Message]:
    """The verdict in full, in as many messages as it takes: posted in the channel under the
    candidate's header (`posted_by`), or privately for whoever asked (`posted_by` None).
    `edited`: a post in the channel made to say something else since, with this line
    where the poster was named (handlers/sealing.py)."""
    head: list[Block] = [
        header(f"{t(locale, 'verdict')} · {_who(c, locale)}"),
        context(_years(c.years, locale), escape(c.id)),
    ]
    body: list[Block] = [section(p) for p in chunks(c.verdict)] if c.verdict else []
    if not body:
        body.append(section(no_verdict_text(c, locale)))
    claims = claims_of(c)
    if claims:  # the verdict, the summary or a note credits an answer never given
        body.append(section("\n".join(claim_lines(claims, locale))))
    tail: list[Block] = []
    if edited:
        tail = [context(edited), context(t(locale, "verdict_thread_hint"))]
    elif posted_by:
        tail = [*_posted_by(locale, posted_by), context(t(locale, "verdict_thread_hint"))]
    gist, _ = fit(c.verdict or no_verdict_text(c, locale), 200)
    fallback = f"{t(locale, 'verdict')} · {_who(c, locale)}: {unescape(gist)}"
    posted = bool(posted_by or edited)
    kind = "in_channel" if posted else "ephemeral"
    if not posted:
        return label_parts(pack(head, body, fallback, kind, tail), locale)
    # 通过 / 待定 / 不通过 (handlers/listeners/decide.py), on the first message: its thread is the record
    parts = pack(head, body, fallback, kind, [*tail, decide_actions(locale)])
    if len(parts) > 1:
        parts = pack([*head, decide_actions(locale)], body, fallback, kind, tail)
    return label_parts(parts, locale)


def verdict_view(c: Candidate, locale: Locale, posted_by: str | None) -> Message:
    """The first message of the posted verdict (the one whose thread reviewers use)."""
    return verdict_views(c, locale, posted_by)[0]


# -- unanswered ----------------------------------------------------------------------------


# -- one question in full ------------------------------------------------------------------
