"""What `serve` runs beside answering Slack, and stops with it.

At once, needing no Slack (`start_local`): the word splitter's dictionary, the search
workers, keeping the transcripts folder indexed, the retention policy's daily run, and
handing hiring decisions to the ATS (bot/webhook.py). Once Slack answers
(`start_slack`): the files a process which died left unanswered, the digest, the
reminders; installed in many workspaces, each workspace's with its own token.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from store.factory import Backend

    from .app import DebriefApp
    from .settings import Settings

logger = logging.getLogger("debrief")


class ServeJobs:
    """What one `serve` process started beside the app, in the order it stops them."""

    def __init__(self, settings: Settings, store: Backend) -> None:
        self.settings = settings
        self.store = store
        self.watcher: Any = None  # keeps the transcripts folder indexed
        self.jobs: list[Any] = []  # the daily ones: retention, the digest, the reminders
        self.resumer: threading.Thread | None = None
        self.zoom: Any = None  # fetches Zoom's transcripts (bot/zoom.py), once Slack answers

    def zoom_woken(self) -> None:
        """A transcript was queued (Zoom's webhook): the fetcher looks at once."""
        if self.zoom is not None:
            self.zoom.wake()

    def start_zoom(self, app: DebriefApp) -> None:
        """Zoom's transcripts: the fetcher (every replica: each transcript is claimed by
        one), and, with DEBRIEF_ZOOM_POLL, `zoom sync` at that pace."""
        from .zoom import ZoomFetcher, ZoomPoller, app_spaces

        settings = self.settings
        if not settings.many_workspaces and not settings.zoom_account_id:
            logger.info("DEBRIEF_ZOOM_ACCOUNT_ID is not set: Zoom's transcripts are not taken")
            return
        fetcher = ZoomFetcher(settings, self.store, app_spaces(app, settings, self.store))
        self.zoom = fetcher.start()
        self.jobs.append(fetcher)
        if settings.zoom_poll:
            self.jobs.append(ZoomPoller(settings, self.store, fetcher, settings.zoom_poll).start())
            logger.info("zoom: recordings are looked for every %d s", settings.zoom_poll)
        logger.info(
            "zoom: transcripts of meetings whose topic matches %s are taken", settings.zoom_topics
        )

    def start_local(self) -> None:
        """What needs no Slack: the word splitter's dictionary, the folder, retention."""
        from store.fulltext import warm

        from .erasure import RetentionJob
        from .leader import watch_as_leader
        from .watcher import folder_watcher
        from .webhook import hands_decisions

        settings, store = self.settings, self.store
        warm()  # the word splitter loaded before /healthz says ready: no request waits for it
        logger.info("the word splitter's dictionary is loaded")
        if settings.search_workers:  # ranking off the interpreter that acknowledges Slack
            from .search_pool import SearchPool

            pool = SearchPool(settings.db_path, settings.search_workers).start()
            store.use_search_pool(pool)
            self.jobs.append(pool)
        if settings.transcripts:
            folder = settings.transcripts
            many = settings.many_workspaces  # then <folder>/<T…>/ is workspace T…'s

            def hands(space: Backend) -> bool:  # read at each run: App Home may change it
                return hands_decisions(settings, space)

            def watch() -> Any:
                return folder_watcher(store, folder, settings.watch, many, hands=hands).start()

            # one replica watches when the database is shared
            self.watcher = watch_as_leader(store, watch)
            where = f"{folder}/<team id>/" if many else folder
            logger.info("keeping %s indexed", where)
        else:
            logger.info(
                "DEBRIEF_TRANSCRIPTS is not set: serving what %s already holds", settings.db_path
            )
        if settings.retention_days is not None or settings.many_workspaces:
            # installed in many workspaces, the daily run also erases the data of those
            # uninstalled DEBRIEF_UNINSTALL_GRACE days ago
            self.jobs.append(RetentionJob(settings, store).start())
        if settings.retention_days is not None:
            logger.info(
                "retention: candidates are forgotten %d days after their interview",
                settings.retention_days,
            )
        else:
            logger.info("DEBRIEF_RETENTION_DAYS is not set: candidates are kept until forgotten")
        if settings.many_workspaces:
            logger.info(
                "an uninstalled workspace's data is erased %d days after",
                settings.uninstall_grace_days,
            )
        # every replica: each event is claimed by one. Installed in many workspaces, a
        # workspace may set its own URL in App Home, so the deliverer always runs
        if settings.webhook_url or settings.many_workspaces:
            from .webhook import Deliverer

            self.jobs.append(Deliverer.from_settings(settings, store).start())
        else:
            logger.info("DEBRIEF_WEBHOOK_URL is not set: hiring decisions are not sent to an ATS")

    def start_slack(self, app: DebriefApp, own_team: str | None) -> None:
        """What needs Slack: the files a process which died left unanswered, the digest,
        the reminders."""
        from .digest import Digester

        settings = self.settings
        self.start_zoom(app)
        if settings.many_workspaces:
            self._start_per_workspace(app)
            return
        self.resumer = threading.Thread(
            target=self._resume_uploads, args=(app, own_team), name="debrief-resume", daemon=True
        )
        self.resumer.start()
        if settings.digest_channel:
            digester = Digester(settings, self.store, app.client)
            digester.start()
            self.jobs.append(digester)
            logger.info(
                "daily digest at %s %s in %s",
                settings.digest_time,
                settings.timezone,
                settings.digest_channel,
            )
        else:
            logger.info("DEBRIEF_DIGEST_CHANNEL is not set: no daily digest")
        if settings.remind_time != "off":
            from .remind import Reminder

            self.jobs.append(Reminder(settings, self.store, app.client).start())
            logger.info(
                "reminders of overdue requests at %s %s, Monday to Friday",
                settings.remind_time,
                settings.timezone,
            )
        else:
            logger.info("DEBRIEF_REMIND_TIME is off: no reminders of overdue requests")

    def _start_per_workspace(self, app: DebriefApp) -> None:
        """Installed in many workspaces: the files left unanswered, the digest and the
        reminders, each workspace's with its own token."""
        from .workspace_jobs import WorkspaceJobs

        settings = self.settings
        logger.info(
            "installed in many workspaces: install pages at /slack/install,"
            " Slack sends installers back to /slack/oauth_redirect"
        )
        jobs = WorkspaceJobs(settings, self.store, app)
        self.resumer = threading.Thread(
            target=jobs.resume_uploads, name="debrief-resume", daemon=True
        )
        self.resumer.start()
        self.jobs.append(jobs.start())
        digest = f"at {settings.digest_time} in {settings.digest_channel}"
        remind = "off" if settings.remind_time == "off" else f"at {settings.remind_time}"
        logger.info(
            "each workspace's daily digest: %s; reminders: %s (%s)",
            digest if settings.digest_channel else "off",
            remind,
            settings.timezone,
        )

    def _resume_uploads(self, app: DebriefApp, own_team: str | None) -> None:
        """Answer the files shared in Slack that a process which died had claimed."""
        from handlers.deps import Deps
        from handlers.uploads import resume_uploads

        settings, store = self.settings, self.store
        try:
            if not store.stale_uploads():
                return
            deps = Deps(store=store, locale=settings.locale, uploads=str(settings.uploads_dir))
            resume_uploads(deps, app.client, own_team)
        except Exception:
            logger.exception("could not finish the shared files left unanswered")

    def stop(self) -> None:
        """The watcher and the jobs stopped; an upload being answered is finished, not
        cut off."""
        if self.watcher is not None:
            self.watcher.stop(timeout=5)
        for job in self.jobs:
            job.stop()
        if self.resumer is not None:
            self.resumer.join(timeout=5)
