"""Installs in many workspaces: what Bolt's OAuth flow needs, on Debrief's own store.

Bolt runs the install pages and the exchange with Slack (slack_bolt.oauth); this module
builds its flow from the settings, on what Debrief gives it:

- `TokenCipher` (bot/oauth_cipher.py): bot and refresh tokens encrypted with
  DEBRIEF_TOKEN_KEY.
- `DebriefInstallationStore` (bot/oauth_installations.py): slack_sdk's InstallationStore
  on `store/installations.py`, one installation per workspace or organisation.
- `DebriefStateStore` (bot/oauth_state.py): OAuth states signed with SLACK_STATE_SECRET,
  carrying their expiry, nothing kept until one is used; good once, across replicas.
- `WorkspaceTokens` and `WorkspaceAuthorize` (bot/oauth_authorize.py): a workspace's bot
  token, rotated by one replica; Bolt's authorize step, which names the request's data
  space.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from slack_bolt.oauth.oauth_settings import OAuthSettings
from slack_sdk import WebClient

from store.installations import WorkspaceStore

from .oauth_authorize import WorkspaceAuthorize, WorkspaceTokens
from .oauth_cipher import TokenCipher
from .oauth_installations import DebriefInstallationStore
from .oauth_state import STATE_SECONDS, DebriefStateStore, redact_codes

if TYPE_CHECKING:
    from .settings import Settings


@dataclass(frozen=True)
class Installs:
    """What an app installed in many workspaces is built with (bot/app.py)."""

    store: WorkspaceStore
    installations: DebriefInstallationStore
    tokens: WorkspaceTokens
    authorize: WorkspaceAuthorize
    oauth_settings: OAuthSettings


def authorization_url(api_url: str) -> str:
    """Slack's authorize page, on the host of the Web API (SLACK_API_URL): slack.com's in
    production, a test's fake Slack in the tests."""
    parts = urlsplit(api_url)
    return f"{parts.scheme}://{parts.netloc}/oauth/v2/authorize"


def installs(
    settings: Settings, store: WorkspaceStore, client: WebClient, scopes: list[str]
) -> Installs:
    """Bolt's OAuth flow on Debrief's store: every argument given, so that nothing is
    read from the environment behind the settings' back (Bolt's defaults keep tokens in
    plain files)."""
    assert settings.client_id and settings.client_secret and settings.state_secret
    assert settings.token_key
    cipher = TokenCipher(settings.token_key)
    installations = DebriefInstallationStore(store, cipher, settings.uninstall_grace_days)
    tokens = WorkspaceTokens(
        store,
        cipher,
        settings.client_id,
        settings.client_secret,
        client,
        minutes_before=settings.token_rotation_minutes,
    )
    authorize = WorkspaceAuthorize(store, tokens)
    # Bolt's flow logs the code of a callback (its logger: the app's, bot/app.py)
    redact_codes("debrief.bolt", "slack_sdk.web.base_client")
    oauth_settings = OAuthSettings(
        client_id=settings.client_id,
        client_secret=settings.client_secret,
        scopes=scopes,
        user_scopes=[],
        redirect_uri=settings.redirect_uri,
        install_path="/slack/install",
        redirect_uri_path="/slack/oauth_redirect",
        authorization_url=authorization_url(settings.api_url),
        installation_store=installations,
        token_rotation_expiration_minutes=settings.token_rotation_minutes,
        state_store=DebriefStateStore(store, settings.state_secret),
        state_expiration_seconds=STATE_SECONDS,
        logger=logging.getLogger("debrief.bolt"),
    )
    return Installs(store, installations, tokens, authorize, oauth_settings)
