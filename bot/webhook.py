"""Hiring decisions handed to the ATS: each POSTed to DEBRIEF_WEBHOOK_URL, signed the
way Slack signs its own requests, at least once, once across replicas.

A hiring decision writes its event in its own transaction (store/outcomes.py); the
`Deliverer` that `serve` runs on every replica takes due events one at a time
(store/webhooks.py: a claim is a lease, so of two replicas one takes each event), POSTs
the stored body as it is, and marks it delivered on a 2xx. Anything else (a 3xx too:
redirects are not followed; a timeout, a refused connection) is tried again later, after
a pause that grows from seconds to half an hour, for as long as it takes: an event is
never given up. One log line a failed attempt, never the secret, the signature or the
URL's path and query (a token may hide there); the audit says `webhook:delivered` and
`webhook:failed`. A process that stops mid-way leaves its events in the database, and
the next one (or another replica, once the lease ran out) delivers them.

Headers: `X-Debrief-Timestamp` (Unix seconds) and `X-Debrief-Signature`, `v0=` and the
hex HMAC-SHA256 of `v0:{timestamp}:{body}` under DEBRIEF_WEBHOOK_SECRET.

Installed in many workspaces, a workspace's admins may give it its own URL and secret in
App Home (the secret encrypted with DEBRIEF_TOKEN_KEY, as tokens are): each event goes
to its own workspace's URL, signed with its secret, else to DEBRIEF_WEBHOOK_URL (issue
34). One candidate's events go in the order they were recorded (store/webhooks.py).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import random
import socket
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.client import HTTPException
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from handlers.audit import AuditEvent, record

from .schedule import DueLoop

if TYPE_CHECKING:
    from store.export_models import WebhookEvent
    from store.factory import Backend

    from .settings import Settings

logger = logging.getLogger("debrief.webhook")

# The pause after the 1st, 2nd, ... failed attempt of an event; past the last, the last.
SCHEDULE_S: tuple[float, ...] = (1.0, 5.0, 30.0, 120.0, 600.0, 1800.0)
JITTER = 0.1  # each pause is up to 10% longer or shorter, so replicas do not retry in step
TIMEOUT_S = 10.0  # one POST: connecting, and each read of the answer
LEASE_S = 60.0  # how long a claimed event is ours: longer than a POST can take
POLL_S = 2.0  # how often the database is asked for due events (other replicas', a restart's)
ANSWER_BYTES = 64 * 1024  # what is read of a receiver's answer before closing it


def hands_decisions(settings: Settings, store: Backend) -> bool:
    """Whether the data space `store` reads hands its hiring decisions to an ATS: the
    environment's URL, or its own (App Home), as the Slack side decides
    (handlers/deps.py). A command that changes a person's decision (forget, link,
    unlink) writes the ATS's event only then."""
    if settings.webhook_url is not None:
        return True
    own = store.workspace_settings(store.ws)
    return bool(own.webhook_url and own.webhook_secret_enc)


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """`v0=` and the hex HMAC-SHA256 of `v0:{timestamp}:{body}` under `secret`: how Slack
    signs its requests, and how a receiver checks ours."""
    base = b"v0:" + timestamp.encode("ascii") + b":" + body
    return "v0=" + hmac.new(secret.encode("utf-8"), base, hashlib.sha256).hexdigest()


def signed_headers(secret: str, body: bytes, now: float | None = None) -> dict[str, str]:
    timestamp = str(int(time.time() if now is None else now))
    return {
        "Content-Type": "application/json; charset=utf-8",
        "User-Agent": "Debrief-Webhook",
        "X-Debrief-Timestamp": timestamp,
        "X-Debrief-Signature": signature(secret, timestamp, body),
    }


def where(url: str) -> str:
    """The receiver as logs and doctor name it: scheme, host and port, never the user,
    password, path or query (any of them may hold a token)."""
    parts = urlsplit(url)
    host = parts.hostname or "?"
    if ":" in host:  # an IPv6 address
        host = f"[{host}]"
    return f"{parts.scheme}://{host}" + (f":{parts.port}" if parts.port else "")


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A 3xx is an answer like any other that is not 2xx: not delivered, tried again."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirects)


@dataclass(frozen=True)
class Target:
    """Where one event goes, and the secret it is signed with."""

    url: str
    secret: str = field(repr=False)


@dataclass(frozen=True)
class Answer:
    """What one POST came to: delivered (a 2xx), or why not, in a few words."""

    delivered: bool
    error: str = ""


@dataclass(frozen=True)
class Tried:
    """One event tried: delivered, or when it is tried next."""

    event_id: str
    delivered: bool
    next_at: datetime | None = None


def post(url: str, secret: str, body: bytes, timeout: float = TIMEOUT_S) -> Answer:
    """POST `body` to `url`, signed; never raises for what a network or a receiver does."""
    request = urllib.request.Request(
        url, data=body, headers=signed_headers(secret, body), method="POST"
    )
    try:
        with _OPENER.open(request, timeout=timeout) as answer:
            answer.read(ANSWER_BYTES)
            status = int(answer.status)
    except urllib.error.HTTPError as exc:
        exc.close()
        moved = ": redirects are not followed" if 300 <= exc.code < 400 else ""
        return Answer(False, f"HTTP {exc.code}{moved}")
    except urllib.error.URLError as exc:
        return Answer(False, _reason(exc.reason))
    except (OSError, HTTPException) as exc:  # a timeout or a reset while reading the answer
        return Answer(False, _reason(exc))
    if 200 <= status < 300:
        return Answer(True)
    return Answer(False, f"HTTP {status}")


def _reason(reason: object) -> str:
    if isinstance(reason, TimeoutError):
        return "timed out"
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused"
    if isinstance(reason, socket.gaierror):
        return f"host not found ({reason.strerror or reason})"
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror
    return str(reason) or type(reason).__name__


class Deliverer:
    """Delivers the due webhook events of `store` to `url` from a thread of its own, from
    `start()` to `stop()`; `wake()` makes it look at once.

    `schedule` (seconds) is the pause after each failed attempt of an event, the last one
    repeated; `jitter` the share by which each pause may vary. With `decrypt` (installed
    in many workspaces: DEBRIEF_TOKEN_KEY's), an event whose workspace set its own URL
    and secret goes there instead; `url` may then be None (none of the environment's)."""

    def __init__(
        self,
        store: Backend,
        url: str | None,
        secret: str | None,
        *,
        decrypt: Callable[[str], str] | None = None,
        schedule: Sequence[float] = SCHEDULE_S,
        jitter: float = JITTER,
        poll_s: float = POLL_S,
        timeout_s: float = TIMEOUT_S,
        lease_s: float = LEASE_S,
        claimer: str | None = None,
    ) -> None:
        if not schedule:
            raise ValueError("the retry schedule needs at least one pause")
        if lease_s <= timeout_s:
            raise ValueError("the lease must outlast a POST")
        self.store = store
        self.url = url
        self.secret = secret
        self.decrypt = decrypt
        self.schedule = tuple(schedule)
        self.jitter = jitter
        self.poll_s = poll_s
        self.timeout_s = timeout_s
        self.lease_s = lease_s
        self.claimer = claimer or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.receiver = where(url) if url else "each workspace's own URL"
        self._random = random.Random()
        self._loop = DueLoop(self.deliver_due, poll_s, "debrief-webhook", logger)

    @classmethod
    def from_settings(cls, settings: Settings, store: Backend, **options: Any) -> Deliverer:
        """The deliverer `serve` runs (`options`: the schedule, the poll, … for tests)."""
        decrypt = None
        if settings.many_workspaces and settings.token_key:
            from .oauth_cipher import TokenCipher

            decrypt = TokenCipher(settings.token_key).decrypt
        url, secret = settings.webhook_url, settings.webhook_secret
        return cls(store, url, secret, decrypt=decrypt, **options)

    def target(self, ws: int) -> Target | None:
        """Where data space `ws`'s events go: its own URL and secret (App Home), else the
        environment's; None when neither is set."""
        if self.decrypt is not None:
            own = self.store.workspace_settings(ws)
            if own.webhook_url and own.webhook_secret_enc:
                return Target(own.webhook_url, self.decrypt(own.webhook_secret_enc))
        if self.url and self.secret:
            return Target(self.url, self.secret)
        return None

    # -- one event at a time -----------------------------------------------------------

    def pause(self, attempts: int) -> float:
        """Seconds to wait after an event's `attempts`-th failed attempt."""
        base = self.schedule[min(max(attempts, 1), len(self.schedule)) - 1]
        return max(0.0, base * (1 + self._random.uniform(-self.jitter, self.jitter)))

    def deliver_one(self) -> Tried | None:
        """Take one due event and try it; None when none was due (or serve is stopping)."""
        if self._loop.stopping:
            return None
        taken = self.store.claim_webhook_events(self.claimer, self.lease_s, limit=1)
        if not taken:
            return None
        event = taken[0]
        receiver = self.receiver
        try:
            target = self.target(event.ws)
            if target is None:  # its workspace's URL was cleared, and there is no other
                answer = Answer(False, "no webhook URL for its workspace")
            else:
                receiver = where(target.url)
                body = event.body.encode("utf-8")
                answer = post(target.url, target.secret, body, self.timeout_s)
        except Exception as exc:  # a bug, or a secret the key cannot decrypt: tried again
            logger.exception("webhook: could not send event %s", event.event_id)
            answer = Answer(False, f"{type(exc).__name__} (see the log)")
        if answer.delivered:
            self._delivered(event, receiver)
            return Tried(event.event_id, True)
        return Tried(event.event_id, False, self._failed(event, answer.error, receiver))

    def _delivered(self, event: WebhookEvent, receiver: str) -> None:
        attempt = event.attempts + 1
        if self.store.webhook_delivered(event.event_id, self.claimer):
            audit = self.store.in_workspace(event.ws)  # in the decision's own space
            record(audit, [AuditEvent("debrief", "webhook:delivered", event.candidate_id)])
            logger.info(
                "webhook: event %s delivered to %s (attempt %d)",
                event.event_id,
                receiver,
                attempt,
            )
        else:  # forgotten meanwhile, or our lease ran out and a replica took it
            logger.info(
                "webhook: event %s delivered to %s, but it was no longer ours to mark"
                " (forgotten, or taken over by another replica)",
                event.event_id,
                receiver,
            )

    def _failed(self, event: WebhookEvent, error: str, receiver: str) -> datetime:
        attempt = event.attempts + 1
        pause = self.pause(attempt)
        retry_at = datetime.now(UTC) + timedelta(seconds=pause)
        self.store.webhook_failed(event.event_id, self.claimer, error, retry_at)
        if self.store.webhook_event(event.event_id) is not None:  # not forgotten meanwhile
            audit = self.store.in_workspace(event.ws)
            record(audit, [AuditEvent("debrief", "webhook:failed", event.candidate_id)])
        logger.warning(
            "webhook: event %s not delivered to %s (%s), attempt %d: trying again in %s",
            event.event_id,
            receiver,
            error,
            attempt,
            _seconds(pause),
        )
        return retry_at

    def deliver_due(self) -> float:
        """Every event due now, one after the other; how long to wait before looking
        again (the poll, or less when a failed one is due sooner)."""
        wait = self.poll_s
        while (tried := self.deliver_one()) is not None:
            if tried.next_at is not None:
                ahead = (tried.next_at - datetime.now(UTC)).total_seconds()
                wait = min(wait, max(0.0, ahead))
        return wait

    # -- the thread --------------------------------------------------------------------

    def start(self) -> Deliverer:
        if self._loop.start():
            logger.info("webhook: hiring decisions are sent to %s", self.receiver)
        return self

    def wake(self) -> None:
        """Look for due events now (a decision was just recorded)."""
        self._loop.wake()

    def stop(self) -> None:
        """No new attempt; one under way finishes (at most the POST's timeout)."""
        self._loop.stop(self.timeout_s + 2)


def _seconds(pause: float) -> str:
    if pause < 90:
        return f"{pause:.0f} s"
    if pause < 5400:
        return f"{pause / 60:.0f} min"
    return f"{pause / 3600:.1f} h"
