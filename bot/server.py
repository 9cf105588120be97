"""Running the app: HTTP mode under waitress (with the limits of bot/http_limits.py), or
Socket Mode; stopping on SIGTERM."""

from __future__ import annotations

import _thread
import logging
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

import waitress
from slack_bolt import App
from slack_bolt.adapter.socket_mode import SocketModeHandler
from slack_sdk import WebClient
from waitress.server import BaseWSGIServer

from .http_app import Health, WsgiApp, wsgi_app
from .http_limits import CONNECTION_LIMIT, IDLE_SECONDS, MAX_BODY, MAX_HEADERS, DeadlineChannel

STOP_SECONDS = 10  # SIGTERM to exit, at most (systemd and Docker wait 10 s before SIGKILL)

logger = logging.getLogger("debrief.http")


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
            listener.channel_class = DeadlineChannel
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
    zoom: WsgiApp | None = None,
) -> None:
    """HTTP mode (with `zoom`, Zoom's webhook beside Slack's events) until SIGTERM (or
    SIGINT): then take no new requests, let those under way and the listeners they started finish, call `on_stop`, and return, within
    STOP_SECONDS."""

    def stopped() -> None:
        finish_listeners(app, time.monotonic() + STOP_SECONDS - 1)
        on_stop()

    serve_wsgi(wsgi_app(app, signing_secret, health, zoom), host, port, stopped, on_listening)


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
