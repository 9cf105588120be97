"""Clicking App Home's "Workspace settings" button over the wire, as Slack sends it."""

from __future__ import annotations

import json
import time
from typing import Any

from handlers.views.settings import SETTINGS
from support.signed import action_body, post_signed
from support.slackbot import SECRET, Bot


def where(team: str, org: str | None = None) -> dict[str, Any]:
    """The fields of an interaction that say where it comes from: `team`, and with `org`
    an org-wide install's enterprise."""
    fields: dict[str, Any] = {"team": {"id": team, "domain": team.lower()}}
    if org is not None:
        fields["team"]["enterprise_id"] = org
        fields |= {"enterprise": {"id": org, "name": "Org"}, "is_enterprise_install": True}
    return fields


def click_settings(bot: Bot, user: str, team: str, org: str | None = None) -> dict[str, Any]:
    """`user` of `team` clicks the Home tab's settings button: the modal (or the notice)
    the bot opened."""
    before = len(bot.fake.calls("views.open"))
    payload = {
        "type": "block_actions",
        **where(team, org),
        "user": {"id": user, "username": user, "name": user, "team_id": team},
        "api_app_id": "A1",
        "token": "verification-token",
        "container": {"type": "view", "view_id": "VHOME"},
        "trigger_id": bot.fake.trigger_id(),
        "view": {"id": "VHOME", "type": "home", "team_id": team},
        "actions": [
            {
                "action_id": SETTINGS,
                "block_id": "b",
                "value": "{}",
                "type": "button",
                "action_ts": str(time.time()),
            }
        ],
    }
    status, _h, _b = post_signed(bot.events_url, action_body(payload), SECRET)
    assert status == 200
    bot.idle()
    call = bot.fake.wait_for("views.open", count=before + 1)[before]
    assert call.ok, call.error
    view = call.json_param("view")
    assert isinstance(view, dict)
    return view


def submit_settings(
    bot: Bot,
    user: str,
    team: str,
    values: dict[str, Any],
    org: str | None = None,
    modal: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """`user` of `team` saves the settings modal with these `values` (its state, as
    Slack sends it); with `modal`, the modal opened earlier (its callback id, private
    metadata and blocks). What the bot answered the submission with ({} when nothing)."""
    shown = modal or {}
    payload = {
        "type": "view_submission",
        **where(team, org),
        "user": {"id": user, "username": user, "name": user, "team_id": team},
        "api_app_id": "A1",
        "token": "verification-token",
        "trigger_id": bot.fake.trigger_id(),
        "view": {
            "id": "VSET",
            "team_id": team,
            "type": "modal",
            "callback_id": shown.get("callback_id", SETTINGS),
            "private_metadata": shown.get("private_metadata", ""),
            "hash": "h1",
            "blocks": shown.get("blocks", []),
            "state": {"values": values},
        },
        "response_urls": [],
    }
    status, _h, body = post_signed(bot.events_url, action_body(payload), SECRET)
    assert status == 200
    bot.idle()
    answer: dict[str, Any] = json.loads(body) if body.strip() else {}
    return answer
