"""`/candidate`: parse the text, ask the store, render views. No Slack I/O here.

The Bolt listeners (listeners/slash.py, actions.py) and `debrief ask` all come through
`parse_command` (typed text) or `route_from_value` (a button) and `answer`, so
they answer alike. Each subcommand is one `Kind` and one entry in `SUBCOMMANDS`: the
names it is typed with, how its words are read, whether a button may ask for it,
and its answer. Adding a subcommand touches that table and its view, nothing else.
The table, the readers of typed words and the answers it names are one unit, kept in
one module: one subcommand can be followed from what is typed to what is shown.
"""

from __future__ import annotations

import difflib
import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from store.errors import SearchBusyError
from store.models import DIGEST_CATEGORIES, HIRINGS, Candidate, Hiring
from store.transcripts.numerals import CN_NUMERALS, parse_number

from . import deadlines
from .audit import AuditEvent
from .blocks import Message, escape
from .deps import Deps
from .i18n import Locale, t
from .sending.outgoing import Outgoing
from .views.cards import (
    full_summary_views,
    outcome_label,
    outcome_post_text,
    people_in,
    summary_view,
    verdict_views,
    window,
)
from .views.common import notice
from .views.lists import (
    OVERVIEW_LIMIT,
    PAGE_SIZE,
    digest_list_view,
    list_view,
    overview_view,
    search_view,
)
from .views.replies import help_view, not_found_view, pick_view, question_views, unanswered_view
from .views.requests import MAX_REVIEWERS, Ask, ask_reply, named, request_list

FULL_WORDS = {"full", "all", "全文", "全部"}
MAX_TEXT = 4000


class Kind(StrEnum):
    """What a command or a button asks for: one entry each in SUBCOMMANDS."""

    HELP = "help"
    WHO = "who"  # only a name: the summary
    SUMMARY = "summary"
    FULL = "full"  # the summary's profile and summary text in full
    UNANSWERED = "unanswered"
    VERDICT = "verdict"
    VERDICT_FULL = "verdict_full"  # the whole verdict, privately (`点评 X 全文`)
    QUESTION = "question"
    SEARCH = "search"
    LIST = "list"
    DIGEST = "digest"  # "and N more" under a digest section
    DECIDE = "decide"  # the hiring decision (`结论 X 录用 [note]`), for DEBRIEF_DECIDERS
    REQUEST = "request"  # ask reviewers for their decision (`邀请 X @a @b [截止 周五]`)


@dataclass(frozen=True)
class Route:
    """What the user asked for. Button values decode to the same thing."""

    kind: Kind
    who: str = ""
    n: int | None = None
    words: str = ""
    offset: int = 0
    lead: str | None = None
    since: str = ""
    part: int = 0  # a reply in several messages goes on from this one (a "continue" button)
    note: str = ""  # what a hiring decision says beside the decision
    people: tuple[str, ...] = ()  # the users (U…, W…) and user groups (S…) mentioned
    when: str | None = None  # a deadline as typed (None: none was)
    problem: str = ""  # why the typed words cannot be read (a catalogue key; `words`: which)


# user ids -> display names, for what is posted in a channel (None: ids as plain text)
Names = Callable[[Iterable[str]], Mapping[str, str]]


@dataclass(frozen=True)
class Lookups:
    """What only Slack can say, for asking reviewers (read after the acknowledgement)."""

    # whether a user belongs to this workspace (not another organisation's, in Slack Connect)
    belongs: Callable[[str], bool]
    # a user group's members (None: it cannot be read)
    members: Callable[[str], list[str] | None]
    # why candidate data may not be posted in this channel (a catalogue key: shared with
    # another organisation, handlers/shared.py), or None
    post_refused: Callable[[], str | None] = lambda: None


# -- reading what was typed ------------------------------------------------------------------


def _read_nothing(kind: Kind, rest: list[str]) -> Route:
    return Route(kind)


def _read_who(kind: Kind, rest: list[str]) -> Route:
    return Route(kind, who=" ".join(rest))


def _read_words(kind: Kind, rest: list[str]) -> Route:
    return Route(kind, words=" ".join(rest))


def _read_summary(kind: Kind, rest: list[str]) -> Route:
    """`总结 000 全文`: the full text."""
    if len(rest) > 1 and rest[-1].lower() in FULL_WORDS:
        return Route(Kind.FULL, who=" ".join(rest[:-1]))
    return Route(kind, who=" ".join(rest))


def _read_verdict(kind: Kind, rest: list[str]) -> Route:
    """`点评 000 全文`: the whole verdict, only for the asker."""
    if len(rest) > 1 and rest[-1].lower() in FULL_WORDS:
        return Route(Kind.VERDICT_FULL, who=" ".join(rest[:-1]))
    return Route(kind, who=" ".join(rest))


_NUMBER = rf"[0-9]+|[{CN_NUMERALS}]+"  # after NFKC, so full-width digits are ASCII here


def question_number(token: str) -> int | None:
    """`3`, `三`, `八十一`, `#3`, `q3`, `问题3` -> the number; None when it is not one.

    Any positive number counts, not only those a transcript could have: the answer
    then says the candidate has no such question, which is true and clear."""
    m = _NUMBERED_RE.match(unicodedata.normalize("NFKC", token).strip())
    value = parse_number(m.group(1)) if m else None
    return value if value is not None and value > 0 else None


# what a hiring decision is typed as, in both languages
HIRING_WORDS: dict[str, Hiring] = {
    "录用": "hire",
    "不录用": "reject",
    "待定": "hold",
    **{h: h for h in HIRINGS},
}


def _read_decide(kind: Kind, rest: list[str]) -> Route:
    """`结论 000 录用 很稳` or `decide 王 磊 hire`: the candidate before the first word that
    is a decision, the note after it. Without one (or without a candidate): the usage."""
    for i, word in enumerate(rest):
        decision = HIRING_WORDS.get(word.lower())
        if decision is not None and i > 0:
            return Route(kind, who=" ".join(rest[:i]), words=decision, note=" ".join(rest[i + 1 :]))
    return Route(kind)


def _read_question(kind: Kind, rest: list[str]) -> Route:
    """`问题 000 3` or `问题 3 000`."""
    n = question_number(rest[-1]) if rest else None
    who = rest[:-1] if n is not None else rest
    if n is None and len(rest) >= 2:
        n = question_number(rest[0])
        who = rest[1:] if n is not None else rest
    return Route(kind, who=" ".join(who), n=n)


# What `邀请` is followed by: users (`<@U123>`, `<@U123|name>`, `W…` on Enterprise Grid)
# and user groups (`<!subteam^S123|@team>`), as Slack sends them with should_escape; and
# what cannot be asked: `<!here>` and the like, a `@name` that arrived as plain text.
_MENTION_RE = re.compile(
    r"<@(?P<user>[UW][A-Z0-9]+)(?:\|[^>]*)?>"
    r"|<!subteam\^(?P<group>S[A-Z0-9]+)(?:\|[^>]*)?>"
    r"|<!(?P<special>here|channel|everyone)(?:\|[^>]*)?>"
    r"|(?<![^\s,，、;；])(?P<plain>@[^\s,，、;；<>@]+)"
)
_BETWEEN_RE = re.compile(r"[\s,，、;；]*(?:(?:和|及|and|&amp;)[\s,，、;；]*)?", re.I)
_BY_RE = re.compile(r"(?:截止|截至|by\b|due\b)\s*[:：]?\s*", re.I)


def _read_request(kind: Kind, rest: list[str]) -> Route:
    """`邀请 王 磊 <@U1> <@U2|li> 截止 周五`: the candidate is the words before the first
    mention; the mentions; the deadline after them (`截止` / `by` may be left out).
    Without a mention: the candidate alone (who was asked)."""
    text = " ".join(rest)
    found = list(_MENTION_RE.finditer(text))
    if not found:
        return Route(kind, who=text)
    plain = [m.group("plain") for m in found if m.group("plain")]
    if plain:  # the app without should_escape: nobody can be told apart
        return Route(kind, problem="request_unescaped", words=" ".join(plain))
    special = [f"@{m.group('special')}" for m in found if m.group("special")]
    if special:
        return Route(kind, problem="request_not_people", words=" ".join(special))
    who = text[: found[0].start()].strip()
    gaps = [text[a.end() : b.start()] for a, b in itertools.pairwise(found)]
    if not who or not all(_BETWEEN_RE.fullmatch(gap) for gap in gaps):
        return Route(kind, problem="request_usage")
    tail = text[found[-1].end() :].strip(" ,，、;；")
    when: str | None = None
    if tail:
        by = _BY_RE.match(tail)
        when = tail[by.end() :].strip() if by else tail
        if not when:  # `截止` and nothing after it
            return Route(kind, problem="request_usage")
    people = tuple(m.group("user") or m.group("group") for m in found)
    return Route(kind, who=who, people=people, when=when)


# -- answering ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Asked:
    """Who asked, and whether the answer is for everyone in the channel."""

    deps: Deps
    user: str
    posting: bool
    names: Names | None = None
    channel: str | None = None
    lookups: Lookups | None = None

    @property
    def locale(self) -> Locale:
        return self.deps.locale

    @property
    def posted_by(self) -> str | None:
        """Who posted it, by display name: a post in a channel notifies nobody it names."""
        return self.name_of(self.user) if self.posting else None

    def name_of(self, user: str) -> str:
        """A user's display name (their ID as plain text when Slack cannot say)."""
        found = dict(self.names([user])) if self.names is not None else {}
        return found.get(user, user)

    def people(self, ids: Iterable[str]) -> Mapping[str, str] | None:
        """How to name `ids`: None in a private reply (mentions); display names in a post."""
        if not self.posting:
            return None
        wanted = list(ids)
        return dict(self.names(wanted)) if self.names is not None and wanted else {}


def _parts(msgs: list[Message], route: Route, asked: Asked, ref: dict[str, Any]) -> list[Message]:
    """A private reply: at most five messages (one response_url), from `route.part` on,
    the fifth ending with a button that goes on. A post in the channel: all of them."""
    if asked.posting:
        return msgs
    return window(msgs, route.part, ref, asked.locale)


def _help(route: Route, asked: Asked) -> list[Outgoing]:
    lead = t(asked.locale, "empty_command") if route.lead == "empty" else None
    return [Outgoing(help_view(asked.locale, lead))]


# `/candidate search 分布式 最新`: newest first instead of best first
NEWEST_WORDS = frozenset({"最新", "newest"})


def _search(route: Route, asked: Asked) -> list[Outgoing]:
    loc, store = asked.locale, asked.deps.store
    words = route.words.split()
    newest = len(words) > 1 and words[-1].casefold() in NEWEST_WORDS
    query = " ".join(words[:-1]) if newest else route.words
    if not query.strip():
        return [Outgoing(notice(t(loc, "need_words")))]
    try:
        hits = store.search(query, limit=PAGE_SIZE, sort="newest" if newest else "relevance")
    except SearchBusyError:  # a burst beyond what the workers can rank in good time
        return [Outgoing(notice(t(loc, "search_busy")))]
    msg = search_view(query, hits, loc, asked.posted_by, newest=newest)
    return [Outgoing(msg, post=asked.posting, kind="search")]


def _list(route: Route, asked: Asked) -> list[Outgoing]:
    store = asked.deps.store
    position = route.words.strip() or None
    total = store.count(position)
    rows = store.list_candidates(position, limit=PAGE_SIZE, offset=route.offset)
    msg = list_view(rows, total, route.offset, position, asked.locale, asked.posted_by)
    return [Outgoing(msg, post=asked.posting, kind="list")]


def _digest(route: Route, asked: Asked) -> list[Outgoing]:
    loc, store = asked.locale, asked.deps.store
    if route.words not in DIGEST_CATEGORIES:
        return [Outgoing(notice(t(loc, "need_words")))]
    lines, total = store.digest_lines(route.words, route.since, PAGE_SIZE, route.offset)
    msg = digest_list_view(route.words, route.since, lines, total, route.offset, loc)
    return [Outgoing(msg)]


def _overview(route: Route, asked: Asked) -> list[Outgoing]:
    """`未回答` without a candidate: who has unanswered questions."""
    store = asked.deps.store
    total = store.count_unanswered()
    rows = store.list_candidates(limit=OVERVIEW_LIMIT, offset=route.offset, unanswered_only=True)
    msg = overview_view(rows, total, route.offset, asked.locale, asked.posted_by)
    return [Outgoing(msg, post=asked.posting, kind="unanswered")]


def _summary(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    people = asked.people(people_in(c))
    msg = summary_view(c, asked.locale, asked.posted_by, people)
    return [Outgoing(msg, post=asked.posting, candidate_id=c.id, kind="summary")]


def _full(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    msgs = _parts(full_summary_views(c, asked.locale), route, asked, {"v": "full", "id": c.id})
    return [Outgoing(m) for m in msgs]


def _unanswered(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    msgs = unanswered_view(c, asked.locale, asked.posted_by)
    msgs = _parts(msgs, route, asked, {"v": "unanswered", "id": c.id})
    return [Outgoing(m, post=asked.posting, candidate_id=c.id, kind="unanswered") for m in msgs]


def _verdict(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    # The verdict is posted for everyone on purpose: reviewers reply in its thread. A long
    # one goes out in several messages, each remembered (a reply in any thread counts).
    msgs = verdict_views(c, asked.locale, asked.name_of(asked.user))
    return [Outgoing(m, post=True, candidate_id=c.id, kind="verdict") for m in msgs]


def _verdict_full(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    """The whole verdict for the asker alone (the summary's "cut short" points here)."""
    msgs = verdict_views(c, asked.locale, None)
    msgs = window(msgs, route.part, {"v": "verdict_full", "id": c.id}, asked.locale)
    return [Outgoing(m, candidate_id=c.id) for m in msgs]


def _question(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    loc = asked.locale
    if route.n is None:
        text = t(loc, "need_number", who=escape(c.id), count=len(c.questions))
        return [Outgoing(notice(text), unresolved=True)]
    matching = [q for q in c.questions if q.number == route.n]
    if not matching:
        text = t(loc, "no_such_question", who=escape(c.id), n=route.n, count=len(c.questions))
        return [Outgoing(notice(text), unresolved=True)]
    q = matching[0]
    people = asked.people([f.reviewer for f in c.followups if f.number == q.number])
    msgs = question_views(c, q, loc, asked.posted_by, people)
    msgs = _parts(msgs, route, asked, {"v": "question", "id": c.id, "n": q.number})
    return [Outgoing(m, post=asked.posting, candidate_id=c.id, kind="question") for m in msgs]


def _decide_usage(route: Route, asked: Asked) -> list[Outgoing]:
    return [Outgoing(notice(t(asked.locale, "outcome_need")), unresolved=True)]


def _may_decide(asked: Asked) -> str | None:
    """Why the asker may not record a hiring decision (a catalogue key), or None."""
    deciders = asked.deps.deciders
    if deciders.open_to_all:  # DEBRIEF_DECIDERS is empty: nobody may
        return "outcome_no_deciders"
    verdict = deciders.decide(asked.user)
    if verdict == "pending":  # its user groups not read yet
        return "outcome_pending"
    return None if verdict == "yes" else "outcome_not_decider"


def _decide(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    """Record the hiring decision, then post it in the verdict's thread in this channel.
    Refused (nothing recorded) for anyone not in DEBRIEF_DECIDERS, where no verdict
    about the candidate was posted in this channel, and in a channel shared with another
    organisation (unless the workspace allows it)."""
    loc, store = asked.locale, asked.deps.store
    decision = HIRING_WORDS.get(route.words)
    if decision is None:
        return _decide_usage(route, asked)
    refused = _may_decide(asked)
    if refused is not None:
        return [Outgoing(notice(t(loc, refused)))]
    thread = store.verdict_post(c.id, asked.channel) if asked.channel else None
    if thread is None:
        return [Outgoing(notice(t(loc, "outcome_no_thread", who=escape(c.id))))]
    shared = asked.lookups.post_refused() if asked.lookups is not None else None
    if shared is not None:  # a channel another organisation reads: nothing recorded
        return [Outgoing(notice(t(loc, shared)))]
    recorded, before = store.record_outcome(
        c.id, decision, route.note, asked.user, webhook=asked.deps.webhook
    )
    outcome = store.outcome(c.id) if recorded else None
    if outcome is None:  # forgotten or removed just now
        return [Outgoing(not_found_view(loc, route.who), unresolved=True)]
    before_by = asked.name_of(before.by) if before is not None else ""
    text = outcome_post_text(asked.name_of(asked.user), outcome, before, before_by, loc)
    return [
        Outgoing(
            notice(text),
            post=True,
            candidate_id=c.id,
            kind="outcome",
            thread_ts=thread,
            audit=f"outcome:{decision}",
            refresh=c.id,  # it closed the open requests: their status message says so
        )
    ]


def _request_general(route: Route, asked: Asked) -> list[Outgoing]:
    """What cannot be asked: a mention that arrived as plain text, `@here`, no candidate."""
    loc = asked.locale
    if route.problem == "request_unescaped":
        asked.deps.store.note_mentions(escaped=False)  # for `debrief doctor`
        text = t(loc, "request_unescaped", mentions=escape(route.words))
    elif route.problem == "request_not_people":
        text = t(loc, "request_not_people", mentions=escape(route.words))
    else:
        text = t(loc, "request_usage")
    return [Outgoing(notice(text), unresolved=True)]


def _may_not_see(user: str, asked: Asked) -> str | None:
    """Why `user` may not be shown candidates (a catalogue key), or None: the access rules
    (DEBRIEF_ALLOWED_USERS and its user groups), then Slack's word that the user is of
    this workspace (a Slack Connect user of another organisation is not)."""
    verdict = asked.deps.policy.decide(user)
    if verdict == "pending":
        return "request_refused_pending"
    if verdict == "no":
        return "request_refused_access"
    if asked.lookups is None or not asked.lookups.belongs(user):
        return "request_refused_foreign"
    return None


def _members(people: tuple[str, ...], asked: Asked) -> tuple[list[str], str | None]:
    """The users mentioned, each user group's members in its place, once each; or the
    first group that cannot be read."""
    found: list[str] = []
    for mentioned in people:
        if mentioned.startswith("S"):
            members = asked.lookups.members(mentioned) if asked.lookups is not None else None
            if members is None:
                return [], mentioned
            found += members
        else:
            found.append(mentioned)
    return list(dict.fromkeys(found)), None


def _request(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    """Ask the reviewers mentioned (`Ask`, carried out by handlers/asking.py once the
    verdict is posted in this channel, posting it first when it is not); without a
    mention, who was asked. Nobody is asked about a candidate with a hiring decision;
    a reviewer who may not see candidates is refused by name, one who decided already
    is not asked again."""
    if not route.people:
        requests = asked.deps.store.requests_for(c.id)
        msg = request_list(c, requests, asked.locale, asked.deps.clock(), asked.deps.tz)
        return [Outgoing(msg, candidate_id=c.id)]
    loc, deps = asked.locale, asked.deps
    deps.store.note_mentions(escaped=True)  # for `debrief doctor`
    now = deps.clock()
    due = deadlines.deadline(route.when, now, deps.tz)
    if due == deadlines.PAST:
        on = deadlines.today(now, deps.tz)
        day = deadlines.read_day(route.when or "", on)
        said = deadlines.day_text(day, loc, on.year) if day else escape(route.when or "")
        return [Outgoing(notice(t(loc, "request_past", due=said)), unresolved=True)]
    if not isinstance(due, deadlines.Due):
        return [Outgoing(notice(t(loc, "request_usage")), unresolved=True)]
    if c.outcome is not None:
        decision = outcome_label(loc, c.outcome.decision)
        text = t(loc, "request_has_outcome", who=escape(c.id), decision=decision)
        return [Outgoing(notice(text), candidate_id=c.id)]
    if not asked.channel:
        return [Outgoing(notice(t(loc, "request_no_thread", who=escape(c.id))))]
    people, unreadable = _members(route.people, asked)
    if unreadable is not None:
        text = t(loc, "request_group_unreadable", group=f"<!subteam^{unreadable}>")
        return [Outgoing(notice(text))]
    if len(people) > MAX_REVIEWERS:
        return [Outgoing(notice(t(loc, "request_too_many", limit=MAX_REVIEWERS)))]
    decided_by = {d.reviewer for d in c.decisions}
    reviewers: list[str] = []
    refused: list[tuple[str, str]] = []
    for user in people:
        if user in decided_by:
            continue
        why = _may_not_see(user, asked)
        if why is None:
            reviewers.append(user)
        else:
            refused.append((user, why))
    # asked in the last day, or past the asker's hourly limit: not asked (handlers/
    # asking.py asks the store again, in the transaction that records the requests)
    asks = deps.store.ask_plan(c.id, reviewers, asked.user, deps.ask_limit, now)
    plan = Ask(
        candidate_id=c.id,
        candidate=named(c, loc),
        asker=asked.user,
        channel=asked.channel,
        due=due,
        reviewers=tuple(asks.asked),
        refused=tuple(refused),
        decided=tuple(u for u in people if u in decided_by),
        already=tuple(asks.already),
        limited=tuple(asks.limited),
        limit=deps.ask_limit,
        retry_at=asks.retry_at,
    )
    reply = ask_reply(plan, loc, now, deps.tz)
    if not plan.reviewers:  # nobody to ask: nothing is posted or recorded
        return [Outgoing(reply, candidate_id=c.id)]
    verdict = [] if deps.store.verdict_post(c.id, asked.channel) else _verdict(route, c, asked)
    return [*verdict, Outgoing(reply, candidate_id=c.id, kind="request", ask=plan)]


# -- the table ------------------------------------------------------------------------------

Reader = Callable[[Kind, list[str]], Route]
General = Callable[[Route, Asked], list[Outgoing]]
About = Callable[[Route, Candidate, Asked], list[Outgoing]]


@dataclass(frozen=True)
class Subcommand:
    """One subcommand: how it is typed, whether a button may ask for it, how it is answered."""

    names: tuple[str, ...] = ()  # what users type, in both languages (none: not typed)
    read: Reader = _read_who  # the words after the name -> Route
    button: bool = True  # a button's value may name it ({"v": kind, ...})
    general: General | None = None  # the answer when no candidate is named (or none is needed)
    about: About | None = None  # the answer about one candidate
    alias_of: Kind | None = None  # how hints and pick lists name it


SUBCOMMANDS: dict[Kind, Subcommand] = {
    Kind.HELP: Subcommand(
        ("help", "帮助", "?", "？", "-h", "--help"), _read_nothing, button=False, general=_help
    ),
    Kind.WHO: Subcommand(button=False, about=_summary, alias_of=Kind.SUMMARY),
    Kind.SUMMARY: Subcommand(("summary", "总结"), _read_summary, about=_summary),
    Kind.FULL: Subcommand(about=_full),
    Kind.UNANSWERED: Subcommand(("unanswered", "未回答"), general=_overview, about=_unanswered),
    Kind.VERDICT: Subcommand(("verdict", "点评"), _read_verdict, about=_verdict),
    Kind.VERDICT_FULL: Subcommand(about=_verdict_full),
    Kind.QUESTION: Subcommand(("question", "问题", "q"), _read_question, about=_question),
    Kind.SEARCH: Subcommand(("search", "搜索"), _read_words, general=_search),
    Kind.LIST: Subcommand(("list", "列表"), _read_words, general=_list),
    Kind.DIGEST: Subcommand(general=_digest),
    Kind.DECIDE: Subcommand(
        ("decide", "结论"), _read_decide, button=False, general=_decide_usage, about=_decide
    ),
    Kind.REQUEST: Subcommand(
        ("request", "邀请"), _read_request, button=False, general=_request_general, about=_request
    ),
}

KIND_VALUES = frozenset(k.value for k in Kind)
_BY_NAME = {name: kind for kind, sub in SUBCOMMANDS.items() for name in sub.names}
_QUESTION_NAMES = "|".join(map(re.escape, SUBCOMMANDS[Kind.QUESTION].names))
_NUMBERED_RE = re.compile(rf"^(?:{_QUESTION_NAMES}|#)?\s*({_NUMBER})$", re.I)
_GLUED_RE = re.compile(rf"^(?:{_QUESTION_NAMES})({_NUMBER})$", re.I)


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
    glued = _GLUED_RE.match(first)
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
