"""`/candidate`: parse the text, ask the store, render views. No Slack I/O here.

The Bolt listeners (slash.py, actions.py) and `debrief ask` all come through
`parse_command` and `run`, so they answer alike.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from store.db import Store
from store.models import Candidate
from store.parser import parse_years

from . import views
from .blocks import Message, escape, fit
from .i18n import Locale, t

ALIASES = {
    "help": "help",
    "帮助": "help",
    "?": "help",
    "？": "help",
    "-h": "help",
    "--help": "help",
    "summary": "summary",
    "总结": "summary",
    "unanswered": "unanswered",
    "未回答": "unanswered",
    "verdict": "verdict",
    "点评": "verdict",
    "question": "question",
    "问题": "question",
    "q": "question",
    "search": "search",
    "搜索": "search",
    "list": "list",
    "列表": "list",
}
FULL_WORDS = {"full", "all", "全文", "全部"}
MAX_TEXT = 4000


@dataclass(frozen=True)
class Route:
    """What the user asked for. Button values decode to the same thing."""

    kind: str  # help, summary, full, unanswered, verdict, question, search, list, who
    who: str = ""
    n: int | None = None
    words: str = ""
    offset: int = 0
    lead: str | None = None
    since: str = ""


@dataclass
class Outgoing:
    message: Message
    post: bool = False  # into the channel with chat.postMessage (so it has a ts for threads)
    candidate_id: str | None = None
    kind: str = ""


@dataclass
class Deps:
    """What the listeners need: the store and the language to answer in."""

    store: Store
    locale: Locale = "zh"


_QN_RE = re.compile(r"^(?:问题|question|q|#)?\s*([0-9]+|[零〇一二两三四五六七八九十百]+)$", re.I)


def question_number(token: str) -> int | None:
    m = _QN_RE.match(unicodedata.normalize("NFKC", token).strip())
    if not m:
        return None
    digits = m.group(1)
    if len(digits) > 5:
        return None
    value = int(digits) if digits.isdigit() else parse_years(digits)
    return value if value is not None and value > 0 else None


def parse_command(text: str) -> Route:
    """`/candidate` text -> Route. Never raises."""
    text = unicodedata.normalize("NFKC", (text or "").replace("\x00", " "))[:MAX_TEXT]
    words = text.split()
    if not words:
        return Route("help", lead="empty")
    first = words[0].lower().rstrip(":：")
    rest = words[1:]
    glued = re.match(r"^(问题|question|q)(\d+)$", first, re.I)
    if glued and rest:  # `问题3 000`
        return Route("question", who=" ".join(rest), n=int(glued.group(2)))
    kind = ALIASES.get(first)
    if kind is None:
        return Route("who", who=" ".join(words))
    if kind == "help":
        return Route("help")
    if kind == "search":
        return Route("search", words=" ".join(rest))
    if kind == "list":
        return Route("list", words=" ".join(rest))
    if kind == "question":
        n = question_number(rest[-1]) if rest else None
        who = rest[:-1] if n is not None else rest
        if n is None and len(rest) >= 2:
            n = question_number(rest[0])
            who = rest[1:] if n is not None else rest
        return Route("question", who=" ".join(who), n=n)
    if kind == "summary" and rest and rest[-1].lower() in FULL_WORDS and len(rest) > 1:
        return Route("full", who=" ".join(rest[:-1]))
    return Route(kind, who=" ".join(rest))


def route_from_value(ref: dict[str, Any]) -> Route | None:
    """A button's value -> Route (None when it is not one of ours)."""
    kind = ref.get("v")
    if kind not in {
        "summary",
        "full",
        "unanswered",
        "verdict",
        "question",
        "search",
        "list",
        "digest",
    }:
        return None
    n = ref.get("n")
    offset = ref.get("o", 0)
    return Route(
        str(kind),
        who=str(ref.get("id", "")),
        n=n if isinstance(n, int) else None,
        words=str(ref.get("q", "") or ref.get("c", "")),
        since=str(ref.get("s", "")),
        offset=offset if isinstance(offset, int) and offset >= 0 else 0,
    )


def run(
    route: Route, deps: Deps, user: str, posting: bool = False, channel: str | None = None
) -> list[Outgoing]:
    """Answer a route, and note in the audit who looked at which candidate from where.
    `posting`: render for everyone in the channel (a button asked for it)."""
    out = _answer(route, deps, user, posting)
    shown = {o.candidate_id for o in out if o.candidate_id}
    if route.kind != "help":
        targets: list[str | None] = [*sorted(shown)] or [None]
        for candidate_id in targets:
            deps.store.audit(user, f"lookup:{route.kind}", candidate_id, channel)
    return out


def _answer(route: Route, deps: Deps, user: str, posting: bool) -> list[Outgoing]:
    loc = deps.locale
    posted_by = user if posting else None
    if route.kind == "help":
        lead = t(loc, "empty_command") if route.lead == "empty" else None
        return [Outgoing(views.help_view(loc, lead))]
    if route.kind == "search":
        if not route.words.strip():
            return [Outgoing(views.notice(t(loc, "need_words")))]
        hits = deps.store.search(route.words, limit=views.PAGE_SIZE)
        return [
            Outgoing(
                views.search_view(route.words, hits, loc, posted_by), post=posting, kind="search"
            )
        ]
    if route.kind == "list":
        position = route.words.strip() or None
        total = deps.store.count(position)
        rows = deps.store.list_candidates(position, limit=views.PAGE_SIZE, offset=route.offset)
        msg = views.list_view(rows, total, route.offset, position, loc, posted_by)
        return [Outgoing(msg, post=posting, kind="list")]
    if route.kind == "digest":
        if route.words not in deps.store.DIGEST_CATEGORIES:
            return [Outgoing(views.notice(t(loc, "need_words")))]
        lines, total = deps.store.digest_lines(
            route.words, route.since, views.PAGE_SIZE, route.offset
        )
        msg = views.digest_list_view(route.words, route.since, lines, total, route.offset, loc)
        return [Outgoing(msg)]
    if route.kind == "unanswered" and not route.who.strip():
        total = deps.store.count_unanswered()
        rows = deps.store.list_candidates(
            limit=views.OVERVIEW_LIMIT, offset=route.offset, unanswered_only=True
        )
        msg = views.overview_view(rows, total, route.offset, loc, posted_by)
        return [Outgoing(msg, post=posting, kind="unanswered")]
    if not route.who.strip():
        cmd = {"who": "summary"}.get(route.kind, route.kind)
        return [Outgoing(views.notice(t(loc, "need_who", cmd=cmd), with_help=True, locale=loc))]

    found = deps.store.resolve(route.who)
    if not found.matches:
        return [Outgoing(views.not_found_view(loc, route.who))]
    if found.unique is None:
        ref: dict[str, Any] = {"v": "summary" if route.kind == "who" else route.kind}
        if route.n is not None:
            ref["n"] = route.n
        return [Outgoing(views.pick_view(loc, route.who, found.matches, ref))]
    candidate = deps.store.get_candidate(found.unique.id)
    if candidate is None:  # removed between the two reads
        return [Outgoing(views.not_found_view(loc, route.who))]
    return _candidate_views(route, candidate, deps, user, posting)


def _candidate_views(
    route: Route, c: Candidate, deps: Deps, user: str, posting: bool
) -> list[Outgoing]:
    loc = deps.locale
    posted_by = user if posting else None
    if route.kind in {"summary", "who"}:
        return [
            Outgoing(
                views.summary_view(c, loc, posted_by),
                post=posting,
                candidate_id=c.id,
                kind="summary",
            )
        ]
    if route.kind == "full":
        return [Outgoing(m) for m in views.full_summary_views(c, loc)]
    if route.kind == "unanswered":
        msgs = views.unanswered_view(c, loc, posted_by)
        return [Outgoing(m, post=posting, candidate_id=c.id, kind="unanswered") for m in msgs]
    if route.kind == "verdict":
        # The verdict is posted for everyone on purpose: reviewers reply in its thread.
        return [
            Outgoing(views.verdict_view(c, loc, user), post=True, candidate_id=c.id, kind="verdict")
        ]
    if route.kind == "question":
        if route.n is None:
            return [
                Outgoing(
                    views.notice(t(loc, "need_number", who=escape(c.id), count=len(c.questions)))
                )
            ]
        matching = [q for q in c.questions if q.number == route.n]
        if not matching:
            text = t(loc, "no_such_question", who=escape(c.id), n=route.n, count=len(c.questions))
            return [Outgoing(views.notice(text))]
        msgs = views.question_views(c, matching[0], loc, posted_by)
        return [Outgoing(m, post=posting, candidate_id=c.id, kind="question") for m in msgs]
    q, _ = fit(route.who, 100)
    return [Outgoing(views.not_found_view(loc, q))]
