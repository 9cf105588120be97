"""The workspaces Debrief is installed in: one data space each, its installation, and
the OAuth states handed out and not yet used.

A data space (`ws`) is what every candidate, thread and decision will belong to. Space 0
is the single-workspace mode's; it has no Slack key until an install adopts it: the
install of the very workspace a single-workspace `serve` recorded (`meta`, see
`MaintenanceStore.remember_workspace`), so that a database made by one workspace becomes
that workspace's space with no row rewritten. Any other install gets a new space, and
installing again keeps the space (and clears an uninstall).

Tokens arrive here encrypted: the store keeps the caller's ciphertext and never sees a
token (bot/ holds the key). An uninstall deletes the installation at once and leaves the
space, with the date its data is to be erased, for the retention job.

An uninstall event is handled once (`uninstall_events`, its id kept a week) and only
when it is newer than the installation: Slack redelivers an event late, and the
workspace may have installed again meanwhile.

An OAuth state is signed and carries its expiry (bot/oauth_state.py): nothing is kept
when one is handed out. It is good once: `use_oauth_state` records it, when it comes
back, in the statement that checks it was not used before, so two replicas given the same
state cannot both accept it; the record goes when the state runs out.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from .base import Base, Tx
from .clock import utcnow
from .maintenance import WORKSPACE
from .workspace_models import Installation, Workspace, WorkspaceSettings

_WORKSPACE = "ws, slack_key, kind, name, created_at, uninstalled_at, erase_after, erased_at"
_SAVED = (
    "enterprise_id",
    "team_id",
    "is_enterprise_install",
    "app_id",
    "enterprise_name",
    "enterprise_url",
    "team_name",
    "bot_id",
    "bot_user_id",
    "bot_scopes",
    "bot_token_enc",
    "bot_refresh_token_enc",
    "bot_token_expires_at",
    "installer_user_id",
    "token_type",
    "installed_at",
    "updated_at",
)
_INSTALLATION = "ws, " + ", ".join(_SAVED)


def _installation(row: dict[str, Any]) -> Installation:
    return Installation(**row | {"is_enterprise_install": bool(row["is_enterprise_install"])})


class WorkspaceStore(Base):
    def save_installation(self, installation: Installation) -> int:
        """Keep what an install (or a token rotation Bolt saves) gave: the data space of
        its team or organisation, made or adopted the first time; returns that space.
        `installed_at` is the newest install's (an uninstall event older than it is late)."""
        key = installation.slack_key
        kind = "enterprise" if installation.is_enterprise_install else "team"
        name = (
            installation.enterprise_name
            if installation.is_enterprise_install
            else installation.team_name
        ) or ""
        now = utcnow()
        values = installation.model_dump(include=set(_SAVED)) | {
            "is_enterprise_install": int(installation.is_enterprise_install),
            "installed_at": installation.installed_at or now,
            "updated_at": now,
        }

        def write(tx: Tx) -> int:
            self._one_at_a_time(tx, "workspaces")  # two replicas installing one team
            ws = self._space_of(tx, key, kind, name, now)
            names = ", ".join(_SAVED)
            marks = ", ".join("?" for _ in _SAVED)
            changed = ", ".join(f"{c} = excluded.{c}" for c in _SAVED)
            tx.execute(
                f"INSERT INTO installations (ws, {names}) VALUES (?, {marks})"
                f" ON CONFLICT (ws) DO UPDATE SET {changed},"
                " rotating_by = NULL, rotating_until = NULL",
                [ws, *(values[c] for c in _SAVED)],
            )
            return ws

        with self.tx() as tx:
            return write(tx)

    def _space_of(self, tx: Tx, key: str, kind: str, name: str, now: str) -> int:
        """The space of `key`: its own (installed again: no longer uninstalled), space 0
        when the single-workspace mode served that very workspace, or a new one."""
        found = tx.execute("SELECT ws FROM workspaces WHERE slack_key = ?", [key]).fetchone()
        if found is not None:
            tx.execute(
                "UPDATE workspaces SET kind = ?, name = ?, uninstalled_at = NULL,"
                " erase_after = NULL WHERE ws = ?",
                [kind, name, found[0]],
            )
            return int(found[0])
        served = tx.execute("SELECT value FROM meta WHERE key = ?", [WORKSPACE]).fetchone()
        if served is not None and json.loads(served[0]).get("team_id") == key:
            adopted = tx.execute(
                "UPDATE workspaces SET slack_key = ?, kind = ?, name = ?"
                " WHERE ws = 0 AND slack_key IS NULL AND erased_at IS NULL RETURNING ws",
                [key, kind, name],
            ).fetchone()
            if adopted is not None:
                return 0
        made = tx.execute(
            "INSERT INTO workspaces (slack_key, kind, name, created_at) VALUES (?, ?, ?, ?)"
            " RETURNING ws",
            [key, kind, name, now],
        ).fetchone()
        return int(made[0])

    def find_installation(self, key: str) -> Installation | None:
        """The installation of the workspace or organisation `key` (`T…`/`E…`), None when
        it is not installed (never, or not any more)."""
        rows = self._rows(
            f"SELECT {', '.join('i.' + c for c in _INSTALLATION.split(', '))}"
            " FROM installations i JOIN workspaces w ON w.ws = i.ws WHERE w.slack_key = ?",
            [key],
        )
        return _installation(rows[0]) if rows else None

    def installation_of(self, ws: int) -> Installation | None:
        """The installation of data space `ws`, None when it has none."""
        rows = self._rows(f"SELECT {_INSTALLATION} FROM installations WHERE ws = ?", [ws])
        return _installation(rows[0]) if rows else None

    def uninstall(
        self,
        key: str,
        erase_after: str,
        *,
        event_id: str | None = None,
        event_time: int | None = None,
        bot_users: Sequence[str] | None = None,
    ) -> bool:
        """`key` uninstalled Debrief, or revoked its token: the installation goes now, the
        data at `erase_after` (an ISO time) unless installed again before. False when
        nothing was uninstalled: not installed (a second delivery changes nothing), the
        event `event_id` handled before (on any replica), an event older than the
        installation (`event_time`, Slack's epoch seconds: installed in a later second, or
        after an uninstall this space already had at or after that second), or, with
        `bot_users` (the bot users whose tokens were revoked), another bot's token."""
        now = utcnow()
        bytewise = self.engine.bytewise
        clauses: list[str] = []
        params: list[Any] = []
        if event_time is not None:
            next_second = datetime.fromtimestamp(event_time + 1, UTC)
            clauses.append(f"i.installed_at {bytewise} < ?")
            clauses.append(
                "NOT EXISTS (SELECT 1 FROM uninstall_events e WHERE e.ws = i.ws"
                " AND e.removed = 1 AND e.event_time >= ?)"
            )
            params += [next_second.isoformat(timespec="microseconds"), event_time]
        if bot_users is not None:
            named, users = self.engine.in_list("i.bot_user_id", list(bot_users) or [""])
            clauses.append(named)
            params += users
        where = "".join(f" AND {c}" for c in clauses)

        def write(tx: Tx) -> bool:
            self._one_at_a_time(tx, "workspaces")  # an install of the same team waits
            if event_id is not None:
                week_ago = (datetime.now(UTC) - timedelta(days=7)).isoformat(
                    timespec="microseconds"
                )
                tx.execute(
                    f"DELETE FROM uninstall_events WHERE handled_at {bytewise} < ?", [week_ago]
                )
                first = tx.execute(
                    "INSERT INTO uninstall_events (event_id, event_time, handled_at)"
                    " VALUES (?, ?, ?) ON CONFLICT (event_id) DO NOTHING RETURNING event_id",
                    [event_id, event_time or 0, now],
                ).fetchone()
                if first is None:
                    return False
            found = tx.execute(
                "SELECT i.ws FROM installations i JOIN workspaces w ON w.ws = i.ws"
                f" WHERE w.slack_key = ?{where}",
                [key, *params],
            ).fetchone()
            if found is None:
                return False
            tx.execute("DELETE FROM installations WHERE ws = ?", [found[0]])
            tx.execute(
                "UPDATE workspaces SET uninstalled_at = ?, erase_after = ? WHERE ws = ?",
                [now, erase_after, found[0]],
            )
            if event_id is not None:
                tx.execute(
                    "UPDATE uninstall_events SET ws = ?, removed = 1 WHERE event_id = ?",
                    [found[0], event_id],
                )
            return True

        with self.tx() as tx:
            return write(tx)

    def workspace_of(self, key: str) -> Workspace | None:
        rows = self._rows(f"SELECT {_WORKSPACE} FROM workspaces WHERE slack_key = ?", [key])
        return Workspace(**rows[0]) if rows else None

    def workspaces(self) -> list[Workspace]:
        """Every data space, space 0 first."""
        return [
            Workspace(**r) for r in self._rows(f"SELECT {_WORKSPACE} FROM workspaces ORDER BY ws")
        ]

    # -- a workspace's own settings (App Home) ---------------------------------------------

    def workspace_settings(self, ws: int) -> WorkspaceSettings:
        """What space `ws`'s admins set (nothing set: every value None, version 0)."""
        row = self._one(
            "SELECT settings, settings_version, settings_by, settings_at FROM workspaces"
            " WHERE ws = ?",
            [ws],
        )
        if row is None or row[0] is None:
            return WorkspaceSettings(version=int(row[1] or 0) if row is not None else 0)
        values = json.loads(str(row[0]))
        return WorkspaceSettings(
            **values, version=int(row[1] or 0), saved_by=row[2], saved_at=row[3]
        )

    def save_workspace_settings(
        self, ws: int, values: WorkspaceSettings, by: str, over: int | None = None
    ) -> int | None:
        """Keep space `ws`'s settings (every value as given, None for the environment's);
        returns the new version. With `over`, only over that version (what the saver
        saw): None, and nothing kept, when another save came first (on any replica: the
        check and the write are one statement)."""
        kept = values.model_dump(exclude={"version", "saved_by", "saved_at"})
        guard, params = ("", []) if over is None else (" AND settings_version = ?", [over])
        with self.tx() as tx:
            row = tx.execute(
                "UPDATE workspaces SET settings = ?, settings_by = ?, settings_at = ?,"
                f" settings_version = settings_version + 1 WHERE ws = ?{guard}"
                " RETURNING settings_version",
                [json.dumps(kept, ensure_ascii=False), by, utcnow(), ws, *params],
            ).fetchone()
        if row is not None:
            return int(row[0])
        if over is None or self._one("SELECT 1 FROM workspaces WHERE ws = ?", [ws]) is None:
            raise ValueError(f"no data space {ws}")
        return None

    # -- rotating bot tokens ---------------------------------------------------------------

    def claim_token_rotation(self, ws: int, token_enc: str, claimer: str, until: str) -> bool:
        """Take the rotation of space `ws`'s token, as read (its ciphertext, which no other
        token shares: Fernet's are salted), until `until` (ISO): True for one claimer only,
        and only while nobody renewed it since or holds an unexpired claim."""
        now = utcnow()
        bytewise = self.engine.bytewise
        with self.tx() as tx:
            claimed = tx.execute(
                "UPDATE installations SET rotating_by = ?, rotating_until = ?"
                " WHERE ws = ? AND bot_token_enc = ?"
                f" AND (rotating_until IS NULL OR rotating_until {bytewise} < ?)",
                [claimer, until, ws, token_enc, now],
            ).rowcount
        return claimed == 1

    def save_rotated_token(
        self,
        ws: int,
        claimer: str,
        token_enc: str,
        refresh_token_enc: str | None,
        expires_at: int,
    ) -> bool:
        """The new token (and refresh token) of a rotation `claimer` holds; False when the
        claim was lost meanwhile (the workspace uninstalled, or the claim taken over)."""
        with self.tx() as tx:
            saved = tx.execute(
                "UPDATE installations SET bot_token_enc = ?, bot_refresh_token_enc = ?,"
                " bot_token_expires_at = ?, updated_at = ?, rotating_by = NULL,"
                " rotating_until = NULL WHERE ws = ? AND rotating_by = ?",
                [token_enc, refresh_token_enc, expires_at, utcnow(), ws, claimer],
            ).rowcount
        return saved == 1

    # -- OAuth states ------------------------------------------------------------------------

    def use_oauth_state(self, nonce: str, expires_at: str) -> bool:
        """True the first time the state `nonce` (good until `expires_at`, ISO) comes back,
        on any replica; False after. The states that ran out go at the same time."""
        now = utcnow()
        bytewise = self.engine.bytewise
        with self.tx() as tx:
            tx.execute(f"DELETE FROM oauth_states WHERE expires_at {bytewise} <= ?", [now])
            first = tx.execute(
                "INSERT INTO oauth_states (state, expires_at) VALUES (?, ?)"
                " ON CONFLICT (state) DO NOTHING RETURNING state",
                [nonce, expires_at],
            ).fetchone()
        return first is not None
