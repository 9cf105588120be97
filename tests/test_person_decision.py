"""The hiring decision belongs to the person (issue 45, items 3-6), on SQLite and
PostgreSQL: it stays with the person when one of their interviews is forgotten (`debrief
forget`, `debrief retention --apply`); recorded through an interview, it stays with that
interview's person after a split; a merge and a split delete no decision (each side gets
its own back), and each change of a person's current decision is an event for the ATS,
in order; a merge that brings a decision in closes the person's open requests (the card,
the reminders, the digest, App Home). The command line in-process, and signed HTTP
requests against the strict fake Slack."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.cli import debrief as run_debrief
from support.fake_slack import FakeSlack
from support.slackbot import Bot, all_text
from support.waiting import wait_until
from test_home import open_home, section_of
from test_requests import CHANNEL, CID, OTHER, TUESDAY, Clock, command, requests, started

from store.factory import open_store
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

ROOT = Path(__file__).resolve().parent.parent
HOOK = {
    "DEBRIEF_WEBHOOK_URL": "https://ats.example.com/hook",
    "DEBRIEF_WEBHOOK_SECRET": "whsec-0f1e2d3c4b5a69788796a5b4c3d2e1f0",
}


def transcript(name: str, position: str, date: str, round_: str, verdict: str) -> str:
    return (
        f"姓名：{name}\n岗位：{position}\n轮次：{round_}\n面试日期：{date}\n面试官：李四\n"
        f"问题1：讲讲 Redis 的持久化？\n回答：RDB 和 AOF。\n点评：{verdict}\n"
    )


FILES = {
    "wang1": transcript("王小明", "后端工程师", "2020-03-02", "一面", "基础不错。"),
    "wang2": transcript("王小明", "后端工程师", "2026-11-25", "二面", "项目经验扎实。"),
    "li1": transcript("李雷", "数据工程师", "2026-11-21", "一面", "可以。"),
}


def debrief(db: str, *args: str, **env: str) -> Any:
    return run_debrief(*args, cwd=ROOT, env={"DEBRIEF_DB": db, "DEBRIEF_LOCALE": "en", **env})


def ok(db: str, *args: str, **env: str) -> str:
    done = debrief(db, *args, **env)
    assert done.returncode == 0, done.stderr
    return str(done.stdout)


def outcome_of(db: str, interview: str) -> Any:
    return json.loads(ok(db, "show", interview, "--json"))["outcome"]


def keys(db: str) -> dict[str, str]:
    return {r["id"]: r["candidate_key"] for r in json.loads(ok(db, "list", "--json"))}


def exported(db: str) -> dict[str, Any]:
    return {r["id"]: r["outcome"] for r in json.loads(ok(db, "export", "--format", "json"))}


def sent(db: str) -> list[dict[str, Any]]:
    """The events the ATS is sent, in the order they go (taken: a second call has none)."""
    store = open_store(db)
    try:
        taken = []
        while found := store.claim_webhook_events("test", 600, limit=50):
            taken += found
            for event in found:
                assert store.webhook_delivered(event.event_id, "test")
        return [json.loads(e.body) for e in taken]
    finally:
        store.close()


def decide(db: str, interview: str, decision: Any, note: str = "") -> None:
    """A hiring decision recorded through `interview`, as `/candidate 结论` records it."""
    store = open_store(db)
    try:
        recorded, _ = store.record_outcome(interview, decision, note, "ULEAD", webhook=True)
        assert recorded
    finally:
        store.close()


@pytest.fixture
def indexed(db_target: str, tmp_path: Path) -> str:
    folder = tmp_path / "t"
    folder.mkdir()
    for name, text in FILES.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    out = json.loads(ok(db_target, "index", str(folder), "--json"))
    assert sorted(out["indexed"]) == sorted(FILES)
    k = keys(db_target)
    assert k["wang1"] == k["wang2"] != k["li1"]
    return db_target


# -- forget, retention: the decision stays with the person -------------------------------


def test_forgetting_the_interview_it_was_recorded_through_keeps_the_persons_decision(
    indexed: str,
) -> None:
    decide(indexed, "wang1", "hire", "强烈推荐")
    [first] = sent(indexed)
    assert (first["id"], first["outcome"], first["sequence"]) == ("wang1", "hire", 1)
    ok(indexed, "forget", "wang1", "--yes", **HOOK)
    kept = outcome_of(indexed, "wang2")
    assert kept is not None and (kept["decision"], kept["note"]) == ("hire", "强烈推荐")
    assert json.loads(ok(indexed, "loop", "wang2", "--json"))["outcome"]["decision"] == "hire"
    assert exported(indexed) == {"wang2": "hire", "li1": None}
    # the ATS hears it again, naming the interview that holds it now (wang1's are erased)
    [again] = sent(indexed)
    assert (again["id"], again["outcome"], again["candidate_key"]) == (
        "wang2",
        "hire",
        keys(indexed)["wang2"],
    )
    assert again["sequence"] > first["sequence"]
    # the last interview forgotten: the person, and their decision, are gone
    ok(indexed, "forget", "wang2", "--yes", **HOOK)
    assert exported(indexed) == {"li1": None} and sent(indexed) == []


def test_retention_dropping_the_older_interview_keeps_the_persons_decision(indexed: str) -> None:
    decide(indexed, "wang1", "reject", "沟通不清楚")
    sent(indexed)
    done = json.loads(ok(indexed, "retention", "--apply", "--days", "365", "--json", **HOOK))
    assert [e["id"] for e in done["forgotten"]] == ["wang1"]
    kept = outcome_of(indexed, "wang2")
    assert kept is not None and (kept["decision"], kept["note"]) == ("reject", "沟通不清楚")
    assert [(e["id"], e["outcome"]) for e in sent(indexed)] == [("wang2", "reject")]


def test_a_newer_decision_of_another_interview_stays_the_current_one_after_a_forget(
    indexed: str,
) -> None:
    decide(indexed, "wang2", "hold")
    decide(indexed, "wang1", "hire")  # the newest, through the interview forgotten
    ok(indexed, "forget", "wang1", "--yes")
    assert outcome_of(indexed, "wang2")["decision"] == "hire"


# -- merge and split: no decision deleted, each change an event ---------------------------


def test_merge_then_split_keeps_each_persons_decision_and_tells_the_ats_in_order(
    indexed: str,
) -> None:
    k = keys(indexed)
    decide(indexed, "wang2", "reject", "不合适")
    decide(indexed, "li1", "hire", "很优秀")  # the newer
    recorded = sent(indexed)
    assert [(e["id"], e["outcome"], e["sequence"]) for e in recorded] == [
        ("wang2", "reject", 1),
        ("li1", "hire", 1),
    ]

    ok(indexed, "link", "wang1", "li1", **HOOK)
    assert {i: (outcome_of(indexed, i) or {}).get("decision") for i in FILES} == {
        "wang1": "hire",
        "wang2": "hire",
        "li1": "hire",
    }
    [merged] = sent(indexed)  # the merged person's current decision: the newest
    assert (merged["id"], merged["outcome"], merged["candidate_key"]) == ("li1", "hire", k["wang1"])
    assert merged["sequence"] == 2

    ok(indexed, "unlink", "li1", **HOOK)
    split = keys(indexed)
    assert split["wang1"] == split["wang2"] == k["wang1"] != split["li1"]
    # each side has its own decision back, with its note
    assert (outcome_of(indexed, "wang1")["decision"], outcome_of(indexed, "wang2")["note"]) == (
        "reject",
        "不合适",
    )
    assert (outcome_of(indexed, "li1")["decision"], outcome_of(indexed, "li1")["note"]) == (
        "hire",
        "很优秀",
    )
    assert exported(indexed) == {"wang1": "reject", "wang2": "reject", "li1": "hire"}
    events = {e["id"]: e for e in sent(indexed)}
    assert sorted(events) == ["li1", "wang2"]
    assert (events["wang2"]["outcome"], events["wang2"]["candidate_key"]) == ("reject", k["wang1"])
    assert (events["li1"]["outcome"], events["li1"]["candidate_key"]) == ("hire", split["li1"])
    assert all(e["sequence"] > merged["sequence"] for e in events.values())

    # merged again, a decision through wang1, split again: li1 keeps its own
    ok(indexed, "link", "wang1", "li1", **HOOK)
    decide(indexed, "wang1", "hold")
    ok(indexed, "unlink", "li1", **HOOK)
    assert outcome_of(indexed, "li1")["decision"] == "hire"
    assert outcome_of(indexed, "wang2")["decision"] == "hold"


def test_one_persons_events_go_in_order_whichever_interview_each_names(indexed: str) -> None:
    decide(indexed, "wang2", "hold")
    store, other = open_store(indexed), open_store(indexed)
    try:
        [first] = store.claim_webhook_events("one", 600)  # in flight on one replica
        decide(indexed, "wang1", "hire")  # through the person's other interview
        assert other.claim_webhook_events("two", 600) == []  # waits for the one in flight
        assert store.webhook_delivered(first.event_id, "one")
        [second] = other.claim_webhook_events("two", 600)
        assert json.loads(second.body)["outcome"] == "hire"
        assert second.sequence > first.sequence
    finally:
        store.close()
        other.close()


def test_a_split_leaving_one_side_without_a_decision_tells_the_ats_it_has_none(
    indexed: str,
) -> None:
    decide(indexed, "wang2", "hire")
    sent(indexed)
    ok(indexed, "unlink", "wang2", **HOOK)
    assert outcome_of(indexed, "wang1") is None
    assert outcome_of(indexed, "wang2")["decision"] == "hire"
    events = {e["id"]: e for e in sent(indexed)}
    assert events["wang1"]["outcome"] is None and events["wang2"]["outcome"] == "hire"
    assert events["wang2"]["candidate_key"] == keys(indexed)["wang2"] != keys(indexed)["wang1"]
    # without a webhook, nothing is written for the ATS
    ok(indexed, "link", "wang1", "wang2")
    assert sent(indexed) == []


def test_an_interview_whose_file_now_names_a_decided_person_has_its_requests_closed(
    indexed: str, tmp_path: Path
) -> None:
    store = open_store(indexed)
    try:
        assert store.record_requests(
            "li1", ["UREV"], "UASK", "2099-01-01T00:00:00+00:00", "C1", "1.1"
        )
    finally:
        store.close()
    decide(indexed, "wang1", "reject")
    # li1's file corrected: it is 王小明's third interview
    (tmp_path / "t" / "li1.txt").write_text(
        transcript("王小明", "后端工程师", "2026-11-28", "三面", "可以。"), encoding="utf-8"
    )
    assert json.loads(ok(indexed, "index", str(tmp_path / "t"), "--json"))["indexed"] == ["li1"]
    assert outcome_of(indexed, "li1")["decision"] == "reject"
    store = open_store(indexed)
    try:
        [asked] = store.requests_for("li1")
        assert asked.closed_by == "outcome" and not asked.open
        assert store.overdue_requests("2100-01-01T00:00:00+00:00") == []
    finally:
        store.close()


# -- through Slack ------------------------------------------------------------------------

ZHANG_A = transcript("张伟", "后端工程师", "2026-11-02", "一面", "张伟A：基础一般。")
ZHANG_B = transcript("张伟", "后端工程师", "2026-11-09", "一面", "张伟B：很优秀。")


@pytest.fixture
def team(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[Bot]:
    fake_slack.users.update({"ULEAD": "Lead"})
    bot = started(
        fake_slack,
        db_target,
        tmp_path,
        Clock(TUESDAY),
        locale="zh",
        deciders_raw="ULEAD",
        webhook_url=HOOK["DEBRIEF_WEBHOOK_URL"],
        webhook_secret=HOOK["DEBRIEF_WEBHOOK_SECRET"],
    )
    try:
        yield bot
    finally:
        bot.server.stop()


def test_a_decision_recorded_through_an_interview_stays_with_its_person_after_a_split(
    team: Bot, tmp_path: Path
) -> None:
    folder = tmp_path / "zhang"
    folder.mkdir()
    (folder / "zw_a.txt").write_text(ZHANG_A, "utf-8")
    (folder / "zw_b.txt").write_text(ZHANG_B, "utf-8")
    found = index_paths(team.store, [folder])
    ids = {Path(c.source).stem: c.id for c in map(team.store.get_candidate, found.indexed) if c}
    a, b = ids["zw_a"], ids["zw_b"]
    assert team.store.candidate_key(a) == team.store.candidate_key(b)  # grouped as one

    team.command(f"点评 {b}", name="verdict", user_id="U123", channel_id=CHANNEL)
    wait_until("the verdict posted", lambda: team.store.verdict_post(b, CHANNEL))
    team.command(f"结论 {b} 录用 张伟B很优秀", name="decide", user_id="ULEAD", channel_id=CHANNEL)
    team.idle()
    assert (team.store.outcome(a) or team.store.outcome(b)) is not None
    said = command(team, f"拆分 {b}", "split", user="ULEAD")
    assert "已拆分" in said

    mine = team.store.outcome(b)
    assert mine is not None and (mine.decision, mine.note) == ("hire", "张伟B很优秀")
    assert team.store.outcome(a) is None
    assert "*录用结论*：录用" in command(team, f"总结 {b}", "card-b")
    assert "*录用结论*" not in command(team, f"总结 {a}", "card-a")
    # the ATS: each 张伟 as they are now (zw_b under its own key, the other without one)
    events = {e["id"]: e for e in sent(team.store.path)}
    assert (events[a]["outcome"], events[b]["outcome"]) == (None, "hire")
    assert events[b]["candidate_key"] == team.store.candidate_key(b) != events[a]["candidate_key"]


def test_a_merge_that_brings_in_a_hiring_decision_closes_the_persons_requests(
    team: Bot,
) -> None:
    command(team, "邀请 000 <@UANN> <@UBOB> 截止 明天", "ask")
    thread = team.store.verdict_post(CID, CHANNEL)
    assert thread is not None and all(r.open for r in requests(team).values())
    assert "独立评审" in command(team, "总结 000", "sealed", user="UANN")
    team.command("点评 002", name="verdict-other", user_id="U123", channel_id=CHANNEL)
    wait_until("the other verdict posted", lambda: team.store.verdict_post(OTHER, CHANNEL))
    team.command("结论 002 录用", name="decide", user_id="ULEAD", channel_id=CHANNEL)
    team.idle()
    updates = len(team.fake.calls("chat.update"))

    merged = command(team, "合并 000 002", "merge", user="ULEAD")
    assert "已合并" in merged
    loop = team.store.loop_of(CID)
    assert loop is not None and loop.outcome is not None and loop.outcome.decision == "hire"
    # the requests are closed: the card shows everything, nobody is reminded or overdue
    assert not any(r.open for r in requests(team).values())
    assert "独立评审" not in command(team, "总结 000", "open", user="UANN")
    assert team.store.overdue_requests("2099-01-01T00:00:00+00:00") == []
    lines, total = team.store.overdue_lines("2099-01-01T00:00:00+00:00", 50)
    assert (lines, total) == ([], 0)
    home = open_home(team, "UANN")
    assert section_of(home, "请你给结论（0）")
    # the status message in the verdict's thread says the hiring decision closed them
    wait_until("the status edited", lambda: len(team.fake.calls("chat.update")) > updates)
    ts = team.store.status_post(CID, CHANNEL)
    [status] = [m for m in team.fake.messages(CHANNEL) if m["ts"] == ts]
    assert "关闭了未完成的请求" in all_text(status)


def test_the_hiring_decision_edits_the_status_message_of_each_of_the_persons_interviews(
    team: Bot, tmp_path: Path
) -> None:
    folder = tmp_path / "zhang"
    folder.mkdir()
    (folder / "zw_a.txt").write_text(ZHANG_A, "utf-8")
    (folder / "zw_b.txt").write_text(ZHANG_B, "utf-8")
    found = index_paths(team.store, [folder])
    a, b = sorted(found.indexed)
    assert team.store.candidate_key(a) == team.store.candidate_key(b)
    command(team, f"邀请 {a} <@UANN> 截止 明天", "ask-a")
    command(team, f"邀请 {b} <@UBOB> 截止 明天", "ask-b")
    assert all(r.open for r in requests(team, a).values())
    assert all(r.open for r in requests(team, b).values())

    team.command(f"结论 {a} 不录用", name="decide", user_id="ULEAD", channel_id=CHANNEL)
    team.idle()
    for one, who in ((a, "UANN"), (b, "UBOB")):
        assert not any(r.open for r in requests(team, one).values())
        ts = team.store.status_post(one, CHANNEL)
        wait_until(
            f"{one}'s status edited",
            lambda ts=ts, who=who: any(
                m["ts"] == ts and f"关闭了未完成的请求：<@{who}>" in all_text(m)
                for m in team.fake.messages(CHANNEL)
            ),
        )
