"""A workspace's bot token, and Bolt's authorize step for installs in many workspaces.

- `WorkspaceTokens`: a workspace's bot token, rotated when it nears its expiry by one
  replica only (a compare-and-set claim; Slack revokes a used refresh token, so two
  rotating at once would strand the workspace).
- `WorkspaceAuthorize`: Bolt's authorize step. It finds the installation from the
  signed request's team (or organisation), rotates if due, and answers from what the
  install stored: no `auth.test` per request, and a database error is an error, not
  "not installed" (Bolt's own InstallationStoreAuthorize logs and swallows both).
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from slack_bolt.authorization import AuthorizeResult
from slack_bolt.authorization.authorize import Authorize
from slack_bolt.context import BoltContext
from slack_sdk import WebClient
from slack_sdk.errors import SlackTokenRotationError
from slack_sdk.oauth.installation_store import Bot
from slack_sdk.oauth.token_rotation import TokenRotator

from store.installations import WorkspaceStore
from store.workspace_models import Installation

from .oauth_cipher import TokenCipher
from .oauth_installations import installed_timestamp, workspace_key

logger = logging.getLogger("debrief.oauth")

CLAIM_SECONDS = 30  # one replica rotates a token; another may take over after this
WORKSPACE = "workspace"  # the request context's key for its data space (`ws`)
WORKSPACE_KEY = "workspace_key"  # … and for its Slack id (T… or, for an org-wide install, E…)


class WorkspaceTokens:
    """A workspace's bot token, for requests (WorkspaceAuthorize) and for the jobs that
    post on their own (digest, reminders): rotated shortly before it expires, by one
    replica at a time."""

    def __init__(
        self,
        store: WorkspaceStore,
        cipher: TokenCipher,
        client_id: str,
        client_secret: str,
        client: WebClient,
        minutes_before: int = 120,
        wait_s: float = 10.0,
    ) -> None:
        self.store = store
        self.cipher = cipher
        self.rotator = TokenRotator(client_id=client_id, client_secret=client_secret, client=client)
        self.minutes_before = minutes_before
        self.wait_s = wait_s
        self.claimer = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"

    def bot_token(self, found: Installation) -> str | None:
        """The token to call Slack with for this installation; None when it expired and
        could not be renewed (the request is then refused as not installed)."""
        expires = found.bot_token_expires_at
        current = self.cipher.decrypt(found.bot_token_enc)
        if expires is None or expires > time.time() + self.minutes_before * 60:
            return current
        until = datetime.now(UTC) + timedelta(seconds=CLAIM_SECONDS)
        if self.store.claim_token_rotation(
            found.ws, found.bot_token_enc, self.claimer, until.isoformat(timespec="microseconds")
        ):
            return self._rotate(found, current) or (current if expires > time.time() else None)
        if expires > time.time():
            return current  # another replica renews it; this one is still good
        return self._renewed_by_another(found.ws, found.bot_token_enc)

    def _rotate(self, found: Installation, current: str) -> str | None:
        refresh = found.bot_refresh_token_enc
        bot = Bot(
            enterprise_id=found.enterprise_id,
            team_id=found.team_id,
            bot_token=current,
            bot_id=found.bot_id,
            bot_user_id=found.bot_user_id,
            bot_scopes=found.bot_scopes,
            bot_refresh_token=self.cipher.decrypt(refresh) if refresh else None,
            bot_token_expires_at=found.bot_token_expires_at,
            is_enterprise_install=found.is_enterprise_install,
            installed_at=installed_timestamp(found.installed_at),
        )
        try:
            renewed = self.rotator.perform_bot_token_rotation(
                bot=bot, minutes_before_expiration=self.minutes_before
            )
        except SlackTokenRotationError as exc:
            logger.error("Slack refused to renew the token of %s: %s", found.slack_key, exc)
            return None
        if renewed is None or not renewed.bot_token or renewed.bot_token_expires_at is None:
            return None
        saved = self.store.save_rotated_token(
            found.ws,
            self.claimer,
            self.cipher.encrypt(renewed.bot_token),
            self.cipher.encrypt(renewed.bot_refresh_token) if renewed.bot_refresh_token else None,
            int(renewed.bot_token_expires_at),
        )
        if not saved:
            logger.error(
                "the renewed token of %s could not be kept (its old refresh token is spent):"
                " if requests from it are refused, install Debrief there again",
                found.slack_key,
            )
        return renewed.bot_token

    def _renewed_by_another(self, ws: int, expired: str) -> str | None:
        """An expired token (its ciphertext) another replica is renewing: wait (boundedly)
        for its save."""
        deadline = time.monotonic() + self.wait_s
        while time.monotonic() < deadline:
            found = self.store.installation_of(ws)
            if found is None:
                return None
            if found.bot_token_enc != expired:
                return self.cipher.decrypt(found.bot_token_enc)
            time.sleep(0.2)
        return None


class WorkspaceAuthorize(Authorize):
    """Bolt's authorize step for installs in many workspaces: the signed request's team
    (or organisation) → its installation → its token, rotated if due; the request's
    context gets the data space (`context["workspace"]`)."""

    def __init__(self, store: WorkspaceStore, tokens: WorkspaceTokens) -> None:
        self.store = store
        self.tokens = tokens

    @property
    def token_rotation_expiration_minutes(self) -> int:
        return self.tokens.minutes_before

    @token_rotation_expiration_minutes.setter
    def token_rotation_expiration_minutes(self, minutes: int) -> None:
        self.tokens.minutes_before = minutes  # Bolt sets it from OAuthSettings

    def __call__(
        self,
        *,
        context: BoltContext,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None,
        **_: Any,
    ) -> AuthorizeResult | None:
        key = workspace_key(enterprise_id, team_id, context.is_enterprise_install)
        found = None if key is None else self.store.find_installation(key)
        if found is None:
            return None  # Bolt answers that the app is not installed; no listener runs
        token = self.tokens.bot_token(found)
        if token is None:
            return None
        context[WORKSPACE] = found.ws
        context[WORKSPACE_KEY] = found.slack_key
        return AuthorizeResult(
            enterprise_id=found.enterprise_id,
            team_id=found.team_id,
            team=found.team_name,
            url=found.enterprise_url,
            bot_user_id=found.bot_user_id,
            bot_id=found.bot_id,
            bot_token=token,
            bot_scopes=found.bot_scopes,
            user_id=user_id,
        )
