"""Who may see candidate data: the allowed users and user groups, and the allowed channels.

With DEBRIEF_ALLOWED_USERS set, only those users (or members of those user groups, `S…`)
may; group membership is read in the background (at start, then every few minutes), a
failed read keeps the last good list, and before the first one a member is "pending".
With DEBRIEF_ALLOWED_CHANNELS set, candidate data is shown or posted only there. The
access middleware asks it on every request; Slack is read only in its own thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Literal

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

logger = logging.getLogger("handlers.access")  # its lines read as the access guard's

GROUP_REFRESH_S = 300.0  # how often user-group membership is read again
GROUP_RETRY_S = 30.0  # how soon after a failed read, until a group was read once

Verdict = Literal["yes", "no", "pending"]


class Policy:
    """Who and where, for the life of the app (one lives in `Deps`)."""

    def __init__(
        self,
        allowed_users: list[str],
        allowed_channels: list[str],
        *,
        refresh_s: float = GROUP_REFRESH_S,
        retry_s: float = GROUP_RETRY_S,
    ) -> None:
        self.users = {u for u in allowed_users if not u.startswith("S")}
        self.groups = {u for u in allowed_users if u.startswith("S")}
        self.channels = set(allowed_channels)
        self.refresh_s = refresh_s
        self.retry_s = retry_s
        self._members: dict[str, frozenset[str]] = {}  # the last good list of each group
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def open_to_all(self) -> bool:
        return not (self.users or self.groups)

    # -- user-group membership, read in the background ---------------------------------

    def start(self, client: WebClient | Callable[[], WebClient | None]) -> None:
        """Read the groups' members now and every `refresh_s`, in a daemon thread: with
        `client`, or with what `client()` gives each time (a workspace's client, its
        token renewed; None: not now)."""
        if not self.groups or self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self._run, args=(client,), name="debrief-usergroups", daemon=True
        )
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """The reader stops (within a read of Slack); nothing is read after this returns."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _run(self, client: WebClient | Callable[[], WebClient | None]) -> None:
        while not self._stop.is_set():
            current = client if isinstance(client, WebClient) else client()
            if current is not None:
                self.refresh(current)
            self._stop.wait(self.refresh_s if self.ready else self.retry_s)

    def refresh(self, client: WebClient) -> bool:
        """Read every group once; a group that cannot be read keeps its last good list."""
        ok = True
        for group in sorted(self.groups):
            if self._stop.is_set():
                return False
            try:
                response = client.usergroups_users_list(usergroup=group)
                members = frozenset(str(u) for u in response.get("users") or [])
            except SlackApiError as exc:
                ok = False
                logger.warning(
                    "cannot read user group %s (%s); keeping its last known members",
                    group,
                    (exc.response or {}).get("error"),
                )
                continue
            except Exception:
                ok = False
                logger.exception("cannot read user group %s; keeping its last known members", group)
                continue
            with self._lock:
                self._members[group] = members
        return ok

    @property
    def ready(self) -> bool:
        """Every group was read at least once."""
        with self._lock:
            return all(g in self._members for g in self.groups)

    # -- decisions -----------------------------------------------------------------------

    def decide(self, user: str | None) -> Verdict:
        """May `user` see candidate data: yes, no, or not known yet (groups not read)."""
        if self.open_to_all:
            return "yes"
        if not user:
            return "no"
        if user in self.users:
            return "yes"
        with self._lock:
            known = {g: self._members[g] for g in self.groups if g in self._members}
        if any(user in members for members in known.values()):
            return "yes"
        return "no" if len(known) == len(self.groups) else "pending"

    def channel_allowed(self, channel: str | None) -> bool:
        return not self.channels or (channel is not None and channel in self.channels)


class GrantedTeams:
    """Installed org-wide on Enterprise Grid: the organisation's workspaces the app was
    granted (`auth.teams.list`), read in the background as user groups are, so that a
    request from any of them is served and one from any other team (a Slack Connect
    user's) is not. Before the first read, requests are "pending"; a failed read keeps
    the last good list."""

    def __init__(self, refresh_s: float = GROUP_REFRESH_S, retry_s: float = GROUP_RETRY_S) -> None:
        self.refresh_s = refresh_s
        self.retry_s = retry_s
        self._teams: frozenset[str] | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def teams(self) -> frozenset[str] | None:
        """The granted workspaces; None before the first read."""
        with self._lock:
            return self._teams

    def start(self, client: Callable[[], WebClient | None]) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(
            target=self._run, args=(client,), name="debrief-org-teams", daemon=True
        )
        self._thread.start()

    def read_soon(self) -> None:
        """A workspace was granted or taken away: read the list again now."""
        self._wake.set()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _run(self, client: Callable[[], WebClient | None]) -> None:
        while not self._stop.is_set():
            current = client()
            read = current is not None and self.refresh(current)
            self._wake.wait(self.refresh_s if read else self.retry_s)
            self._wake.clear()

    def refresh(self, client: WebClient) -> bool:
        teams: set[str] = set()
        cursor: str | None = None
        try:
            while True:
                response = client.auth_teams_list(cursor=cursor, limit=200)
                teams |= {str(t.get("id")) for t in response.get("teams") or [] if t.get("id")}
                cursor = (response.get("response_metadata") or {}).get("next_cursor") or None
                if not cursor:
                    break
        except SlackApiError as exc:
            error = (exc.response or {}).get("error")
            logger.warning("cannot read the organisation's workspaces (%s)", error)
            return False
        except Exception:
            logger.exception("cannot read the organisation's workspaces")
            return False
        with self._lock:
            self._teams = frozenset(teams)
        return True
