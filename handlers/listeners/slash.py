"""The `/candidate` listener: acknowledge at once, do the work in a lazy listener."""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import App, BoltContext
from slack_sdk import WebClient

from ..answers import Lookups
from ..asking import carry_out
from ..audit import record
from ..commands import answer, parse_command
from ..deps import Deps, deps_of
from ..people import group_members
from ..sending.outbox import ack_now, sender_for
from ..shared import may_post, refusal_key
from ..views.replies import error_view

logger = logging.getLogger("handlers.slash")

COMMAND = "/candidate"


def on_command(body: dict[str, Any], client: WebClient, context: BoltContext) -> None:
    """Answer `/candidate <text>` (after the ack); a failure is one kind sentence to the user."""
    deps = deps_of(context)
    outbox = sender_for(body, client, deps)
    try:
        route = parse_command(str(body.get("text") or ""))
        result = answer(
            route,
            deps,
            user=outbox.user or "",
            channel=outbox.channel,
            names=lambda ids: deps.names.lookup(client, ids),  # for what is posted (点评)
            lookups=lookups(body, client, deps),  # the reviewers a 邀请 names
        )
        record(deps.store, result.events)
        carry_out(result.outgoing, outbox, deps)
    except Exception:
        logger.exception("/candidate failed")
        try:
            outbox.reply(error_view(deps.locale))
        except Exception:
            logger.exception("could not tell the user about the failure")


def lookups(body: dict[str, Any], client: WebClient, deps: Deps) -> Lookups:
    """What Slack says of the people a command names: in this workspace (the command's
    own, which the access guard checked is the token's), a user group's members."""
    team = str(body.get("team_id") or "")
    channel = str(body.get("channel_id") or "")
    return Lookups(
        belongs=lambda user: deps.names.belongs(client, user, team),
        members=lambda group: group_members(client, group),
        post_refused=lambda: refusal_key(may_post(channel, client, deps)) if channel else None,
    )


def register(app: App) -> None:
    app.command(COMMAND)(ack=ack_now, lazy=[on_command])
