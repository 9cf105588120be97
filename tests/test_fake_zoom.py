"""The fake Zoom refuses what Zoom refuses and serves what it serves (support/fake_zoom.py),
over real HTTP with urllib alone: signatures and URL validation, Server-to-Server OAuth,
the users and recordings listings and their paging, downloads, and the scripted faults."""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from typing import Any, ClassVar
from urllib.parse import urlencode

import pytest
from support.fake_slack import FakeClock
from support.fake_zoom import FakeZoom, Meeting
from support.servers import HttpServer

T0 = datetime(2026, 12, 8, 9, 30, tzinfo=UTC).timestamp()
VTT = "WEBVTT\n\n1\n00:00:01.000 --> 00:00:04.000\n面试官: 请介绍一下你自己。\n".encode()

Answer = tuple[int, dict[str, str], bytes]


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def call(
    url: str,
    *,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    data: bytes | None = None,
    follow: bool = True,
) -> Answer:
    request = urllib.request.Request(url, data, headers or {}, method=method)
    opener = urllib.request.build_opener() if follow else urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=5) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, dict(error.headers), error.read()


def token_request(
    zoom: FakeZoom,
    *,
    client: tuple[str, str] | None = None,
    account_id: str | None = None,
    grant: str = "account_credentials",
) -> Answer:
    client_id, secret = client or (zoom.client_id, zoom.client_secret)
    basic = base64.b64encode(f"{client_id}:{secret}".encode()).decode()
    query = urlencode({"grant_type": grant, "account_id": account_id or zoom.account_id})
    return call(
        f"{zoom.oauth_url}oauth/token?{query}",
        method="POST",
        headers={"Authorization": f"Basic {basic}"},
    )


def access_token(zoom: FakeZoom) -> str:
    status, _, body = token_request(zoom)
    assert status == 200
    return str(json.loads(body)["access_token"])


def api(zoom: FakeZoom, path: str, token: str | None, **query: Any) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    url = zoom.api_url + path + (f"?{urlencode(query)}" if query else "")
    status, _, body = call(url, headers=headers)
    return status, json.loads(body)


def meeting(zoom: FakeZoom, start: str, host: str = "hr@example.com", **kw: Any) -> Meeting:
    return zoom.add_meeting(
        topic="面试 " + start, start_time=start, host_email=host, **kw, transcript=VTT
    )


@pytest.fixture
def fake_clock(zoom: FakeZoom) -> Iterator[FakeClock]:
    clock = FakeClock(start=T0)
    zoom.clock = clock
    yield clock


class _Receiver(BaseHTTPRequestHandler):
    """An endpoint that takes webhooks the way a correct one does, keeping what came."""

    secret = ""
    seen: ClassVar[list[tuple[dict[str, str], bytes]]] = []

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).seen.append(({k.lower(): v for k, v in self.headers.items()}, body))
        event = json.loads(body)
        answer = b""
        if event["event"] == "endpoint.url_validation":
            plain = event["payload"]["plainToken"]
            key = b"wrong" if self.path == "/wrong" else self.secret.encode()
            digest = hmac.new(key, plain.encode(), hashlib.sha256).hexdigest()
            answer = json.dumps({"plainToken": plain, "encryptedToken": digest}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)


@pytest.fixture
def receiver(zoom: FakeZoom) -> Iterator[str]:
    _Receiver.secret = zoom.secret_token
    _Receiver.seen = []
    with HttpServer(_Receiver, name="zoom-receiver") as server:
        yield server.url


# -- webhooks ---------------------------------------------------------------------------------


def test_signature_is_zooms_hmac_of_timestamp_and_raw_body(zoom: FakeZoom) -> None:
    body = b'{"event":"recording.completed","event_ts":1765186200000}'
    expected = hmac.new(b"a-secret-token", b"v0:1765186200:" + body, hashlib.sha256).hexdigest()
    assert zoom.signed_headers(body, timestamp=1765186200, secret="a-secret-token") == {
        "x-zm-request-timestamp": "1765186200",
        "x-zm-signature": f"v0={expected}",
    }
    mine = zoom.signed_headers(body, timestamp=1765186200)["x-zm-signature"]
    assert mine != f"v0={expected}"  # signed with the fake's own secret token


def test_events_are_delivered_as_zoom_posts_them(
    zoom: FakeZoom, receiver: str, fake_clock: FakeClock
) -> None:
    held = meeting(zoom, "2026-12-01T02:00:00Z")
    event = zoom.event("recording.completed", held)
    status, _ = zoom.deliver(receiver + "/zoom/events", event)
    assert status == 200
    [(headers, raw)] = _Receiver.seen
    assert headers["content-type"] == "application/json; charset=utf-8"
    assert headers["user-agent"] == "Zoom Marketplace/1.0a"
    stamp = headers["x-zm-request-timestamp"]
    assert stamp == str(int(T0))
    signed = hmac.new(
        zoom.secret_token.encode(), f"v0:{stamp}:".encode() + raw, hashlib.sha256
    ).hexdigest()
    assert headers["x-zm-signature"] == f"v0={signed}"
    assert json.loads(raw) == event

    described = event["payload"]["object"]
    assert event["event_ts"] == int(T0 * 1000) and event["download_token"]
    assert event["payload"]["account_id"] == zoom.account_id
    assert (described["id"], described["uuid"]) == (held.id, held.uuid)
    assert described["start_time"] == "2026-12-01T02:00:00Z"
    assert described["timezone"] == "Asia/Shanghai"
    assert described["host_email"] == "hr@example.com"
    kinds = {f["file_type"]: f for f in described["recording_files"]}
    assert set(kinds) == {"MP4", "M4A", "CHAT", "TRANSCRIPT"}
    transcript = kinds["TRANSCRIPT"]
    assert transcript["id"] == held.transcript_file_id
    assert (transcript["file_extension"], transcript["recording_type"]) == (
        "VTT",
        "audio_transcript",
    )
    assert transcript["file_size"] == len(VTT) and transcript["meeting_id"] == held.uuid

    later = zoom.event("recording.transcript_completed", held, download_token=False)
    assert "download_token" not in later
    assert [f["file_type"] for f in later["payload"]["object"]["recording_files"]] == ["TRANSCRIPT"]
    early = zoom.event("recording.completed", held, file_types=["MP4", "M4A"])
    assert {f["file_type"] for f in early["payload"]["object"]["recording_files"]} == {
        "MP4",
        "M4A",
    }
    with pytest.raises(ValueError):
        zoom.event("meeting.ended", held)


def test_url_validation_checks_the_encrypted_token(zoom: FakeZoom, receiver: str) -> None:
    status, answer = zoom.validate_endpoint(receiver + "/zoom/events")
    plain = zoom.last_plain_token
    assert status == 200 and answer is not None and plain
    assert (
        answer["encryptedToken"]
        == hmac.new(zoom.secret_token.encode(), plain.encode(), hashlib.sha256).hexdigest()
    )
    assert zoom.validation_ok(answer)
    assert not zoom.validation_ok(answer, plain="another-plain-token")
    status, wrong = zoom.validate_endpoint(receiver + "/wrong")
    assert status == 200 and not zoom.validation_ok(wrong)
    headers, raw = _Receiver.seen[0]
    assert json.loads(raw)["event"] == "endpoint.url_validation"
    assert headers["x-zm-signature"].startswith("v0=")


# -- Server-to-Server OAuth ---------------------------------------------------------------


def test_server_to_server_oauth_refuses_what_zoom_refuses(
    zoom: FakeZoom, fake_clock: FakeClock
) -> None:
    status, _, body = token_request(zoom, client=(zoom.client_id, "not-the-secret"))
    assert (status, json.loads(body)["error"]) == (401, "invalid_client")
    status, _, body = token_request(zoom, account_id="another-account")
    assert status == 400 and "reason" in json.loads(body)
    status, _, body = token_request(zoom, grant="client_credentials")
    assert (status, json.loads(body)["error"]) == (400, "unsupported_grant_type")
    status, _, _ = call(
        f"{zoom.oauth_url}oauth/token?grant_type=account_credentials", method="POST"
    )
    assert status == 400  # no client credentials at all

    status, _, body = token_request(zoom)
    granted = json.loads(body)
    assert status == 200
    assert (granted["token_type"], granted["expires_in"]) == ("bearer", 3600)
    assert granted["scope"] and "refresh_token" not in granted

    # the arguments may come in a form body too
    basic = base64.b64encode(f"{zoom.client_id}:{zoom.client_secret}".encode()).decode()
    form = urlencode({"grant_type": "account_credentials", "account_id": zoom.account_id})
    status, _, _ = call(
        f"{zoom.oauth_url}oauth/token",
        method="POST",
        data=form.encode(),
        headers={
            "Authorization": f"Basic {basic}",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    assert status == 200 and zoom.token_requests == 6

    token = granted["access_token"]
    assert api(zoom, "users", token)[0] == 200
    assert api(zoom, "users", None) == (401, {"code": 124, "message": "Invalid access token."})
    assert api(zoom, "users", "made-up")[1]["code"] == 124
    status, _, _ = call(zoom.api_url + "users?" + urlencode({"access_token": token}))
    assert status == 401  # only in the Authorization header
    fake_clock.advance(3599)
    assert api(zoom, "users", token)[0] == 200
    fake_clock.advance(1)
    status, refused = api(zoom, "users", token)
    assert (status, refused["code"]) == (401, 124) and "expired" in refused["message"]


def test_unknown_paths_are_not_found(zoom: FakeZoom) -> None:
    token = access_token(zoom)
    assert api(zoom, "meetings/123/recordings", token)[0] == 404
    assert api(zoom, "users/me/recordingz", token)[0] == 404
    assert call(zoom.oauth_url + "oauth/authorize")[0] == 404


# -- listings ----------------------------------------------------------------------------------


def test_users_page_with_next_page_token(zoom: FakeZoom) -> None:
    emails = [f"hr{i}@example.com" for i in range(5)]
    ids = [zoom.add_user(email) for email in emails]
    zoom.add_user("gone@example.com", status="inactive")
    token = access_token(zoom)
    seen: list[str] = []
    pages = 0
    cursor = ""
    while True:
        status, page = api(zoom, "users", token, page_size=2, next_page_token=cursor)
        assert status == 200 and page["page_size"] == 2 and page["total_records"] == 5
        seen += [u["id"] for u in page["users"]]
        pages += 1
        cursor = page["next_page_token"]
        if not cursor:
            break
    assert (seen, pages) == (ids, 3)
    assert [u["email"] for u in api(zoom, "users", token, status="inactive")[1]["users"]] == [
        "gone@example.com"
    ]
    assert api(zoom, "users", token, page_size=1000)[1]["page_size"] == 300  # capped
    assert api(zoom, "users", token)[1]["page_size"] == 30
    assert api(zoom, "users", token, page_size=0)[1]["code"] == 300
    status, refused = api(zoom, "users", token, next_page_token="never-given")
    assert (status, refused["code"]) == (400, 300)


def test_recordings_are_listed_by_utc_day_and_range_is_checked(
    zoom: FakeZoom, fake_clock: FakeClock
) -> None:
    # 2026-11-30T23:30Z is 1 December in Shanghai: Zoom lists it on 30 November (UTC)
    late = meeting(zoom, "2026-11-30T23:30:00Z")
    first = meeting(zoom, "2026-11-01T08:00:00Z")
    other = meeting(zoom, "2026-11-15T08:00:00Z", host="lead@example.com")
    token = access_token(zoom)

    status, listed = api(
        zoom, "users/hr@example.com/recordings", token, **{"from": "2026-11-01", "to": "2026-12-01"}
    )
    assert status == 200 and (listed["from"], listed["to"]) == ("2026-11-01", "2026-12-01")
    assert [m["uuid"] for m in listed["meetings"]] == [late.uuid, first.uuid]
    assert "host_email" not in listed["meetings"][0]
    by_id = api(
        zoom,
        f"users/{late.host_id}/recordings",
        token,
        **{"from": "2026-11-30", "to": "2026-11-30"},
    )
    assert [m["id"] for m in by_id[1]["meetings"]] == [late.id]
    me = api(zoom, "users/me/recordings", token, **{"from": "2026-11-02", "to": "2026-11-29"})
    assert me[1]["meetings"] == []  # hr@ was added first: the account's owner
    assert api(zoom, "users/nobody@example.com/recordings", token)[1]["code"] == 1001

    whole = api(zoom, "accounts/me/recordings", token, **{"from": "2026-11-01", "to": "2026-12-01"})
    assert [m["uuid"] for m in whole[1]["meetings"]] == [late.uuid, other.uuid, first.uuid]
    assert whole[1]["meetings"][1]["host_email"] == "lead@example.com"
    own = api(
        zoom,
        f"accounts/{zoom.account_id}/recordings",
        token,
        **{"from": "2026-11-01", "to": "2026-12-01"},
    )
    assert own[1]["total_records"] == 3
    assert api(zoom, "accounts/someone-else/recordings", token)[0] == 404

    for query in [
        {"from": "2026/11/01", "to": "2026-11-30"},
        {"from": "2026-11-01", "to": "2026-11-31"},
        {"from": "2026-11-30", "to": "2026-11-01"},
        {"from": "2026-11-01", "to": "2026-12-02"},  # more than a month
        {"from": "2026-01-31", "to": "2026-03-01"},
    ]:
        status, refused = api(zoom, "users/me/recordings", token, **query)
        assert (status, refused["code"]) == (400, 300), query
    assert (
        api(zoom, "users/me/recordings", token, **{"from": "2026-01-31", "to": "2026-02-28"})[0]
        == 200
    )
    # without from/to: today and tomorrow, by the fake's clock (T0 is 8 December)
    today = api(zoom, "users/me/recordings", token)[1]
    assert (today["from"], today["to"]) == ("2026-12-08", "2026-12-09")

    zoom.disable_account_recordings()
    status, refused = api(zoom, "accounts/me/recordings", token)
    assert (status, refused["code"]) == (400, 200)


def test_recordings_page_and_a_page_token_belongs_to_its_listing(
    zoom: FakeZoom, fake_clock: FakeClock
) -> None:
    held = [meeting(zoom, f"2026-11-{day:02d}T08:00:00Z") for day in range(1, 8)]
    token = access_token(zoom)
    window = {"from": "2026-11-01", "to": "2026-11-30"}
    uuids: list[str] = []
    cursor = ""
    pages = 0
    while True:
        page = api(
            zoom, "users/me/recordings", token, page_size=3, next_page_token=cursor, **window
        )[1]
        uuids += [m["uuid"] for m in page["meetings"]]
        pages += 1
        cursor = page["next_page_token"]
        if not cursor:
            break
    assert pages == 3 and uuids == [m.uuid for m in reversed(held)]

    first = api(zoom, "users/me/recordings", token, page_size=3, **window)[1]
    elsewhere = api(
        zoom, "accounts/me/recordings", token, next_page_token=first["next_page_token"], **window
    )
    assert elsewhere[0] == 400  # a token of the user's listing, not the account's
    fake_clock.advance(15 * 60)
    expired = api(
        zoom, "users/me/recordings", token, next_page_token=first["next_page_token"], **window
    )
    assert expired[0] == 400


# -- downloads ---------------------------------------------------------------------------------


def test_downloads_need_a_download_token_of_the_meeting_or_an_access_token(
    zoom: FakeZoom, fake_clock: FakeClock
) -> None:
    held = meeting(zoom, "2026-12-01T02:00:00Z")
    another = meeting(zoom, "2026-12-02T02:00:00Z")
    assert held.transcript_file_id is not None
    url = zoom.download_url(held.transcript_file_id)
    event = zoom.event("recording.transcript_completed", held)
    event_token = event["download_token"]
    assert held.transcript_url == url
    assert event["payload"]["object"]["recording_files"][0]["download_url"] == url
    other_token = zoom.event("recording.completed", another)["download_token"]

    assert call(url)[0] == 401
    assert call(url, headers={"Authorization": f"Bearer {other_token}"})[0] == 401
    status, headers, _ = call(url, headers={"Authorization": f"Bearer {event_token}"}, follow=False)
    assert status == 302 and headers["Location"].startswith(zoom.url + "/cdn/")
    status, headers, body = call(url, headers={"Authorization": f"Bearer {event_token}"})
    assert (status, body, headers["Content-Type"]) == (200, VTT, "text/vtt")
    assert call(f"{url}?access_token={event_token}")[2] == VTT
    assert call(url, headers={"Authorization": f"Bearer {access_token(zoom)}"})[2] == VTT
    assert zoom.downloads(held.transcript_file_id) == 3
    assert (
        call(zoom.download_url("no-such-file"), headers={"Authorization": f"Bearer {event_token}"})[
            0
        ]
        == 404
    )

    fake_clock.advance(24 * 3600)  # a download token lives 24 hours
    assert call(url, headers={"Authorization": f"Bearer {event_token}"})[0] == 401
    fresh = zoom.event("recording.completed", held)["download_token"]
    assert call(url, headers={"Authorization": f"Bearer {fresh}"})[0] == 200
    zoom.expire_download_tokens()
    assert call(url, headers={"Authorization": f"Bearer {fresh}"})[0] == 401


def test_a_download_cut_short_promises_more_than_it_sends(zoom: FakeZoom) -> None:
    held = meeting(zoom, "2026-12-01T02:00:00Z")
    assert held.transcript_file_id is not None
    auth = {"Authorization": f"Bearer {access_token(zoom)}"}
    zoom.cut_short(held.transcript_file_id)
    with pytest.raises(http.client.IncompleteRead):
        call(zoom.download_url(held.transcript_file_id), headers=auth)
    assert zoom.downloads(held.transcript_file_id) == 0
    assert call(zoom.download_url(held.transcript_file_id), headers=auth)[2] == VTT
    assert zoom.downloads(held.transcript_file_id) == 1


# -- faults, records, reset --------------------------------------------------------------------


def test_faults_answer_the_next_requests_of_their_kind(zoom: FakeZoom) -> None:
    held = meeting(zoom, "2026-12-01T02:00:00Z")
    zoom.fail("token", 503)
    assert token_request(zoom)[0] == 503
    token = access_token(zoom)

    zoom.fail("recordings", 429, times=2, retry_after=7)
    for _ in range(2):
        status, headers, body = call(
            zoom.api_url + "users/me/recordings", headers={"Authorization": f"Bearer {token}"}
        )
        assert (status, headers["Retry-After"], json.loads(body)["code"]) == (429, "7", 429)
    assert api(zoom, "users/me/recordings", token)[0] == 200
    assert api(zoom, "users", token)[0] == 200  # another kind: untouched

    zoom.fail("users", 500)
    assert api(zoom, "users", token)[0] == 500
    zoom.fail("download", 429)
    assert held.transcript_file_id is not None
    status, headers, _ = call(
        zoom.download_url(held.transcript_file_id), headers={"Authorization": f"Bearer {token}"}
    )
    assert (status, headers["Retry-After"]) == (429, "1")
    with pytest.raises(ValueError):
        zoom.fail("meetings", 500)

    seen = zoom.requests
    assert [r.status for r in seen if r.path == "/v2/users/me/recordings"] == [429, 429, 200]
    assert seen[0].method == "POST" and seen[0].query["grant_type"] == "account_credentials"
    assert seen[-1].headers["authorization"] == f"Bearer {token}"


def test_reset_forgets_the_test_before(zoom: FakeZoom) -> None:
    meeting(zoom, "2026-12-01T02:00:00Z")
    token = access_token(zoom)
    zoom.secret_token = "changed"
    zoom.reset()
    assert zoom.requests == [] and zoom.meetings == [] and zoom.token_requests == 0
    assert zoom.secret_token != "changed"
    assert api(zoom, "users", token)[0] == 401  # its tokens went with it
