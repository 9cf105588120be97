"""Buttons: pick a candidate, open a view, turn a page, post a private reply in the channel."""

from __future__ import annotations

import logging
import re
from typing import Any

from slack_bolt import Ack, App
from slack_sdk import WebClient

from .blocks import decode_value
from .commands import Deps, route_from_value, run
from .i18n import t
from .outbox import deliver
from .slash import outbox_for
from .views import OPEN, PAGE, POST, error_view, notice

logger = logging.getLogger(__name__)


def _value(body: dict[str, Any]) -> dict[str, Any]:
    acts = body.get("actions") or [{}]
    return decode_value(acts[0].get("value"))


def register(app: App, deps: Deps) -> None:
    def ack_now(ack: Ack) -> None:
        ack()

    def open_view(body: dict[str, Any], client: WebClient) -> None:
        """A pick-list, search, list or digest button: show that view to whoever clicked."""
        outbox = outbox_for(body, client, deps)
        try:
            route = route_from_value(_value(body))
            if route is None:
                return
            out = run(route, deps, user=outbox.user or "", channel=outbox.channel)
            in_private = (body.get("container") or {}).get("is_ephemeral", False)
            if in_private and len(out) == 1 and not out[0].post:
                outbox.reply(out[0].message, replace_original=True)
            else:
                deliver(out, outbox)
        except Exception:
            logger.exception("button failed")
            outbox.reply(error_view(deps.locale))

    def post_in_channel(body: dict[str, Any], client: WebClient) -> None:
        """Post the private reply's view for everyone in the channel."""
        outbox = outbox_for(body, client, deps)
        try:
            route = route_from_value(_value(body))
            if route is None:
                return
            out = run(route, deps, user=outbox.user or "", posting=True, channel=outbox.channel)
            posted = False
            for o in out:
                if o.post:
                    posted = bool(outbox.post(o)) or posted
                else:
                    outbox.reply(o.message)
            if posted:
                outbox.reply(notice(t(deps.locale, "posted")), replace_original=True)
        except Exception:
            logger.exception("post in channel failed")
            outbox.reply(error_view(deps.locale))

    app.action(re.compile(rf"^{OPEN}(:\d+)?$"))(ack=ack_now, lazy=[open_view])
    app.action(re.compile(rf"^{PAGE}:(prev|next)$"))(ack=ack_now, lazy=[open_view])
    app.action(POST)(ack=ack_now, lazy=[post_in_channel])
