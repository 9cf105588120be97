"""Wire-level fakes of Slack for tests.

Everything here talks real HTTP / WebSocket on 127.0.0.1 with ephemeral ports:

* ``FakeSlack`` - a fake Web API (``base_url`` -> ``WebClient(base_url=...)``) that
  records every call, answers with plausible per-method results, supports scripted
  faults (429 with ``Retry-After``, 5xx, ``ok: false``) and records ``response_url`` posts.
* ``FakeSocketModeServer`` - a local Socket Mode WebSocket endpoint; ``apps.connections.open``
  on the attached ``FakeSlack`` returns its URL. Pushes envelopes, records acks.
* ``WsgiServer`` - runs any WSGI app (e.g. ``slack_bolt.adapter.wsgi.SlackRequestHandler``)
  under waitress on loopback, with a clean, thread-safe shutdown.
* Signing helpers and body builders that produce requests byte-for-byte the way Slack
  signs them (v0 HMAC-SHA256 over ``v0:{timestamp}:{raw body}``).
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import parse_qs, urlencode, urlsplit

import waitress
from websockets.exceptions import ConnectionClosed
from websockets.sync.server import Server, ServerConnection, serve

if TYPE_CHECKING:
    from wsgiref.types import WSGIApplication

__all__ = [
    "BOT_ID",
    "BOT_USER_ID",
    "CONTENT_TYPE_FORM",
    "CONTENT_TYPE_JSON",
    "TEAM_ID",
    "Call",
    "FakeSlack",
    "FakeSocketModeServer",
    "WsgiServer",
    "action_body",
    "command_body",
    "command_payload",
    "event_body",
    "event_payload",
    "post_signed",
    "sign",
    "url_verification_body",
]

TEAM_ID = "T0001"
TEAM_NAME = "Test"
TEAM_URL = "https://test.slack.com/"
BOT_USER_ID = "UBOT"
BOT_ID = "BBOT"
APP_ID = "A1"
CONTENT_TYPE_FORM = "application/x-www-form-urlencoded"
CONTENT_TYPE_JSON = "application/json"
DEFAULT_TIMEOUT = 5.0

Result = Mapping[str, Any]
ResultFactory = Callable[["Call"], Result]


# ---------------------------------------------------------------------------
# Recorded calls
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One request received by ``FakeSlack``.

    ``method`` is the Web API method (``"chat.postMessage"``) or, for posts to a
    response URL, ``"response/<name>"`` (``kind == "response"``).
    ``params`` merges query string and body (form values are ``str``; JSON values keep
    their JSON types; multipart file parts are ``bytes``). ``headers`` keys are lower-case.
    ``status`` is the HTTP status the fake answered with (429/5xx for scripted faults).
    """

    method: str
    params: dict[str, Any]
    headers: dict[str, str]
    time: float
    kind: str = "api"
    status: int = 200
    body: bytes = b""
    content_type: str = ""

    @property
    def token(self) -> str | None:
        """Token from ``Authorization: Bearer ...`` or a ``token`` param."""
        auth = self.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:].strip()
        token = self.params.get("token")
        return token if isinstance(token, str) else None

    @property
    def is_json(self) -> bool:
        return self.content_type.startswith(CONTENT_TYPE_JSON)

    def json_param(self, name: str, default: Any = None) -> Any:
        """A param that may arrive JSON-encoded in a form body (``blocks``, ``view``...)."""
        value = self.params.get(name, default)
        if isinstance(value, str) and value[:1] in ("[", "{"):
            try:
                return json.loads(value)
            except ValueError:
                return value
        return value


@dataclass
class _Fault:
    status: int
    remaining: int
    retry_after: int | None
    error: str


@dataclass
class _Recorder:
    lock: threading.Condition = field(default_factory=threading.Condition)
    calls: list[Call] = field(default_factory=list)


# ---------------------------------------------------------------------------
# Fake Web API
# ---------------------------------------------------------------------------


class FakeSlack:
    """Fake Slack Web API + response_url sink on ``http://127.0.0.1:<port>``.

    Use as a context manager (or ``start()`` / ``stop()``)::

        with FakeSlack() as fake:
            client = WebClient(token="xoxb-test", base_url=fake.base_url)
            client.chat_postMessage(channel="C1", text="hi")
            [call] = fake.wait_for("chat.postMessage")
    """

    def __init__(self) -> None:
        self._rec = _Recorder()
        self._faults: dict[str, list[_Fault]] = {}
        self._results: dict[str, Result | ResultFactory] = {}
        self._ts_counter = itertools.count(1)
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.socket_mode: FakeSocketModeServer | None = None

    # -- lifecycle ---------------------------------------------------------

    def start(self) -> Self:
        if self._httpd is not None:
            return self
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        httpd.daemon_threads = True
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="fake-slack-http",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        httpd, thread = self._httpd, self._thread
        self._httpd = self._thread = None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        if thread is not None:
            thread.join(timeout=DEFAULT_TIMEOUT)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # -- addresses ---------------------------------------------------------

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("FakeSlack is not started")
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """Root URL, ``http://127.0.0.1:PORT/``."""
        return f"http://127.0.0.1:{self.port}/"

    @property
    def base_url(self) -> str:
        """Web API base, ``http://127.0.0.1:PORT/api/`` (for ``WebClient(base_url=...)``)."""
        return f"{self.url}api/"

    def response_url(self, name: str = "default") -> str:
        """A response_url whose POSTs are recorded as method ``"response/<name>"``."""
        return f"{self.url}response/{name}"

    # -- scripting ---------------------------------------------------------

    def fail_next(
        self,
        method: str,
        *,
        status: int = 500,
        times: int = 1,
        retry_after: int | None = None,
        error: str | None = None,
    ) -> None:
        """Make the next ``times`` calls of ``method`` fail.

        * ``status=429``: ``Retry-After: <retry_after or 1>`` header and
          ``{"ok": false, "error": "ratelimited"}``.
        * ``status>=500``: that status with ``{"ok": false, "error": error or "fatal_error"}``.
        * ``status=200``: an API-level failure ``{"ok": false, "error": error}``
          (e.g. ``error="channel_not_found"``).

        ``method`` may also be ``"response/<name>"`` to fail response_url posts.
        Faults queue up: ``fail_next(m, status=429); fail_next(m, status=500)`` fails twice.
        """
        if status == 429:
            default_error = "ratelimited"
            retry_after = 1 if retry_after is None else retry_after
        elif status >= 500:
            default_error = "fatal_error"
        else:
            default_error = "internal_error"
        fault = _Fault(status, times, retry_after, error or default_error)
        with self._rec.lock:
            self._faults.setdefault(method, []).append(fault)

    def set_result(self, method: str, result: Result | ResultFactory) -> None:
        """Override the success body of ``method`` until ``reset()``.

        ``result`` (a mapping, or a callable taking the ``Call``) is merged over
        ``{"ok": True}`` - return ``{"ok": False, "error": ...}`` for a sticky failure.
        """
        with self._rec.lock:
            self._results[method] = result

    def reset(self) -> None:
        """Forget recorded calls, pending faults and result overrides."""
        with self._rec.lock:
            self._rec.calls.clear()
            self._faults.clear()
            self._results.clear()

    # -- inspection --------------------------------------------------------

    def calls(self, method: str | None = None) -> list[Call]:
        with self._rec.lock:
            return [c for c in self._rec.calls if method is None or c.method == method]

    def responses(self, name: str = "default") -> list[dict[str, Any]]:
        """JSON bodies posted to ``response_url(name)``."""
        return [dict(c.params) for c in self.calls(f"response/{name}")]

    def wait_for(self, method: str, count: int = 1, timeout: float = DEFAULT_TIMEOUT) -> list[Call]:
        """Block until at least ``count`` calls of ``method`` were recorded; return them.

        Raises ``TimeoutError`` (listing what was seen) otherwise.
        """
        deadline = time.monotonic() + timeout
        with self._rec.lock:
            while True:
                matching = [c for c in self._rec.calls if c.method == method]
                if len(matching) >= count:
                    return matching
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    seen = [c.method for c in self._rec.calls]
                    raise TimeoutError(
                        f"waited {timeout}s for {count}x {method}; got {len(matching)}; saw: {seen}"
                    )
                self._rec.lock.wait(remaining)

    # -- request handling (called from server threads) ---------------------

    def _next_ts(self) -> str:
        micros = 1_700_000_000_000_000 + next(self._ts_counter) * 100
        return f"{micros // 1_000_000}.{micros % 1_000_000:06d}"

    def _handle(
        self, kind: str, method: str, params: dict[str, Any], headers: dict[str, str], body: bytes
    ) -> _Reply:
        content_type = headers.get("content-type", "")
        with self._rec.lock:
            fault = self._take_fault(method)
            override = self._results.get(method)
        status = fault.status if fault is not None else 200
        call = Call(method, params, headers, time.time(), kind, status, body, content_type)
        reply: _Reply
        if fault is not None:
            extra = {"Retry-After": str(fault.retry_after)} if fault.retry_after is not None else {}
            reply = _Reply(fault.status, {"ok": False, "error": fault.error}, extra)
        elif kind == "response":
            reply = _Reply(200, None, {}, b"ok")
        else:
            result: dict[str, Any] = {"ok": True}
            if override is not None:
                result.update(override(call) if callable(override) else override)
            else:
                result.update(self._default_result(call))
            reply = _Reply(200, result, {})
        with self._rec.lock:
            self._rec.calls.append(call)
            self._rec.lock.notify_all()
        return reply

    def _take_fault(self, method: str) -> _Fault | None:
        queue = self._faults.get(method)
        if not queue:
            return None
        fault = queue[0]
        fault.remaining -= 1
        if fault.remaining <= 0:
            queue.pop(0)
        return fault

    def _default_result(self, call: Call) -> dict[str, Any]:
        p = call.params
        method = call.method
        if method == "auth.test":
            return {
                "url": TEAM_URL,
                "team": TEAM_NAME,
                "user": "debrief",
                "team_id": TEAM_ID,
                "user_id": BOT_USER_ID,
                "bot_id": BOT_ID,
                "is_enterprise_install": False,
            }
        if method in (
            "chat.postMessage",
            "chat.update",
            "chat.postEphemeral",
            "chat.scheduleMessage",
        ):
            channel = str(p.get("channel", ""))
            ts = self._next_ts() if method != "chat.update" else str(p.get("ts", ""))
            if method == "chat.postEphemeral":
                return {"message_ts": ts}
            message: dict[str, Any] = {
                "type": "message",
                "text": p.get("text", ""),
                "user": BOT_USER_ID,
                "bot_id": BOT_ID,
                "app_id": APP_ID,
                "team": TEAM_ID,
                "ts": ts,
            }
            for key in ("blocks", "attachments", "thread_ts", "metadata"):
                if key in p:
                    message[key] = call.json_param(key)
            if method == "chat.scheduleMessage":
                return {
                    "channel": channel,
                    "scheduled_message_id": f"Q{ts.replace('.', '')}",
                    "message": message,
                }
            result = {"channel": channel, "ts": ts, "message": message}
            if method == "chat.update":
                result["text"] = message["text"]
            return result
        if method == "chat.delete":
            return {"channel": p.get("channel", ""), "ts": p.get("ts", "")}
        if method == "chat.getPermalink":
            channel, ts = str(p.get("channel", "")), str(p.get("message_ts", ""))
            return {
                "channel": channel,
                "permalink": f"{TEAM_URL}archives/{channel}/p{ts.replace('.', '')}",
            }
        if method == "conversations.info":
            channel = str(p.get("channel", "C0"))
            return {"channel": _channel(channel)}
        if method == "conversations.open":
            users = str(p.get("users", "U0")).split(",")
            return {"channel": {"id": "D" + users[0][1:], "is_im": True, "user": users[0]}}
        if method == "users.info":
            return {"user": _user(str(p.get("user", "U0")))}
        if method in ("views.open", "views.push", "views.update", "views.publish"):
            view = call.json_param("view") or {}
            view = dict(view) if isinstance(view, dict) else {}
            view.setdefault("id", str(p.get("view_id") or f"V{next(self._ts_counter):06d}"))
            return {"view": view}
        if method == "apps.connections.open":
            if self.socket_mode is None:
                return {"ok": False, "error": "fake_socket_mode_server_not_attached"}
            return {"url": self.socket_mode.new_url()}
        return {}


def _channel(channel_id: str) -> dict[str, Any]:
    is_im = channel_id.startswith("D")
    return {
        "id": channel_id,
        "name": f"chan-{channel_id.lower()}",
        "is_channel": not is_im,
        "is_group": False,
        "is_im": is_im,
        "is_private": channel_id.startswith("G"),
        "is_archived": False,
        "is_member": True,
        "context_team_id": TEAM_ID,
    }


def _user(user_id: str) -> dict[str, Any]:
    name = f"user-{user_id.lower()}"
    real_name = f"User {user_id}"
    return {
        "id": user_id,
        "team_id": TEAM_ID,
        "name": name,
        "real_name": real_name,
        "tz": "UTC",
        "tz_offset": 0,
        "is_bot": user_id == BOT_USER_ID,
        "deleted": False,
        "profile": {"display_name": name, "real_name": real_name},
    }


@dataclass
class _Reply:
    status: int
    json_body: dict[str, Any] | None
    headers: dict[str, str]
    raw: bytes = b""


def _parse_params(query: str, body: bytes, content_type: str) -> dict[str, Any]:
    params: dict[str, Any] = _form(query)
    ctype = content_type.lower()
    if not body:
        return params
    if ctype.startswith(CONTENT_TYPE_JSON) or (not ctype and body[:1] == b"{"):
        loaded = json.loads(body.decode("utf-8"))
        if isinstance(loaded, dict):
            params.update(loaded)
    elif ctype.startswith("multipart/form-data"):
        params.update(_multipart(body, content_type))
    else:
        params.update(_form(body.decode("utf-8")))
    return params


def _form(text: str) -> dict[str, Any]:
    parsed = parse_qs(text, keep_blank_values=True)
    return {k: v[0] if len(v) == 1 else v for k, v in parsed.items()}


def _multipart(body: bytes, content_type: str) -> dict[str, Any]:
    message = BytesParser(policy=HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body
    )
    params: dict[str, Any] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not name:
            continue
        raw = part.get_payload(decode=True)
        payload = raw if isinstance(raw, bytes) else b""
        params[str(name)] = payload if part.get_filename() else payload.decode("utf-8")
    return params


def _make_handler(fake: FakeSlack) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "FakeSlack/1.0"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self._dispatch()

        def do_POST(self) -> None:
            self._dispatch()

        def _dispatch(self) -> None:
            url = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length > 0 else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            parts = url.path.strip("/").split("/", 1)
            if len(parts) != 2 or parts[0] not in ("api", "response") or not parts[1]:
                self._send(_Reply(404, {"ok": False, "error": "unknown_path"}, {}))
                return
            kind = "api" if parts[0] == "api" else "response"
            method = parts[1] if kind == "api" else f"response/{parts[1]}"
            try:
                params = _parse_params(url.query, body, headers.get("content-type", ""))
            except (ValueError, UnicodeDecodeError):
                self._send(_Reply(400, {"ok": False, "error": "invalid_form_data"}, {}))
                return
            self._send(fake._handle(kind, method, params, headers, body))

        def _send(self, reply: _Reply) -> None:
            if reply.json_body is not None:
                payload = json.dumps(reply.json_body).encode("utf-8")
                content_type = "application/json; charset=utf-8"
            else:
                payload = reply.raw
                content_type = "text/html"
            self.send_response(reply.status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            for key, value in reply.headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(payload)

    return Handler


# ---------------------------------------------------------------------------
# Fake Socket Mode server
# ---------------------------------------------------------------------------


class FakeSocketModeServer:
    """Local Socket Mode endpoint (``ws://127.0.0.1:PORT/link/?ticket=N&app_id=A1``).

    Pass the ``FakeSlack`` so its ``apps.connections.open`` hands out this server's URL.
    Sends ``hello`` on every connect; ``send_envelope`` pushes to the newest open
    connection; every client message carrying ``envelope_id`` is recorded as an ack.
    """

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
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------

    def start(self) -> Self:
        if self._server is not None:
            return self
        self._server = serve(
            self._serve_connection,
            "127.0.0.1",
            0,
            close_timeout=2,
            compression=None,
            ping_interval=self._ping_interval,
        )
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="fake-socket-mode", daemon=True
        )
        self._thread.start()
        if self._slack is not None:
            self._slack.socket_mode = self
        return self

    def stop(self) -> None:
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if self._slack is not None and self._slack.socket_mode is self:
            self._slack.socket_mode = None
        if server is not None:
            server.shutdown()
        if thread is not None:
            thread.join(timeout=DEFAULT_TIMEOUT)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # -- addresses ---------------------------------------------------------

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("FakeSocketModeServer is not started")
        return int(self._server.socket.getsockname()[1])

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


# ---------------------------------------------------------------------------
# WSGI app server (waitress) on loopback
# ---------------------------------------------------------------------------


class WsgiServer:
    """Serve a WSGI app with waitress on ``127.0.0.1:<ephemeral>`` in a background thread.

    ``url`` is ``http://127.0.0.1:PORT``. The asyncore loop runs in our own thread with a
    short poll so ``stop()`` is prompt and every socket/worker is closed by that thread.
    """

    def __init__(self, app: WSGIApplication, *, threads: int = 4) -> None:
        self._app = app
        self._threads = threads
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    def start(self) -> Self:
        if self._server is not None:
            return self
        self._stopping.clear()
        self._server = waitress.create_server(
            self._app, host="127.0.0.1", port=0, threads=self._threads
        )
        self._thread = threading.Thread(target=self._run, name="wsgi-server", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        server = self._server
        use_poll = server.adj.asyncore_use_poll
        while not self._stopping.is_set():
            server.asyncore.loop(timeout=0.05, map=server._map, use_poll=use_poll, count=1)
        server.task_dispatcher.shutdown(timeout=DEFAULT_TIMEOUT)
        for dispatcher in list(server._map.values()):
            dispatcher.close()

    def stop(self) -> None:
        thread = self._thread
        self._stopping.set()
        if thread is not None:
            thread.join(timeout=DEFAULT_TIMEOUT)
        self._server = self._thread = None

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
        if self._server is None:
            raise RuntimeError("WsgiServer is not started")
        # waitress reports effective_port as a *string* (getnameinfo NI_NUMERICSERV)
        return int(self._server.effective_port)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


# ---------------------------------------------------------------------------
# Signing and request bodies
# ---------------------------------------------------------------------------


def sign(body: bytes, secret: str, timestamp: int | None = None) -> dict[str, str]:
    """Slack v0 signature headers for ``body`` (exact raw bytes that will be sent)."""
    ts = int(time.time()) if timestamp is None else int(timestamp)
    base = b"v0:" + str(ts).encode("ascii") + b":" + body
    digest = hmac.new(secret.encode("utf-8"), base, hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": str(ts), "X-Slack-Signature": f"v0={digest}"}


def command_payload(
    text: str,
    command: str = "/candidate",
    user_id: str = "U123",
    channel_id: str = "C123",
    team_id: str = TEAM_ID,
    response_url: str = "https://hooks.slack.com/commands/T0001/1/xyz",
    trigger_id: str | None = None,
    *,
    user_name: str = "tester",
    channel_name: str = "general",
    team_domain: str = "test",
    api_app_id: str = APP_ID,
) -> dict[str, str]:
    """The fields Slack sends for a slash command (also the Socket Mode payload)."""
    return {
        "token": "verification-token",
        "team_id": team_id,
        "team_domain": team_domain,
        "channel_id": channel_id,
        "channel_name": channel_name,
        "user_id": user_id,
        "user_name": user_name,
        "command": command,
        "text": text,
        "api_app_id": api_app_id,
        "is_enterprise_install": "false",
        "response_url": response_url,
        "trigger_id": trigger_id
        or f"{int(time.time())}.{uuid.uuid4().int % 10**12}.{uuid.uuid4().hex}",
    }


def command_body(
    text: str,
    command: str = "/candidate",
    user_id: str = "U123",
    channel_id: str = "C123",
    team_id: str = TEAM_ID,
    response_url: str = "https://hooks.slack.com/commands/T0001/1/xyz",
    trigger_id: str | None = None,
    **extra: str,
) -> bytes:
    """Form-encoded slash command body (``Content-Type: application/x-www-form-urlencoded``)."""
    payload = command_payload(
        text, command, user_id, channel_id, team_id, response_url, trigger_id, **extra
    )
    return urlencode(payload).encode("utf-8")


def event_payload(
    event: Mapping[str, Any],
    team_id: str = TEAM_ID,
    event_id: str | None = None,
    api_app_id: str = APP_ID,
) -> dict[str, Any]:
    """An ``event_callback`` envelope (HTTP body / Socket Mode ``events_api`` payload)."""
    now = int(time.time())
    return {
        "token": "verification-token",
        "team_id": team_id,
        "api_app_id": api_app_id,
        "event": dict(event),
        "type": "event_callback",
        "event_id": event_id or f"Ev{uuid.uuid4().hex[:10].upper()}",
        "event_time": now,
        "authorizations": [
            {
                "enterprise_id": None,
                "team_id": team_id,
                "user_id": BOT_USER_ID,
                "is_bot": True,
                "is_enterprise_install": False,
            }
        ],
        "is_ext_shared_channel": False,
        "event_context": f"4-{uuid.uuid4().hex}",
    }


def event_body(
    event: Mapping[str, Any],
    team_id: str = TEAM_ID,
    event_id: str | None = None,
    api_app_id: str = APP_ID,
) -> bytes:
    """JSON ``event_callback`` body (``Content-Type: application/json``)."""
    return json.dumps(event_payload(event, team_id, event_id, api_app_id)).encode("utf-8")


def url_verification_body(challenge: str = "challenge-token") -> bytes:
    return json.dumps(
        {"token": "verification-token", "challenge": challenge, "type": "url_verification"}
    ).encode()


def action_body(payload: Mapping[str, Any]) -> bytes:
    """Interactivity body: form-encoded ``payload=<json>``."""
    return urlencode({"payload": json.dumps(payload)}).encode("utf-8")


def post_signed(
    url: str,
    body: bytes,
    secret: str,
    content_type: str | None = None,
    extra_headers: Mapping[str, str] | None = None,
    timestamp: int | None = None,
    timeout: float = 10.0,
) -> tuple[int, dict[str, str], bytes]:
    """POST ``body`` signed as Slack would; returns ``(status, headers, body)`` even for 4xx/5xx.

    ``content_type`` defaults to JSON when the body starts with ``{``, else form-encoded.
    ``extra_headers`` override the generated ones (e.g. a bad ``X-Slack-Signature``, or
    ``X-Slack-Retry-Num``).
    """
    if content_type is None:
        content_type = CONTENT_TYPE_JSON if body[:1] == b"{" else CONTENT_TYPE_FORM
    headers = {
        "Content-Type": content_type,
        "User-Agent": "Slackbot 1.0 (+https://api.slack.com/robots)",
    }
    headers.update(sign(body, secret, timestamp))
    headers.update(extra_headers or {})
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, _header_dict(response.headers.items()), response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, _header_dict(error.headers.items()), error.read()


def _header_dict(items: Iterable[tuple[str, str]]) -> dict[str, str]:
    return {k.lower(): v for k, v in items}
