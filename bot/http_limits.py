"""The limits of the endpoint open to the internet: what a request may be (its size, its
headers, how deep its JSON nests, its timestamp, Slack's signature), and how long it may
take to arrive, whoever sends it."""

from __future__ import annotations

import time
from typing import Any

from slack_bolt.request.internals import parse_body
from slack_sdk.signature import SignatureVerifier
from waitress.channel import HTTPChannel

MAX_BODY = 1024 * 1024  # Slack's requests are a few KB
MAX_HEADERS = 16 * 1024  # Slack's headers are under 2 KB
MAX_NESTING = 64  # arrays and objects within one another: Slack's payloads nest about 15 deep
MAX_TIMESTAMP_DIGITS = 12  # a Unix time in seconds has 10 digits until the year 2286

# Slack sends its few KB at once and waits 3 s for the answer: a request that takes longer
# than this to arrive is not Slack's. Without a deadline, a client sending a byte now and
# then keeps waitress's idle timeout from firing and holds a connection for ever.
REQUEST_SECONDS = 5
IDLE_SECONDS = 15  # a kept-alive connection with no request under way
# Connections open at once, slow ones included: well above what a few hundred slow clients
# take, and well below the 1024 file descriptors a process is often allowed (a connection
# can hold two: its socket and a temporary file for a large body).
CONNECTION_LIMIT = 400


def signed(verifier: SignatureVerifier, body: bytes, timestamp: str, signature: str) -> bool:
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


def nested_deeper_than(limit: int, value: object) -> bool:
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


def readable(text: str, content_type: str | None) -> bool:
    """Whether Bolt can read the body: it parses it exactly so and needs an object. Deep
    nesting is refused: near Python's recursion limit the parser fails, and just short of
    it ours succeeds where Bolt's own parse, a few calls deeper, would not."""
    try:
        parsed = parse_body(text, content_type)
    except (ValueError, RecursionError):
        return False
    return isinstance(parsed, dict) and not nested_deeper_than(MAX_NESTING, parsed)


class DeadlineChannel(HTTPChannel):  # type: ignore[misc]
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


def bounded_body(environ: dict[str, Any]) -> bytes | None:
    """A request's body, read once its Content-Length says it holds at most MAX_BODY
    bytes; None when it says more (or nothing sensible): nothing is read then."""
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    if length < 0 or length > MAX_BODY:
        return None
    body: bytes = environ["wsgi.input"].read(length) if length else b""
    return body
