"""Requests exactly as Slack sends them: the bodies of slash commands, events and
interactions, signed v0 (HMAC-SHA256 over ``v0:{timestamp}:{raw body}``), and
``post_signed`` to send one."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urlencode

from .servers import CONTENT_TYPE_FORM, CONTENT_TYPE_JSON
from .workspace import APP_ID, BOT_USER_ID, TEAM_ID


def sign(body: bytes, secret: str, timestamp: int | None = None) -> dict[str, str]:
    """Slack v0 signature headers for ``body`` (exact raw bytes that will be sent)."""
    ts = int(time.time()) if timestamp is None else int(timestamp)
    base = b"v0:" + str(ts).encode("ascii") + b":" + body
    digest = hmac.new(secret.encode("utf-8"), base, hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": str(ts), "X-Slack-Signature": f"v0={digest}"}


def command_payload(
    text: str,
    command: str = "/candidate",
    user_id: str = "U123",
    channel_id: str = "C123",
    team_id: str = TEAM_ID,
    response_url: str = "https://hooks.slack.com/commands/T0001/1/xyz",
    trigger_id: str | None = None,
    *,
    user_name: str = "tester",
    channel_name: str = "general",
    team_domain: str = "test",
    api_app_id: str = APP_ID,
) -> dict[str, str]:
    """The fields Slack sends for a slash command (also the Socket Mode payload)."""
    return {
        "token": "verification-token",
        "team_id": team_id,
        "team_domain": team_domain,
        "channel_id": channel_id,
        "channel_name": channel_name,
        "user_id": user_id,
        "user_name": user_name,
        "command": command,
        "text": text,
        "api_app_id": api_app_id,
        "is_enterprise_install": "false",
        "response_url": response_url,
        "trigger_id": trigger_id
        or f"{int(time.time())}.{uuid.uuid4().int % 10**12}.{uuid.uuid4().hex}",
    }


def command_body(
    text: str,
    command: str = "/candidate",
    user_id: str = "U123",
    channel_id: str = "C123",
    team_id: str = TEAM_ID,
    response_url: str = "https://hooks.slack.com/commands/T0001/1/xyz",
    trigger_id: str | None = None,
    **extra: str,
) -> bytes:
    """Form-encoded slash command body (``Content-Type: application/x-www-form-urlencoded``)."""
    payload = command_payload(
        text, command, user_id, channel_id, team_id, response_url, trigger_id, **extra
    )
    return urlencode(payload).encode("utf-8")


def event_payload(
    event: Mapping[str, Any],
    team_id: str = TEAM_ID,
    event_id: str | None = None,
    api_app_id: str = APP_ID,
) -> dict[str, Any]:
    """An ``event_callback`` envelope (HTTP body / Socket Mode ``events_api`` payload)."""
    now = int(time.time())
    return {
        "token": "verification-token",
        "team_id": team_id,
        "api_app_id": api_app_id,
        "event": dict(event),
        "type": "event_callback",
        "event_id": event_id or f"Ev{uuid.uuid4().hex[:10].upper()}",
        "event_time": now,
        "authorizations": [
            {
                "enterprise_id": None,
                "team_id": team_id,
                "user_id": BOT_USER_ID,
                "is_bot": True,
                "is_enterprise_install": False,
            }
        ],
        "is_ext_shared_channel": False,
        "event_context": f"4-{uuid.uuid4().hex}",
    }


def event_body(
    event: Mapping[str, Any],
    team_id: str = TEAM_ID,
    event_id: str | None = None,
    api_app_id: str = APP_ID,
) -> bytes:
    """JSON ``event_callback`` body (``Content-Type: application/json``)."""
    return json.dumps(event_payload(event, team_id, event_id, api_app_id)).encode("utf-8")


def url_verification_body(challenge: str = "challenge-token") -> bytes:
    return json.dumps(
        {"token": "verification-token", "challenge": challenge, "type": "url_verification"}
    ).encode()


def block_actions_payload(
    user: str,
    container: dict[str, Any],
    actions: list[dict[str, Any]],
    *,
    username: str = "alice",
    user_team: str = TEAM_ID,
    **fields: Any,
) -> dict[str, Any]:
    """A `block_actions` interaction as Slack sends it: `user` (of team `user_team`)
    acted on `actions` in `container`; `fields` adds the rest (channel, view,
    response_url, trigger_id, message)."""
    return {
        "type": "block_actions",
        "team": {"id": TEAM_ID, "domain": "test"},
        "user": {"id": user, "username": username, "name": username, "team_id": user_team},
        "api_app_id": "A1",
        "token": "verification-token",
        "container": container,
        "actions": actions,
        **fields,
    }


def action_body(payload: Mapping[str, Any]) -> bytes:
    """Interactivity body: form-encoded ``payload=<json>``."""
    return urlencode({"payload": json.dumps(payload)}).encode("utf-8")


def post_signed(
    url: str,
    body: bytes,
    secret: str,
    content_type: str | None = None,
    extra_headers: Mapping[str, str] | None = None,
    timestamp: int | None = None,
    timeout: float = 10.0,
) -> tuple[int, dict[str, str], bytes]:
    """POST ``body`` signed as Slack would; returns ``(status, headers, body)`` even for 4xx/5xx.

    ``content_type`` defaults to JSON when the body starts with ``{``, else form-encoded.
    ``extra_headers`` override the generated ones (e.g. a bad ``X-Slack-Signature``, or
    ``X-Slack-Retry-Num``).
    """
    if content_type is None:
        content_type = CONTENT_TYPE_JSON if body[:1] == b"{" else CONTENT_TYPE_FORM
    headers = {
        "Content-Type": content_type,
        "User-Agent": "Slackbot 1.0 (+https://api.slack.com/robots)",
    }
    headers.update(sign(body, secret, timestamp))
    headers.update(extra_headers or {})
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, _header_dict(response.headers.items()), response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, _header_dict(error.headers.items()), error.read()


def _header_dict(items: Iterable[tuple[str, str]]) -> dict[str, str]:
    return {k.lower(): v for k, v in items}
