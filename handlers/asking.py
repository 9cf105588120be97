"""Asking reviewers, once `/candidate 邀请` decided whom (`Ask`, handlers/commands.py),
and the status message in the verdict's thread that follows their decisions. This
module plans what to send (pure but for the store it asks) and hands each plan to the
sender (handlers/sending/), which calls back into nothing here.

`carry_out` sends an answer's plan, then what follows it: `ask_reviewers` once the
verdict is posted in the channel, `refresh` once a decision was recorded, a handoff
(handlers/handoffs.py `hand_off`).

`ask_reviewers` records the requests with the verdict's thread (none of a reviewer
asked about the candidate in the last day, none past the asker's hourly limit:
`record_asks`, exact across replicas), audits each (`request:<reviewer>`), edits the
candidate's verdict posts sealed (handlers/sealing.py), posts the status message in that thread (or edits the one there), DMs each reviewer and tells
the asker how it went.

`refresh` brings a candidate's status messages up to date (`chat.update`) when a
decision arrives by any path: a reply in the thread, a button and its modal, a hiring
decision. It never raises: a message that cannot be edited leaves the decision as it is.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from decimal import Decimal, InvalidOperation

from slack_sdk import WebClient

from .audit import AuditEvent, record
from .blocks import Message, escape
from .deps import Deps
from .handoffs import hand_off
from .i18n import t
from .review import sealed_for
from .sealing import seal_posts
from .sending.outbox import SlackOutbox, deliver
from .sending.outgoing import DirectMessage, Edit, Outgoing, Send
from .views.cards import people_in
from .views.common import notice
from .views.decide import Target
from .views.replies import not_found_view
from .views.requests import Ask, ask_dm, ask_reply, status_message

logger = logging.getLogger("handlers.asking")

# One candidate's status messages are edited by one thread at a time, so that the last
# edit shows the last decision (two decisions at once would otherwise race): each is
# planned and sent under its candidate's lock.
_LOCKS = tuple(threading.Lock() for _ in range(64))


def _lock(candidate_id: str) -> threading.Lock:
    return _LOCKS[hash(candidate_id) % len(_LOCKS)]


def carry_out(plan: list[Outgoing], outbox: SlackOutbox, deps: Deps) -> None:
    """Send an answer's plan, then what follows it: the posts of a candidate whose loop
    it changed kept to independent review, the status messages of a candidate it
    decided on (recorded before the plan was sent: whether or not its post went), and
    its ask or its handoff (handlers/handoffs.py), once every post before it went out."""
    delivered = deliver([o for o in plan if o.ask is None and o.handoff is None], outbox)
    for item in plan:
        if item.seal is not None:
            seal_posts(item.seal, outbox, deps)
        if item.refresh is not None:
            refresh(item.refresh, outbox, deps)
        if item.ask is not None and delivered.posted:
            ask_reviewers(item.ask, outbox, deps, delivered.posts)
        if item.handoff is not None and delivered.posted:
            hand_off(item.handoff, outbox, deps)


# -- asking -----------------------------------------------------------------------------


def ask_reviewers(ask: Ask, outbox: SlackOutbox, deps: Deps, fresh: Iterable[str] = ()) -> None:
    """Record, audit, the candidate's posts sealed (but those just posted for the ask,
    `fresh`: sealed as they went), the status message, the DMs, then the asker's reply."""
    recorded = _record(ask, deps)
    if isinstance(recorded, Message):
        outbox.reply(recorded)
        return
    ask, thread = recorded
    # the verdict they are sent to, and every other post about the candidate in a channel,
    # say no one's decision or note before their DM goes (handlers/sealing.py)
    seal_posts(ask.candidate_id, outbox, deps, keep=fresh)
    show_status(ask.candidate_id, ask.channel, thread, outbox, deps)
    dms = dm_plan(ask, thread, deps, lambda ids: deps.names.lookup(outbox.client, ids))
    failed = deliver(dms, outbox).failed if dms is not None else _gone(ask)
    outbox.reply(ask_reply(replace(ask, failed=failed), deps.locale, deps.clock(), deps.tz))


def _record(ask: Ask, deps: Deps) -> tuple[Ask, str] | Message:
    """The requests recorded and audited: the ask as the store carried it out (another ask
    may have come first meanwhile), and the verdict's thread; or what the asker is told
    instead (no verdict here, the candidate gone, nobody left to ask)."""
    store, locale = deps.store, deps.locale
    thread = store.verdict_post(ask.candidate_id, ask.channel)
    if thread is None:  # the verdict did not go out here (the asker was told why)
        return notice(t(locale, "request_no_thread", who=escape(ask.candidate_id)))
    done = store.record_asks(
        ask.candidate_id,
        ask.reviewers,
        ask.asker,
        ask.due.at,
        ask.channel,
        thread,
        deps.ask_limit,
        deps.clock(),
    )
    if done is None:  # forgotten or removed just now
        return not_found_view(locale, ask.candidate_id)
    ask = replace(
        ask,
        reviewers=tuple(done.asked),
        already=ask.already + tuple(done.already),
        limited=tuple(done.limited) + ask.limited,
        retry_at=done.retry_at or ask.retry_at,
    )
    if not ask.reviewers:  # nobody left to ask: nothing recorded, nobody DMed
        return ask_reply(ask, locale, deps.clock(), deps.tz)
    record(
        store,
        [
            AuditEvent(ask.asker, f"request:{r}", ask.candidate_id, ask.channel)
            for r in ask.reviewers
        ],
    )
    return ask, thread


def dm_plan(
    ask: Ask, thread: str, deps: Deps, names: Callable[[Iterable[str]], Mapping[str, str]]
) -> list[DirectMessage] | None:
    """Each reviewer's DM: who asked (by display name: `names`), the card, the deadline,
    the decision buttons. None when the candidate is gone."""
    c = deps.store.get_candidate(ask.candidate_id)
    if c is None:
        return None
    people = names([ask.asker, *people_in(c)])
    target = Target(c.id, ask.channel, thread)
    asker = people.get(ask.asker, ask.asker)
    on = deps.independent_review
    dms: list[DirectMessage] = []
    for reviewer in ask.reviewers:  # independent review: the others' decisions hidden
        seen = sealed_for(deps.store, c, reviewer, on)
        dm = ask_dm(
            seen.candidate,
            asker,
            ask.due.at,
            target,
            people,
            deps.locale,
            deps.clock(),
            deps.tz,
            hidden=seen.decided,
        )
        dms.append(DirectMessage(reviewer, dm))
    return dms


def _gone(ask: Ask) -> dict[str, str]:
    return {r: "candidate_gone" for r in ask.reviewers}


# -- the status message -------------------------------------------------------------------


def _status(candidate_id: str, channel: str, deps: Deps) -> Message:
    """The status message of the requests asked from `channel` about the candidate."""
    asked = [r for r in deps.store.requests_for(candidate_id) if r.channel == channel]
    return status_message(asked, deps.locale, deps.clock(), deps.tz)


def _later(ts: str, than: str) -> bool:
    try:
        return Decimal(ts) > Decimal(than)
    except InvalidOperation:
        return False


def status_plan(candidate_id: str, channel: str, thread: str, deps: Deps) -> Send:
    """The status message in the verdict's thread: the one there edited, else posted
    there (recorded as a post of kind `status`). One in an older verdict's thread stays
    there: this thread gets its own."""
    message = _status(candidate_id, channel, deps)
    post = Outgoing(message, post=True, candidate_id=candidate_id, kind="status", thread_ts=thread)
    ts = deps.store.status_post(candidate_id, channel)
    if ts is not None and _later(ts, thread):
        return Edit(channel, ts, message, instead=post)
    return post


def show_status(
    candidate_id: str, channel: str, thread: str, outbox: SlackOutbox, deps: Deps
) -> None:
    """The status message in the verdict's thread, planned and sent. Never raises."""
    try:
        with _lock(candidate_id):
            deliver([status_plan(candidate_id, channel, thread, deps)], outbox)
    except Exception:
        logger.exception("could not post a request status message")


def refresh(candidate_id: str, outbox: SlackOutbox, deps: Deps) -> None:
    """A decision on the candidate arrived: each status message of theirs says so, on
    each of the person's interviews (a hiring decision, or a merge that brought one in,
    closes the requests on every one: issue 45), not in a channel shared with another
    organisation since (issue 34). Never raises (the decision is recorded whatever
    becomes of its status message)."""
    try:
        for one in deps.store.interview_ids(candidate_id):
            _refresh_one(one, outbox, deps)
    except Exception:
        logger.exception("could not read the interviews of a decided candidate")


def _refresh_one(candidate_id: str, outbox: SlackOutbox, deps: Deps) -> None:
    try:
        with _lock(candidate_id):
            channels = dict.fromkeys(r.channel for r in deps.store.requests_for(candidate_id))
            for channel in channels:
                try:
                    ts = deps.store.status_post(candidate_id, channel)
                    if ts is not None:
                        message = _status(candidate_id, channel, deps)
                        deliver([Edit(channel, ts, message)], outbox)
                except Exception:
                    logger.exception("could not edit a request status message")
    except Exception:
        logger.exception("could not read the requests of a decided candidate")


def refresh_status(candidate_id: str, client: WebClient, deps: Deps) -> None:
    """`refresh`, for a listener with no command to answer (a reply, a modal)."""
    refresh(candidate_id, SlackOutbox(client, deps, None, None, None), deps)
