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

import logging
from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from store.workspace_models import WorkspaceSettings

from ..acked import request_key
from ..audit import AuditEvent, record
from ..blocks import Message
from ..deps import deps_of
from ..i18n import Locale, t
from ..people import is_workspace_admin
from ..sending.outbox import direct_message
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
from ..views.zoom import parse_zoom, with_zoom, without_token, zoom_changed
from .home import publish_home

logger = logging.getLogger("handlers.settings")


def on_open(ack: Ack, body: dict[str, Any], client: WebClient, context: BoltContext) -> None:
    ack()
    deps = deps_of(context)
    user = str((body.get("user") or {}).get("id") or "")
    if deps.defaults is None or deps.own is None:
        return  # one workspace: the environment sets everything
    if not user or not is_workspace_admin(client, user, deps.org_wide):
        words = "settings_not_org_admin" if deps.org_wide else "settings_not_admin"
        view = notice_modal(t(deps.locale, words), deps.locale)
    else:
        view = settings_modal(merged(deps.own, deps.defaults), deps.locale)
    client.views_open(trigger_id=body["trigger_id"], view=view)


def _webhook(
    view: dict[str, Any], own: WorkspaceSettings, locale: Locale
) -> tuple[WebhookChange, dict[str, str]]:
    """The submission's webhook (issue 34), over the secret the workspace saved (`own`)."""
    return parse_webhook(view, bool(own.webhook_secret_enc), locale)


def _stale(view: dict[str, Any], saved: int) -> bool:
    """Whether a submitted modal was opened before the save that made version `saved`
    (one that does not say when it was opened is checked when kept, over what it reads)."""
    opened = opened_at(view)
    return opened is not None and opened != saved


def on_submit_ack(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
    deps = deps_of(context)
    view = body.get("view") or {}
    errors: dict[str, str] = {}
    own = deps.own  # read with this request (handlers/deps.py): not read again here
    if own is not None and _stale(view, own.version):  # under the first field, left open
        errors = {USERS: t(deps.locale, "settings_stale")}
    if not errors:
        values, errors = parse_settings(view, deps.locale)
        if deps.seal is not None and own is not None:
            allowed = (values.allowed_channels or []) if values is not None else []
            errors = errors | _webhook(view, own, deps.locale)[1]
            errors = errors | parse_zoom(view, own, allowed, deps.locale)[1]
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
    own = deps.own  # what this save goes over: the read the acknowledgement checked
    if values is None or errors or deps.defaults is None or own is None:
        return
    if not user or not is_workspace_admin(client, user, deps.org_wide):
        logger.warning("kept nothing of a settings submission by someone not an admin")
        record(deps.store, [AuditEvent(user or "?", "refused:settings")])
        return
    view = body.get("view") or {}
    opened = opened_at(view)
    over = own.version if opened is None else opened
    if deps.seal is not None:
        change, hook_errors = _webhook(view, own, deps.locale)
        if hook_errors:
            return
        values = with_webhook(values, own, change, deps.seal)  # the secret of `own`
        zoom, zoom_errors = parse_zoom(view, own, values.allowed_channels or [], deps.locale)
        if zoom_errors:
            return
        values = with_zoom(values, own, zoom, deps.seal)  # its secrets likewise (issue 48)
    version = None
    if own.version == over:
        version = deps.store.save_workspace_settings(deps.store.ws, values, user, over)
    if version is None:
        logger.info("kept nothing of a settings save over version %d: another came first", over)
        stale = Message(text=t(deps.locale, "settings_stale"))  # their modal is closed
        direct_message(client, user, stale, "tell an admin their save was not kept")
        return
    events = [AuditEvent(user, "settings")]
    if zoom_changed(own, values):  # its secrets are never shown: say who changed them
        events.append(AuditEvent(user, "settings:zoom"))
    record(deps.store, events)
    logger.info("a workspace's settings saved (version %d)", version)
    if without_token(values) and zoom_changed(own, values):
        note = Message(text=t(deps.locale, "settings_zoom_no_token"))
        direct_message(client, user, note, "tell an admin their Zoom account has no webhook")
    publish_home(user, deps_of(context), client)


def register(app: App) -> None:
    app.action(HOME_SETTINGS)(on_open)
    app.view(SETTINGS)(ack=on_submit_ack, lazy=[on_submit])
