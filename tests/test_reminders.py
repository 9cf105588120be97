"""Reminders of overdue requests: one DM a reviewer a working day, with the decision
buttons, sent once whatever restarts and replicas, through the strict fake Slack, on
SQLite and PostgreSQL. The clock is handed in (`now`), as the digest's is."""

from __future__ import annotations

import json
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine
from support.cli import Ran
from support.cli import debrief as run_debrief
from support.fake_slack import FakeSlack
from support.signed import action_body, block_actions_payload, post_signed
from support.slackbot import SECRET, Bot, all_text
from support.waiting import wait_until

from bot.app import web_client
from bot.remind import Reminder
from bot.settings import Settings, load_settings
from handlers.views.decide import Target
from store.factory import open_store
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

ROOT = Path(__file__).resolve().parent.parent
SHANGHAI = ZoneInfo("Asia/Shanghai")
A, B = "000_9e6b3ecb0732fcf3", "002_72ee0a76eea41e0e"
THREAD_A, THREAD_B = "1700000000.000100", "1700000000.000200"
# the end of 1 and of 28 November 2026 (Tuesday, Saturday) in Shanghai, as UTC
DUE_DEC_1 = "2026-12-01T15:59:59.999999+00:00"
DUE_NOV_28 = "2026-11-28T15:59:59.999999+00:00"
LATER = "2099-01-01T15:59:59.999999+00:00"


def at(day: int, hour: int, minute: int = 0) -> datetime:
    """A moment of December 2026 in Shanghai (the 2nd is a Wednesday, the 5th a Saturday)."""
    return datetime(2026, 12, day, hour, minute, tzinfo=SHANGHAI)


def settings_for(fake: FakeSlack, db: str, **extra: Any) -> Settings:
    return load_settings(bot_token="xoxb-test", api_url=fake.base_url, db_path=db, **extra)


def reminder(fake: FakeSlack, db: str, **extra: Any) -> Reminder:
    """A sender as one process (or replica) has it: its own store, its own claimer."""
    settings = settings_for(fake, db, **extra)
    return Reminder(settings, open_store(db), web_client(settings))


def ask(store: Any, cid: str, reviewers: list[str], due: str, thread: str) -> None:
    store.record_post("C123", thread, cid, "verdict")
    assert store.record_requests(cid, reviewers, "UASKER", due, "C123", thread)


@pytest.fixture
def asked(db_target: str, seeds_dir: Path) -> str:
    """UREV1 overdue on two candidates, UREV2 on one, UREV3 asked but not yet due."""
    store = open_store(db_target)
    index_paths(store, [seeds_dir])
    ask(store, A, ["UREV1", "UREV2"], DUE_DEC_1, THREAD_A)
    ask(store, B, ["UREV1"], DUE_NOV_28, THREAD_B)
    ask(store, B, ["UREV3"], LATER, THREAD_B)
    store.close()
    return db_target


def dms(fake: FakeSlack) -> dict[str, list[dict[str, Any]]]:
    """The reminders each user holds in their DM with the bot."""
    return {
        user: [m for m in fake.messages(fake.dm_channel(user)) if m.get("metadata")]
        for user in ("UREV1", "UREV2", "UREV3")
    }


def sent(fake: FakeSlack) -> list[str]:
    return [fake.dms[c.params["channel"]] for c in fake.calls("chat.postMessage") if c.ok]


def statuses(run: Any) -> dict[str, str]:
    return {r.reviewer: r.status for r in run.reminders}


# -- what a reminder says, and its buttons ----------------------------------------------


def test_one_dm_a_reviewer_lists_overdue_requests_with_buttons_that_decide(
    bot: Bot, seeds_dir: Path
) -> None:
    bot.command("点评 000", name="verdict")
    verdict = bot.fake.wait_for("chat.postMessage")[0]
    ts = wait_until(
        "the verdict post recorded",
        lambda: bot.store.verdict_post(A, "C123"),
    )
    assert verdict.params["channel"] == "C123"
    assert bot.store.record_requests(A, ["UREV1", "UREV2"], "UASKER", DUE_DEC_1, "C123", ts)
    ask(bot.store, B, ["UREV1"], DUE_NOV_28, THREAD_B)
    ask(bot.store, B, ["UREV3"], LATER, THREAD_B)
    bot.fake.users["UASKER"] = "Hiring Manager"

    run = Reminder(bot.settings, bot.store, web_client(bot.settings)).run(at(2, 10, 30))
    assert statuses(run) == {"UREV1": "sent", "UREV2": "sent"}  # UREV3 is not overdue
    held = dms(bot.fake)
    assert [len(held[u]) for u in ("UREV1", "UREV2", "UREV3")] == [1, 1, 0]
    [first] = held["UREV1"]
    text = all_text(first)
    # the oldest deadline first: B (28 Nov, 4 days overdue), then A (1 Dec, 1 day)
    assert text.index("神经网络模型设计师") < text.index("视频开发工程师")
    assert "<@UASKER> 请你给结论 · 2026-11-28 截止 · 已逾期 4 天" in text
    assert "<@UASKER> 请你给结论 · 2026-12-01 截止 · 已逾期 1 天" in text
    assert "002_72ee0a76eea41e0e · 神经网络模型设计师" in text
    assert first["text"] == "你有 2 位候选人的结论已逾期"
    assert first["metadata"] == {
        "event_type": "debrief_reminder",
        "event_payload": {"day": "2026-12-02", "reviewer": "UREV1"},
    }
    targeted = [b for b in first["blocks"] if str(b.get("block_id", "")).startswith("decide@")]
    assert [Target.from_block_id(b["block_id"]) for b in targeted] == [
        Target(B, "C123", THREAD_B),
        Target(A, "C123", ts),
    ]
    # a click in the DM opens the decision modal for the verdict thread the button names
    dm = bot.fake.dm_channel("UREV1")
    action = {
        "action_id": "decide:hold",
        "block_id": targeted[1]["block_id"],
        "type": "button",
        "value": "hold",
        "text": {"type": "plain_text", "text": "待定"},
        "action_ts": str(time.time()),
    }
    payload = block_actions_payload(
        "UREV1",
        {"type": "message", "message_ts": first["ts"], "channel_id": dm, "is_ephemeral": False},
        [action],
        trigger_id=bot.fake.trigger_id(),
        channel={"id": dm, "name": "directmessage"},
        message={"ts": first["ts"], "type": "message"},
        response_url=bot.fake.response_url("decide"),
    )
    assert post_signed(bot.events_url, action_body(payload), SECRET)[0] == 200
    [opened] = bot.fake.wait_for("views.open")
    assert Target.from_metadata(opened.json_param("view")["private_metadata"]) == Target(
        A, "C123", ts
    )
    # each candidate reminded of is audited, by the bot, in the DM
    expected = {
        ("debrief", "remind:UREV1", B, dm),
        ("debrief", "remind:UREV1", A, dm),
        ("debrief", "remind:UREV2", A, bot.fake.dm_channel("UREV2")),
    }
    wait_until(
        "the reminders audited",
        lambda: (
            expected <= {(e.who, e.what, e.candidate, e.channel) for e in bot.store.audit_log()}
        ),
    )


def test_many_overdue_requests_fit_in_one_message_and_the_rest_are_counted(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    long_position = "超长岗位名称" * 30
    for i in range(30):
        (folder / f"m{i:02d}.txt").write_text(
            f"岗位：<@UEVIL>{long_position}{i}\n问题1：q\n回答：a\n", "utf-8"
        )
    store = open_store(db_target)
    index_paths(store, [folder])
    for i, c in enumerate(store.list_candidates()):
        thread = f"1700000000.{i:06d}"
        ask(store, c.id, ["UREV1"], DUE_DEC_1, thread)
    run = reminder(fake_slack, db_target).run(at(2, 10))
    assert statuses(run) == {"UREV1": "sent"}
    assert len(run.reminders[0].items) == 30
    [call] = fake_slack.calls("chat.postMessage")
    blocks = call.json_param("blocks")
    assert len(blocks) <= 50
    assert len(json.dumps(blocks, ensure_ascii=False, separators=(",", ":"))) <= 13_200
    text = all_text({"blocks": blocks})
    assert "<@UEVIL>" not in text and "&lt;@UEVIL&gt;" in text  # a name cannot ping
    listed = [b for b in blocks if str(b.get("block_id", "")).startswith("decide@")]
    assert 1 <= len(listed) <= 10
    assert f"还有 {30 - len(listed)} 位没有列出" in text
    wait_until(
        "each listed candidate audited",
        lambda: len([e for e in store.audit_log() if e.what == "remind:UREV1"]) == len(listed),
    )


# -- once a reviewer a day -------------------------------------------------------------------


def test_once_a_day_across_a_restart_and_two_replicas(fake_slack: FakeSlack, asked: str) -> None:
    first = reminder(fake_slack, asked)
    assert statuses(first.run(at(2, 10, 0))) == {"UREV1": "sent", "UREV2": "sent"}
    assert statuses(first.run(at(2, 10, 5))) == {"UREV1": "already_sent", "UREV2": "already_sent"}
    restarted = reminder(fake_slack, asked)  # a new process, the same database
    assert statuses(restarted.run(at(2, 15, 0))) == {
        "UREV1": "already_sent",
        "UREV2": "already_sent",
    }
    assert sorted(sent(fake_slack)) == ["UREV1", "UREV2"]

    # the next working day, two replicas race: each reviewer is reminded once
    replicas = [reminder(fake_slack, asked) for _ in range(2)]
    results: list[dict[str, str]] = []
    threads = [
        threading.Thread(target=lambda r=r: results.append(statuses(r.run(at(3, 10, 0)))))
        for r in replicas
    ]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for reviewer in ("UREV1", "UREV2"):
        assert sorted(r[reviewer] for r in results) == ["already_sent", "sent"]
    assert sorted(sent(fake_slack)) == ["UREV1", "UREV1", "UREV2", "UREV2"]


def test_working_days_at_the_remind_time_in_the_teams_zone(
    fake_slack: FakeSlack, asked: str
) -> None:
    r = reminder(fake_slack, asked)
    assert r.run(at(5, 11)).outcome == "weekend"  # Saturday
    assert r.run(at(6, 11)).outcome == "weekend"  # Sunday
    assert r.run(at(2, 9, 59)).outcome == "not_due"
    # Saturday 07:30 in Shanghai is Friday 23:30 UTC: the team's weekend
    assert r.run(datetime(2026, 12, 4, 23, 30, tzinfo=UTC)).outcome == "weekend"
    assert fake_slack.calls("conversations.open") == []
    # Monday 10:00 in Shanghai is 02:00 UTC, hours before 10:00 there
    assert r.run(datetime(2026, 12, 7, 2, 0, tzinfo=UTC)).outcome == "ran"
    assert sorted(sent(fake_slack)) == ["UREV1", "UREV2"]
    later = reminder(fake_slack, asked, remind_time="16:30")
    assert later.run(at(8, 16, 29)).outcome == "not_due"
    assert later.run(at(8, 16, 30)).outcome == "ran"
    off = reminder(fake_slack, asked, remind_time="off")
    assert off.run(at(9, 12)).outcome == "off"
    assert len(sent(fake_slack)) == 4


def test_the_day_and_the_deadline_are_the_teams_days(fake_slack: FakeSlack, asked: str) -> None:
    r = reminder(fake_slack, asked)
    # 23:59 on 1 December in Shanghai: A's deadline (the end of that day) has not passed
    before = r.run(at(1, 23, 59), force=True)
    assert {rem.reviewer: len(rem.items) for rem in before.reminders} == {"UREV1": 1}
    assert before.day == "2026-12-01"
    # 00:30 on the 2nd in Shanghai (still the 1st in UTC): a new day, A is overdue
    after = r.run(at(2, 0, 30), force=True)
    assert after.day == "2026-12-02"
    assert statuses(after) == {"UREV1": "sent", "UREV2": "sent"}
    # 10:00 in Shanghai is the 2nd in UTC too: the same day there, not reminded again
    assert statuses(r.run(at(2, 10), force=True)) == {
        "UREV1": "already_sent",
        "UREV2": "already_sent",
    }
    assert sorted(sent(fake_slack)) == ["UREV1", "UREV1", "UREV2"]
    texts = [all_text(m) for m in dms(fake_slack)["UREV2"]]
    assert "2026-12-01 截止 · 已逾期 1 天" in texts[0]


# -- when Slack says no, or nothing ---------------------------------------------------------


def test_a_429_is_waited_out_and_sent_once(fake_slack: FakeSlack, asked: str) -> None:
    fake_slack.fail_next("chat.postMessage", status=429, retry_after=1)
    run = reminder(fake_slack, asked).run(at(2, 10))
    assert statuses(run) == {"UREV1": "sent", "UREV2": "sent"}
    assert [c.status for c in fake_slack.calls("chat.postMessage")] == [429, 200, 200]
    assert sorted(sent(fake_slack)) == ["UREV1", "UREV2"]


def test_a_failed_send_is_given_back_and_sent_by_a_later_run(
    fake_slack: FakeSlack, asked: str
) -> None:
    store = open_store(asked)
    fake_slack.fail_next("chat.postMessage", status=200, error="internal_error")
    r = reminder(fake_slack, asked)
    first = r.run(at(2, 10))
    assert statuses(first) == {"UREV1": "failed", "UREV2": "sent"}
    assert first.failed
    assert store.reminder_status("UREV1", "2026-12-02") is None  # released
    assert store.reminder_status("UREV2", "2026-12-02") == "sent"
    fake_slack.fail_next("conversations.open", status=200, error="internal_error")
    assert statuses(r.run(at(2, 10, 5))) == {"UREV1": "failed", "UREV2": "already_sent"}
    assert store.reminder_status("UREV1", "2026-12-02") is None
    assert statuses(reminder(fake_slack, asked).run(at(2, 10, 10))) == {
        "UREV1": "sent",
        "UREV2": "already_sent",
    }
    assert sorted(sent(fake_slack)) == ["UREV1", "UREV2"]
    assert fake_slack.calls("conversations.history") == []  # a refusal is not an unknown


def test_a_dropped_send_is_looked_for_not_sent_twice(fake_slack: FakeSlack, asked: str) -> None:
    store = open_store(asked)
    fake_slack.drop_next("chat.postMessage")  # Slack takes it, the answer never arrives
    run = reminder(fake_slack, asked).run(at(2, 10))
    assert statuses(run) == {"UREV1": "sent", "UREV2": "sent"}
    [looked] = fake_slack.calls("conversations.history")
    assert looked.params["channel"] == fake_slack.dm_channel("UREV1")
    assert len(fake_slack.calls("chat.postMessage")) == 2
    assert [len(v) for v in dms(fake_slack).values()] == [1, 1, 0]
    held = dms(fake_slack)["UREV1"][0]["ts"]
    row = store.db.execute(
        "SELECT ts FROM reminders WHERE reviewer = 'UREV1' AND day = '2026-12-02'"
    ).fetchone()
    assert row[0] == held


# -- who is not reminded ---------------------------------------------------------------------


def test_reviewers_who_may_not_see_candidates_are_not_reminded(
    fake_slack: FakeSlack, asked: str
) -> None:
    fake_slack.user_teams["UREV2"] = "TOTHERORG"  # Slack Connect: another organisation
    store = open_store(asked)
    ask(store, A, ["UREV4"], DUE_DEC_1, THREAD_A)
    fake_slack.fail_next("users.info", status=200, error="internal_error")  # UREV1: unknown
    r = reminder(fake_slack, asked, allowed_users_raw="UREV1,UREV2")
    run = r.run(at(2, 10))
    assert statuses(run) == {"UREV1": "failed", "UREV2": "refused", "UREV4": "refused"}
    assert fake_slack.calls("conversations.open") == []
    run = r.run(at(2, 10, 5))  # the next run: UREV1 is known now; the refused stay refused
    assert statuses(run) == {"UREV1": "sent", "UREV2": "refused", "UREV4": "refused"}
    assert sent(fake_slack) == ["UREV1"]
    assert store.reminder_status("UREV2", "2026-12-02") is None
    asked_about = [c.params["user"] for c in fake_slack.calls("users.info")]
    assert asked_about.count("UREV2") == 1  # refused today: Slack is not asked every run
    # allowed through a user group, read from Slack when the reminders run
    fake_slack.usergroups["SREVIEWERS"] = ["UREV4"]
    again = reminder(fake_slack, asked, allowed_users_raw="UREV1,SREVIEWERS").run(at(2, 10, 5))
    assert statuses(again)["UREV4"] == "sent"


# -- serve -------------------------------------------------------------------------------------


def test_serve_starts_the_reminders_and_off_starts_nothing(
    fake_slack: FakeSlack, asked: str
) -> None:
    from bot.serving import Serving

    def serving(**extra: Any) -> Serving:
        settings = settings_for(fake_slack, asked, signing_secret=SECRET, **extra)
        return Serving(settings, "http")

    off = serving(remind_time="off")
    try:
        off._start_slack_parts(None)
        assert not [job for job in off.jobs if isinstance(job, Reminder)]
    finally:
        off.stop()
    # a Wednesday afternoon: today's reminders were missed, and go out at start
    with time_machine.travel(at(2, 15), tick=True):
        on = serving()
        try:
            on._start_slack_parts(None)
            wait_until(
                "both reminders recorded as sent",
                lambda: (
                    [on.store.reminder_status(u, "2026-12-02") for u in ("UREV1", "UREV2")]
                    == ["sent", "sent"]
                ),
            )
        finally:
            on.stop()
    assert sorted(sent(fake_slack)) == ["UREV1", "UREV2"]


# -- the command line --------------------------------------------------------------------------


def debrief(fake: FakeSlack, db: str, *args: str, **env: str) -> Ran:
    said = {
        "DEBRIEF_DB": db,
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_API_URL": fake.base_url,
        "DEBRIEF_LOCALE": "en",
    }
    return run_debrief(*args, cwd=ROOT, env=said | env)


REQUEST_KEYS = {
    "candidate_id",
    "name",
    "position",
    "asked_by",
    "asked_at",
    "due_at",
    "channel",
    "thread_ts",
}


def test_remind_dry_run_sends_and_claims_nothing_and_post_sends_once(
    fake_slack: FakeSlack, asked: str
) -> None:
    today = datetime.now(SHANGHAI).date().isoformat()
    dry = debrief(fake_slack, asked, "remind", "--dry-run", "--json")
    assert dry.returncode == 0, dry.stderr
    payload = json.loads(dry.stdout)
    assert set(payload) == {"day", "reminders"} and payload["day"] == today
    assert [(r["reviewer"], r["status"]) for r in payload["reminders"]] == [
        ("UREV1", "would_send"),
        ("UREV2", "would_send"),
    ]
    for r in payload["reminders"]:
        assert set(r) == {"reviewer", "status", "requests"}
        for item in r["requests"]:
            assert set(item) == REQUEST_KEYS
    assert [q["candidate_id"] for q in payload["reminders"][0]["requests"]] == [B, A]
    assert payload["reminders"][0]["requests"][0] | {"asked_at": "-"} == {
        "candidate_id": B,
        "name": None,
        "position": "神经网络模型设计师",
        "asked_by": "UASKER",
        "asked_at": "-",
        "due_at": DUE_NOV_28,
        "channel": "C123",
        "thread_ts": THREAD_B,
    }
    assert fake_slack.calls("conversations.open") == []
    assert fake_slack.calls("chat.postMessage") == []
    assert open_store(asked).reminder_status("UREV1", today) is None
    text = debrief(fake_slack, asked, "remind", "--dry-run")
    assert text.returncode == 0
    assert "UREV1: would be reminded" in text.stdout
    assert "神经网络模型设计师 · asked by UASKER · due 2026-11-28 ·" in text.stdout

    posted = debrief(fake_slack, asked, "remind", "--post", "--json", DEBRIEF_REMIND_TIME="off")
    assert posted.returncode == 0, posted.stderr
    assert [r["status"] for r in json.loads(posted.stdout)["reminders"]] == ["sent", "sent"]
    again = debrief(fake_slack, asked, "remind", "--post")
    assert again.returncode == 0 and again.stdout.count("already reminded today") == 2
    assert sorted(sent(fake_slack)) == ["UREV1", "UREV2"]


def test_remind_command_errors(fake_slack: FakeSlack, asked: str) -> None:
    neither = debrief(fake_slack, asked, "remind")
    assert neither.returncode == 2 and "--post" in neither.stderr
    assert "Traceback" not in neither.stderr
    no_token = debrief(fake_slack, asked, "remind", "--post", SLACK_BOT_TOKEN="")
    assert no_token.returncode == 2 and "SLACK_BOT_TOKEN" in no_token.stderr
    assert len(no_token.stderr.strip().splitlines()) == 1
    fake_slack.fail_next("chat.postMessage", status=200, error="internal_error")
    failed = debrief(fake_slack, asked, "remind", "--post", "--json")
    assert failed.returncode == 1
    assert sorted(r["status"] for r in json.loads(failed.stdout)["reminders"]) == [
        "failed",
        "sent",
    ]
