"""Unsupported claims (issue 37) where people see them, through the wire: the card and
the posted verdict, the digest and App Home, `debrief show` (text and --json), a thread
reply answered once in private, a follow-up answer that clears a claim; in Chinese and
English, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from support.fake_slack import FakeSlack
from support.slackbot import Bot, all_text, start_bot
from support.waiting import wait_until
from test_home import open_home, section_of
from test_threads import post_verdict, reply

from bot.app import web_client
from bot.cli import cli
from bot.digest import Digester
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


def ask(bot: Bot, text: str, name: str = "cmd") -> dict[str, Any]:
    bot.command(text, name=name)
    [message] = bot.replies(name)
    return message


def show(bot: Bot, who: str, *more: str, locale: str = "zh") -> Any:
    result = CliRunner().invoke(
        cli, ["show", who, "--db", bot.store.path, *more], env={"DEBRIEF_LOCALE": locale}
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout) if "--json" in more else result.stdout


def ephemerals(bot: Bot) -> list[Any]:
    return bot.fake.calls("chat.postEphemeral")


def test_the_card_and_the_verdict_warn_under_the_verdict_gist(bot: Bot) -> None:
    card = all_text(ask(bot, "总结 000"))
    gist = card.index("点评要点")
    warning = "⚠ 点评说“在面对高级分布式编程模型时，他也能表达出自己的见解"
    assert gist < card.index(warning) and "但问题2未作答" in card
    assert card.count("⚠") == 4  # the summary's and the verdict's, on questions 2 and 3
    assert "⚠" not in all_text(ask(bot, "总结 003", name="answered"))  # every answer given

    post_verdict(bot)
    [posted] = bot.fake.calls("chat.postMessage")
    verdict = json.dumps(posted.json_param("blocks"), ensure_ascii=False)
    assert "⚠ 总结说“此外，他对分布式TensorFlow服务和Client/Server架构" in verdict
    assert "但问题3未作答（依据：服务、client、server、架构）" in verdict


def test_show_lists_the_claims_in_json_and_text(bot: Bot) -> None:
    claims = show(bot, "000", "--json")["unsupported"]
    assert [(c["source"], c["questions"]) for c in claims] == [
        ("summary", [2]),
        ("summary", [3]),
        ("verdict", [2]),
        ("verdict", [3]),
    ]
    assert claims[2] == {
        "source": "verdict",
        "text": "在面对高级分布式编程模型时，他也能表达出自己的见解，指出了各自的优缺点，"
        "显示出良好的理论素养。",
        "questions": [2],
        "words": ["高级", "优缺点"],
    }
    assert show(bot, "003", "--json")["unsupported"] == []
    [only] = show(bot, "004", "--json")["unsupported"]
    assert (only["source"], only["questions"], only["words"]) == ("summary", [5], ["分布式"])
    text = show(bot, "004")
    assert "⚠ 总结说“此外，他还分享了自己如何利用 TensorFlow 进行分布式训练的经验" in text
    assert "但问题5未作答（依据：分布式）" in text
    english = show(bot, "004", locale="en")
    assert "⚠ The summary says “此外，他还分享了" in english
    assert "but Q5 went unanswered (by: 分布式)" in english


def test_a_reply_that_claims_is_answered_once_in_private(bot: Bot) -> None:
    parent = post_verdict(bot)
    claim = reply("1800000000.000101", parent, "他对All-Reduce的优缺点讲得很清楚。", user="UREV")
    assert bot.event(claim, event_id="EvClaim") == 200
    retried = {"X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}
    assert bot.event(claim, event_id="EvClaim", headers=retried) == 200
    [said] = bot.fake.wait_for("chat.postEphemeral")
    assert (said.params["channel"], said.params["user"], said.params["thread_ts"]) == (
        "C123",
        "UREV",
        parent,
    )
    assert "你的回复说“他对All-Reduce的优缺点讲得很清楚”，但问题2未作答" in said.params["text"]
    bot.event(reply("1800000000.000102", parent, "总体来说，面试表现优秀。", user="UREV"))
    bot.event(reply("1800000000.000103", parent, "问题2没有回答，建议二面再问。", user="UREV"))
    replies = "SELECT count(*) FROM replies"
    wait_until("3 replies", lambda: bot.store.db.execute(replies).fetchone()[0] == 3)
    bot.idle()
    assert len(ephemerals(bot)) == 1  # once: not again on the retry, not for the others
    [note] = [c for c in show(bot, "000", "--json")["unsupported"] if c["source"] == "note"]
    assert note == {
        "source": "note",
        "text": "他对All-Reduce的优缺点讲得很清楚。",
        "questions": [2],
        "words": ["reduce", "优缺点"],
        "by": "UREV",
        "ts": "1800000000.000101",
    }


def test_suggestions_are_no_claims_and_plain_credit_is_one(bot: Bot) -> None:
    """Issue 45: a suggestion for the next round is answered by nothing; a decision whose
    reason credits an empty question is answered once, privately, and `show` lists it."""
    parent = post_verdict(bot)
    fair = [
        "下一轮可以追问他对All-Reduce的理解。",
        "Next round should probe his understanding of All-Reduce.",
        "His training pipeline work sounded solid.",
    ]
    for i, text in enumerate(fair):
        assert bot.event(reply(f"1800000000.00060{i}", parent, text, user="UREV")) == 200
    claim = reply("1800000000.000610", parent, "通过，Client/Server架构讲得非常好。", user="UREV")
    assert bot.event(claim) == 200
    [said] = bot.fake.wait_for("chat.postEphemeral")
    assert "你的回复说“Client/Server架构讲得非常好”" not in said.params["text"]
    assert "你的回复说“通过，Client/Server架构讲得非常好”，但问题3未作答" in said.params["text"]
    replies = "SELECT count(*) FROM replies"
    wait_until("4 replies", lambda: bot.store.db.execute(replies).fetchone()[0] == 4)
    bot.idle()
    assert len(ephemerals(bot)) == 1
    notes = [c for c in show(bot, "000", "--json")["unsupported"] if c["source"] == "note"]
    assert [(c["text"], c["questions"]) for c in notes] == [
        ("通过，Client/Server架构讲得非常好。", [3])
    ]


def test_every_note_counts_not_the_last_ten(bot: Bot) -> None:
    """A claim in a note older than the thread's last ten stays in `unsupported`: its
    author was told of it, and the card and `show` keep saying it."""
    parent = post_verdict(bot)
    claim = reply("1800000000.000401", parent, "Q3答得不错。", user="UREV")
    assert bot.event(claim) == 200
    for i in range(12):
        fair = f"第{i + 1}条：沟通顺畅，表达有条理。"
        assert bot.event(reply(f"1800000000.0005{i:02d}", parent, fair, user="UOTHER")) == 200
    replies = "SELECT count(*) FROM replies"
    wait_until("13 replies", lambda: bot.store.db.execute(replies).fetchone()[0] == 13)
    bot.idle()
    notes = [c for c in show(bot, "000", "--json")["unsupported"] if c["source"] == "note"]
    assert [(c["text"], c["questions"], c["by"]) for c in notes] == [("Q3答得不错。", [3], "UREV")]
    assert "⚠ 评审备注说“Q3答得不错”，但问题3未作答" in show(bot, "000")


def test_a_followup_answer_in_the_thread_clears_its_claims(bot: Bot) -> None:
    parent = post_verdict(bot)
    later = "问题2：Replicated training 每个 worker 一份副本，All-Reduce 省掉参数服务器，各有优缺点"
    assert bot.event(reply("1800000000.000201", parent, later, user="UREV")) == 200
    wait_until("the follow-up", lambda: show(bot, "000", "--json")["followups"])
    claims = show(bot, "000", "--json")["unsupported"]
    assert [(c["source"], c["questions"]) for c in claims] == [("summary", [3]), ("verdict", [3])]
    bot.idle()
    assert ephemerals(bot) == []  # a follow-up answer makes no claim
    card = all_text(ask(bot, "总结 000"))
    assert "问题3未作答" in card and "问题2未作答" not in card


def test_the_digest_and_app_home_count_them(bot: Bot) -> None:
    digester = Digester(
        bot.settings.model_copy(update={"digest_channel": "CHIRE"}),
        bot.store,
        web_client(bot.settings),
    )
    assert digester.run(force=True) == "sent"
    [call] = bot.fake.wait_for("chat.postMessage")
    digest = [b["text"]["text"] for b in call.json_param("blocks") if b["type"] == "section"]
    [line] = [t for t in digest if t.startswith("*000_9e6b3ecb0732fcf3") and "未回答" in t]
    assert line.endswith("⚠ 4 处点评与作答不符")
    assert not any("003_" in t and "⚠" in t for t in digest)
    home = all_text({"blocks": section_of(open_home(bot), "昨天以来有新面试记录的候选人")})
    assert "⚠ 4 处点评与作答不符" in home and "⚠ 1 处点评与作答不符" in home


def test_in_english(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> None:
    english = start_bot(fake_slack, db_target, uploads=str(tmp_path / "up"), locale="en")
    try:
        assert not index_paths(english.store, [SEEDS]).failed
        card = all_text(ask(english, "summary 000"))
        assert "⚠ The verdict says “在面对高级分布式编程模型时" in card
        assert "but Q2 went unanswered" in card
        parent = post_verdict(english)
        english.event(reply("1800000000.000301", parent, "Q3 was answered well.", user="UREV"))
        [said] = english.fake.wait_for("chat.postEphemeral")
        assert (
            "Your reply says “Q3 was answered well”, but Q3 went unanswered" in said.params["text"]
        )
    finally:
        english.stop()
