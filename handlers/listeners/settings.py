"""A workspace's own settings (installed in many workspaces): the Home tab's button
opens them for the workspace's admins and owners (an org-wide install's: the
organisation's admins and owners alone, for they are the whole organisation's); saving
keeps them for that workspace alone. Who is an admin is asked of Slack each time, after
the acknowledgement: when the button is clicked, and again before a submission is kept
(someone no longer an admin keeps nothing). What a submission says is checked before it
is acknowledged, and each mistake is shown under its field.

A save is kept only over the version its modal was opened at (issue 34): another admin
who saved meanwhile is never silently undone. Seen before the acknowledgement, the
modal says so above its first field; found after it (the other save landed while this
one was being kept: the store's compare-and-set), the admin is told in a message.
"""

from __future__ import annotations

import http.client
import logging
from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from ..acked import request_key
from ..audit import AuditEvent, record
from ..deps import deps_of
from ..i18n import t
from ..people import is_workspace_admin
from ..views.home import HOME_SETTINGS
from ..views.settings import (
    SETTINGS,
    USERS,
    merged,
    notice_modal,
    opened_at,
    parse_settings,
    settings_modal,
)
from ..views.webhook import WebhookChange, parse_webhook, with_webhook
from .home import publish_home

logger = logging.getLogger("handlers.settings")


def on_open(ack: Ack, body: dict[str, Any], client: WebClient, context: BoltContext) -> None:
    ack()
    deps = deps_of(context)
    user = str((body.get("user") or {}).get("id") or "")
    if deps.defaults is None:
        return  # one workspace: the environment sets everything
    if not user or not is_workspace_admin(client, user, deps.org_wide):
        words = "settings_not_org_admin" if deps.org_wide else "settings_not_admin"
        view = notice_modal(t(deps.locale, words), deps.locale)
    else:
        now = merged(deps.store.workspace_settings(deps.store.ws), deps.defaults)
        view = settings_modal(now, deps.locale)
    client.views_open(trigger_id=body["trigger_id"], view=view)


def _webhook(view: dict[str, Any], context: BoltContext) -> tuple[WebhookChange, dict[str, str]]:
    """The submission's webhook (issue 34), over the secret the workspace saved."""
    deps = deps_of(context)
    own = deps.store.workspace_settings(deps.store.ws)
    return parse_webhook(view, bool(own.webhook_secret_enc), deps.locale)


def _stale(view: dict[str, Any], saved: int) -> bool:
    """Whether a submitted modal was opened before the save that made version `saved`
    (one that does not say when it was opened is checked when kept, over what it reads)."""
    opened = opened_at(view)
    return opened is not None and opened != saved


def on_submit_ack(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
    deps = deps_of(context)
    view = body.get("view") or {}
    errors: dict[str, str] = {}
    if deps.defaults is not None:
        saved = deps.store.workspace_settings(deps.store.ws).version
        if _stale(view, saved):  # said under the first field, the modal left open
            errors = {USERS: t(deps.locale, "settings_stale")}
    if not errors:
        errors = parse_settings(view, deps.locale)[1]
        if deps.seal is not None:
            errors = errors | _webhook(view, context)[1]
    deps.acked.said(request_key(body), not errors)  # before the lazy listener goes on
    if errors:
        ack(response_action="errors", errors=errors)
    else:
        ack()


def on_submit(body: dict[str, Any], client: WebClient, context: BoltContext) -> None:
    deps = deps_of(context)
    if not deps.acked.wait(request_key(body)):
        return  # refused when acknowledged (said in the modal), or not acknowledged
    values, errors = parse_settings(body.get("view") or {}, deps.locale)
    user = str((body.get("user") or {}).get("id") or "")
    if values is None or errors or deps.defaults is None:
        return
    if not user or not is_workspace_admin(client, user, deps.org_wide):
        logger.warning("kept nothing of a settings submission by someone not an admin")
        record(deps.store, [AuditEvent(user or "?", "refused:settings")])
        return
    view = body.get("view") or {}
    own = deps.store.workspace_settings(deps.store.ws)  # what this save goes over
    opened = opened_at(view)
    over = own.version if opened is None else opened
    if deps.seal is not None:
        change, hook_errors = _webhook(view, context)
        if hook_errors:
            return
        values = with_webhook(values, own, change, deps.seal)  # the secret of `own`
    version = None
    if own.version == over:
        version = deps.store.save_workspace_settings(deps.store.ws, values, user, over)
    if version is None:
        logger.info("kept nothing of a settings save over version %d: another came first", over)
        _tell(client, user, t(deps.locale, "settings_stale"))
        return
    record(deps.store, [AuditEvent(user, "settings")])
    logger.info("a workspace's settings saved (version %d)", version)
    publish_home(user, deps_of(context), client)


def _tell(client: WebClient, user: str, text: str) -> None:
    """One sentence to `user`, in the bot's DM with them (their modal is closed)."""
    try:
        opened = client.conversations_open(users=user)
        channel = str((opened.get("channel") or {}).get("id") or "")
        client.chat_postMessage(channel=channel, text=text)
    except SlackApiError as exc:
        error = exc.response.get("error")
        logger.warning("could not tell an admin their save was not kept (%s)", error)
    except (OSError, http.client.HTTPException) as exc:
        logger.warning("could not tell an admin their save was not kept (%s)", type(exc).__name__)


def register(app: App) -> None:
    app.action(HOME_SETTINGS)(on_open)
    app.view(SETTINGS)(ack=on_submit_ack, lazy=[on_submit])
