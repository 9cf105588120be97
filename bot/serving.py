"""`debrief serve`: start, wait for Slack as long as it takes, serve, stop on SIGTERM.

The process is up at once: in HTTP mode it answers `GET /healthz` from the first moment
(`503 starting: Slack unreachable` while it waits), as it does in Socket Mode when a
`--port` is given. Meanwhile a starter thread asks Slack whether the bot token works
(`auth.test`) and, in Socket Mode, opens the WebSocket (`apps.connections.open`), again
and again with a growing pause, one log line an attempt, until it can: then what needs
Slack starts (the digest, the reminders, answering files left unanswered) and `/healthz` says `ok`.
A token Slack refuses is the operator's to fix: `serve` stops with one line naming it
(exit 2). SIGTERM while it waits stops it as cleanly as at any other time.

What needs no Slack starts at once: keeping the transcripts folder indexed, the
retention policy's daily run, and handing hiring decisions to the ATS (bot/webhook.py).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from http.client import HTTPException
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import click
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from store.factory import open_store

from .cli_common import BadUsage, Failure

if TYPE_CHECKING:
    from slack_bolt.adapter.socket_mode import SocketModeHandler

    from store.factory import Backend

    from .settings import Settings

T = TypeVar("T")

logger = logging.getLogger("debrief")

BACKOFF_S = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)  # the pause after each failed attempt; then 30 s
ATTEMPT_TIMEOUT_S = 5  # one attempt at most; SIGTERM waits for it at worst
UNREACHABLE = "Slack unreachable"  # what /healthz says meanwhile


class Refused(Exception):
    """Slack refused a token: `serve` stops, naming it."""

    def __init__(self, key: str, error: str) -> None:
        super().__init__(f"{key}: {error}")
        self.key = key
        self.error = error


class _QuietWssUrl(logging.Filter):
    """slack_sdk logs a failed `apps.connections.open` as an error block of its own; the
    starter (and the reconnect) say it in one line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Failed to retrieve WSS URL")


class _TracesOnly(logging.Filter):
    """What slack_sdk logs of an attempt: its debug traces (at DEBRIEF_LOG_LEVEL=debug),
    not its warnings and errors, which the starter says in its one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno < logging.WARNING


def _transient(exc: SlackApiError) -> bool:
    """Slack answered, but not about the token: busy or failing (429, 5xx)."""
    status = getattr(exc.response, "status_code", 200)
    return status == 429 or status >= 500


def attempt_client(settings: Settings) -> WebClient:
    """A client that tries once and lets the starter say what failed: no retries of its
    own (each would log a line), a short timeout."""
    quiet = logging.getLogger("debrief.slack-attempts")
    if not any(isinstance(f, _TracesOnly) for f in quiet.filters):
        quiet.addFilter(_TracesOnly())
    return WebClient(
        token=settings.bot_token,
        base_url=settings.api_url,
        timeout=ATTEMPT_TIMEOUT_S,
        retry_handlers=[],
        logger=quiet,
    )


def until_reached(
    call: Callable[[], T],
    refused_key: str,
    url: str,
    stopping: threading.Event,
    on_waiting: Callable[[], None] = lambda: None,
) -> T | None:
    """`call()`, again and again while Slack cannot be reached (a pause of BACKOFF_S
    between attempts, one log line each); None when `stopping` is set first. A token
    Slack refuses raises Refused(`refused_key`)."""
    attempt = 0
    while not stopping.is_set():
        attempt += 1
        try:
            return call()
        except SlackApiError as exc:
            error = str(exc.response.get("error") or exc)
            if not _transient(exc):
                raise Refused(refused_key, error) from exc
            reason = f"{getattr(exc.response, 'status_code', '?')} {error}"
        except (SlackClientError, OSError, HTTPException) as exc:
            reason = str(exc) or type(exc).__name__
        pause = BACKOFF_S[min(attempt, len(BACKOFF_S)) - 1]
        on_waiting()
        logger.warning(
            "Slack at %s cannot be reached (%s): trying again in %.0f s (attempt %d)",
            url,
            reason,
            pause,
            attempt,
        )
        stopping.wait(pause)
    return None


class Serving:
    """One `serve` process: what it started, and how it stops."""

    def __init__(self, settings: Settings, mode: Literal["socket", "http"]) -> None:
        from .app import create_app
        from .server import Health

        self.settings = settings
        self.mode = mode
        self.store: Backend = open_store(settings.db_path)
        self.health = Health()
        self.stopping = threading.Event()
        self.failure: click.ClickException | None = None
        self.watcher: Any = None  # keeps the transcripts folder indexed
        self.jobs: list[Any] = []  # the daily ones: retention, the digest, the reminders
        self.socket: SocketModeHandler | None = None
        self.resumer: threading.Thread | None = None
        self.starter: threading.Thread | None = None
        self._starting = threading.Lock()
        try:  # without asking Slack: the starter does, as long as it takes
            self.app = create_app(settings, self.store, verify_token=False)
        except Exception as exc:
            logger.error("cannot start: a bug, not Slack", exc_info=exc)
            raise Failure("cli_start_bug", detail=repr(exc)) from exc
        bolt = logging.getLogger("debrief.bolt")
        if not any(isinstance(f, _QuietWssUrl) for f in bolt.filters):
            bolt.addFilter(_QuietWssUrl())

    # -- starting ----------------------------------------------------------------------

    def start_local(self) -> None:
        """What needs no Slack: the word splitter's dictionary, the folder, retention."""
        from store.fulltext import warm

        from .erasure import RetentionJob
        from .leader import watch_as_leader
        from .watcher import folder_watcher

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

            def watch() -> Any:
                return folder_watcher(store, folder, settings.watch, many).start()

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

    def begin(self, stop: Callable[[], None]) -> None:
        """Called once the process listens: the starter thread, which calls `stop` when
        it cannot go on."""
        self.starter = threading.Thread(
            target=self._start, args=(stop,), name="debrief-start", daemon=True
        )
        self.starter.start()

    def _start(self, stop: Callable[[], None]) -> None:
        try:
            with self._starting:  # stop() waits for what is being started, then stops it
                if self.stopping.is_set():
                    return
                self.start_local()
            if self._connect():
                self.health.set_ready()
                took = "" if self.settings.many_workspaces else " Slack took the token;"
                logger.info("ready:%s /healthz says ok", took)
        except Refused as exc:
            url = self.settings.api_url
            self.failure = BadUsage(f"serve_{exc.key}_refused", url=url, error=exc.error)
            stop()
        except BadUsage as exc:
            self.failure = exc
            stop()
        except Exception as exc:
            logger.error("cannot start: a bug, not Slack", exc_info=exc)
            self.failure = Failure("cli_start_bug", detail=repr(exc))
            stop()

    def _connect(self) -> bool:
        """Slack reached and the token taken, what needs Slack started; False when
        serve stopped first."""
        settings, url = self.settings, self.settings.api_url
        client = attempt_client(settings)

        def waiting() -> None:
            self.health.waiting(UNREACHABLE)

        auth: dict[str, Any] = {}  # installed in many workspaces: each install brings a token
        if not settings.many_workspaces:
            said = until_reached(
                lambda: client.auth_test().data, "bot", url, self.stopping, waiting
            )
            if not isinstance(said, dict):
                return False
            auth = said
            self._check_workspace(str(auth.get("team_id") or ""), str(auth.get("team") or ""))
        if self.mode == "socket":
            from .server import socket_mode_handler

            assert settings.app_token is not None
            socket = socket_mode_handler(self.app, settings.app_token, web_client=client)
            self.socket = socket

            def connect() -> bool:
                socket.client.wss_uri = None  # a new URL each attempt: one is good once
                socket.connect()  # type: ignore[no-untyped-call]
                return True

            if until_reached(connect, "app", url, self.stopping, waiting) is None:
                return False
            logger.info("Socket Mode connected")
        with self._starting:
            if self.stopping.is_set():
                return False
            self._start_slack_parts(str(auth.get("team_id") or "") or None)
        return True

    def _start_slack_parts(self, own_team: str | None) -> None:
        """What needs Slack: the files a process which died left unanswered, the digest,
        the reminders."""
        from .digest import Digester

        settings = self.settings
        if settings.many_workspaces:
            self._start_per_workspace()
            return
        self.resumer = threading.Thread(
            target=self._resume_uploads, args=(own_team,), name="debrief-resume", daemon=True
        )
        self.resumer.start()
        if settings.digest_channel:
            digester = Digester(settings, self.store, self.app.client)
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

            self.jobs.append(Reminder(settings, self.store, self.app.client).start())
            logger.info(
                "reminders of overdue requests at %s %s, Monday to Friday",
                settings.remind_time,
                settings.timezone,
            )
        else:
            logger.info("DEBRIEF_REMIND_TIME is off: no reminders of overdue requests")

    def _start_per_workspace(self) -> None:
        """Installed in many workspaces: the files left unanswered, the digest and the
        reminders, each workspace's with its own token."""
        from .workspace_jobs import WorkspaceJobs

        settings = self.settings
        logger.info(
            "installed in many workspaces: install pages at /slack/install,"
            " Slack sends installers back to /slack/oauth_redirect"
        )
        jobs = WorkspaceJobs(settings, self.store, self.app)
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

    def _check_workspace(self, team_id: str, team: str) -> None:
        """One installation serves one workspace: the database remembers the first one
        it served, and a token of another is refused (its people would see the first
        one's candidates)."""
        if not team_id:
            return
        served_id, served = self.store.remember_workspace(team_id, team)
        if served_id != team_id:
            raise BadUsage(
                "serve_other_workspace",
                team=team,
                team_id=team_id,
                served=served,
                served_id=served_id,
            )

    def _resume_uploads(self, own_team: str | None) -> None:
        """Answer the files shared in Slack that a process which died had claimed."""
        from handlers.deps import Deps
        from handlers.uploads import resume_uploads

        settings, store = self.settings, self.store
        try:
            if not store.stale_uploads():
                return
            deps = Deps(store=store, locale=settings.locale, uploads=str(settings.uploads_dir))
            resume_uploads(deps, self.app.client, own_team)
        except Exception:
            logger.exception("could not finish the shared files left unanswered")

    # -- stopping ----------------------------------------------------------------------

    def stop(self) -> None:
        """After the last request: the starter gives up, the Socket Mode connection
        closes, the listeners finish, the watcher and the jobs stop, the audit is
        flushed."""
        self.stopping.set()
        if self.starter is not None:
            self.starter.join(timeout=ATTEMPT_TIMEOUT_S + 1)
        with self._starting:
            self._stop_parts()

    def _stop_parts(self) -> None:
        from .server import STOP_SECONDS, finish_listeners

        if self.socket is not None:
            self.socket.close()  # type: ignore[no-untyped-call]
            finish_listeners(self.app, time.monotonic() + STOP_SECONDS / 2)
        if self.watcher is not None:
            self.watcher.stop(timeout=5)
        for job in self.jobs:
            job.stop()
        if self.resumer is not None:
            self.resumer.join(timeout=5)  # an upload being answered is finished, not cut off
        self.app.close()
        self.store.close()  # writes the queued audit lines
        logger.info("stopped")


def serve(settings: Settings, host: str, port: int, health_port: bool) -> None:
    """Run the bot until SIGTERM: HTTP mode on `host:port`, or Socket Mode (answering
    `/healthz` on `host:port` when `health_port`)."""
    from .server import health_app, serve_http, serve_wsgi, wait_for_stop

    mode = settings.require_slack()
    serving = Serving(settings, mode)
    try:
        if mode == "http":
            assert settings.signing_secret is not None
            logger.info("HTTP mode on %s:%d/slack/events", host, port)
            serve_http(
                serving.app,
                settings.signing_secret,
                host,
                port,
                serving.stop,
                serving.health,
                serving.begin,
            )
        elif health_port:
            logger.info("Socket Mode; /healthz on %s:%d", host, port)
            pages = health_app(serving.health, serving.app)
            serve_wsgi(pages, host, port, serving.stop, serving.begin)
        elif settings.many_workspaces:  # the install pages need a port to be served on
            serving.stop()
            raise BadUsage("serve_install_needs_port")
        else:
            logger.info("Socket Mode")
            wait_for_stop(serving.stop, serving.begin)
    except OSError as exc:  # the port is taken, or the address is not ours
        serving.stop()
        from .cli_text import os_reason
        from .words import t

        refused = exc
        raise Failure(
            lambda loc: t(
                loc,
                "cli_cannot_listen",
                host=host,
                port=port,
                reason=os_reason(refused, loc),
            )
        ) from exc
    if serving.failure is not None:
        raise serving.failure
