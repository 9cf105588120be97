"""doctor's checks of Slack: the bot token (or, installed in many workspaces, the OAuth
settings and the key of the stored tokens), the scopes, the channels, who may decide, the
app-level token, the signing secret, the mode `serve` would run in.

A token of another workspace is told two ways: the workspace the bot token belongs to
(`auth.test`) is not the one this database has served (`serve` records it the first
time it starts); the app-level token belongs to another app than the bot token (the
`app_id` Slack puts in the Socket Mode URL, against `bots.info`), when Slack says.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from handlers.shared import sharing_of
from store.errors import StoreError
from store.factory import open_store

from .doctor_check import Check, Checks, api_error
from .settings import SettingsError

REQUIRED_SCOPES = (
    "commands",
    "chat:write",
    "reactions:write",
    "channels:history",
    "groups:history",
    "usergroups:read",
    "files:read",
    "im:history",
    "channels:read",
    "groups:read",
    "users:read",
    "users:read.email",
    "im:write",
)
"""The bot scopes manifest.yml asks for (a test keeps the two in step)."""
OPTIONAL_SCOPES = frozenset({"users:read.email"})
"""Of those, the ones without which Debrief says less but works: a Zoom interview's host
is named by their e-mail instead of as Slack names them (issue 48)."""

# What Slack answers for a token that no longer works: revoked, the app uninstalled,
# the user who installed it deactivated, a typo.
REVOKED = frozenset(
    {"invalid_auth", "token_revoked", "token_expired", "account_inactive", "not_authed"}
)
SIGNING_SECRET_RE = re.compile(r"[0-9a-f]{32}")  # what Slack hands out: 32 hex digits


class SlackChecks(Checks):
    """Slack's part of doctor."""

    def bot_token(self) -> Iterator[Check]:
        token, name = self.settings.bot_token, "slack token"
        if not token or self.client is None:
            yield self.check(name, "fail", "doctor_bot_unset")
            return
        if token.startswith("xapp-"):
            yield self.check(name, "fail", "doctor_bot_is_app_token")
            return
        if not token.startswith("xoxb-"):
            yield self.check(name, "fail", "doctor_bot_not_bot")
            return
        try:
            auth = self.client.auth_test()
        except SlackApiError as exc:
            error = api_error(exc)
            key = "doctor_bot_revoked" if error in REVOKED else "doctor_bot_refused"
            yield self.check(name, "fail", key, error=error)
            return
        except (SlackClientError, OSError) as exc:
            yield self.check(name, "fail", "doctor_unreachable", url=self.settings.api_url, exc=exc)
            return
        self.auth = dict(auth.data) if isinstance(auth.data, dict) else {}
        yield self.check(
            name,
            "ok",
            "doctor_bot_ok",
            user=auth.get("user_id"),
            team=auth.get("team"),
            team_id=auth.get("team_id"),
        )
        yield self.scopes(auth.headers or {})
        channels = ([self.settings.digest_channel] if self.settings.digest_channel else []) + [
            c for c in self.settings.allowed_channels if c != self.settings.digest_channel
        ]
        for channel in channels:
            yield self.membership(channel, channel == self.settings.digest_channel)

    def installs(self) -> Iterator[Check]:
        """Installed in many workspaces: the app's OAuth settings are all there, and
        DEBRIEF_TOKEN_KEY decrypts every stored token (a key changed without keeping the
        old one after it would leave each workspace to install Debrief again)."""
        try:
            self.settings.require_oauth()
        except SettingsError as exc:
            yield Check(name="install", status="fail", detail=exc.said(self.locale))
            return
        yield self.check("install", "ok", "doctor_install_ok")
        assert self.settings.token_key is not None
        try:
            store = open_store(self.settings.db_path, create=False)
        except StoreError:
            return  # the database check says why
        try:
            from .oauth_cipher import TokenCipher, TokenKeyError

            cipher = TokenCipher(self.settings.token_key)
            installed = [
                found
                for space in store.workspaces()
                if space.slack_key and (found := store.installation_of(space.ws)) is not None
            ]
            stale: list[str] = []
            for found in installed:
                try:
                    cipher.decrypt(found.bot_token_enc)
                    if found.bot_refresh_token_enc:
                        cipher.decrypt(found.bot_refresh_token_enc)
                except TokenKeyError:
                    stale.append(found.slack_key)
        finally:
            store.close()
        if stale:
            yield self.check(
                "token key", "fail", "doctor_token_key_stale", n=len(stale), keys=", ".join(stale)
            )
        else:
            yield self.check("token key", "ok", "doctor_token_key_ok", n=len(installed))

    def deciders(self) -> Check:
        """Who may record a hiring decision: unset is a warning (nobody may); each user
        group must be readable (`usergroups:read`, a group of this workspace)."""
        name, ids = "deciders", self.settings.deciders
        if not ids:
            return self.check(name, "warn", "doctor_deciders_unset")
        groups = [g for g in ids if g.startswith("S")]
        if groups and self.client is not None and self.auth is not None:
            for group in groups:
                try:
                    self.client.usergroups_users_list(usergroup=group)
                except SlackApiError as exc:
                    return self.check(
                        name, "fail", "doctor_deciders_group", group=group, error=api_error(exc)
                    )
                except (SlackClientError, OSError) as exc:
                    return self.check(name, "warn", "doctor_channel_unreachable", exc=exc)
        return self.check(
            name, "ok", "doctor_deciders_ok", users=len(ids) - len(groups), groups=len(groups)
        )

    def scopes(self, headers: dict[str, Any]) -> Check:
        header = next((v for k, v in headers.items() if k.lower() == "x-oauth-scopes"), None)
        if header is None:
            return self.check("scopes", "warn", "doctor_scopes_unknown")
        granted = {s.strip() for s in str(header).split(",") if s.strip()}
        missing = [s for s in REQUIRED_SCOPES if s not in granted]
        if any(s not in OPTIONAL_SCOPES for s in missing):
            return self.check("scopes", "fail", "doctor_scopes_missing", missing=", ".join(missing))
        if missing:  # an app installed before the scope was asked for: reinstall it
            return self.check("scopes", "warn", "doctor_scopes_missing", missing=", ".join(missing))
        return self.check("scopes", "ok", "doctor_scopes_ok", n=len(REQUIRED_SCOPES))

    def membership(self, channel: str, is_digest: bool) -> Check:
        name = f"channel {channel}" + (" (digest)" if is_digest else "")
        assert self.client is not None
        try:
            info = self.client.conversations_info(channel=channel)
        except SlackApiError as exc:
            error = api_error(exc)
            if error == "channel_not_found":
                return self.check(name, "fail", "doctor_channel_not_found", error=error)
            return self.check(name, "fail", "doctor_channel_error", error=error)
        except (SlackClientError, OSError) as exc:
            return self.check(name, "fail", "doctor_channel_unreachable", exc=exc)
        data = info.get("channel") or {}
        label = f"#{data.get('name')}" if data.get("name") else channel
        if not data.get("is_member"):
            return self.check(name, "fail", "doctor_channel_not_member", channel=label)
        if is_digest and sharing_of(data) == "shared":  # Slack Connect: another company reads it
            allowed = self.settings.allow_shared_channels
            key = "doctor_channel_shared_allowed" if allowed else "doctor_channel_shared"
            return self.check(name, "warn", key, channel=label)
        return self.check(name, "ok", "doctor_channel_ok", channel=label)

    def app_token(self) -> Iterator[Check]:
        """Socket Mode's token: an app-level token that may open connections, of the
        same app as the bot token (when Slack says which app each belongs to)."""
        token, name = self.settings.app_token, "slack app token"
        if not token:
            yield self.check(name, "skip", "doctor_app_unset")
            return
        if token.startswith("xoxb-"):
            yield self.check(name, "fail", "doctor_app_is_bot_token")
            return
        if not token.startswith("xapp-"):
            yield self.check(name, "fail", "doctor_app_not_app")
            return
        client = WebClient(base_url=self.settings.api_url, timeout=15)
        try:
            opened = client.apps_connections_open(app_token=token)
        except SlackApiError as exc:
            error = api_error(exc)
            key = {
                "missing_scope": "doctor_app_scope",
                **dict.fromkeys(REVOKED, "doctor_app_revoked"),
            }
            yield self.check(name, "fail", key.get(error, "doctor_app_refused"), error=error)
            return
        except (SlackClientError, OSError) as exc:
            yield self.check(name, "fail", "doctor_unreachable", url=self.settings.api_url, exc=exc)
            return
        app = parse_qs(urlsplit(str(opened.get("url") or "")).query).get("app_id", [""])[0]
        bot_app = self._bot_app()
        if app and bot_app and app != bot_app:
            yield self.check(name, "fail", "doctor_app_other_app", app=app, bot_app=bot_app)
            return
        yield self.check(name, "ok", "doctor_app_ok")

    def _bot_app(self) -> str | None:
        """The app the bot token belongs to (`bots.info`), None when it cannot be told."""
        bot_id = (self.auth or {}).get("bot_id")
        if self.client is None or not bot_id:
            return None
        try:
            info = self.client.bots_info(bot=str(bot_id))
        except (SlackClientError, OSError):
            return None
        app = (info.get("bot") or {}).get("app_id")
        return str(app) if app else None

    def signing_secret(self) -> Iterator[Check]:
        secret, name = self.settings.signing_secret, "signing secret"
        if not secret:
            yield self.check(name, "skip", "doctor_secret_unset")
        elif secret.startswith(("xox", "xapp-")):
            yield self.check(name, "fail", "doctor_secret_is_token")
        elif not SIGNING_SECRET_RE.fullmatch(secret):
            yield self.check(name, "fail", "doctor_secret_shape", length=len(secret))
        else:
            yield self.check(name, "ok", "doctor_secret_ok")

    def mode(self) -> Check:
        """Which mode `serve` would run in; both or neither set, it refuses to start."""
        app, secret = bool(self.settings.app_token), bool(self.settings.signing_secret)
        oauth = self.settings.oauth_variables
        if self.settings.bot_token and oauth:
            return self.check("mode", "fail", "setting_token_and_oauth", variables=", ".join(oauth))
        if app and secret:
            return self.check("mode", "fail", "doctor_mode_both")
        if not app and not secret:
            return self.check("mode", "fail", "doctor_mode_neither")
        return self.check("mode", "ok", "doctor_mode_socket" if app else "doctor_mode_http")
