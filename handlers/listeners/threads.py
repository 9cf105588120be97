"""Reviewers reply in threads under the bot's posts; their replies become a record.

Only replies in threads the bot started about a candidate count; bot messages
(the bot's own included) are ignored. Recording is keyed by (channel, ts), so an
event Slack delivers twice is recorded once, and a decision is acknowledged with
a single reaction, never a message. Events that come late or out of order are applied
in the order of their time: an edit older than the text recorded changes nothing, and a
reply deleted stays deleted whatever delivery of it or of its edit comes after.

A decision withdrawn (its reply deleted, or edited into none) reopens the request it
closed: the reviewer is asked again, the others' decisions hidden from them again
(handlers/review.py). Whether it had shown them the others is read before it goes
(`shown_to`) and kept with the request (the status says so), and the audit has a line.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from slack_bolt import App, BoltContext, BoltResponse
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from store.errors import StoreError
from store.threads import Reply

from ..asking import refresh_status
from ..audit import AuditEvent, record
from ..claim_reply import Said, answer_claims
from ..deps import Deps, deps_of
from ..review import shown_to
from ..sealing import seal_posts_for

logger = logging.getLogger("handlers.threads")

REACTION = "white_check_mark"
PLAIN_SUBTYPES = {None, "thread_broadcast", "file_share"}


def _from_bot(message: dict[str, Any], bot_user_id: str | None) -> bool:
    return bool(
        message.get("bot_id")
        or message.get("subtype") == "bot_message"
        or (bot_user_id and message.get("user") == bot_user_id)
    )


def _is_reply(message: dict[str, Any]) -> bool:
    thread_ts = message.get("thread_ts")
    return bool(thread_ts) and thread_ts != message.get("ts")


@dataclass(frozen=True)
class Handled:
    """What a message event did: lines for the audit, and a decision to acknowledge."""

    events: list[AuditEvent] = field(default_factory=list)
    acknowledge: tuple[str, str] | None = None  # (channel, ts) of the reply to react to
    unacknowledge: tuple[str, str] | None = None  # a decision edited away: its ✅ taken back
    decided: str | None = None  # the candidate a decision was recorded or withdrawn about
    said: Said | None = None  # a note just recorded: checked for unsupported claims
    reopened: str | None = None  # the candidate a request was opened again about


def finish_message_event(handled: Handled, deps: Deps, client: WebClient) -> None:
    """After the reply is stored: its audit line, the ✅ reaction, then the request
    status messages of a candidate just decided on."""
    record(deps.store, handled.events)
    if handled.acknowledge:
        channel, ts = handled.acknowledge
        try:
            client.reactions_add(channel=channel, timestamp=ts, name=REACTION)
        except SlackApiError as exc:
            if (exc.response or {}).get("error") != "already_reacted":
                logger.warning("could not react to a decision: %s", exc.response.get("error"))
    if handled.unacknowledge:
        channel, ts = handled.unacknowledge
        try:
            client.reactions_remove(channel=channel, timestamp=ts, name=REACTION)
        except SlackApiError as exc:
            if (exc.response or {}).get("error") != "no_reaction":
                logger.warning("could not take a ✅ back: %s", exc.response.get("error"))
    if handled.reopened is not None:  # asked again: the channel's posts hide the others'
        seal_posts_for(handled.reopened, client, deps)
    if handled.decided is not None:
        refresh_status(handled.decided, client, deps)
    if handled.said is not None:  # once: a retried event is not recorded again
        answer_claims(handled.said, deps, client)


def read_message_event(event: dict[str, Any], deps: Deps, bot_user_id: str | None) -> Handled:
    """Store what a reply (or its edit or deletion) says; Slack I/O is left to the caller."""
    subtype = event.get("subtype")
    channel = event.get("channel")
    if not channel:
        return Handled()
    if subtype == "message_deleted":
        previous = event.get("previous_message") or {}
        ts = event.get("deleted_ts") or previous.get("ts")
        if not ts:
            return Handled()
        shown = _had_shown(deps.store.reply_of(channel, ts), deps)
        # remembered, so that a late delivery of the reply or its edit stays deleted
        removed = deps.store.delete_reply(channel, ts, shown, previous.get("thread_ts"))
        if removed is None:
            return Handled()
        logger.info("reply removed in %s", channel)
        if not removed.reopened:
            return Handled()
        return _withdrawn(removed.candidate_id, removed.reviewer, shown, channel)
    if subtype == "message_changed":
        message = event.get("message") or {}
    elif subtype in PLAIN_SUBTYPES:
        message = event
    else:
        return Handled()
    if not _is_reply(message) or _from_bot(message, bot_user_id):
        return Handled()
    user = message.get("user")
    ts = message.get("ts")
    if not user or not ts:
        return Handled()
    candidate_id = deps.store.post_candidate(channel, message["thread_ts"])
    if candidate_id is None:
        return Handled()  # a thread the bot did not start about a candidate
    text = str(message.get("text") or "")
    # an edit may take the decision away: whether it had shown the others, read first
    shown = subtype == "message_changed" and _had_shown(deps.store.reply_of(channel, ts), deps)
    outcome = deps.store.record_reply(
        channel,
        ts,
        message["thread_ts"],
        candidate_id,
        user,
        text,
        shown,
        original=subtype != "message_changed",  # a retry after its edit changes nothing
        at=_edited_at(event, message) if subtype == "message_changed" else None,
    )
    events: list[AuditEvent] = []
    if outcome.recorded:
        logger.info("reply recorded for a candidate in %s", channel)
        what = (
            f"decision:{outcome.decision}"
            if outcome.decision
            else "followup"
            if outcome.followup is not None
            else "note"
        )
        events.append(AuditEvent(user, what, candidate_id, channel))
    decided = candidate_id if outcome.recorded and outcome.decision else None
    reopened = None
    if outcome.reopened:  # edited into no decision: asked again
        logger.info("a decision edited away in %s", channel)
        events += _withdrawn(candidate_id, user, shown, channel).events
        decided = candidate_id
        reopened = candidate_id
    said = None
    if outcome.recorded and outcome.followup is None and text.strip():
        said = Said(channel, message["thread_ts"], ts, user, candidate_id, text)
    return Handled(
        events,
        (channel, ts) if outcome.react else None,
        (channel, ts) if outcome.unreact else None,
        decided,
        said,
        reopened,
    )


def _edited_at(event: dict[str, Any], message: dict[str, Any]) -> str | None:
    """An edit's Slack time: its `edited.ts`, else the event's; an older edit delivered
    after a newer one changes nothing."""
    edited = message.get("edited") or {}
    at = edited.get("ts") or event.get("event_ts")
    return str(at) if at else None


def _had_shown(reply: Reply | None, deps: Deps) -> bool:
    """Whether `reply` holds a decision that shows its author the others' now."""
    if reply is None or reply.decision is None:
        return False
    return shown_to(deps.store, reply.candidate_id, reply.reviewer, deps.independent_review)


def _withdrawn(candidate_id: str, reviewer: str, shown: bool, channel: str) -> Handled:
    """A decision taken away, its request open again: the audit's line (`shown`: after
    the others were shown), and the candidate's status messages to bring up to date."""
    what = "withdrew:after_others_shown" if shown else "withdrew"
    return Handled(
        [AuditEvent(reviewer, what, candidate_id, channel)],
        decided=candidate_id,
        reopened=candidate_id,
    )


def record_first(
    event: dict[str, Any], context: BoltContext, next: Callable[[], None]
) -> BoltResponse | None:
    """Acknowledged means kept: a listener's middleware runs before Bolt acknowledges
    the event, so the reply is stored first (the store waits at most 2 s for the
    database). When it cannot be stored, Slack gets a 503 instead of a 200, and
    sends the event again."""
    deps = deps_of(context)
    try:
        context["debrief_handled"] = read_message_event(event, deps, context.get("bot_user_id"))
    except StoreError as exc:
        logger.warning("reply not recorded (%s): Slack is asked to send it again", exc)
        return BoltResponse(status=503, body="busy: please retry")
    next()
    return None


def on_message(client: WebClient, context: BoltContext) -> None:
    handled = context.get("debrief_handled")
    if isinstance(handled, Handled):
        finish_message_event(handled, deps_of(context), client)


def register(app: App) -> None:
    app.event("message", middleware=[record_first])(on_message)
