"""The fake Slack refuses what Slack refuses: tests of tests/support/ (fake_slack,
socket_mode, signed), over real HTTP."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.webhook import WebhookClient
from support.fake_slack import FakeClock, FakeSlack
from support.signed import sign
from support.socket_mode import FakeSocketModeServer
from support.spec import manifest_scopes, web_api_spec
from support.web_api import METHODS
from websockets.sync.client import connect

FAKE_THREADS = ("fake-slack-http", "fake-socket-mode")


@pytest.fixture(autouse=True)
def _no_leaked_fake_threads() -> Iterator[None]:
    yield
    deadline = time.monotonic() + 5
    leaked: list[str] = []
    while time.monotonic() < deadline:
        leaked = [t.name for t in threading.enumerate() if t.name in FAKE_THREADS]
        if not leaked:
            return
        time.sleep(0.05)
    pytest.fail(f"fake server threads leaked: {leaked}")


@pytest.fixture
def fake(clock: FakeClock) -> Iterator[FakeSlack]:
    # Not the `fake_slack` fixture: these tests make the fake refuse calls on purpose.
    with FakeSlack(clock=clock) as server:
        yield server


@pytest.fixture
def client(fake: FakeSlack) -> WebClient:
    web = WebClient(token="xoxb-test", base_url=fake.base_url)
    web.retry_handlers.clear()  # see every answer as the fake gave it
    return web


def error_of(call: Any) -> str:
    with pytest.raises(SlackApiError) as info:
        call()
    return str(info.value.response["error"])


def raw_post(url: str, body: dict[str, Any], token: str | None = None) -> tuple[int, str]:
    headers = {"Content-Type": "application/json; charset=utf-8"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read().decode()


def section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def header(text: str) -> dict[str, Any]:
    return {"type": "header", "text": {"type": "plain_text", "text": text}}


# -- recording -----------------------------------------------------------------------------


def test_calls_are_recorded_json_and_form(fake: FakeSlack, client: WebClient) -> None:
    first = client.chat_postMessage(channel="C1", text="hi", blocks=[{"type": "divider"}])
    second = client.api_call(  # form-encoded, the way slack_sdk sends some methods
        "reactions.add", data={"channel": "C1", "timestamp": first["ts"], "name": "eyes"}
    )
    assert first["ok"] and second["ok"] and first["channel"] == "C1"

    post, reaction = fake.calls()
    assert post.is_json and post.params["blocks"] == [{"type": "divider"}]
    assert post.token == "xoxb-test"
    assert reaction.content_type.startswith("application/x-www-form-urlencoded")
    assert reaction.params == {"channel": "C1", "timestamp": first["ts"], "name": "eyes"}
    assert fake.refusals() == []
    with pytest.raises(TimeoutError):
        fake.wait_for("chat.postEphemeral", timeout=0.1)


def test_answers_carry_the_manifest_scopes(fake: FakeSlack, client: WebClient) -> None:
    response = client.auth_test()
    assert response["user_id"] == "UBOT"
    assert response.headers["x-oauth-scopes"].split(",") == list(manifest_scopes())
    assert "chat:write" in manifest_scopes()


def test_every_implemented_method_is_in_slacks_spec() -> None:
    assert set(METHODS) <= set(web_api_spec())


# -- the spec --------------------------------------------------------------------------------


def test_unknown_method_and_missing_arguments(fake: FakeSlack, client: WebClient) -> None:
    assert error_of(lambda: client.api_call("chat.postMesage", json={"channel": "C1"})) == (
        "unknown_method"
    )
    assert error_of(lambda: client.api_call("chat.postMessage", json={"text": "x"})) == (
        "invalid_arguments"
    )
    assert error_of(lambda: client.reactions_add(channel="C1", timestamp="1.2", name="")) == (
        "invalid_arguments"
    )
    assert error_of(lambda: client.chat_postEphemeral(channel="C1", text="x", user="")) == (
        "invalid_arguments"
    )
    # In the spec, not something the bot calls: the fake says so rather than pretend.
    assert error_of(lambda: client.chat_delete(channel="C1", ts="1.2")) == (
        "fake_method_not_implemented"
    )
    assert error_of(lambda: client.chat_postMessage(channel="C1")) == "no_text"
    assert [c.error for c in fake.refusals()] == [
        "unknown_method",
        "invalid_arguments",
        "invalid_arguments",
        "invalid_arguments",
        "fake_method_not_implemented",
        "no_text",
    ]


def test_the_token_comes_in_the_authorization_header(fake: FakeSlack) -> None:
    url = fake.base_url + "chat.postMessage"
    status, body = raw_post(url, {"channel": "C1", "text": "x"})
    assert (status, json.loads(body)["error"]) == (200, "not_authed")
    status, body = raw_post(url, {"channel": "C1", "text": "x"}, token="xoxb-1")
    assert json.loads(body)["ok"] is True
    _, body = raw_post(url, {"channel": "C1", "text": "x"}, token="xapp-1")
    assert json.loads(body)["error"] == "not_allowed_token_type"
    _, body = raw_post(fake.base_url + "apps.connections.open", {}, token="xoxb-1")
    assert json.loads(body)["error"] == "not_allowed_token_type"


def test_a_request_cut_short_by_its_sender_s_death_is_not_processed(fake: FakeSlack) -> None:
    """A bot killed mid-request (SIGKILL) sends a body shorter than its Content-Length:
    Slack never gets a whole request, so nothing is done and nothing refused."""
    host, port = urlsplit(fake.base_url).hostname, urlsplit(fake.base_url).port
    body = b"channel=C1&name=eyes&timestamp=1700000000.000100"
    with socket.create_connection((host, port), timeout=5) as sock:
        sock.sendall(
            b"POST /api/reactions.add HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer xoxb-1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\n"
            + f"Content-Length: {len(body) + 40}\r\n\r\n".encode()
            + body[:20]
        )
        sock.shutdown(socket.SHUT_WR)  # the sender is gone
        assert sock.recv(1024) == b""  # closed without an answer
    assert fake.calls("reactions.add") == [] and fake.refusals() == []


# -- Block Kit limits ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("blocks", "error"),
    [
        ([section("字" * 3000)] * 3 + [section("x" * 2900)], "msg_blocks_too_long"),
        ([{"type": "divider"}] * 51, "invalid_blocks"),
        ([header("x" * 151)], "invalid_blocks"),
        ([section("x" * 3001)], "invalid_blocks"),
        ([{"text": "no type"}], "invalid_blocks"),
        ({"type": "divider"}, "invalid_blocks_format"),
    ],
    ids=["json-over-12000", "51-blocks", "header-151", "section-3001", "no-type", "not-a-list"],
)
def test_messages_over_block_kit_limits_are_refused(
    fake: FakeSlack, client: WebClient, blocks: Any, error: str
) -> None:
    assert error_of(lambda: client.chat_postMessage(channel="C1", text="t", blocks=blocks)) == error
    assert error_of(
        lambda: client.chat_postEphemeral(channel="C1", user="U1", text="t", blocks=blocks)
    ) == (error)
    response = WebhookClient(fake.response_url("r")).send_dict({"text": "t", "blocks": blocks})
    assert (response.status_code, json.loads(response.body)["error"]) == (400, error)
    assert fake.responses("r") == []


def test_messages_at_the_limits_are_taken(fake: FakeSlack, client: WebClient) -> None:
    at_limits = [header("x" * 150), section("x" * 3000)] + [{"type": "divider"}] * 48
    assert client.chat_postMessage(channel="C1", text="t", blocks=at_limits)["ok"]
    # 12,000 characters of compact JSON (Chinese counted as one character each) is fine.
    empty = len(json.dumps([section("")] * 4, ensure_ascii=False, separators=(",", ":")))
    room = 12_000 - empty  # characters of text that still fit, spread over four sections

    def four_sections(chars: int) -> list[dict[str, Any]]:
        return [section("字" * (chars // 4 + (i < chars % 4))) for i in range(4)]

    assert client.chat_postMessage(channel="C1", text="t", blocks=four_sections(room))["ok"]
    assert error_of(
        lambda: client.chat_postMessage(channel="C1", text="t", blocks=four_sections(room + 1))
    ) == ("msg_blocks_too_long")


# -- response_url ----------------------------------------------------------------------------


def test_a_response_url_takes_five_posts(fake: FakeSlack) -> None:
    url = fake.response_url("five")
    statuses = [WebhookClient(url).send_dict({"text": str(i)}).status_code for i in range(6)]
    assert statuses == [200] * 5 + [404]
    assert [c.error for c in fake.calls("response/five")] == [None] * 5 + ["used_url"]
    assert [r["text"] for r in fake.responses("five")] == ["0", "1", "2", "3", "4"]
    # Each issue is a new URL with its own budget, recorded under the same name.
    assert WebhookClient(fake.response_url("five")).send_dict({"text": "5"}).status_code == 200


def test_a_response_url_expires_after_30_minutes(fake: FakeSlack, clock: FakeClock) -> None:
    url = fake.response_url("late")
    clock.advance(30 * 60)
    assert WebhookClient(url).send_dict({"text": "just in time"}).status_code == 200
    clock.advance(1)
    response = WebhookClient(url).send_dict({"text": "too late"})
    assert (response.status_code, json.loads(response.body)["error"]) == (404, "expired_url")
    assert [r["text"] for r in fake.responses("late")] == ["just in time"]


def test_an_unissued_response_url_is_unknown(fake: FakeSlack) -> None:
    response = WebhookClient(fake.url + "response/never/1").send_dict({"text": "x"})
    assert response.status_code == 404
    assert [c.error for c in fake.refusals()] == ["no_such_url"]


# -- channel membership ---------------------------------------------------------------------


def test_posts_need_the_bot_in_the_channel(fake: FakeSlack, client: WebClient) -> None:
    fake.member_channels = {"CIN"}
    assert client.chat_postMessage(channel="CIN", text="x")["ok"]
    assert error_of(lambda: client.chat_postMessage(channel="COUT", text="x")) == "not_in_channel"
    assert error_of(lambda: client.chat_postMessage(channel="GPRIV", text="x")) == (
        "channel_not_found"
    )
    assert error_of(lambda: client.chat_postEphemeral(channel="DOTHER", user="U1", text="x")) == (
        "channel_not_found"
    )
    assert error_of(lambda: client.chat_postEphemeral(channel="COUT", user="U1", text="x")) == (
        "not_in_channel"
    )
    # A response_url is tied to the command, not to membership: it still works there.
    assert WebhookClient(fake.response_url("dm")).send_dict({"text": "x"}).status_code == 200
    assert fake.refusals() == []  # runtime answers, not broken rules


# -- scripted faults -------------------------------------------------------------------------


def test_rate_limit_and_server_errors_for_the_next_n_calls(
    fake: FakeSlack, client: WebClient
) -> None:
    fake.fail_next("chat.postMessage", status=429, retry_after=4)
    fake.fail_next("chat.postMessage", status=503, times=2)
    with pytest.raises(SlackApiError) as info:
        client.chat_postMessage(channel="C1", text="x")
    assert info.value.response.status_code == 429
    assert info.value.response.headers["Retry-After"] == "4"
    assert info.value.response["error"] == "ratelimited"
    for _ in range(2):
        with pytest.raises(SlackApiError) as info:
            client.chat_postMessage(channel="C1", text="x")
        assert info.value.response.status_code == 503
    assert client.chat_postMessage(channel="C1", text="x")["ok"]
    assert client.reactions_add(channel="C1", timestamp="1.2", name="eyes")["ok"]
    assert [(c.status, c.scripted) for c in fake.calls("chat.postMessage")] == [
        (429, True),
        (503, True),
        (503, True),
        (200, False),
    ]
    assert fake.refusals() == []


def test_a_dropped_connection_after_the_work_is_done(fake: FakeSlack, client: WebClient) -> None:
    fake.drop_next("chat.postMessage")
    with pytest.raises((urllib.error.URLError, ConnectionError)):
        client.chat_postMessage(channel="C1", text="maybe sent")
    [dropped] = fake.calls("chat.postMessage")
    assert dropped.scripted and dropped.status == 200  # Slack processed it
    assert fake.post_times("C1") == [dropped.time]
    assert client.chat_postMessage(channel="C1", text="x")["ok"]


def test_post_times_per_channel(fake: FakeSlack, client: WebClient) -> None:
    for channel in ["C1", "C9", "C1"]:
        client.chat_postMessage(channel=channel, text="x")
    one, nine = fake.post_times("C1"), fake.post_times("C9")
    assert len(one) == 2 and len(nine) == 1 and one[0] <= nine[0] <= one[1]


def test_already_reacted(fake: FakeSlack, client: WebClient) -> None:
    assert client.reactions_add(channel="C1", timestamp="1.2", name="eyes")["ok"]
    assert error_of(lambda: client.reactions_add(channel="C1", timestamp="1.2", name="eyes")) == (
        "already_reacted"
    )


def test_usergroups_and_result_overrides(fake: FakeSlack, client: WebClient) -> None:
    assert error_of(lambda: client.usergroups_users_list(usergroup="S1")) == "no_such_subteam"
    fake.usergroups["S1"] = ["U1", "U2"]
    assert client.usergroups_users_list(usergroup="S1")["users"] == ["U1", "U2"]
    fake.set_result("usergroups.users.list", {"users": ["U9"]})
    assert client.usergroups_users_list(usergroup="S1")["users"] == ["U9"]
    # Overrides answer only calls that pass the spec.
    assert error_of(lambda: client.usergroups_users_list(usergroup="")) == "invalid_arguments"


# -- Socket Mode -----------------------------------------------------------------------------


def test_socket_mode_server_hands_out_urls_and_records_acks(fake: FakeSlack) -> None:
    app_client = WebClient(base_url=fake.base_url)
    assert (
        error_of(lambda: app_client.apps_connections_open(app_token="xapp-test"))
        == "fake_socket_mode_server_not_attached"
    )
    with FakeSocketModeServer(fake) as sm:
        url = app_client.apps_connections_open(app_token="xapp-test")["url"]
        with connect(url) as ws:
            assert json.loads(ws.recv(timeout=5))["type"] == "hello"
            envelope_id = sm.send_envelope("slash_commands", {"text": "x"})
            envelope = json.loads(ws.recv(timeout=5))
            assert envelope["envelope_id"] == envelope_id
            ws.send(json.dumps({"envelope_id": envelope_id, "payload": {"text": "ok"}}))
            assert sm.wait_for_ack(envelope_id)["payload"] == {"text": "ok"}
        assert sm.connections_opened == 1


# -- signing ---------------------------------------------------------------------------------


def test_sign_matches_slacks_documented_example() -> None:
    example = (
        b"token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&"
        b"channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&"
        b"command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2F"
        b"commands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&"
        b"trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c"
    )
    signed = sign(example, "8f742231b10e8888abcd99yyyzzz85a5", timestamp=1531420618)
    assert signed["X-Slack-Signature"] == (
        "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503"
    )


def test_dms_are_opened_and_messages_edited_as_slack_does(
    fake: FakeSlack, client: WebClient
) -> None:
    opened = client.conversations_open(users="UREVIEW1")
    dm = opened["channel"]["id"]
    assert dm.startswith("D") and client.conversations_open(users="UREVIEW1")["channel"]["id"] == dm
    posted = client.chat_postMessage(channel=dm, text="请给出结论")
    client.chat_update(channel=dm, ts=posted["ts"], text="已有结论")
    assert [m["text"] for m in fake.messages(dm)] == ["已有结论"]
    for kwargs, error in [
        ({"channel": dm, "ts": "1.000001", "text": "x"}, "message_not_found"),
        ({"channel": dm, "ts": posted["ts"]}, "no_text"),
        (
            {"channel": dm, "ts": posted["ts"], "blocks": [{"type": "section"}] * 51},
            "invalid_blocks",
        ),
    ]:
        with pytest.raises(SlackApiError) as refused:
            client.chat_update(**kwargs)
        assert refused.value.response["error"] == error
    with pytest.raises(SlackApiError) as refused:
        client.conversations_open(users="UA1,UB2")
    assert refused.value.response["error"] == "not_enough_users"


def test_a_method_without_its_scope_is_refused() -> None:
    with FakeSlack(scopes=["commands", "chat:write"]) as fake:
        client = WebClient(token="xoxb-test", base_url=fake.base_url)
        with pytest.raises(SlackApiError) as refused:
            client.conversations_open(users="UREVIEW1")
        assert refused.value.response["error"] == "missing_scope"


def test_users_are_looked_up_by_email_as_slack_does() -> None:
    """users.lookupByEmail needs users:read.email (manifest.yml asks for it since issue
    48): without it the call is refused; with it, a member is found by any casing of their
    address and described as users.info describes them, and an unknown address is
    `users_not_found`."""
    without = [s for s in manifest_scopes() if s != "users:read.email"]
    with FakeSlack(scopes=without) as fake:
        client = WebClient(token="xoxb-test", base_url=fake.base_url)
        fake.emails["li.lei@example.com"] = "U0LILEI"
        assert error_of(lambda: client.users_lookupByEmail(email="li.lei@example.com")) == (
            "missing_scope"
        )
    with FakeSlack() as fake:
        client = WebClient(token="xoxb-test", base_url=fake.base_url)
        fake.emails["li.lei@example.com"] = "U0LILEI"
        fake.users["U0LILEI"] = "李雷"
        found = client.users_lookupByEmail(email="Li.Lei@Example.com")["user"]
        assert found["id"] == "U0LILEI" and found["profile"]["display_name"] == "李雷"
        assert found["profile"]["email"] == "Li.Lei@Example.com"
        assert found == {
            **client.users_info(user="U0LILEI")["user"],
            "profile": found["profile"],
        }
        assert error_of(lambda: client.users_lookupByEmail(email="han.meimei@example.com")) == (
            "users_not_found"
        )
        assert error_of(lambda: client.users_lookupByEmail(email="")) == "invalid_arguments"
