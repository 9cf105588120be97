"""``FakeSocketModeServer``: a local Socket Mode WebSocket endpoint. ``apps.connections.open``
on the ``FakeSlack`` it is attached to returns its URL; it pushes envelopes and records acks."""

from __future__ import annotations

import itertools
import json
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Self

from websockets.exceptions import ConnectionClosed
from websockets.sync.server import Server, ServerConnection, serve

from .servers import DEFAULT_TIMEOUT, LoopbackServer
from .workspace import APP_ID

if TYPE_CHECKING:
    from .fake_slack import FakeSlack


class FakeSocketModeServer(LoopbackServer):
    """Local Socket Mode endpoint (``ws://127.0.0.1:PORT/link/?ticket=N&app_id=A1``).

    Pass the ``FakeSlack`` so its ``apps.connections.open`` hands out this server's URL.
    Sends ``hello`` on every connect; ``send_envelope`` pushes to the newest open
    connection; every client message carrying ``envelope_id`` is recorded as an ack.
    """

    thread_name = "fake-socket-mode"

    def __init__(
        self,
        slack: FakeSlack | None = None,
        *,
        send_hello: bool = True,
        ping_interval: float | None = 0.25,
    ) -> None:
        # Server pings keep slack_sdk's builtin client snappy: its reader blocks in recv()
        # for up to 3 s (hard-coded socket timeout), which otherwise delays close() and the
        # first message after a reconnect by ~3 s. Real Slack pings too; None disables.
        super().__init__()
        self._slack = slack
        self._send_hello = send_hello
        self._ping_interval = ping_interval
        self._cond = threading.Condition()
        self._open: list[ServerConnection] = []
        self._connections_opened = 0
        self._acks: dict[str, dict[str, Any]] = {}
        self._sent_at: dict[str, float] = {}
        self._acked_at: dict[str, float] = {}
        self._received: list[str] = []
        self._tickets = itertools.count(1)
        self._server: Server | None = None

    # -- lifecycle ---------------------------------------------------------

    def start(self) -> Self:
        super().start()
        if self._slack is not None:
            self._slack.socket_mode = self
        return self

    def stop(self) -> None:
        if self._slack is not None and self._slack.socket_mode is self:
            self._slack.socket_mode = None
        super().stop()

    def _bind(self) -> Callable[[], None]:
        self._server = serve(
            self._serve_connection,
            "127.0.0.1",
            0,
            close_timeout=2,
            compression=None,
            ping_interval=self._ping_interval,
        )
        return self._server.serve_forever

    def _shutdown(self) -> None:
        if self._server is not None:
            self._server.shutdown()

    def _close(self) -> None:
        self._server = None

    def _port(self) -> int:
        assert self._server is not None
        return int(self._server.socket.getsockname()[1])

    # -- addresses ---------------------------------------------------------

    @property
    def url(self) -> str:
        # NB: slack_sdk's builtin client sends "GET {path}?{query}", so keep a real path.
        return f"ws://127.0.0.1:{self.port}/link/"

    def new_url(self) -> str:
        """A fresh connection URL (what ``apps.connections.open`` returns)."""
        return f"{self.url}?ticket={next(self._tickets)}&app_id={APP_ID}"

    # -- connection state --------------------------------------------------

    @property
    def connections_opened(self) -> int:
        with self._cond:
            return self._connections_opened

    @property
    def open_connections(self) -> int:
        with self._cond:
            return len(self._open)

    def wait_for_connection(self, count: int = 1, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Wait until ``count`` connections were opened in total and one is open."""
        if not self._wait(lambda: self._connections_opened >= count and bool(self._open), timeout):
            raise TimeoutError(f"no Socket Mode connection #{count} within {timeout}s")

    def _wait(self, predicate: Callable[[], bool], timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(predicate, timeout)

    # -- sending -----------------------------------------------------------

    def send_envelope(
        self,
        type: str = "slash_commands",
        payload: Mapping[str, Any] | None = None,
        *,
        envelope_id: str | None = None,
        accepts_response_payload: bool | None = None,
        retry_attempt: int = 0,
        retry_reason: str = "",
        timeout: float = DEFAULT_TIMEOUT,
    ) -> str:
        """Push an envelope (``slash_commands``/``interactive``/``events_api``); return its id."""
        envelope_id = envelope_id or str(uuid.uuid4())
        if accepts_response_payload is None:
            accepts_response_payload = type != "events_api"
        envelope: dict[str, Any] = {
            "envelope_id": envelope_id,
            "payload": dict(payload or {}),
            "type": type,
            "accepts_response_payload": accepts_response_payload,
        }
        if type == "events_api":
            envelope["retry_attempt"] = retry_attempt
            envelope["retry_reason"] = retry_reason
        with self._cond:
            self._sent_at[envelope_id] = time.monotonic()
        self.send_raw(envelope, timeout=timeout)
        return envelope_id

    def send_disconnect(
        self, reason: str = "refresh_requested", timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        """Ask the client to reconnect (it calls ``apps.connections.open`` again)."""
        self.send_raw(
            {"type": "disconnect", "reason": reason, "debug_info": {"host": "fake"}},
            timeout=timeout,
        )

    def send_raw(self, message: Mapping[str, Any] | str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.wait_for_connection(timeout=timeout)
        with self._cond:
            connection = self._open[-1]
        connection.send(message if isinstance(message, str) else json.dumps(message))

    def close_connections(self, code: int = 1001, reason: str = "") -> None:
        """Close all open connections from the server side (client should reconnect)."""
        with self._cond:
            connections = list(self._open)
        for connection in connections:
            connection.close(code, reason)

    # -- acks --------------------------------------------------------------

    def wait_for_ack(self, envelope_id: str, timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
        """The ack JSON (``{"envelope_id": ..., "payload": {...}?}``) for ``envelope_id``."""
        if not self._wait(lambda: envelope_id in self._acks, timeout):
            raise TimeoutError(f"no ack for envelope {envelope_id} within {timeout}s")
        with self._cond:
            return self._acks[envelope_id]

    def ack_latency(self, envelope_id: str) -> float:
        """Seconds between sending the envelope and receiving its ack."""
        with self._cond:
            return self._acked_at[envelope_id] - self._sent_at[envelope_id]

    @property
    def acks(self) -> dict[str, dict[str, Any]]:
        with self._cond:
            return dict(self._acks)

    @property
    def received(self) -> list[str]:
        """Every text message the client sent, raw."""
        with self._cond:
            return list(self._received)

    def reset(self) -> None:
        with self._cond:
            self._acks.clear()
            self._sent_at.clear()
            self._acked_at.clear()
            self._received.clear()

    # -- server side -------------------------------------------------------

    def _serve_connection(self, connection: ServerConnection) -> None:
        with self._cond:
            self._open.append(connection)
            self._connections_opened += 1
            count = self._connections_opened
        try:
            if self._send_hello:
                connection.send(json.dumps(_hello(count)))
            with self._cond:
                self._cond.notify_all()
            for message in connection:
                text = message if isinstance(message, str) else message.decode("utf-8")
                self._on_message(text)
        except ConnectionClosed:
            pass
        finally:
            with self._cond:
                if connection in self._open:
                    self._open.remove(connection)
                self._cond.notify_all()

    def _on_message(self, text: str) -> None:
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        with self._cond:
            self._received.append(text)
            if isinstance(data, dict) and isinstance(data.get("envelope_id"), str):
                self._acks[data["envelope_id"]] = data
                self._acked_at[data["envelope_id"]] = time.monotonic()
            self._cond.notify_all()


def _hello(num_connections: int) -> dict[str, Any]:
    return {
        "type": "hello",
        "num_connections": num_connections,
        "debug_info": {
            "host": "fake-applink",
            "build_number": 1,
            "approximate_connection_time": 18060,
        },
        "connection_info": {"app_id": APP_ID},
    }
