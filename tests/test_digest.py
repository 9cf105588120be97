"""The daily digest: due once a day, posted once, whatever restarts and races happen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import time_machine
from slack_sdk.errors import SlackApiError
from support.fake_slack import FakeSlack
from support.slackbot import Bot, all_text, buttons
from support.waiting import wait_until

from bot.app import web_client
from bot.digest import Digester
from bot.settings import Settings, load_settings
from store.factory import open_store
from store.indexer import index_paths
from store.sqlite.store import Store

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SHANGHAI = ZoneInfo("Asia/Shanghai")


def at(hour: int, minute: int, day: int = 2) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=SHANGHAI)


def make(fake: FakeSlack, db: str, **extra: str) -> tuple[Settings, Store, Digester]:
    settings = load_settings(
        bot_token="xoxb-test", api_url=fake.base_url, db_path=db, digest_channel="CHIRE", **extra
    )
    store = open_store(db)
    return settings, store, Digester(settings, store, web_client(settings))


def posted_ids(fake: FakeSlack) -> list[str]:
    return [c.params["channel"] for c in fake.calls("chat.postMessage")]


def test_posted_once_when_the_time_comes_across_restarts(
    fake_slack: FakeSlack, tmp_path: Path, db_target: str, seeds_dir: Path
) -> None:
    db = db_target
    with time_machine.travel(at(8, 0), tick=False):
        _s, store, digester = make(fake_slack, db)
        index_paths(store, [seeds_dir])
    with time_machine.travel(at(9, 29), tick=False):
        assert digester.run() == "not_due"
    assert fake_slack.calls("chat.postMessage") == []
    with time_machine.travel(at(9, 31), tick=False):
        assert digester.run() == "sent"
        assert digester.run() == "already"
    with time_machine.travel(at(11, 0), tick=False):  # a restart: a new process, the same database
        assert make(fake_slack, db)[2].run() == "already"
    [call] = fake_slack.calls("chat.postMessage")
    assert call.params["channel"] == "CHIRE"
    text = json.dumps(call.params, ensure_ascii=False)
    for cid in (
        "000_9e6b3ecb0732fcf3",
        "002_72ee0a76eea41e0e",
        "003_20561f43447eea49",
        "004_b1dde04b6d7437d5",
    ):
        assert cid in text
    assert "每日招聘摘要 · 2026-12-02" in text
    with time_machine.travel(at(9, 31, day=3), tick=False):  # the next day: only what is new
        assert digester.run() == "sent"
    second = json.dumps(fake_slack.calls("chat.postMessage")[1].params, ensure_ascii=False)
    assert "新面试记录" not in second and "等待结论（4）" in second


def test_a_clock_jump_back_does_not_post_twice(
    fake_slack: FakeSlack, tmp_path: Path, db_target: str, seeds_dir: Path
) -> None:
    _s, store, digester = make(fake_slack, db_target)
    index_paths(store, [seeds_dir])
    with time_machine.travel(at(9, 40), tick=False):
        assert digester.run() == "sent"
    with time_machine.travel(at(9, 30), tick=False):
        assert digester.run() == "already"
    assert len(fake_slack.calls("chat.postMessage")) == 1


def test_two_processes_race(
    fake_slack: FakeSlack, tmp_path: Path, db_target: str, seeds_dir: Path
) -> None:
    db = db_target
    index_paths(open_store(db), [seeds_dir])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))} | {
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_API_URL": fake_slack.base_url,
        "DEBRIEF_DB": db,
        "DEBRIEF_DIGEST_CHANNEL": "CHIRE",
    }
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "bot", "digest", "--post", "--json"],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    outcomes = sorted(json.loads(p.communicate(timeout=60)[0])["outcome"] for p in procs)
    assert outcomes == ["already", "already", "sent"]
    assert posted_ids(fake_slack) == ["CHIRE"]


def test_threads_race_in_one_database(
    fake_slack: FakeSlack, tmp_path: Path, db_target: str, seeds_dir: Path
) -> None:
    db = db_target
    index_paths(open_store(db), [seeds_dir])
    digesters = [make(fake_slack, db)[2] for _ in range(4)]
    results: list[str] = []
    with time_machine.travel(at(10, 0), tick=True):
        threads = [threading.Thread(target=lambda d=d: results.append(d.run())) for d in digesters]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    assert sorted(results) == ["already"] * 3 + ["sent"]
    assert len(fake_slack.calls("chat.postMessage")) == 1


def test_retried_on_429_and_recorded_only_once_accepted(
    fake_slack: FakeSlack, tmp_path: Path, db_target: str, seeds_dir: Path
) -> None:
    _s, store, digester = make(fake_slack, db_target)
    index_paths(store, [seeds_dir])
    fake_slack.fail_next("chat.postMessage", status=429, retry_after=1)
    with time_machine.travel(at(9, 35), tick=True):
        assert digester.run() == "sent"
    assert [c.status for c in fake_slack.calls("chat.postMessage")] == [429, 200]

    fake_slack.fail_next("chat.postMessage", status=200, error="internal_error")  # refused
    with time_machine.travel(at(9, 35, day=3), tick=True):
        with pytest.raises(SlackApiError):
            digester.run()
        assert store.digest_status("2026-12-03") is None  # not recorded as sent
    with time_machine.travel(at(9, 50, day=3), tick=True):
        assert digester.run() == "sent"
    assert store.digest_status("2026-12-03") == "sent"
    assert fake_slack.calls("conversations.history") == []  # a refusal is not an unknown


# -- never twice: a post whose outcome is unknown is looked for, not repeated ----------------


def digest_posts(fake: FakeSlack) -> list[dict[str, object]]:
    """The digests Slack holds in CHIRE, as conversations.history returns them."""
    client = web_client(load_settings(bot_token="xoxb-test", api_url=fake.base_url))
    messages = client.conversations_history(channel="CHIRE", include_all_metadata=True)["messages"]
    return [m for m in messages if (m.get("metadata") or {}).get("event_type") == "debrief_digest"]


def test_a_dropped_post_is_found_not_posted_again(
    fake_slack: FakeSlack, tmp_path: Path, db_target: str, seeds_dir: Path
) -> None:
    _s, store, digester = make(fake_slack, db_target)
    index_paths(store, [seeds_dir])
    fake_slack.drop_next("chat.postMessage")  # Slack posts it, the answer never arrives
    with time_machine.travel(at(9, 35), tick=True):
        assert digester.run() == "sent"
    [post] = fake_slack.calls("chat.postMessage")
    assert post.json_param("metadata") == {
        "event_type": "debrief_digest",
        "event_payload": {"day": "2026-12-02"},
    }
    [looked] = fake_slack.calls("conversations.history")
    assert looked.params["channel"] == "CHIRE" and looked.params["include_all_metadata"] in (
        True,
        "1",
        "true",
    )
    assert float(looked.params["oldest"]) <= at(9, 35).timestamp()
    [held] = digest_posts(fake_slack)
    assert store.digest_status("2026-12-02") == "sent"
    row = store.db.execute("SELECT ts FROM digests WHERE day = '2026-12-02'").fetchone()
    assert row[0] == held["ts"]


def test_a_5xx_is_looked_for_and_posted_by_the_next_run_once(
    fake_slack: FakeSlack, tmp_path: Path, db_target: str, seeds_dir: Path
) -> None:
    _s, store, digester = make(fake_slack, db_target)
    index_paths(store, [seeds_dir])
    fake_slack.fail_next("chat.postMessage", status=500)  # not processed, but who can tell
    with time_machine.travel(at(9, 35), tick=True), pytest.raises(SlackApiError):
        digester.run()
    assert [c.status for c in fake_slack.calls("chat.postMessage")] == [500]  # not retried
    assert len(fake_slack.calls("conversations.history")) == 1
    assert store.digest_status("2026-12-02") == "unknown"
    with time_machine.travel(at(9, 40), tick=True):  # the catch-up run, five minutes later
        assert digester.run() == "sent"
    assert len(fake_slack.calls("conversations.history")) == 2  # looked first, then posted
    assert [c.status for c in fake_slack.calls("chat.postMessage")] == [500, 200]
    assert len(digest_posts(fake_slack)) == 1


def test_an_unknown_outcome_that_cannot_be_checked_is_checked_next_time(
    fake_slack: FakeSlack, tmp_path: Path, db_target: str, seeds_dir: Path
) -> None:
    _s, store, digester = make(fake_slack, db_target)
    index_paths(store, [seeds_dir])
    fake_slack.drop_next("chat.postMessage")
    fake_slack.fail_next("conversations.history", status=503, times=3)  # first try + 2 retries
    with time_machine.travel(at(9, 35), tick=True), pytest.raises(SlackApiError):
        digester.run()
    assert store.digest_status("2026-12-02") == "unknown"
    other = make(fake_slack, db_target)[2]  # another process, the same database
    with time_machine.travel(at(9, 40), tick=True):
        assert other.run() == "sent"
    assert len(fake_slack.calls("chat.postMessage")) == 1  # found, never posted twice
    assert len(digest_posts(fake_slack)) == 1
    assert store.digest_status("2026-12-02") == "sent"


def test_nothing_to_say_posts_nothing(
    fake_slack: FakeSlack, tmp_path: Path, db_target: str
) -> None:
    _s, _store, digester = make(fake_slack, db_target)
    with time_machine.travel(at(9, 45), tick=False):
        assert digester.run() == "empty"
        assert digester.run() == "already"
    assert fake_slack.calls("chat.postMessage") == []


def test_no_channel_no_digest(fake_slack: FakeSlack, tmp_path: Path, db_target: str) -> None:
    settings = load_settings(bot_token="xoxb-test", api_url=fake_slack.base_url, db_path=db_target)
    assert Digester(settings, open_store(settings.db_path), None).run() == "no_channel"


def test_the_scheduler_posts_a_missed_digest_at_start(
    fake_slack: FakeSlack, tmp_path: Path, db_target: str, seeds_dir: Path
) -> None:
    _s, store, digester = make(fake_slack, db_target)
    index_paths(store, [seeds_dir])
    with time_machine.travel(at(15, 0), tick=True):
        digester.start()
        try:
            fake_slack.wait_for("chat.postMessage", timeout=10)
            # The run is over once the post is recorded as sent: anything more it would
            # post (twice) has been posted by then.
            wait_until(
                "the digest recorded as sent",
                lambda: store.digest_status("2026-12-02") == "sent",
            )
        finally:
            digester.stop()
    assert store.digest_status("2026-12-02") == "sent"
    assert len(fake_slack.calls("chat.postMessage")) == 1


def test_dry_run_json(tmp_path: Path, db_target: str, seeds_dir: Path) -> None:
    from click.testing import CliRunner

    from bot.cli import cli

    db = db_target
    index_paths(open_store(db), [seeds_dir])
    result = CliRunner().invoke(
        cli, ["digest", "--dry-run", "--json", "--db", db], env={"DEBRIEF_DIGEST_CHANNEL": "CX"}
    )
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert set(payload) == {"text", "blocks", "overdue"}
    assert payload["overdue"] == {"total": 0, "candidates": []}
    assert "000_9e6b3ecb0732fcf3" in json.dumps(payload)
    posted = CliRunner().invoke(
        cli, ["digest", "--post", "--db", db], env={"DEBRIEF_DIGEST_CHANNEL": ""}
    )
    assert posted.exit_code == 2 and "DEBRIEF_DIGEST_CHANNEL" in posted.output


def test_digest_buttons_and_limits(bot: Bot, tmp_path: Path) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(40):
        (folder / f"m{i:02d}.txt").write_text(
            f"岗位：工程师{i} 从业年限：{i % 9}年\n问题1：q\n考察目标：g\n回答：\n", "utf-8"
        )
    index_paths(bot.store, [folder])
    digester = Digester(
        bot.settings.model_copy(update={"digest_channel": "CHIRE"}),
        bot.store,
        web_client(bot.settings),
    )
    assert digester.run(force=True) == "sent"
    [call] = bot.fake.wait_for("chat.postMessage")
    blocks = call.json_param("blocks") if call.is_json else json.loads(call.params["blocks"])
    assert len(blocks) <= 50
    message = {"blocks": blocks}
    more = [b for b in buttons(message) if json.loads(b["value"]).get("v") == "digest"]
    assert len(more) == 3  # new, waiting, unanswered each list the rest
    bot.click(message, more[0]["action_id"], name="more", ephemeral=False, user="U555")
    [listed] = bot.replies("more")
    assert (
        listed["response_type"] == "ephemeral"
        and "11–20" not in all_text(listed)
        and "1–10" in all_text(listed)
    )
    opener = next(b for b in buttons(message) if json.loads(b["value"]).get("v") == "summary")
    bot.click(message, opener["action_id"], name="open", ephemeral=False, user="U556")
    [summary] = bot.replies("open")
    assert summary["response_type"] == "ephemeral" and summary["blocks"][0]["type"] == "header"
    assert summary.get("replace_original") is False  # the digest itself stays for everyone


# -- overdue feedback: who was asked and has not answered past the deadline ------------------

OVERDUE_A, OVERDUE_B = "000_9e6b3ecb0732fcf3", "002_72ee0a76eea41e0e"


def ask_overdue(store: Store) -> None:
    """UREV1 and UREV2 overdue on 000 (due 1 December), UREV1 on 002 (due 28 November),
    UREV3 asked about 002 but not yet due."""
    store.record_requests(
        OVERDUE_A, ["UREV1", "UREV2"], "UASKER", "2026-12-01T15:59:59.999999+00:00", "C1", "1.1"
    )
    store.record_requests(
        OVERDUE_B, ["UREV1"], "UASKER", "2026-11-28T15:59:59.999999+00:00", "C1", "1.2"
    )
    store.record_requests(
        OVERDUE_B, ["UREV3"], "UASKER", "2099-01-01T15:59:59.999999+00:00", "C1", "1.2"
    )


def test_overdue_feedback_names_people_by_name_never_by_mention(
    fake_slack: FakeSlack, tmp_path: Path, db_target: str, seeds_dir: Path
) -> None:
    fake_slack.users["UREV1"] = "Alice <Li>"
    _s, store, digester = make(fake_slack, db_target)
    index_paths(store, [seeds_dir])
    ask_overdue(store)
    with time_machine.travel(at(9, 35), tick=False):
        assert digester.run() == "sent"
    [call] = fake_slack.calls("chat.postMessage")
    blocks = call.json_param("blocks")
    text = json.dumps(blocks, ensure_ascii=False)
    title = "逾期未给结论（2），逾期最久的在前"
    assert title in text and title in call.params["text"]
    lines = [b["text"]["text"] for b in blocks if b.get("type") == "section"]
    overdue = [line for line in lines if "逾期：" in line]
    # the one overdue longest first; each reviewer by display name (escaped), else the id
    assert overdue == [
        "*002_72ee0a76eea41e0e · 神经网络模型设计师*\n逾期：Alice &lt;Li&gt;（2026-11-28 截止）",
        "*000_9e6b3ecb0732fcf3 · 视频开发工程师*\n"
        "逾期：Alice &lt;Li&gt;（2026-12-01 截止）、UREV2（2026-12-01 截止）",
    ]
    assert "<@" not in text and "<@" not in call.params["text"]  # nobody is pinged
    assert "UREV3" not in text  # asked, not overdue
    # the section sits after the candidates waiting for a decision
    assert lines.index(f"*{title}*") > next(i for i, s in enumerate(lines) if "等待结论" in s)
    # a decision closes the request: the next digest no longer lists it
    store.record_post("C1", "1.2", OVERDUE_B, "verdict")
    store.record_reply("C1", "9.1", "1.2", OVERDUE_B, "UREV1", "通过")
    with time_machine.travel(at(9, 35, day=3), tick=False):
        assert digester.run() == "sent"
    second = json.dumps(
        fake_slack.calls("chat.postMessage")[1].json_param("blocks"), ensure_ascii=False
    )
    assert "逾期未给结论（1）" in second and "神经网络模型设计师*\\n逾期" not in second


def test_overdue_alone_is_worth_a_digest(
    fake_slack: FakeSlack, tmp_path: Path, db_target: str
) -> None:
    folder = tmp_path / "one"
    folder.mkdir()
    (folder / "solo.txt").write_text("岗位：测试工程师\n问题1：q\n回答：a\n", "utf-8")
    _s, store, digester = make(fake_slack, db_target)
    with time_machine.travel(at(9, 0), tick=False):  # indexed before the first digest
        index_paths(store, [folder])
    with time_machine.travel(at(9, 35), tick=False):
        assert digester.run() == "sent"
    store.record_outcome("solo", "hold", "", "UBOSS")  # nobody waits, nothing is new
    with time_machine.travel(at(9, 35, day=3), tick=False):
        assert digester.compose()[0] is None
    store.record_requests(
        "solo", ["UREV1"], "UASKER", "2026-12-02T15:59:59.999999+00:00", "C1", "1.1"
    )
    with time_machine.travel(at(9, 35, day=3), tick=False):
        message, _day = digester.compose()
    assert message is not None and "逾期未给结论（1）" in message.text


def test_dry_run_json_shows_overdue_feedback(
    tmp_path: Path, db_target: str, seeds_dir: Path
) -> None:
    from click.testing import CliRunner

    from bot.cli import cli

    store = open_store(db_target)
    index_paths(store, [seeds_dir])
    ask_overdue(store)
    result = CliRunner().invoke(cli, ["digest", "--dry-run", "--json", "--db", db_target])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert set(payload) == {"text", "blocks", "overdue"}
    assert payload["overdue"] == {
        "total": 2,
        "candidates": [
            {
                "candidate_id": OVERDUE_B,
                "name": None,
                "position": "神经网络模型设计师",
                "reviewers": [
                    {
                        "reviewer": "UREV1",
                        "asked_by": "UASKER",
                        "due_at": "2026-11-28T15:59:59.999999+00:00",
                    }
                ],
            },
            {
                "candidate_id": OVERDUE_A,
                "name": None,
                "position": "视频开发工程师",
                "reviewers": [
                    {
                        "reviewer": "UREV1",
                        "asked_by": "UASKER",
                        "due_at": "2026-12-01T15:59:59.999999+00:00",
                    },
                    {
                        "reviewer": "UREV2",
                        "asked_by": "UASKER",
                        "due_at": "2026-12-01T15:59:59.999999+00:00",
                    },
                ],
            },
        ],
    }
    assert "逾期未给结论（2）" in payload["text"]


def test_every_section_full_still_fits_slacks_limits(bot: Bot, tmp_path: Path) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    long = "分布式存储与计算平台高级开发工程师" * 3
    for i in range(40):
        (folder / f"m{i:02d}.txt").write_text(
            f"岗位：{long}{i} 从业年限：{i % 9}年\n问题1：q\n考察目标：g\n回答：\n", "utf-8"
        )
    index_paths(bot.store, [folder])
    reviewers = [f"UREV{i}" for i in range(8)]
    for i, c in enumerate(bot.store.list_candidates()):
        if c.id.startswith("m"):
            bot.store.record_requests(
                c.id, reviewers, "UASKER", "2026-11-28T15:59:59.999999+00:00", "C1", f"1.{i}"
            )
    for i in range(5):  # decisions recorded since the last digest
        cid = f"m{i:02d}"
        bot.store.record_post("C1", f"1.{cid}", cid, "verdict")
        bot.store.record_reply("C1", f"2.{cid}", f"1.{cid}", cid, "UREV9", "通过")
    digester = Digester(
        bot.settings.model_copy(update={"digest_channel": "CHIRE"}),
        bot.store,
        web_client(bot.settings),
    )
    with time_machine.travel(at(9, 35), tick=True):
        assert digester.run(force=True) == "sent"
    [call] = bot.fake.wait_for("chat.postMessage")
    assert call.ok, call.error
    blocks = call.json_param("blocks")
    assert len(blocks) <= 50
    assert len(json.dumps(blocks, ensure_ascii=False, separators=(",", ":"))) <= 12_000
    text = json.dumps(blocks, ensure_ascii=False)
    for title in ("新面试记录", "等待结论", "有未回答的问题", "新记录的结论", "逾期未给结论（40）"):
        assert title in text
    lines = [b["text"]["text"] for b in blocks if b.get("type") == "section"]
    overdue = [line for line in lines if "逾期：" in line]
    assert overdue and all("等另外 3 人" in line for line in overdue)  # 5 named of 8
    more = [
        e["text"]
        for b in blocks
        if b.get("type") == "context"
        for e in b["elements"]
        if e["text"].startswith("还有")
    ]
    assert more == [f"还有 {40 - len(overdue)} 位"]
    assert not any(b["text"]["text"].endswith("…") for b in blocks if b.get("type") == "section")
