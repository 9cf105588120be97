"""A workspace's own settings (installed in many workspaces): the Home tab's button
opens them for the workspace's admins and owners; saving keeps them for that workspace
alone. Who is an admin is asked of Slack each time, after the acknowledgement: when the
button is clicked, and again before a submission is kept (someone no longer an admin
keeps nothing). What a submission says is checked before it is acknowledged, and each
mistake is shown under its field.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from ..audit import AuditEvent, record
from ..deps import deps_of
from ..i18n import t
from ..people import is_workspace_admin
from ..views_home import HOME_SETTINGS
from ..views_settings import SETTINGS, merged, notice_modal, parse_settings, settings_modal
from ..views_webhook import WebhookChange, parse_webhook, with_webhook
from .home import publish_home

logger = logging.getLogger("handlers.settings")


def on_open(ack: Ack, body: dict[str, Any], client: WebClient, context: BoltContext) -> None:
    ack()
    deps = deps_of(context)
    user = str((body.get("user") or {}).get("id") or "")
    if deps.defaults is None:
        return  # one workspace: the environment sets everything
    if not user or not is_workspace_admin(client, user):
        view = notice_modal(t(deps.locale, "settings_not_admin"), deps.locale)
    else:
        now = merged(deps.store.workspace_settings(deps.store.ws), deps.defaults)
        view = settings_modal(now, deps.locale)
    client.views_open(trigger_id=body["trigger_id"], view=view)


def _webhook(view: dict[str, Any], context: BoltContext) -> tuple[WebhookChange, dict[str, str]]:
    """The submission's webhook (issue 34), over the secret the workspace saved."""
    deps = deps_of(context)
    own = deps.store.workspace_settings(deps.store.ws)
    return parse_webhook(view, bool(own.webhook_secret_enc), deps.locale)


def on_submit_ack(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
    deps = deps_of(context)
    _values, errors = parse_settings(body.get("view") or {}, deps.locale)
    if deps.seal is not None:
        errors = errors | _webhook(body.get("view") or {}, context)[1]
    if errors:
        ack(response_action="errors", errors=errors)
    else:
        ack()


def on_submit(body: dict[str, Any], client: WebClient, context: BoltContext) -> None:
    deps = deps_of(context)
    values, errors = parse_settings(body.get("view") or {}, deps.locale)
    user = str((body.get("user") or {}).get("id") or "")
    if values is None or errors or deps.defaults is None:
        return
    if not user or not is_workspace_admin(client, user):
        logger.warning("kept nothing of a settings submission by someone not an admin")
        record(deps.store, [AuditEvent(user or "?", "refused:settings")])
        return
    if deps.seal is not None:
        change, hook_errors = _webhook(body.get("view") or {}, context)
        if hook_errors:
            return
        own = deps.store.workspace_settings(deps.store.ws)
        values = with_webhook(values, own, change, deps.seal)
    version = deps.store.save_workspace_settings(deps.store.ws, values, user)
    record(deps.store, [AuditEvent(user, "settings")])
    logger.info("a workspace's settings saved (version %d)", version)
    publish_home(user, deps_of(context), client)


def register(app: App) -> None:
    app.action(HOME_SETTINGS)(on_open)
    app.view(SETTINGS)(ack=on_submit_ack, lazy=[on_submit])
