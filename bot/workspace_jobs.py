"""Installed in many workspaces: what `serve` does on its own, for each workspace.

Each installed workspace gets the digest and the reminders a single-workspace `serve`
runs, with its own data space (`store.in_workspace`), its own token (renewed when
due), and its settings, its time zone among them (App Home; else DEBRIEF_TIMEZONE): its
digest and reminders come at its own local time, on its own day. One clock for all:
every minute, each workspace's jobs are asked whether their time has come; each
decides, and claims its day in the store (per data space), so replicas post each once. A workspace uninstalled since the last
tick is skipped, and one installed since is picked up. The shared files a process
left unanswered are finished once at start, workspace by workspace.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .digest import Digester
from .remind import Reminder

if TYPE_CHECKING:
    from store.factory import Backend
    from store.workspace_models import Workspace

    from .app import DebriefApp
    from .settings import Settings

logger = logging.getLogger("debrief.workspaces")

TICK_MINUTES = 1


class WorkspaceJobs:
    """The digests and reminders of every installed workspace, until `stop()`."""

    def __init__(self, settings: Settings, store: Backend, app: DebriefApp) -> None:
        self.settings = settings
        self.store = store
        self.app = app
        self.digesters: dict[int, Digester] = {}
        self.reminders: dict[int, Reminder] = {}
        self.versions: dict[int, int] = {}  # the settings each one's jobs were made with
        self._lock = threading.Lock()  # one tick at a time
        self._scheduler: Any = None

    def installed(self) -> list[Workspace]:
        """The data spaces with a workspace installed now."""
        return [
            w
            for w in self.store.workspaces()
            if w.slack_key and w.uninstalled_at is None and w.erased_at is None
        ]

    def settings_of(self, space: Workspace) -> tuple[Settings, int]:
        """What a workspace's jobs run with: its own settings (App Home), else the
        environment's; and their version."""
        own = self.store.workspace_settings(space.ws)
        return self.settings.for_workspace(own), own.version

    def tick(self, now: datetime | None = None) -> None:
        """Each installed workspace's digest and reminders, if due at `now` (an aware
        time; None: the clock's) in its own time zone (each says)."""
        with self._lock:
            for space in self.installed():
                try:
                    self._run(space, now)
                except Exception:
                    logger.exception("the jobs of workspace %s failed this time", space.slack_key)

    def _run(self, space: Workspace, now: datetime | None = None) -> None:
        client = self.app.client_of(space.ws)
        if client is None:
            return  # uninstalled meanwhile, or its token could not be renewed (logged)
        settings, version = self.settings_of(space)
        view = self.store.in_workspace(space.ws)
        if settings.digest_channel:
            digester = self.digesters.get(space.ws)
            if digester is None or self.versions.get(space.ws) != version:
                digester = self.digesters[space.ws] = Digester(settings, view, client)
            digester.client = client
            digester.run_safely(now)
        if settings.remind_time != "off":
            reminder = self.reminders.get(space.ws)
            if reminder is None or self.versions.get(space.ws) != version:
                installation = self.store.installation_of(space.ws)
                team = installation.team_id if installation is not None else None
                reminder = Reminder(settings, view, client, team=team)
                self.reminders[space.ws] = reminder
            reminder.client = client
            if space.kind == "enterprise":  # whoever is in a workspace it was granted
                reminder.teams = self._granted(space)
            if space.kind != "enterprise" or reminder.teams is not None:
                reminder.run_safely(now)  # (an organisation's workspaces not read yet: later)
        self.versions[space.ws] = version

    def _granted(self, space: Workspace) -> frozenset[str] | None:
        """An org-wide install's granted workspaces, as the access guard has them (read in
        the background); None before the first read."""
        assert self.app.spaces is not None
        teams = self.app.spaces.of(space.ws, space.slack_key).teams
        return teams.teams if teams is not None else None

    def resume_uploads(self) -> None:
        """Finish the files shared in Slack that a process which died left unanswered."""
        from handlers.uploads import resume_uploads

        assert self.app.spaces is not None
        for space in self.installed():
            try:
                if not self.store.in_workspace(space.ws).stale_uploads():
                    continue
                client = self.app.client_of(space.ws)
                if client is None:
                    continue
                installation = self.store.installation_of(space.ws)
                team = installation.team_id if installation is not None else None
                deps = self.app.spaces.of(space.ws, space.slack_key)
                resume_uploads(deps, client, team)
            except Exception:
                logger.exception(
                    "could not finish the shared files of %s left unanswered", space.slack_key
                )

    def start(self) -> WorkspaceJobs:
        from .schedule import every

        self._scheduler = every(self.tick, self.settings.tz, TICK_MINUTES * 60, "workspaces")
        return self

    def stop(self) -> None:
        if self._scheduler is not None:
            self._scheduler.shutdown(wait=False)
