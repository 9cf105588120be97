"""The one base of the servers tests start: bound to ``127.0.0.1:<free port>``, serving
from a thread of its own, stopped and closed at the end (``with`` does both).

* ``HttpServer`` - ``http.server`` with a handler class (the fake Web API, small servers
  a test needs).
* ``WaitressServer`` / ``WsgiServer`` - a waitress server, such as the app's own.
* The Socket Mode server (``support.socket_mode``) is one too.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self

import waitress

if TYPE_CHECKING:
    from wsgiref.types import WSGIApplication

DEFAULT_TIMEOUT = 5.0
CONTENT_TYPE_FORM = "application/x-www-form-urlencoded"
CONTENT_TYPE_JSON = "application/json"


def free_port() -> int:
    """A port free on 127.0.0.1 now, for a server another process will bind."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LoopbackServer:
    """A server on ``127.0.0.1:<ephemeral port>`` serving from its own thread.

    ``start()`` binds and serves, ``stop()`` ends the serving loop, waits for its thread
    and closes; as a context manager it does both. A subclass says how to bind
    (``_bind``: returns the loop the thread runs), how to end that loop (``_shutdown``),
    what closing means once it ended (``_close``) and which port it got (``_port``).
    """

    thread_name = "loopback-server"

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None

    def start(self) -> Self:
        if self._thread is not None:
            return self
        serve = self._bind()
        self._thread = threading.Thread(target=serve, name=self.thread_name, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._shutdown()
        thread.join(timeout=DEFAULT_TIMEOUT)
        self._close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._thread is None:
            raise RuntimeError(f"{type(self).__name__} is not started")
        return self._port()

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    def _bind(self) -> Callable[[], None]:
        raise NotImplementedError

    def _shutdown(self) -> None:
        raise NotImplementedError

    def _close(self) -> None:
        pass

    def _port(self) -> int:
        raise NotImplementedError


class HttpServer(LoopbackServer):
    """``ThreadingHTTPServer`` with ``handler``: one thread per request, none left behind.
    ``port``: a port chosen beforehand (``free_port()``), for a server that comes up only
    after its clients were told where it would be; 0 (the default): any free one."""

    def __init__(
        self, handler: type[BaseHTTPRequestHandler], *, name: str = "http-server", port: int = 0
    ) -> None:
        super().__init__()
        self.thread_name = name
        self._handler = handler
        self._fixed_port = port
        self._httpd: ThreadingHTTPServer | None = None

    def _make_httpd(self, address: tuple[str, int]) -> ThreadingHTTPServer:
        """The ``http.server`` to bind (a subclass may bring its own kind)."""
        return ThreadingHTTPServer(address, self._handler)

    def _bind(self) -> Callable[[], None]:
        httpd = self._make_httpd(("127.0.0.1", self._fixed_port))
        httpd.daemon_threads = True
        self._httpd = httpd
        return lambda: httpd.serve_forever(poll_interval=0.05)

    def _shutdown(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()

    def _close(self) -> None:
        httpd, self._httpd = self._httpd, None
        if httpd is not None:
            httpd.server_close()

    def _port(self) -> int:
        assert self._httpd is not None
        return int(self._httpd.server_address[1])


class WaitressServer(LoopbackServer):
    """A waitress server ``make()`` creates on 127.0.0.1 port 0 (the app's own, with its
    limits, or ``WsgiServer``'s). Its asyncore loop runs in our thread with a short poll,
    so ``stop()`` is prompt and that thread closes every socket and worker."""

    def __init__(self, make: Callable[[], Any], *, name: str = "wsgi-server") -> None:
        super().__init__()
        self.thread_name = name
        self._make = make
        self._server: Any = None
        self._stopping = threading.Event()

    def _bind(self) -> Callable[[], None]:
        self._stopping.clear()
        self._server = self._make()
        return self._run

    def _run(self) -> None:
        server = self._server
        use_poll = server.adj.asyncore_use_poll
        while not self._stopping.is_set():
            server.asyncore.loop(timeout=0.05, map=server._map, use_poll=use_poll, count=1)
        server.task_dispatcher.shutdown(timeout=DEFAULT_TIMEOUT)
        for dispatcher in list(server._map.values()):
            dispatcher.close()

    def _shutdown(self) -> None:
        self._stopping.set()

    def _close(self) -> None:
        self._server = None

    def _port(self) -> int:
        # waitress reports effective_port as a *string* (getnameinfo NI_NUMERICSERV)
        return int(self._server.effective_port)


class WsgiServer(WaitressServer):
    """Serve a WSGI app with waitress on ``127.0.0.1:<ephemeral>``."""

    def __init__(
        self, app: WSGIApplication, *, threads: int = 4, name: str = "wsgi-server"
    ) -> None:
        super().__init__(
            lambda: waitress.create_server(
                app, host="127.0.0.1", port=0, threads=threads, asyncore_use_poll=True
            ),
            name=name,
        )
