"""Odd and hostile input from Slack, through the real app (signed HTTP, and Socket Mode)
against the strict fake Slack, on SQLite and PostgreSQL: lone surrogates and NULs in
what people type, modal submissions without a view id, junk in values Slack hands back
(private_metadata, button values), and notes made of markup. Nothing typed is lost,
what is posted is what is recorded, and junk is ignored or answered kindly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from slack_sdk import WebClient
from support.fake_slack import FakeSlack
from support.signed import action_body, command_payload, post_signed
from support.slackbot import SECRET, Bot, all_text
from support.socket_mode import FakeSocketModeServer
from support.waiting import wait_until
from test_decide import (
    candidate_id,
    click_decision,
    decisions,
    opened_modal,
    post_verdict,
    thread_posts,
)
from test_home import click, open_home
from test_threads import reply

from bot.app import create_app
from bot.server import socket_mode_handler
from bot.settings import load_settings
from store.errors import UnstorableError
from store.factory import open_store
from store.indexer import index_paths
from store.sqlite.store import Store

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
LONE = "\ud800"  # json.dumps writes it as the escape "\ud800", as a hostile client could


def submit(
    bot: Bot,
    view: dict[str, Any],
    decision: str,
    note: str | None = None,
    user: str = "U777",
    *,
    with_id: bool = True,
    metadata: str | None = None,
) -> tuple[int, bytes]:
    """Submit the decision modal as Slack would; return (status, the raw answer)."""
    values: dict[str, Any] = {
        "decision": {
            "choice": {
                "type": "radio_buttons",
                "selected_option": {
                    "text": {"type": "plain_text", "text": decision},
                    "value": decision,
                },
            }
        },
        "note": {"text": {"type": "plain_text_input", "value": note}},
    }
    sent_view: dict[str, Any] = {
        "team_id": "T0001",
        "type": "modal",
        "callback_id": view["callback_id"],
        "private_metadata": view["private_metadata"] if metadata is None else metadata,
        "hash": view["hash"],
        "blocks": view["blocks"],
        "state": {"values": values},
    }
    if with_id:
        sent_view["id"] = view["id"]
    payload = {
        "type": "view_submission",
        "team": {"id": "T0001", "domain": "test"},
        "user": {"id": user, "username": "alice", "name": "alice", "team_id": "T0001"},
        "api_app_id": "A1",
        "token": "verification-token",
        "trigger_id": "12345.98765.abcd",
        "view": sent_view,
        "response_urls": [],
    }
    status, _h, body = post_signed(bot.events_url, action_body(payload), SECRET)
    return status, body


def reply_rows(bot: Bot) -> list[tuple[str, str | None, int | None, str | None]]:
    return [
        (str(r[0]), r[1], r[2], r[3])
        for r in bot.store.db.execute(
            "SELECT text, decision, followup_number, followup_answer FROM replies ORDER BY ts"
        ).fetchall()
    ]


# -- text with a lone surrogate or a NUL ------------------------------------------------


def test_a_reply_with_a_lone_surrogate_is_recorded_cleaned(bot: Bot) -> None:
    _message, parent = post_verdict(bot)
    assert bot.event(reply("1800000000.000001", parent, f"Hire: 沟通{LONE}清楚")) == 200
    bot.fake.wait_for("reactions.add")
    assert reply_rows(bot) == [("Hire: 沟通\ufffd清楚", "hire", None, None)]


def test_a_reply_with_nul_is_recorded_the_same_on_both_backends(bot: Bot) -> None:
    _message, parent = post_verdict(bot)
    text = "问题2：\x00后来\x07补充了\r\n答案"
    assert bot.event(reply("1800000000.000002", parent, text, user="UC")) == 200
    rows = wait_until("the follow-up recorded", lambda: reply_rows(bot))
    assert rows == [("问题2：后来补充了\r\n答案", None, 2, "后来补充了\r\n答案")]


def test_a_decision_note_with_a_lone_surrogate_is_recorded_as_posted(bot: Bot) -> None:
    _message, ts = post_verdict(bot)
    cid = candidate_id(bot)
    click_decision(bot, ts, "decide:hire", "hire")
    status, answer = submit(bot, opened_modal(bot), "hire", f"基础{LONE}扎实")
    assert (status, answer.strip()) == (200, b"")
    assert wait_until("decisions(bot, cid)", lambda: decisions(bot, cid)) == [
        ("U777", "hire", "通过 — 基础\ufffd扎实")
    ]
    assert wait_until("the post", lambda: thread_posts(bot, ts)) == ["alice: 通过 — 基础\ufffd扎实"]


def test_a_search_with_a_lone_surrogate_is_answered_over_socket_mode(
    fake_slack: FakeSlack, db_target: str
) -> None:
    """Socket Mode hands Bolt the JSON Slack sent, so a `/candidate` text can hold one."""
    with FakeSocketModeServer(fake_slack) as ws:
        settings = load_settings(
            bot_token="xoxb-test",
            app_token="xapp-test",
            api_url=fake_slack.base_url,
            db_path=db_target,
        )
        store = open_store(settings.db_path)
        assert not index_paths(store, [SEEDS]).failed
        handler = socket_mode_handler(create_app(settings, store), "xapp-test")
        handler.connect()  # type: ignore[no-untyped-call]
        try:
            ws.wait_for_connection()
            url = fake_slack.response_url("search")
            payload = command_payload(f"搜索 TensorFlow{LONE}", response_url=url)
            ws.wait_for_ack(ws.send_envelope(type="slash_commands", payload=payload))
            fake_slack.wait_for("response/search", timeout=10)
            [answer] = fake_slack.responses("search")
            text = all_text(answer)
            assert "TensorFlow\ufffd" in text and "抱歉" not in text, text[:500]
        finally:
            handler.close()  # type: ignore[no-untyped-call]
            store.close()


# -- modal submissions -----------------------------------------------------------------------


def test_three_reviewers_without_a_view_id_are_three_decisions_each_once(bot: Bot) -> None:
    _message, ts = post_verdict(bot)
    cid = candidate_id(bot)
    reviewers = {"UA": "hire", "UB": "hold", "UC": "no_hire"}
    views = {}
    for i, (user, decision) in enumerate(reviewers.items(), start=1):
        click_decision(bot, ts, f"decide:{decision}", decision, user=user)
        views[user] = opened_modal(bot, i)
        assert submit(bot, views[user], decision, user=user, with_id=False)[0] == 200
    # the same submission delivered again is recorded once
    assert submit(bot, views["UA"], "hire", user="UA", with_id=False)[0] == 200
    wait_until("three decisions", lambda: len(decisions(bot, cid)) == 3)
    wait_until("three posts", lambda: len(thread_posts(bot, ts)) == 3)
    bot.idle()
    assert sorted(d[:2] for d in decisions(bot, cid)) == sorted(reviewers.items())
    assert len(thread_posts(bot, ts)) == 3
    count = bot.store.db.execute(
        "SELECT count(*) FROM replies WHERE candidate_id = ?", [cid]
    ).fetchone()[0]
    assert count == 3


def _refuse_replies(bot: Bot, backend: str) -> None:
    if backend == "sqlite":
        bot.store.db.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON replies"
            " BEGIN SELECT RAISE(ABORT, 'cannot write'); END"
        )
    else:
        bot.store.db.execute(
            "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql"
            " AS $$ BEGIN RAISE EXCEPTION 'cannot write'; END $$"
        )
        bot.store.db.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON replies FOR EACH ROW EXECUTE FUNCTION refuse()"
        )


def _allow_replies(bot: Bot, backend: str) -> None:
    bot.store.db.execute("DROP TRIGGER refuse" + ("" if backend == "sqlite" else " ON replies"))


def test_a_decision_that_cannot_be_recorded_is_not_posted(bot: Bot, backend: str) -> None:
    _message, ts = post_verdict(bot)
    cid = candidate_id(bot)
    click_decision(bot, ts, "decide:hire", "hire")
    view = opened_modal(bot)
    _refuse_replies(bot, backend)
    status, answer = submit(bot, view, "hire", "基础扎实")
    bot.idle()
    assert status == 200
    said = json.loads(answer)
    assert said["response_action"] == "errors" and "抱歉" in said["errors"]["decision"]
    assert thread_posts(bot, ts) == []  # nothing posted that is not recorded
    # once the database writes again, the same modal goes through, once
    _allow_replies(bot, backend)
    assert submit(bot, view, "hire", "基础扎实") == (200, b"")
    assert wait_until("the post", lambda: thread_posts(bot, ts)) == ["alice: 通过 — 基础扎实"]
    bot.idle()
    assert decisions(bot, cid) == [("U777", "hire", "通过 — 基础扎实")]
    # the decision stands under its post: deleting the post takes it back
    thread = WebClient(token="xoxb-test", base_url=bot.fake.base_url).conversations_replies(
        channel="C123", ts=ts
    )
    [posted_ts] = [m["ts"] for m in thread["messages"] if m["ts"] != ts]
    deleted = {
        "type": "message",
        "subtype": "message_deleted",
        "channel": "C123",
        "hidden": True,
        "deleted_ts": posted_ts,
        "ts": "1900000000.000100",
        "event_ts": "1900000000.000100",
        "previous_message": {"type": "message", "ts": posted_ts, "thread_ts": ts},
    }
    assert bot.event(deleted) == 200
    wait_until("the decision taken back", lambda: decisions(bot, cid) == [])


def test_a_claimed_decision_never_replaces_another_reply_and_fails_whole(
    seeded_store: Store,
) -> None:
    """What the modal's record-first path relies on, on both backends."""
    store = seeded_store
    found = store.resolve("000").unique
    assert found is not None
    thread = "1700000000.000001"
    store.record_post("C1", thread, found.id, "verdict")

    def decide(ts: str, reviewer: str, claim: str) -> bool:
        return store.record_decision("C1", ts, thread, found.id, reviewer, "hire", "通过", claim)

    assert decide("1800000000.000001", "UA", "a")
    with pytest.raises(UnstorableError):
        decide("1800000000.000001", "UB", "b")  # the same ts: refused, not replaced
    assert decide("1800000000.000002", "UB", "b")  # the failed write kept no claim
    assert not decide("1800000000.000003", "UB", "b")  # the same submission again
    assert store.settle_decision("C1", "1800000000.000002", "1800000000.000009")
    assert not store.settle_decision("C1", "1800000000.000001", "1800000000.000009")
    rows = store.db.execute("SELECT reviewer, ts FROM replies ORDER BY ts").fetchall()
    assert [tuple(r) for r in rows] == [
        ("UA", "1800000000.000001"),
        ("UB", "1800000000.000009"),
    ]


def test_a_note_of_markup_is_posted_whole(bot: Bot) -> None:
    _message, ts = post_verdict(bot)
    cid = candidate_id(bot)
    click_decision(bot, ts, "decide:hire", "hire")
    assert submit(bot, opened_modal(bot), "hire", "<" * 1000)[0] == 200
    [posted] = wait_until("the post", lambda: thread_posts(bot, ts))
    assert posted == "alice: 通过 — " + "&lt;" * 1000
    assert wait_until("decisions", lambda: decisions(bot, cid)) == [
        ("U777", "hire", "通过 — " + "<" * 1000)
    ]


NESTED = "[" * 2000 + "]" * 2000


@pytest.mark.parametrize(
    "metadata",
    [NESTED, '{"id": "x", "ch": "C123", "ts": "1", "more": ' + NESTED + "}"],
    ids=["nested", "nested-inside"],
)
def test_junk_private_metadata_gets_a_kind_answer(bot: Bot, metadata: str) -> None:
    _message, ts = post_verdict(bot)
    click_decision(bot, ts, "decide:hire", "hire")
    status, answer = submit(bot, opened_modal(bot), "hire", metadata=metadata)
    assert status == 200
    said = json.loads(answer)
    assert said["response_action"] == "errors" and "不在库中" in said["errors"]["decision"]
    bot.idle()
    assert thread_posts(bot, ts) == []


# -- App Home values --------------------------------------------------------------------------


def test_junk_home_page_values_show_the_first_page(bot: Bot) -> None:
    home = open_home(bot)
    for i, value in enumerate(
        [
            json.dumps({"s": "new", "o": 2**70}),
            json.dumps({"s": "new", "o": -3}),
            json.dumps({"s": "new", "o": "2"}),
            json.dumps({"s": {"x": 1}, "o": 0}),
            '{"s": "new", "o": ' + NESTED + "}",
            NESTED,
        ],
        start=2,
    ):
        click(bot, home, "home_page:new:next", value=value)
        call = bot.fake.wait_for("views.publish", count=i)[i - 1]
        assert call.ok, call.error
    bot.idle()
    assert len(bot.fake.calls("views.publish")) == 7


def test_a_junk_line_value_opens_a_kind_modal(bot: Bot) -> None:
    home = open_home(bot)
    button = next(
        b["accessory"]["action_id"]
        for b in home["blocks"]
        if b.get("accessory", {}).get("action_id", "").startswith("home_open:")
    )
    for count, value in enumerate(
        [NESTED, '{"id": ' + NESTED + "}", json.dumps({"id": 2**70})], start=1
    ):
        click(bot, home, button, value=value)
        call = bot.fake.wait_for("views.open", count=count)[count - 1]
        assert call.ok and "已不在" in all_text(call.json_param("view")), call.error


def test_a_search_typed_in_home_with_a_lone_surrogate_is_answered(bot: Bot) -> None:
    home = open_home(bot)
    click(bot, home, "home_search")
    bot.fake.wait_for("views.open")
    modal = bot.fake.views[max(bot.fake.views)]
    click(bot, modal, "home_search_query", value=f"TensorFlow{LONE}")
    [updated] = bot.fake.wait_for("views.update")
    assert updated.ok, updated.error
    assert "TensorFlow\ufffd" in all_text(bot.fake.views[modal["id"]])


@pytest.mark.parametrize(
    "value",
    [json.dumps({"v": "list", "o": 2**70}), '{"v": "list", "o": ' + NESTED + "}", NESTED],
    ids=["huge-offset", "nested-inside", "nested"],
)
def test_junk_in_a_candidate_button_value_is_ignored(bot: Bot, value: str) -> None:
    def page_button(value: str) -> dict[str, Any]:
        button = {"action_id": "page:next", "text": {"type": "plain_text", "text": "next"}}
        return {"blocks": [{"type": "actions", "elements": [button | {"value": value}]}]}

    assert bot.click(page_button(value), "page:next", name="junk") == 200
    bot.idle()
    assert bot.fake.responses("junk") == []  # neither an answer nor an error
    # the same button with a sound value is answered
    assert bot.click(page_button(json.dumps({"v": "list", "o": 0})), "page:next", name="ok") == 200
    [answer] = bot.replies("ok")
    assert "000_9e6b3ecb0732fcf3" in all_text(answer)
