"""The HTTP side of ``FakeZoom`` (support/fake_zoom.py): the request handler, and what
Zoom answers each request: ``POST /oauth/token``, ``GET /v2/users``, the user and account
cloud-recording listings, a recording file's download and the "CDN" it redirects to, and
the scripted faults. The rules it keeps, and the documents they come from, are in
fake_zoom.py's docstring."""

from __future__ import annotations

import base64
import calendar
import json
import secrets
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, quote

if TYPE_CHECKING:
    from .fake_zoom import FakeZoom, Meeting, User

TOKEN_LIFETIME = 3600  # seconds (Server-to-Server OAuth: one hour, no refresh token)
PAGE_TOKEN_LIFETIME = 15 * 60
DEFAULT_PAGE_SIZE = 30
MAX_PAGE_SIZE = 300
API_JSON = "application/json;charset=UTF-8"


@dataclass
class Fault:
    status: int
    remaining: int
    retry_after: int | None


@dataclass
class Reply:
    status: int
    body: bytes = b""
    content_type: str = API_JSON
    headers: dict[str, str] = field(default_factory=dict)
    short: bool = False  # promise the whole body, send half, close


def _json(status: int, body: dict[str, Any], **headers: str) -> Reply:
    return Reply(status, json.dumps(body).encode("utf-8"), API_JSON, dict(headers))


def _api_error(status: int, code: int, message: str) -> Reply:
    return _json(status, {"code": code, "message": message})


def _day(text: str) -> date | None:
    try:
        parsed = datetime.strptime(text, "%Y-%m-%d").date()
    except ValueError:
        return None
    return parsed if parsed.isoformat() == text else None  # no "2026-1-5"


def _month_after(day: date) -> date:
    """The same day a calendar month later (the month's last day when it has none)."""
    year, month = (day.year + 1, 1) if day.month == 12 else (day.year, day.month + 1)
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def answer(
    fake: FakeZoom,
    method: str,
    path: str,
    args: dict[str, str],
    headers: dict[str, str],
    body: bytes,
) -> Reply:
    parts = [p for p in path.split("/") if p]
    if parts == ["oauth", "token"] and method == "POST":
        with fake._lock:
            fake.token_requests += 1
        return _fault(fake, "token") or _token(fake, args, headers, body)
    if len(parts) == 3 and parts[:2] == ["rec", "download"] and method == "GET":
        return _fault(fake, "download") or _download(fake, parts[2], args, headers)
    if len(parts) == 3 and parts[0] == "cdn" and method == "GET":
        return _cdn_file(fake, parts[1], parts[2])
    if parts[:1] == ["v2"] and method == "GET":
        return _api(fake, parts[1:], args, headers)
    return _api_error(404, 404, "Not Found")


def _fault(fake: FakeZoom, kind: str) -> Reply | None:
    with fake._lock:
        queue = fake._faults.get(kind)
        if not queue:
            return None
        fault = queue[0]
        fault.remaining -= 1
        if fault.remaining <= 0:
            queue.pop(0)
    if fault.status == 429:
        message = (
            "You have reached the maximum per-second rate limit for this API. Try again later."
        )
        extra = {
            "Retry-After": str(fault.retry_after),
            "X-RateLimit-Category": "Medium",
            "X-RateLimit-Type": "QPS",
        }
        return _json(429, {"code": 429, "message": message}, **extra)
    extra = {"Retry-After": str(fault.retry_after)} if fault.retry_after is not None else {}
    return _json(fault.status, {"code": fault.status, "message": "Internal error."}, **extra)


# -- OAuth --------------------------------------------------------------------------------


def _token(fake: FakeZoom, args: dict[str, str], headers: dict[str, str], body: bytes) -> Reply:
    form = dict(args)
    if body and headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            text = ""
        form |= {k: v[-1] for k, v in parse_qs(text, keep_blank_values=True).items()}
    client = _basic(headers.get("authorization", ""))
    if client is None:
        return _json(
            400,
            {"reason": "Client ID or client secret is missing.", "error": "invalid_request"},
        )
    if client != (fake.client_id, fake.client_secret):
        return _json(
            401, {"reason": "Invalid client_id or client_secret", "error": "invalid_client"}
        )
    grant = form.get("grant_type")
    if not grant:
        return _json(400, {"reason": "Missing grant type", "error": "invalid_request"})
    if grant != "account_credentials":
        return _json(400, {"reason": "Unsupported grant type", "error": "unsupported_grant_type"})
    if form.get("account_id") != fake.account_id:
        return _json(400, {"reason": "Invalid account_id", "error": "invalid_request"})
    token = "eyJzm." + secrets.token_urlsafe(32)
    with fake._lock:
        fake._access_tokens[token] = fake.clock() + TOKEN_LIFETIME
    return _json(
        200,
        {
            "access_token": token,
            "token_type": "bearer",
            "expires_in": TOKEN_LIFETIME,
            "scope": fake.scopes,
            "api_url": fake.url,
        },
    )


def _access_problem(fake: FakeZoom, token: str | None) -> str | None:
    """Why Zoom would refuse a call with ``token``, or None."""
    with fake._lock:
        expiry = fake._access_tokens.get(token or "")
        now = fake.clock()
    if expiry is None:
        return "Invalid access token."
    if now >= expiry:
        return "Access token is expired."
    return None


# -- the REST API -----------------------------------------------------------------------


def _api(fake: FakeZoom, parts: list[str], args: dict[str, str], headers: dict[str, str]) -> Reply:
    if parts == ["users"]:
        kind = "users"
    elif len(parts) == 3 and parts[0] in ("users", "accounts") and parts[2] == "recordings":
        kind = "recordings"
    else:
        return _api_error(404, 404, "Not Found")
    refused = _access_problem(fake, _bearer(headers))
    if refused is not None:
        return _api_error(401, 124, refused)
    fault = _fault(fake, kind)
    if fault is not None:
        return fault
    page_size = _page_size(args.get("page_size"))
    if page_size is None:
        return _api_error(400, 300, "Invalid field: page_size.")
    if kind == "users":
        return _list_users(fake, args, page_size)
    if parts[0] == "users":
        user = _user(fake, parts[1])
        if user is None:
            return _api_error(404, 1001, f"User does not exist: {parts[1]}.")
        return _list_recordings(fake, f"users/{user.id}", args, page_size, user.id)
    if parts[1] not in ("me", fake.account_id):
        return _api_error(404, 2001, f"Account does not exist: {parts[1]}.")
    if not fake.account_recordings:
        return _api_error(400, 200, "No permission.")
    return _list_recordings(fake, f"accounts/{fake.account_id}", args, page_size, None)


def _user(fake: FakeZoom, key: str) -> User | None:
    with fake._lock:
        users = list(fake._users.values())
    if key == "me":
        return users[0] if users else None
    return next((u for u in users if u.id == key or u.email.lower() == key.lower()), None)


def _page(
    fake: FakeZoom, listing: str, args: dict[str, str], items: list[Any], page_size: int
) -> tuple[list[Any], str] | Reply:
    """One page of ``items`` and the token of the next ("" at the end), or a refusal
    of a page token this listing did not give."""
    offset = 0
    given = args.get("next_page_token")
    now = fake.clock()
    if given:
        with fake._lock:
            held = fake._page_tokens.get(given)
        if held is None or held[0] != listing or now >= held[2]:
            return _api_error(400, 300, "The next page token is invalid or expired.")
        offset = held[1]
    page = items[offset : offset + page_size]
    following = ""
    if offset + page_size < len(items):
        following = secrets.token_urlsafe(24)
        with fake._lock:
            fake._page_tokens[following] = (
                listing,
                offset + page_size,
                now + PAGE_TOKEN_LIFETIME,
            )
    return page, following


def _list_users(fake: FakeZoom, args: dict[str, str], page_size: int) -> Reply:
    status = args.get("status") or "active"
    if status not in ("active", "inactive", "pending"):
        return _api_error(400, 300, "Invalid field: status.")
    with fake._lock:
        users = [u for u in fake._users.values() if u.status == status]
    paged = _page(fake, f"users?status={status}", args, users, page_size)
    if isinstance(paged, Reply):
        return paged
    page, following = paged
    return _json(
        200,
        {
            "page_count": max(1, -(-len(users) // page_size)),
            "page_number": 1,
            "page_size": page_size,
            "total_records": len(users),
            "next_page_token": following,
            "users": [
                {
                    "id": u.id,
                    "first_name": u.email.split("@")[0],
                    "last_name": "",
                    "display_name": u.email.split("@")[0],
                    "email": u.email,
                    "type": 2,
                    "timezone": "Asia/Shanghai",
                    "verified": 1,
                    "created_at": u.created_at,
                    "language": "en-US",
                    "status": u.status,
                    "role_id": "0" if i == 0 else "2",
                }
                for i, u in enumerate(page)
            ],
        },
    )


def _list_recordings(
    fake: FakeZoom, listing: str, args: dict[str, str], page_size: int, user_id: str | None
) -> Reply:
    today = datetime.fromtimestamp(fake.clock(), UTC).date()
    given_from, given_to = args.get("from"), args.get("to")
    start = _day(given_from) if given_from else today
    if start is None:
        return _api_error(400, 300, f"Invalid field: from ({given_from}).")
    end = _day(given_to) if given_to else today + timedelta(days=1)
    if end is None:
        return _api_error(400, 300, f"Invalid field: to ({given_to}).")
    if end < start:
        return _api_error(400, 300, "The 'to' date must not be before the 'from' date.")
    if end > _month_after(start):
        return _api_error(400, 300, "The date range must be within one month.")
    with fake._lock:
        found = [
            m
            for m in fake._meetings
            if (user_id is None or m.host_id == user_id) and start <= m.start_time.date() <= end
        ]
    found.sort(key=lambda m: m.start_time, reverse=True)
    paged = _page(fake, f"{listing}?{start}..{end}", args, found, page_size)
    if isinstance(paged, Reply):
        return paged
    page, following = paged
    return _json(
        200,
        {
            "from": start.isoformat(),
            "to": end.isoformat(),
            "page_count": max(1, -(-len(found) // page_size)),
            "page_size": page_size,
            "total_records": len(found),
            "next_page_token": following,
            # a user's listing does not name the host's email; the account's does
            "meetings": [fake.meeting_object(m, host_email=user_id is None) for m in page],
        },
    )


# -- downloads ----------------------------------------------------------------------------


def _download(fake: FakeZoom, file_id: str, args: dict[str, str], headers: dict[str, str]) -> Reply:
    with fake._lock:
        meeting = next((m for m in fake._meetings if any(f.id == file_id for f in m.files)), None)
    if meeting is None:
        return _api_error(404, 3301, "This recording does not exist.")
    token = _bearer(headers) or args.get("access_token")
    if not _may_download(fake, token, meeting):
        return _json(401, {"status": False, "errorCode": 401, "errorMessage": "Forbidden"})
    key = secrets.token_urlsafe(16)
    with fake._lock:
        fake._cdn[key] = file_id
    name = quote(f"{meeting.topic}.{meeting.file(file_id).extension.lower()}")
    return Reply(302, b"", "text/html", {"Location": f"{fake.url}/cdn/{key}/{name}"})


def _may_download(fake: FakeZoom, token: str | None, meeting: Meeting) -> bool:
    if not token:
        return False
    with fake._lock:
        held = fake._download_tokens.get(token)
        now = fake.clock()
    if held is not None:
        return held[0] == meeting.uuid and now < held[1]
    return _access_problem(fake, token) is None


def _cdn_file(fake: FakeZoom, key: str, name: str) -> Reply:
    with fake._lock:
        file_id = fake._cdn.get(key)
        meeting = next((m for m in fake._meetings if any(f.id == file_id for f in m.files)), None)
        if file_id is None or meeting is None:
            return Reply(403, b"<Error><Code>AccessDenied</Code></Error>", "application/xml")
        short = fake._short.get(file_id, 0) > 0
        if short:
            fake._short[file_id] -= 1
        else:
            fake._served[file_id] = fake._served.get(file_id, 0) + 1
    f = meeting.file(file_id)
    disposition = f"attachment; filename*=UTF-8''{name}"
    return Reply(200, f.content, f.content_type, {"Content-Disposition": disposition}, short)


def _basic(authorization: str) -> tuple[str, str] | None:
    if not authorization.lower().startswith("basic "):
        return None
    try:
        decoded = base64.b64decode(authorization[6:].strip(), validate=True).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None
    client_id, sep, secret = decoded.partition(":")
    return (client_id, secret) if sep else None


def _bearer(headers: dict[str, str]) -> str | None:
    auth = headers.get("authorization", "")
    if not auth.lower().startswith("bearer "):
        return None
    return auth[7:].strip() or None


def _page_size(given: str | None) -> int | None:
    """The page size Zoom serves: 30 when none is given, at most 300 (a larger one is
    served as 300); None for one it refuses."""
    if given is None or given == "":
        return DEFAULT_PAGE_SIZE
    try:
        size = int(given)
    except ValueError:
        return None
    return None if size < 1 else min(size, MAX_PAGE_SIZE)


def make_handler(fake: FakeZoom) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "FakeZoom/1.0"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self._dispatch()

        def do_POST(self) -> None:
            self._dispatch()

        def _dispatch(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length > 0 else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            reply = fake.handle(self.command, self.path, headers, body)
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(reply.body)))
            for key, value in reply.headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(reply.body[: len(reply.body) // 2] if reply.short else reply.body)
            if reply.short:
                self.wfile.flush()
                self.close_connection = True

    return Handler
