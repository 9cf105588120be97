"""The debrief CLI through click's CliRunner, and once through a real process."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import cli


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def db(tmp_path: Path, seeds_dir: Path, runner: CliRunner) -> str:
    path = str(tmp_path / "cli.db")
    result = runner.invoke(cli, ["index", str(seeds_dir), "--db", path, "--json"])
    assert result.exit_code == 0, result.output
    return path


def run_json(runner: CliRunner, *args: str) -> object:
    result = runner.invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_index_json_contract(tmp_path: Path, seeds_dir: Path, runner: CliRunner) -> None:
    folder = tmp_path / "t"
    shutil.copytree(seeds_dir, folder)
    (folder / "broken.txt").write_bytes(b"\x00\x01")
    path = str(tmp_path / "x.db")
    result = runner.invoke(cli, ["index", str(folder), "--db", path, "--json"])
    assert result.exit_code == 0  # every file read or skipped: the damaged one is reported
    out = json.loads(result.stdout)
    assert set(out) >= {"indexed", "unchanged", "removed", "failed"}
    assert len(out["indexed"]) == 4 and out["unchanged"] == [] and out["removed"] == []
    assert out["failed"] == [
        {"path": str(folder / "broken.txt"), "line": 1, "error": out["failed"][0]["error"]}
    ]
    assert "binary" in out["failed"][0]["error"]
    # a path named that is not there: the run could not do what it was asked
    missing = runner.invoke(cli, ["index", str(tmp_path / "nowhere"), "--db", path, "--json"])
    assert missing.exit_code == 1
    assert [f["path"] for f in json.loads(missing.stdout)["failed"]] == [str(tmp_path / "nowhere")]
    (folder / "broken.txt").unlink()
    again = run_json(runner, "index", str(folder), "--db", path, "--json")
    assert again == {
        "indexed": [],
        "unchanged": sorted(out["indexed"]),
        "removed": [],
        "failed": [],
        "skipped": [],
        "forgotten": [],
        "warnings": [],
    }


def test_show_json_contract(db: str, runner: CliRunner) -> None:
    out = run_json(runner, "show", "000", "--db", db, "--json")
    assert isinstance(out, dict)
    assert set(out) >= {
        "id",
        "position",
        "years",
        "intro",
        "summary",
        "questions",
        "verdict",
        "source",
    }
    assert (out["id"], out["position"], out["years"]) == (
        "000_9e6b3ecb0732fcf3",
        "视频开发工程师",
        3,
    )
    assert out["source"].endswith("000_9e6b3ecb0732fcf3.txt")
    assert [q["answered"] for q in out["questions"]] == [True, False, False, True, True]
    assert [q["unanswered_reason"] for q in out["questions"]] == [
        None,
        "empty",
        "empty",
        None,
        None,
    ]
    assert out["years_text"] == "3年" and isinstance(out["years"], int)
    assert set(out["questions"][0]) >= {"number", "question", "goal", "answer", "answered"}


@pytest.mark.parametrize(
    ("who", "code", "expect"),
    [
        (["002"], 0, "神经网络模型设计师"),
        (["神经网络模型设计师"], 0, "002_72ee0a76eea41e0e"),
        (["视频开发工程师"], 1, "有 2 位候选人与“视频开发工程师”匹配"),  # in DEBRIEF_LOCALE
        (["nobody"], 1, "没有与“nobody”匹配的候选人"),
    ],
)
def test_show_resolves(db: str, runner: CliRunner, who: list[str], code: int, expect: str) -> None:
    result = runner.invoke(cli, ["show", *who, "--db", db])
    assert result.exit_code == code
    assert expect in result.output
    assert "Traceback" not in result.output


def test_search_json_contract(db: str, runner: CliRunner) -> None:
    out = run_json(runner, "search", "并行", "--db", db, "--json", "--limit", "2")
    assert isinstance(out, list) and len(out) == 2
    assert set(out[0]) >= {"id", "position", "years", "snippet", "score"}
    assert "并行" in out[0]["snippet"]
    assert out[0]["score"] >= out[1]["score"]
    assert run_json(runner, "search", '"', "-", "AND", "(", "--db", db, "--json") == []


def test_list_json_contract(db: str, runner: CliRunner) -> None:
    out = run_json(runner, "list", "--db", db, "--json")
    assert isinstance(out, list) and len(out) == 4
    assert out[-1] == {
        "id": "000_9e6b3ecb0732fcf3",
        "position": "视频开发工程师",
        "years": 3,
        "years_text": "3年",
        "name": None,
        "interviewers": [],
        "interviewed_at": None,
        "interviewed_at_text": "",
        "round": None,
        "questions": 5,
        "unanswered": 2,
        "has_verdict": True,
        "candidate_key": "c_e7edfeb86d17",  # no name: a candidate of its own (issue 38)
    }
    assert [r["id"] for r in run_json(runner, "list", "大数据", "--db", db, "--json")] == [
        "003_20561f43447eea49"
    ]  # type: ignore[index]


def test_db_from_environment(tmp_path: Path, seeds_dir: Path, runner: CliRunner) -> None:
    path = tmp_path / "env.db"
    result = runner.invoke(cli, ["index", str(seeds_dir)], env={"DEBRIEF_DB": str(path)})
    assert result.exit_code == 0 and path.exists()
    assert "已索引 4" in result.output  # DEBRIEF_LOCALE defaults to zh
    again = runner.invoke(
        cli, ["index", str(seeds_dir)], env={"DEBRIEF_DB": str(path), "DEBRIEF_LOCALE": "en"}
    )
    assert "0 indexed, 4 unchanged" in again.output


def test_bad_settings_are_one_clean_line(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["list"], env={"DEBRIEF_LOCALE": "fr"})
    assert result.exit_code == 2
    assert "DEBRIEF_LOCALE" in result.output and "Traceback" not in result.output


def test_not_a_database(tmp_path: Path, runner: CliRunner) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    result = runner.invoke(cli, ["list", "--db", str(bad)])
    assert result.exit_code == 1
    assert "cannot open database" in result.output


def test_end_to_end_real_process(tmp_path: Path, seeds_dir: Path) -> None:
    """`python -m bot` indexes the seeds and shows each one, as a user would."""
    db = str(tmp_path / "e2e.db")
    cmd = [sys.executable, "-m", "bot"]
    done = subprocess.run(
        [*cmd, "index", str(seeds_dir), "--db", db, "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    ids = json.loads(done.stdout)["indexed"]
    assert len(ids) == 4
    for cid in ids:
        shown = subprocess.run(
            [*cmd, "show", cid, "--db", db, "--json"], capture_output=True, text=True, check=False
        )
        assert shown.returncode == 0, shown.stderr
        data = json.loads(shown.stdout)
        assert data["id"] == cid and data["questions"] and data["verdict"]
