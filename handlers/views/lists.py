"""Pure list views: search results, candidate lists, who has unanswered questions, and the
daily digest. Each is one message with at most `PAGE_SIZE` (digest: 10 a section) lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from zoneinfo import ZoneInfo

from slack_sdk.models.blocks import Block

from store.errors import QueryTooLong
from store.models import DIGEST_CATEGORIES, CandidateSummary, DigestData, DigestLine, SearchHit
from store.request_models import Request

from ..blocks import (
    MAX_BLOCKS,
    MESSAGE_BUDGET,
    Message,
    actions,
    button,
    context,
    escape,
    fit,
    header,
    json_size,
    message,
    section,
)
from ..i18n import Locale, t
from .common import (
    OPEN,
    PAGE,
    POST,
    People,
    _dated,
    _posted_by,
    _tally_text,
    _who,
    _years,
    nothing_counted,
    notice,
    person,
    questions_text,
    spaced,
)
from .remind import deadline_text

SNIPPET_LIMIT = 400
NEWEST_WORD = "newest"  # what the post button adds to the words to keep the order
PAGE_SIZE = 10
OVERVIEW_LIMIT = 20
DIGEST_PER_CATEGORY = 10
DIGEST_OVERDUE_NAMED = 5  # reviewers named on one overdue line; the others are counted


def overview_view(
    rows: Sequence[DigestLine],
    total: int,
    offset: int,
    locale: Locale,
    posted_by: str | None = None,
    missing: int = 0,
) -> Message:
    """Who has unanswered questions, one line a candidate (a person, issue 38: their
    interviews' rounds named, their open questions summed); `missing` candidates' files
    gave no question at all, which is said, so that none of them is counted as having
    answered everything."""
    blocks: list[Block] = [header(t(locale, "overview_title"))]
    if not rows and missing:
        blocks.append(section(t(locale, "overview_none_found", count=missing)))
    elif not rows:
        blocks.append(section(t(locale, "overview_none")))
    for i, r in enumerate(rows[:OVERVIEW_LIMIT]):
        line = f"*{escape(_dated(r, locale))}* · {_years(r.years, locale)}\n" + t(
            locale, "overview_line", open=r.count
        )
        # a candidate with several interviews: their loop, open questions across it
        ref = {"v": "loop" if len(r.ids) > 1 else "unanswered", "id": r.id}
        blocks.append(section(line, accessory=button(t(locale, "open"), f"{OPEN}:{i}", ref)))
    if rows and missing:
        blocks.append(section(t(locale, "overview_missing", count=missing)))
    blocks += _pager(locale, total, offset, len(rows), {"v": "unanswered"}, posted_by)
    return message(t(locale, "overview_title"), blocks, "in_channel" if posted_by else "ephemeral")


# -- search and list -----------------------------------------------------------------------


def _snippet(hit: SearchHit, locale: Locale) -> str:
    """The snippet, its match in bold: spaced from Chinese around it so Slack renders it."""
    where = ""
    if hit.question is not None:  # which part of the interview the match came from
        where = (f"Q{hit.question}" if locale == "en" else f"问题{hit.question}") + " "
    if hit.highlight is None:
        return where + fit(hit.snippet, SNIPPET_LIMIT)[0]
    a, b = hit.highlight
    before = fit(hit.snippet[:a], SNIPPET_LIMIT // 2)[0]
    match = escape(hit.snippet[a:b]).strip()
    after = fit(hit.snippet[b:], SNIPPET_LIMIT // 2)[0]
    if not match:
        return where + before + after
    return where + spaced(before, f"*{match}*", after)


def refused_search(refused: QueryTooLong, locale: Locale) -> str:
    """Why a query was not searched (more terms or characters than a search takes) and
    what to do instead."""
    return t(
        locale,
        "search_too_many_terms" if refused.reason == "terms" else "search_too_long",
        found=refused.found,
        most=refused.most,
    )


def search_view(
    query: str,
    hits: Sequence[SearchHit],
    locale: Locale,
    posted_by: str | None = None,
    newest: bool = False,
) -> Message:
    """The hits for `query` (the words searched for, without the sort word: `newest`
    says the list is newest first, in the title, and the post button keeps it)."""
    q, _ = fit(query, 100)
    if not hits:
        return notice(t(locale, "no_hits", query=q))
    title = t(locale, "hits_title_newest" if newest else "hits_title", query=query)
    blocks: list[Block] = [header(title)]
    for i, h in enumerate(hits[:PAGE_SIZE]):
        who = escape(_who(h, locale))
        line = f"*{who}* · {_years(h.years, locale)}\n{_snippet(h, locale)}"
        if h.partial:  # the phrase as typed is not there: say which of its words are
            terms = t(locale, "term_separator").join(escape(m) for m in h.matched)
            line += "\n" + t(locale, "hit_partial", terms=terms)
        blocks.append(
            section(
                line,
                accessory=button(t(locale, "open"), f"{OPEN}:{i}", {"v": "summary", "id": h.id}),
            )
        )
    if posted_by:
        blocks += _posted_by(locale, posted_by)
    else:
        again = f"{query} {NEWEST_WORD}" if newest else query
        blocks.append(
            actions([button(t(locale, "post_in_channel"), POST, {"v": "search", "q": again})])
        )
    return message(title, blocks, "in_channel" if posted_by else "ephemeral")


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
    if not rows and position and offset == 0:
        blocks.append(section(t(locale, "list_empty_position", position=escape(position))))
    elif not rows:
        blocks.append(section(t(locale, "list_empty")))
    for i, r in enumerate(rows[:PAGE_SIZE]):
        line = f"*{escape(_dated(r, locale))}* · {_years(r.years, locale)}\n" + questions_text(
            r.questions, r.unanswered, locale, r.questions_read, r.unrecorded
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


def _digest_line(
    line: DigestLine,
    category: str,
    locale: Locale,
    hidden: Sequence[str] | None = None,
    people: People | None = None,
) -> str:
    """A line of the digest; `hidden`: independent review hides its decisions (who decided
    is said: by display name in a channel, `people`; mentions in a private list)."""
    text = f"*{escape(_dated(line, locale))}* · {_years(line.years, locale)}"
    if category == "unanswered":
        text += " · " + t(locale, "overview_line", open=line.count)
    if category == "decided" and hidden is not None:
        who = t(locale, "name_separator").join(person(u, people) for u in hidden[:10])
        text += " · " + t(locale, "review_digest_hidden", who=who or "–")
    elif category == "decided" and line.tally:
        text += " · " + _tally_text(line.tally, locale)
    if line.questions == 0 or not line.questions_read:  # said, never left to look answered
        text += " · " + nothing_counted(line.questions_read, line.unrecorded, locale)
    if line.claims:  # what the summary, verdict or notes credit that was never answered
        text += " · " + t(locale, "claim_count", count=line.claims)
    return text


def _overdue_line(
    line: DigestLine, late: Sequence[Request], locale: Locale, people: People, tz: ZoneInfo
) -> str:
    """`name · position · date`, then who is overdue and since which deadline: by display
    name (the digest is posted in a channel: never a mention)."""
    named = [
        t(
            locale,
            "digest_overdue_who",
            who=person(r.reviewer, people),
            due=deadline_text(r.due_at, tz),
        )
        for r in late[:DIGEST_OVERDUE_NAMED]
    ]
    who = t(locale, "name_separator").join(named)
    if len(late) > DIGEST_OVERDUE_NAMED:
        who += " " + t(locale, "digest_overdue_others", count=len(late) - DIGEST_OVERDUE_NAMED)
    return f"*{escape(_dated(line, locale))}*\n" + t(locale, "digest_overdue_line", who=who)


def _digest_sections(data: DigestData) -> list[tuple[str, int, list[Any]]]:
    """(category, total, its lines) in the order the digest shows them: overdue feedback
    right after the candidates waiting for a decision."""
    found: list[tuple[str, int, list[Any]]] = []
    for category in DIGEST_CATEGORIES:
        found.append((category, getattr(data, f"{category}_total"), getattr(data, category)))
        if category == "waiting":
            found.append(("overdue", data.overdue_total, list(data.overdue)))
    return [(c, total, lines[:DIGEST_PER_CATEGORY]) for c, total, lines in found if total]


def digest_view(
    data: DigestData,
    day: str,
    locale: Locale,
    since_label: str | None = None,
    people: People | None = None,
    tz: ZoneInfo | None = None,
    hidden: Mapping[str, Sequence[str]] | None = None,
) -> Message:
    """One message: what needs attention today. Every line opens the candidate's summary
    for whoever clicks; past the lines shown, an "and N more" button lists the rest
    (overdue feedback says how many more). People are named by display name (`people`),
    never mentioned. When every section's lines would not fit in Slack's limits (50
    blocks, the message's size), the longest sections show fewer and count the rest.
    `hidden`: the decided candidates whose decisions independent review hides from the
    channel (someone asked has not decided), with who decided."""
    since = since_label or data.since[:16].replace("T", " ")
    sections = _digest_sections(data)
    shown = {category: len(lines) for category, _total, lines in sections}
    names: People = people or {}
    zone = tz or ZoneInfo("UTC")
    while True:
        blocks = _digest_blocks(
            data.since, sections, shown, day, since, locale, names, zone, hidden or {}
        )
        rendered = [b.to_dict() for b in blocks]
        fits = len(rendered) <= MAX_BLOCKS and json_size(rendered) <= MESSAGE_BUDGET
        if fits or not any(shown.values()):
            break
        longest = max(shown, key=lambda category: shown[category])
        shown[longest] -= 1
    titles = [t(locale, f"digest_{category}", count=total) for category, total, _ in sections]
    fallback = t(locale, "digest_title", day=day) + ": " + "; ".join(titles)
    return message(fallback, blocks, "in_channel")


def _digest_blocks(
    since_iso: str,
    sections: list[tuple[str, int, list[Any]]],
    shown: dict[str, int],
    day: str,
    since: str,
    locale: Locale,
    people: People,
    tz: ZoneInfo,
    hidden: Mapping[str, Sequence[str]],
) -> list[Block]:
    blocks: list[Block] = [header(t(locale, "digest_title", day=day))]
    blocks.append(context(t(locale, "digest_since", since=escape(since))))
    counter = 0
    for category, total, lines in sections:
        blocks.append(section(f"*{t(locale, f'digest_{category}', count=total)}*"))
        for item in lines[: shown[category]]:
            if category == "overdue":
                line, late = item
                text = _overdue_line(line, late, locale, people, tz)
            else:
                line = item
                text = _digest_line(item, category, locale, hidden.get(item.id), people)
            opener = button(t(locale, "open"), f"{OPEN}:{counter}", {"v": "summary", "id": line.id})
            blocks.append(section(text, accessory=opener))
            counter += 1
        more = total - shown[category]
        if more <= 0:
            continue
        if category == "overdue":  # no list of them to open: counted
            blocks.append(context(t(locale, "digest_more", count=more)))
            continue
        ref: dict[str, Any] = {"v": "digest", "c": category, "s": since_iso, "o": 0}
        blocks.append(
            section(
                t(locale, "digest_more", count=more),
                accessory=button(t(locale, "digest_show_all"), f"{OPEN}:{counter}", ref),
            )
        )
        counter += 1
    return blocks


def digest_list_view(
    category: str,
    since: str,
    lines: Sequence[DigestLine],
    total: int,
    offset: int,
    locale: Locale,
    hidden: Mapping[str, Sequence[str]] | None = None,
) -> Message:
    """A category of the digest in full, privately (`hidden`: independent review)."""
    title = t(locale, f"digest_{category}", count=total)
    blocks: list[Block] = [header(title)]
    for i, line in enumerate(lines[:PAGE_SIZE]):
        ref = {"v": "summary", "id": line.id}
        blocks.append(
            section(
                _digest_line(line, category, locale, (hidden or {}).get(line.id)),
                accessory=button(t(locale, "open"), f"{OPEN}:{i}", ref),
            )
        )
    blocks += _pager(
        locale, total, offset, len(lines), {"v": "digest", "c": category, "s": since}, ""
    )
    return message(title, blocks)
