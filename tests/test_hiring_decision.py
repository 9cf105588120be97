"""`/candidate 结论 <who> 录用|不录用|待定 [note]` (`decide <who> hire|reject|hold`): only
DEBRIEF_DECIDERS (user ids and user groups) may; recorded before it is posted in the
verdict's thread, audited, shown on the card, replacing an earlier one, and the candidate
leaves the "waiting" queues. Signed HTTP requests against the strict fake Slack, on
SQLite and PostgreSQL, in both languages."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.fake_slack import FakeSlack
from support.slackbot import Bot, all_text, start_bot
from support.waiting import wait_until
from test_home import lines, open_home, section_of

from handlers.i18n import t
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
CID = "000_9e6b3ecb0732fcf3"
CHANNEL = "C123"

WORDS = {
    "zh": {
        "verdict": "点评",
        "decide": "结论",
        "summary": "总结",
        "hire": "录用",
        "reject": "不录用",
        "hold": "待定",
        "replaces": "取代之前的结论",
        "card": "录用结论",
    },
    "en": {
        "verdict": "verdict",
        "decide": "decide",
        "summary": "summary",
        "hire": "hire",
        "reject": "reject",
        "hold": "hold",
        "replaces": "replaces the earlier decision",
        "card": "Hiring decision",
    },
}


def started(fake: FakeSlack, db: str, tmp_path: Path, **settings: str) -> Bot:
    bot = start_bot(fake, db, uploads=str(tmp_path / "uploads"), **settings)
    assert not index_paths(bot.store, [SEEDS]).failed
    return bot


@pytest.fixture(params=["zh", "en"])
def locale(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def deciding(fake_slack: FakeSlack, db_target: str, tmp_path: Path, locale: str) -> Iterator[Bot]:
    fake_slack.users.update({"ULEAD": "Lead Li", "UHR": "Han HR"})
    fake_slack.usergroups["S0HR"] = ["UHR"]
    bot = started(fake_slack, db_target, tmp_path, deciders_raw="ULEAD, S0HR", locale=locale)
    try:
        yield bot
    finally:
        bot.server.stop()


def test_closing_the_app_stops_its_user_group_readers(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> None:
    """A closed app reads no user group again: its readers are gone, not asleep."""
    fake_slack.usergroups.update({"S0HR": ["UHR"], "S0ALL": ["UHR"]})
    before = set(threading.enumerate())
    bot = started(fake_slack, db_target, tmp_path, deciders_raw="S0HR", allowed_users_raw="S0ALL")
    readers = [t for t in set(threading.enumerate()) - before if t.name == "debrief-usergroups"]
    assert len(readers) == 2
    bot.server.stop()
    bot.close()
    assert [t for t in readers if t.is_alive()] == []


def posts(bot: Bot) -> list[Any]:
    return bot.fake.calls("chat.postMessage")


def post_verdict(bot: Bot, words: dict[str, str]) -> str:
    before = len(posts(bot))
    bot.command(f"{words['verdict']} 000", name="verdict", user_id="U777")
    bot.fake.wait_for("chat.postMessage", count=before + 1)
    found = wait_until("the verdict post", lambda: bot.store.verdict_post(CID, CHANNEL))
    return str(found)


def decide(bot: Bot, text: str, name: str, user: str, channel: str = CHANNEL) -> None:
    bot.command(text, name=name, user_id=user, channel_id=channel)
    bot.idle()


def waiting(bot: Bot) -> tuple[list[str], list[str]]:
    """Who the digest's "waiting" section and U777's Home queue list."""
    digest, _n = bot.store.digest_lines("waiting", "", 50)
    home, _m = bot.store.waiting_for([CHANNEL], "U777", 50)
    return [d.id for d in digest], [h.id for h in home]


def test_a_decider_records_it_in_the_verdict_thread_and_a_later_one_replaces_it(
    deciding: Bot, locale: str
) -> None:
    bot, words = deciding, WORDS[locale]
    thread = post_verdict(bot, words)
    assert all(CID in ids for ids in waiting(bot))
    before = len(posts(bot))

    decide(bot, f"{words['decide']} 000 {words['hire']} 沟通 <好> & 稳", "d1", "ULEAD")
    [first] = posts(bot)[before:]
    assert first.params["thread_ts"] == thread and first.params["channel"] == CHANNEL
    said = all_text({"text": first.params["text"], "blocks": first.json_param("blocks")})
    assert "Lead Li" in said and "<@ULEAD>" not in said  # named, never pinged
    assert f"*{words['hire']}*" in said and "沟通 &lt;好&gt; &amp; 稳" in said
    assert words["replaces"] not in said
    outcome = bot.store.outcome(CID)
    assert outcome is not None
    assert (outcome.decision, outcome.note, outcome.by) == ("hire", "沟通 <好> & 稳", "ULEAD")
    assert all(CID not in ids for ids in waiting(bot))  # decided: no longer waiting

    # a member of the deciders' user group replaces it, and the thread says so
    # (the group is read in the background: until then the member is told to try again)
    bot.fake.wait_for("usergroups.users.list")
    tries = iter(range(1000))

    def by_the_group_member() -> bool:
        decide(bot, f"{words['decide']} 000 {words['hold']}", f"d2-{next(tries)}", "UHR")
        recorded = bot.store.outcome(CID)
        return recorded is not None and recorded.decision == "hold"

    wait_until("the group member's decision", by_the_group_member, timeout=30)
    assert len(posts(bot)) == before + 2
    second = posts(bot)[-1]
    assert second.params["thread_ts"] == thread
    text = second.params["text"]
    assert "Han HR" in text and words["replaces"] in text and words["hire"] in text
    assert "Lead Li" in text  # who recorded the one it replaces
    outcome = bot.store.outcome(CID)
    assert outcome is not None and (outcome.decision, outcome.by) == ("hold", "UHR")

    bot.store.flush_audit()
    actions = [(e.who, e.what, e.candidate) for e in bot.store.audit_log()]
    assert ("ULEAD", "outcome:hire", CID) in actions and ("UHR", "outcome:hold", CID) in actions

    # the card shows it
    bot.command(f"{words['summary']} 000", name="card", user_id="U777")
    card = all_text(bot.replies("card")[-1])
    assert words["card"] in card and words["hold"] in card and "<@UHR>" in card


def test_english_words_in_a_chinese_team_and_reject(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> None:
    bot = started(fake_slack, db_target, tmp_path, deciders_raw="ULEAD")
    try:
        post_verdict(bot, WORDS["zh"])
        decide(bot, "decide 000 reject not a fit", "d", "ULEAD")
        outcome = wait_until("recorded", lambda: bot.store.outcome(CID))
        assert (outcome.decision, outcome.note) == ("reject", "not a fit")
        assert "不录用" in posts(bot)[-1].params["text"]  # said in the team's language
    finally:
        bot.server.stop()


def refusal(bot: Bot, name: str) -> str:
    bot.idle()
    return all_text(bot.replies(name)[-1])


def test_others_are_refused_and_nothing_is_recorded(deciding: Bot, locale: str) -> None:
    bot, words = deciding, WORDS[locale]
    post_verdict(bot, words)
    before = len(posts(bot))
    decide(bot, f"{words['decide']} 000 {words['hire']}", "stranger", "USTRANGER")
    said = refusal(bot, "stranger")
    assert "DEBRIEF_DECIDERS" in said
    assert bot.store.outcome(CID) is None and len(posts(bot)) == before
    bot.store.flush_audit()
    assert not [e for e in bot.store.audit_log() if e.what.startswith("outcome:")]


def test_nobody_may_decide_while_deciders_is_unset(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> None:
    bot = started(fake_slack, db_target, tmp_path, locale="en")
    try:
        post_verdict(bot, WORDS["en"])
        before = len(posts(bot))
        decide(bot, "decide 000 hire", "unset", "U777")
        said = refusal(bot, "unset")
        assert "DEBRIEF_DECIDERS" in said and "Nobody may" in said
        assert bot.store.outcome(CID) is None and len(posts(bot)) == before
    finally:
        bot.server.stop()


def test_without_a_verdict_in_this_channel_nothing_is_recorded(deciding: Bot, locale: str) -> None:
    bot, words = deciding, WORDS[locale]
    post_verdict(bot, words)  # in C123
    before = len(posts(bot))
    decide(bot, f"{words['decide']} 000 {words['hire']}", "elsewhere", "ULEAD", channel="C999")
    said = refusal(bot, "elsewhere")
    assert f"{words['verdict']} {CID}" in said
    assert bot.store.outcome(CID) is None and len(posts(bot)) == before


def test_without_a_decision_word_it_says_how(deciding: Bot, locale: str) -> None:
    bot, words = deciding, WORDS[locale]
    post_verdict(bot, words)
    before = len(posts(bot))
    decide(bot, f"{words['decide']} 000 maybe", "usage", "ULEAD")
    said = refusal(bot, "usage")
    assert "hire|reject|hold" in said or "录用|不录用|待定" in said
    assert "<候选人>" not in said and "<candidate>" not in said  # Slack would read a link
    assert bot.store.outcome(CID) is None and len(posts(bot)) == before
    assert json.dumps(said)  # a reply, not a failure


def test_the_home_queue_leaves_out_a_decided_candidate(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> None:
    fake_slack.channel_members[CHANNEL] = ["ULEAD", "U777"]
    bot = started(fake_slack, db_target, tmp_path, deciders_raw="ULEAD")
    try:
        post_verdict(bot, WORDS["zh"])
        assert lines(section_of(open_home(bot), "等你给结论")) == [CID]
        decide(bot, "结论 000 不录用", "d", "ULEAD")
        wait_until("recorded", lambda: bot.store.outcome(CID))
        assert lines(section_of(open_home(bot), "等你给结论")) == []
    finally:
        bot.server.stop()


def test_a_decision_posted_in_the_thread_whose_answer_was_lost_is_found_there(
    deciding: Bot, locale: str
) -> None:
    """Slack took the post but the connection dropped before it said so: the bot looks in
    the verdict's thread (a channel's history does not list replies), finds it, and
    neither posts it again nor tells the decider to go and check."""
    bot, words = deciding, WORDS[locale]
    thread = post_verdict(bot, words)
    before = len(posts(bot))
    bot.fake.drop_next("chat.postMessage")
    decide(bot, f"{words['decide']} 000 {words['hire']}", "lost", "ULEAD")
    in_thread = [c for c in posts(bot)[before:] if c.params.get("thread_ts") == thread]
    assert len(in_thread) == 1  # posted once: not again
    assert bot.fake.calls("conversations.replies")
    said = json.dumps(bot.fake.responses("lost"), ensure_ascii=False)
    assert t(locale, "post_unknown") not in said  # type: ignore[arg-type]
    assert bot.store.outcome(CID) is not None
