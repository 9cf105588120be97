"""Each subcommand's answer (pure but for the store it asks): a route in, a plan of
`Outgoing` out. Named by handlers/commands.py's table; `Asked` is who asked, from
where, and what only Slack can say of the people a request names (`Lookups`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from store.errors import QueryTooLong, SearchBusyError
from store.models import DIGEST_CATEGORIES, Candidate
from store.people_lines import person_line

from . import deadlines
from .blocks import Message, escape
from .deps import Deps
from .i18n import Locale, t
from .review import Sealed, hidden_lines, sealed_for
from .route import HIRING_WORDS, Route
from .sending.outgoing import Outgoing
from .views.alike import alike_blocks
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
    refused_search,
    search_view,
)
from .views.loops import place_block
from .views.replies import help_view, not_found_view, question_views, unanswered_view
from .views.requests import MAX_REVIEWERS, Ask, ask_reply, named, request_list

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


def on_help(route: Route, asked: Asked) -> list[Outgoing]:
    lead = t(asked.locale, "empty_command") if route.lead == "empty" else None
    return [Outgoing(help_view(asked.locale, lead))]


# `/candidate search 分布式 最新`: newest first instead of best first
NEWEST_WORDS = frozenset({"最新", "newest"})


def on_search(route: Route, asked: Asked) -> list[Outgoing]:
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
    except QueryTooLong as refused:  # nothing searched rather than part of it
        return [Outgoing(notice(refused_search(refused, loc)))]
    msg = search_view(query, hits, loc, asked.posted_by, newest=newest)
    return [Outgoing(msg, post=asked.posting, kind="search")]


def on_list(route: Route, asked: Asked) -> list[Outgoing]:
    store = asked.deps.store
    position = route.words.strip() or None
    total = store.count(position)
    rows = store.list_candidates(position, limit=PAGE_SIZE, offset=route.offset)
    msg = list_view(rows, total, route.offset, position, asked.locale, asked.posted_by)
    return [Outgoing(msg, post=asked.posting, kind="list")]


def on_digest(route: Route, asked: Asked) -> list[Outgoing]:
    loc, store = asked.locale, asked.deps.store
    if route.words not in DIGEST_CATEGORIES:
        return [Outgoing(notice(t(loc, "need_words")))]
    lines, total = store.digest_lines(route.words, route.since, PAGE_SIZE, route.offset)
    on = asked.deps.independent_review and route.words == "decided"
    hidden = hidden_lines(store, [x.id for x in lines], asked.user, on)
    msg = digest_list_view(route.words, route.since, lines, total, route.offset, loc, hidden)
    return [Outgoing(msg)]


def on_overview(route: Route, asked: Asked) -> list[Outgoing]:
    """`未回答` without a candidate: who has unanswered questions."""
    store = asked.deps.store
    # one line a candidate, a person (issue 38), naming the rounds of their interviews
    people, total = store.unanswered_by_person(OVERVIEW_LIMIT, route.offset)
    rows = [person_line(lines) for _who, lines in people if lines]
    missing = store.count_without_questions()  # never counted as having answered everything
    msg = overview_view(rows, total, route.offset, asked.locale, asked.posted_by, missing)
    return [Outgoing(msg, post=asked.posting, kind="unanswered")]


def on_summary(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    # independent review: a reviewer asked (a post: anyone in the channel) sees who
    # decided, not what (handlers/review.py)
    seen = _as_seen(c, asked)
    people = asked.people([*people_in(seen.candidate), *(seen.decided or ())])
    msg = summary_card(c, seen, asked.deps, asked.posted_by, people, not asked.posting)
    return [Outgoing(msg, post=asked.posting, candidate_id=c.id, kind="summary")]


def summary_card(
    c: Candidate,
    seen: Sealed,
    deps: Deps,
    posted_by: str | None,
    people: Mapping[str, str] | None,
    private: bool,
    edited: str | None = None,
) -> Message:
    """The card of `c` as `seen` (handlers/review.py): for the asker alone (`private`),
    or in a channel (`posted_by`, or `edited`: a card posted there made to say something
    else since, handlers/sealing.py), with its place in the loop and two people alike."""
    loop = deps.store.loop_of(c.id)  # "第 1 场，共 2 场", with the loop's button
    place = place_block(c.id, loop, deps.locale, private) if loop else None
    msg = summary_view(seen.candidate, deps.locale, posted_by, people, seen.decided, edited=edited)
    if place is not None:  # under the card's first line (who, when)
        msg.blocks.insert(2, place.to_dict())
    alike = deps.store.people_alike(c.id)  # issue 45: two people alike
    if alike is not None:  # under who and when: what counts the interview as whose
        said = alike_blocks(c.id, c.name or c.id, alike, deps.locale, private)
        at = 3 if place is not None else 2
        msg.blocks[at:at] = [b.to_dict() for b in said]
    return msg


def _as_seen(c: Candidate, asked: Asked) -> Sealed:
    """`c` as the asker may see it (a post: as everyone in the channel may)."""
    viewer = None if asked.posting else asked.user
    return sealed_for(asked.deps.store, c, viewer, asked.deps.independent_review)


def on_full(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    msgs = _parts(full_summary_views(c, asked.locale), route, asked, {"v": "full", "id": c.id})
    return [Outgoing(m) for m in msgs]


def on_unanswered(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    msgs = unanswered_view(c, asked.locale, asked.posted_by)
    msgs = _parts(msgs, route, asked, {"v": "unanswered", "id": c.id})
    return [Outgoing(m, post=asked.posting, candidate_id=c.id, kind="unanswered") for m in msgs]


def on_verdict(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    return _verdict_posts(c, asked)


def _verdict_posts(c: Candidate, asked: Asked, asking: Iterable[str] = ()) -> list[Outgoing]:
    """The verdict, posted for everyone on purpose: reviewers reply in its thread. A long
    one goes out in several messages, each remembered (a reply in any thread counts).
    Everyone in the channel reads it: while anyone asked about the candidate (or about to
    be: `asking`) has not decided, its ⚠ lines say nothing of the reviewers' notes."""
    on = asked.deps.independent_review
    seen = sealed_for(asked.deps.store, c, None, on, asking).candidate
    msgs = verdict_views(seen, asked.locale, asked.name_of(asked.user))
    return [Outgoing(m, post=True, candidate_id=c.id, kind="verdict") for m in msgs]


def on_verdict_full(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    """The whole verdict for the asker alone (the summary's "cut short" points here), its
    ⚠ lines from the notes the asker may see (a post: as everyone in the channel may)."""
    msgs = verdict_views(_as_seen(c, asked).candidate, asked.locale, None)
    msgs = window(msgs, route.part, {"v": "verdict_full", "id": c.id}, asked.locale)
    return [Outgoing(m, candidate_id=c.id) for m in msgs]


def on_question(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    loc = asked.locale
    if not c.questions_read:  # no question to show, and no "0 questions" said (issue 46)
        text = t(loc, "question_unread", who=escape(c.id))
        return [Outgoing(notice(text), unresolved=True)]
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


def on_decide_usage(route: Route, asked: Asked) -> list[Outgoing]:
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


def on_decide(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    """Record the hiring decision, then post it in the verdict's thread in this channel.
    Refused (nothing recorded) for anyone not in DEBRIEF_DECIDERS, where no verdict
    about the candidate was posted in this channel, and in a channel shared with another
    organisation (unless the workspace allows it)."""
    loc, store = asked.locale, asked.deps.store
    decision = HIRING_WORDS.get(route.words)
    if decision is None:
        return on_decide_usage(route, asked)
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


def on_request_general(route: Route, asked: Asked) -> list[Outgoing]:
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


def on_request(route: Route, c: Candidate, asked: Asked) -> list[Outgoing]:
    """Ask the reviewers mentioned (`Ask`, carried out by handlers/asking.py once the
    verdict is posted in this channel, posting it first when it is not); without a
    mention, who was asked. Nobody is asked about a candidate with a hiring decision;
    a reviewer who may not see candidates is refused by name, one who decided already
    is not asked again."""
    if not route.people:
        requests = asked.deps.store.requests_for(c.id)
        seen = _as_seen(c, asked).candidate  # who decided, not what, for a reviewer asked
        msg = request_list(seen, requests, asked.locale, asked.deps.clock(), asked.deps.tz)
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
    posted = deps.store.verdict_post(c.id, asked.channel)
    verdict = [] if posted else _verdict_posts(c, asked, plan.reviewers)
    return [*verdict, Outgoing(reply, candidate_id=c.id, kind="request", ask=plan)]
