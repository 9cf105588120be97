"""The events that end an install, and the organisation's workspaces granted or taken
away: the first middleware of an app installed in many workspaces.

Slack sends an event again when it was not acknowledged in 3 seconds, and can deliver it
late: an uninstall may arrive after the workspace installed Debrief again. So an
uninstall event is handled once by its `event_id` (on every replica), changes nothing
when it is older than the installation (its `event_time`), and `tokens_revoked` acts only
when it names this installation's bot user (store/installations.py, `uninstall`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from slack_bolt import BoltResponse
from slack_bolt.context import BoltContext

from store.errors import StoreError

from .oauth_installations import DebriefInstallationStore, workspace_key

logger = logging.getLogger("debrief.oauth")

UNINSTALL_EVENTS = ("app_uninstalled", "tokens_revoked")
GRANT_EVENTS = ("team_access_granted", "team_access_revoked")  # org-wide installs


def _revoked_bots(event: dict[str, Any]) -> list[str]:
    """The bot users whose tokens `tokens_revoked` names (none: only users' tokens)."""
    tokens = event.get("tokens")
    bots = tokens.get("bot") if isinstance(tokens, dict) else None
    return [b for b in bots if isinstance(b, str)] if isinstance(bots, list) else []


def _event_time(body: dict[str, Any]) -> int | None:
    """The event's time (epoch seconds), None when it is not one Slack would send."""
    at = body.get("event_time")
    ok = isinstance(at, int) and not isinstance(at, bool) and 0 < at < 2**34
    return at if ok else None


def uninstall_listener(
    installations: DebriefInstallationStore,
    teams_changed: Callable[[str], None] = lambda key: None,
) -> Callable[[dict[str, Any], BoltContext, Callable[[], BoltResponse]], BoltResponse]:
    """`app_uninstalled`, and `tokens_revoked` naming the installation's bot user, take
    that workspace's token out of the store at once (its data waits out
    DEBRIEF_UNINSTALL_GRACE). These events carry no user, so no access rule may stand in
    their way; Slack gets its 200 only once the store has it (a store that fails gets
    503, and Slack sends the event again). A user's token revoked concerns nothing
    Debrief keeps. An organisation's workspace granted or taken away
    (`team_access_granted`/`revoked`) has its list read again (`teams_changed`, with the
    organisation's id). Every other request goes on."""

    def on_uninstall(
        body: dict[str, Any], context: BoltContext, next: Callable[[], BoltResponse]
    ) -> BoltResponse:
        event = body.get("event") if body.get("type") == "event_callback" else None
        kind = event.get("type") if isinstance(event, dict) else None
        if kind in GRANT_EVENTS:
            key = context.enterprise_id or context.team_id
            if key:
                teams_changed(key)
            return BoltResponse(status=200, body="")
        if not isinstance(event, dict) or kind not in UNINSTALL_EVENTS:
            return next()
        org = bool(context.is_enterprise_install)
        key = workspace_key(context.enterprise_id, context.team_id, org) or workspace_key(
            context.enterprise_id, context.team_id, not org
        )
        bots = None if kind == "app_uninstalled" else _revoked_bots(event)
        if key is None or bots == []:
            return BoltResponse(status=200, body="")
        event_id = body.get("event_id")
        try:
            installations.uninstall(
                key,
                event_id=event_id if isinstance(event_id, str) and event_id else None,
                event_time=_event_time(body),
                bot_users=bots,
            )
        except StoreError:
            logger.exception("could not take the token of an uninstalled workspace out")
            return BoltResponse(status=503, body="")
        return BoltResponse(status=200, body="")

    return on_uninstall
