"""The candidate is a person (issue 38), through `debrief` in-process on SQLite and
PostgreSQL: interviews grouped by an explicit key, else by name and position (written
alike once spaces, width and script are set aside), never by name alone across
positions; `link`/`unlink` kept over a re-index and audited; `loop --json`; the hiring
decision on each interview of the loop, closing the requests on every one;
`candidate_key` stable; `export --per candidate`; `stats` counting people."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from support.cli import debrief as run_debrief

from store.factory import open_store

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

ROOT = Path(__file__).resolve().parent.parent


def transcript(
    name: str | None,
    position: str,
    date: str,
    round_: str,
    questions: list[tuple[str, str]],
    extra: str = "",
) -> str:
    lines = ["面试记录"]
    if name is not None:
        lines.append(f"姓名：{name}")
    if extra:
        lines.append(extra)
    lines += ["面试官：李四", f"面试日期：{date}", f"轮次：{round_}", f"岗位：{position}"]
    for n, (q, a) in enumerate(questions, start=1):
        lines += [f"问题{n}：{q}", f"回答：{a}"]
    lines.append("点评：基础扎实。还需再看。")
    return "\n".join(lines) + "\n"


FILES = {
    # one person, two rounds of one position: one candidate
    "wang1": transcript(
        "王小明",
        "后端工程师",
        "2026-11-20",
        "一面",
        [("讲讲 Redis 的持久化？", "不知道"), ("讲讲 Kafka 的分区？", "分区是并行的单位。")],
    ),
    "wang2": transcript(
        "王小明",
        "后端工程师",
        "2026-11-25",
        "二面",
        [("讲讲 Redis 的持久化？", "RDB 和 AOF。"), ("讲讲 GC？", "跳过")],
    ),
    # the same name for another position: another candidate
    "wang_fe": transcript("王小明", "前端工程师", "2026-11-21", "一面", [("讲讲闭包？", "不知道")]),
    # no name: each a candidate of its own
    "anon1": transcript(None, "后端工程师", "2026-11-22", "一面", [("讲讲 TCP？", "三次握手")]),
    "anon2": transcript(None, "后端工程师", "2026-11-23", "一面", [("讲讲 TCP？", "三次握手")]),
    # 繁體 and full-width, spaces: one name, one position
    "zhang1": transcript(
        "张伟", "Java 后端工程师", "2026-11-01", "一面", [("讲讲 JVM？", "堆和栈")]
    ),
    "zhang2": transcript(
        "張 偉", "Ｊａｖａ後端工程師", "2026-11-08", "二面", [("讲讲 JVM？", "堆和栈")]
    ),
    # an explicit key: one candidate whatever the name and position say
    "li1": transcript(
        "李雷", "数据工程师", "2026-10-01", "一面", [("讲讲 Spark？", "RDD")], "候选人编号：A-1024"
    ),
    "li2": transcript(
        "Li Lei",
        "大数据工程师",
        "2026-10-08",
        "二面",
        [("讲讲 Spark？", "RDD")],
        "Candidate ID: a-1024",
    ),
}


def debrief(db: str, *args: str, locale: str = "en") -> subprocess.CompletedProcess[str]:
    done = run_debrief(*args, cwd=ROOT, env={"DEBRIEF_DB": db, "DEBRIEF_LOCALE": locale})
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout, done.stderr)


def ok(db: str, *args: str) -> str:
    done = debrief(db, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def keys(db: str) -> dict[str, str]:
    return {r["id"]: r["candidate_key"] for r in json.loads(ok(db, "list", "--json"))}


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    where = tmp_path / "t"
    where.mkdir()
    for name, content in FILES.items():
        (where / f"{name}.txt").write_text(content, encoding="utf-8")
    return where


@pytest.fixture
def indexed(db_target: str, folder: Path) -> str:
    out = json.loads(ok(db_target, "index", str(folder), "--json"))
    assert sorted(out["indexed"]) == sorted(FILES)
    return db_target


def test_interviews_are_one_candidate_by_key_or_by_name_and_position(indexed: str) -> None:
    k = keys(indexed)
    assert all(v and v.startswith("c_") and len(v) == 14 for v in k.values())
    assert k["wang1"] == k["wang2"]  # same name, same position
    assert k["wang_fe"] != k["wang1"]  # never by name alone across positions
    assert k["anon1"] != k["anon2"]  # no name: each alone
    assert k["zhang1"] == k["zhang2"]  # 繁體, full-width, spaces set aside
    assert k["li1"] == k["li2"]  # the explicit key, whatever the name says
    shown = json.loads(ok(indexed, "show", "wang2", "--json"))
    assert shown["candidate_key"] == k["wang2"]
    stats = json.loads(ok(indexed, "stats", "--json"))
    assert (stats["candidates"], stats["interviews"]) == (6, 9)


def test_loop_json_has_the_keys_in_order_oldest_first_and_what_is_still_open(
    indexed: str,
) -> None:
    k = keys(indexed)
    for who in ("wang2", k["wang1"]):
        found = json.loads(ok(indexed, "loop", who, "--json"))
        assert list(found) == ["key", "name", "position", "interviews", "open", "outcome"]
        assert (found["key"], found["name"], found["position"]) == (
            k["wang1"],
            "王小明",
            "后端工程师",
        )
        assert [i["id"] for i in found["interviews"]] == ["wang1", "wang2"]
        first = found["interviews"][0]
        assert list(first) == [
            "id",
            "round",
            "interviewed_at",
            "interviewers",
            "decisions",
            "open_questions",
        ]
        assert (first["round"], first["interviewed_at"], first["interviewers"]) == (
            "一面",
            "2026-11-20",
            ["李四"],
        )
        assert first["decisions"] == {} and first["open_questions"] == [1]
        assert found["interviews"][1]["open_questions"] == [2]
        # Redis, open in round one, was answered in round two: only GC is still open
        assert found["open"] == [{"interview": "wang2", "number": 2, "question": "讲讲 GC？"}]
        assert found["outcome"] is None


def test_a_name_of_two_candidates_lists_them_and_exits_2(indexed: str) -> None:
    k = keys(indexed)
    for extra in ((), ("--json",)):
        done = debrief(indexed, "loop", "王小明", *extra)
        assert done.returncode == 2 and done.stdout == ""
        assert k["wang1"] in done.stderr and k["wang_fe"] in done.stderr
        assert "前端工程师" in done.stderr and "后端工程师" in done.stderr
    assert debrief(indexed, "loop", "nobody-here").returncode == 1
    text = ok(indexed, "loop", k["wang1"])
    assert "王小明" in text and "2 interview(s)" in text and "Q2" in text


def test_link_and_unlink_are_kept_over_a_reindex_and_audited(indexed: str, folder: Path) -> None:
    k = keys(indexed)
    ok(indexed, "link", "wang1", "wang_fe")
    after = keys(indexed)
    assert after["wang_fe"] == after["wang1"] == after["wang2"] == k["wang1"]
    ok(indexed, "unlink", "wang2")
    split = keys(indexed)
    assert split["wang2"] not in (k["wang1"], k["wang2"]) and split["wang1"] == k["wang1"]
    # the files indexed again, one of them changed: the overrides stay
    (folder / "wang2.txt").write_text(FILES["wang2"] + "\n补充：无\n", encoding="utf-8")
    (folder / "wang_fe.txt").write_text(FILES["wang_fe"] + "\n补充：无\n", encoding="utf-8")
    assert sorted(json.loads(ok(indexed, "index", str(folder), "--json"))["indexed"]) == [
        "wang2",
        "wang_fe",
    ]
    assert keys(indexed) == split
    said = [(e["what"], e["candidate"]) for e in json.loads(ok(indexed, "audit", "--json"))]
    assert (f"link:{k['wang1']}", "wang_fe") in said
    assert (f"unlink:{split['wang2']}", "wang2") in said


def test_candidate_key_is_stable_across_a_reindex_and_a_restart(indexed: str, folder: Path) -> None:
    before = keys(indexed)
    for name in FILES:  # every file read again
        (folder / f"{name}.txt").write_text(FILES[name] + "\n", encoding="utf-8")
    assert len(json.loads(ok(indexed, "index", str(folder), "--json"))["indexed"]) == len(FILES)
    store = open_store(indexed)  # a new process's store
    try:
        assert {i: store.candidate_key(i) for i in FILES} == before
    finally:
        store.close()
    assert keys(indexed) == before


def test_the_hiring_decision_is_the_candidates_on_each_interview_closing_every_request(
    indexed: str,
) -> None:
    store = open_store(indexed)
    try:
        for cid in ("wang1", "wang2"):
            assert store.record_requests(
                cid, ["UREV"], "UASK", "2099-01-01T00:00:00+00:00", "C1", "1.1"
            )
        store.record_outcome("wang1", "hold", "", "ULEAD")
        recorded, before = store.record_outcome("wang2", "hire", "good", "ULEAD", webhook=True)
        assert recorded and before is not None and before.decision == "hold"
        for cid in ("wang1", "wang2"):
            c = store.get_candidate(cid)
            assert c is not None and c.outcome is not None and c.outcome.decision == "hire"
            assert all(r.closed_at for r in store.requests_for(cid))
        other = store.get_candidate("wang_fe")
        assert other is not None and other.outcome is None
        event = store.oldest_undelivered_webhook()
        assert (
            event is not None and json.loads(event.body)["candidate_key"] == keys(indexed)["wang1"]
        )
    finally:
        store.close()
    for cid in ("wang1", "wang2"):
        assert json.loads(ok(indexed, "show", cid, "--json"))["outcome"]["decision"] == "hire"
    assert json.loads(ok(indexed, "loop", "wang1", "--json"))["outcome"]["decision"] == "hire"
    rows = json.loads(ok(indexed, "export", "--format", "json"))
    assert {r["id"]: r["outcome"] for r in rows if r["id"].startswith("wang")} == {
        "wang1": "hire",
        "wang2": "hire",
        "wang_fe": None,
    }


def test_export_per_candidate_gives_one_row_a_person(indexed: str) -> None:
    k = keys(indexed)
    store = open_store(indexed)
    try:
        store.record_outcome("wang2", "reject", "", "ULEAD")
    finally:
        store.close()
    found: list[dict[str, Any]] = json.loads(
        ok(indexed, "export", "--per", "candidate", "--format", "json")
    )
    assert len(found) == 6
    wang = next(r for r in found if r["candidate_key"] == k["wang1"])
    assert wang["interviews"] == [
        {"id": "wang1", "round": "一面", "interviewed_at": "2026-11-20"},
        {"id": "wang2", "round": "二面", "interviewed_at": "2026-11-25"},
    ]
    assert (wang["name"], wang["position"], wang["outcome"]) == ("王小明", "后端工程师", "reject")
    raw = ok(indexed, "export", "--per", "candidate")
    table = list(csv.DictReader(io.StringIO(raw.removeprefix("\ufeff"))))
    row = next(r for r in table if r["candidate_key"] == k["wang1"])
    assert (row["interviews"], row["interview_ids"], row["outcome"]) == (
        "2",
        "wang1; wang2",
        "reject",
    )
    per_interview = json.loads(ok(indexed, "export", "--format", "json"))
    assert {r["id"]: r["candidate_key"] for r in per_interview} == k


def test_lists_of_unanswered_count_people_each_line_naming_its_round(indexed: str) -> None:
    k = keys(indexed)
    store = open_store(indexed)
    try:
        assert store.count_unanswered() == 2  # 王小明 (two rounds) and the front-end one
        found, total = store.unanswered_by_person(limit=10)
        assert total == 2
        people = {
            s.key: [(line.id, line.round, line.count) for line in lines] for s, lines in found
        }
        assert people[k["wang1"]] == [("wang1", "一面", 1), ("wang2", "二面", 1)]
        assert people[k["wang_fe"]] == [("wang_fe", "一面", 1)]
        page, _ = store.unanswered_by_person(limit=1, offset=1)
        assert len(page) == 1 and page[0][0].key != found[0][0].key
    finally:
        store.close()


def test_the_hiring_decision_stays_with_the_candidate_when_a_file_goes(
    indexed: str, folder: Path
) -> None:
    store = open_store(indexed)
    try:
        store.record_outcome("wang1", "hire", "", "ULEAD")
    finally:
        store.close()
    (folder / "wang1.txt").unlink()
    assert json.loads(ok(indexed, "index", str(folder), "--json"))["removed"] == ["wang1"]
    assert json.loads(ok(indexed, "show", "wang2", "--json"))["outcome"]["decision"] == "hire"
    assert json.loads(ok(indexed, "loop", "wang2", "--json"))["outcome"]["decision"] == "hire"
