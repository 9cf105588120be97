"""Buttons: pick a candidate, open a view, turn a page, post a private reply in the channel."""

from __future__ import annotations

import logging
import re
from typing import Any

from slack_bolt import App
from slack_sdk import WebClient

from .blocks import decode_value
from .commands import Deps, Route, route_from_value, run
from .i18n import t
from .outbox import SlackOutbox, ack_now, deliver, outbox_for
from .views import OPEN, PAGE, POST, error_view, notice

logger = logging.getLogger(__name__)


def _action(body: dict[str, Any]) -> dict[str, Any]:
    acts = body.get("actions") or [{}]
    first = acts[0]
    return first if isinstance(first, dict) else {}


def handle_action(body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """A button click: "Post in channel" posts the view; every other button opens one."""
    action = _action(body)
    outbox = outbox_for(body, client, deps)
    posting = action.get("action_id") == POST
    try:
        route = route_from_value(decode_value(action.get("value")))
        if route is None:
            return
        if posting:
            _post_in_channel(route, body, outbox, deps)
        else:
            _open_view(route, body, outbox, deps)
    except Exception:
        logger.exception("post in channel failed" if posting else "button failed")
        outbox.reply(error_view(deps.locale))


def _open_view(route: Route, body: dict[str, Any], outbox: SlackOutbox, deps: Deps) -> None:
    """A pick-list, search, list or digest button: show that view to whoever clicked."""
    out = run(route, deps, user=outbox.user or "", channel=outbox.channel)
    in_private = (body.get("container") or {}).get("is_ephemeral", False)
    if in_private and len(out) == 1 and not out[0].post:
        outbox.reply(out[0].message, replace_original=True)
    else:
        deliver(out, outbox)


def _post_in_channel(route: Route, body: dict[str, Any], outbox: SlackOutbox, deps: Deps) -> None:
    """Post the private reply's view for everyone in the channel."""
    out = run(route, deps, user=outbox.user or "", posting=True, channel=outbox.channel)
    posted = False
    for o in out:
        if o.post:
            posted = bool(outbox.post(o)) or posted
        else:
            outbox.reply(o.message)
    if posted:
        outbox.reply(notice(t(deps.locale, "posted")), replace_original=True)


def register(app: App, deps: Deps) -> None:
    def on_click(body: dict[str, Any], client: WebClient) -> None:
        handle_action(body, client, deps)

    app.action(re.compile(rf"^{OPEN}(:\d+)?$"))(ack=ack_now, lazy=[on_click])
    app.action(re.compile(rf"^{PAGE}:(prev|next)$"))(ack=ack_now, lazy=[on_click])
    app.action(POST)(ack=ack_now, lazy=[on_click])
