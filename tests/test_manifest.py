"""manifest.yml is a valid Slack app manifest that asks for what the bot uses, no more;
manifest.http.yml and manifest.distributed.yml are the same app in HTTP mode and for
installs in many workspaces."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from support.spec import MANIFEST_SCHEMA

ROOT = Path(__file__).resolve().parent.parent


# What only an app installed through Slack's OAuth flow subscribes to: the events that
# take an uninstalled workspace's token out (bot/oauth.py listens for them).
INSTALL_EVENTS = ["app_uninstalled", "tokens_revoked", "team_access_granted", "team_access_revoked"]


def load(name: str) -> dict[str, Any]:
    data = yaml.safe_load((ROOT / name).read_text("utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.fixture
def manifest() -> dict[str, Any]:
    return load("manifest.yml")


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
    http = load("manifest.http.yml")
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
            "users:read.email",  # a Zoom interview's host, by their e-mail (issue 48)
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


def test_the_distributed_manifest_is_the_http_app_installed_through_oauth() -> None:
    """manifest.distributed.yml: manifest.http.yml's app (the same texts, command,
    shortcuts, scopes, interactivity and events) with what installs in many workspaces
    need, and nothing else."""
    http = load("manifest.http.yml")
    distributed = load("manifest.distributed.yml")
    errors = schema_errors(distributed)
    assert not errors, "\n".join(errors)

    # Slack sends the installer back to `GET /slack/oauth_redirect`, served beside
    # /slack/events on the same host
    assert distributed["oauth_config"].pop("redirect_urls") == [
        "https://debrief.example.com/slack/oauth_redirect"
    ]
    assert distributed["settings"]["org_deploy_enabled"] is True  # org-wide installs (E…)
    assert distributed["settings"]["token_rotation_enabled"] is True  # no going back
    assert distributed["settings"]["socket_mode_enabled"] is False  # request URLs
    events = distributed["settings"]["event_subscriptions"]["bot_events"]
    assert events == http["settings"]["event_subscriptions"]["bot_events"] + INSTALL_EVENTS

    # in step: a scope, command, shortcut or event added to one is added to the other
    assert distributed["oauth_config"]["scopes"] == http["oauth_config"]["scopes"]
    assert distributed["features"].get("slash_commands") == http["features"].get("slash_commands")
    assert distributed["features"].get("shortcuts") == http["features"].get("shortcuts")
    assert distributed["settings"]["interactivity"] == http["settings"]["interactivity"]
    del events[-len(INSTALL_EVENTS) :]
    for setting in ("org_deploy_enabled", "token_rotation_enabled"):
        distributed["settings"][setting] = http["settings"][setting]
    assert distributed == http  # apart from those: the same app, word for word


def test_only_the_distributed_app_subscribes_to_uninstalls(manifest: dict[str, Any]) -> None:
    """A single-workspace app (manifest.yml, manifest.http.yml) has no installs to take
    out, so it is not sent the events that would; and its SLACK_BOT_TOKEN must never
    expire (token rotation, once on, cannot be turned off)."""
    for single in (manifest, load("manifest.http.yml")):
        events = single["settings"]["event_subscriptions"]["bot_events"]
        assert not set(events) & set(INSTALL_EVENTS)
        assert "redirect_urls" not in single["oauth_config"]
        assert single["settings"]["token_rotation_enabled"] is False
