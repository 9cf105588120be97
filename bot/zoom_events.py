"""Zoom's webhook at `POST /zoom/events` (issue 48), beside Slack's events.

Nothing is read before the signature is checked: `x-zm-signature` is `v0=` and the hex
HMAC-SHA256 of `v0:{x-zm-request-timestamp}:{body}` under an account's secret token,
the timestamp within 5 minutes of now either way; a request signed by no account's
token is refused with 401 and does nothing. `endpoint.url_validation` is answered with
the HMAC of its `plainToken`. A `recording.transcript_completed` (or a
`recording.completed` whose files hold a `TRANSCRIPT`) of a meeting whose topic is an
interview's (DEBRIEF_ZOOM_TOPICS) is queued in the store (store/zoom.py: once per
meeting uuid and transcript file, whoever says it first) and then acknowledged; the
download comes after (bot/zoom.py's fetcher, woken). A meeting whose topic is not an
interview's is not downloaded and nothing of it is stored or logged, but that it was
passed over; an event of an account no workspace has is acknowledged (so Zoom stops)
and ignored. A store that cannot record the event answers 503: Zoom tries again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from store.errors import StoreError
from store.models import ZoomRecording

from .http_limits import bounded_body
from .webhook import signature as signature_of  # Zoom signs as Slack does, and as we sign
from .zoom import ZoomAccount, is_interview, recordings_of, zoom_accounts

if TYPE_CHECKING:
    from store.factory import Backend

    from .http_app import StartResponse, WsgiApp
    from .settings import Settings

logger = logging.getLogger("debrief.zoom")

EVENTS = ("recording.completed", "recording.transcript_completed")
MAX_SKEW_S = 300  # a signed request's timestamp within 5 minutes of now, either way
_PLAIN_TOKEN = re.compile(r"[A-Za-z0-9_\-]{1,200}")


def fresh(timestamp: str, now: float | None = None) -> bool:
    """A request timestamp (Unix seconds; milliseconds are read as such) within
    MAX_SKEW_S of now, either way."""
    if not timestamp.isascii() or not timestamp.isdigit() or len(timestamp) > 16:
        return False
    at = int(timestamp)
    if at > 10**11:  # milliseconds
        at //= 1000
    return abs((time.time() if now is None else now) - at) <= MAX_SKEW_S


def signed_by(
    accounts: Sequence[ZoomAccount], timestamp: str, signature: str, body: bytes
) -> list[ZoomAccount]:
    """The accounts whose secret token signed this request (none: not Zoom's, or stale)."""
    if not signature or not fresh(timestamp):
        return []
    found: list[ZoomAccount] = []
    for secret in dict.fromkeys(a.secret_token for a in accounts if a.secret_token):
        if hmac.compare_digest(signature_of(secret, timestamp, body), signature):
            found += [a for a in accounts if a.secret_token == secret]
    return found


@dataclass
class Received:
    """What one signed event came to (for the log and the tests)."""

    outcome: str  # queued, again, passed_over, no_transcript, foreign, ignored
    queued: list[ZoomRecording] = field(default_factory=list)
    ws: int | None = None


def receive(
    event: dict[str, Any], signers: Sequence[ZoomAccount], store: Backend, topics: str
) -> Received:
    """A signed event: a matching meeting's transcripts queued in its account's space;
    anything else recorded nowhere. StoreError when the store cannot record it."""
    kind = str(event.get("event") or "")
    if kind not in EVENTS:
        return Received("ignored")
    payload = event.get("payload") if isinstance(event.get("payload"), dict) else {}
    assert isinstance(payload, dict)
    obj = payload.get("object") if isinstance(payload.get("object"), dict) else {}
    assert isinstance(obj, dict)
    account_id = str(payload.get("account_id") or obj.get("account_id") or "")
    account = next((a for a in signers if a.account_id == account_id), None)
    if account is None:
        logger.info("zoom: an event of an account no workspace has was ignored")
        return Received("foreign")
    if not is_interview(str(obj.get("topic") or ""), topics):
        logger.info("zoom: a meeting that is not an interview by its topic was passed over")
        return Received("passed_over", ws=account.ws)
    token = event.get("download_token")
    found = recordings_of(obj, account_id, "webhook", str(token) if token else None)
    if not found:
        return Received("no_transcript", ws=account.ws)
    space = store.in_workspace(account.ws)
    queued = [r for r in found if space.queue_zoom_recording(r)]
    return Received("queued" if queued else "again", queued, account.ws)


def _json(start_response: StartResponse, status: str, found: dict[str, Any]) -> list[bytes]:
    body = json.dumps(found).encode()
    start_response(
        status, [("Content-Type", "application/json"), ("Content-Length", str(len(body)))]
    )
    return [body]


def _plain(start_response: StartResponse, status: str, text: str) -> list[bytes]:
    start_response(status, [("Content-Type", "text/plain; charset=utf-8")])
    return [text.encode()]


def webhook_app(
    settings: Settings,
    store: Backend,
    decrypt: Callable[[str], str] | None = None,
    woken: Callable[[], None] = lambda: None,
) -> WsgiApp:
    """`POST /zoom/events` (see the module's docstring); `woken` is called when a
    transcript was queued (the fetcher looks at once)."""

    def application(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "POST":
            return _plain(start_response, "405 Method Not Allowed", "POST only")
        body = bounded_body(environ)
        if body is None:
            return _plain(start_response, "413 Content Too Large", "request body too large")
        timestamp = str(environ.get("HTTP_X_ZM_REQUEST_TIMESTAMP") or "")
        signature = str(environ.get("HTTP_X_ZM_SIGNATURE") or "")
        try:
            accounts = zoom_accounts(settings, store, decrypt)
        except StoreError as exc:
            logger.warning("zoom: cannot read the Zoom accounts (%s): Zoom will retry", exc)
            return _plain(start_response, "503 Service Unavailable", "try again")
        signers = signed_by(accounts, timestamp, signature, body)
        if not signers:
            answer = _unsigned_validation(accounts, signature, body)
            if answer is not None:
                return _json(start_response, "200 OK", answer)
            return _plain(start_response, "401 Unauthorized", "invalid request")
        try:
            event = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            event = None
        if not isinstance(event, dict):
            logger.warning("zoom: a signed request with an unreadable body (%d bytes)", len(body))
            return _plain(start_response, "400 Bad Request", "unreadable request body")
        if event.get("event") == "endpoint.url_validation":
            answer = _validation(event, str(signers[0].secret_token))
            if answer is None:
                return _plain(start_response, "400 Bad Request", "no plainToken")
            return _json(start_response, "200 OK", answer)
        try:
            got = receive(event, signers, store, settings.zoom_topics)
        except StoreError as exc:  # not recorded: not acknowledged, Zoom tries again
            logger.warning("zoom: cannot record an event (%s): Zoom will retry", exc)
            return _plain(start_response, "503 Service Unavailable", "try again")
        except Exception:
            logger.exception("zoom: an event could not be recorded")
            return _plain(start_response, "503 Service Unavailable", "try again")
        if got.queued:
            logger.info("zoom: %d transcript(s) queued", len(got.queued))
            woken()
        return _json(start_response, "200 OK", {"status": got.outcome})

    return application


def _validation(event: dict[str, Any], secret: str) -> dict[str, str] | None:
    payload = event.get("payload") if isinstance(event.get("payload"), dict) else {}
    assert isinstance(payload, dict)
    plain = payload.get("plainToken")
    if not isinstance(plain, str) or not plain or len(plain) > 1000:
        return None
    encrypted = hmac.new(secret.encode("utf-8"), plain.encode("utf-8"), hashlib.sha256)
    return {"plainToken": plain, "encryptedToken": encrypted.hexdigest()}


def _unsigned_validation(
    accounts: Sequence[ZoomAccount], signature: str, body: bytes
) -> dict[str, str] | None:
    """An `endpoint.url_validation` without a signature, where one secret token is all
    Debrief has: answered, but only for a plain token of letters, digits, `-` and `_`,
    which can never be the `v0:{timestamp}:{body}` a signature is made of (the answer
    signs nothing that could pass for an event)."""
    secrets = {a.secret_token for a in accounts if a.secret_token}
    if signature or len(secrets) != 1 or len(body) > 4096:
        return None
    try:
        event = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(event, dict) or event.get("event") != "endpoint.url_validation":
        return None
    payload = event.get("payload") if isinstance(event.get("payload"), dict) else {}
    assert isinstance(payload, dict)
    plain = payload.get("plainToken")
    if not isinstance(plain, str) or not _PLAIN_TOKEN.fullmatch(plain):
        return None
    return _validation(event, next(iter(secrets)))
