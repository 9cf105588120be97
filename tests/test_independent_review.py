"""Independent review (issue 38): a reviewer with an open request for a candidate sees
nobody else's decisions or notes in what the bot shows them (the card, the request DM,
App Home, the list of who was asked, `debrief ask --user`) until they record their own
or everyone asked has; the status message and a decision posted from the modal say who
decided, not what; the recruiter sees everything; DEBRIEF_INDEPENDENT_REVIEW=off shows
everything to everyone. Signed HTTP requests against the strict fake Slack, on SQLite
and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from support.fake_slack import FakeSlack
from support.slackbot import Bot, all_text
from support.waiting import wait_until
from test_decide import click_decision, opened_modal, submit
from test_home import click, open_home, section_of
from test_requests import (
    CHANNEL,
    CID,
    TUESDAY,
    Clock,
    _reply,
    command,
    dm,
    requests,
    started,
    status,
)

from bot.app import web_client
from bot.cli import cli
from bot.digest import Digester
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

NOTE = "基础扎实推荐录用"  # UBOB's note with their decision: only ever seen as allowed
HIDDEN = "独立评审"


def bot_with(
    fake: FakeSlack, db: str, tmp_path: Path, clock: Clock, **settings: str
) -> Iterator[Bot]:
    bot = started(fake, db, tmp_path, clock, locale="zh", deciders_raw="ULEAD", **settings)
    try:
        yield bot
    finally:
        bot.server.stop()


@pytest.fixture
def review(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path, team_clock: Clock
) -> Iterator[Bot]:
    """DEBRIEF_INDEPENDENT_REVIEW unset: on."""
    yield from bot_with(fake_slack, db_target, tmp_path, team_clock)


@pytest.fixture
def review_off(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path, team_clock: Clock
) -> Iterator[Bot]:
    yield from bot_with(fake_slack, db_target, tmp_path, team_clock, independent_review="off")


@pytest.fixture
def team_clock() -> Clock:
    return Clock(TUESDAY)


def ask_two_then_bob_decides(bot: Bot) -> str:
    """U123 asks UANN and UBOB about 000; UBOB replies in the thread with a decision."""
    command(bot, "邀请 000 <@UANN> <@UBOB> 截止 周五", "ask")
    thread = bot.store.verdict_post(CID, CHANNEL)
    assert thread is not None
    bot.event(_reply("1800000000.000001", thread, f"通过 {NOTE}", "UBOB"))
    wait_until("UBOB's request closed", lambda: not requests(bot)["UBOB"].open)
    bot.idle()
    return thread


def card(bot: Bot, user: str, name: str) -> str:
    return command(bot, "总结 000", name, user=user)


def ask_as(bot: Bot, user: str, text: str = "/candidate 总结 000") -> str:
    result = CliRunner().invoke(
        cli,
        ["ask", text, "--db", bot.store.path, "--user", user],
        env={"DEBRIEF_LOCALE": "zh"},
    )
    assert result.exit_code == 0, result.output
    return result.output


def test_a_reviewer_asked_sees_who_decided_not_what_until_they_decide(review: Bot) -> None:
    bot = review
    thread = ask_two_then_bob_decides(bot)

    # the reviewer still asked: who decided, not what, nor the note
    sealed = card(bot, "UANN", "ann")
    assert NOTE not in sealed and "*通过*" not in sealed
    assert HIDDEN in sealed and "已给出结论：<@UBOB>" in sealed
    assert NOTE not in ask_as(bot, "UANN") and HIDDEN in ask_as(bot, "UANN")
    asked = command(bot, "邀请 000", "list", user="UANN")
    assert "已决定（通过）" not in asked and "已决定" in asked
    # the status message in the thread says who decided, not what
    said = status(bot)
    assert "已决定：<@UBOB>" in said and "通过" not in said and NOTE not in said

    # the recruiter, and the reviewer who decided, see everything as before
    for user, name in (("U123", "recruiter"), ("UBOB", "bob")):
        full = card(bot, user, name)
        assert NOTE in full and "<@UBOB>: *通过*" in full and HIDDEN not in full
    assert NOTE in ask_as(bot, "U123")
    assert "已决定（通过）" in command(bot, "邀请 000", "list2", user="U123")

    # UANN decides with the DM's buttons: the thread says who, not what (nobody else
    # is waited for now, so what they decided is posted as before)
    [message] = dm(bot, "UANN")
    [buttons] = [b for b in message["blocks"] if b.get("block_id", "").startswith("decide@")]
    channel = bot.fake.dm_channel("UANN")
    assert (
        click_decision(
            bot, message["ts"], "decide:hold", "hold", "UANN", channel, buttons["block_id"]
        )
        == 200
    )
    code, _ = submit(bot, opened_modal(bot), "hold", "再聊一轮", user="UANN")
    assert code == 200
    wait_until("UANN's request closed", lambda: not requests(bot)["UANN"].open)
    bot.idle()
    opened = card(bot, "UANN", "ann-after")
    assert NOTE in opened and "<@UBOB>: *通过*" in opened and HIDDEN not in opened
    assert NOTE in ask_as(bot, "UANN")
    in_thread = [m for m in bot.fake.messages(CHANNEL) if m.get("thread_ts") == thread]
    assert any("再聊一轮" in str(m.get("text")) for m in in_thread)  # everyone asked decided


def test_the_request_dm_hides_the_others_and_says_the_thread_is_public(review: Bot) -> None:
    bot = review
    ask_two_then_bob_decides(bot)
    command(bot, "邀请 000 <@UCAT> 截止 周五", "ask-cat")
    [message] = dm(bot, "UCAT")
    text = all_text(message)
    assert NOTE not in text and "Bob: *通过*" not in text and "UBOB: *通过*" not in text
    assert HIDDEN in text and "已给出结论" in text
    assert "用下面的按钮给出结论" in text and "所有人都能看到" in text
    for reviewer in ("UANN", "UBOB"):  # asked before anyone decided: the same words
        assert "所有人都能看到" in all_text(dm(bot, reviewer)[0])

    # a decision from the modal while UCAT is still asked: who, not what, in the thread
    [first] = dm(bot, "UANN")
    [buttons] = [b for b in first["blocks"] if b.get("block_id", "").startswith("decide@")]
    channel = bot.fake.dm_channel("UANN")
    assert (
        click_decision(
            bot, first["ts"], "decide:hold", "hold", "UANN", channel, buttons["block_id"]
        )
        == 200
    )
    code, _ = submit(bot, opened_modal(bot), "hold", "再聊一轮", user="UANN")
    assert code == 200
    wait_until("UANN's request closed", lambda: not requests(bot)["UANN"].open)
    bot.idle()
    thread = bot.store.verdict_post(CID, CHANNEL)
    posted = [
        str(m.get("text")) for m in bot.fake.messages(CHANNEL) if m.get("thread_ts") == thread
    ]
    assert all("再聊一轮" not in p and "待定" not in p and "通过" not in p for p in posted)
    assert any("已给出结论（独立评审" in p for p in posted)  # who decided, from the modal
    # UCAT, still asked, sees neither decision; the recruiter sees both
    cat = card(bot, "UCAT", "cat")
    assert NOTE not in cat and "再聊一轮" not in cat and "<@UANN>" in cat and "<@UBOB>" in cat
    recruiter = card(bot, "U123", "recruiter")
    assert NOTE in recruiter and "再聊一轮" in recruiter


def opener(home: dict[str, Any], candidate: str = CID) -> str:
    """The action id of the first Home line that opens `candidate`."""
    for b in home["blocks"]:
        accessory = b.get("accessory") or {}
        opens = accessory.get("action_id", "").startswith("home_open:")
        if opens and json.loads(accessory["value"])["id"] == candidate:
            return str(accessory["action_id"])
    raise AssertionError(f"no line opens {candidate}")


def home_card(bot: Bot, user: str, count: int) -> str:
    home = open_home(bot, user)
    click(bot, home, opener(home), user=user)
    return json.dumps(opened_modal(bot, count)["blocks"], ensure_ascii=False)


def test_app_home_and_the_digest_show_who_decided_not_what(review: Bot) -> None:
    bot = review
    ask_two_then_bob_decides(bot)
    assert section_of(open_home(bot, "UANN"), "请你给结论（1）")
    sealed = home_card(bot, "UANN", 1)
    assert NOTE not in sealed and HIDDEN in sealed and "<@UBOB>" in sealed
    full = home_card(bot, "U123", 2)  # the recruiter: everything, as before
    assert NOTE in full and HIDDEN not in full

    # the digest is a channel post the people asked read: who decided, not what
    settings = bot.settings.model_copy(update={"digest_channel": "CHIRE"})
    message, _day = Digester(settings, bot.store, web_client(bot.settings)).compose()
    assert message is not None
    texts = [b["text"]["text"] for b in message.blocks if b.get("type") == "section"]
    [line] = [x for x in texts if x.startswith(f"*{CID}") and "已给出结论" in x]
    assert "Bob" in line and "通过" not in line and "<@" not in line
    assert NOTE not in json.dumps(message.blocks, ensure_ascii=False)


def test_with_independent_review_off_everyone_sees_everything(review_off: Bot) -> None:
    bot = review_off
    ask_two_then_bob_decides(bot)
    full = card(bot, "UANN", "ann")
    assert NOTE in full and "<@UBOB>: *通过*" in full and HIDDEN not in full
    assert "已决定（通过）" in command(bot, "邀请 000", "list", user="UANN")
    assert "所有人都能看到" not in all_text(dm(bot, "UANN")[0])


def test_a_card_posted_in_the_channel_hides_decisions_while_anyone_asked_is_waited_for(
    review: Bot,
) -> None:
    bot = review
    ask_two_then_bob_decides(bot)
    bot.command("总结 000", name="mine", user_id="U123", channel_id=CHANNEL)
    bot.idle()
    [private] = bot.replies("mine")
    assert NOTE in all_text(private)  # the recruiter's own card: everything
    before = len(bot.fake.calls("chat.postMessage"))
    assert bot.click(private, "post_in_channel", name="post", user="U123") == 200
    bot.idle()
    posted = bot.fake.wait_for("chat.postMessage", count=before + 1)[before]
    text = json.dumps(posted.json_param("blocks"), ensure_ascii=False)
    assert NOTE not in text and "所有被邀请的评审都给出结论之后" in text and "Bob" in text

    # once everyone asked has decided, a card posted shows the decisions again
    thread = bot.store.verdict_post(CID, CHANNEL)
    assert thread is not None
    bot.event(_reply("1800000000.000002", thread, "不通过 经验不足", "UANN"))
    wait_until("UANN's request closed", lambda: not requests(bot)["UANN"].open)
    bot.idle()
    assert NOTE in card(bot, "UANN", "ann") and "经验不足" in card(bot, "UBOB", "bob")
    assert bot.click(private, "post_in_channel", name="post2", user="U123") == 200
    bot.idle()
    again = bot.fake.wait_for("chat.postMessage", count=before + 2)[before + 1]
    shown = json.dumps(again.json_param("blocks"), ensure_ascii=False)
    assert NOTE in shown and "经验不足" in shown and HIDDEN not in shown


FIRST = (
    "姓名：王小明\n岗位：后端工程师\n轮次：一面\n面试日期：2026-11-20\n面试官：李四\n"
    "从业年限：4年\n问题1：讲讲 Redis 的持久化？\n回答：\n"
    "问题2：TCP 三次握手？\n回答：SYN，SYN-ACK，ACK。\n点评：基础不错。沟通清楚，建议二面。\n"
)
SECOND = (
    "姓名：王小明\n岗位：后端工程师\n轮次：二面\n面试日期：2026-11-25\n面试官：赵六\n"
    "从业年限：4年\n问题1：讲讲你做过的调度系统？\n回答：做过 Go 写的任务调度。\n"
    "点评：项目经验扎实。可以进入终面。\n"
)


def test_asked_about_one_interview_no_decision_on_any_of_the_person_s_shows(
    review: Bot, tmp_path: Path
) -> None:
    bot = review
    folder = tmp_path / "loop"
    folder.mkdir()
    (folder / "wang-1.txt").write_text(FIRST, "utf-8")
    (folder / "wang-2.txt").write_text(SECOND, "utf-8")
    indexed = index_paths(bot.store, [folder])
    assert not indexed.failed
    ids = {Path(c.source).stem: c.id for c in map(bot.store.get_candidate, indexed.indexed) if c}
    first, second = ids["wang-1"], ids["wang-2"]
    assert bot.store.candidate_key(first) == bot.store.candidate_key(second)
    # UBOB decided on the first round; UANN is asked about the second
    bot.store.record_post(CHANNEL, "1700000000.000100", first, "verdict")
    bot.store.record_post(CHANNEL, "1700000000.000200", second, "verdict")
    bot.store.record_reply(
        CHANNEL, "1700000000.000101", "1700000000.000100", first, "UBOB", f"通过 {NOTE}"
    )
    assert bot.store.record_requests(
        second, ["UANN"], "U123", "2099-01-01T00:00:00+00:00", CHANNEL, "1700000000.000200"
    )

    sealed = command(bot, f"总结 {first}", "ann-first", user="UANN")
    assert NOTE not in sealed and HIDDEN in sealed and "<@UBOB>" in sealed
    loop = command(bot, "总结 王小明", "ann-loop", user="UANN")
    assert "结论暂不显示" in loop and "通过" not in loop
    assert NOTE in command(bot, f"总结 {first}", "recruiter-first", user="U123")
    assert "1 通过" in command(bot, "总结 王小明", "recruiter-loop", user="U123")
