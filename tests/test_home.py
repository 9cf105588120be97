"""The App Home tab: app_home_opened -> views.publish; line buttons -> views.open (the
summary); search -> a modal updated with results (views.update). Signed HTTP requests
against the strict fake Slack."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from support.signed import action_body, block_actions_payload, post_signed
from support.slackbot import SECRET, Bot
from support.waiting import wait_until

from handlers.views.home import HomeLine, HomeSection, home_view
from store.indexer import index_paths
from store.models import DigestLine


def open_home(bot: Bot, user: str = "U777") -> dict[str, Any]:
    """Open the Home tab as Slack says it; return the view the bot published."""
    before = len(bot.fake.calls("views.publish"))
    event = {
        "type": "app_home_opened",
        "user": user,
        "channel": f"D{user}",
        "tab": "home",
        "event_ts": f"{time.time():.6f}",
    }
    assert bot.event(event) == 200
    call = bot.fake.wait_for("views.publish", count=before + 1)[before]
    assert call.ok and call.params["user_id"] == user, call.error
    view = call.json_param("view")
    assert isinstance(view, dict)
    return bot.fake.homes[user] | {"blocks": view["blocks"]}


def section_of(view: dict[str, Any], title_start: str) -> list[dict[str, Any]]:
    """The blocks of the section whose title starts with `title_start`, up to its divider."""
    blocks = view["blocks"]
    start = next(
        i
        for i, b in enumerate(blocks)
        if b.get("type") == "section" and b["text"]["text"].strip("*").startswith(title_start)
    )
    end = next(i for i in range(start, len(blocks)) if blocks[i]["type"] == "divider")
    return list(blocks[start:end])


def lines(blocks: list[dict[str, Any]]) -> list[str]:
    return [
        json.loads(b["accessory"]["value"])["id"]
        for b in blocks
        if b.get("accessory", {}).get("action_id", "").startswith("home_open:")
    ]


def click(
    bot: Bot,
    view: dict[str, Any],
    action_id: str,
    user: str = "U777",
    value: str | None = None,
    extra: dict[str, Any] | None = None,
) -> None:
    """Click a button (or press Enter in an input) inside a view, as Slack sends it."""
    element = next(
        (
            e
            for b in view["blocks"]
            for e in ([b.get("accessory")] if b.get("accessory") else []) + b.get("elements", [])
            if isinstance(e, dict) and e.get("action_id") == action_id
        ),
        {"action_id": action_id, "type": "plain_text_input"},
    )
    action = {
        "action_id": action_id,
        "block_id": "b",
        "type": element.get("type", "button"),
        "value": value if value is not None else element.get("value", ""),
        "action_ts": str(time.time()),
    } | (extra or {})
    payload = block_actions_payload(
        user,
        {"type": "view", "view_id": view["id"]},
        [action],
        trigger_id=bot.fake.trigger_id(),
        view={
            "id": view["id"],
            "type": view["type"],
            "hash": view["hash"],
            "blocks": view["blocks"],
            "state": {"values": {}},
            "callback_id": view.get("callback_id", ""),
            "private_metadata": view.get("private_metadata", ""),
        },
    )
    status, _h, _b = post_signed(bot.events_url, action_body(payload), SECRET)
    assert status == 200


def post_verdict(bot: Bot, who: str, channel: str = "C123") -> None:
    before = len(bot.fake.calls("chat.postMessage"))
    bot.command(f"点评 {who}", name=f"verdict-{who}", channel_id=channel)
    bot.fake.wait_for("chat.postMessage", count=before + 1)
    wait_until(
        "the verdict post recorded",
        lambda: bot.store.db.execute(
            "SELECT 1 FROM posts WHERE kind = 'verdict' AND candidate_id LIKE ?", [f"{who}%"]
        ).fetchone(),
    )


def cid(bot: Bot, prefix: str) -> str:
    found = bot.store.resolve(prefix).unique
    assert found is not None
    return found.id


def test_home_shows_your_queue_and_refreshes_when_opened_again(bot: Bot) -> None:
    bot.fake.channel_members["C123"] = ["U123", "U777"]
    post_verdict(bot, "000")
    post_verdict(bot, "002")
    home = open_home(bot)
    assert len(home["blocks"]) <= 100
    assert lines(section_of(home, "等你给结论")) == [cid(bot, "000"), cid(bot, "002")]
    assert (
        len(lines(section_of(home, "昨天以来有新面试记录的候选人"))) == 4
    )  # the seeds, just indexed
    assert lines(section_of(home, "你最近的结论")) == []
    # someone who is not in the channel has nothing waiting
    assert lines(section_of(open_home(bot, "U555"), "等你给结论")) == []
    # U777 decides on 000 (a thread reply would do the same): the next opening shows it
    row = bot.store.db.execute("SELECT channel, ts FROM posts LIMIT 1").fetchone()
    bot.store.record_decision(
        row[0], "1900000000.000001", row[1], cid(bot, "000"), "U777", "hire", "通过"
    )
    again = open_home(bot)
    assert lines(section_of(again, "等你给结论")) == [cid(bot, "002")]
    decided = section_of(again, "你最近的结论")
    assert lines(decided) == [cid(bot, "000")] and "通过" in json.dumps(decided, ensure_ascii=False)


def test_a_line_opens_the_summary_in_a_modal(bot: Bot) -> None:
    home = open_home(bot)
    first = lines(section_of(home, "昨天以来有新面试记录的候选人"))[0]
    button = next(
        b["accessory"]["action_id"]
        for b in home["blocks"]
        if b.get("accessory") and json.loads(b["accessory"]["value"]) == {"id": first}
    )
    click(bot, home, button)
    [call] = bot.fake.wait_for("views.open")
    assert call.ok, call.error
    modal = call.json_param("view")
    text = json.dumps(modal, ensure_ascii=False)
    assert first in text and "post_in_channel" not in text
    audit = wait_until(
        '[e for e in bot.store.audit_log() if e.what == "lookup:summary"]',
        lambda: [e for e in bot.store.audit_log() if e.what == "lookup:summary"],
    )
    assert [(e.who, e.candidate) for e in audit] == [("U777", first)]


def test_search_results_appear_in_the_modal_and_open_the_summary(bot: Bot) -> None:
    home = open_home(bot)
    click(bot, home, "home_search")
    [opened] = bot.fake.wait_for("views.open")
    assert opened.ok, opened.error
    modal = bot.fake.views[max(bot.fake.views)]
    click(bot, modal, "home_search_query", value="分布式")
    [updated] = bot.fake.wait_for("views.update")
    assert updated.ok and updated.params["view_id"] == modal["id"], updated.error
    results = bot.fake.views[modal["id"]]
    found = lines(results["blocks"])
    assert cid(bot, "000") in found
    click(bot, results, "home_open:0")
    [pushed] = bot.fake.wait_for("views.push")  # over the search modal, not instead of it
    assert pushed.ok and found[0] in json.dumps(pushed.json_param("view"), ensure_ascii=False)


def test_thousands_waiting_page_within_a_home_tab(bot: Bot, tmp_path: Path) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(25):
        (folder / f"m{i:03d}.txt").write_text(
            f"岗位：后端{i}\n问题1：x\n考察目标：y\n回答：z\n点评：ok\n", "utf-8"
        )
    assert not index_paths(bot.store, [folder]).failed
    for i in range(25):
        bot.store.record_post("C123", f"1700000100.{i:06d}", f"m{i:03d}", "verdict")
    bot.fake.channel_members["C123"] = [f"U{n}" for n in range(2500)] + ["U777"]  # 3 pages
    home = open_home(bot)
    waiting = section_of(home, "等你给结论（25）")
    assert lines(waiting) == [f"m{i:03d}" for i in range(10)]
    assert "还有 15 位" in json.dumps(waiting, ensure_ascii=False)
    assert len(bot.fake.calls("conversations.members")) == 3
    click(bot, home, "home_page:waiting:next")
    call = bot.fake.wait_for("views.publish", count=2)[1]
    page = call.json_param("view")
    assert lines(section_of(page, "等你给结论")) == [f"m{i:03d}" for i in range(10, 20)]
    assert len(bot.fake.calls("conversations.members")) == 3  # the members were cached


def test_the_home_view_stays_within_100_blocks_at_any_size() -> None:
    line = HomeLine(DigestLine(id="x" * 300, position="<b>" * 50, years=3))
    sections = [HomeSection(key, [line] * 50, 100_000, 99_990) for key in ("waiting", "new")]
    sections += [HomeSection(key, [line] * 50, 5_000) for key in ("unanswered", "decided")]
    view = home_view(sections, "en")
    assert len(view["blocks"]) <= 100
    text = json.dumps(view)
    assert "<b>" not in text and "and 4990 more" in text
