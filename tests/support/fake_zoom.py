"""``FakeZoom``: a strict fake of the parts of Zoom Debrief talks to, real HTTP on
``127.0.0.1:<port>``, recording every request. Written from Zoom's published documentation:

- webhooks, their signature and URL validation:
  https://developers.zoom.us/docs/api/webhooks/ (``x-zm-signature`` = ``v0=`` + hex
  HMAC-SHA256 of ``v0:{x-zm-request-timestamp}:{raw body}`` under the app's secret token;
  ``endpoint.url_validation``: answer ``plainToken`` and ``encryptedToken``, the hex
  HMAC-SHA256 of the plain token), https://developers.zoom.us/blog/webhook-delays/
- the recording events: https://developers.zoom.us/docs/api/meetings/events/
  (``recording.completed``, ``recording.transcript_completed``; ``download_token`` at the
  top level), https://developers.zoom.us/blog/meeting-api-querying-tips-part4/
- Server-to-Server OAuth: https://developers.zoom.us/docs/internal-apps/s2s-oauth/ (the
  ``account_credentials`` grant, HTTP Basic client id and secret, one-hour tokens, no
  refresh token), https://developers.zoom.us/docs/integrations/oauth-error-messages/
- the REST API: https://developers.zoom.us/docs/api/users/ (``GET /users``),
  https://developers.zoom.us/docs/api/meetings/#tag/cloud-recording (``GET
  /users/{userId}/recordings``, ``GET /accounts/{accountId}/recordings``),
  https://developers.zoom.us/docs/api/pagination/ (``next_page_token``, 15 minutes),
  https://developers.zoom.us/docs/api/rate-limits/ (429, ``Retry-After``),
  https://developers.zoom.us/docs/api/errors/ and
  https://developers.zoom.us/blog/access-token-change-faq/ (the token in the
  ``Authorization`` header only).

What it refuses, as Zoom does:

- ``POST /oauth/token`` (arguments in the query string or a form body): no or wrong HTTP
  Basic credentials (401 ``invalid_client``), another account id (400
  ``invalid_request``), a grant type other than ``account_credentials``.
- ``/v2/...`` without ``Authorization: Bearer <a token it issued>``, or with one an hour
  old by its clock: 401 ``{"code": 124, ...}`` (no ``access_token`` query argument).
- recordings: ``from``/``to`` not ``yyyy-mm-dd``, ``to`` before ``from``, or ``to`` later
  than one calendar month after ``from`` (2026-01-31 reaches 2026-02-28): 400 ``{"code":
  300, ...}``; an unknown user: 404 ``{"code": 1001, ...}``; a ``next_page_token`` it did not
  give for that listing, or older than 15 minutes: 400 code 300. Without ``from``, the
  range is today to tomorrow (UTC, by its clock); without ``to`` alone, tomorrow.
  A meeting is listed when its ``start_time``'s UTC date is within [from, to], newest
  first. ``page_size`` over 300 is served as 300 (and the answer says ``page_size: 300``),
  none is 30, one below 1 or not a number is refused (400 code 300).
- ``GET /v2/users``: the same paging; ``status`` (default ``active``) filters.
- ``GET /v2/accounts/{accountId}/recordings``: ``accountId`` ``me`` or the account's own;
  after ``disable_account_recordings()``, 400 ``{"code": 200, "message": "No
  permission."}``, as for an account that is not a master account.
- a recording file's ``download_url`` (``/rec/download/<file id>``): the token in
  ``Authorization: Bearer`` or an ``access_token`` query argument, either a download
  token of that meeting's event (24 hours, until ``expire_download_tokens()``) or a valid
  access token; otherwise 401. A good one is answered with a 302 to the file on the "CDN"
  (``/cdn/...``), which serves its bytes.
- any other path: 404.

The JSON bodies of refusals follow Zoom's shape (``code`` and ``message`` for the API,
``reason`` and ``error`` for OAuth); where the docs do not give the exact message, the
wording is the fake's own, so a client must not match on it.

What it answers each request is ``support.fake_zoom_http``. One fake serves a whole test
run: ``reset()`` between tests brings back a new one's state (its tokens stop working with
it).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import itertools
import json
import secrets
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

from .fake_zoom_http import Fault, Reply, answer, make_handler
from .servers import DEFAULT_TIMEOUT, HttpServer

ACCOUNT_ID = "fAkEzOoMaCcT01"
CLIENT_ID = "fakeZoomClientId01"
CLIENT_SECRET = "fake-zoom-client-secret"
SECRET_TOKEN = "fake-zoom-webhook-secret-token"
SCOPES = (
    "cloud_recording:read:list_user_recordings:admin "
    "cloud_recording:read:list_account_recordings:admin user:read:list_users:admin"
)
DOWNLOAD_TOKEN_LIFETIME = 24 * 3600  # a webhook's download_token
USER_AGENT = "Zoom Marketplace/1.0a"
EVENTS = ("recording.completed", "recording.transcript_completed")
FAULT_KINDS = ("token", "users", "recordings", "download")

# Each kind of file a cloud recording has: file_type -> (file_extension, recording_type,
# the Content-Type the CDN serves it with)
FILE_KINDS: dict[str, tuple[str, str, str]] = {
    "MP4": ("MP4", "shared_screen_with_speaker_view", "video/mp4"),
    "M4A": ("M4A", "audio_only", "audio/mp4"),
    "CHAT": ("TXT", "chat_file", "text/plain"),
    "TRANSCRIPT": ("VTT", "audio_transcript", "text/vtt"),
}


@dataclass(frozen=True)
class ZoomRequest:
    """One request the fake received: ``query`` keeps the last value of each argument,
    ``headers`` are lower-cased; ``status`` is what it answered."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    status: int = 0


@dataclass(frozen=True)
class RecordingFile:
    id: str
    file_type: str
    content: bytes
    recording_start: str
    recording_end: str

    @property
    def extension(self) -> str:
        return FILE_KINDS[self.file_type][0]

    @property
    def recording_type(self) -> str:
        return FILE_KINDS[self.file_type][1]

    @property
    def content_type(self) -> str:
        return FILE_KINDS[self.file_type][2]


@dataclass(frozen=True)
class Meeting:
    """A recorded meeting held in the fake. ``start_time``: UTC. ``files``: its recording
    files (the transcript's id is ``transcript_file_id``, None when it has none)."""

    id: int
    uuid: str
    topic: str
    host_id: str
    host_email: str
    start_time: datetime
    timezone: str
    duration: int
    files: tuple[RecordingFile, ...]
    transcript_file_id: str | None
    served_from: str  # the fake's root, ``http://127.0.0.1:PORT``

    @property
    def start_time_text(self) -> str:
        return _zulu(self.start_time)

    def download_url(self, file_id: str) -> str:
        """Where the fake serves one of its files (a token is needed, see the module)."""
        return f"{self.served_from}/rec/download/{quote(file_id)}"

    @property
    def transcript_url(self) -> str | None:
        tid = self.transcript_file_id
        return None if tid is None else self.download_url(tid)

    def file(self, file_id: str) -> RecordingFile:
        return next(f for f in self.files if f.id == file_id)


@dataclass
class User:
    id: str
    email: str
    status: str
    created_at: str


def _zulu(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _digest(*parts: object) -> bytes:
    return hashlib.sha256("|".join(map(str, parts)).encode()).digest()


def encrypted_token(plain_token: str, secret_token: str) -> str:
    """What an endpoint answers to ``endpoint.url_validation``: hex HMAC-SHA256."""
    return hmac.new(secret_token.encode(), plain_token.encode(), hashlib.sha256).hexdigest()


class FakeZoom(HttpServer):
    """Strict fake Zoom (OAuth, REST API, recording downloads, webhook sender) on
    ``http://127.0.0.1:<port>``. ``clock``: wall-clock seconds, which decide when tokens
    expire and what "today" is."""

    def __init__(self, *, clock: Callable[[], float] = time.time, name: str = "fake-zoom") -> None:
        super().__init__(make_handler(self), name=name)
        self._lock = threading.Condition()
        self._in_flight = 0
        self._fresh(clock)

    def _fresh(self, clock: Callable[[], float]) -> None:
        """Every piece of state a test may see or change, as a new fake has it."""
        self.clock = clock
        self.account_id = ACCOUNT_ID
        self.client_id = CLIENT_ID
        self.client_secret = CLIENT_SECRET
        self.secret_token = SECRET_TOKEN
        self.scopes = SCOPES
        self.token_requests = 0  # every request to /oauth/token, refused ones too
        self.last_plain_token: str | None = None
        self.account_recordings = True
        self._ids = itertools.count(1)  # meetings added: their default ids and uuids
        self._requests: list[ZoomRequest] = []
        self._users: dict[str, User] = {}  # by id, in the order added
        self._meetings: list[Meeting] = []
        self._access_tokens: dict[str, float] = {}  # token -> expires at
        self._download_tokens: dict[str, tuple[str, float]] = {}  # -> (meeting uuid, expiry)
        self._page_tokens: dict[str, tuple[str, int, float]] = {}  # -> (listing, offset, exp)
        self._cdn: dict[str, str] = {}  # a CDN link's key -> file id
        self._faults: dict[str, list[Fault]] = {}
        self._short: dict[str, int] = {}  # file id -> how many more downloads to cut short
        self._served: dict[str, int] = {}  # file id -> downloads served whole

    # -- addresses -------------------------------------------------------------------

    @property
    def api_url(self) -> str:
        """The REST API's base, ``http://127.0.0.1:PORT/v2/``."""
        return f"{self.url}/v2/"

    @property
    def oauth_url(self) -> str:
        """Where ``oauth/token`` is, ``http://127.0.0.1:PORT/``."""
        return f"{self.url}/"

    def download_url(self, file_id: str) -> str:
        return f"{self.url}/rec/download/{quote(file_id)}"

    # -- the account's content --------------------------------------------------------

    def add_user(self, email: str, user_id: str | None = None, *, status: str = "active") -> str:
        """A user of the account (the first one added is its owner, ``me``); returns the
        id. Adding an email again returns the id it has."""
        with self._lock:
            for user in self._users.values():
                if user.email.lower() == email.lower():
                    return user.id
            uid = user_id or base64.urlsafe_b64encode(_digest("user", email)).decode()[:22]
            created = _zulu(datetime.fromtimestamp(self.clock(), UTC))
            self._users[uid] = User(uid, email, status, created)
            return uid

    def add_meeting(
        self,
        *,
        topic: str,
        start_time: datetime | str,
        host_email: str,
        transcript: bytes | None,
        timezone: str = "Asia/Shanghai",
        meeting_id: int | None = None,
        uuid: str | None = None,
        other_files: bool = True,
        duration: int = 45,
    ) -> Meeting:
        """A meeting recorded to the cloud, hosted by ``host_email`` (added as a user if
        new): its transcript (VTT bytes; None: none was made) and, with ``other_files``,
        the video, audio and chat files Zoom keeps beside it. ``start_time``: an aware
        datetime or ``…Z`` text."""
        if isinstance(start_time, str):
            start = datetime.fromisoformat(start_time.replace("Z", "+00:00"))
        else:
            start = start_time
        if start.tzinfo is None:
            raise ValueError("start_time must carry its offset (Zoom's are UTC)")
        start = start.astimezone(UTC).replace(microsecond=0)
        host_id = self.add_user(host_email)
        n = next(self._ids)
        mid = meeting_id if meeting_id is not None else 81_000_000_000 + n * 7919
        muuid = uuid or base64.b64encode(_digest("meeting", mid, n)[:16]).decode()
        begun, ended = (
            _zulu(start + timedelta(seconds=5)),
            _zulu(start + timedelta(minutes=duration)),
        )
        kinds = ["MP4", "M4A", "CHAT"] if other_files else []
        files = [
            RecordingFile(
                _digest("file", muuid, kind).hex()[:8] + "-" + _digest(kind, n).hex()[:28],
                kind,
                f"{kind} of {topic}".encode(),
                begun,
                ended,
            )
            for kind in kinds
        ]
        transcript_id = None
        if transcript is not None:
            transcript_id = _digest("transcript", muuid, n).hex()[:36]
            files.append(RecordingFile(transcript_id, "TRANSCRIPT", transcript, begun, ended))
        meeting = Meeting(
            mid, muuid, topic, host_id, host_email, start, timezone, duration, tuple(files),
            transcript_id, self.url,
        )  # fmt: skip
        with self._lock:
            self._meetings.append(meeting)
        return meeting

    # -- what Zoom sends ----------------------------------------------------------------

    def meeting_object(
        self, meeting: Meeting, *, file_types: Iterable[str] | None = None, host_email: bool = True
    ) -> dict[str, Any]:
        """The meeting as Zoom describes it in an event or a listing (``payload.object``)."""
        kinds = None if file_types is None else set(file_types)
        files = [f for f in meeting.files if kinds is None or f.file_type in kinds]
        described: dict[str, Any] = {
            "uuid": meeting.uuid,
            "id": meeting.id,
            "account_id": self.account_id,
            "host_id": meeting.host_id,
            "topic": meeting.topic,
            "type": 2,
            "start_time": meeting.start_time_text,
            "timezone": meeting.timezone,
            "duration": meeting.duration,
            "total_size": sum(len(f.content) for f in files),
            "recording_count": len(files),
            "share_url": f"{self.url}/rec/share/{quote(meeting.uuid, safe='')}",
            "recording_files": [self._file_object(meeting, f) for f in files],
        }
        if host_email:
            described["host_email"] = meeting.host_email
        return described

    def _file_object(self, meeting: Meeting, f: RecordingFile) -> dict[str, Any]:
        return {
            "id": f.id,
            "meeting_id": meeting.uuid,
            "recording_start": f.recording_start,
            "recording_end": f.recording_end,
            "file_type": f.file_type,
            "file_extension": f.extension,
            "file_size": len(f.content),
            "play_url": f"{self.url}/rec/play/{quote(f.id)}",
            "download_url": self.download_url(f.id),
            "status": "completed",
            "recording_type": f.recording_type,
        }

    def event(
        self,
        kind: str,
        meeting: Meeting,
        *,
        download_token: bool = True,
        account_id: str | None = None,
        event_ts: int | None = None,
        file_types: Iterable[str] | None = None,
    ) -> dict[str, Any]:
        """The body Zoom posts for ``kind``: ``recording.completed`` describes every file
        of the meeting (``file_types`` narrows them, e.g. to a completion that came before
        its transcript), ``recording.transcript_completed`` the transcript alone. With
        ``download_token``, a token for this meeting's files, valid 24 hours, comes along."""
        if kind not in EVENTS:
            raise ValueError(f"FakeZoom sends {EVENTS}, not {kind!r}")
        if kind == "recording.transcript_completed":
            if meeting.transcript_file_id is None:
                raise ValueError("a meeting without a transcript has no transcript_completed")
            file_types = ["TRANSCRIPT"]
        body: dict[str, Any] = {
            "event": kind,
            "event_ts": event_ts if event_ts is not None else int(self.clock() * 1000),
            "payload": {
                "account_id": account_id or self.account_id,
                "object": self.meeting_object(meeting, file_types=file_types),
            },
        }
        if download_token:
            token = "dt." + secrets.token_urlsafe(24)
            with self._lock:
                expiry = self.clock() + DOWNLOAD_TOKEN_LIFETIME
                self._download_tokens[token] = (meeting.uuid, expiry)
            body["download_token"] = token
        return body

    def signed_headers(
        self, body: bytes, *, timestamp: int | None = None, secret: str | None = None
    ) -> dict[str, str]:
        """``x-zm-request-timestamp`` (seconds) and ``x-zm-signature`` for ``body``."""
        stamp = str(int(self.clock()) if timestamp is None else timestamp)
        key = (self.secret_token if secret is None else secret).encode()
        mac = hmac.new(key, b"v0:" + stamp.encode() + b":" + body, hashlib.sha256)
        return {"x-zm-request-timestamp": stamp, "x-zm-signature": "v0=" + mac.hexdigest()}

    def deliver(
        self,
        url: str,
        body: dict[str, Any] | bytes,
        *,
        timestamp: int | None = None,
        secret: str | None = None,
        signed: bool = True,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> tuple[int, bytes]:
        """POST ``body`` to ``url`` as Zoom does (compact JSON, its headers, signed unless
        ``signed=False``); the status and body of the answer. Zoom counts only a 200 or
        204 within 3 seconds as delivered and otherwise sends the event again 5, 25 and
        85 minutes later: a test that means a retry calls ``deliver`` again (``timeout``
        is the test's patience, not Zoom's 3 seconds, so a loaded machine is no failure)."""
        raw = body if isinstance(body, bytes) else json.dumps(body, separators=(",", ":")).encode()
        headers = {
            "Content-Type": "application/json; charset=utf-8",
            "User-Agent": USER_AGENT,
            "x-zm-trackingid": "v=2.0;clid=us06;rid=" + secrets.token_hex(8),
        }
        if signed:
            headers |= self.signed_headers(raw, timestamp=timestamp, secret=secret)
        request = urllib.request.Request(url, raw, headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as refused:
            with refused:
                return refused.code, refused.read()

    def validate_endpoint(self, url: str) -> tuple[int, dict[str, Any] | None]:
        """Zoom's ``endpoint.url_validation`` request to ``url`` (its plain token is kept in
        ``last_plain_token``): the answer's status and JSON object (None if it is not one).
        ``validation_ok(answer)`` says whether the endpoint answered as Zoom requires."""
        plain = secrets.token_urlsafe(16)
        self.last_plain_token = plain
        body = {
            "payload": {"plainToken": plain},
            "event_ts": int(self.clock() * 1000),
            "event": "endpoint.url_validation",
        }
        status, raw = self.deliver(url, body)
        try:
            answer = json.loads(raw)
        except ValueError:
            return status, None
        return status, answer if isinstance(answer, dict) else None

    def validation_ok(self, answer: dict[str, Any] | None, plain: str | None = None) -> bool:
        """The answer echoes the plain token and its HMAC under the secret token."""
        plain = plain if plain is not None else self.last_plain_token
        if answer is None or plain is None:
            return False
        expected = encrypted_token(plain, self.secret_token)
        return answer.get("plainToken") == plain and answer.get("encryptedToken") == expected

    # -- scripting ----------------------------------------------------------------------

    def fail(self, kind: str, status: int, times: int = 1, retry_after: int | None = None) -> None:
        """The next ``times`` requests of ``kind`` (``token``, ``users``, ``recordings``,
        ``download``) are refused with ``status`` and Zoom's body: 429 with ``Retry-After``
        (``retry_after``, default 1) and the rate-limit headers, or a 5xx. Faults queue."""
        if kind not in FAULT_KINDS:
            raise ValueError(f"fault kinds are {FAULT_KINDS}")
        if status == 429 and retry_after is None:
            retry_after = 1
        with self._lock:
            self._faults.setdefault(kind, []).append(Fault(status, times, retry_after))

    def cut_short(self, file_id: str, times: int = 1) -> None:
        """The next ``times`` downloads of the file promise its length, send half, close."""
        with self._lock:
            self._short[file_id] = self._short.get(file_id, 0) + times

    def expire_download_tokens(self) -> None:
        """Every download token given so far stops working (401)."""
        with self._lock:
            self._download_tokens = {t: (m, -1.0) for t, (m, _) in self._download_tokens.items()}

    def disable_account_recordings(self) -> None:
        """``GET /accounts/{id}/recordings`` answers as for an account that is not a master
        account (400, code 200, "No permission.")."""
        with self._lock:
            self.account_recordings = False

    def reset(self, *, clock: Callable[[], float] = time.time) -> None:
        """The fake as a new one would be; requests still being handled end first."""
        with self._lock:
            self._lock.wait_for(lambda: self._in_flight == 0, DEFAULT_TIMEOUT)
            self._fresh(clock)

    # -- inspection ----------------------------------------------------------------------

    @property
    def requests(self) -> list[ZoomRequest]:
        """Every request seen, in order (a copy)."""
        with self._lock:
            return list(self._requests)

    def downloads(self, file_id: str) -> int:
        """How many times the file was served whole."""
        with self._lock:
            return self._served.get(file_id, 0)

    @property
    def meetings(self) -> list[Meeting]:
        with self._lock:
            return list(self._meetings)

    # -- answering (called from the server's threads) -----------------------------------

    def handle(self, method: str, target: str, headers: dict[str, str], body: bytes) -> Reply:
        url = urlsplit(target)
        args = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        with self._lock:
            self._in_flight += 1
        try:
            reply = answer(self, method, url.path, args, headers, body)
            with self._lock:
                seen = ZoomRequest(method, url.path, args, headers, reply.status)
                self._requests.append(seen)
            return reply
        finally:
            with self._lock:
                self._in_flight -= 1
                self._lock.notify_all()
