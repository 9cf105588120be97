"""Installs in many workspaces: what Bolt's OAuth flow needs, on Debrief's own store.

Bolt runs the install pages and the exchange with Slack (slack_bolt.oauth); this module
gives it where installs live and how requests find their workspace's token:

- `TokenCipher`: bot and refresh tokens are encrypted with DEBRIEF_TOKEN_KEY (Fernet;
  several comma-separated keys: the first encrypts, any decrypts, so a key can be
  replaced). The store keeps only the ciphertext; the key never reaches it.
- `DebriefInstallationStore`: slack_sdk's InstallationStore on `store/installations.py`
  (SQLite or PostgreSQL, in the same database as everything else, migrated with it, in
  every backup): one installation per workspace or organisation, an uninstall that
  takes the token at once and leaves the data until DEBRIEF_UNINSTALL_GRACE has passed
  (the events that ask for it: bot/uninstall.py).
- `DebriefStateStore` (bot/oauth_state.py): OAuth states signed with SLACK_STATE_SECRET,
  carrying their expiry, nothing kept until one is used; good once, across replicas.
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
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from logging import Logger
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from slack_bolt.authorization import AuthorizeResult
from slack_bolt.authorization.authorize import Authorize
from slack_bolt.context import BoltContext
from slack_bolt.error import BoltError
from slack_bolt.oauth.oauth_settings import OAuthSettings
from slack_sdk import WebClient
from slack_sdk.errors import SlackTokenRotationError
from slack_sdk.oauth.installation_store import Bot, InstallationStore
from slack_sdk.oauth.installation_store import Installation as SlackInstallation
from slack_sdk.oauth.token_rotation import TokenRotator

from store.errors import StoreError
from store.installations import WorkspaceStore
from store.models import Installation

from .oauth_state import STATE_SECONDS, DebriefStateStore, redact_codes

if TYPE_CHECKING:
    from .settings import Settings

logger = logging.getLogger("debrief.oauth")

CLAIM_SECONDS = 30  # one replica rotates a token; another may take over after this
WORKSPACE = "workspace"  # the request context's key for its data space (`ws`)
WORKSPACE_KEY = "workspace_key"  # … and for its Slack id (T… or, for an org-wide install, E…)


class TokenKeyError(Exception):
    """A stored token DEBRIEF_TOKEN_KEY cannot decrypt: the key was changed or lost."""


class TokenCipher:
    """Tokens in and out of the store, encrypted with the DEBRIEF_TOKEN_KEY keys."""

    def __init__(self, keys: str) -> None:
        parts = [k.strip() for k in keys.split(",") if k.strip()]
        if not parts:
            raise ValueError("DEBRIEF_TOKEN_KEY holds no key")
        self._fernet = MultiFernet([Fernet(k.encode("ascii")) for k in parts])

    def encrypt(self, token: str) -> str:
        return self._fernet.encrypt(token.encode("utf-8")).decode("ascii")

    def decrypt(self, ciphertext: str) -> str:
        try:
            return self._fernet.decrypt(ciphertext.encode("ascii")).decode("utf-8")
        except (InvalidToken, ValueError):
            raise TokenKeyError(
                "a stored Slack token cannot be decrypted with DEBRIEF_TOKEN_KEY: was the key"
                " changed? Put the old key after the new one (comma-separated), or reinstall"
            ) from None


def workspace_key(
    enterprise_id: str | None, team_id: str | None, is_enterprise_install: bool | None
) -> str | None:
    """The data space a request or an install belongs to: the organisation for an
    org-wide install, else the workspace (the choice Bolt makes to find installations)."""
    return (enterprise_id if is_enterprise_install else team_id) or None


def _iso(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="microseconds")


def _timestamp(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp() if iso else time.time()


class DebriefInstallationStore(InstallationStore):
    """slack_sdk's InstallationStore on Debrief's store: installs encrypted at rest, one
    per workspace or organisation; Debrief asks for no user scopes and keeps no user
    tokens."""

    def __init__(self, store: WorkspaceStore, cipher: TokenCipher, grace_days: int) -> None:
        self.store = store
        self.cipher = cipher
        self.grace_days = grace_days

    @property
    def logger(self) -> Logger:
        return logger

    def save(self, installation: SlackInstallation) -> None:
        self._save(installation, installation.user_id, installation.token_type)

    def save_bot(self, bot: Bot) -> None:
        self._save(bot, None, "bot")

    def _save(self, got: SlackInstallation | Bot, user: str | None, kind: str | None) -> None:
        if not got.bot_token:
            raise BoltError("the install gave no bot token")  # Bolt: storage_error, 500
        refresh = got.bot_refresh_token
        row = Installation(
            enterprise_id=got.enterprise_id,
            team_id=got.team_id,
            is_enterprise_install=bool(got.is_enterprise_install),
            app_id=got.app_id,
            enterprise_name=got.enterprise_name,
            enterprise_url=getattr(got, "enterprise_url", None),
            team_name=got.team_name,
            bot_id=got.bot_id or "",
            bot_user_id=got.bot_user_id or "",
            bot_scopes=",".join(got.bot_scopes or []),
            bot_token_enc=self.cipher.encrypt(got.bot_token),
            bot_refresh_token_enc=self.cipher.encrypt(refresh) if refresh else None,
            bot_token_expires_at=got.bot_token_expires_at,
            installer_user_id=user,
            token_type=kind,
            installed_at=_iso(float(got.installed_at)),
        )
        try:
            ws = self.store.save_installation(row)
        except (StoreError, ValueError) as exc:
            # Bolt's redirect handler catches BoltError alone (its "storage_error" page)
            logger.exception("could not keep the installation of %s", row.team_id)
            raise BoltError(f"the installation could not be kept: {exc}") from exc
        logger.info("installed in %s (data space %d)", row.slack_key, ws)

    def find_bot(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        is_enterprise_install: bool | None = False,
    ) -> Bot | None:
        found = self._find(enterprise_id, team_id, is_enterprise_install)
        return None if found is None else self._as_slack(found).to_bot()

    def find_installation(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None = None,
        is_enterprise_install: bool | None = False,
    ) -> SlackInstallation | None:
        found = self._find(enterprise_id, team_id, is_enterprise_install)
        if found is None or (user_id is not None and user_id != found.installer_user_id):
            return None  # no user tokens are kept: another user has no installation
        return self._as_slack(found)

    def _find(
        self, enterprise_id: str | None, team_id: str | None, org: bool | None
    ) -> Installation | None:
        key = workspace_key(enterprise_id, team_id, org)
        return None if key is None else self.store.find_installation(key)

    def _as_slack(self, found: Installation) -> SlackInstallation:
        refresh = found.bot_refresh_token_enc
        return SlackInstallation(
            app_id=found.app_id,
            enterprise_id=found.enterprise_id,
            enterprise_name=found.enterprise_name,
            enterprise_url=found.enterprise_url,
            team_id=found.team_id,
            team_name=found.team_name,
            bot_token=self.cipher.decrypt(found.bot_token_enc),
            bot_id=found.bot_id,
            bot_user_id=found.bot_user_id,
            bot_scopes=found.bot_scopes,
            bot_refresh_token=self.cipher.decrypt(refresh) if refresh else None,
            bot_token_expires_at=found.bot_token_expires_at,
            user_id=found.installer_user_id or "",
            is_enterprise_install=found.is_enterprise_install,
            token_type=found.token_type,
            installed_at=_timestamp(found.installed_at),
        )

    def delete_bot(self, *, enterprise_id: str | None, team_id: str | None, **_: Any) -> None:
        self._uninstall(enterprise_id, team_id, _org(_))

    def delete_installation(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None = None,
        **_: Any,
    ) -> None:
        if user_id is None:  # a user's token revoked: Debrief keeps none
            self._uninstall(enterprise_id, team_id, _org(_))

    def delete_all(self, *, enterprise_id: str | None, team_id: str | None, **_: Any) -> None:
        self._uninstall(enterprise_id, team_id, _org(_))

    def _uninstall(self, enterprise_id: str | None, team_id: str | None, org: bool) -> None:
        key = workspace_key(enterprise_id, team_id, org) or workspace_key(
            enterprise_id, team_id, not org
        )
        if key is not None:
            self.uninstall(key)

    def uninstall(
        self,
        key: str,
        *,
        event_id: str | None = None,
        event_time: int | None = None,
        bot_users: Sequence[str] | None = None,
    ) -> bool:
        """Workspace or organisation `key` uninstalled Debrief: its token goes now, its
        data after the grace; an event (`event_id`, `event_time`) handled before, older
        than the installation, or naming other bot users than its own (`bot_users`)
        changes nothing (store/installations.py). True when it was uninstalled."""
        erase_after = datetime.now(UTC) + timedelta(days=self.grace_days)
        done = self.store.uninstall(
            key,
            erase_after.isoformat(timespec="microseconds"),
            event_id=event_id,
            event_time=event_time,
            bot_users=bot_users,
        )
        if done:
            logger.info(
                "%s uninstalled Debrief: its token is deleted, its data kept until %s",
                key,
                erase_after.date().isoformat(),
            )
        return done


def _org(extra: dict[str, Any]) -> bool:
    """Whether Bolt's call named an org-wide install (the argument some calls pass)."""
    return bool(extra.get("is_enterprise_install"))


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
            installed_at=_timestamp(found.installed_at),
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


# -- the app's install side, from the settings ----------------------------------------------


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
