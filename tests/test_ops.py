"""The operator's side through `debrief` (the CLI in-process): reading never creates a
database, `doctor`, `backup`, `stats`, and a database from a newer Debrief refused."""

from __future__ import annotations

import json
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest
import yaml
from support.cli import Ran
from support.cli import debrief as run_debrief
from support.fake_slack import FakeSlack

from bot.doctor_database import next_digest
from bot.doctor_slack import REQUIRED_SCOPES
from bot.settings import load_settings
from store.sqlite.store import Store

ROOT = Path(__file__).resolve().parent.parent
NO_DB = "没有数据库"


def debrief(*args: str, cwd: Path, **env: str) -> Ran:
    return run_debrief(*args, cwd=cwd, env=env)


@pytest.fixture
def indexed(tmp_path: Path, seeds_dir: Path) -> Path:
    done = debrief("index", str(seeds_dir), "--db", str(tmp_path / "d.db"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return tmp_path / "d.db"


@pytest.mark.parametrize(
    "args",
    [
        ["list"],
        ["show", "000"],
        ["search", "分布式"],
        ["ask", "/candidate help"],
        ["digest", "--dry-run"],
        ["audit"],
        ["stats"],
        ["backup", "copy.db"],
        ["forget", "000"],
    ],
)
def test_reading_never_creates_a_database(tmp_path: Path, args: list[str]) -> None:
    done = debrief(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == (  # in DEBRIEF_LOCALE (zh), the file with its folder
        f"错误：{tmp_path / 'debrief.db'} 没有数据库：先运行 debrief index，或设置 DEBRIEF_DB"
    )
    assert list(tmp_path.iterdir()) == []  # nothing created, not even -wal files


def test_reading_names_the_path_it_looked_at(tmp_path: Path) -> None:
    missing = tmp_path / "elsewhere" / "x.db"
    done = debrief("list", cwd=tmp_path, DEBRIEF_DB=str(missing))
    assert done.returncode == 2 and f"{missing} {NO_DB}" in done.stderr
    assert not missing.parent.exists()


def test_stats_counts_what_the_database_holds(indexed: Path, tmp_path: Path) -> None:
    done = debrief("stats", "--json", "--db", str(indexed), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    store = Store(indexed, create=False)
    candidates = store.list_candidates(limit=100)
    assert figures["candidates"] == len(candidates) == 4
    assert figures["questions"] == sum(c.questions for c in candidates)
    assert figures["unanswered"] == sum(c.unanswered for c in candidates)
    assert figures["decisions"] == 0
    assert figures["database_bytes"] > 0
    assert figures["last_index_run"]["indexed"] == 4
    assert figures["last_digest"] is None
    text = debrief("stats", "--db", str(indexed), cwd=tmp_path).stdout
    assert "候选人" in text and "上次索引" in text  # DEBRIEF_LOCALE defaults to zh
    english = debrief("stats", "--db", str(indexed), cwd=tmp_path, DEBRIEF_LOCALE="en").stdout
    assert "candidates" in english and "last index run" in english


def test_backup_is_a_consistent_copy_taken_while_writing(
    indexed: Path, tmp_path: Path, seeds_dir: Path
) -> None:
    # a writer keeps adding candidates while the backup runs
    folder = tmp_path / "more"
    folder.mkdir()
    seed = sorted(seeds_dir.glob("*.txt"))[0].read_bytes()
    for i in range(200):
        (folder / f"extra_{i:03d}.txt").write_bytes(seed + f"\n补充{i}".encode())
    writer = threading.Thread(
        target=debrief, args=("index", str(folder), "--db", str(indexed)), kwargs={"cwd": tmp_path}
    )
    writer.start()
    try:
        done = debrief("backup", str(tmp_path / "b.db"), "--db", str(indexed), cwd=tmp_path)
    finally:
        writer.join()
    assert done.returncode == 0, done.stderr
    copy = sqlite3.connect(tmp_path / "b.db")
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    (count,) = copy.execute("SELECT count(*) FROM candidates").fetchone()
    (questions,) = copy.execute("SELECT count(DISTINCT candidate_rid) FROM questions").fetchone()
    copy.close()
    assert 4 <= count <= 204 and questions == count  # whole candidates only
    again = debrief(
        "backup", str(tmp_path / "b.db"), "--db", str(indexed), cwd=tmp_path, DEBRIEF_LOCALE="en"
    )
    assert again.returncode == 2 and "already exists" in again.stderr


def test_a_database_from_a_newer_debrief_is_refused(indexed: Path, tmp_path: Path) -> None:
    conn = sqlite3.connect(indexed)
    conn.execute("INSERT INTO _migrations VALUES ('m999_from_the_future', '2030-01-01')")
    conn.commit()
    conn.close()
    before = indexed.read_bytes()
    done = debrief("list", "--db", str(indexed), cwd=tmp_path)
    assert done.returncode == 1
    assert "newer Debrief" in done.stderr and "m999_from_the_future" in done.stderr
    assert indexed.read_bytes() == before


def test_required_scopes_match_the_manifest() -> None:
    manifest = yaml.safe_load((ROOT / "manifest.yml").read_text(encoding="utf-8"))
    assert set(REQUIRED_SCOPES) == set(manifest["oauth_config"]["scopes"]["bot"])


def doctor_env(fake: FakeSlack, db: Path, **extra: str) -> dict[str, str]:
    return {
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_SIGNING_SECRET": "0123456789abcdef0123456789abcdef",
        "SLACK_API_URL": fake.base_url,
        "DEBRIEF_DB": str(db),
    } | extra


def test_doctor_passes_a_sound_deployment(
    fake_slack: FakeSlack, indexed: Path, tmp_path: Path, seeds_dir: Path
) -> None:
    folder = tmp_path / "transcripts"
    shutil.copytree(seeds_dir, folder)
    (folder / "README.md").write_text("# 面试记录说明\n这里放面试记录。\n", encoding="utf-8")
    (folder / ".debriefignore").write_text("drafts/\n", encoding="utf-8")
    (folder / "drafts").mkdir()
    (folder / "drafts" / "half.txt").write_bytes(b"\x00\x01 not yet")  # ignored, not failing
    (folder / "broken.txt").write_bytes("岗位：测试\n问题1：你好\n".encode() + b"\x00\x01binary")
    env = doctor_env(
        fake_slack,
        indexed,
        DEBRIEF_TRANSCRIPTS=str(folder),
        DEBRIEF_DIGEST_CHANNEL="CHIRE",
        DEBRIEF_ALLOWED_CHANNELS="CHIRE,C123",
    )
    done = debrief("doctor", "--json", cwd=tmp_path, **env)
    report = json.loads(done.stdout)
    by_name = {c["name"]: c for c in report["checks"]}
    assert done.returncode == 0 and report["ok"], done.stdout
    assert by_name["scopes"]["status"] == "ok"
    assert by_name["channel CHIRE (digest)"]["status"] == "ok"
    assert by_name["channel C123"]["status"] == "ok"
    assert by_name["database"]["status"] == "ok"
    assert by_name["schema"]["status"] == "ok"
    transcripts = by_name["transcripts"]["detail"]
    assert "4 transcripts" in transcripts and "1 skipped" in transcripts
    assert "1 failing" in transcripts and by_name["transcripts"]["status"] == "warn"
    assert "Asia/Shanghai" in by_name["digest"]["detail"]
    assert {"auth.test", "conversations.info"} <= {c.method for c in fake_slack.calls()}
    text = debrief("doctor", cwd=tmp_path, **env)
    assert text.returncode == 0 and "✓ slack token" in text.stdout


def test_doctor_fails_on_missing_scopes_and_membership(indexed: Path, tmp_path: Path) -> None:
    with FakeSlack(scopes=["commands", "chat:write"], member_channels=["CHIRE"]) as fake:
        env = doctor_env(fake, indexed, DEBRIEF_ALLOWED_CHANNELS="CHIRE,COUTSIDE,GSECRET")
        done = debrief("doctor", "--json", cwd=tmp_path, **env)
    report = json.loads(done.stdout)
    by_name = {c["name"]: c for c in report["checks"]}
    assert done.returncode == 1 and not report["ok"]
    assert by_name["scopes"]["status"] == "fail"
    assert "reactions:write" in by_name["scopes"]["detail"]
    assert by_name["channel CHIRE"]["status"] == "ok"
    assert by_name["channel COUTSIDE"]["status"] == "fail"
    assert "/invite" in by_name["channel COUTSIDE"]["detail"]
    assert by_name["channel GSECRET"]["status"] == "fail"


def test_doctor_fails_without_a_database_or_slack(tmp_path: Path) -> None:
    done = debrief(
        "doctor",
        cwd=tmp_path,
        SLACK_BOT_TOKEN="xoxb-test",
        SLACK_API_URL="http://127.0.0.1:9/api/",
        DEBRIEF_LOCALE="en",
    )
    assert done.returncode == 1
    assert "✗ slack token: cannot reach Slack" in done.stdout
    # before the first start, a missing database is a warning: serve creates it
    assert "! database: no database at" in done.stdout and "creates it" in done.stdout
    assert list(tmp_path.iterdir()) == []


def test_next_digest_is_in_the_configured_zone() -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    settings = load_settings(digest_time="09:30", timezone="Asia/Shanghai")
    shanghai = ZoneInfo("Asia/Shanghai")
    before = datetime(2026, 11, 29, 9, 0, tzinfo=shanghai)
    after = datetime(2026, 11, 29, 10, 0, tzinfo=shanghai)
    assert next_digest(settings, before) == datetime(2026, 11, 29, 9, 30, tzinfo=shanghai)
    assert next_digest(settings, after) == datetime(2026, 11, 30, 9, 30, tzinfo=shanghai)
