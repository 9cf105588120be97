"""Slack's published specifications (``slack-spec/``, see its README): the Web API's
methods with their required arguments, and the app manifest's schema."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
SPEC_DIR = Path(__file__).resolve().parent / "slack-spec"
WEB_API_SPEC = SPEC_DIR / "slack_web_openapi_v2_trimmed.json"
MANIFEST_SCHEMA = SPEC_DIR / "manifest.schema.1.0.0.json"

# Methods newer than the 2020 spec, with their required arguments (besides the token).
NEWER_THAN_SPEC: dict[str, frozenset[str]] = {
    "apps.connections.open": frozenset(),
    "auth.teams.list": frozenset(),  # the workspaces an org-wide install was granted
}
APP_TOKEN_METHODS = frozenset({"apps.connections.open"})
# Called with the app's client id and secret instead of a token; the 2020 spec requires
# `code` of oauth.v2.access, which today's takes only for a code (not to refresh a token).
CLIENT_METHODS = frozenset({"oauth.v2.access"})

# The bot scope each method needs beyond what every token has, as Slack documents them
# today (the 2020 spec names the old scopes): a call without it is `missing_scope`.
METHOD_SCOPES: dict[str, frozenset[str]] = {
    "chat.postMessage": frozenset({"chat:write"}),
    "chat.postEphemeral": frozenset({"chat:write"}),
    "chat.update": frozenset({"chat:write"}),
    "conversations.open": frozenset({"im:write"}),
    "reactions.add": frozenset({"reactions:write"}),
    "reactions.remove": frozenset({"reactions:write"}),
    "users.info": frozenset({"users:read"}),
    "users.lookupByEmail": frozenset({"users:read.email"}),
    "usergroups.users.list": frozenset({"usergroups:read"}),
    "files.info": frozenset({"files:read"}),
    "conversations.history": frozenset(),  # channels:history or groups:history or im:history
}


@functools.cache
def web_api_spec() -> dict[str, frozenset[str]]:
    """Method name -> its required arguments (besides the token), from Slack's spec."""
    spec = json.loads(WEB_API_SPEC.read_text("utf-8"))
    methods: dict[str, frozenset[str]] = {}
    for name, operations in spec["paths"].items():
        required = {
            str(param["name"])
            for operation in operations.values()
            for param in operation.get("parameters", [])
            if param.get("required") and param["name"] != "token"
        }
        methods[name.lstrip("/")] = frozenset(required)
    return methods | NEWER_THAN_SPEC | {m: frozenset() for m in CLIENT_METHODS}


@functools.cache
def manifest_scopes() -> tuple[str, ...]:
    """The bot scopes manifest.yml asks for: what a real token would be granted."""
    manifest = yaml.safe_load((ROOT / "manifest.yml").read_text("utf-8"))
    return tuple(manifest["oauth_config"]["scopes"]["bot"])
