"""Buttons: pick a candidate, open a view, turn a page, go on with a reply in several
parts, post a private reply in the channel."""

from __future__ import annotations

import logging
import re
from typing import Any

from slack_bolt import App, BoltContext
from slack_sdk import WebClient

from ..asking import refresh
from ..audit import record
from ..blocks import decode_value
from ..commands import answer, route_from_value
from ..deps import Deps, deps_of
from ..i18n import t
from ..sending.outbox import SlackOutbox, ack_now, deliver, sender_for
from ..sending.outgoing import Outgoing
from ..views.common import CONTINUE, OPEN, PAGE, POST, notice
from ..views.replies import error_view

logger = logging.getLogger("handlers.actions")


def _action(body: dict[str, Any]) -> dict[str, Any]:
    acts = body.get("actions") or [{}]
    first = acts[0]
    return first if isinstance(first, dict) else {}


def on_click(body: dict[str, Any], client: WebClient, context: BoltContext) -> None:
    """A button click (after the ack): "Post in channel" posts the view; every other
    button opens one."""
    deps = deps_of(context)
    action = _action(body)
    outbox = sender_for(body, client, deps)
    posting = action.get("action_id") == POST
    try:
        route = route_from_value(decode_value(action.get("value")))
        if route is None:
            return
        result = answer(
            route,
            deps,
            user=outbox.user or "",
            posting=posting,
            channel=outbox.channel,
            names=lambda ids: deps.names.lookup(client, ids),
        )
        record(deps.store, result.events)
        if posting:
            _post_in_channel(result.outgoing, outbox, deps)
        elif action.get("action_id") == CONTINUE:  # the next parts, below the ones shown
            deliver(result.outgoing, outbox)
        else:
            _open_view(result.outgoing, body, outbox)
        # what a button recorded (a pick that brought in a hiring decision): the
        # candidate's status messages brought up to date, as after a command
        for item in result.outgoing:
            if item.refresh is not None:
                refresh(item.refresh, outbox, deps)
    except Exception:
        logger.exception("post in channel failed" if posting else "button failed")
        outbox.reply(error_view(deps.locale))


def _open_view(out: list[Outgoing], body: dict[str, Any], outbox: SlackOutbox) -> None:
    """A pick-list, search, list or digest button: show that view to whoever clicked."""
    in_private = (body.get("container") or {}).get("is_ephemeral", False)
    if in_private and len(out) == 1 and not out[0].post:
        outbox.reply(out[0].message, replace_original=True)
    else:
        deliver(out, outbox)


def _post_in_channel(out: list[Outgoing], outbox: SlackOutbox, deps: Deps) -> None:
    """Post the private reply's view for everyone in the channel."""
    posted = bool(out) and any(o.post for o in out) and deliver(out, outbox).posted
    if posted:
        outbox.reply(notice(t(deps.locale, "posted")), replace_original=True)


def register(app: App) -> None:
    app.action(re.compile(rf"^{OPEN}(:\d+)?$"))(ack=ack_now, lazy=[on_click])
    app.action(re.compile(rf"^{PAGE}:(prev|next)$"))(ack=ack_now, lazy=[on_click])
    app.action(POST)(ack=ack_now, lazy=[on_click])
    app.action(CONTINUE)(ack=ack_now, lazy=[on_click])
