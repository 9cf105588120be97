"""/candidate over the real wire: signed HTTP in, the fake Web API records what went out."""

from __future__ import annotations

import itertools
import json
import threading
import time
from pathlib import Path

import pytest
from support.fake_slack import FakeSlack
from support.signed import command_body, post_signed
from support.slackbot import SECRET, Bot, all_text, buttons, find_button, start_bot

from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

ZH_AND_EN = [
    ("zh", "总结", "未回答", "点评", "问题", "搜索", "列表", "帮助"),
    ("en", "summary", "unanswered", "verdict", "question", "search", "list", "help"),
]


def test_summary_over_http(bot: Bot) -> None:
    status, _took = bot.command("总结 000")
    assert status == 200
    [reply] = bot.replies()
    assert reply["response_type"] == "ephemeral"
    header = reply["blocks"][0]
    assert header["type"] == "header" and header["text"]["text"].startswith("000_9e6b3ecb0732fcf3")
    text = all_text(reply)
    assert "视频开发工程师" in text and "未回答 2 题" in text
    find_button(reply, "post_in_channel")
    assert not bot.fake.calls("chat.postMessage")


@pytest.mark.parametrize(
    ("locale", "summary", "unanswered", "verdict", "question", "search", "list_", "help_"),
    ZH_AND_EN,
)
def test_every_subcommand_in_both_languages(
    fake_slack: FakeSlack,
    tmp_path: Path,
    locale: str,
    summary: str,
    unanswered: str,
    verdict: str,
    question: str,
    search: str,
    list_: str,
    help_: str,
    seeds_dir: Path,
) -> None:
    bot = start_bot(fake_slack, str(tmp_path / "l.db"), locale=locale)
    index_paths(bot.store, [seeds_dir])
    try:
        cases = {
            f"{help_}": "/candidate",
            f"{summary} 002": "002_72ee0a76eea41e0e",
            f"{unanswered} 000": "Replicated training",
            f"{unanswered}": "000_9e6b3ecb0732fcf3",
            f"{question} 002 5": "tf.keras.layers.Dense",
            f"{search} 并行": "*并行*",
            f"{list_} 视频": "004_b1dde04b6d7437d5",
            "003": "大数据开发工程师",
        }
        for i, (text, expect) in enumerate(cases.items()):
            assert bot.command(text, name=f"c{i}")[0] == 200
            [reply] = bot.replies(f"c{i}")
            assert expect in all_text(reply), (text, reply)
        assert bot.command(f"{verdict} 004", name="v")[0] == 200
        [post] = fake_slack.wait_for("chat.postMessage")
        assert post.params["channel"] == "C123"
        assert "这位面试者在视频开发工程师岗位上表现得非常出色" in json.dumps(
            post.params, ensure_ascii=False
        )
    finally:
        bot.server.stop()


def test_verdict_is_posted_and_remembered(bot: Bot) -> None:
    bot.command("点评 002")
    [call] = bot.fake.wait_for("chat.postMessage")
    blocks = call.json_param("blocks") if call.is_json else json.loads(call.params["blocks"])
    assert blocks[0]["type"] == "header" and "002_72ee0a76eea41e0e" in blocks[0]["text"]["text"]
    # who posted it, by name: a channel post notifies nobody it names
    assert "<@" not in json.dumps(blocks) and "U123" in json.dumps(blocks)
    deadline = time.time() + 5
    while (
        time.time() < deadline
        and not bot.store.db.execute("SELECT count(*) FROM posts").fetchone()[0]
    ):
        time.sleep(0.05)
    row = bot.store.db.execute("SELECT channel, candidate_id, kind FROM posts").fetchone()
    assert tuple(row) == ("C123", "002_72ee0a76eea41e0e", "verdict")
    assert not bot.fake.responses("cmd")  # nothing private needed


def test_verdict_where_the_bot_is_not_invited(bot: Bot) -> None:
    bot.fake.fail_next("chat.postMessage", status=200, error="not_in_channel")
    bot.command("verdict 002")
    [reply] = bot.replies()
    assert "/invite" in all_text(reply)


def test_pick_list_then_pick(bot: Bot) -> None:
    bot.command("视频开发工程师")
    [reply] = bot.replies()
    picks = [b for b in buttons(reply) if b["action_id"].startswith("open_view")]
    assert len(picks) == 2
    assert bot.click(reply, picks[1]["action_id"]) == 200
    [picked] = bot.replies("click")
    assert picked["replace_original"] is True
    assert picked["blocks"][0]["text"]["text"].startswith("000_9e6b3ecb0732fcf3")


def test_post_in_channel_button(bot: Bot) -> None:
    bot.command("unanswered 000")
    [reply] = bot.replies()
    assert bot.click(reply, "post_in_channel") == 200
    [post] = bot.fake.wait_for("chat.postMessage")
    assert post.params["channel"] == "C123"
    text = json.dumps(post.params, ensure_ascii=False)
    assert "Replicated training" in text and "post_in_channel" not in text
    [done] = bot.replies("click")
    assert done["replace_original"] is True


def test_list_pages(bot: Bot, tmp_path: Path) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(23):
        (folder / f"c{i:02d}.txt").write_text(
            f"岗位：工程师{i}\n问题1：q\n考察目标：g\n回答：a\n", "utf-8"
        )
    index_paths(bot.store, [folder])
    bot.command("list")
    [first] = bot.replies()
    assert "1–10" in all_text(first) and "27" in all_text(first)
    bot.click(first, "page:next")
    [second] = bot.replies("click")
    assert "11–20" in all_text(second)


@pytest.mark.parametrize(
    "text", ["", "   ", "frobnicate 000", "问题 000", "问题 000 99", "search", "summary"]
)
def test_kind_answers(bot: Bot, text: str) -> None:
    assert bot.command(text)[0] == 200
    [reply] = bot.replies()
    body = all_text(reply)
    assert reply["response_type"] == "ephemeral" and "Traceback" not in body
    assert "/candidate" in body  # every kind answer shows how to go on


def test_bad_signature_and_old_timestamp_do_no_work(bot: Bot) -> None:
    body = command_body("总结 000", response_url=bot.fake.response_url("bad"))
    status, _h, _b = post_signed(bot.events_url, body, "wrong-secret")
    assert status == 401
    status, _h, _b = post_signed(bot.events_url, body, SECRET, timestamp=int(time.time()) - 6 * 60)
    assert status == 401
    status, _h, _b = post_signed(
        bot.events_url, body, SECRET, extra_headers={"X-Slack-Signature": ""}
    )
    assert status == 401
    bot.idle()  # nothing was started; were it, this waits for it to finish
    assert bot.fake.responses("bad") == []
    assert [c.method for c in bot.fake.calls() if c.method != "auth.test"] == []


def test_malformed_bodies(bot: Bot) -> None:
    for body, ctype in [
        (b"not a form", "application/x-www-form-urlencoded"),
        (b"{broken json", "application/json"),
        (b"payload=%7Bnope", "application/x-www-form-urlencoded"),
        (b"", "text/plain"),
    ]:
        status, _h, _b = post_signed(bot.events_url, body, SECRET, content_type=ctype)
        assert status in {200, 400, 404}, (body, status)
    bot.command("总结 000")
    assert bot.replies()  # still serving


def test_escaping_slack_markup_in_transcripts(bot: Bot, tmp_path: Path) -> None:
    evil = tmp_path / "evil"
    evil.mkdir()
    (evil / "evil.txt").write_text(
        "<!channel> 总结 & <@U999> <https://evil.example|点我>\n"
        "岗位：<!here> 工程师 从业年限：3年\n简介：A & B <b>\n"
        "问题1：<!everyone>？\n考察目标：<#C1>\n回答：\n点评：<!subteam^S1> 很好 & 通过\n",
        "utf-8",
    )
    index_paths(bot.store, [evil])
    for i, text in enumerate(["总结 evil", "未回答 evil", "问题 evil 1", "搜索 工程师", "列表"]):
        bot.command(text, name=f"e{i}")
        [reply] = bot.replies(f"e{i}")
        raw = all_text(reply)
        for bad in (
            "<!channel>",
            "<!here>",
            "<!everyone>",
            "<@U999>",
            "<https://evil",
            "<#C1>",
            "<!subteam",
        ):
            assert bad not in raw, (text, bad)
    bot.command("点评 evil", name="v")
    [post] = bot.fake.wait_for("chat.postMessage")
    raw = json.dumps(post.params, ensure_ascii=False)
    assert "<!subteam" not in raw and "&lt;!subteam^S1&gt;" in raw and "&amp; 通过" in raw


@pytest.mark.slack_pacing
def test_limits_hold_for_any_transcript(bot: Bot, tmp_path: Path) -> None:
    big = tmp_path / "big"
    big.mkdir()
    answer = "\n".join(f"第{i}段：" + "很长的回答，" * 120 for i in range(60))  # ~45,000 characters
    questions = "".join(
        f"问题{i}：{'问' * 400}？\n考察目标：{'目标' * 300}\n回答：\n" for i in range(2, 80)
    )
    (big / "huge.txt").write_text(
        "标" * 5000
        + "\n岗位："
        + "长" * 400
        + "\n简介："
        + "介" * 5000
        + f"\n问题1：题\n考察目标：目\n回答：{answer}\n"
        + questions
        + "点评："
        + "评" * 20000
        + "\n",
        "utf-8",
    )
    assert not index_paths(bot.store, [big]).failed
    for i, text in enumerate(["总结 huge", "未回答 huge", "问题 huge 1", "搜索 很长的回答"]):
        bot.command(text, name=f"h{i}")
    messages = []
    for i in range(4):
        bot.fake.wait_for(f"response/h{i}", timeout=10)
    bot.idle()  # every part of every answer has been sent
    for i in range(4):
        messages += bot.fake.responses(f"h{i}")
    bot.command("点评 huge", name="v")
    posts = bot.fake.wait_for("chat.postMessage", count=3, timeout=10)
    messages += [c.params for c in posts]
    verdict = "".join(
        b["text"]["text"] for m in posts for b in m.json_param("blocks") if b["type"] == "section"
    )
    assert verdict.count("评") == 20000  # the whole 点评, in three posts a second apart
    times = bot.fake.post_times("C123")
    assert all(b - a >= 0.9 for a, b in itertools.pairwise(times))
    question_parts = bot.fake.responses("h2")
    assert len(question_parts) > 1  # the long answer is spread, never cut
    joined = "".join(
        b["text"]["text"] for m in question_parts for b in m["blocks"] if b["type"] == "section"
    )
    assert joined.count("很长的回答，") == 60 * 120
    for m in messages:
        blocks = m["blocks"] if isinstance(m["blocks"], list) else json.loads(m["blocks"])
        assert len(blocks) <= 50
        for b in blocks:
            if b["type"] == "section":
                assert len(b["text"]["text"]) <= 3000
            if b["type"] == "header":
                assert len(b["text"]["text"]) <= 150
        assert len(json.dumps(blocks, ensure_ascii=False, separators=(",", ":"))) <= 12_000


def test_ack_is_fast_even_when_the_work_is_slow(bot: Bot, monkeypatch: pytest.MonkeyPatch) -> None:
    real = bot.store.search

    release, finished = threading.Event(), threading.Event()

    def slow(*args: object, **kwargs: object) -> object:
        release.wait(30)  # held until the acknowledgement has come back
        try:
            return real(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            finished.set()

    monkeypatch.setattr(bot.store, "search", slow)
    status, _took = bot.command("search 并行")
    acked_before_the_search_ended = not finished.is_set()
    release.set()
    assert status == 200 and acked_before_the_search_ended
    [reply] = bot.replies(timeout=15)
    assert "并行" in all_text(reply)


def test_an_ack_never_waits_behind_answers_still_being_worked_out(
    bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bolt ran lazy listeners on the threads that run ack functions (5 of them): five
    searches waiting for a busy database held every one, and the next command's ack
    waited behind them (on PostgreSQL at 100,000 transcripts: acks of 1 to 2 s)."""
    real = bot.store.search
    release = threading.Event()
    inside = threading.Condition()
    waiting = 0

    def slow(*args: object, **kwargs: object) -> object:
        nonlocal waiting
        with inside:
            waiting += 1
            inside.notify_all()
        release.wait(60)  # held until every command below has been acknowledged
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bot.store, "search", slow)
    held = 8  # more than Bolt's five listener threads
    try:
        statuses = [bot.command("search 并行", name=f"s{n}")[0] for n in range(held)]
        with inside:  # every answer is being worked out at once, none queued behind the others
            all_waiting = inside.wait_for(lambda: waiting == held, timeout=30)
        statuses.append(bot.command("总结 000", name="after")[0])
        summary = bot.replies("after", timeout=30)  # an answer that needs no search
    finally:
        release.set()
    assert statuses == [200] * (held + 1) and all_waiting
    assert "000" in all_text(summary[0])
    for n in range(held):
        [reply] = bot.replies(f"s{n}", timeout=30)
        assert "并行" in all_text(reply)


def test_an_error_in_a_listener_is_a_kind_message(
    bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(bot.store, "resolve", broken)
    bot.command("总结 000")
    [reply] = bot.replies()
    text = all_text(reply)
    assert "disk on fire" not in text and "Traceback" not in text
    assert "出了点问题" in text


def test_retries_when_slack_says_429(bot: Bot) -> None:
    bot.fake.fail_next("chat.postMessage", status=429, retry_after=1)
    bot.command("verdict 000")
    calls = bot.fake.wait_for("chat.postMessage", count=2, timeout=10)
    assert [c.status for c in calls] == [429, 200]
    bot.idle()
    assert len(bot.fake.calls("chat.postMessage")) == 2  # posted once, not twice


def test_posted_verdict_names_its_poster_without_a_mention(bot: Bot) -> None:
    bot.fake.users["U123"] = "王经理"
    bot.command("点评 002")
    [call] = bot.fake.wait_for("chat.postMessage")
    text = json.dumps(call.json_param("blocks"), ensure_ascii=False)
    assert "由 王经理 发布" in text and "<@U123>" not in text, text
