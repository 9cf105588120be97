"""Decide with a button: 通过 / 待定 / 不通过 under a verdict post open a modal; its
submission records the reviewer's decision as a thread reply would, and the bot posts
it in the verdict's thread (`<name>: 通过 — note`), so the thread stays the record.

The click is acknowledged at once and the modal opened right after (its trigger_id
lasts 3 seconds). A submission is checked and recorded before it is acknowledged: what
is wrong, or a record that could not be written, goes back into the modal
(`response_action: errors`), so nothing typed is lost; only a recorded decision is
posted. Each submission is recorded once, however often Slack delivers it.

In a channel shared with another organisation (handlers/shared.py) the click opens a
modal that says why instead; a submission is kept but not posted, and the reviewer is
told so privately (known shared before the acknowledgement: refused in the modal).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from store.models import DECISIONS, Decision

from ..asking import refresh_status
from ..audit import AuditEvent, record
from ..blocks import fit
from ..deps import Deps, deps_of
from ..i18n import t
from ..review import candidate_requests, hidden_for
from ..shared import REFUSED, may_post, refusal_key, unchecked
from ..views.decide import (
    DECIDE,
    DECISION_ACTION,
    DECISION_BLOCK,
    MORE,
    NOTE_ACTION,
    NOTE_BLOCK,
    NOTE_LIMIT,
    Target,
    decide_modal,
    decision_post_text,
    decision_reply_text,
    notice_modal,
)

logger = logging.getLogger("handlers.decide")


def _decision(value: object) -> Decision | None:
    return next((d for d in DECISIONS if d == value), None)


def clicked_decision(action: dict[str, Any]) -> Decision | None:
    """The decision a button (or the overflow menu's option) stands for."""
    if action.get("action_id") == MORE:
        return _decision((action.get("selected_option") or {}).get("value"))
    return _decision(action.get("value"))


def open_decision(body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Open the decision modal for the verdict post that was clicked (after the ack)."""
    action = (body.get("actions") or [{}])[0]
    container = body.get("container") or {}
    channel = str(container.get("channel_id") or (body.get("channel") or {}).get("id") or "")
    thread_ts = str(container.get("message_ts") or "")
    user = str((body.get("user") or {}).get("id") or "")
    store, locale = deps.store, deps.locale
    named = Target.from_block_id(action.get("block_id"))
    if named is not None:  # buttons in a DM: they name the verdict thread they decide in
        channel, thread_ts = named.channel, named.thread_ts
        candidate_id = store.post_candidate(channel, thread_ts)
        if candidate_id != named.candidate_id:
            candidate_id = None  # not a verdict post of that candidate (forged, or forgotten)
    else:
        candidate_id = store.post_candidate(channel, thread_ts) if channel and thread_ts else None
    candidate = store.get_candidate(candidate_id) if candidate_id else None
    refused = refusal_key(may_post(channel, client, deps)) if candidate is not None else None
    if candidate is None:
        view = notice_modal(t(locale, "decide_gone"), locale)
    elif refused is not None:  # its thread is in a channel another organisation reads
        view = notice_modal(t(locale, refused), locale)
    else:
        who = f"{candidate.id} · {candidate.position or t(locale, 'position_unknown')}"
        view = decide_modal(
            Target(candidate.id, channel, thread_ts),
            who,
            clicked_decision(action),
            store.current_decision(candidate.id, user),
            locale,
        )
    client.views_open(trigger_id=body["trigger_id"], view=view)


@dataclass(frozen=True)
class Submission:
    """A decision modal's submission, read and checked."""

    target: Target | None = None
    decision: Decision | None = None
    note: str = ""
    errors: dict[str, str] = field(default_factory=dict)


def read_submission(view: dict[str, Any], deps: Deps) -> Submission:
    """What was submitted, and what is wrong with it (by input block, for the modal)."""
    locale = deps.locale
    values = (view.get("state") or {}).get("values") or {}
    chosen = ((values.get(DECISION_BLOCK) or {}).get(DECISION_ACTION) or {}).get(
        "selected_option"
    ) or {}
    decision = _decision(chosen.get("value"))
    note = str(((values.get(NOTE_BLOCK) or {}).get(NOTE_ACTION) or {}).get("value") or "")
    target = Target.from_metadata(view.get("private_metadata"))
    errors: dict[str, str] = {}
    if decision is None:
        errors[DECISION_BLOCK] = t(locale, "decide_need")
    if len(note) > NOTE_LIMIT:
        errors[NOTE_BLOCK] = t(locale, "decide_note_long", limit=NOTE_LIMIT)
    if (
        target is None
        or deps.store.post_candidate(target.channel, target.thread_ts) != target.candidate_id
        or deps.store.get_candidate(target.candidate_id) is None
    ):
        errors[DECISION_BLOCK] = t(locale, "decide_gone")
    return Submission(target, decision, note, errors)


def _name(user: dict[str, Any]) -> str:
    name = user.get("name") or user.get("username")
    return str(name) if name else f"<@{user.get('id', '?')}>"


def submission_key(body: dict[str, Any]) -> str:
    """What a modal submission is known by, so that one delivered twice is recorded once:
    its view's id; without one, a digest of who submitted which view (its hash, else the
    trigger) about what (private_metadata), saying what (the state's values), which is
    the same for a submission delivered again and differs between reviewers."""
    view = body.get("view") or {}
    view_id = view.get("id")
    if isinstance(view_id, str) and view_id:
        return f"view:{view_id}"
    parts = [
        (body.get("user") or {}).get("id"),
        view.get("hash") or body.get("trigger_id"),
        view.get("private_metadata"),
        (view.get("state") or {}).get("values"),
    ]
    digest = hashlib.sha256(
        json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str).encode()
    )
    return f"submission:{digest.hexdigest()}"


class _Clock:
    """Slack-like ts (`seconds.micros`) for decisions not posted yet: the time now, and
    never the same twice in this process, so two provisional rows never share a key."""

    def __init__(self) -> None:
        self._last = 0
        self._lock = threading.Lock()

    def ts(self) -> str:
        with self._lock:
            self._last = max(time.time_ns() // 1000, self._last + 1)
            micros = self._last
        return f"{micros // 1_000_000}.{micros % 1_000_000:06d}"


_provisional = _Clock()


def handle_submission(ack: Ack, body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Check, record (then acknowledge), audit, post in the verdict's thread.

    The decision is recorded before anything is posted, so the thread never shows a
    decision the record does not hold: first under a provisional ts, then under the
    post's own ts once posted (a deleted post then takes the decision back). When it
    cannot be recorded, the modal stays open and says so; nothing is posted."""
    view = body.get("view") or {}
    locale = deps.locale
    submission = read_submission(view, deps)
    if submission.errors:
        ack(response_action="errors", errors=submission.errors)
        return
    target, decision = submission.target, submission.decision
    assert target is not None and decision is not None
    user = body.get("user") or {}
    reviewer = str(user.get("id") or "")
    if not reviewer:
        ack()
        return
    if _known_shared(target.channel, deps):  # known already: said in the modal, nothing kept
        ack(response_action="errors", errors={DECISION_BLOCK: t(locale, REFUSED)})
        return
    provisional = _provisional.ts()
    reply = decision_reply_text(decision, submission.note, locale)
    try:
        recorded = deps.store.record_decision(
            target.channel,
            provisional,
            target.thread_ts,
            target.candidate_id,
            reviewer,
            decision,
            reply,
            claim=submission_key(body),
        )
    except Exception:
        logger.exception("could not record a decision")
        ack(response_action="errors", errors={DECISION_BLOCK: t(locale, "error")})
        return
    if not recorded:
        if deps.store.get_candidate(target.candidate_id) is None:  # forgotten just now
            ack(response_action="errors", errors={DECISION_BLOCK: t(locale, "decide_gone")})
        else:
            ack()  # the same submission again: recorded the first time
        return
    ack()
    record(
        deps.store,
        [AuditEvent(reviewer, f"decision:{decision}", target.candidate_id, target.channel)],
    )
    text = decision_post_text(_name(user), decision, submission.note, locale)
    asked = candidate_requests(deps.store, target.candidate_id)
    if hidden_for(None, asked, deps.independent_review):
        # independent review: someone asked has not decided, and reads the thread
        text = t(locale, "review_decision_posted", who=fit(_name(user), 100)[0])
    refused = refusal_key(may_post(target.channel, client, deps))
    if refused is not None:  # shared with another organisation: kept, not posted
        _tell(
            client, target.channel, reviewer, t(locale, "shared_decision_kept"), t(locale, refused)
        )
        refresh_status(target.candidate_id, client, deps)
        return
    try:
        response = client.chat_postMessage(
            channel=target.channel,
            thread_ts=target.thread_ts,
            text=text,
            unfurl_links=False,
            unfurl_media=False,
        )
    except SlackApiError as exc:
        # The decision is kept (under its provisional ts) when the thread cannot be written to.
        logger.warning("could not post a decision in its thread: %s", exc.response.get("error"))
    else:
        ts = str(response.get("ts") or "")
        if ts and not deps.store.settle_decision(target.channel, provisional, ts):
            logger.warning("a posted decision stays under its provisional ts in %s", target.channel)
    refresh_status(target.candidate_id, client, deps)  # recorded: its status message says so


def _known_shared(channel: str, deps: Deps) -> bool:
    """Whether `channel` is known to be shared with another organisation, without asking
    Slack (nothing slow before the acknowledgement): the click that opened the modal asked."""
    if deps.allow_shared or unchecked(channel):
        return False
    return deps.shared.peek(channel) == "shared"


def _tell(client: WebClient, channel: str, user: str, *lines: str) -> None:
    """A private word to `user` in `channel` (never raises)."""
    try:
        client.chat_postEphemeral(channel=channel, user=user, text="\n".join(lines))
    except Exception as exc:
        logger.warning("could not tell a reviewer their decision was not posted (%s)", exc)


def on_click(ack: Ack, body: dict[str, Any], client: WebClient, context: BoltContext) -> None:
    ack()
    open_decision(body, client, deps_of(context))


def on_submit(ack: Ack, body: dict[str, Any], client: WebClient, context: BoltContext) -> None:
    handle_submission(ack, body, client, deps_of(context))


def register(app: App) -> None:
    app.action(re.compile(rf"^{DECIDE}:"))(on_click)
    app.view(DECIDE)(on_submit)
