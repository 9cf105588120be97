"""Reviewers reply in threads under the bot's posts: signed event_callback bodies over HTTP."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from click.testing import CliRunner
from support.slackbot import Bot, all_text

from bot.cli import cli
from store.transcripts.reviews import parse_decision, parse_followup

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

DECISIONS = [
    ("Hire: 沟通清楚", "hire"),
    ("hire", "hire"),
    ("通过，基础扎实", "hire"),
    ("no-hire", "no_hire"),
    ("No Hire. 基础不牢", "no_hire"),
    ("NO_HIRE", "no_hire"),
    ("不通过：项目经验不足", "no_hire"),
    ("strong hire!", "strong_hire"),
    ("Strong-Hire", "strong_hire"),
    ("强烈推荐", "strong_hire"),
    ("strong no hire", "strong_no_hire"),
    ("强烈不推荐。", "strong_no_hire"),
    ("Hold - 再聊一次", "hold"),
    ("待定", "hold"),
    ("*hire*", "hire"),
    ("<@UBOT> 通过", "hire"),
    ("hired elsewhere", None),
    ("通过率不高", None),
    ("我觉得可以通过", None),
    ("问题2：补充", None),
    ("", None),
]


@pytest.mark.parametrize(("text", "decision"), DECISIONS)
def test_decisions(text: str, decision: str | None) -> None:
    assert parse_decision(text) == decision


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("问题2：后来补充了答案", (2, "后来补充了答案")),
        ("Q2: later", (2, "later")),
        ("q 3：x", (3, "x")),
        ("问题二：嗯", (2, "嗯")),
        ("问题2：", None),
        ("hire", None),
    ],
)
def test_followups(text: str, expected: tuple[int, str] | None) -> None:
    assert parse_followup(text) == expected


def post_verdict(bot: Bot, who: str = "000") -> str:
    before = len(bot.fake.calls("chat.postMessage"))
    bot.command(f"点评 {who}", name=f"verdict-{who}")
    call = bot.fake.wait_for("chat.postMessage", count=before + 1)[before]
    deadline = time.time() + 5
    while time.time() < deadline:
        row = bot.store.db.execute(
            "SELECT ts FROM posts ORDER BY posted_at DESC LIMIT 1"
        ).fetchone()
        if row:
            return str(row[0])
        time.sleep(0.05)
    raise AssertionError(f"the verdict post was not remembered: {call}")


def reply(
    ts: str, thread_ts: str, text: str, user: str = "U777", channel: str = "C123", **extra: Any
) -> dict[str, Any]:
    return {
        "type": "message",
        "channel": channel,
        "user": user,
        "text": text,
        "ts": ts,
        "thread_ts": thread_ts,
        "channel_type": "channel",
        "event_ts": ts,
    } | extra


def settle(bot: Bot, predicate: Any, timeout: float = 5) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("condition not reached")


def show(bot: Bot, who: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["show", who, "--db", bot.store.path, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_a_decision_is_recorded_and_acknowledged_with_a_reaction(bot: Bot) -> None:
    parent = post_verdict(bot)
    assert bot.event(reply("1800000000.000001", parent, "Hire: 沟通清楚"), event_id="Ev1") == 200
    [reaction] = bot.fake.wait_for("reactions.add")
    assert (reaction.params["channel"], reaction.params["timestamp"], reaction.params["name"]) == (
        "C123",
        "1800000000.000001",
        "white_check_mark",
    )
    data = show(bot, "000")
    assert data["decisions"] == [
        {
            "reviewer": "U777",
            "decision": "hire",
            "text": "Hire: 沟通清楚",
            "ts": "1800000000.000001",
        }
    ]
    assert len(bot.fake.calls("chat.postMessage")) == 1  # the thread stays quiet


def test_twice_delivered_events_are_recorded_once(bot: Bot) -> None:
    parent = post_verdict(bot)
    event = reply("1800000000.000002", parent, "no-hire")
    assert bot.event(event, event_id="EvSame") == 200
    assert (
        bot.event(
            event,
            event_id="EvSame",
            headers={"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"},
        )
        == 200
    )
    bot.fake.wait_for("reactions.add")
    bot.idle()  # both deliveries are done with
    assert len(bot.fake.calls("reactions.add")) == 1
    assert bot.store.db.execute("SELECT count(*) FROM replies").fetchone()[0] == 1


def test_one_current_decision_per_reviewer_edits_and_deletes(bot: Bot) -> None:
    parent = post_verdict(bot)
    bot.event(reply("1800000000.000010", parent, "hire", user="UA"))
    bot.event(reply("1800000000.000011", parent, "no hire", user="UB"))
    bot.event(reply("1800000000.000012", parent, "待定，再聊一次", user="UA"))
    settle(
        bot,
        lambda: (
            len(show(bot, "000")["decisions"]) == 2
            and show(bot, "000")["decisions"][-1]["decision"] == "hold"
        ),
    )
    assert {(d["reviewer"], d["decision"]) for d in show(bot, "000")["decisions"]} == {
        ("UA", "hold"),
        ("UB", "no_hire"),
    }

    # UB edits "no hire" into "strong hire"
    edited = {
        "type": "message",
        "subtype": "message_changed",
        "channel": "C123",
        "hidden": True,
        "ts": "1800000000.000099",
        "event_ts": "1800000000.000099",
        "message": {
            "type": "message",
            "user": "UB",
            "text": "strong hire 改主意了",
            "ts": "1800000000.000011",
            "thread_ts": parent,
            "edited": {"user": "UB", "ts": "1800000000.000099"},
        },
        "previous_message": {
            "type": "message",
            "user": "UB",
            "text": "no hire",
            "ts": "1800000000.000011",
            "thread_ts": parent,
        },
    }
    bot.event(edited)
    settle(
        bot,
        lambda: (
            ("UB", "strong_hire")
            in {(d["reviewer"], d["decision"]) for d in show(bot, "000")["decisions"]}
        ),
    )

    # UA deletes the later "待定": their earlier "hire" is what the thread says now
    deleted = {
        "type": "message",
        "subtype": "message_deleted",
        "channel": "C123",
        "hidden": True,
        "deleted_ts": "1800000000.000012",
        "ts": "1800000000.000100",
        "event_ts": "1800000000.000100",
        "previous_message": {
            "type": "message",
            "user": "UA",
            "text": "待定，再聊一次",
            "ts": "1800000000.000012",
            "thread_ts": parent,
        },
    }
    bot.event(deleted)
    settle(
        bot,
        lambda: (
            ("UA", "hire")
            in {(d["reviewer"], d["decision"]) for d in show(bot, "000")["decisions"]}
        ),
    )

    bot.command("总结 000", name="sum")
    [summary] = bot.replies("sum")
    text = all_text(summary)
    assert "1 通过" in text and "1 强烈推荐" in text and "<@UA>" in text and "<@UB>" in text


def test_followup_answers_close_a_question_everywhere(bot: Bot) -> None:
    parent = post_verdict(bot)
    assert show(bot, "000")["questions"][1]["answered"] is False
    bot.event(reply("1800000000.000020", parent, "问题2：后来补充：All-Reduce 带宽更省", user="UC"))
    settle(bot, lambda: bool(show(bot, "000")["followups"]))
    data = show(bot, "000")
    assert data["followups"] == [
        {
            "number": 2,
            "answer": "后来补充：All-Reduce 带宽更省",
            "reviewer": "UC",
            "ts": "1800000000.000020",
        }
    ]
    assert data["questions"][1]["answered"] is True
    listed = json.loads(CliRunner().invoke(cli, ["list", "--db", bot.store.path, "--json"]).stdout)
    assert {r["id"]: r["unanswered"] for r in listed}["000_9e6b3ecb0732fcf3"] == 1
    bot.command("未回答 000", name="u")
    [unanswered] = bot.replies("u")
    assert "问题 3" in all_text(unanswered) and "问题 2" not in all_text(unanswered)
    bot.command("总结 000", name="s")
    [summary] = bot.replies("s")
    assert "All-Reduce 带宽更省" in all_text(summary) and "<@UC>" in all_text(summary)
    # a follow-up is not a decision: no reaction
    bot.idle()
    assert bot.fake.calls("reactions.add") == []


def test_foreign_threads_and_bots_are_ignored(bot: Bot) -> None:
    parent = post_verdict(bot)
    bot.event(reply("1800000000.000030", "1111111111.000001", "hire"))  # someone else's thread
    bot.event(
        reply("1800000000.000031", parent, "hire", channel="COTHER")
    )  # same ts, other channel
    bot.event(reply("1800000000.000032", parent, "hire", bot_id="B999"))  # another bot
    bot.event(reply("1800000000.000033", parent, "hire", user="UBOT"))  # the bot itself
    bot.event(
        {
            "type": "message",
            "channel": "C123",
            "user": "U777",
            "text": "hire",
            "ts": "1800000000.000034",
        }
    )  # not in a thread
    bot.idle()
    assert bot.store.db.execute("SELECT count(*) FROM replies").fetchone()[0] == 0
    assert bot.fake.calls("reactions.add") == []
