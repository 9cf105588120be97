"""The bot's HTTP server, started once per test run (per xdist worker): one waitress server
whose WSGI callable hands each request to the app of the test now running.

``start_bot`` (support/slackbot.py) ``lease``s it: the app is swapped in, and swapped out
when the bot's server is stopped (``Lease.stop``: the requests it is answering end
first). A request while no app is in gets 503. A bot started while another holds it (two
bots at once, replicas), or one that asks for its own, gets a server of its own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from .servers import DEFAULT_TIMEOUT, WsgiServer

if TYPE_CHECKING:
    from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

NO_APP = b"no bot is running"


class BotServer(Protocol):
    """What a test sees of its bot's server: where it is, and its end."""

    @property
    def url(self) -> str: ...

    @property
    def port(self) -> int: ...

    def stop(self) -> None: ...


class AppSlot:
    """A WSGI callable answering with the app swapped in, or 503 when there is none."""

    def __init__(self) -> None:
        self._app: WSGIApplication | None = None
        self._busy = 0  # requests being answered
        self._changed = threading.Condition()

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        with self._changed:
            app = self._app
            if app is not None:
                self._busy += 1
        if app is None:
            start_response(
                "503 Service Unavailable",
                [("Content-Type", "text/plain"), ("Content-Length", str(len(NO_APP)))],
            )
            return [NO_APP]
        try:
            answer = app(environ, start_response)
            try:
                return list(answer)  # the whole body, while the request still counts
            finally:
                close: Callable[[], Any] | None = getattr(answer, "close", None)
                if close is not None:
                    close()
        finally:
            with self._changed:
                self._busy -= 1
                self._changed.notify_all()

    def take(self, app: WSGIApplication) -> bool:
        """Swap `app` in, if no other is in."""
        with self._changed:
            if self._app is not None:
                return False
            self._app = app
            return True

    def give_back(
        self, app: WSGIApplication | None = None, timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        """Swap `app` (None: whichever) out, if it is in, once the requests being answered
        ended."""
        with self._changed:
            if self._app is None or (app is not None and self._app is not app):
                return
            self._app = None
            self._changed.wait_for(lambda: self._busy == 0, timeout)


class Lease:
    """A bot's share of the run's server: its address, and its end."""

    def __init__(self, server: WsgiServer, slot: AppSlot, app: WSGIApplication) -> None:
        self._server = server
        self._slot = slot
        self._app = app

    @property
    def url(self) -> str:
        return self._server.url

    @property
    def port(self) -> int:
        return self._server.port

    def stop(self) -> None:
        self._slot.give_back(self._app)


_lock = threading.Lock()
_shared: tuple[WsgiServer, AppSlot] | None = None


def lease(app: WSGIApplication) -> Lease | None:
    """The run's server answering with `app` (started on first use), or None while it
    answers with another's."""
    global _shared
    with _lock:
        if _shared is None:
            slot = AppSlot()
            _shared = (WsgiServer(slot, name="bot-http-shared").start(), slot)
        server, slot = _shared
    return Lease(server, slot, app) if slot.take(app) else None


def vacate() -> None:
    """No app in the run's server: the end of a test (conftest.py), whatever its bots did."""
    with _lock:
        shared = _shared
    if shared is not None:
        shared[1].give_back()


def stop_shared() -> None:
    """The end of the run: its server stops (conftest.py, at the session's end)."""
    global _shared
    with _lock:
        shared, _shared = _shared, None
    if shared is not None:
        shared[0].stop()
