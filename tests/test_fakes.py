"""Self-tests for tests/fakes.py: real HTTP / WebSocket on loopback, no mocks."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fakes import (
    BOT_USER_ID,
    FakeSlack,
    FakeSocketModeServer,
    WsgiServer,
    action_body,
    command_body,
    command_payload,
    event_body,
    event_payload,
    post_signed,
    sign,
)
from slack_bolt import Ack, App, Respond, Say
from slack_bolt.adapter.socket_mode import SocketModeHandler
from slack_bolt.adapter.wsgi import SlackRequestHandler
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import (
    RateLimitErrorRetryHandler,
    ServerErrorRetryHandler,
)

SECRET = "secret"
FAKE_THREADS = ("fake-slack-http", "fake-socket-mode", "wsgi-server")


@pytest.fixture(autouse=True)
def _no_leaked_fake_threads() -> Iterator[None]:
    yield
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        leaked = [t.name for t in threading.enumerate() if t.name in FAKE_THREADS]
        if not leaked:
            return
        time.sleep(0.05)
    pytest.fail(f"fake server threads leaked: {leaked}")


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSlack]:
    for name in ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET"):
        monkeypatch.delenv(name, raising=False)
    with FakeSlack() as server:
        yield server


def make_app(fake: FakeSlack, **kwargs: Any) -> App:
    # NB: with client=..., App takes the token from the client; App(token=...) is ignored.
    client = WebClient(token="xoxb-test", base_url=fake.base_url)
    return App(client=client, signing_secret=SECRET, **kwargs)


# ---------------------------------------------------------------------------
# Web API fake
# ---------------------------------------------------------------------------


def test_web_client_calls_are_recorded(fake: FakeSlack) -> None:
    client = WebClient(token="xoxb-test", base_url=fake.base_url)
    first = client.chat_postMessage(channel="C1", text="hi", blocks=[{"type": "divider"}])
    second = client.chat_postMessage(channel="C1", text="again")
    user = client.users_info(user="U9")
    chan = client.conversations_info(channel="C1")

    assert first["ok"] and first["channel"] == "C1"
    assert float(first["ts"]) < float(second["ts"])
    assert first["ts"] == "1700000000.000100"
    assert user["user"]["id"] == "U9"
    assert chan["channel"]["id"] == "C1"

    posts = fake.wait_for("chat.postMessage", count=2)
    assert posts[0].params["text"] == "hi"
    assert posts[0].params["blocks"] == [{"type": "divider"}]  # JSON body keeps types
    assert posts[0].is_json
    assert posts[0].token == "xoxb-test"
    [info] = fake.calls("users.info")
    assert info.params == {"user": "U9"}  # form-encoded body
    assert info.content_type.startswith("application/x-www-form-urlencoded")
    assert [c.method for c in fake.calls()] == [
        "chat.postMessage",
        "chat.postMessage",
        "users.info",
        "conversations.info",
    ]

    fake.reset()
    assert fake.calls() == []
    assert client.api_call("unknown.method")["ok"] is True


def test_wait_for_times_out(fake: FakeSlack) -> None:
    with pytest.raises(TimeoutError):
        fake.wait_for("chat.postMessage", timeout=0.2)


def test_rate_limit_then_success_is_retried(fake: FakeSlack) -> None:
    fake.fail_next("chat.postMessage", status=429, retry_after=1)
    client = WebClient(
        token="xoxb-test",
        base_url=fake.base_url,
        retry_handlers=[RateLimitErrorRetryHandler(max_retry_count=1)],
    )
    started = time.monotonic()
    response = client.chat_postMessage(channel="C1", text="hi")
    assert response["ok"] is True
    assert time.monotonic() - started >= 1.0  # honoured Retry-After
    assert [c.status for c in fake.calls("chat.postMessage")] == [429, 200]


def test_rate_limit_without_handler_surfaces_error(fake: FakeSlack) -> None:
    fake.fail_next("chat.postMessage", status=429, retry_after=3)
    client = WebClient(token="xoxb-test", base_url=fake.base_url)
    client.retry_handlers.clear()  # default has only a connection-error handler
    with pytest.raises(SlackApiError) as info:
        client.chat_postMessage(channel="C1", text="hi")
    assert info.value.response.status_code == 429
    assert info.value.response["error"] == "ratelimited"
    assert info.value.response.headers["Retry-After"] == "3"


def test_server_errors_n_times_then_success(fake: FakeSlack) -> None:
    fake.fail_next("chat.update", status=500, times=2)
    fake.fail_next("reactions.add", status=200, error="already_reacted")
    client = WebClient(
        token="xoxb-test",
        base_url=fake.base_url,
        retry_handlers=[ServerErrorRetryHandler(max_retry_count=2)],
    )
    assert client.chat_update(channel="C1", ts="1.2", text="x")["ts"] == "1.2"
    assert [c.status for c in fake.calls("chat.update")] == [500, 500, 200]
    with pytest.raises(SlackApiError) as info:
        client.reactions_add(channel="C1", timestamp="1.2", name="eyes")
    assert info.value.response["error"] == "already_reacted"
    assert client.reactions_add(channel="C1", timestamp="1.2", name="eyes")["ok"] is True


def test_set_result_overrides(fake: FakeSlack) -> None:
    fake.set_result("users.info", lambda call: {"user": {"id": call.params["user"], "tz": "X"}})
    client = WebClient(token="xoxb-test", base_url=fake.base_url)
    assert client.users_info(user="U1")["user"]["tz"] == "X"


# ---------------------------------------------------------------------------
# Signing helpers
# ---------------------------------------------------------------------------


def test_sign_matches_slack_sdk_verifier() -> None:
    from slack_sdk.signature import SignatureVerifier

    body = command_body("héllo & <world>")
    headers = sign(body, SECRET)
    assert SignatureVerifier(SECRET).is_valid_request(body, headers)
    assert not SignatureVerifier("other").is_valid_request(body, headers)
    # Slack's documented example
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


# ---------------------------------------------------------------------------
# Bolt over HTTP (waitress) on loopback
# ---------------------------------------------------------------------------


def test_bolt_http_command_event_action_and_lazy(fake: FakeSlack) -> None:
    app = make_app(fake)
    lazy_done = threading.Event()

    @app.command("/candidate")
    def candidate(ack: Ack, respond: Respond, command: dict[str, Any]) -> None:
        ack(text="working on it")
        respond(text=f"echo {command['text']}", response_type="ephemeral")

    def ack_quickly(ack: Ack) -> None:
        ack()

    def slow_part(respond: Respond) -> None:
        respond(text="lazy done")
        lazy_done.set()

    app.command("/lazy")(ack=ack_quickly, lazy=[slow_part])

    @app.event("app_mention")
    def mention(event: dict[str, Any], say: Say) -> None:
        say(text=f"hi <@{event['user']}>", thread_ts=event["ts"])

    @app.action("approve")
    def approve(ack: Ack, respond: Respond) -> None:
        ack()
        respond(text="approved", replace_original=True)

    assert len(fake.calls("auth.test")) == 1  # token verification at App() construction

    with WsgiServer(SlackRequestHandler(app)) as server:
        url = f"{server.url}/slack/events"

        status, headers, body = post_signed(
            url, command_body("Ada", response_url=fake.response_url("cmd")), SECRET
        )
        assert status == 200
        # ack(text=...) alone is answered as text/plain over HTTP ({"text": ...} in Socket Mode)
        assert headers["content-type"].startswith("text/plain")
        assert body == b"working on it"
        [reply] = fake.wait_for("response/cmd")
        assert reply.params == {"text": "echo Ada", "response_type": "ephemeral"}
        assert fake.responses("cmd") == [{"text": "echo Ada", "response_type": "ephemeral"}]

        bad = post_signed(
            url,
            command_body("Ada"),
            SECRET,
            extra_headers={"X-Slack-Signature": "v0=" + "0" * 64},
        )
        assert bad[0] == 401
        assert post_signed(url, command_body("Ada"), "wrong-secret")[0] == 401
        stale = int(time.time()) - 6 * 60
        assert post_signed(url, command_body("Ada"), SECRET, timestamp=stale)[0] == 401

        status, _, body = post_signed(
            url, command_body("", command="/lazy", response_url=fake.response_url("lazy")), SECRET
        )
        assert (status, body) == (200, b"")
        assert lazy_done.wait(5)
        assert fake.responses("lazy") == [{"text": "lazy done"}]

        mention_event = {
            "type": "app_mention",
            "user": "U123",
            "text": f"<@{BOT_USER_ID}> hi",
            "ts": "1700000001.000100",
            "channel": "C123",
            "event_ts": "1700000001.000100",
        }
        status, _, _ = post_signed(url, event_body(mention_event), SECRET)
        assert status == 200
        [post] = fake.wait_for("chat.postMessage")
        assert post.params["channel"] == "C123"
        assert post.params["thread_ts"] == "1700000001.000100"

        payload = {
            "type": "block_actions",
            "user": {"id": "U123", "username": "tester", "team_id": "T0001"},
            "api_app_id": "A1",
            "team": {"id": "T0001", "domain": "test"},
            "channel": {"id": "C123", "name": "general"},
            "container": {"type": "message", "message_ts": "1.2", "channel_id": "C123"},
            "trigger_id": "1.2.3",
            "response_url": fake.response_url("act"),
            "actions": [
                {
                    "type": "button",
                    "action_id": "approve",
                    "block_id": "b",
                    "value": "1",
                    "action_ts": "1.3",
                }
            ],
        }
        assert post_signed(url, action_body(payload), SECRET)[0] == 200
        [act] = fake.wait_for("response/act")
        assert act.params["text"] == "approved"

        assert post_signed(f"{server.url}/nope", b"{}", SECRET)[0] == 404


# ---------------------------------------------------------------------------
# Socket Mode against a local WebSocket server
# ---------------------------------------------------------------------------


def test_socket_mode_round_trip_and_reconnect(fake: FakeSlack) -> None:
    app = make_app(fake)

    @app.command("/candidate")
    def candidate(ack: Ack, command: dict[str, Any]) -> None:
        ack(text=f"got {command['text']}")

    @app.event("app_mention")
    def mention(event: dict[str, Any], say: Say) -> None:
        say(text="hello")

    with FakeSocketModeServer(fake) as sm:
        # The handler's SocketModeClient reuses app.client (base_url -> fake) for
        # apps.connections.open, called with the app-level token.
        handler = SocketModeHandler(app, "xapp-test")
        try:
            handler.connect()  # type: ignore[no-untyped-call]
            sm.wait_for_connection()
            [open_call] = fake.calls("apps.connections.open")
            assert open_call.token == "xapp-test"

            envelope_id = sm.send_envelope("slash_commands", command_payload("Ada"))
            ack = sm.wait_for_ack(envelope_id)
            assert ack == {"envelope_id": envelope_id, "payload": {"text": "got Ada"}}
            assert sm.ack_latency(envelope_id) < 3

            event = {"type": "app_mention", "user": "U123", "text": "hi", "channel": "C9"}
            event_envelope = sm.send_envelope("events_api", event_payload(event))
            assert sm.wait_for_ack(event_envelope) == {"envelope_id": event_envelope}
            [post] = fake.wait_for("chat.postMessage")
            assert post.params["channel"] == "C9"

            # Slack periodically asks clients to reconnect.
            sm.send_disconnect()
            sm.wait_for_connection(count=2)
            fake.wait_for("apps.connections.open", count=2)
            envelope_id = sm.send_envelope("slash_commands", command_payload("Bob"))
            assert sm.wait_for_ack(envelope_id)["payload"] == {"text": "got Bob"}
        finally:
            handler.close()  # type: ignore[no-untyped-call]
