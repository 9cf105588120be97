"""Decide with a button: 通过 / 待定 / 不通过 under a verdict post open a modal; its
submission records the reviewer's decision as a thread reply would, and the bot posts
it in the verdict's thread (`<name>: 通过 — note`), so the thread stays the record.

The click is acknowledged at once and the modal opened right after (its trigger_id
lasts 3 seconds). A submission is checked before it is acknowledged: what is wrong
goes back into the modal (`response_action: errors`), so nothing typed is lost. Each
modal is recorded once, however often Slack delivers its submission.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from typing import Any

from slack_bolt import Ack, App
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from store.models import DECISIONS, Decision

from .audit import AuditEvent, record
from .commands import Deps
from .i18n import t
from .views_decide import (
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

logger = logging.getLogger(__name__)


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
    candidate_id = store.post_candidate(channel, thread_ts) if channel and thread_ts else None
    candidate = store.get_candidate(candidate_id) if candidate_id else None
    if candidate is None:
        view = notice_modal(t(locale, "decide_gone"), locale)
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


def handle_submission(ack: Ack, body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """Check, acknowledge, post in the verdict's thread, record, audit."""
    view = body.get("view") or {}
    submission = read_submission(view, deps)
    if submission.errors:
        ack(response_action="errors", errors=submission.errors)
        return
    target, decision = submission.target, submission.decision
    assert target is not None and decision is not None
    user = body.get("user") or {}
    reviewer = str(user.get("id") or "")
    if not reviewer or not deps.store.claim_submission(f"view:{view.get('id')}"):
        ack()  # the same submission again: recorded the first time
        return
    ack()
    locale = deps.locale
    text = decision_post_text(_name(user), decision, submission.note, locale)
    try:
        response = client.chat_postMessage(
            channel=target.channel,
            thread_ts=target.thread_ts,
            text=text,
            unfurl_links=False,
            unfurl_media=False,
        )
        ts = str(response.get("ts") or "")
    except SlackApiError as exc:
        # The decision is kept even when the thread cannot be written to.
        logger.warning("could not post a decision in its thread: %s", exc.response.get("error"))
        ts = ""
    ts = ts or f"{time.time():.6f}"
    reply = decision_reply_text(decision, submission.note, locale)
    if deps.store.record_decision(
        target.channel, ts, target.thread_ts, target.candidate_id, reviewer, decision, reply
    ):
        record(
            deps.store,
            [AuditEvent(reviewer, f"decision:{decision}", target.candidate_id, target.channel)],
        )


def register(app: App, deps: Deps) -> None:
    def on_click(ack: Ack, body: dict[str, Any], client: WebClient) -> None:
        ack()
        open_decision(body, client, deps)

    def on_submit(ack: Ack, body: dict[str, Any], client: WebClient) -> None:
        handle_submission(ack, body, client, deps)

    app.action(re.compile(rf"^{DECIDE}:"))(on_click)
    app.view(DECIDE)(on_submit)
