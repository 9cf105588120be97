"""The WSGI app `debrief serve` answers with: Slack's events checked before Bolt reads
them (bot/http_limits.py), `/healthz` (503 until ready), and, installed in many
workspaces, the install pages."""

from __future__ import annotations

import io
import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any

from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler
from slack_sdk.signature import SignatureVerifier

from .http_limits import bounded_body, readable, signed

EVENTS_PATH = "/slack/events"
ZOOM_PATH = "/zoom/events"  # Zoom's webhook (bot/zoom.py)

logger = logging.getLogger("debrief.http")

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def _plain(start_response: StartResponse, status: str, text: str) -> list[bytes]:
    start_response(status, [("Content-Type", "text/plain; charset=utf-8")])
    return [text.encode()]


class Health:
    """What `GET /healthz` answers: `503 starting` (and why, such as "starting: Slack
    unreachable") until the bot is ready, then `200 ok`. A process that answers is
    alive; systemd and Docker see a live service that is not ready yet."""

    def __init__(self, ready: bool = False) -> None:
        self._ready = threading.Event()
        self._why = "starting"
        if ready:
            self._ready.set()

    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    def waiting(self, why: str) -> None:
        self._why = f"starting: {why}"

    def set_ready(self) -> None:
        self._ready.set()

    def answer(self, start_response: StartResponse) -> list[bytes]:
        if self.ready:
            return _plain(start_response, "200 OK", "ok")
        return _plain(start_response, "503 Service Unavailable", self._why)


def install_pages(app: App) -> WsgiApp | None:
    """Installed in many workspaces: `GET /slack/install` (the "Add to Slack" page, which
    sets the state cookie) and `GET /slack/oauth_redirect` (where Slack sends the
    installer back), Bolt's OAuth flow on the store. None when the app serves one
    workspace. A browser's request carries no body: none is read. What fails is said
    in one line to the browser (503: try again), whole in the log."""
    flow = app.oauth_flow
    if flow is None:
        return None
    slack = SlackRequestHandler(app, path=EVENTS_PATH)
    paths = {flow.install_path, flow.redirect_uri_path}

    def application(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("PATH_INFO") not in paths:
            return _plain(start_response, "404 Not Found", "not found")
        if environ.get("REQUEST_METHOD") != "GET":
            return _plain(start_response, "405 Method Not Allowed", "GET only")
        environ["wsgi.input"] = io.BytesIO(b"")
        environ["CONTENT_LENGTH"] = "0"
        try:
            return slack(environ, start_response)
        except Exception:
            logger.exception("the install page failed")
            return _plain(
                start_response,
                "503 Service Unavailable",
                "Debrief could not finish the install just now: please try again in a minute.",
            )

    return application


def health_app(health: Health, app: App | None = None, zoom: WsgiApp | None = None) -> WsgiApp:
    """`GET /healthz`: what Socket Mode serves, where Slack's events come over the
    WebSocket; installed in many workspaces, the install pages; with `zoom`, Zoom's
    webhook at `POST /zoom/events` (bot/zoom.py)."""
    pages = install_pages(app) if app is not None else None

    def application(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == "/healthz" and environ.get("REQUEST_METHOD") == "GET":
            return health.answer(start_response)
        if zoom is not None and environ.get("PATH_INFO") == ZOOM_PATH:
            return zoom(environ, start_response)
        if pages is not None:
            return pages(environ, start_response)
        return _plain(start_response, "404 Not Found", "not found")

    return application


def wsgi_app(
    app: App, signing_secret: str, health: Health | None = None, zoom: WsgiApp | None = None
) -> WsgiApp:
    """POST /slack/events, checked before anything reads it: a request that is not
    signed by Slack within the last 5 minutes (no or a non-numeric timestamp, a body
    that is not UTF-8 included) gets 401 and does no work; a signed one whose body is
    not a JSON object or a form gets 400. Never a 500. GET /healthz answers probes;
    installed in many workspaces, GET /slack/install and /slack/oauth_redirect install;
    with `zoom`, POST /zoom/events is Zoom's webhook (bot/zoom.py, which checks Zoom's
    signature itself). Until `health` says the bot is ready, Slack's requests get 503
    (Slack retries)."""
    slack = SlackRequestHandler(app, path=EVENTS_PATH)
    verifier = SignatureVerifier(signing_secret)
    health = health or Health(ready=True)
    pages = install_pages(app)

    def application(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO"), environ.get("REQUEST_METHOD")
        if path == "/healthz" and method == "GET":
            return health.answer(start_response)
        if zoom is not None and path == ZOOM_PATH:
            return zoom(environ, start_response)
        if path != EVENTS_PATH:
            if pages is not None:
                return pages(environ, start_response)
            return _plain(start_response, "404 Not Found", "not found")
        if method != "POST":
            return _plain(start_response, "405 Method Not Allowed", "POST only")
        body = bounded_body(environ)
        if body is None:
            return _plain(start_response, "413 Content Too Large", "request body too large")
        timestamp = str(environ.get("HTTP_X_SLACK_REQUEST_TIMESTAMP") or "")
        signature = str(environ.get("HTTP_X_SLACK_SIGNATURE") or "")
        if not signed(verifier, body, timestamp, signature):
            return _plain(start_response, "401 Unauthorized", "invalid request")
        if not health.ready:
            return _plain(start_response, "503 Service Unavailable", "starting")
        if not readable(body.decode("utf-8"), environ.get("CONTENT_TYPE")):
            logger.warning("signed request with an unreadable body (%d bytes)", len(body))
            return _plain(start_response, "400 Bad Request", "unreadable request body")
        environ["wsgi.input"] = io.BytesIO(body)
        return slack(environ, start_response)

    return application
