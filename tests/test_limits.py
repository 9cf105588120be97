"""Issue 11 over the real wire (signed HTTP in, the strict fake Slack out): replies of more
than five parts go on with a button, channel posts ping nobody, ids from file names are
escaped everywhere, and the bot's words about posting tell the truth."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support.fake_slack import FakeSlack
from support.slackbot import Bot, buttons, find_button

from store.indexer import index_paths

DM = {"channel_id": "D0DM", "channel_name": "directmessage"}


def shown(message: dict[str, Any]) -> str:
    """What Slack renders of a message: its fallback and every text, not button values."""
    texts: list[str] = [str(message.get("text", ""))]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "text" and isinstance(value, str):
                    texts.append(value)
                elif key != "value":
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    blocks = message.get("blocks") or []
    walk(json.loads(blocks) if isinstance(blocks, str) else blocks)
    return "\n".join(texts)


def sections(messages: list[dict[str, Any]]) -> str:
    return "".join(
        b["text"]["text"] for m in messages for b in m["blocks"] if b["type"] == "section"
    )


def index(bot: Bot, folder: Path, files: dict[str, str]) -> None:
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, "utf-8")
    assert not index_paths(bot.store, [folder]).failed


# -- item 2: more than five parts ------------------------------------------------------------


def test_a_90000_character_answer_goes_on_with_a_button_in_a_dm(bot: Bot, tmp_path: Path) -> None:
    answer = "很长的回答。" * 15_000  # 90,000 characters
    index(
        bot, tmp_path / "long", {"long.txt": f"岗位：长\n问题1：题？\n回答：{answer}\n点评：好\n"}
    )
    bot.command("问题 long 1", **DM)
    received = bot.replies(count=5)
    assert len(received) == 5  # one response_url takes five
    more = find_button(received[-1], "more_parts")
    ref = json.loads(more["value"])
    assert ref["n"] == 1 and ref["p"] == 5 and len(more["value"]) < 100  # where, not what
    clicks = 0
    while any(b["action_id"] == "more_parts" for b in buttons(received[-1])):
        clicks += 1
        bot.click(received[-1], "more_parts", name=f"more{clicks}", channel="D0DM")
        parts = bot.replies(f"more{clicks}")
        while not _last_part(parts[-1]):  # wait for this click's parts, at most five
            parts = bot.replies(f"more{clicks}", count=len(parts) + 1)
        assert len(parts) <= 5
        received += parts
    assert sections(received).count("很长的回答。") == 15_000  # nothing lost, nothing twice
    assert not bot.fake.calls("chat.postEphemeral")  # never tried where it cannot work


def _last_part(message: dict[str, Any]) -> bool:
    """The last message of a window: it goes on with a button, or it is the reply's end."""
    return any(b["action_id"] in {"more_parts", "post_in_channel"} for b in buttons(message))


# -- item 5: no pings from the bot's channel posts -------------------------------------------


def test_channel_posts_name_people_without_pinging_them(bot: Bot) -> None:
    bot.fake.users.update({"U777": "Alice 王"})
    bot.fake.unknown_users.add("U778")  # users.info fails for it
    cid = "002_72ee0a76eea41e0e"
    bot.store.record_post("C123", "100.1", cid, "verdict")
    bot.store.record_reply("C123", "100.2", "100.1", cid, "U777", "通过，基础扎实")
    bot.store.record_reply("C123", "100.3", "100.1", cid, "U778", "问题2：补充回答")
    bot.store.record_reply("C123", "100.4", "100.1", cid, "U777", "再聊聊")
    bot.command("总结 002")
    [private] = bot.replies()
    assert "<@U777>" in shown(private) and "<@U778>" in shown(private)  # private: mentions
    for i in range(2):
        bot.click(private, "post_in_channel", name=f"p{i}")
        [post] = bot.fake.wait_for("chat.postMessage", count=i + 1)[i:]
        text = shown(post.params)
        assert "Alice 王" in text and "U778" in text
        assert "<@U777>" not in text and "<@U778>" not in text
    looked_up = [c.params["user"] for c in bot.fake.calls("users.info")]
    assert looked_up.count("U777") == 1  # cached


# -- item 9: everything from a file is escaped -----------------------------------------------

EVIL_NAMES = {
    "<!channel>_x.txt": "甲岗",
    "<@U999>_y.txt": "乙岗",
    "<mailto:a@b.c|点我>.txt": "丙岗",
}
RAW = ("<!channel>", "<@U999>", "<mailto:")


def test_ids_from_file_names_are_escaped_everywhere(bot: Bot, tmp_path: Path) -> None:
    index(
        bot,
        tmp_path / "evil",
        {
            name: f"总结：{'长' * 2000}\n岗位：{pos}\n问题1：题？\n回答：\n点评：{'评' * 400}。\n"
            for name, pos in EVIL_NAMES.items()
        },
    )
    seen: list[dict[str, Any]] = []
    for n, pos in enumerate(EVIL_NAMES.values()):
        for i, text in enumerate([f"总结 {pos}", f"未回答 {pos}", f"问题 {pos} 1", f"问题 {pos}"]):
            name = f"e{n}{i}"
            bot.command(text, name=name)
            seen += bot.replies(name)
    for i, text in enumerate(["搜索 题", "列表", "未回答", "岗", "帮助"]):
        bot.command(text, name=f"l{i}")
        seen += bot.replies(f"l{i}")
    bot.click(seen[0], "post_in_channel", name="post")
    bot.command("点评 甲岗", name="v")
    posts = bot.fake.wait_for("chat.postMessage", count=2)
    seen += [c.params for c in posts]
    for message in seen:
        text = shown(message)
        assert not [bad for bad in RAW if bad in text], text[:300]
    everything = "\n".join(shown(m) for m in seen)
    assert "&lt;!channel&gt;_x" in everything and "&lt;mailto:a@b.c|点我&gt;" in everything
    assert "&lt;候选人&gt;" in everything and "<候选人>" not in everything  # the help


# -- item 10: words that tell the truth ------------------------------------------------------

LONG_VERDICT = "岗位：后端\n问题1：题？\n回答：答\n点评：" + "基础扎实，表达清楚。" * 60 + "\n"


def test_a_cut_verdict_is_read_in_full_privately(bot: Bot, tmp_path: Path) -> None:
    index(bot, tmp_path / "v", {"cut.txt": LONG_VERDICT})
    bot.command("总结 cut")
    [summary] = bot.replies()
    text = shown(summary)
    # the card's button reads it (the id appears once on the card: no command to type)
    assert "完整点评" in text and "/candidate verdict" not in text
    button = find_button(summary, "open_view")
    assert json.loads(button["value"]) == {"v": "verdict_full", "id": "cut"}
    bot.click(summary, button["action_id"], name="full")
    [full] = bot.replies("full")
    assert sections([full]).count("基础扎实，表达清楚。") == 60
    bot.command("点评 cut 全文", name="typed")
    [typed] = bot.replies("typed")
    assert typed["response_type"] == "ephemeral" and "基础扎实" in shown(typed)
    assert not bot.fake.calls("chat.postMessage")  # read privately, posted nowhere


def test_post_in_a_dm_says_what_can_be_done(bot: Bot) -> None:
    bot.command("未回答 000", **DM)
    [reply] = bot.replies()
    bot.click(reply, "post_in_channel", name="post", channel="D0DM")
    [told] = bot.replies("post")
    text = shown(told)
    assert "/invite" not in text and "私信" in text


def test_verdict_in_a_group_dm_is_not_lost(bot: Bot) -> None:
    bot.command("点评 000", channel_id="G0MPDM", channel_name="mpdm-alice--bob-1")
    [told] = bot.replies()
    text = shown(told)
    assert "/invite" not in text and "点评 000_9e6b3ecb0732fcf3 全文" in text


def test_posting_limited_to_admins_is_named(fake_slack: FakeSlack, bot: Bot) -> None:
    fake_slack.fail_next("chat.postMessage", status=200, error="restricted_action")
    bot.command("点评 000")
    [told] = bot.replies()
    text = shown(told)
    assert "管理员" in text and "不在这个频道" not in text
