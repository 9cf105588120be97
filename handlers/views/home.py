"""Pure views for the App Home tab and its modals (handlers/listeners/home.py).

The Home tab holds five sections of at most `PER_SECTION` lines, each line with a
button that opens the candidate's summary in a modal, and a pager ("and N more",
previous / next) under a section with more: at most 3 + 5 x 14 = 73 blocks, inside
Slack's 100 for a view, however many candidates wait.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field, StrictInt, StrictStr
from slack_sdk.models.blocks import (
    Block,
    ContextBlock,
    DividerBlock,
    InputBlock,
    PlainTextInputElement,
    SectionBlock,
)
from slack_sdk.models.views import View

from store.models import DigestLine, SearchHit, plain_years

from ..blocks import MAX_MODAL_TITLE, actions, button, escape, fit, header, mrkdwn, plain, section
from ..i18n import Locale, t
from .common import POST, _dated, nothing_counted

HOME_OPEN = "home_open"  # `home_open:<n>`, value {"id": candidate}
HOME_PAGE = "home_page"  # `home_page:<section>:<prev|next>`, value {"s": section, "o": offset}
HOME_SEARCH = "home_search"  # the search button, and the search modal's callback_id
HOME_SETTINGS = "ws_settings"  # the workspace settings button (handlers/views/settings.py)
SEARCH_BLOCK, SEARCH_ACTION = "query", "home_search_query"
PER_SECTION = 10
SEARCH_RESULTS = 20
# "asked": the requests for your decision (`/candidate 邀请`), the earliest deadline first
Section = Literal["asked", "waiting", "new", "unanswered", "decided"]
SECTIONS: tuple[Section, ...] = get_args(Section)


class LineRef(BaseModel):
    """A line's button value, as Slack hands it back: which candidate to open."""

    id: StrictStr = Field(min_length=1, max_length=1000)


class PageRef(BaseModel):
    """A pager button's value, as Slack hands it back: which section, from where."""

    s: Section
    o: StrictInt = Field(ge=0, le=2**31 - 1)


@dataclass(frozen=True)
class HomeLine:
    line: DigestLine
    note: str = ""  # what else the line says: open questions, your decision


@dataclass(frozen=True)
class HomeSection:
    key: str  # one of SECTIONS
    lines: Sequence[HomeLine]
    total: int
    offset: int = 0


def _who(line: DigestLine, locale: Locale) -> str:
    """`name · position · date · years`: the id where the file names nobody, the date
    where it gives one (escaped)."""
    years = (
        t(locale, "years", years=plain_years(line.years))
        if line.years is not None
        else t(locale, "years_unknown")
    )
    return f"{escape(_dated(line, locale))} · {years}"


def _section_blocks(s: HomeSection, locale: Locale, counter: list[int]) -> list[Block]:
    blocks: list[Block] = [section(f"*{t(locale, f'home_{s.key}', count=s.total)}*")]
    if not s.lines:
        blocks.append(ContextBlock(elements=[mrkdwn(t(locale, "home_none"))]))
    for item in s.lines[:PER_SECTION]:
        text = _who(item.line, locale) + (f"\n{item.note}" if item.note else "")
        if item.line.questions == 0 or not item.line.questions_read:  # nothing counted: why
            text += "\n" + nothing_counted(item.line.questions_read, item.line.unrecorded, locale)
        if item.line.claims:  # credited with answers never given
            text += "\n" + t(locale, "claim_count", count=item.line.claims)
        opener = button(t(locale, "open"), f"{HOME_OPEN}:{counter[0]}", {"id": item.line.id})
        counter[0] += 1
        blocks.append(section(text, accessory=opener))
    shown = len(s.lines[:PER_SECTION])
    if s.total > shown or s.offset:
        page = t(locale, "list_page", first=s.offset + 1, last=s.offset + shown, total=s.total)
        more = s.total - s.offset - shown
        parts = [page] + ([t(locale, "digest_more", count=more)] if more > 0 else [])
        blocks.append(ContextBlock(elements=[mrkdwn(" · ".join(parts))]))
        buttons = []
        if s.offset > 0:
            ref = {"s": s.key, "o": max(0, s.offset - PER_SECTION)}
            buttons.append(button(t(locale, "prev_page"), f"{HOME_PAGE}:{s.key}:prev", ref))
        if more > 0:
            ref = {"s": s.key, "o": s.offset + shown}
            buttons.append(button(t(locale, "next_page"), f"{HOME_PAGE}:{s.key}:next", ref))
        if buttons:
            blocks.append(actions(buttons))
    blocks.append(DividerBlock())
    return blocks


def home_view(
    sections: Sequence[HomeSection], locale: Locale, settings: bool = False
) -> dict[str, Any]:
    """The Home tab: your queue, newest transcripts, open questions, your decisions;
    `settings`: the workspace settings button too (for its admins, installed in many)."""
    top = [button(t(locale, "home_search"), HOME_SEARCH, {}, primary=True)]
    if settings:
        top.append(button(t(locale, "home_settings"), HOME_SETTINGS, {}))
    blocks: list[Block] = [header(t(locale, "home_title")), actions(top)]
    counter = [0]
    for s in sections:
        blocks += _section_blocks(s, locale, counter)
    blocks.append(ContextBlock(elements=[mrkdwn(t(locale, "home_refreshed"))]))
    return View(type="home", blocks=blocks).to_dict()


def search_modal(
    query: str, hits: Sequence[SearchHit] | None, locale: Locale, said: str | None = None
) -> dict[str, Any]:
    """The search modal: the input (Enter searches), and the results under it (or, in
    their place, what `said`: every search worker busy, a query not searched and why)."""
    blocks: list[Any] = [
        InputBlock(
            block_id=SEARCH_BLOCK,
            label=plain(t(locale, "search_label")),
            dispatch_action=True,
            element=PlainTextInputElement(
                action_id=SEARCH_ACTION, initial_value=query[:300] or None, max_length=300
            ),
        )
    ]
    if said is not None:
        blocks.append(section(said))
    if hits is not None:
        q, _ = fit(query, 100)
        if not hits:
            blocks.append(section(t(locale, "no_hits", query=q)))
        for i, h in enumerate(hits[:SEARCH_RESULTS]):
            line = DigestLine(id=h.id, position=h.position, years=h.years, name=h.name)
            snippet, _ = fit(h.snippet, 300)
            if h.partial:  # only some words of the phrase as typed: say which
                terms = t(locale, "term_separator").join(escape(m) for m in h.matched)
                snippet += "\n" + t(locale, "hit_partial", terms=terms)
            opener = button(t(locale, "open"), f"{HOME_OPEN}:{i}", {"id": h.id})
            blocks.append(section(f"{_who(line, locale)}\n{snippet}", accessory=opener))
    view = View(
        type="modal",
        callback_id=HOME_SEARCH,
        title=plain(t(locale, "search_title"), MAX_MODAL_TITLE),
        submit=plain(t(locale, "search_title"), MAX_MODAL_TITLE),
        close=plain(t(locale, "close"), MAX_MODAL_TITLE),
        blocks=blocks,
    )
    return view.to_dict()


def summary_modal(summary_blocks: list[dict[str, Any]], locale: Locale) -> dict[str, Any]:
    """A candidate's summary in a modal (without the "post in channel" button)."""
    blocks = [
        b
        for b in summary_blocks
        if not (
            b.get("type") == "actions"
            and any(e.get("action_id") == POST for e in b.get("elements") or [])
        )
    ]
    view = View(
        type="modal",
        title=plain(t(locale, "summary_title"), MAX_MODAL_TITLE),
        close=plain(t(locale, "close"), MAX_MODAL_TITLE),
        blocks=blocks[:100],
    )
    return view.to_dict()


def gone_modal(locale: Locale) -> dict[str, Any]:
    view = View(
        type="modal",
        title=plain(t(locale, "summary_title"), MAX_MODAL_TITLE),
        close=plain(t(locale, "close"), MAX_MODAL_TITLE),
        blocks=[SectionBlock(text=mrkdwn(t(locale, "home_gone")))],
    )
    return view.to_dict()


__all__ = [
    "HOME_OPEN",
    "HOME_PAGE",
    "HOME_SEARCH",
    "SEARCH_ACTION",
    "HomeLine",
    "HomeSection",
    "LineRef",
    "PageRef",
    "gone_modal",
    "home_view",
    "search_modal",
    "summary_modal",
]
