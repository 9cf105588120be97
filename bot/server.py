"""Running the app: HTTP mode under waitress, or Socket Mode."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Iterable
from typing import Any

from slack_bolt import App
from slack_bolt.adapter.socket_mode import SocketModeHandler
from slack_bolt.adapter.wsgi import SlackRequestHandler
from slack_bolt.request.internals import parse_body
from slack_sdk.signature import SignatureVerifier

EVENTS_PATH = "/slack/events"
MAX_BODY = 1024 * 1024  # Slack's requests are a few KB

logger = logging.getLogger("debrief.http")

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def _plain(start_response: StartResponse, status: str, text: str) -> list[bytes]:
    start_response(status, [("Content-Type", "text/plain; charset=utf-8")])
    return [text.encode()]


def _signed(verifier: SignatureVerifier, body: bytes, timestamp: str, signature: str) -> bool:
    """Slack's v0 signature over the raw body, made within the last 5 minutes. A missing or
    non-numeric timestamp, or a body that is not UTF-8, is simply not signed by Slack."""
    if not (timestamp.isascii() and timestamp.isdigit()) or not signature:
        return False
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return verifier.is_valid(body=body, timestamp=timestamp, signature=signature)


def _readable(text: str, content_type: str | None) -> bool:
    """Whether Bolt can read the body: it parses it exactly so and needs an object."""
    try:
        parsed = parse_body(text, content_type)
    except ValueError:
        return False
    return isinstance(parsed, dict)


def wsgi_app(app: App, signing_secret: str) -> WsgiApp:
    """POST /slack/events, checked before anything reads it: a request that is not
    signed by Slack within the last 5 minutes (no or a non-numeric timestamp, a body
    that is not UTF-8 included) gets 401 and does no work; a signed one whose body is
    not a JSON object or a form gets 400. Never a 500. GET /healthz answers probes."""
    slack = SlackRequestHandler(app, path=EVENTS_PATH)
    verifier = SignatureVerifier(signing_secret)

    def application(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO"), environ.get("REQUEST_METHOD")
        if path == "/healthz" and method == "GET":
            return _plain(start_response, "200 OK", "ok")
        if path != EVENTS_PATH:
            return _plain(start_response, "404 Not Found", "not found")
        if method != "POST":
            return _plain(start_response, "405 Method Not Allowed", "POST only")
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY:
            return _plain(start_response, "413 Content Too Large", "request body too large")
        body = environ["wsgi.input"].read(length) if length else b""
        timestamp = str(environ.get("HTTP_X_SLACK_REQUEST_TIMESTAMP") or "")
        signature = str(environ.get("HTTP_X_SLACK_SIGNATURE") or "")
        if not _signed(verifier, body, timestamp, signature):
            return _plain(start_response, "401 Unauthorized", "invalid request")
        if not _readable(body.decode("utf-8"), environ.get("CONTENT_TYPE")):
            logger.warning("signed request with an unreadable body (%d bytes)", len(body))
            return _plain(start_response, "400 Bad Request", "unreadable request body")
        environ["wsgi.input"] = io.BytesIO(body)
        return slack(environ, start_response)

    return application


def serve_http(app: App, signing_secret: str, host: str, port: int) -> None:
    import waitress

    waitress.serve(wsgi_app(app, signing_secret), host=host, port=port, threads=8, ident="debrief")


def socket_mode_handler(app: App, app_token: str) -> SocketModeHandler:
    return SocketModeHandler(app, app_token)
