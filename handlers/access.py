"""Who may see candidate data, and where: enforced once, as a Bolt middleware.

Commands, button clicks and events all pass through it before any listener:
- a request from another workspace than the token's is refused;
- with DEBRIEF_ALLOWED_USERS set, only those users (or members of those user
  groups, `S…`) get answers, and only their thread replies are recorded;
- with DEBRIEF_ALLOWED_CHANNELS set, candidate data is shown or posted only there.
A refusal is short, polite and carries no candidate data.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from slack_bolt import App, BoltContext, BoltResponse
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.webhook import WebhookClient

from .audit import AuditEvent, record
from .commands import Deps
from .i18n import t
from .views import notice

logger = logging.getLogger(__name__)

GROUP_TTL_S = 300.0


class Policy:
    def __init__(self, allowed_users: list[str], allowed_channels: list[str]) -> None:
        self.users = {u for u in allowed_users if not u.startswith("S")}
        self.groups = {u for u in allowed_users if u.startswith("S")}
        self.channels = set(allowed_channels)
        self._members: dict[str, tuple[float, set[str]]] = {}
        self._lock = threading.Lock()

    @property
    def open_to_all(self) -> bool:
        return not (self.users or self.groups)

    def _group_members(self, group: str, client: WebClient) -> set[str]:
        with self._lock:
            cached = self._members.get(group)
            if cached and time.monotonic() - cached[0] < GROUP_TTL_S:
                return cached[1]
        try:
            response = client.usergroups_users_list(usergroup=group)
            members = set(response.get("users") or [])
        except SlackApiError as exc:
            logger.warning(
                "cannot read user group %s: %s", group, (exc.response or {}).get("error")
            )
            members = set()
        with self._lock:
            self._members[group] = (time.monotonic(), members)
        return members

    def user_allowed(self, user: str | None, client: WebClient) -> bool:
        if self.open_to_all:
            return True
        if not user:
            return False
        if user in self.users:
            return True
        return any(user in self._group_members(g, client) for g in sorted(self.groups))

    def channel_allowed(self, channel: str | None) -> bool:
        return not self.channels or (channel is not None and channel in self.channels)


def _refuse_command(text: str) -> BoltResponse:
    body = json.dumps({"response_type": "ephemeral", "text": text}, ensure_ascii=False)
    return BoltResponse(status=200, body=body, headers={"content-type": "application/json"})


@dataclass(frozen=True)
class Refusal:
    reason: str  # the i18n key of what the user is told
    event: AuditEvent


def check(
    body: dict[str, Any], context: BoltContext, client: WebClient, policy: Policy
) -> Refusal | None:
    """None when the request may go on to the listeners; else why not, for the user and the audit."""
    kind = body.get("type") or ("command" if body.get("command") else None)
    if kind in {"url_verification", "ssl_check"} or (kind is None and "challenge" in body):
        return None
    own_team = context.authorize_result.team_id if context.authorize_result else None
    team = context.team_id
    reason: str | None = None
    if own_team and team and team != own_team:
        reason = "refused"
        logger.warning("refused a request from another workspace (%s)", team)
    elif not policy.user_allowed(context.user_id, client):
        reason = "refused"
    elif not policy.channel_allowed(context.channel_id):
        reason = "refused_channel"
    if reason is None:
        return None
    event = AuditEvent(
        context.user_id or "?", f"refused:{kind or 'request'}", None, context.channel_id
    )
    return Refusal(reason, event)


def guard(
    body: dict[str, Any],
    context: BoltContext,
    client: WebClient,
    next: Callable[[], BoltResponse],
    deps: Deps,
    policy: Policy,
) -> BoltResponse | None:
    """Let the request through to the listeners, or refuse it politely (and note who was refused)."""
    refusal = check(body, context, client, policy)
    if refusal is None:
        return next()
    record(deps.store, [refusal.event])
    text = t(deps.locale, refusal.reason)
    if body.get("command"):
        return _refuse_command(text)
    url = body.get("response_url")
    if body.get("type") == "block_actions" and url:
        try:
            WebhookClient(url).send_dict(notice(text).payload())
        except Exception:
            logger.exception("could not send a refusal")
    return BoltResponse(status=200, body="")


def register(app: App, deps: Deps, policy: Policy) -> None:
    @app.middleware
    def access_guard(
        body: dict[str, Any],
        context: BoltContext,
        client: WebClient,
        next: Callable[[], BoltResponse],
    ) -> BoltResponse | None:
        return guard(body, context, client, next, deps, policy)
