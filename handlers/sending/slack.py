"""Sending in Slack for a command or a click: the plan's replies and posts through a
`SlackOutbox`, and what follows them (reviewers to ask, status messages to bring up to
date) through handlers/asking.py. One way: the outbox sends and calls back into nothing;
this module, which composes the two, is the only one that knows both."""

from __future__ import annotations

from typing import Any

from slack_sdk import WebClient

from ..asking import ask_reviewers, refresh_status
from ..blocks import Message
from ..deps import Deps
from .outbox import SlackOutbox, is_direct
from .outgoing import Outgoing


class SlackSender:
    """The Outbox `deliver` carries a plan out through, in Slack (handlers/sending/outbox.py)."""

    def __init__(self, outbox: SlackOutbox) -> None:
        self.outbox = outbox

    @property
    def channel(self) -> str | None:
        return self.outbox.channel

    @property
    def user(self) -> str | None:
        return self.outbox.user

    def reply(self, message: Message, replace_original: bool = False) -> None:
        self.outbox.reply(message, replace_original)

    def post(self, outgoing: Outgoing) -> str | None:
        return self.outbox.post(outgoing)

    def ask(self, outgoing: Outgoing) -> None:
        """Ask the reviewers of `outgoing.ask` (handlers/asking.py)."""
        assert outgoing.ask is not None
        ask_reviewers(outgoing.ask, self.outbox, self.outbox.deps)

    def refresh(self, candidate_id: str) -> None:
        """The candidate's request status messages, brought up to date (never raises)."""
        refresh_status(candidate_id, self.outbox.client, self.outbox.deps)


def sender_for(body: dict[str, Any], client: WebClient, deps: Deps) -> SlackSender:
    """What answers a command or a button click: its channel, user, response_url."""
    channel = body.get("channel_id") or (body.get("channel") or {}).get("id")
    user = body.get("user_id") or (body.get("user") or {}).get("id")
    name = body.get("channel_name") or (body.get("channel") or {}).get("name")
    direct = is_direct(channel, name)
    return SlackSender(
        SlackOutbox(client, deps, channel, user, body.get("response_url"), direct=direct)
    )
