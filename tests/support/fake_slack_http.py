"""The HTTP side of ``FakeSlack``: the request handler, the form/JSON parsing Slack does,
and the server that notes, as it accepts each connection, which test (which generation of
the fake, see ``FakeSlack.reset``) it belongs to.

A request of an earlier generation (on a connection accepted before the last reset, or to
an address the fake gave out before it) is refused with 410 and recorded nowhere: a bot
of the test before cannot land a call in the next one."""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from .servers import CONTENT_TYPE_JSON

if TYPE_CHECKING:
    from .fake_slack import FakeSlack


@dataclass
class Reply:
    status: int
    json_body: dict[str, Any] | None
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes = b""
    drop: bool = False


STALE = Reply(410, {"ok": False, "error": "fake_slack_of_an_earlier_test"})


class StampingServer(ThreadingHTTPServer):
    """Notes the fake's generation of each connection when it is accepted (before its
    thread starts, so that a reset in between cannot make an old connection new)."""

    def __init__(
        self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler], fake: FakeSlack
    ) -> None:
        self.fake = fake
        self.stamps: dict[socket.socket, int] = {}
        self.accepted = 0  # connections so far
        super().__init__(address, handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        self.stamps[request] = self.fake.generation
        self.accepted += 1
        super().process_request(request, client_address)

    def stamp_of(self, request: Any) -> int:
        return self.stamps.pop(request, -1)


def parse_params(query: str, body: bytes, content_type: str) -> dict[str, Any]:
    """Query string and body, form-encoded or JSON, as Slack reads them."""
    params: dict[str, Any] = _form(query)
    if not body:
        return params
    if content_type.lower().startswith(CONTENT_TYPE_JSON):
        loaded = json.loads(body.decode("utf-8"))
        if not isinstance(loaded, dict):
            raise ValueError("a JSON body must be an object")
        params.update(loaded)
    else:
        params.update(_form(body.decode("utf-8")))
    return params


def _form(text: str) -> dict[str, Any]:
    parsed = parse_qs(text, keep_blank_values=True)
    return {k: v[0] if len(v) == 1 else v for k, v in parsed.items()}


def make_handler(fake: FakeSlack) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "FakeSlack/1.0"
        stamp = -1

        def setup(self) -> None:
            super().setup()
            if isinstance(self.server, StampingServer):
                self.stamp = self.server.stamp_of(self.request)

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
            if len(body) < length:  # the sender died mid-request (a SIGKILL test): no whole
                self.close_connection = True  # request arrived, so Slack would process nothing
                return
            path = fake.enter(self.stamp, url.path.strip("/"))
            if path is None:  # a request of an earlier test
                self.close_connection = True
                self._send(STALE)
                return
            try:
                self._route(path, url.query, body)
            finally:
                fake.leave()

        def _route(self, path: str, query: str, body: bytes) -> None:
            headers = {k.lower(): v for k, v in self.headers.items()}
            kind, _, rest = path.partition("/")
            if kind == "files-pri" and rest:
                self._send(fake._serve_file(rest, headers))
                return
            if path == "oauth/v2/authorize" and self.command == "GET":  # an installer's browser
                status, extra, page = fake.oauth.authorize(query)
                self._send(Reply(status, None, {"Content-Type": "text/plain", **extra}, page))
                return
            if kind not in ("api", "response") or not rest:
                self._send(Reply(404, {"ok": False, "error": "unknown_path"}))
                return
            try:
                params = parse_params(query, body, headers.get("content-type", ""))
            except (ValueError, UnicodeDecodeError):
                self._send(Reply(400, {"ok": False, "error": "invalid_form_data"}))
                return
            self._send(fake._handle(path, params, headers, body))

        def _send(self, reply: Reply) -> None:
            if reply.drop:  # processed; now close the socket without an answer
                self.close_connection = True
                return
            if reply.json_body is not None:
                payload = json.dumps(reply.json_body).encode("utf-8")
                content_type = "application/json; charset=utf-8"
            else:
                payload = reply.raw
                content_type = reply.headers.pop("Content-Type", "text/html")
            self.send_response(reply.status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            for key, value in reply.headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(payload)

    return Handler
