"""manifest.yml is a valid Slack app manifest that asks for what the bot uses, no more;
manifest.http.yml and manifest.distributed.yml are the same app in HTTP mode and for
installs in many workspaces. manifest.zoom.json is the Zoom app's, in the shape of Zoom's
App Manifest, in step with the code: the events bot/zoom.py takes, the path
bot/http_app.py serves them at, the scopes of the requests bot/zoom_api.py makes."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema
import pytest
import yaml
from support.fake_zoom import FakeZoom
from support.spec import MANIFEST_SCHEMA

from bot.http_app import ZOOM_PATH
from bot.zoom_api import Credentials, ZoomApi, download
from bot.zoom_events import EVENTS

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


# -- the Zoom app ---------------------------------------------------------------------------

# What each request Debrief makes of Zoom needs of the app: one of Zoom's granular scopes,
# or none (the token itself is had with the app's credentials; the file store Zoom
# redirects a download to is reached without the token). A request this table does not
# know fails the test below: a new call to Zoom comes with its scope in the manifest.
ZOOM_SCOPE_OF: list[tuple[str, str, str | None]] = [
    ("POST", r"/oauth/token", None),
    ("GET", r"/v2/accounts/[^/]+/recordings", "cloud_recording:read:list_account_recordings:admin"),
    ("GET", r"/v2/users", "user:read:list_users:admin"),
    ("GET", r"/v2/users/[^/]+/recordings", "cloud_recording:read:list_user_recordings:admin"),
    ("GET", r"/rec/download/[^/]+", "cloud_recording:read:recording:admin"),
    ("GET", r"/cdn/[^/]+/[^/]+", None),
]
ZOOM_VTT = b"WEBVTT\n\n1\n00:00:01.000 --> 00:00:04.000\nInterviewer: Hello.\n"


@pytest.fixture
def zoom_manifest() -> dict[str, Any]:
    data = json.loads((ROOT / "manifest.zoom.json").read_text("utf-8"))
    assert isinstance(data, dict)
    return data


def scopes_needed(requests: list[tuple[str, str]]) -> set[str]:
    """The scopes these requests need (ZOOM_SCOPE_OF); a request it does not know fails."""
    needed: set[str] = set()
    for method, path in requests:
        found = [s for m, p, s in ZOOM_SCOPE_OF if m == method and re.fullmatch(p, path)]
        assert len(found) == 1, f"{method} {path}: which scope does it need? (ZOOM_SCOPE_OF)"
        if found[0] is not None:
            needed.add(found[0])
    return needed


def test_the_zoom_manifest_has_the_shape_of_zooms_app_manifest(
    zoom_manifest: dict[str, Any],
) -> None:
    """The sections and fields Zoom's App Manifest documents (developers.zoom.us, Build
    flow → Manifests → Schema), and no others."""
    assert set(zoom_manifest) == {"display_information", "oauth_information", "features"}
    shown = zoom_manifest["display_information"]
    assert set(shown) == {"display_name", "description", "long_description"}
    assert all(isinstance(v, str) and v for v in shown.values())
    oauth = zoom_manifest["oauth_information"]
    assert set(oauth) == {"scopes", "scope_description"}
    for scope in oauth["scopes"]:
        assert set(scope) == {"scope", "optional"} and scope["optional"] is False
    features = zoom_manifest["features"]
    assert set(features) == {"products", "event_subscription"}
    assert features["products"] == ["ZOOM_MEETING"]
    subscription = features["event_subscription"]
    assert set(subscription) == {"enable", "events"} and subscription["enable"] is True
    for events in subscription["events"]:
        assert set(events) == {
            "subscription_name",
            "event_types",
            "development_webhook_url",
            "production_webhook_url",
        }


def test_the_zoom_app_subscribes_to_what_the_webhook_takes_where_it_is_served(
    zoom_manifest: dict[str, Any],
) -> None:
    [events] = zoom_manifest["features"]["event_subscription"]["events"]
    assert events["event_types"] == list(EVENTS)
    for key in ("development_webhook_url", "production_webhook_url"):
        url = urlsplit(events[key])
        assert url.scheme == "https" and url.hostname == "debrief.example.com", key
        assert url.path == ZOOM_PATH, key
    # the host to replace is named, as the Slack manifests name theirs
    described = zoom_manifest["display_information"]["long_description"]
    assert "https://debrief.example.com/zoom/events" in described


def test_the_zoom_app_asks_for_the_scopes_of_the_requests_debrief_makes(
    zoom_manifest: dict[str, Any], zoom: FakeZoom
) -> None:
    """Every request bot/zoom_api.py makes of the fake Zoom, for `zoom sync` (the
    account's list, and each user's where Zoom does not offer it) and for a download
    with the app's own token, needs a scope the manifest lists; and each scope listed is
    needed by one of them."""
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(days=2)
    meeting = zoom.add_meeting(
        topic="二面 Backend", start_time=start, host_email="host@example.com", transcript=ZOOM_VTT
    )
    api = ZoomApi(
        Credentials(zoom.account_id, zoom.client_id, zoom.client_secret),
        zoom.api_url,
        zoom.oauth_url,
    )
    first, last = date.today() - timedelta(days=40), date.today() + timedelta(days=1)
    listed = list(api.meetings(first, last))  # the account's list, over two windows
    zoom.disable_account_recordings()
    listed += list(api.meetings(first, last))  # each user's instead
    assert [m["uuid"] for m in listed] == [meeting.uuid, meeting.uuid]
    url = meeting.transcript_url
    assert url is not None
    assert download(url, api.token(), 1 << 20).data == ZOOM_VTT

    needed = scopes_needed([(r.method, r.path) for r in zoom.requests])
    listed_scopes = [s["scope"] for s in zoom_manifest["oauth_information"]["scopes"]]
    assert len(listed_scopes) == len(set(listed_scopes))
    assert set(listed_scopes) == needed
    # each scope is explained where Zoom shows it
    description = zoom_manifest["oauth_information"]["scope_description"]
    for scope in needed:
        assert scope.split(":")[2] in description, scope
