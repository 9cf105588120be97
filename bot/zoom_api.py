"""Zoom's REST API, as much of it as Debrief needs (issue 48): a Server-to-Server OAuth
token, the account's cloud recordings, and downloading one transcript.

- **Token**: `POST {DEBRIEF_ZOOM_OAUTH_URL}oauth/token?grant_type=account_credentials
  &account_id=…` with the client id and secret as HTTP Basic; kept until a minute before
  it runs out, asked again when Zoom refuses it (401).
- **Recordings**: the whole account's, every page: `GET accounts/{accountId}/recordings`;
  where Zoom does not offer that (an account that is not a master account answers 4xx),
  every user's (`GET users`, then `GET users/{userId}/recordings`). Zoom lists at most a
  month at a time (`from`/`to`, dates in UTC): a longer range is asked in 30-day parts.
- **Download**: the file's `download_url` with `Authorization: Bearer` (the event's
  download token, or the OAuth token); Zoom answers with a redirect to its file store,
  which is followed without the token (it never leaves Zoom's host). At most `limit`
  bytes are read; an answer cut short (fewer bytes than its Content-Length) is an error,
  never a transcript.

Every failure is a `ZoomError` saying whether trying again later may work (`retry`: a
429, a 5xx, a timeout, a cut) and how long Zoom asked to wait (`Retry-After`).
Nothing here logs a token, a secret or a download URL's query.
"""

from __future__ import annotations

import base64
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from email.utils import parsedate_to_datetime
from http.client import HTTPException, IncompleteRead
from typing import Any
from urllib.parse import urlencode, urlsplit

TIMEOUT_S = 20.0  # one request: connecting, and each read of the answer
PAGE_SIZE = 300  # the most Zoom lists a page
WINDOW_DAYS = 30  # Zoom lists at most a month of recordings in one call
TOKEN_MARGIN_S = 60.0  # a token is asked again this long before it runs out
ANSWER_BYTES = 8 * 1024 * 1024  # the most read of an API answer (a page of 300 meetings)


class ZoomError(Exception):
    """What Zoom (or the way to it) answered instead: `status` (None: no answer),
    whether trying again later may work, and the wait Zoom asked for."""

    def __init__(
        self, what: str, status: int | None = None, retry: bool = True, wait: float | None = None
    ) -> None:
        super().__init__(what)
        self.status = status
        self.retry = retry
        self.wait = wait


@dataclass(frozen=True)
class Credentials:
    """A Server-to-Server OAuth app's: the account it reads and how it signs in."""

    account_id: str
    client_id: str
    client_secret: str = field(repr=False)


def _host(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname or '?'}"


def _wait(headers: Any) -> float | None:
    """The seconds Zoom's `Retry-After` asks for: a number of seconds, or (past a daily
    limit, as Zoom's docs show it) the date and time to try again."""
    value = headers.get("Retry-After") if headers is not None else None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        at = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        try:
            at = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
    at = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    return max(0.0, (at - datetime.now(UTC)).total_seconds())


def _said(status: int, body: bytes) -> str:
    """Zoom's own words for a refusal (`message`, `reason`, `error`), else the status."""
    try:
        found = json.loads(body.decode("utf-8", "replace")) if body else {}
    except ValueError:
        found = {}
    if isinstance(found, dict):
        for key in ("message", "reason", "error"):
            if isinstance(found.get(key), str) and found[key]:
                return f"HTTP {status}: {found[key][:200]}"
    return f"HTTP {status}"


def _failure(exc: BaseException) -> ZoomError:
    """A request that got no usable answer: a refusal, a timeout, a reset, a cut."""
    if isinstance(exc, urllib.error.HTTPError):
        body = exc.read(4096) if exc.fp is not None else b""
        exc.close()
        status = int(exc.code)
        retry = status == 429 or status >= 500
        return ZoomError(_said(status, body), status, retry, _wait(exc.headers))
    if isinstance(exc, IncompleteRead):
        return ZoomError("the answer was cut short")
    if isinstance(exc, urllib.error.URLError):
        reason = exc.reason
        if isinstance(reason, TimeoutError | socket.timeout):
            return ZoomError("timed out")
        return ZoomError(str(getattr(reason, "strerror", None) or reason))
    if isinstance(exc, TimeoutError):
        return ZoomError("timed out")
    return ZoomError(str(exc) or type(exc).__name__)


class _NoTokenElsewhere(urllib.request.HTTPRedirectHandler):
    """Follow Zoom's redirect to its file store, without the token when it leaves the
    host the request was made to."""

    def redirect_request(
        self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any, newurl: str
    ) -> urllib.request.Request | None:
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None and _host(newurl) != _host(req.full_url):
            new.remove_header("Authorization")
            new.unredirected_hdrs.pop("Authorization", None)
        return new


_OPENER = urllib.request.build_opener(_NoTokenElsewhere)


@dataclass(frozen=True)
class Downloaded:
    """A file's bytes as read (at most the limit + 1) and `size`, the whole file's as
    its answer declared it (Content-Length), else as many bytes as were read."""

    data: bytes
    size: int


def _read_whole(answer: Any, limit: int, refuse_more: bool = True) -> bytes:
    """The answer's body, at most `limit` bytes (past it: ZoomError, or with
    `refuse_more` False the first `limit` + 1 bytes, for the caller to refuse); an
    answer shorter than its Content-Length is cut short."""
    data: bytes = answer.read(limit + 1)
    if len(data) > limit:
        if not refuse_more:
            return data
        raise ZoomError(f"larger than {limit} bytes", retry=False)
    length = answer.headers.get("Content-Length")
    if length is not None and length.isdigit() and int(length) != len(data):
        raise ZoomError("the answer was cut short")
    return data


def download(url: str, bearer: str, limit: int, timeout: float = TIMEOUT_S) -> Downloaded:
    """A recording file's bytes, fetched with `bearer` (a download token or an access
    token): at most `limit` + 1 (more than `limit` is the reader's to refuse, with its
    reason and the file's declared `size`); ZoomError when it cannot be had whole."""
    if urlsplit(url).scheme not in ("http", "https"):
        raise ZoomError("not an http(s) download URL", retry=False)
    request = urllib.request.Request(
        url, headers={"Authorization": f"Bearer {bearer}", "User-Agent": "Debrief"}
    )
    try:
        with _OPENER.open(request, timeout=timeout) as answer:
            data = _read_whole(answer, limit, refuse_more=False)
            length = answer.headers.get("Content-Length")
            declared = int(length) if length is not None and length.isdigit() else 0
            return Downloaded(data, max(len(data), declared))
    except ZoomError:
        raise
    except (urllib.error.URLError, OSError, HTTPException) as exc:
        raise _failure(exc) from exc


class ZoomApi:
    """One Zoom account's API through its Server-to-Server OAuth app; safe to share
    between threads (the token is kept behind a lock)."""

    def __init__(
        self,
        credentials: Credentials,
        api_url: str = "https://api.zoom.us/v2/",
        oauth_url: str = "https://zoom.us/",
        timeout: float = TIMEOUT_S,
    ) -> None:
        self.credentials = credentials
        self.api_url = api_url if api_url.endswith("/") else api_url + "/"
        self.oauth_url = oauth_url if oauth_url.endswith("/") else oauth_url + "/"
        self.timeout = timeout
        self._token: tuple[str, float] | None = None
        self._lock = threading.Lock()

    # -- the token -------------------------------------------------------------------------

    def token(self) -> str:
        """An access token for the account, kept until shortly before it runs out."""
        with self._lock:
            if self._token is not None and time.monotonic() < self._token[1]:
                return self._token[0]
            c = self.credentials
            query = urlencode({"grant_type": "account_credentials", "account_id": c.account_id})
            basic = base64.b64encode(f"{c.client_id}:{c.client_secret}".encode()).decode()
            request = urllib.request.Request(
                f"{self.oauth_url}oauth/token?{query}",
                data=b"",
                method="POST",
                headers={
                    "Authorization": f"Basic {basic}",
                    "Content-Type": "application/x-www-form-urlencoded",
                    "User-Agent": "Debrief",
                },
            )
            try:
                with _OPENER.open(request, timeout=self.timeout) as answer:
                    found = json.loads(_read_whole(answer, ANSWER_BYTES) or b"{}")
            except ZoomError:
                raise
            except (urllib.error.URLError, OSError, HTTPException, ValueError) as exc:
                failure = _failure(exc)
                if failure.status in (400, 401, 403):  # the credentials: not for a retry
                    failure.retry = False
                raise failure from exc
            token = found.get("access_token") if isinstance(found, dict) else None
            if not isinstance(token, str) or not token:
                raise ZoomError("Zoom gave no access token", retry=False)
            lifetime = float(found.get("expires_in") or 3600)
            self._token = (token, time.monotonic() + max(0.0, lifetime - TOKEN_MARGIN_S))
            return token

    def forget_token(self) -> None:
        with self._lock:
            self._token = None

    # -- the API ---------------------------------------------------------------------------

    def get(self, path: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """GET one API path (relative to DEBRIEF_ZOOM_API_URL); a token Zoom refuses is
        asked again once."""
        for attempt in (1, 2):
            query = f"?{urlencode(params)}" if params else ""
            request = urllib.request.Request(
                f"{self.api_url}{path}{query}",
                headers={"Authorization": f"Bearer {self.token()}", "User-Agent": "Debrief"},
            )
            try:
                with _OPENER.open(request, timeout=self.timeout) as answer:
                    found = json.loads(_read_whole(answer, ANSWER_BYTES) or b"{}")
            except ZoomError:
                raise
            except (urllib.error.URLError, OSError, HTTPException, ValueError) as exc:
                failure = _failure(exc)
                if failure.status == 401 and attempt == 1:
                    self.forget_token()
                    continue
                if failure.status is not None and failure.status < 500 and failure.status != 429:
                    failure.retry = False
                raise failure from exc
            return found if isinstance(found, dict) else {}
        raise ZoomError("Zoom refused the access token", 401, retry=False)  # pragma: no cover

    def get_patiently(
        self, path: str, params: dict[str, Any], tries: int = 5, most_wait: float = 30.0
    ) -> dict[str, Any]:
        """`get`, waiting and trying again on a 429 (as long as Zoom asks; longer than
        `most_wait` seconds: not waited for) or a 5xx, `tries` times in all."""
        for attempt in range(1, tries + 1):
            try:
                return self.get(path, params)
            except ZoomError as exc:
                if not exc.retry or attempt == tries or (exc.wait or 0.0) > most_wait:
                    raise  # (a wait longer than we may: the next sync, or the fetcher's)
                pause = exc.wait if exc.wait is not None else float(2 ** (attempt - 1))
                time.sleep(min(most_wait, pause))
        raise AssertionError("unreachable")  # pragma: no cover

    def _pages(self, path: str, params: dict[str, Any], key: str) -> Iterator[dict[str, Any]]:
        """Every item of a paged list, page after page (`next_page_token`)."""
        token = ""
        while True:
            asked = {**params, "page_size": PAGE_SIZE}
            if token:
                asked["next_page_token"] = token
            page = self.get_patiently(path, asked)
            for item in page.get(key) or []:
                if isinstance(item, dict):
                    yield item
            token = str(page.get("next_page_token") or "")
            if not token:
                return

    def meetings(self, first: date, last: date) -> Iterator[dict[str, Any]]:
        """Every recorded meeting of the account that started from `first` to `last`
        (UTC dates, both included), as Zoom lists it, with its recording files: the
        account's list where Zoom offers it, else each user's (`GET users`), else, where
        the app may not list users either, its own user's (`users/me`)."""
        windows: list[tuple[date, date]] = []
        start = first
        while start <= last:
            end = min(last, start + timedelta(days=WINDOW_DAYS - 1))
            windows.append((start, end))
            start = end + timedelta(days=1)
        spans = [{"from": a.isoformat(), "to": b.isoformat()} for a, b in windows]
        account = f"accounts/{self.credentials.account_id}/recordings"
        try:
            for span in spans:
                yield from self._pages(account, span, "meetings")
            return
        except ZoomError as exc:
            if not _not_offered(exc):
                raise
            # not a master account (or no such list here): each user's recordings instead
        try:
            users = list(self._pages("users", {"status": "active"}, "users"))
        except ZoomError as exc:
            if not _not_offered(exc):
                raise
            users = [{"id": "me"}]  # the app may not list users: its own user's
        for user in users:
            user_id = str(user.get("id") or "")
            if not user_id:
                continue
            email = str(user.get("email") or "")
            for span in spans:
                for meeting in self._pages(f"users/{user_id}/recordings", span, "meetings"):
                    # a user's list leaves out the host's e-mail: the user's own it is
                    yield {"host_email": email, **meeting} if email else meeting


def _not_offered(exc: ZoomError) -> bool:
    """Zoom refusing a list itself (a 4xx other than a refused token or its rate): the
    next way of listing is tried instead."""
    return not exc.retry and exc.status is not None and exc.status != 401
