"""Pure view functions: models in, Block Kit messages out. No I/O.

Every view fits Slack's limits for any transcript (see blocks.py): long text is cut
with a note in summaries, and spread over several messages where the user asked
for the whole thing (a question's answer), never cut.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from slack_sdk.models.blocks import Block

from store.models import (
    DECISIONS,
    DIGEST_CATEGORIES,
    Candidate,
    CandidateSummary,
    DigestData,
    DigestLine,
    Question,
    SearchHit,
    plain_years,
)

from .blocks import (
    Message,
    actions,
    button,
    chunks,
    context,
    divider,
    escape,
    fit,
    header,
    message,
    pack,
    section,
    unescape,
)
from .i18n import Locale, t
from .views_decide import decide_actions

INTRO_LIMIT = 600
SUMMARY_LIMIT = 1500
GIST_LIMIT = 160
SNIPPET_LIMIT = 400
PAGE_SIZE = 10
PICK_LIMIT = 10
OVERVIEW_LIMIT = 20

POST = "post_in_channel"
OPEN = "open_view"
PAGE = "page"


def _who(c: Candidate | CandidateSummary | DigestLine, locale: Locale) -> str:
    return f"{c.id} · {c.position or t(locale, 'position_unknown')}"


def _years(years: float | None, locale: Locale, text: str = "") -> str:
    """`3 年经验`; unknown years show what the file said (`不到1年`), else 年限未知."""
    if years is not None:
        return t(locale, "years", years=plain_years(years))
    return escape(text) if text else t(locale, "years_unknown")


def _reason(q: Question, locale: Locale) -> str:
    """Why a question is unanswered, to show beside it: 未作答 / 跳过 / 不会."""
    return t(locale, f"reason_{q.unanswered_reason or 'empty'}")


def _post_button(locale: Locale, ref: dict[str, Any]) -> Block:
    return actions([button(t(locale, "post_in_channel"), POST, ref)])


def _posted_by(locale: Locale, user: str | None) -> list[Block]:
    return [context(t(locale, "posted_by", user=user))] if user else []


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


def decision_label(locale: Locale, decision: str) -> str:
    return t(locale, f"decision_{decision}")


def _tally_text(tally: dict[str, int], locale: Locale) -> str:
    """`2 Hire, 1 No hire`: the decisions in their order, strongest for first."""
    return ", ".join(f"{tally[d]} {decision_label(locale, d)}" for d in DECISIONS if d in tally)


# -- help and simple answers ----------------------------------------------------------------


def help_view(locale: Locale, lead: str | None = None) -> Message:
    blocks: list[Block] = [header(t(locale, "help_title"))]
    if lead:
        blocks.append(section(escape(lead)))
    blocks.append(section(t(locale, "help_body")))
    return message(t(locale, "help_title"), blocks)


def notice(text: str, with_help: bool = False, locale: Locale = "zh") -> Message:
    """A short, kind answer (text is ours, with user input already escaped by the caller)."""
    blocks: list[Block] = [section(text)]
    if with_help:
        blocks += [divider(), section(t(locale, "help_body"))]
    return message(_plain(text), blocks)


def _plain(text: str) -> str:
    return unescape(text).replace("`", "")


def not_found_view(locale: Locale, query: str) -> Message:
    q, _ = fit(query, 200)
    return notice(t(locale, "not_found", query=q), with_help=True, locale=locale)


def pick_view(
    locale: Locale, query: str, matches: Sequence[CandidateSummary], ref: dict[str, Any]
) -> Message:
    q, _ = fit(query, 200)
    blocks: list[Block] = [section(t(locale, "pick", count=len(matches), query=q))]
    for i, m in enumerate(matches[:PICK_LIMIT]):
        line = f"*{escape(_who(m, locale))}*\n{_years(m.years, locale)} · " + t(
            locale, "questions_count", total=m.questions, open=m.unanswered
        )
        blocks.append(
            section(line, accessory=button(t(locale, "open"), f"{OPEN}:{i}", {**ref, "id": m.id}))
        )
    if len(matches) > PICK_LIMIT:
        blocks.append(context(t(locale, "pick_more", shown=PICK_LIMIT)))
    return message(t(locale, "pick", count=len(matches), query=query), blocks)


# -- summary -------------------------------------------------------------------------------


def summary_view(c: Candidate, locale: Locale, posted_by: str | None = None) -> Message:
    open_qs = c.open_questions
    total = len(c.questions)
    blocks: list[Block] = [
        header(_who(c, locale)),
        context(_years(c.years, locale, c.years_text), escape(c.id)),
    ]
    if c.intro:
        intro, cut = fit(c.intro, INTRO_LIMIT)
        blocks.append(section(f"*{t(locale, 'profile')}*\n{intro}"))
    if c.summary:
        text, cut = fit(c.summary, SUMMARY_LIMIT)
        blocks.append(section(f"*{t(locale, 'summary')}*\n{text}"))
        if cut:
            blocks.append(context(t(locale, "read_more", cmd=f"summary {c.id} full")))
    counts = t(locale, "answered", answered=total - len(open_qs), open=len(open_qs), total=total)
    if open_qs:
        numbers = ", ".join(
            f"{q.number}（{_reason(q, locale)}）"
            if locale == "zh"
            else f"{q.number} ({_reason(q, locale)})"
            for q in open_qs[:30]
        )
        counts += f"\n{t(locale, 'unanswered_title')}: {numbers}"
    blocks.append(section(counts))
    if c.verdict:
        gist, cut = _gist(c.verdict)
        blocks.append(section(f"*{t(locale, 'verdict_gist')}*\n{gist}"))
        if cut:
            blocks.append(context(t(locale, "read_more", cmd=f"verdict {c.id}")))
    else:
        blocks.append(context(t(locale, "no_verdict")))
    blocks += _reviewer_blocks(c, locale)
    if posted_by:
        blocks += _posted_by(locale, posted_by)
    else:
        blocks.append(_post_button(locale, {"v": "summary", "id": c.id}))
    return message(
        f"{_who(c, locale)} — {counts.splitlines()[0]}",
        blocks,
        "in_channel" if posted_by else "ephemeral",
    )


def full_summary_views(c: Candidate, locale: Locale) -> list[Message]:
    """The profile and summary in full, as many messages as it takes."""
    body: list[Block] = []
    for title, text in ((t(locale, "profile"), c.intro), (t(locale, "summary"), c.summary)):
        if text:
            body.append(section(f"*{title}*"))
            body += [section(piece) for piece in chunks(text)]
    return pack([header(_who(c, locale))], body, _who(c, locale))


def _reviewer_blocks(c: Candidate, locale: Locale) -> list[Block]:
    lines: list[str] = []
    if c.decisions:
        lines.append(f"*{t(locale, 'tally')}*: " + _tally_text(c.tally, locale))
        for d in sorted(c.decisions, key=lambda d: d.ts)[-10:]:
            note, _ = fit(d.text, 200)
            lines.append(f"<@{escape(d.reviewer)}>: *{decision_label(locale, d.decision)}* {note}")
    if c.notes:
        lines.append(f"*{t(locale, 'notes')}*")
        for n in c.notes[-3:]:
            note, _ = fit(n.text, 300)
            lines.append(f"<@{escape(n.reviewer)}>: {note}")
    blocks: list[Block] = []
    if lines:
        blocks.append(section(f"*{t(locale, 'reviewers')}*\n" + "\n".join(lines)))
    if c.followups:
        follow: list[str] = []
        for f in c.followups[-5:]:
            answer, _ = fit(f.answer, 300)
            who = f"<@{escape(f.reviewer)}>"
            title = t(locale, "question", n=f.number)
            follow.append(f"*{title}* · {t(locale, 'followup', who=who)}\n{answer}")
        blocks.append(section("\n".join(follow)))
    return blocks


# -- verdict -------------------------------------------------------------------------------


def verdict_view(c: Candidate, locale: Locale, posted_by: str | None) -> Message:
    """The verdict, posted in the channel under the candidate's header."""
    blocks: list[Block] = [
        header(f"{t(locale, 'verdict')} · {_who(c, locale)}"),
        context(_years(c.years, locale), escape(c.id)),
    ]
    if c.verdict:
        pieces = chunks(c.verdict)
        room = 44  # and the decision buttons
        blocks += [section(p) for p in pieces[:room]]
        if len(pieces) > room:
            blocks.append(context(t(locale, "more_items", count=len(pieces) - room)))
    else:
        blocks.append(section(t(locale, "no_verdict")))
    blocks += _posted_by(locale, posted_by)
    blocks.append(context(t(locale, "verdict_thread_hint")))
    blocks.append(decide_actions(locale))  # 通过 / 待定 / 不通过: handlers/decide.py
    gist, _ = fit(c.verdict or t(locale, "no_verdict"), 200)
    return message(f"{t(locale, 'verdict')} · {_who(c, locale)}: {gist}", blocks, "in_channel")


# -- unanswered ----------------------------------------------------------------------------


def _question_line(q: Question, locale: Locale) -> str:
    question, _ = fit(q.question, 1200)
    text = f"*{t(locale, 'question', n=q.number)}* ({_reason(q, locale)}) {question}"
    if q.goal:
        goal, _ = fit(q.goal, 800)
        text += f"\n_{t(locale, 'goal')}_: {goal}"
    return text


def unanswered_view(c: Candidate, locale: Locale, posted_by: str | None = None) -> list[Message]:
    open_qs = c.open_questions
    head: list[Block] = [header(f"{t(locale, 'unanswered_title')} · {_who(c, locale)}")]
    if not open_qs:
        head.append(section(escape(t(locale, "none_unanswered", who=c.id))))
    body: list[Block] = [section(_question_line(q, locale)) for q in open_qs]
    tail: list[Block] = (
        _posted_by(locale, posted_by)
        if posted_by
        else [_post_button(locale, {"v": "unanswered", "id": c.id})]
    )
    fallback = f"{t(locale, 'unanswered_title')} · {_who(c, locale)}: {len(open_qs)}"
    return pack(head, body, fallback, "in_channel" if posted_by else "ephemeral", tail)


def overview_view(
    rows: Sequence[CandidateSummary],
    total: int,
    offset: int,
    locale: Locale,
    posted_by: str | None = None,
) -> Message:
    blocks: list[Block] = [header(t(locale, "overview_title"))]
    if not rows:
        blocks.append(section(t(locale, "overview_none")))
    for i, r in enumerate(rows[:OVERVIEW_LIMIT]):
        line = f"*{escape(_who(r, locale))}* · {_years(r.years, locale)}\n" + t(
            locale, "overview_line", open=r.unanswered
        )
        blocks.append(
            section(
                line,
                accessory=button(t(locale, "open"), f"{OPEN}:{i}", {"v": "unanswered", "id": r.id}),
            )
        )
    blocks += _pager(locale, total, offset, len(rows), {"v": "unanswered"}, posted_by)
    return message(t(locale, "overview_title"), blocks, "in_channel" if posted_by else "ephemeral")


# -- one question in full ------------------------------------------------------------------


def question_views(
    c: Candidate, q: Question, locale: Locale, posted_by: str | None = None
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
    else:
        body.append(section(t(locale, "no_answer")))
    followup = c.followup_for(q.number)
    if followup:
        body.append(section(f"*{t(locale, 'followup', who=f'<@{escape(followup.reviewer)}>')}*"))
        body += [section(p) for p in chunks(followup.answer)]
    tail: list[Block] = (
        _posted_by(locale, posted_by)
        if posted_by
        else [_post_button(locale, {"v": "question", "id": c.id, "n": q.number})]
    )
    fallback = f"{_who(c, locale)} · {t(locale, 'question', n=q.number)}: {q.question}"
    messages = pack(head, body, fallback, "in_channel" if posted_by else "ephemeral", tail)
    if len(messages) > 1:
        for i, m in enumerate(messages, start=1):
            m.blocks.insert(
                0 if i > 1 else 1,
                context(t(locale, "question_part", part=i, parts=len(messages))).to_dict(),
            )
    return messages


# -- search and list -----------------------------------------------------------------------


def _snippet(hit: SearchHit, locale: Locale) -> str:
    where = ""
    if hit.question is not None:  # which part of the interview the match came from
        where = (f"Q{hit.question}" if locale == "en" else f"问题{hit.question}") + " "
    if hit.highlight is None:
        return where + fit(hit.snippet, SNIPPET_LIMIT)[0]
    a, b = hit.highlight
    before = fit(hit.snippet[:a], SNIPPET_LIMIT // 2)[0]
    match = escape(hit.snippet[a:b])
    after = fit(hit.snippet[b:], SNIPPET_LIMIT // 2)[0]
    return f"{where}{before}*{match}*{after}"


def search_view(
    query: str, hits: Sequence[SearchHit], locale: Locale, posted_by: str | None = None
) -> Message:
    q, _ = fit(query, 100)
    if not hits:
        return notice(t(locale, "no_hits", query=q))
    blocks: list[Block] = [header(t(locale, "hits_title", query=query))]
    for i, h in enumerate(hits[:PAGE_SIZE]):
        who = escape(f"{h.id} · {h.position or t(locale, 'position_unknown')}")
        line = f"*{who}* · {_years(h.years, locale)}\n{_snippet(h, locale)}"
        blocks.append(
            section(
                line,
                accessory=button(t(locale, "open"), f"{OPEN}:{i}", {"v": "summary", "id": h.id}),
            )
        )
    if posted_by:
        blocks += _posted_by(locale, posted_by)
    else:
        blocks.append(_post_button(locale, {"v": "search", "q": query}))
    return message(
        t(locale, "hits_title", query=query), blocks, "in_channel" if posted_by else "ephemeral"
    )


def list_view(
    rows: Sequence[CandidateSummary],
    total: int,
    offset: int,
    position: str | None,
    locale: Locale,
    posted_by: str | None = None,
) -> Message:
    title = (
        t(locale, "list_title_position", position=position) if position else t(locale, "list_title")
    )
    blocks: list[Block] = [header(title)]
    if not rows:
        blocks.append(section(t(locale, "list_empty")))
    for i, r in enumerate(rows[:PAGE_SIZE]):
        line = f"*{escape(_who(r, locale))}* · {_years(r.years, locale)}\n" + t(
            locale, "questions_count", total=r.questions, open=r.unanswered
        )
        blocks.append(
            section(
                line,
                accessory=button(t(locale, "open"), f"{OPEN}:{i}", {"v": "summary", "id": r.id}),
            )
        )
    ref: dict[str, Any] = {"v": "list"}
    if position:
        ref["q"] = position
    blocks += _pager(locale, total, offset, len(rows), ref, posted_by)
    return message(title, blocks, "in_channel" if posted_by else "ephemeral")


def _pager(
    locale: Locale, total: int, offset: int, shown: int, ref: dict[str, Any], posted_by: str | None
) -> list[Block]:
    blocks: list[Block] = []
    if total:
        blocks.append(
            context(t(locale, "list_page", first=offset + 1, last=offset + shown, total=total))
        )
    buttons = []
    if offset > 0:
        buttons.append(
            button(t(locale, "prev_page"), f"{PAGE}:prev", {**ref, "o": max(0, offset - PAGE_SIZE)})
        )
    if offset + shown < total:
        buttons.append(button(t(locale, "next_page"), f"{PAGE}:next", {**ref, "o": offset + shown}))
    if posted_by:
        blocks += _posted_by(locale, posted_by)
    elif posted_by is None:
        buttons.append(button(t(locale, "post_in_channel"), POST, {**ref, "o": offset}))
    if buttons:
        blocks.append(actions(buttons))
    return blocks


# -- the daily digest -----------------------------------------------------------------------

DIGEST_PER_CATEGORY = 10


def _digest_line(line: DigestLine, category: str, locale: Locale) -> str:
    text = f"*{escape(_who(line, locale))}* · {_years(line.years, locale)}"
    if category == "unanswered":
        text += " · " + t(locale, "overview_line", open=line.count)
    if category == "decided" and line.tally:
        text += " · " + _tally_text(line.tally, locale)
    return text


def digest_view(
    data: DigestData, day: str, locale: Locale, since_label: str | None = None
) -> Message:
    """One message: what needs attention today. Every line opens the candidate's summary
    for whoever clicks; past the lines shown, an "and N more" button lists the rest."""
    blocks: list[Block] = [header(t(locale, "digest_title", day=day))]
    since = since_label or data.since[:16].replace("T", " ")
    blocks.append(context(t(locale, "digest_since", since=escape(since))))
    counter = 0
    summary_lines: list[str] = []
    for category in DIGEST_CATEGORIES:
        lines: list[DigestLine] = getattr(data, category)
        total: int = getattr(data, f"{category}_total")
        if not total:
            continue
        title = t(locale, f"digest_{category}", count=total)
        summary_lines.append(title)
        blocks.append(section(f"*{title}*"))
        for line in lines[:DIGEST_PER_CATEGORY]:
            opener = button(t(locale, "open"), f"{OPEN}:{counter}", {"v": "summary", "id": line.id})
            blocks.append(section(_digest_line(line, category, locale), accessory=opener))
            counter += 1
        if total > len(lines[:DIGEST_PER_CATEGORY]):
            more = total - len(lines[:DIGEST_PER_CATEGORY])
            ref: dict[str, Any] = {"v": "digest", "c": category, "s": data.since, "o": 0}
            blocks.append(
                section(
                    t(locale, "digest_more", count=more),
                    accessory=button(t(locale, "digest_show_all"), f"{OPEN}:{counter}", ref),
                )
            )
            counter += 1
    return message(
        t(locale, "digest_title", day=day) + ": " + "; ".join(summary_lines), blocks, "in_channel"
    )


def digest_list_view(
    category: str, since: str, lines: Sequence[DigestLine], total: int, offset: int, locale: Locale
) -> Message:
    title = t(locale, f"digest_{category}", count=total)
    blocks: list[Block] = [header(title)]
    for i, line in enumerate(lines[:PAGE_SIZE]):
        ref = {"v": "summary", "id": line.id}
        blocks.append(
            section(
                _digest_line(line, category, locale),
                accessory=button(t(locale, "open"), f"{OPEN}:{i}", ref),
            )
        )
    blocks += _pager(
        locale, total, offset, len(lines), {"v": "digest", "c": category, "s": since}, ""
    )
    return message(title, blocks)


def error_view(locale: Locale) -> Message:
    return notice(t(locale, "error"))
