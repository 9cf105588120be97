"""The answers about a candidate as a person (issue 38): the loop card, the pick list of
candidates, merging and splitting interviews, comparing candidates, the handoff to
the next interviewer. Named by handlers/commands.py's table, as handlers/answers.py's.

Who may merge or split: those who may record a hiring decision (DEBRIEF_DECIDERS). A
merge or a split moves a hiring decision from one candidate to another and changes
whom every list counts: it weighs what a hiring decision weighs, so the same people
decide it (and it is audited, as a hiring decision is)."""

from __future__ import annotations

import re

from store.errors import SearchBusyError
from store.loop_models import Loop

from .answers import Asked, _may_decide, _may_not_see, _members
from .blocks import escape, fit
from .i18n import Locale, t
from .review import hidden_for
from .route import Kind, Route
from .sending.outgoing import Outgoing
from .views.alike import rounds_text
from .views.common import interviewers_text, notice, person
from .views.compare import MAX_COMPARED, Compared, compare_view
from .views.handoff import Concern, Handoff, handoff_dm, handoff_reply
from .views.loops import loop_name, loop_pick_view, loop_view, round_name, summary_of
from .views.replies import not_found_view
from .views.requests import MAX_REVIEWERS

CONCERNS = ("no_hire", "strong_no_hire", "hold")  # what a handoff carries as a concern
_MERGE_REFUSALS = {
    "outcome_no_deciders": "merge_no_deciders",
    "outcome_not_decider": "merge_not_decider",
    "outcome_pending": "merge_pending",
}
_HANDOFF_REFUSALS = {
    "request_refused_access": "handoff_refused_access",
    "request_refused_pending": "handoff_refused_pending",
    "request_refused_foreign": "handoff_refused_foreign",
}


def loops_named(text: str, asked: Asked) -> tuple[list[Loop], bool]:
    """The candidates `text` names (each once, in the order the store found their
    interviews), and whether it named them by an interview's id."""
    store = asked.deps.store
    found = store.resolve(text)
    by_id = bool(found.matches) and all(m.id.startswith(text) for m in found.matches)
    keys = dict.fromkeys(m.candidate_key or store.candidate_key(m.id) for m in found.matches)
    loops = [store.loop(key) for key in keys if key is not None]
    return [loop for loop in loops if loop is not None and loop.interviews], by_id


def on_person(route: Route, asked: Asked) -> list[Outgoing] | None:
    """`总结 <name>`: the loop card of a person with several interviews; a pick list of
    candidates when the name is several people's (or one person's for two positions);
    None (the usual answer: an interview's card, its pick list) for a person with one
    interview, or an interview's id without `全部`."""
    text = " ".join(route.who.split())
    try:
        loops, by_id = loops_named(text, asked)
    except SearchBusyError:
        return None  # the usual path says so
    if not loops or (by_id and route.kind != Kind.LOOP):
        return None
    if len(loops) > 1:
        msg = loop_pick_view(asked.locale, text, [summary_of(loop) for loop in loops])
        return [Outgoing(msg, unresolved=True)]
    if len(loops[0].interviews) < 2:
        return None
    return [_loop_card(loops[0], asked)]


def _loop_card(loop: Loop, asked: Asked) -> Outgoing:
    # independent review: a reviewer asked (a post: anyone) sees no one's decisions
    viewer = None if asked.posting else asked.user
    asked_about = [r for iv in loop.interviews for r in asked.deps.store.requests_for(iv.id)]
    hidden = hidden_for(viewer, asked_about, asked.deps.independent_review)
    msg = loop_view(loop, asked.locale, asked.posted_by, hidden)
    first = loop.interviews[0].id
    return Outgoing(msg, post=asked.posting, candidate_id=first, kind="loop")


# -- merging and splitting -----------------------------------------------------------------


def _one_interview(text: str, asked: Asked) -> str | Outgoing:
    """The interview `text` names, or what the asker is told instead."""
    loc = asked.locale
    try:
        found = asked.deps.store.resolve(text)
    except SearchBusyError:
        return Outgoing(notice(t(loc, "search_busy")))
    if not found.matches:
        return Outgoing(notice(t(loc, "merge_not_found", who=fit(text, 200)[0])), unresolved=True)
    if found.unique is None:
        ids = t(loc, "name_separator").join(f"`{escape(m.id)}`" for m in found.matches[:5])
        text = t(loc, "merge_ambiguous", who=fit(text, 200)[0], ids=ids)
        return Outgoing(notice(text), unresolved=True)
    return found.unique.id


def _may_merge(asked: Asked) -> Outgoing | None:
    refused = _may_decide(asked)
    if refused is None:
        return None
    return Outgoing(notice(t(asked.locale, _MERGE_REFUSALS.get(refused, "merge_not_decider"))))


def _rounds(loop: Loop, asked: Asked) -> str:
    sep = t(asked.locale, "name_separator")
    return sep.join(round_name(iv, asked.locale) for iv in loop.interviews)


def on_merge(route: Route, asked: Asked) -> list[Outgoing]:
    """`合并 A B`: A's and B's interviews are one candidate's (`link`), audited."""
    loc, store = asked.locale, asked.deps.store
    words = route.words.split()
    if len(words) != 2:
        return [Outgoing(notice(t(loc, "merge_usage")), unresolved=True)]
    refused = _may_merge(asked)
    if refused is not None:
        return [refused]
    ids: list[str] = []
    for word in words:
        one = _one_interview(word, asked)
        if isinstance(one, Outgoing):
            return [one]
        ids.append(one)
    a, b = ids
    if store.candidate_key(a) == store.candidate_key(b):
        loop = store.loop_of(a)
        name = escape(loop_name(loop, loc)) if loop is not None else escape(a)
        text = t(loc, "merge_same", a=f"`{escape(a)}`", b=f"`{escape(b)}`", name=name)
        return [Outgoing(notice(text), candidate_id=a)]
    key = store.link(a, b, asked.user, webhook=asked.deps.webhook)
    loop = store.loop(key)
    if loop is None:  # removed meanwhile
        return [Outgoing(not_found_view(loc, a), unresolved=True)]
    text = t(
        loc,
        "merge_done",
        a=f"`{escape(a)}`",
        b=f"`{escape(b)}`",
        name=escape(loop_name(loop, loc)),
        count=len(loop.interviews),
        rounds=_rounds(loop, asked),
    )
    # a hiring decision the merge brought in closed the person's open requests: the
    # status messages in their verdicts' threads say so
    refresh = a if loop.outcome is not None else None
    # requests open on one of them now cover the other's interviews: its posts in channels
    # say no one's decision (handlers/sealing.py)
    return [Outgoing(notice(text), candidate_id=a, audit=f"link:{b}", refresh=refresh, seal=a)]


def on_split(route: Route, asked: Asked) -> list[Outgoing]:
    """`拆分 A`: A is a candidate of its own (`unlink`), audited."""
    loc, store = asked.locale, asked.deps.store
    if not route.who.strip():
        return [Outgoing(notice(t(loc, "split_usage")), unresolved=True)]
    refused = _may_merge(asked)
    if refused is not None:
        return [refused]
    one = _one_interview(" ".join(route.who.split()), asked)
    if isinstance(one, Outgoing):
        return [one]
    before = store.loop_of(one)
    if before is None or len(before.interviews) < 2:
        text = t(loc, "split_alone", interview=f"`{escape(one)}`")
        return [Outgoing(notice(text), candidate_id=one)]
    store.unlink(one, asked.user, webhook=asked.deps.webhook)
    text = t(
        loc,
        "split_done",
        interview=f"`{escape(one)}`",
        name=escape(loop_name(before, loc)),
        left=len(before.interviews) - 1,
    )
    return [Outgoing(notice(text), candidate_id=one, audit="unlink")]


def on_pick(route: Route, asked: Asked) -> list[Outgoing]:
    """A button of an interview that matches several people alike (issue 45): it is the
    candidate picked (`link`), or someone else (`unlink`: a candidate of its own, and
    recorded as one more alike); for those who may merge, audited."""
    loc, store = asked.locale, asked.deps.store
    refused = _may_merge(asked)
    if refused is not None:
        return [refused]
    interview, target = route.who, route.words
    shown = f"`{escape(interview)}`"
    alike = store.people_alike(interview)
    if alike is None or not alike.pending:
        loop = store.loop_of(interview)
        if loop is None:
            return [Outgoing(notice(t(loc, "alike_gone")), unresolved=True)]
        text = t(loc, "alike_already", interview=shown, name=escape(loop_name(loop, loc)))
        return [Outgoing(notice(text), candidate_id=interview)]
    if not target:
        key = store.unlink(interview, asked.user, webhook=asked.deps.webhook)
        loop = store.loop(key)
        name = escape(loop_name(loop, loc)) if loop is not None else shown
        text = t(loc, "alike_picked_new", interview=shown, name=name)
        return [Outgoing(notice(text), candidate_id=interview, audit=f"unlink:{key}")]
    if target not in {p.key for p in alike.people}:
        return [Outgoing(notice(t(loc, "alike_gone")), unresolved=True)]
    key = store.link(target, interview, asked.user, webhook=asked.deps.webhook)
    loop = store.loop(key)
    if loop is None:  # removed meanwhile
        return [Outgoing(notice(t(loc, "alike_gone")), unresolved=True)]
    text = t(
        loc,
        "alike_picked",
        interview=shown,
        name=escape(loop_name(loop, loc)),
        count=len(loop.interviews),
        rounds=_rounds(loop, asked),
    )
    # a pick is a merge: a hiring decision it brought in closed the interview's open
    # requests, and the ATS hears of it (`webhook`); the status messages say so
    refresh = interview if loop.outcome is not None else None
    return [Outgoing(notice(text), candidate_id=interview, audit=f"link:{key}", refresh=refresh)]


# -- comparing -----------------------------------------------------------------------------

_SEPARATORS = re.compile(r"[\s,，、;；]+")
_JOINERS = frozenset({"vs", "vs.", "和", "与", "and", "&amp;"})


def on_compare(route: Route, asked: Asked) -> list[Outgoing]:
    """`对比 A B [C D]`: each a candidate (a name, or an interview's id), side by side."""
    loc, store = asked.locale, asked.deps.store
    named = [w for w in _SEPARATORS.split(route.words) if w and w.lower() not in _JOINERS]
    if not 2 <= len(named) <= MAX_COMPARED:
        return [Outgoing(notice(t(loc, "compare_usage")), unresolved=True)]
    chosen: dict[str, Loop] = {}
    for word in named:
        try:
            loops, _ = loops_named(word, asked)
        except SearchBusyError:
            return [Outgoing(notice(t(loc, "search_busy")))]
        who = fit(word, 100)[0]
        if not loops:
            return [Outgoing(notice(t(loc, "compare_not_found", who=who)), unresolved=True)]
        if len(loops) > 1:
            sep = t(loc, "name_separator")
            names = sep.join(_told_apart(lp, loc) for lp in loops[:4])
            text = t(loc, "compare_ambiguous", who=who, count=len(loops), names=names)
            return [Outgoing(notice(text), unresolved=True)]
        chosen.setdefault(loops[0].key, loops[0])
    if len(chosen) < 2:
        return [Outgoing(notice(t(loc, "compare_same")), unresolved=True)]
    compared = []
    for loop in chosen.values():
        newest = store.get_candidate(loop.interviews[-1].id)
        years = newest.years if newest is not None else None
        text = newest.years_text if newest is not None else ""
        compared.append(Compared(loop, years, text, _sealed(loop, asked.user, asked)))
    first = next(iter(chosen.values())).interviews[0].id
    return [Outgoing(compare_view(compared, loc), candidate_id=first, kind="compare")]


# -- the handoff -----------------------------------------------------------------------------


def on_handoff(route: Route, asked: Asked) -> list[Outgoing]:
    """`交接 <who> @next`: the loop so far in a DM to each next interviewer who may see
    candidates, at most MAX_REVIEWERS at once, under the rule asking follows (carried
    out by handlers/handoffs.py: the others refused by name, in one reply); audited."""
    loc = asked.locale
    if route.problem or not route.people or not route.who.strip():
        return [Outgoing(notice(t(loc, "handoff_usage")), unresolved=True)]
    text = " ".join(route.who.split())
    try:
        loops, _ = loops_named(text, asked)
    except SearchBusyError:
        return [Outgoing(notice(t(loc, "search_busy")))]
    if not loops:
        return [Outgoing(not_found_view(loc, text), unresolved=True)]
    if len(loops) > 1:
        sep = t(loc, "name_separator")
        names = sep.join(_told_apart(lp, loc) for lp in loops[:4])
        found = t(loc, "compare_ambiguous", who=fit(text, 100)[0], count=len(loops), names=names)
        return [Outgoing(notice(found), unresolved=True)]
    loop = loops[0]
    people, unreadable = _members(route.people, asked)
    if unreadable is not None:
        text = t(loc, "request_group_unreadable", group=f"<!subteam^{unreadable}>")
        return [Outgoing(notice(text))]
    if len(people) > MAX_REVIEWERS:
        return [Outgoing(notice(t(loc, "handoff_too_many", limit=MAX_REVIEWERS)))]
    allowed: list[str] = []
    refused: list[tuple[str, str]] = []
    for user in people:
        why = _may_not_see(user, asked)
        if why is None:
            allowed.append(user)
        else:
            refused.append((user, _HANDOFF_REFUSALS[why]))
    concerns = _concerns(loop, asked) if allowed else []
    dms = tuple(  # independent review: one asked about the candidate sees who decided, not what
        (user, handoff_dm(loop, f"<@{asked.user}>", concerns, loc, _sealed(loop, user, asked)))
        for user in allowed
    )
    newest = loop.interviews[-1].id
    plan = Handoff(
        candidate_id=newest,
        interviews=tuple(iv.id for iv in loop.interviews),
        candidate=loop_name(loop, loc),
        asker=asked.user,
        channel=asked.channel,
        dms=dms,
        refused=tuple(refused),
    )
    reply = handoff_reply(plan, loc, asked.deps.clock(), asked.deps.tz)
    if not dms:  # nobody who may be sent it: nothing recorded, nobody DMed
        return [Outgoing(reply, candidate_id=newest)]
    return [Outgoing(reply, candidate_id=newest, kind="handoff", handoff=plan)]


def _told_apart(loop: Loop, loc: Locale) -> str:
    """`张伟 · 后端工程师（一面 2026-11-20 · 面试官：李四，`zw_a`）`: one of several
    candidates, told apart from another of the same name and position (issue 45)."""
    apart = rounds_text(summary_of(loop), loc)
    who = interviewers_text(loop.interviews[0].interviewers if loop.interviews else [], loc)
    facts = " · ".join(f for f in (apart, who) if f)
    first = escape(loop.interviews[0].id) if loop.interviews else escape(loop.key)
    return f"{escape(loop_name(loop, loc))}（{facts}，`{first}`）"


def _sealed(loop: Loop, viewer: str, asked: Asked) -> tuple[str, ...] | None:
    """Independent review (handlers/review.py): who else decided about the candidate,
    when `viewer` has an open request on any of their interviews; None: they may see
    every decision."""
    store = asked.deps.store
    requests = [r for iv in loop.interviews for r in store.requests_for(iv.id)]
    if not hidden_for(viewer, requests, asked.deps.independent_review):
        return None
    decided: dict[str, None] = {}
    for iv in loop.interviews:
        c = store.get_candidate(iv.id)
        for d in c.decisions if c is not None else []:
            if d.reviewer != viewer:
                decided[d.reviewer] = None
    return tuple(decided)


def _concerns(loop: Loop, asked: Asked) -> list[Concern]:
    """The reviewers' no-hire and hold decisions with what they wrote, oldest round first."""
    found: list[Concern] = []
    for iv in loop.interviews:
        c = asked.deps.store.get_candidate(iv.id)
        if c is None:
            continue
        for d in sorted(c.decisions, key=lambda d: d.ts):
            if d.decision in CONCERNS:
                found.append(Concern(iv.id, person(d.reviewer, None), d.decision, d.text))
    return found
