"""Decide with a button: verdict post buttons -> a modal (views.open) -> view_submission,
recorded as a thread reply would be, posted in the verdict's thread. Signed HTTP requests
against the strict fake Slack."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.fake_slack import FakeSlack
from support.signed import action_body, block_actions_payload, post_signed
from support.slackbot import SECRET, Bot, start_bot
from support.waiting import wait_until
from support.web_api import METHODS, Call

from handlers.views.cards import verdict_view
from handlers.views.decide import Target, decide_actions, targets
from store.indexer import index_paths

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


def post_verdict(bot: Bot, who: str = "000") -> tuple[dict[str, Any], str]:
    """Post the verdict with `/candidate 点评`; return the posted message and its ts."""
    before = len(bot.fake.calls("chat.postMessage"))
    bot.command(f"点评 {who}", name=f"verdict-{who}")
    call = bot.fake.wait_for("chat.postMessage", count=before + 1)[before]
    row = wait_until(
        "the verdict post recorded",
        lambda: bot.store.db.execute(
            "SELECT ts FROM posts WHERE kind = 'verdict' ORDER BY posted_at DESC LIMIT 1"
        ).fetchone(),
    )
    return {"blocks": call.json_param("blocks"), "text": call.params.get("text")}, str(row[0])


def decide_elements(message: dict[str, Any]) -> list[dict[str, Any]]:
    [block] = [b for b in message["blocks"] if b.get("block_id") == "decide"]
    return list(block["elements"])


def click_decision(
    bot: Bot,
    post_ts: str,
    action_id: str,
    value: str,
    user: str = "U777",
    channel: str = "C123",
    block_id: str = "decide",
) -> int:
    action: dict[str, Any] = {
        "action_id": action_id,
        "block_id": block_id,
        "action_ts": str(time.time()),
    }
    if action_id == "decide:more":
        action |= {
            "type": "overflow",
            "selected_option": {"text": {"type": "plain_text", "text": value}, "value": value},
        }
    else:
        action |= {"type": "button", "value": value, "text": {"type": "plain_text", "text": value}}
    payload = block_actions_payload(
        user,
        {"type": "message", "message_ts": post_ts, "channel_id": channel, "is_ephemeral": False},
        [action],
        trigger_id=bot.fake.trigger_id(),
        channel={"id": channel, "name": "hiring"},
        message={"ts": post_ts, "type": "message"},
        response_url=bot.fake.response_url("decide"),
    )
    status, _h, _b = post_signed(bot.events_url, action_body(payload), SECRET)
    return status


def opened_modal(bot: Bot, count: int = 1) -> dict[str, Any]:
    call = bot.fake.wait_for("views.open", count=count)[count - 1]
    assert call.ok, call.error
    view = call.json_param("view")
    assert isinstance(view, dict)
    stored = bot.fake.views[max(bot.fake.views)]
    return stored | {"blocks": view["blocks"]}


def submit(
    bot: Bot,
    view: dict[str, Any],
    decision: str | None,
    note: str | None = None,
    user: str = "U777",
) -> tuple[int, dict[str, Any]]:
    """Submit the modal as Slack would; return (status, the JSON the bot answered, or {})."""
    values: dict[str, Any] = {
        "decision": {"choice": {"type": "radio_buttons", "selected_option": None}},
        "note": {"text": {"type": "plain_text_input", "value": note}},
    }
    if decision is not None:
        values["decision"]["choice"]["selected_option"] = {
            "text": {"type": "plain_text", "text": decision},
            "value": decision,
        }
    payload = {
        "type": "view_submission",
        "team": {"id": "T0001", "domain": "test"},
        "user": {"id": user, "username": "alice", "name": "alice", "team_id": "T0001"},
        "api_app_id": "A1",
        "token": "verification-token",
        "trigger_id": bot.fake.trigger_id(),
        "view": {
            "id": view["id"],
            "team_id": "T0001",
            "type": "modal",
            "callback_id": view["callback_id"],
            "private_metadata": view["private_metadata"],
            "hash": view["hash"],
            "blocks": view["blocks"],
            "state": {"values": values},
        },
        "response_urls": [],
    }
    status, _h, body = post_signed(bot.events_url, action_body(payload), SECRET)
    return status, json.loads(body) if body.strip() else {}


def decisions(bot: Bot, who: str) -> list[tuple[str, str, str]]:
    c = bot.store.get_candidate(who)
    assert c is not None
    return [(d.reviewer, d.decision, d.text) for d in c.decisions]


def candidate_id(bot: Bot, prefix: str = "000") -> str:
    found = bot.store.resolve(prefix).unique
    assert found is not None
    return found.id


def thread_posts(bot: Bot, thread_ts: str) -> list[str]:
    return [
        str(c.params.get("text"))
        for c in bot.fake.calls("chat.postMessage")
        if c.ok and c.params.get("thread_ts") == thread_ts
    ]


def test_the_verdict_post_carries_decision_buttons_in_the_ui_language(bot: Bot) -> None:
    message, _ts = post_verdict(bot)
    elements = decide_elements(message)
    assert [e.get("text", {}).get("text") for e in elements[:3]] == ["通过", "待定", "不通过"]
    assert [e["action_id"] for e in elements] == [
        "decide:hire",
        "decide:hold",
        "decide:no_hire",
        "decide:more",
    ]
    assert [o["text"]["text"] for o in elements[3]["options"]] == ["强烈推荐", "强烈不推荐"]
    c = bot.store.get_candidate(candidate_id(bot))
    assert c is not None
    english = decide_elements(verdict_view(c, "en", "U1").payload())
    assert [e.get("text", {}).get("text") for e in elements[:3]] != [
        e.get("text", {}).get("text") for e in english[:3]
    ]
    assert [e.get("text", {}).get("text") for e in english[:3]] == ["hire", "hold", "no hire"]


def test_a_click_opens_the_modal_preselected_and_a_submission_is_recorded_and_threaded(
    bot: Bot,
) -> None:
    _message, ts = post_verdict(bot)
    cid = candidate_id(bot)
    assert click_decision(bot, ts, "decide:hire", "hire") == 200
    view = opened_modal(bot)
    [radio] = [b for b in view["blocks"] if b.get("block_id") == "decision"]
    assert radio["element"]["initial_option"]["value"] == "hire"
    assert view["callback_id"] == "decide"

    status, answer = submit(bot, view, "hire", "基础扎实 <!channel>")
    assert (status, answer) == (200, {})
    [posted] = wait_until("thread_posts(bot, ts)", lambda: thread_posts(bot, ts))
    assert posted == "alice: 通过 — 基础扎实 &lt;!channel&gt;"  # a note cannot ping the channel
    assert wait_until("decisions(bot, cid)", lambda: decisions(bot, cid)) == [
        ("U777", "hire", "通过 — 基础扎实 <!channel>")
    ]
    audit = wait_until(
        '[e for e in bot.store.audit_log() if e.what == "decision:hire"]',
        lambda: [e for e in bot.store.audit_log() if e.what == "decision:hire"],
    )
    assert [(e.who, e.candidate, e.channel) for e in audit] == [("U777", cid, "C123")]


def test_the_click_is_acknowledged_before_the_modal_is_opened(bot: Bot) -> None:
    """views.open is held by the fake until the click's HTTP answer came back: a bot that
    opened the modal before ack() would not answer the click at all (Bolt's 3 s pass)."""
    _message, ts = post_verdict(bot)
    entered, release = threading.Event(), threading.Event()

    def held(call: Call) -> dict[str, Any]:
        entered.set()
        release.wait(30)
        return dict(METHODS["views.open"](bot.fake, call))

    bot.fake.set_result("views.open", held)
    try:
        assert click_decision(bot, ts, "decide:hire", "hire") == 200  # acknowledged first
        assert entered.wait(10), "the modal was never opened"
    finally:
        release.set()
    view = opened_modal(bot)
    assert view["callback_id"] == "decide"


def test_a_retried_submission_is_recorded_once(bot: Bot) -> None:
    _message, ts = post_verdict(bot)
    cid = candidate_id(bot)
    click_decision(bot, ts, "decide:hold", "hold")
    view = opened_modal(bot)
    assert submit(bot, view, "hold")[0] == 200
    assert submit(bot, view, "hold")[0] == 200
    wait_until("thread_posts(bot, ts)", lambda: thread_posts(bot, ts))
    wait_until("decisions(bot, cid)", lambda: decisions(bot, cid))
    # the second delivery acknowledged and nothing more: one post, one reply row
    count = bot.store.db.execute(
        "SELECT count(*) FROM replies WHERE candidate_id = ?", [cid]
    ).fetchone()[0]
    assert (len(thread_posts(bot, ts)), count) == (1, 1)


def test_a_later_decision_replaces_the_earlier_one_typed_or_clicked(bot: Bot) -> None:
    _message, ts = post_verdict(bot)
    cid = candidate_id(bot)
    click_decision(bot, ts, "decide:hire", "hire")
    submit(bot, opened_modal(bot, 1), "hire")
    wait_until("decisions(bot, cid)", lambda: decisions(bot, cid))
    click_decision(bot, ts, "decide:more", "strong_no_hire")
    second = opened_modal(bot, 2)
    [radio] = [b for b in second["blocks"] if b.get("block_id") == "decision"]
    assert radio["element"]["initial_option"]["value"] == "strong_no_hire"
    assert "通过" in json.dumps(second["blocks"], ensure_ascii=False)  # your current decision
    submit(bot, second, "strong_no_hire", "再想想")
    wait_until("len(thread_posts(bot, ts)) == 2", lambda: len(thread_posts(bot, ts)) == 2)
    assert wait_until(
        '[d for d in decisions(bot, cid) if d[1] == "strong_no_hire"]',
        lambda: [d for d in decisions(bot, cid) if d[1] == "strong_no_hire"],
    ) == [("U777", "strong_no_hire", "强烈不推荐 — 再想想")]
    assert [d[1] for d in decisions(bot, cid)] == ["strong_no_hire"]  # one per reviewer
    # another reviewer's decision is their own
    click_decision(bot, ts, "decide:no_hire", "no_hire", user="U888")
    submit(bot, opened_modal(bot, 3), "no_hire", user="U888")
    wait_until("len(decisions(bot, cid)) == 2", lambda: len(decisions(bot, cid)) == 2)
    assert sorted(d[:2] for d in decisions(bot, cid)) == [
        ("U777", "strong_no_hire"),
        ("U888", "no_hire"),
    ]


def test_validation_errors_come_back_in_the_modal(bot: Bot) -> None:
    _message, ts = post_verdict(bot)
    cid = candidate_id(bot)
    click_decision(bot, ts, "decide:hire", "hire")
    view = opened_modal(bot)
    status, answer = submit(bot, view, None)
    assert status == 200
    assert answer == {"response_action": "errors", "errors": {"decision": "请选择一个结论。"}}
    status, answer = submit(bot, view, "hire", "长" * 1001)
    assert answer == {"response_action": "errors", "errors": {"note": "备注最多 1000 字。"}}
    assert decisions(bot, cid) == []
    # then a good one goes through on the same modal: nothing was lost, nothing claimed early
    assert submit(bot, view, "hire", "ok") == (200, {})
    assert wait_until("decisions(bot, cid)", lambda: decisions(bot, cid)) == [
        ("U777", "hire", "通过 — ok")
    ]


def test_a_forgotten_candidate_cannot_be_decided(bot: Bot) -> None:
    _message, ts = post_verdict(bot)
    cid = candidate_id(bot)
    click_decision(bot, ts, "decide:hire", "hire")
    view = opened_modal(bot)
    assert bot.store.forget(cid) is not None
    _status, answer = submit(bot, view, "hire")
    assert answer["response_action"] == "errors"
    assert "不在库中" in answer["errors"]["decision"]
    click_decision(bot, ts, "decide:hold", "hold")
    gone = opened_modal(bot, 2)
    assert "submit" not in gone and "不在库中" in json.dumps(gone["blocks"], ensure_ascii=False)
    assert thread_posts(bot, ts) == []


@pytest.fixture
def restricted_bot(fake_slack: FakeSlack, tmp_path: Path) -> Iterator[Bot]:
    running = start_bot(
        fake_slack,
        str(tmp_path / "bot.db"),
        allowed_users_raw="U123,U777",
        allowed_channels_raw="C123",
    )
    assert not index_paths(running.store, [SEEDS]).failed
    try:
        yield running
    finally:
        running.server.stop()


def test_a_modal_is_judged_by_its_user_not_a_channel(restricted_bot: Bot) -> None:
    bot = restricted_bot
    _message, ts = post_verdict(bot, "000")
    cid = candidate_id(bot)
    click_decision(bot, ts, "decide:hire", "hire")
    view = opened_modal(bot)
    assert submit(bot, view, "hire") == (200, {})
    assert wait_until("decisions(bot, cid)", lambda: decisions(bot, cid)) == [
        ("U777", "hire", "通过")
    ]
    # someone not allowed gets no modal, and nothing is recorded for them
    click_decision(bot, ts, "decide:hire", "hire", user="U999")
    assert submit(bot, view | {"id": "V-other"}, "no_hire", user="U999")[0] == 200
    refused = wait_until(
        "U999's refusals audited",
        lambda: [e for e in bot.store.audit_log() if e.who == "U999" and "refused" in e.what],
    )
    assert len(refused) == 2
    assert len(bot.fake.calls("views.open")) == 1
    assert decisions(bot, cid) == [("U777", "hire", "通过")]


def test_buttons_in_a_dm_decide_in_the_verdict_thread_they_name(bot: Bot) -> None:
    """A DM asking a reviewer (or reminding them) carries the same buttons; they name the
    verdict thread in their block_id, and the decision is posted there, not in the DM."""
    _message, ts = post_verdict(bot)
    cid = candidate_id(bot)
    target = Target(cid, "C123", ts)
    block = decide_actions("zh", target).to_dict()
    dm = bot.fake.dm_channel("U777")
    dm_ts = bot.fake.next_ts()
    assert click_decision(bot, dm_ts, "decide:hold", "hold", channel=dm, block_id=block["block_id"])
    view = opened_modal(bot)
    assert Target.from_metadata(view["private_metadata"]) == target
    status, _ = submit(bot, view, "hold", "再聊一轮")
    assert status == 200
    [posted] = wait_until("thread_posts(bot, ts)", lambda: thread_posts(bot, ts))
    assert posted == "alice: 待定 — 再聊一轮"
    assert decisions(bot, cid) == [("U777", "hold", "待定 — 再聊一轮")]
    # a block_id naming a thread that is not that candidate's verdict opens nothing to decide
    forged = decide_actions("zh", Target("002_72ee0a76eea41e0e", "C123", ts)).to_dict()
    assert click_decision(
        bot, dm_ts, "decide:hire", "hire", channel=dm, block_id=forged["block_id"]
    )
    second = opened_modal(bot, count=2)
    assert second.get("callback_id") != "decide" and not second.get("private_metadata")


def test_a_target_too_long_for_a_block_id_is_refused_before_it_is_sent() -> None:
    long_target = Target("x" * 300, "C123", "1700000000.000100")
    assert not targets(long_target)
    with pytest.raises(ValueError):
        decide_actions("zh", long_target)


def test_dm_buttons_are_judged_by_the_verdict_thread_they_name(restricted_bot: Bot) -> None:
    """With DEBRIEF_ALLOWED_CHANNELS set, a DM is no allowed channel, yet the decision
    buttons a request or a reminder puts there decide in the verdict's thread: they are
    judged by that thread's channel. Buttons naming a channel not allowed are refused."""
    bot = restricted_bot
    _message, ts = post_verdict(bot, "000")
    cid = candidate_id(bot)
    dm = bot.fake.dm_channel("U777")
    allowed = decide_actions("zh", Target(cid, "C123", ts)).to_dict()["block_id"]
    assert click_decision(
        bot, bot.fake.next_ts(), "decide:hire", "hire", channel=dm, block_id=allowed
    )
    view = opened_modal(bot)
    assert submit(bot, view, "hire") == (200, {})
    assert wait_until("decisions(bot, cid)", lambda: decisions(bot, cid)) == [
        ("U777", "hire", "通过")
    ]
    elsewhere = decide_actions("zh", Target(cid, "COTHER", ts)).to_dict()["block_id"]
    click_decision(bot, bot.fake.next_ts(), "decide:hire", "hire", channel=dm, block_id=elsewhere)
    wait_until(
        "the refusal audited",
        lambda: [e for e in bot.store.audit_log() if e.what == "refused:block_actions"],
    )
    assert len(bot.fake.calls("views.open")) == 1
