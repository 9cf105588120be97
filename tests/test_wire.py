"""What real Slack sends that the happy path never does, over the real HTTP path.

A slow user-group read must not delay the acknowledgement; a Slack Connect user in a
shared channel is refused; malformed requests get 401/400, never a 500; only refusals
that would have reached candidate data are audited."""

from __future__ import annotations

import json
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from slack_sdk import WebClient
from support.fake_slack import FakeSlack
from support.signed import (
    action_body,
    block_actions_payload,
    command_body,
    event_payload,
    post_signed,
    sign,
)
from support.slackbot import SECRET, Bot, all_text, find_button, start_bot
from support.workspace import TEAM_ID

from handlers.policy import Policy
from store.indexer import index_paths

PENDING = "一分钟后再试"
REFUSED = "没有查看候选人信息的权限"
ROLE_002 = "神经网络模型设计师"


@pytest.fixture
def restricted(fake_slack: FakeSlack, tmp_path: Path, seeds_dir: Path) -> Iterator[Bot]:
    """A bot open to UBOSS only, with the seeds indexed."""
    bot = start_bot(fake_slack, str(tmp_path / "r.db"), allowed_users_raw="UBOSS")
    assert not index_paths(bot.store, [seeds_dir]).failed
    try:
        yield bot
    finally:
        bot.server.stop()


def command(bot: Bot, text: str, name: str, **kw: str) -> tuple[int, bytes, float]:
    """A signed /candidate; (status, body, seconds until the HTTP answer)."""
    body = command_body(text, response_url=bot.fake.response_url(name), **kw)
    started = time.perf_counter()
    status, _h, raw = post_signed(bot.events_url, body, SECRET)
    return status, raw, time.perf_counter() - started


def post_verdict(bot: Bot, user: str = "U123") -> str:
    """Post 002's verdict in C123 and return the ts of the post (a thread's parent)."""
    status, _raw, _s = command(bot, "点评 002", "verdict", user_id=user)
    assert status == 200
    bot.fake.wait_for("chat.postMessage")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:  # recorded right after Slack answers
        row = bot.store.db.execute("SELECT ts FROM posts").fetchone()
        if row:
            return str(row[0])
        time.sleep(0.02)
    raise AssertionError("the verdict post was never recorded")


def reply_event(parent: str, user: str, text: str, ts: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": "message",
        "channel": "C123",
        "user": user,
        "text": text,
        "ts": ts,
        "thread_ts": parent,
        **extra,
    }


def replies(bot: Bot) -> int:
    return int(bot.store.db.execute("SELECT count(*) FROM replies").fetchone()[0])


# -- 3. ack first: user groups are read in the background ----------------------------------


def test_a_rate_limited_group_read_does_not_delay_the_ack(
    fake_slack: FakeSlack, tmp_path: Path, seeds_dir: Path
) -> None:
    fake_slack.usergroups["S0001"] = ["UMEMBER"]
    fake_slack.fail_next("usergroups.users.list", status=429, retry_after=4)
    bot = start_bot(fake_slack, str(tmp_path / "g.db"), allowed_users_raw="UBOSS, S0001")
    index_paths(bot.store, [seeds_dir])
    try:
        [limited] = fake_slack.wait_for("usergroups.users.list")  # the first read: 429
        assert limited.status == 429
        status, raw, _seconds = command(bot, "总结 002", "early", user_id="UMEMBER")
        # acknowledged before the group read was tried again (Retry-After: 4)
        assert status == 200 and len(fake_slack.calls("usergroups.users.list")) == 1
        early = json.loads(raw)
        assert early["response_type"] == "ephemeral" and PENDING in early["text"]
        assert ROLE_002 not in raw.decode()
        status, _raw, _seconds = command(bot, "总结 002", "boss", user_id="UBOSS")
        assert status == 200
        assert ROLE_002 in all_text(bot.replies("boss")[0])  # named users never wait
        assert len(fake_slack.calls("usergroups.users.list")) == 1  # no read on the request path

        fake_slack.wait_for("usergroups.users.list", count=2, timeout=15)  # after Retry-After
        deadline = time.monotonic() + 10
        name = "member0"
        while True:
            status, raw, _s = command(bot, "总结 002", name, user_id="UMEMBER")
            if not raw or PENDING not in raw.decode():
                break
            assert time.monotonic() < deadline, "the group was never read"
            name = f"member{int(name[6:]) + 1}"
        assert ROLE_002 in all_text(bot.replies(name)[0])
        status, raw, _s = command(bot, "总结 002", "stranger", user_id="USTRANGER")
        assert REFUSED in json.loads(raw)["text"]
        assert len(fake_slack.calls("usergroups.users.list")) == 2  # cached, not read per request
    finally:
        bot.server.stop()


def test_a_failed_group_read_keeps_the_last_good_list(fake_slack: FakeSlack) -> None:
    fake_slack.usergroups["S0001"] = ["UMEMBER"]
    client = WebClient(token="xoxb-test", base_url=fake_slack.base_url)
    policy = Policy(["S0001"], [])
    assert policy.decide("UMEMBER") == "pending"
    assert policy.refresh(client)
    assert policy.decide("UMEMBER") == "yes" and policy.decide("UOTHER") == "no"
    fake_slack.fail_next("usergroups.users.list", status=200, error="team_not_found")
    assert not policy.refresh(client)
    assert policy.decide("UMEMBER") == "yes"  # not locked out by one failed read
    fake_slack.usergroups["S0001"] = ["UOTHER"]
    assert policy.refresh(client)
    assert policy.decide("UMEMBER") == "no" and policy.decide("UOTHER") == "yes"


# -- 4. Slack Connect: only our own workspace --------------------------------------------


def test_a_reply_from_another_organisation_is_refused_and_not_recorded(bot: Bot) -> None:
    parent = post_verdict(bot)
    external = reply_event(parent, "UEXT", "通过", "1800000000.1", user_team="T9999", team="T9999")
    assert bot.event(external) == 200  # refused before any listener: nothing runs after
    assert replies(bot) == 0 and bot.fake.calls("reactions.add") == []
    assert ("UEXT", "refused:event_callback") in {(e.who, e.what) for e in bot.store.audit_log()}
    ours = reply_event(parent, "UREV", "通过", "1800000000.2", user_team=TEAM_ID, team=TEAM_ID)
    assert bot.event(ours) == 200
    bot.fake.wait_for("reactions.add")
    assert replies(bot) == 1


def test_an_edit_by_another_organisation_is_refused(bot: Bot) -> None:
    parent = post_verdict(bot)
    edited = {
        "type": "message",
        "subtype": "message_changed",
        "channel": "C123",
        "ts": "1800000000.9",
        "message": reply_event(parent, "UEXT", "通过", "1800000000.3", user_team="T9999"),
    }
    assert bot.event(edited) == 200
    assert replies(bot) == 0


def test_a_click_from_another_organisation_is_refused(bot: Bot) -> None:
    bot.command("总结 002", name="s")
    [summary] = bot.replies("s")
    button = find_button(summary, "post_in_channel")
    payload = block_actions_payload(
        "UEXT",
        {"type": "message", "channel_id": "C123", "is_ephemeral": True},
        [
            {
                "action_id": button["action_id"],
                "block_id": "b",
                "value": button.get("value", ""),
                "type": "button",
                "action_ts": "1.2",
            }
        ],
        username="guest",
        user_team="T9999",
        trigger_id="1.2.3",
        channel={"id": "C123", "name": "shared"},
        response_url=bot.fake.response_url("ext"),
    )
    status, _h, _b = post_signed(bot.events_url, action_body(payload), SECRET)
    assert status == 200
    [refusal] = bot.replies("ext")
    assert REFUSED in all_text(refusal) and ROLE_002 not in all_text(refusal)
    assert bot.fake.calls("chat.postMessage") == []


def test_a_request_naming_no_workspace_is_refused(bot: Bot) -> None:
    status, raw, _s = command(bot, "总结 002", "noteam", team_id="")
    assert status == 200 and REFUSED in json.loads(raw)["text"]
    body = event_payload(reply_event("1.1", "UREV", "通过", "1800000000.5"))
    del body["team_id"]
    status, _h, _b = post_signed(bot.events_url, json.dumps(body).encode(), SECRET)
    assert status == 200
    assert bot.fake.responses("noteam") == []


def test_ssl_check_gets_200_and_nothing_else(bot: Bot) -> None:
    body = b"ssl_check=1&token=verification-token"
    status, _h, raw = post_signed(bot.events_url, body, SECRET)
    assert status == 200 and raw == b""
    assert bot.store.audit_log() == []
    assert [c.method for c in bot.fake.calls()] == ["auth.test"]


# -- 8. malformed requests: 401 or 400, never a 500 --------------------------------------


def post_raw(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read()


@pytest.mark.parametrize(
    "case", ["no timestamp", "non-numeric timestamp", "not UTF-8", "unsigned not UTF-8"]
)
def test_unsigned_or_unreadable_requests_get_401(
    bot: Bot, case: str, caplog: pytest.LogCaptureFixture
) -> None:
    body = (
        command_body("总结 002", response_url=bot.fake.response_url("x"))
        if "UTF" not in case
        else (b"text=\xff\xfe&command=%2Fcandidate")
    )
    headers = {"Content-Type": "application/x-www-form-urlencoded"} | sign(body, SECRET)
    if case == "no timestamp":
        del headers["X-Slack-Request-Timestamp"]
    elif case == "non-numeric timestamp":
        headers["X-Slack-Request-Timestamp"] = "soon"
    elif case == "unsigned not UTF-8":
        del headers["X-Slack-Signature"]
    with caplog.at_level(logging.DEBUG):
        status, _raw = post_raw(bot.events_url, body, headers)
    assert status == 401
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    assert bot.fake.responses("x") == []


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"[]", "application/json"),
        (b'"x"', "application/json"),
        (b"1", "application/json"),
        (b"null", "application/json"),
        (b"{not json", "application/json"),
        (b"payload=%5B%5D", "application/x-www-form-urlencoded"),
        (b"payload=%22x%22", "application/x-www-form-urlencoded"),
    ],
)
def test_signed_bodies_that_are_not_an_object_get_400(
    bot: Bot, body: bytes, content_type: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        status, _h, _raw = post_signed(bot.events_url, body, SECRET, content_type=content_type)
    assert status == 400
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"


# -- 12. the audit records refusals that matter -------------------------------------------


def test_chatter_is_not_audited_but_a_refused_thread_reply_is(restricted: Bot) -> None:
    bot = restricted
    parent = post_verdict(bot, user="UBOSS")
    before = len(bot.store.audit_log())
    lunch = {"type": "message", "channel": "C123", "user": "USTRANGER", "text": "lunch?"}
    assert bot.event(lunch | {"ts": "1800000001.1"}) == 200
    assert bot.event(lunch | {"ts": "1800000001.2", "thread_ts": "1700000000.999"}) == 200
    assert len(bot.store.audit_log()) == before  # other people's chatter: no row
    calls = len(bot.fake.calls())
    reply = reply_event(parent, "USTRANGER", "通过", "1800000001.3")
    assert bot.event(reply) == 200
    refused = [e for e in bot.store.audit_log()[before:]]
    assert [(e.who, e.what) for e in refused] == [("USTRANGER", "refused:event_callback")]
    assert replies(bot) == 0
    assert len(bot.fake.calls()) == calls  # and no call to Slack for it
    _status, raw, _s = command(bot, "总结 002", "stranger", user_id="USTRANGER")
    assert REFUSED in json.loads(raw)["text"]
    assert bot.store.audit_log()[-1].what == "refused:command"


# -- 7. never post twice: a verdict whose outcome is unknown is not posted again ------------


def posts(bot: Bot) -> list[str]:
    return [str(r[0]) for r in bot.store.db.execute("SELECT ts FROM posts").fetchall()]


def test_a_dropped_verdict_post_is_found_and_recorded_once(bot: Bot) -> None:
    bot.fake.drop_next("chat.postMessage")  # Slack posts it; the answer never arrives
    bot.command("点评 002", name="v")
    bot.fake.wait_for("conversations.history")
    deadline = time.monotonic() + 5
    while not posts(bot) and time.monotonic() < deadline:  # recorded once found
        time.sleep(0.02)
    [post] = bot.fake.calls("chat.postMessage")
    marker = post.json_param("metadata")
    assert marker["event_type"] == "debrief_post" and marker["event_payload"]["kind"] == "verdict"
    [looked] = bot.fake.calls("conversations.history")
    assert looked.params["channel"] == "C123"
    assert len(posts(bot)) == 1  # replies in its thread will be tied to it
    assert "Slack 没有确认" not in all_text(bot.fake.responses("v"))


def test_a_verdict_post_answered_5xx_is_not_posted_again(bot: Bot) -> None:
    bot.fake.fail_next("chat.postMessage", status=503)
    bot.command("点评 002", name="v")
    [told] = bot.replies("v")
    assert "Slack 没有确认" in all_text(told)  # check the channel: we will not post it twice
    assert [c.status for c in bot.fake.calls("chat.postMessage")] == [503]
    assert len(bot.fake.calls("conversations.history")) == 1
    assert posts(bot) == []


def test_a_rate_limited_verdict_post_is_retried(bot: Bot) -> None:
    bot.fake.fail_next("chat.postMessage", status=429, retry_after=1)
    bot.command("点评 002", name="v")
    bot.fake.wait_for("chat.postMessage", count=2, timeout=10)
    assert [c.status for c in bot.fake.calls("chat.postMessage")] == [429, 200]
    assert bot.fake.calls("conversations.history") == []
