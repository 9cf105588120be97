"""A file shared in a channel the bot is in, or sent to it in a DM: taken as a
transcript (handlers/uploads.py), and as a reply when shared in one of the bot's threads."""

from __future__ import annotations

from typing import Any

from slack_bolt import App, BoltContext
from slack_sdk import WebClient

from ..deps import deps_of
from ..uploads import handle_file_share
from . import threads


def on_file_share(
    event: dict[str, Any], body: dict[str, Any], client: WebClient, context: BoltContext
) -> None:
    deps = deps_of(context)
    if event.get("thread_ts") and event.get("thread_ts") != event.get("ts"):
        handled = threads.read_message_event(event, deps, context.bot_user_id)
        threads.finish_message_event(handled, deps, client)
    own_team = context.authorize_result.team_id if context.authorize_result else None
    shared = bool(body.get("is_ext_shared_channel"))  # Slack Connect, as the event says
    handle_file_share(event, deps, client, own_team or context.team_id, shared)


def register(app: App) -> None:
    """Before threads.register: the first listener that matches a message handles it, so
    this one also records a file shared as a reply in one of the bot's threads."""
    app.event({"type": "message", "subtype": "file_share"})(on_file_share)
