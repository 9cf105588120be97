"""`debrief serve`: start, wait for Slack as long as it takes, serve, stop on SIGTERM.

The process is up at once: in HTTP mode it answers `GET /healthz` from the first moment
(`503 starting: Slack unreachable` while it waits), as it does in Socket Mode when a
`--port` is given. Meanwhile a starter thread asks Slack whether the bot token works
(`auth.test`) and, in Socket Mode, opens the WebSocket (`apps.connections.open`), again
and again with a growing pause, one log line an attempt (bot/reaching.py), until it can:
then what needs Slack starts (the digest, the reminders, answering files left
unanswered) and `/healthz` says `ok`. A token Slack refuses is the operator's to fix:
`serve` stops with one line naming it (exit 2). SIGTERM while it waits stops it as
cleanly as at any other time.

What needs no Slack starts at once: keeping the transcripts folder indexed, the
retention policy's daily run, and handing hiring decisions to the ATS (bot/webhook.py).
What starts, before and after Slack answers, and stops with it: bot/serve_jobs.py.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

import click

from store.factory import open_store

from .cli_common import BadUsage, Failure
from .reaching import (
    ATTEMPT_TIMEOUT_S,
    UNREACHABLE,
    QuietWssUrl,
    Refused,
    attempt_client,
    until_reached,
)
from .serve_jobs import ServeJobs

if TYPE_CHECKING:
    from slack_bolt.adapter.socket_mode import SocketModeHandler

    from store.factory import Backend

    from .settings import Settings

logger = logging.getLogger("debrief")


class Serving:
    """One `serve` process: what it started, and how it stops."""

    def __init__(self, settings: Settings, mode: Literal["socket", "http"]) -> None:
        from .app import create_app
        from .http_app import Health

        self.settings = settings
        self.mode = mode
        self.store: Backend = open_store(settings.db_path)
        self.health = Health()
        self.stopping = threading.Event()
        self.failure: click.ClickException | None = None
        self.running = ServeJobs(settings, self.store)  # what runs beside the app
        self.socket: SocketModeHandler | None = None
        self.starter: threading.Thread | None = None
        self._starting = threading.Lock()
        try:  # without asking Slack: the starter does, as long as it takes
            self.app = create_app(settings, self.store, verify_token=False)
        except Exception as exc:
            logger.error("cannot start: a bug, not Slack", exc_info=exc)
            raise Failure("cli_start_bug", detail=repr(exc)) from exc
        bolt = logging.getLogger("debrief.bolt")
        if not any(isinstance(f, QuietWssUrl) for f in bolt.filters):
            bolt.addFilter(QuietWssUrl())

    @property
    def jobs(self) -> list[Any]:
        """What runs beside the app: the search workers, the daily jobs, the deliverer."""
        return self.running.jobs

    # -- starting ----------------------------------------------------------------------

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
                self.running.start_local()
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
        """What needs Slack: the files left unanswered, the digest, the reminders."""
        self.running.start_slack(self.app, own_team)

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
        self.running.stop()
        self.app.close()
        self.store.close()  # writes the queued audit lines
        logger.info("stopped")


def serve(settings: Settings, host: str, port: int, health_port: bool) -> None:
    """Run the bot until SIGTERM: HTTP mode on `host:port`, or Socket Mode (answering
    `/healthz` on `host:port` when `health_port`)."""
    from .http_app import health_app
    from .server import serve_http, serve_wsgi, wait_for_stop

    mode = settings.require_slack()
    serving = Serving(settings, mode)
    zoom = None
    if settings.many_workspaces or settings.zoom_account_id:  # Zoom's webhook (bot/zoom.py)
        from .zoom import zoom_decrypt
        from .zoom_events import webhook_app

        zoom = webhook_app(
            settings, serving.store, zoom_decrypt(settings), serving.running.zoom_woken
        )
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
                zoom,
            )
        elif health_port:
            logger.info("Socket Mode; /healthz on %s:%d", host, port)
            pages = health_app(serving.health, serving.app, zoom)
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
