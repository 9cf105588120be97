"""`DebriefInstallationStore`: slack_sdk's InstallationStore on `store/installations.py`
(SQLite or PostgreSQL, in the same database as everything else, migrated with it, in
every backup): one installation per workspace or organisation, its tokens encrypted
(bot/oauth_cipher.py), an uninstall that takes the token at once and leaves the data
until DEBRIEF_UNINSTALL_GRACE has passed (the events that ask for it: bot/uninstall.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from logging import Logger
from typing import Any

from slack_bolt.error import BoltError
from slack_sdk.oauth.installation_store import Bot, InstallationStore
from slack_sdk.oauth.installation_store import Installation as SlackInstallation

from store.errors import StoreError
from store.installations import WorkspaceStore
from store.workspace_models import Installation

from .oauth_cipher import TokenCipher

logger = logging.getLogger("debrief.oauth")


def workspace_key(
    enterprise_id: str | None, team_id: str | None, is_enterprise_install: bool | None
) -> str | None:
    """The data space a request or an install belongs to: the organisation for an
    org-wide install, else the workspace (the choice Bolt makes to find installations)."""
    return (enterprise_id if is_enterprise_install else team_id) or None


def _iso(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="microseconds")


def installed_timestamp(iso: str) -> float:
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
            installed_at=installed_timestamp(found.installed_at),
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
