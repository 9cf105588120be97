"""manifest.yml is a valid Slack app manifest that asks for what the bot uses, no more."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from support.spec import MANIFEST_SCHEMA

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def manifest() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "manifest.yml").read_text("utf-8"))
    assert isinstance(data, dict)
    return data


def schema_errors(manifest: dict[str, Any]) -> list[str]:
    schema = json.loads(MANIFEST_SCHEMA.read_text("utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(manifest), key=str)
    return [f"{list(e.path)}: {e.message}" for e in errors]


def test_manifest_matches_slacks_schema(manifest: dict[str, Any]) -> None:
    errors = schema_errors(manifest)
    assert not errors, "\n".join(errors)


def test_the_http_mode_manifest_is_the_same_app_with_request_urls(
    manifest: dict[str, Any],
) -> None:
    http = yaml.safe_load((ROOT / "manifest.http.yml").read_text("utf-8"))
    errors = schema_errors(http)
    assert not errors, "\n".join(errors)
    url = "https://debrief.example.com/slack/events"
    [command] = http["features"]["slash_commands"]
    assert command.pop("url") == url
    assert http["settings"]["event_subscriptions"].pop("request_url") == url
    assert http["settings"]["interactivity"].pop("request_url") == url
    assert http["settings"]["socket_mode_enabled"] is False
    http["settings"]["socket_mode_enabled"] = True
    assert http == manifest  # apart from those: the same scopes, events, command, texts


def test_the_bot_asks_for_what_it_uses(manifest: dict[str, Any]) -> None:
    [command] = manifest["features"]["slash_commands"]
    assert command["command"] == "/candidate" and command["description"] and command["usage_hint"]
    assert sorted(manifest["oauth_config"]["scopes"]["bot"]) == sorted(
        [
            "commands",
            "chat:write",
            "reactions:write",
            "channels:history",
            "groups:history",
            "usergroups:read",
            "users:read",
            "files:read",
            "im:history",
            "channels:read",
            "groups:read",
            "im:write",  # DMs to reviewers asked for their decision, and reminders
        ]
    )
    # a typed `@name` reaches the bot as `<@U…|name>`: how 邀请 knows whom it asks
    assert command["should_escape"] is True
    settings = manifest["settings"]
    assert settings["event_subscriptions"]["bot_events"] == [
        "message.channels",
        "message.groups",
        "message.im",
        "app_home_opened",
    ]
    assert manifest["features"]["app_home"]["home_tab_enabled"] is True
    assert settings["interactivity"]["is_enabled"] is True
    assert settings["socket_mode_enabled"] is True
