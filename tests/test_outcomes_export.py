"""The hiring decision as the store keeps it (one per candidate, a later one replaces it),
`show --json`'s `outcome`, `forget` erasing it, and `debrief export` (CSV with a BOM,
JSON, --since, --output) through the command line (in-process), on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import json
import stat
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from support.cli import debrief as run_debrief
from support.pg_fixtures import fresh_pg_url

from store.factory import open_store

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

ROOT = Path(__file__).resolve().parent.parent
RECENT = (datetime.now(UTC) - timedelta(days=3)).date().isoformat()

# id, name, date, round
PEOPLE = [
    ("c_old", "张三", "2001-03-01", "二面"),
    ("c_new", "韩梅梅", RECENT, "终面"),
]


def transcript(name: str, date: str, round_: str) -> str:
    return "\n".join(
        [
            "数据工程师面试记录",
            f"姓名：{name}",
            "面试官：李四",
            f"面试日期：{date}",
            f"轮次：{round_}",
            "岗位：数据工程师",
            "从业年限：3年",
            "问题1：讲讲 Kafka 的分区？",
            "回答：分区是并行的单位。",
            "点评：基础扎实",
        ]
    )


def debrief(db: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    """`debrief ARGS` in-process, its output as the bytes a process writes."""
    done = run_debrief(*args, cwd=ROOT, env={"DEBRIEF_DB": db, "DEBRIEF_LOCALE": "en"})
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout_bytes, done.stderr.encode()
    )


def ok(db: str, *args: str) -> bytes:
    done = debrief(db, *args)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


@pytest.fixture
def indexed(db_target: str, tmp_path: Path) -> str:
    folder = tmp_path / "t"
    folder.mkdir()
    for cid, name, date, round_ in PEOPLE:
        (folder / f"{cid}.txt").write_text(transcript(name, date, round_), encoding="utf-8")
    out = json.loads(ok(db_target, "index", str(folder), "--json"))
    assert sorted(out["indexed"]) == ["c_new", "c_old"]
    return db_target


def test_an_outcome_is_recorded_once_per_candidate_and_a_later_one_replaces_it(
    indexed: str,
) -> None:
    assert json.loads(ok(indexed, "show", "c_new", "--json"))["outcome"] is None
    store = open_store(indexed)
    try:
        assert store.record_outcome("c_new", "hold", "再聊一次", "U1") == (True, None)
        recorded, before = store.record_outcome("c_new", "hire", "<b>强</b> & 稳", "U2")
        assert recorded and before is not None
        assert (before.decision, before.note, before.by) == ("hold", "再聊一次", "U1")
        assert store.record_outcome("nobody", "hire", "", "U1") == (False, None)
    finally:
        store.close()
    outcome = json.loads(ok(indexed, "show", "c_new", "--json"))["outcome"]
    assert set(outcome) == {"decision", "note", "by", "at"}
    assert (outcome["decision"], outcome["note"], outcome["by"]) == ("hire", "<b>强</b> & 稳", "U2")
    assert datetime.fromisoformat(outcome["at"]).tzinfo is not None
    assert json.loads(ok(indexed, "show", "c_old", "--json"))["outcome"] is None


def test_forget_erases_the_outcome(indexed: str) -> None:
    store = open_store(indexed)
    try:
        store.record_outcome("c_old", "reject", "不合适", "U1")
        assert json.loads(ok(indexed, "forget", "c_old", "--yes", "--json"))["removed"]
        assert store.outcome("c_old") is None
        assert store.erasure_state("c_old") == "forgotten"
    finally:
        store.close()


def test_a_removed_candidate_with_an_outcome_keeps_it_until_forget(
    indexed: str, tmp_path: Path
) -> None:
    store = open_store(indexed)
    try:
        store.record_outcome("c_old", "reject", "不合适", "U1")
        assert store.remove("c_old")
        assert "c_old" in store.retired()  # the id stays with its file, not a newcomer
        assert store.erasure_state("c_old") == "reviews"
        assert store.forget("c_old") is not None
        assert store.outcome("c_old") is None
    finally:
        store.close()


def decide(db: str) -> None:
    store = open_store(db)
    try:
        store.record_decision("C1", "1.1", "1.0", "c_new", "U_amy", "hire", "Amy: 通过 — 扎实")
        store.record_decision("C1", "1.2", "1.0", "c_new", "U_bob", "hold", "Bob: 待定")
        store.record_decision("C1", "1.3", "1.0", "c_new", "U_bob", "no_hire", "Bob: 不通过, 慢")
        store.record_decision("C1", "1.4", "1.0", "c_old", "U_amy", "no_hire", "Amy: 不通过")
        store.record_outcome("c_new", "hire", "发 offer", "U_lead")
    finally:
        store.close()


def parse_csv(raw: bytes) -> list[dict[str, str]]:
    assert raw.startswith("\ufeff".encode()), raw[:10]  # a BOM: Excel reads UTF-8
    return list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))


def test_export_csv_has_a_bom_a_row_per_candidate_and_columns_per_reviewer(indexed: str) -> None:
    decide(indexed)
    raw = ok(indexed, "export")
    header = next(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert header == [
        "id",
        "name",
        "position",
        "round",
        "interviewed_at",
        "outcome",
        "outcome_by",
        "outcome_at",
        "team_id",
        "team_name",
        "enterprise_id",
        "enterprise_name",
        "candidate_key",
        "U_amy decision",
        "U_amy note",
        "U_bob decision",
        "U_bob note",
    ]
    found = parse_csv(raw)
    assert [r["id"] for r in found] == ["c_new", "c_old"]  # newest interview first
    new, old = found
    assert (new["name"], new["position"], new["round"]) == ("韩梅梅", "数据工程师", "终面")
    assert (new["interviewed_at"], new["outcome"], new["outcome_by"]) == (RECENT, "hire", "U_lead")
    assert new["outcome_at"]
    assert (new["U_amy decision"], new["U_amy note"]) == ("hire", "Amy: 通过 — 扎实")
    assert (new["U_bob decision"], new["U_bob note"]) == ("no_hire", "Bob: 不通过, 慢")
    assert (old["outcome"], old["outcome_by"], old["outcome_at"]) == ("", "", "")
    assert (old["U_amy decision"], old["U_bob decision"], old["U_bob note"]) == ("no_hire", "", "")


def test_export_json_lists_reviews_and_since_keeps_recent_interviews(indexed: str) -> None:
    decide(indexed)
    found: list[dict[str, Any]] = json.loads(ok(indexed, "export", "--format", "json"))
    assert [r["id"] for r in found] == ["c_new", "c_old"]
    new = found[0]
    assert {k: new[k] for k in ("name", "round", "interviewed_at", "outcome", "outcome_by")} == {
        "name": "韩梅梅",
        "round": "终面",
        "interviewed_at": RECENT,
        "outcome": "hire",
        "outcome_by": "U_lead",
    }
    assert new["reviews"] == [
        {"reviewer": "U_amy", "decision": "hire", "note": "Amy: 通过 — 扎实"},
        {"reviewer": "U_bob", "decision": "no_hire", "note": "Bob: 不通过, 慢"},
    ]
    assert found[1]["outcome"] is None and found[1]["outcome_at"] is None
    recent = json.loads(ok(indexed, "export", "--format", "json", "--since", "30d"))
    assert [r["id"] for r in recent] == ["c_new"]
    assert [r["id"] for r in parse_csv(ok(indexed, "export", "--since", "30d"))] == ["c_new"]
    bad = debrief(indexed, "export", "--since", "soon")
    assert bad.returncode == 2 and b"Traceback" not in bad.stderr
    assert b"--since" in bad.stderr


def test_export_output_is_private_and_not_replaced_unless_forced(
    indexed: str, tmp_path: Path
) -> None:
    decide(indexed)
    out = tmp_path / "ats.csv"
    ok(indexed, "export", "--output", str(out))
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert [r["id"] for r in parse_csv(out.read_bytes())] == ["c_new", "c_old"]
    again = debrief(indexed, "export", "--format", "json", "--output", str(out))
    assert again.returncode == 2 and b"already exists" in again.stderr
    assert parse_csv(out.read_bytes())  # kept as it was
    out.chmod(0o644)
    ok(indexed, "export", "--format", "json", "--output", str(out), "--force")
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert [r["id"] for r in json.loads(out.read_text(encoding="utf-8"))] == ["c_new", "c_old"]
    nowhere = debrief(indexed, "export", "--output", str(tmp_path / "no" / "such" / "f.csv"))
    assert nowhere.returncode == 2 and b"Traceback" not in nowhere.stderr


@pytest.mark.sqlite_only
def test_migrate_db_copies_outcomes(
    indexed: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    decide(indexed)
    url = str(fresh_pg_url(request))
    report = json.loads(ok(indexed, "migrate-db", "--to", url, "--json"))
    assert report["tables"]["outcomes"] == {"sqlite": 1, "postgresql": 1}
    assert json.loads(ok(url, "export", "--format", "json")) == json.loads(
        ok(indexed, "export", "--format", "json")
    )


def test_ask_records_no_hiring_decision(indexed: str) -> None:
    """`debrief ask` would post in no thread: it refuses, and nothing is recorded."""
    for words in ("/candidate 结论 c_new 录用", "/candidate decide c_new hire"):
        done = debrief(indexed, "ask", words, "--user", "ULEAD")
        assert done.returncode == 1 and b"Traceback" not in done.stderr
        assert b"does not record hiring decisions" in done.stderr
    assert json.loads(ok(indexed, "show", "c_new", "--json"))["outcome"] is None
