"""The endpoint open to the internet, under the server `debrief serve` runs (bot.server.http_server)
on loopback: whatever well-formed request Slack may send is acknowledged, quietly when the bot
has no use for it; a malformed one gets a 4xx and at most one log line, never a traceback."""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from support.fake_slack import FakeSlack
from support.servers import WaitressServer
from support.signed import (
    action_body,
    block_actions_payload,
    command_body,
    event_body,
    post_signed,
    sign,
    url_verification_body,
)
from support.slackbot import SECRET, Bot, Tracker
from support.workspace import TEAM_ID

from bot.app import create_app
from bot.server import http_server
from bot.settings import load_settings
from store.factory import open_store


@pytest.fixture
def edge(fake_slack: FakeSlack, tmp_path: Path) -> Iterator[Bot]:
    settings = load_settings(
        bot_token="xoxb-test",
        signing_secret=SECRET,
        api_url=fake_slack.base_url,
        db_path=str(tmp_path / "edge.db"),
    )
    store = open_store(settings.db_path)
    app = create_app(settings, store)
    work = Tracker(app)
    # `http_server`: the limits `debrief serve` runs with
    server = WaitressServer(lambda: http_server(app, SECRET, "127.0.0.1", 0), name="edge-server")
    server.start()
    try:
        yield Bot(fake=fake_slack, server=server, store=store, settings=settings, work=work)
    finally:
        server.stop()
        store.close()


def noise(records: list[logging.LogRecord]) -> list[str]:
    """What a request left in the log that an operator would have to read: any error, any
    traceback, any warning over several lines (Bolt's "Unhandled request" advice)."""
    return [
        f"{r.levelname} {r.name}: {r.getMessage()}"
        for r in records
        if r.levelno >= logging.ERROR
        or r.exc_info
        or (r.levelno >= logging.WARNING and "\n" in r.getMessage())
        or "nhandled request" in r.getMessage()
    ]


# -- what Slack may send that the bot has no listener for -------------------------------------

NOW = "1700000000.000200"
USER = {"id": "U123", "username": "tester", "name": "tester", "team_id": TEAM_ID}
TEAM = {"id": TEAM_ID, "domain": "test"}
CHANNEL = {"id": "C123", "name": "hiring"}


def view(callback_id: str) -> dict[str, Any]:
    """A modal the bot did not open (another app version's, or one it no longer knows)."""
    return {
        "id": "V0OTHER",
        "team_id": TEAM_ID,
        "type": "modal",
        "blocks": [
            {
                "type": "input",
                "block_id": "note",
                "label": {"type": "plain_text", "text": "Note"},
                "element": {"type": "plain_text_input", "action_id": "note_input"},
            }
        ],
        "private_metadata": "",
        "callback_id": callback_id,
        "state": {"values": {"note": {"note_input": {"type": "plain_text_input", "value": "hi"}}}},
        "hash": "1700000000.abcdef",
        "title": {"type": "plain_text", "text": "Other"},
        "clear_on_close": False,
        "notify_on_close": True,
        "close": {"type": "plain_text", "text": "Cancel"},
        "submit": {"type": "plain_text", "text": "Save"},
        "previous_view_id": None,
        "root_view_id": "V0OTHER",
        "app_id": "A1",
        "external_id": "",
        "app_installed_team_id": TEAM_ID,
        "bot_id": "BBOT",
    }


def interaction(kind: str, **fields: Any) -> dict[str, Any]:
    return {
        "type": kind,
        "token": "verification-token",
        "team": TEAM,
        "user": USER,
        "api_app_id": "A1",
        "is_enterprise_install": False,
        "enterprise": None,
        **fields,
    }


EVENTS: dict[str, dict[str, Any]] = {
    "app_mention": {
        "type": "app_mention",
        "user": "U123",
        "text": "<@UBOT> 你好",
        "ts": NOW,
        "channel": "C123",
        "event_ts": NOW,
        "team": TEAM_ID,
        "client_msg_id": "7b2c6e0e-1f1a-4a8e-9d55-2f3c1f9e0a11",
    },
    "member_joined_channel": {
        "type": "member_joined_channel",
        "user": "U456",
        "channel": "C123",
        "channel_type": "C",
        "team": TEAM_ID,
        "inviter": "U123",
        "event_ts": NOW,
    },
    "reaction_added": {
        "type": "reaction_added",
        "user": "U123",
        "reaction": "eyes",
        "item": {"type": "message", "channel": "C123", "ts": "1700000000.000100"},
        "item_user": "UBOT",
        "event_ts": NOW,
    },
    "file_shared": {
        "type": "file_shared",
        "channel_id": "C123",
        "file_id": "F0FILE",
        "user_id": "U123",
        "file": {"id": "F0FILE"},
        "event_ts": NOW,
    },
    "app_uninstalled": {"type": "app_uninstalled", "event_ts": NOW},
    "tokens_revoked": {
        "type": "tokens_revoked",
        "tokens": {"oauth": ["U123"], "bot": ["UBOT"]},
        "event_ts": NOW,
    },
}

INTERACTIONS: dict[str, dict[str, Any]] = {
    "block_actions, a link button in a message": block_actions_payload(
        "U123",
        {"type": "message", "message_ts": "1700000000.000100", "channel_id": "C123"},
        [
            {
                "action_id": "open_docs",
                "block_id": "links",
                "text": {"type": "plain_text", "text": "Docs"},
                "value": "docs",
                "type": "button",
                "url": "https://example.com/docs",
                "action_ts": NOW,
            }
        ],
        username="tester",
        trigger_id="1700000000.1.abc",
        channel=CHANNEL,
        response_url="https://hooks.slack.com/actions/T0001/1/other",
        message={"type": "message", "ts": "1700000000.000100", "text": "see the docs"},
    ),
    "block_actions, a checkbox in another modal": block_actions_payload(
        "U123",
        {"type": "view", "view_id": "V0OTHER"},
        [
            {
                "action_id": "agree",
                "block_id": "terms",
                "type": "checkboxes",
                "selected_options": [{"value": "yes", "text": {"type": "plain_text", "text": "Y"}}],
                "action_ts": NOW,
            }
        ],
        username="tester",
        trigger_id="1700000000.2.abc",
        view=view("other_form"),
    ),
    "view_submission of another modal": interaction(
        "view_submission",
        trigger_id="1700000000.3.abc",
        view=view("other_form"),
        response_urls=[],
    ),
    "view_closed of another modal": interaction(
        "view_closed", view=view("other_form"), is_cleared=False
    ),
    "global shortcut": interaction(
        "shortcut",
        callback_id="new_candidate",
        trigger_id="1700000000.4.abc",
        action_ts=NOW,
    ),
    "message shortcut": interaction(
        "message_action",
        callback_id="save_message",
        trigger_id="1700000000.5.abc",
        action_ts=NOW,
        channel=CHANNEL,
        message_ts="1700000000.000100",
        response_url="https://hooks.slack.com/app/T0001/1/shortcut",
        message={"type": "message", "user": "U456", "ts": "1700000000.000100", "text": "候选人"},
    ),
    "legacy dialog_submission": interaction(
        "dialog_submission",
        callback_id="old_dialog",
        action_ts=NOW,
        channel=CHANNEL,
        submission={"note": "good"},
        response_url="https://hooks.slack.com/app/T0001/1/dialog",
        state="",
    ),
    "legacy dialog_cancellation": interaction(
        "dialog_cancellation",
        callback_id="old_dialog",
        action_ts=NOW,
        channel=CHANNEL,
        response_url="https://hooks.slack.com/app/T0001/1/dialog",
        state="",
    ),
    "legacy interactive_message": interaction(
        "interactive_message",
        callback_id="old_buttons",
        actions=[{"name": "choice", "type": "button", "value": "yes"}],
        action_ts=NOW,
        message_ts="1700000000.000100",
        attachment_id="1",
        channel=CHANNEL,
        is_app_unfurl=False,
        original_message={
            "type": "message",
            "ts": "1700000000.000100",
            "text": "old",
            "attachments": [{"id": 1, "callback_id": "old_buttons", "fallback": "old"}],
        },
        response_url="https://hooks.slack.com/actions/T0001/1/legacy",
        trigger_id="1700000000.6.abc",
    ),
}

SUGGESTIONS: dict[str, dict[str, Any]] = {
    "block_suggestion": interaction(
        "block_suggestion",
        container={"type": "view", "view_id": "V0OTHER"},
        action_id="pick_candidate",
        block_id="who",
        value="00",
        view=view("other_form"),
    ),
    "legacy dialog_suggestion": interaction(
        "dialog_suggestion",
        callback_id="old_dialog",
        action_ts=NOW,
        channel=CHANNEL,
        name="candidate",
        value="00",
        state="",
    ),
}


def event_case(event: dict[str, Any]) -> bytes:
    return event_body(event, event_id=f"Ev{uuid.uuid4().hex[:10].upper()}")


ACKED: list[Any] = [
    *(pytest.param(event_case(e), id=f"event {name}") for name, e in EVENTS.items()),
    *(pytest.param(action_body(p), id=name) for name, p in INTERACTIONS.items()),
    pytest.param(
        json.dumps(
            {
                "token": "verification-token",
                "type": "app_rate_limited",
                "team_id": TEAM_ID,
                "minute_rate_limited": 1700000000,
                "api_app_id": "A1",
            }
        ).encode(),
        id="app_rate_limited",
    ),
]


@pytest.mark.parametrize("body", ACKED)
def test_what_the_bot_does_not_use_is_acknowledged_quietly(
    edge: Bot, body: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        status, _h, raw = post_signed(edge.events_url, body, SECRET)
        edge.idle()
    assert status == 200, raw
    assert raw in (b"", b"{}"), raw
    assert noise(caplog.records) == []
    assert [c.method for c in edge.fake.calls() if c.method != "auth.test"] == []


@pytest.mark.parametrize("payload", SUGGESTIONS.values(), ids=SUGGESTIONS.keys())
def test_a_suggestion_the_bot_does_not_offer_gets_no_options(
    edge: Bot, payload: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        status, headers, raw = post_signed(edge.events_url, action_body(payload), SECRET)
        edge.idle()
    assert status == 200, raw
    assert headers["content-type"].startswith("application/json")
    assert json.loads(raw) == {"options": []}
    assert noise(caplog.records) == []


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            url_verification_body("3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"),
            id="url_verification",
        ),
        pytest.param(b"ssl_check=1&token=verification-token", id="ssl_check"),
    ],
)
def test_slacks_checks_of_the_url_are_answered_as_bolt_does(
    edge: Bot, body: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        status, _h, raw = post_signed(edge.events_url, body, SECRET)
    assert status == 200
    if b"challenge" in body:
        assert json.loads(raw) == {"challenge": json.loads(body)["challenge"]}
    assert noise(caplog.records) == []


def test_the_bot_still_answers_what_it_handles(edge: Bot) -> None:
    """The catch-all acknowledgement takes nothing from the bot's own listeners."""
    status, _h, _b = post_signed(
        edge.events_url, command_body("帮助", response_url=edge.fake.response_url("help")), SECRET
    )
    assert status == 200
    edge.fake.wait_for("response/help")
    assert "/candidate" in json.dumps(edge.fake.responses("help"), ensure_ascii=False)


def test_an_error_in_a_listener_is_still_logged_whole(
    edge: Bot, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(edge.store, "resolve", broken)
    with caplog.at_level(logging.INFO):
        post_signed(
            edge.events_url,
            command_body("总结 000", response_url=edge.fake.response_url("e")),
            SECRET,
        )
        edge.fake.wait_for("response/e")
        edge.idle()
    [logged] = [r for r in caplog.records if r.exc_info]
    assert logged.levelno == logging.ERROR and "disk on fire" in str(logged.exc_info[1])


# -- malformed requests: a 4xx, one log line at most, no traceback ----------------------------


def nested_json(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("a timestamp of 400 digits", 401),
        ("a timestamp of 400 digits, signed over it", 401),
        ("a JSON body nested 20,000 deep", 400),
        ("a payload field nested 20,000 deep", 400),
        ("an unsigned JSON body nested 20,000 deep", 401),
    ],
)
def test_malformed_requests_get_a_4xx_and_no_traceback(
    edge: Bot, case: str, expected: int, caplog: pytest.LogCaptureFixture
) -> None:
    body = command_body("总结 000", response_url=edge.fake.response_url("m"))
    content_type = "application/x-www-form-urlencoded"
    headers = sign(body, SECRET)
    if "timestamp" in case:
        huge = 10**400
        headers = sign(body, SECRET, huge) if "signed" in case else headers
        headers["X-Slack-Request-Timestamp"] = str(huge)
    elif "JSON body" in case:
        body, content_type = nested_json(20_000).encode(), "application/json"
        headers = sign(body, "not-the-secret" if "unsigned" in case else SECRET)
    else:
        body = urlencode({"payload": nested_json(20_000)}).encode()
        headers = sign(body, SECRET)
    with caplog.at_level(logging.DEBUG):
        status, _h, _raw = post_signed(
            edge.events_url, body, SECRET, content_type=content_type, extra_headers=headers
        )
        edge.idle()
    assert status == expected
    lines = [r for r in caplog.records if r.levelno >= logging.INFO]
    assert len(lines) <= 1, [r.getMessage() for r in lines]
    assert not [r for r in lines if r.exc_info or r.levelno >= logging.ERROR], "a traceback"
    assert edge.fake.responses("m") == []
    status, _h, _b = post_signed(
        edge.events_url, command_body("帮助", response_url=edge.fake.response_url("ok")), SECRET
    )
    assert status == 200 and edge.fake.wait_for("response/ok")


def test_nesting_near_the_parsers_limit_gets_400(
    edge: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    """Just short of the depth where Python's JSON parser gives up, ours succeeds but Bolt's,
    a few calls deeper, would not: every depth around there is refused alike."""
    statuses: set[int] = set()
    with caplog.at_level(logging.INFO):
        for depth in range(940, 1000, 2):
            event = {"type": "message", "channel": "C123", "user": "U123", "ts": "1.2"}
            body = event_body(event | {"blocks": []}).replace(
                b'"blocks": []', b'"blocks": ' + b"[" * depth + b"]" * depth
            )
            statuses.add(post_signed(edge.events_url, body, SECRET)[0])
    assert statuses == {400}
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
