"""`/candidate`: parse the text, ask the store, render views. No Slack I/O here.

The Bolt listeners (listeners/slash.py, actions.py) and `debrief ask` all come through
`parse_command` (typed text) or `route_from_value` (a button) and `answer`, so
they answer alike. Each subcommand is one `Kind` and one entry in `SUBCOMMANDS`: the
names it is typed with, how its words are read (handlers/route.py), whether a button
may ask for it, and its answer (handlers/answers.py). Adding a subcommand touches that
table, its reader, its answer and its view.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from store.errors import SearchBusyError
from store.models import Candidate

from .answers import (
    Asked,
    Lookups,
    Names,
    on_decide,
    on_decide_usage,
    on_digest,
    on_full,
    on_help,
    on_list,
    on_overview,
    on_question,
    on_request,
    on_request_general,
    on_search,
    on_summary,
    on_unanswered,
    on_verdict,
    on_verdict_full,
)
from .audit import AuditEvent
from .deps import Deps
from .i18n import t
from .loop_answers import on_compare, on_handoff, on_merge, on_person, on_pick, on_split
from .route import (
    GLUED_RE,
    MAX_TEXT,
    QUESTION_NAMES,
    Kind,
    Route,
    question_number,
    read_decide,
    read_handoff,
    read_nothing,
    read_question,
    read_request,
    read_summary,
    read_verdict,
    read_who,
    read_words,
)
from .sending.outgoing import Outgoing
from .views.common import notice
from .views.replies import not_found_view, pick_view

# -- the table ------------------------------------------------------------------------------

Reader = Callable[[Kind, list[str]], Route]
General = Callable[[Route, Asked], list[Outgoing]]
About = Callable[[Route, Candidate, Asked], list[Outgoing]]
Whole = Callable[[Route, Asked], list[Outgoing] | None]


@dataclass(frozen=True)
class Subcommand:
    """One subcommand: how it is typed, whether a button may ask for it, how it is answered."""

    names: tuple[str, ...] = ()  # what users type, in both languages (none: not typed)
    read: Reader = read_who  # the words after the name -> Route
    button: bool = True  # a button's value may name it ({"v": kind, ...})
    general: General | None = None  # the answer when no candidate is named (or none is needed)
    about: About | None = None  # the answer about one candidate
    alias_of: Kind | None = None  # how hints and pick lists name it
    # the answer when someone is named, found as a person (their loop, a pick list of
    # candidates); None from it: found as an interview, answered by `about`
    person: Whole | None = None


SUBCOMMANDS: dict[Kind, Subcommand] = {
    Kind.HELP: Subcommand(
        ("help", "帮助", "?", "？", "-h", "--help"), read_nothing, button=False, general=on_help
    ),
    Kind.WHO: Subcommand(button=False, about=on_summary, alias_of=Kind.SUMMARY, person=on_person),
    Kind.SUMMARY: Subcommand(("summary", "总结"), read_summary, about=on_summary, person=on_person),
    Kind.FULL: Subcommand(about=on_full),
    Kind.UNANSWERED: Subcommand(("unanswered", "未回答"), general=on_overview, about=on_unanswered),
    Kind.VERDICT: Subcommand(("verdict", "点评"), read_verdict, about=on_verdict),
    Kind.VERDICT_FULL: Subcommand(about=on_verdict_full),
    Kind.QUESTION: Subcommand(QUESTION_NAMES, read_question, about=on_question),
    Kind.SEARCH: Subcommand(("search", "搜索"), read_words, general=on_search),
    Kind.LIST: Subcommand(("list", "列表"), read_words, general=on_list),
    Kind.DIGEST: Subcommand(general=on_digest),
    Kind.DECIDE: Subcommand(
        ("decide", "结论"), read_decide, button=False, general=on_decide_usage, about=on_decide
    ),
    Kind.REQUEST: Subcommand(
        ("request", "邀请"),
        read_request,
        button=False,
        general=on_request_general,
        about=on_request,
    ),
    Kind.LOOP: Subcommand(about=on_summary, person=on_person),
    Kind.MERGE: Subcommand(("merge", "合并"), read_words, button=False, general=on_merge),
    Kind.SPLIT: Subcommand(("split", "拆分"), read_who, button=False, general=on_split),
    Kind.COMPARE: Subcommand(("compare", "对比"), read_words, button=False, general=on_compare),
    Kind.HANDOFF: Subcommand(("handoff", "交接"), read_handoff, button=False, general=on_handoff),
    Kind.PICK: Subcommand(general=on_pick),  # a button only: never typed
}

KIND_VALUES = frozenset(k.value for k in Kind)
_BY_NAME = {name: kind for kind, sub in SUBCOMMANDS.items() for name in sub.names}


def suggest_subcommand(word: str) -> str | None:
    """The subcommand a mistyped word was meant to be: `总接` -> `总结`, `summry` -> `summary`.
    None when the word is a subcommand already or close to none."""
    typed = unicodedata.normalize("NFKC", word).lower().rstrip(":：")
    if typed in _BY_NAME or len(typed) < 2:
        return None
    names = [n for n in _BY_NAME if len(n) >= 2 and n[0].isalnum()]
    if typed.isascii():
        latin = [n for n in names if n.isascii()]
        close = difflib.get_close_matches(typed, latin, n=1, cutoff=0.75)
        return close[0] if close else None
    for name in names:  # Chinese: the same length, one character off
        same_length = not name.isascii() and len(name) == len(typed)
        if same_length and sum(a != b for a, b in zip(name, typed, strict=True)) == 1:
            return name
    return None


def parse_command(text: str) -> Route:
    """`/candidate` text -> Route. Never raises."""
    text = unicodedata.normalize("NFKC", (text or "").replace("\x00", " "))[:MAX_TEXT]
    words = text.split()
    if not words:
        return Route(Kind.HELP, lead="empty")
    first = words[0].lower().rstrip(":：")
    rest = words[1:]
    glued = GLUED_RE.match(first)
    if glued and rest:  # `问题3 000`
        n = question_number(glued.group(1))
        return Route(Kind.QUESTION, who=" ".join(rest), n=n)
    kind = _BY_NAME.get(first)
    if kind is None:
        return Route(Kind.WHO, who=" ".join(words))
    return SUBCOMMANDS[kind].read(kind, rest)


def route_from_value(ref: dict[str, Any]) -> Route | None:
    """A button's value -> Route (None when it is not one of ours)."""
    value = ref.get("v")
    kind = Kind(value) if isinstance(value, str) and value in KIND_VALUES else None
    if kind is None or not SUBCOMMANDS[kind].button:
        return None
    n = ref.get("n")
    offset = ref.get("o", 0)
    part = ref.get("p", 0)
    return Route(
        kind,
        who=str(ref.get("id", "")),
        n=n if isinstance(n, int) else None,
        words=str(ref.get("q", "") or ref.get("c", "")),
        since=str(ref.get("s", "")),
        offset=offset if isinstance(offset, int) and offset >= 0 else 0,
        part=part if isinstance(part, int) and part >= 0 else 0,
    )


@dataclass
class Answer:
    """What to send, and what the audit should say about it."""

    outgoing: list[Outgoing]
    events: list[AuditEvent]

    @property
    def resolved(self) -> bool:
        """False when the asker has to say something else (`debrief ask` exits 1)."""
        return not any(o.unresolved for o in self.outgoing)


def answer(
    route: Route,
    deps: Deps,
    user: str,
    posting: bool = False,
    channel: str | None = None,
    names: Names | None = None,
    lookups: Lookups | None = None,
) -> Answer:
    """Answer a route; its events say who looked at which candidate from where (one per
    candidate shown, or one without a candidate). `posting`: render for everyone in the
    channel (a button asked for it), naming people with `names` instead of mentions;
    `lookups`: what Slack says of the reviewers a `邀请` names."""
    out = _answer(route, Asked(deps, user, posting, names, channel, lookups))
    events: list[AuditEvent] = []
    if route.kind != Kind.HELP:
        done = {o.candidate_id: o.audit for o in out if o.candidate_id and o.audit}
        shown = sorted({o.candidate_id for o in out if o.candidate_id} - set(done))
        targets: list[str | None] = [*shown] or ([] if done else [None])
        events = [AuditEvent(user, f"lookup:{route.kind}", c, channel) for c in targets]
        events += [AuditEvent(user, action, c, channel) for c, action in sorted(done.items())]
    return Answer(out, events)


def _answer(route: Route, asked: Asked) -> list[Outgoing]:
    """The subcommand's answer; for one about a candidate, find them first."""
    sub = SUBCOMMANDS[route.kind]
    loc, store = asked.locale, asked.deps.store
    if sub.general is not None and (sub.about is None or not route.who.strip()):
        return sub.general(route, asked)
    assert sub.about is not None, route.kind
    named = sub.alias_of or route.kind
    if not route.who.strip():
        need_who = notice(t(loc, "need_who", cmd=named), with_help=True, locale=loc)
        return [Outgoing(need_who, unresolved=True)]
    as_person = sub.person(route, asked) if sub.person is not None else None
    if as_person is not None:
        return as_person
    try:
        found = store.resolve(route.who)
    except SearchBusyError:  # its full-text part waits for a search worker, as searches do
        return [Outgoing(notice(t(loc, "search_busy")))]
    if not found.matches:
        suggestion = None
        if route.kind == Kind.WHO:  # `总接 王磊`: a subcommand mistyped, not a candidate
            first, _, rest = route.who.strip().partition(" ")
            meant = suggest_subcommand(first)
            if meant is not None:
                suggestion = (meant, f"/candidate {meant} {rest.strip()}".rstrip())
        return [Outgoing(not_found_view(loc, route.who, suggestion), unresolved=True)]
    if found.unique is None:
        ref: dict[str, Any] = {"v": named}
        if route.n is not None:
            ref["n"] = route.n
        return [Outgoing(pick_view(loc, route.who, found.matches, ref), unresolved=True)]
    candidate = store.get_candidate(found.unique.id)
    if candidate is None:  # removed between the two reads
        return [Outgoing(not_found_view(loc, route.who), unresolved=True)]
    return sub.about(route, candidate, asked)
