"""Asking reviewers, once `/candidate 邀请` decided whom (`Ask`, handlers/commands.py),
and the status message in the verdict's thread that follows their decisions.

`ask_reviewers` runs after the verdict is posted in the channel (the outbox sends what
comes before the ask first): it records the requests with the verdict's thread (none of
a reviewer asked about the candidate in the last day, none past the asker's hourly
limit: `record_asks`, exact across replicas), audits
each (`request:<reviewer>`), posts the status message in that thread (or edits the one
there), DMs each reviewer (`conversations.open`, then `chat.postMessage` in the DM) and
tells the asker how it went.

`refresh_status` brings a candidate's status messages up to date (`chat.update`) when a
decision arrives by any path: a reply in the thread, a button and its modal, a hiring
decision. It never raises: a message that cannot be edited leaves the decision as it is.
"""

from __future__ import annotations

import http.client
import logging
import threading
from dataclasses import replace
from decimal import Decimal, InvalidOperation

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from .audit import AuditEvent, record
from .blocks import Message, escape
from .deps import Deps
from .i18n import t
from .sending.outbox import SlackOutbox
from .sending.outgoing import Outgoing
from .shared import may_post
from .views.cards import people_in
from .views.common import notice
from .views.decide import Target
from .views.replies import not_found_view
from .views.requests import Ask, ask_dm, ask_reply, status_message

logger = logging.getLogger("handlers.asking")

# One candidate's status messages are edited by one thread at a time, so that the last
# edit shows the last decision (two decisions at once would otherwise race).
_LOCKS = tuple(threading.Lock() for _ in range(64))


def _lock(candidate_id: str) -> threading.Lock:
    return _LOCKS[hash(candidate_id) % len(_LOCKS)]


def ask_reviewers(ask: Ask, outbox: SlackOutbox, deps: Deps) -> None:
    """Record, audit, the status message, the DMs, then the asker's reply."""
    store, locale = deps.store, deps.locale
    thread = store.verdict_post(ask.candidate_id, ask.channel)
    if thread is None:  # the verdict did not go out here (the asker was told why)
        outbox.reply(notice(t(locale, "request_no_thread", who=escape(ask.candidate_id))))
        return
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
        outbox.reply(not_found_view(locale, ask.candidate_id))
        return
    # what was planned, as the store found it (another ask may have come first meanwhile)
    ask = replace(
        ask,
        reviewers=tuple(done.asked),
        already=ask.already + tuple(done.already),
        limited=tuple(done.limited) + ask.limited,
        retry_at=done.retry_at or ask.retry_at,
    )
    if not ask.reviewers:  # nobody left to ask: nothing recorded, nobody DMed
        outbox.reply(ask_reply(ask, locale, deps.clock(), deps.tz))
        return
    record(
        store,
        [
            AuditEvent(ask.asker, f"request:{r}", ask.candidate_id, ask.channel)
            for r in ask.reviewers
        ],
    )
    show_status(ask.candidate_id, ask.channel, thread, outbox, deps)
    failed = send_dms(ask, thread, outbox.client, deps)
    outbox.reply(ask_reply(replace(ask, failed=failed), locale, deps.clock(), deps.tz))


def send_dms(ask: Ask, thread: str, client: WebClient, deps: Deps) -> dict[str, str]:
    """Each reviewer's DM: who asked, the card, the deadline, the decision buttons.
    -> the reviewers whose DM did not go, with Slack's error."""
    c = deps.store.get_candidate(ask.candidate_id)
    if c is None:
        return {r: "candidate_gone" for r in ask.reviewers}
    people = deps.names.lookup(client, [ask.asker, *people_in(c)])
    target = Target(c.id, ask.channel, thread)
    asker = people.get(ask.asker, ask.asker)
    dm = ask_dm(c, asker, ask.due.at, target, people, deps.locale, deps.clock(), deps.tz)
    failed: dict[str, str] = {}
    for reviewer in ask.reviewers:
        error = _dm(client, reviewer, dm)
        if error is not None:
            failed[reviewer] = error
    return failed


def _dm(client: WebClient, user: str, message: Message) -> str | None:
    """Send `message` to `user` in the bot's DM with them; Slack's error, or None."""
    try:
        opened = client.conversations_open(users=user)
        channel = str((opened.get("channel") or {}).get("id") or "")
        client.chat_postMessage(
            channel=channel,
            text=message.text,
            blocks=message.blocks,
            unfurl_links=False,
            unfurl_media=False,
        )
    except SlackApiError as exc:
        error = str((exc.response or {}).get("error") or "error")
        logger.warning("could not DM a reviewer (%s)", error)
        return error
    except (OSError, http.client.HTTPException) as exc:  # dropped, timed out: never retried
        logger.warning("could not DM a reviewer (%s)", type(exc).__name__)
        return type(exc).__name__
    return None


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


def _update(client: WebClient, channel: str, ts: str, message: Message) -> bool:
    """Edit the status message; False when it is gone (deleted: post another)."""
    try:
        client.chat_update(channel=channel, ts=ts, text=message.text, blocks=message.blocks)
    except SlackApiError as exc:
        error = (exc.response or {}).get("error")
        if error == "message_not_found":
            return False
        logger.warning("could not edit a request status message (%s)", error)
    return True


def show_status(
    candidate_id: str, channel: str, thread: str, outbox: SlackOutbox, deps: Deps
) -> None:
    """Edit the status message in the verdict's thread, or post it there (recorded as a
    post of kind `status`) when there is none in this thread yet. Never raises."""
    try:
        with _lock(candidate_id):
            message = _status(candidate_id, channel, deps)
            ts = deps.store.status_post(candidate_id, channel)
            # one in an older verdict's thread stays there: this thread gets its own
            if (
                ts is not None
                and _later(ts, thread)
                and may_post(channel, outbox.client, deps) == "own"  # else refused below
                and _update(outbox.client, channel, ts, message)
            ):
                return
            outbox.post(
                Outgoing(
                    message, post=True, candidate_id=candidate_id, kind="status", thread_ts=thread
                )
            )
    except Exception:
        logger.exception("could not post a request status message")


def refresh_status(candidate_id: str, client: WebClient, deps: Deps) -> None:
    """A decision on the candidate arrived: each of its status messages says so. Never
    raises (the decision is recorded whatever becomes of its status message)."""
    try:
        with _lock(candidate_id):
            channels = dict.fromkeys(r.channel for r in deps.store.requests_for(candidate_id))
            for channel in channels:
                try:
                    ts = deps.store.status_post(candidate_id, channel)
                    # not in a channel shared with another organisation since (issue 34)
                    if ts is not None and may_post(channel, client, deps) == "own":
                        _update(client, channel, ts, _status(candidate_id, channel, deps))
                except Exception:
                    logger.exception("could not edit a request status message")
    except Exception:
        logger.exception("could not read the requests of a decided candidate")
