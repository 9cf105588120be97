"""Running the app: HTTP mode under waitress, or Socket Mode."""

from __future__ import annotations

import _thread
import io
import logging
import signal
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from typing import Any

import waitress
from slack_bolt import App
from slack_bolt.adapter.socket_mode import SocketModeHandler
from slack_bolt.adapter.wsgi import SlackRequestHandler
from slack_bolt.request.internals import parse_body
from slack_sdk import WebClient
from slack_sdk.signature import SignatureVerifier
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer

EVENTS_PATH = "/slack/events"
MAX_BODY = 1024 * 1024  # Slack's requests are a few KB
MAX_HEADERS = 16 * 1024  # Slack's headers are under 2 KB
MAX_NESTING = 64  # arrays and objects within one another: Slack's payloads nest about 15 deep
MAX_TIMESTAMP_DIGITS = 12  # a Unix time in seconds has 10 digits until the year 2286
STOP_SECONDS = 10  # SIGTERM to exit, at most (systemd and Docker wait 10 s before SIGKILL)

# Slack sends its few KB at once and waits 3 s for the answer: a request that takes longer
# than this to arrive is not Slack's. Without a deadline, a client sending a byte now and
# then keeps waitress's idle timeout from firing and holds a connection for ever.
REQUEST_SECONDS = 5
IDLE_SECONDS = 15  # a kept-alive connection with no request under way
# Connections open at once, slow ones included: well above what a few hundred slow clients
# take, and well below the 1024 file descriptors a process is often allowed (a connection
# can hold two: its socket and a temporary file for a large body).
CONNECTION_LIMIT = 400

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
    if len(timestamp) > MAX_TIMESTAMP_DIGITS:  # slack_sdk would fail turning it into a float
        return False
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return verifier.is_valid(body=body, timestamp=timestamp, signature=signature)


def _nested_deeper_than(limit: int, value: object) -> bool:
    """Whether JSON arrays and objects nest in `value` deeper than `limit` (no recursion)."""
    todo: list[tuple[object, int]] = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            if depth > limit:
                return True
            todo += [(child, depth + 1) for child in item]
    return False


def _readable(text: str, content_type: str | None) -> bool:
    """Whether Bolt can read the body: it parses it exactly so and needs an object. Deep
    nesting is refused: near Python's recursion limit the parser fails, and just short of
    it ours succeeds where Bolt's own parse, a few calls deeper, would not."""
    try:
        parsed = parse_body(text, content_type)
    except (ValueError, RecursionError):
        return False
    return isinstance(parsed, dict) and not _nested_deeper_than(MAX_NESTING, parsed)


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


def health_app(health: Health, app: App | None = None) -> WsgiApp:
    """`GET /healthz`: what Socket Mode serves, where Slack's events come over the
    WebSocket; and, installed in many workspaces, the install pages."""
    pages = install_pages(app) if app is not None else None

    def application(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("PATH_INFO") == "/healthz" and environ.get("REQUEST_METHOD") == "GET":
            return health.answer(start_response)
        if pages is not None:
            return pages(environ, start_response)
        return _plain(start_response, "404 Not Found", "not found")

    return application


def wsgi_app(app: App, signing_secret: str, health: Health | None = None) -> WsgiApp:
    """POST /slack/events, checked before anything reads it: a request that is not
    signed by Slack within the last 5 minutes (no or a non-numeric timestamp, a body
    that is not UTF-8 included) gets 401 and does no work; a signed one whose body is
    not a JSON object or a form gets 400. Never a 500. GET /healthz answers probes;
    installed in many workspaces, GET /slack/install and /slack/oauth_redirect install.
    Until `health` says the bot is ready, Slack's requests get 503 (Slack retries)."""
    slack = SlackRequestHandler(app, path=EVENTS_PATH)
    verifier = SignatureVerifier(signing_secret)
    health = health or Health(ready=True)
    pages = install_pages(app)

    def application(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        path, method = environ.get("PATH_INFO"), environ.get("REQUEST_METHOD")
        if path == "/healthz" and method == "GET":
            return health.answer(start_response)
        if path != EVENTS_PATH:
            if pages is not None:
                return pages(environ, start_response)
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
        if not health.ready:
            return _plain(start_response, "503 Service Unavailable", "starting")
        if not _readable(body.decode("utf-8"), environ.get("CONTENT_TYPE")):
            logger.warning("signed request with an unreadable body (%d bytes)", len(body))
            return _plain(start_response, "400 Bad Request", "unreadable request body")
        environ["wsgi.input"] = io.BytesIO(body)
        return slack(environ, start_response)

    return application


def listener_executors(app: App) -> list[Executor]:
    """Where Bolt runs listeners: its listener threads (acks, and listeners that
    acknowledge in their own body), then the lazy listeners' (answers: bot/app.py)."""
    runner = app.listener_runner
    first = runner.listener_executor
    lazy = getattr(runner.lazy_listener_runner, "executor", None)
    return [first, lazy] if isinstance(lazy, Executor) and lazy is not first else [first]


def finish_listeners(app: App, deadline: float) -> None:
    """Let Bolt's listener threads finish what they started (answers, reactions)."""
    for executor in listener_executors(app):
        done = threading.Thread(target=executor.shutdown, kwargs={"wait": True}, daemon=True)
        done.start()
        done.join(max(0.0, deadline - time.monotonic()))


def on_stop_signals(handler: Callable[[], None]) -> threading.Event:
    """Call `handler` once on the first SIGTERM or SIGINT (in the main thread). Later ones
    are ignored, until the returned event is set: then `_thread.interrupt_main()` (a
    simulated SIGINT) raises KeyboardInterrupt in the main thread, ending its loop."""
    called = threading.Event()
    finished = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        if finished.is_set():
            raise KeyboardInterrupt
        if called.is_set():
            return
        called.set()
        logger.info("%s: stopping", signal.Signals(signum).name)
        handler()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    return finished


class _DeadlineChannel(HTTPChannel):  # type: ignore[misc]
    """waitress's connection, closed when a request has not arrived whole, headers and
    body, within REQUEST_SECONDS of its first byte or of the connection opening. waitress
    has no such deadline of its own: its idle timeout counts from the last byte received."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.receiving_since: float | None = time.monotonic()

    def received(self, data: bytes) -> bool:
        if self.receiving_since is None:
            self.receiving_since = time.monotonic()
        try:
            return bool(super().received(data))
        finally:
            if self.request is None:  # nothing left half-received
                self.receiving_since = None

    def readable(self) -> bool:
        # asked by waitress's loop about every connection, at least once a second
        since = self.receiving_since
        if since is not None and not self.requests and time.monotonic() - since > REQUEST_SECONDS:
            self.will_close = True
        return bool(super().readable())


def http_server(app: App | WsgiApp, signing_secret: str, host: str, port: int) -> Any:
    """`wsgi_app` (or another WSGI app) under waitress, with limits for an endpoint open
    to the internet (see above): a body over MAX_BODY is refused from its Content-Length
    before it is read, a chunked one as soon as it passes it; many slow clients cannot
    take every connection."""
    sockets: dict[int, Any] = {}
    server: Any = waitress.create_server(
        wsgi_app(app, signing_secret) if isinstance(app, App) else app,
        map=sockets,
        host=host,
        port=port,
        threads=8,
        ident="debrief",
        connection_limit=CONNECTION_LIMIT,
        asyncore_use_poll=True,  # select() cannot watch descriptors numbered over 1023
        channel_timeout=IDLE_SECONDS,
        cleanup_interval=1,
        max_request_header_size=MAX_HEADERS,
        max_request_body_size=MAX_BODY + 1,  # waitress refuses a body of this size or more
    )
    for listener in sockets.values():  # one for each address `host` stands for
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = _DeadlineChannel
    return server


def serve_wsgi(
    wsgi: WsgiApp,
    host: str,
    port: int,
    on_stop: Callable[[], None] = lambda: None,
    on_listening: Callable[[Callable[[], None]], None] = lambda stop: None,
) -> None:
    """Serve `wsgi` until SIGTERM (or SIGINT), or until the `stop` that `on_listening` is
    given (once the port is bound) is called: then take no new requests, let those under
    way finish, call `on_stop`, and return, within STOP_SECONDS."""
    server = http_server(wsgi, "", host, port)
    stopping = threading.Lock()

    def finish() -> None:
        deadline = time.monotonic() + STOP_SECONDS - 1
        tasks = server.task_dispatcher
        while (tasks.active_count or tasks.queue) and time.monotonic() < deadline:
            time.sleep(0.02)
        try:
            on_stop()
        finally:
            finished.set()
            _thread.interrupt_main()  # ends waitress's loop, which stops its threads

    def stop() -> None:
        if not stopping.acquire(blocking=False):
            return  # already stopping
        server.accepting = False  # the listening socket is no longer read: no new requests
        threading.Thread(target=finish, name="debrief-stop", daemon=True).start()

    finished = on_stop_signals(stop)
    on_listening(stop)
    try:
        server.run()
    except KeyboardInterrupt:
        pass  # the stop sequence's own interrupt, raised outside waitress's loop
    finally:
        server.close()


def serve_http(
    app: App,
    signing_secret: str,
    host: str,
    port: int,
    on_stop: Callable[[], None] = lambda: None,
    health: Health | None = None,
    on_listening: Callable[[Callable[[], None]], None] = lambda stop: None,
) -> None:
    """HTTP mode until SIGTERM (or SIGINT): then take no new requests, let those under
    way and the listeners they started finish, call `on_stop`, and return, within
    STOP_SECONDS."""

    def stopped() -> None:
        finish_listeners(app, time.monotonic() + STOP_SECONDS - 1)
        on_stop()

    serve_wsgi(wsgi_app(app, signing_secret, health), host, port, stopped, on_listening)


def wait_for_stop(
    on_stop: Callable[[], None],
    on_listening: Callable[[Callable[[], None]], None] = lambda stop: None,
) -> None:
    """Socket Mode without a port: wait for SIGTERM (or SIGINT), or the `stop` given to
    `on_listening`; then call `on_stop`."""
    stopped = threading.Event()
    on_stop_signals(stopped.set)
    on_listening(stopped.set)
    stopped.wait()
    on_stop()


RECONNECT_WAIT_S = 5.0  # how long a dropped connection may take to be noticed as closed


def socket_mode_handler(
    app: App, app_token: str, web_client: WebClient | None = None
) -> SocketModeHandler:
    """Socket Mode, reconnecting at once when Slack drops the WebSocket.

    slack_sdk's client tries to reconnect when the server closes the connection, but
    at that moment the session still counts as connected, so it skips it, and the
    next health check (every `ping_interval`) reconnects: events sent meanwhile are
    late. Here a closed connection is replaced as soon as it is really closed.

    `web_client` asks Slack for the connections' URLs (apps.connections.open); by
    default the app's own."""
    handler = SocketModeHandler(app, app_token, web_client=web_client, ping_interval=5)
    client = handler.client

    def reconnect() -> None:
        deadline = time.monotonic() + RECONNECT_WAIT_S
        while client.is_connected() and time.monotonic() < deadline:
            time.sleep(0.02)
        if client.closed or not client.auto_reconnect_enabled or client.is_connected():
            return
        try:
            client.connect_to_new_endpoint()
        except Exception as exc:  # the health check tries again
            logger.warning("Socket Mode: could not reconnect yet (%s)", exc)

    def on_close(code: int, reason: str | None = None) -> None:
        if client.closed or not client.auto_reconnect_enabled:
            return  # we are shutting down
        logger.info("Socket Mode connection closed (%s); reconnecting", code)
        threading.Thread(target=reconnect, name="debrief-reconnect", daemon=True).start()

    client.on_close_listeners.append(on_close)
    return handler
