"""Issue 34, item 13: a command that writes into the data space of a workspace that
uninstalled Debrief (`index`, `forget --restore`, `digest --post`, `remind --post`)
refuses with one line and exit 1, in both languages: the workspace is uninstalled and
its data waits for erasure (and when). Reading, exporting and erasing keep working.
Through click's CliRunner, on SQLite and PostgreSQL."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from test_cli_workspaces import ENGLISH, FIRST, SEEDS, debrief, install, opened, out_json

from bot.cli import cli

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

EXTRA = "岗位：量子计算工程师 从业年限：2年\n简介：简介\n问题1：问题\n考察目标：目标\n回答：回答\n点评：好\n"


def uninstall(db: str, team: str, erase_after: datetime) -> None:
    store = opened(db)
    try:
        assert store.uninstall(team, erase_after.isoformat())  # type: ignore[attr-defined]
    finally:
        store.close()


def ids(db: str, ws: int) -> list[str]:
    store = opened(db)
    try:
        return store.in_workspace(ws).ids()  # type: ignore[attr-defined,no-any-return]
    finally:
        store.close()


def run(db: str, args: list[str], **env: str) -> Result:
    """`debrief <args> --db <db>` in English, with more of the environment set."""
    return CliRunner().invoke(cli, [*args, "--db", db], env={"DEBRIEF_LOCALE": "en", **env})


def refused(result: Result) -> str:
    """The one line a refusal prints, its exit code 1."""
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The seeds, and a transcript the uninstalled workspace never had."""
    path = tmp_path / "T0002"
    shutil.copytree(SEEDS, path)
    return path


@pytest.fixture
def gone(db_target: str, folder: Path) -> tuple[str, int, datetime]:
    """Workspace T0002 installed, its folder indexed, then uninstalled: erased in 30 days."""
    install(db_target, "T0001")
    two = install(db_target, "T0002")
    assert debrief(db_target, "index", str(folder), "--workspace", "T0002").exit_code == 0
    (folder / "extra.txt").write_text(EXTRA, "utf-8")
    due = datetime(2099, 3, 4, 1, 30, tzinfo=UTC)
    uninstall(db_target, "T0002", due)
    return db_target, two, due


def test_index_into_an_uninstalled_workspace_refuses_with_one_line(
    gone: tuple[str, int, datetime], folder: Path
) -> None:
    db, two, _due = gone
    before = ids(db, two)
    line = refused(debrief(db, "index", str(folder), "--workspace", "T0002"))
    assert line == (
        "Error: workspace T0002 uninstalled Debrief and its data waits for erasure (due"
        " 2099-03-04 09:30): nothing more is written into it (it can still be read, exported"
        " and erased; installing Debrief again keeps the data)"
    )
    zh = refused(debrief(db, "index", str(folder), "--workspace", "T0002", "--json", locale="zh"))
    assert "工作区 T0002 已卸载 Debrief" in zh and "等待抹去（2099-03-04 09:30 起）" in zh
    assert not [w for w in ENGLISH if w in zh], zh
    assert ids(db, two) == before and "extra" not in before  # nothing indexed
    # another workspace's index goes on
    assert debrief(db, "index", str(folder), "--workspace", "T0001").exit_code == 0


def test_its_erasure_time_is_said_in_the_team_s_zone_or_as_the_next_daily_run(
    db_target: str, folder: Path
) -> None:
    install(db_target, "T0002")
    when = datetime(2099, 3, 4, 1, 30, tzinfo=UTC)
    uninstall(db_target, "T0002", when)
    result = run(db_target, ["index", str(folder), "--workspace", "T0002"], DEBRIEF_TIMEZONE="UTC")
    assert "(due 2099-03-04 01:30)" in refused(result)
    install(db_target, "T0002")
    uninstall(db_target, "T0002", datetime.now(UTC) - timedelta(minutes=1))  # grace over
    line = refused(debrief(db_target, "index", str(folder), "--workspace", "T0002"))
    assert "waits for erasure (at the next daily run)" in line
    zh = refused(debrief(db_target, "index", str(folder), "--workspace", "T0002", locale="zh"))
    assert "等待抹去（下一次每日清理时）" in zh


def test_other_writes_refuse_and_reads_export_and_erasure_keep_working(
    gone: tuple[str, int, datetime],
) -> None:
    db, two, _due = gone
    ws = ["--workspace", "T0002"]
    # writes: posting the digest or reminders (they claim the day), restoring a candidate
    posting = {"SLACK_BOT_TOKEN": "xoxb-test", "DEBRIEF_DIGEST_CHANNEL": "C123"}
    for args in (["digest", "--post"], ["remind", "--post"]):
        line = refused(run(db, [*args, *ws], **posting))
        assert "workspace T0002 uninstalled Debrief" in line
    # reads
    assert len(out_json(debrief(db, "list", "--json", *ws))) == 4
    assert debrief(db, "show", FIRST, *ws).exit_code == 0
    assert debrief(db, "search", "分布式", *ws).exit_code == 0
    assert debrief(db, "stats", *ws).exit_code == 0
    assert debrief(db, "audit", *ws).exit_code == 0
    assert debrief(db, "ask", f"/candidate 总结 {FIRST[:3]}", *ws).exit_code == 0
    assert debrief(db, "digest", "--dry-run", *ws).exit_code == 0
    assert debrief(db, "remind", "--dry-run", *ws).exit_code == 0
    exported = debrief(db, "export", "--format", "json", *ws)
    assert exported.exit_code == 0 and FIRST in exported.stdout
    # erasure: one candidate, and it stays forgotten (restoring would index it again)
    assert debrief(db, "forget", FIRST, "--yes", *ws).exit_code == 0
    assert FIRST not in ids(db, two)
    line = refused(debrief(db, "forget", FIRST, "--restore", *ws))
    assert "waits for erasure" in line and FIRST not in ids(db, two)
    # the whole workspace
    done = out_json(debrief(db, "forget", "--yes", "--json", *ws))
    assert done["erased"] is True


def test_installed_again_it_is_written_into_again(
    gone: tuple[str, int, datetime], folder: Path
) -> None:
    db, two, _due = gone
    install(db, "T0002")
    assert debrief(db, "index", str(folder), "--workspace", "T0002").exit_code == 0
    assert "extra" in ids(db, two)


def test_space_zero_uninstalled_refuses_without_workspace_named(
    db_target: str, folder: Path
) -> None:
    """The single-workspace mode's data, taken over by an install that then uninstalled:
    `index` without --workspace is refused too."""
    assert debrief(db_target, "index", str(SEEDS)).exit_code == 0
    assert debrief(db_target, "migrate-workspace", "T0001").exit_code == 0
    assert install(db_target, "T0001") == 0
    uninstall(db_target, "T0001", datetime(2099, 1, 1, tzinfo=UTC))
    (folder / "extra.txt").write_text(EXTRA, "utf-8")
    line = refused(debrief(db_target, "index", str(folder)))
    assert "workspace T0001 uninstalled Debrief" in line
    assert "extra" not in ids(db_target, 0)
