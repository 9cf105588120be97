"""`debrief export` for a spreadsheet (issue 34): a CSV cell that would start a formula
(`=`, `+`, `-`, `@`, a tab, a carriage return) is written with a leading `'`, so a
spreadsheet shows it as text (OWASP's advice), ids, file names and the reviewers'
columns included, while JSON keeps every value as it is; `--force` onto a symbolic link
refuses rather than writing (and chmodding) what it points at. Through click's
CliRunner, on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from bot.cli import cli
from bot.export import as_csv
from store.export_models import ExportReview, ExportRow
from store.factory import open_store

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

HOSTILE = "=cmd|calc"  # the file's name, so the candidate's id
POSITION = "+cmd|' /C calc'!A0"
ROUND = "@SUM(1+1)"
TRANSCRIPT = "\n".join(
    [
        "面试记录",
        "姓名：张三",
        "面试官：李四",
        "面试日期：2024-05-06",
        f"岗位：{POSITION}",
        f"轮次：{ROUND}",
        "问题1：讲讲 Kafka 的分区？",
        "回答：分区是并行的单位。",
        "点评：基础扎实",
    ]
)


def debrief(db: str, *args: str) -> Result:
    return CliRunner().invoke(cli, [*args, "--db", db], env={"DEBRIEF_LOCALE": "en"})


@pytest.fixture
def hostile(db_target: str, tmp_path: Path) -> str:
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / f"{HOSTILE}.txt").write_text(TRANSCRIPT, encoding="utf-8")
    done = debrief(db_target, "index", str(folder), "--json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["indexed"] == [HOSTILE]
    store = open_store(db_target)
    try:
        store.record_decision("C1", "1.1", "1.0", HOSTILE, "-U_amy", "hire", "-1+1 稳")
        store.record_outcome(HOSTILE, "reject", "", "@lead")
    finally:
        store.close()
    return db_target


def test_csv_cells_that_would_be_formulas_are_text(hostile: str) -> None:
    done = debrief(hostile, "export")
    assert done.exit_code == 0, done.output
    table = list(csv.reader(io.StringIO(done.stdout_bytes.decode("utf-8-sig"), newline="")))
    header, (row,) = table[0], table[1:]
    assert "'-U_amy decision" in header and "'-U_amy note" in header
    cells = dict(zip(header, row, strict=True))
    assert cells["id"] == "'" + HOSTILE
    assert cells["position"] == "'" + POSITION
    assert cells["round"] == "'" + ROUND
    assert cells["outcome_by"] == "'@lead"
    assert cells["'-U_amy note"] == "'-1+1 稳"
    assert cells["interviewed_at"] == "2024-05-06"  # nothing else changes
    for value in [*header, *row]:
        assert not value.startswith(("=", "+", "-", "@", "\t", "\r")), value
    # JSON is for programs, not spreadsheets: every value as it is
    done = debrief(hostile, "export", "--format", "json")
    assert done.exit_code == 0, done.output
    (found,) = json.loads(done.stdout)
    assert (found["id"], found["position"], found["round"]) == (HOSTILE, POSITION, ROUND)
    assert found["outcome_by"] == "@lead"
    assert found["reviews"] == [{"reviewer": "-U_amy", "decision": "hire", "note": "-1+1 稳"}]


def test_a_tab_or_carriage_return_first_is_text_too() -> None:
    row = ExportRow(
        id="c1",
        name="\tTab",
        position="\r=1",
        round="ok=1",
        interviewed_at=None,
        outcome=None,
        outcome_by=None,
        outcome_at=None,
        reviews=[ExportReview(reviewer="U1", decision="hold", note="=2")],
    )
    table = list(csv.reader(io.StringIO(as_csv([row]).lstrip("\ufeff"), newline="")))
    cells: dict[str, Any] = dict(zip(table[0], table[1], strict=True))
    assert (cells["name"], cells["position"], cells["round"]) == ("'\tTab", "'\r=1", "ok=1")
    assert cells["U1 note"] == "'=2"


def test_force_onto_a_symbolic_link_refuses_and_leaves_its_target(
    hostile: str, tmp_path: Path
) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep me", encoding="utf-8")
    target.chmod(0o644)
    link = tmp_path / "ats.csv"
    link.symlink_to(target)
    for fmt in ("csv", "json"):
        done = debrief(hostile, "export", "--format", fmt, "--output", str(link), "--force")
        assert done.exit_code == 2, done.output
        assert "symbolic link" in done.output and "Traceback" not in done.output
        assert target.read_text(encoding="utf-8") == "keep me"
        assert stat.S_IMODE(target.stat().st_mode) == 0o644
        assert link.is_symlink()
    dangling = tmp_path / "dangling.csv"
    dangling.symlink_to(tmp_path / "nowhere.csv")
    done = debrief(hostile, "export", "--output", str(dangling), "--force")
    assert done.exit_code == 2 and "symbolic link" in done.output
    assert not os.path.lexists(tmp_path / "nowhere.csv")
    # a real file is still replaced with --force
    plain = tmp_path / "plain.csv"
    plain.write_text("old", encoding="utf-8")
    assert debrief(hostile, "export", "--output", str(plain), "--force").exit_code == 0
    assert plain.read_bytes().startswith("\ufeff".encode())
