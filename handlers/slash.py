"""The `/candidate` listener: acknowledge at once, do the work in a lazy listener."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import Ack, App
from slack_sdk import WebClient

from .commands import Deps, parse_command, run
from .outbox import SlackOutbox, deliver
from .views import error_view

logger = logging.getLogger(__name__)

COMMAND = "/candidate"


def outbox_for(body: dict[str, Any], client: WebClient, deps: Deps) -> SlackOutbox:
    channel = body.get("channel_id") or (body.get("channel") or {}).get("id")
    user = body.get("user_id") or (body.get("user") or {}).get("id")
    return SlackOutbox(client, deps.store, deps.locale, channel, user, body.get("response_url"))


def register(app: App, deps: Deps) -> None:
    def ack_now(ack: Ack) -> None:
        ack()

    def answer(body: dict[str, Any], client: WebClient) -> None:
        outbox = outbox_for(body, client, deps)
        try:
            route = parse_command(str(body.get("text") or ""))
            deliver(run(route, deps, user=outbox.user or "", channel=outbox.channel), outbox)
        except Exception:
            logger.exception("/candidate failed")
            try:
                outbox.reply(error_view(deps.locale))
            except Exception:
                logger.exception("could not tell the user about the failure")

    app.command(COMMAND)(ack=ack_now, lazy=[answer])
