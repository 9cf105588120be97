"""Personal data on disk is readable by its owner alone, whatever the umask: the real
`debrief` process under umask 022 (what a shell outside systemd has) creates the
database, its WAL and shared memory, backups and uploaded transcripts 0600, their new
folders 0700; `backup` refuses a missing folder and an existing file (unless
`--force`); `doctor` warns about a database or uploads folder others can read."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.fake_slack import FakeSlack
from support.servers import free_port
from support.signed import event_body, post_signed
from support.slackbot import SECRET
from support.waiting import wait_until
from support.web_api import FakeFile

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


def env_of(**values: str) -> dict[str, str]:
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))}
    return kept | values


def under_umask(*args: str) -> list[str]:
    """`debrief ARGS` as a shell outside systemd runs it: umask 022."""
    return ["sh", "-c", 'umask 022 && exec "$@"', "sh", sys.executable, "-m", "bot", *args]


def debrief(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        under_umask(*args), cwd=cwd, env=env_of(**env), capture_output=True, text=True, timeout=120
    )


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_index_creates_the_database_and_its_folders_private(tmp_path: Path) -> None:
    db = tmp_path / "new" / "deeper" / "d.db"
    done = debrief("index", str(SEEDS), "--db", str(db), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert mode(db) == 0o600
    assert mode(db.parent) == 0o700 and mode(db.parent.parent) == 0o700


@pytest.fixture
def indexed(tmp_path: Path) -> Path:
    db = tmp_path / "d.db"
    done = debrief("index", str(SEEDS), "--db", str(db), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return db


def test_a_backup_is_private_and_replaces_a_file_only_with_force(
    indexed: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "backups" / "b.db"
    copy.parent.mkdir()
    done = debrief("backup", str(copy), "--db", str(indexed), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert mode(copy) == 0o600

    copy.write_bytes(b"an older backup")
    copy.chmod(0o644)
    for locale, words in (("zh", "已存在"), ("en", "already exists")):
        again = debrief(
            "backup", str(copy), "--db", str(indexed), cwd=tmp_path, DEBRIEF_LOCALE=locale
        )
        assert again.returncode == 2, again.stderr
        assert words in again.stderr and "--force" in again.stderr
        assert len(again.stderr.strip().splitlines()) == 1
        assert copy.read_bytes() == b"an older backup"

    forced = debrief("backup", str(copy), "--force", "--db", str(indexed), cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert mode(copy) == 0o600 and copy.read_bytes().startswith(b"SQLite format 3")
    assert not list(copy.parent.glob("*.partial"))


def test_a_backup_into_a_missing_folder_is_refused(indexed: Path, tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent" / "dir" / "x.db"
    for locale, words in (("zh", "不存在"), ("en", "does not exist")):
        done = debrief(
            "backup", str(missing), "--db", str(indexed), cwd=tmp_path, DEBRIEF_LOCALE=locale
        )
        assert done.returncode == 2, done.stderr
        assert words in done.stderr and str(missing.parent) in done.stderr
        assert "Traceback" not in done.stderr
    assert not (tmp_path / "nonexistent").exists()


def test_a_postgresql_backup_is_private(
    pg_server: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    from support.pg_fixtures import fresh_pg_url

    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not installed here")
    url = fresh_pg_url(request)
    assert debrief("index", str(SEEDS), cwd=tmp_path, DEBRIEF_DB=url).returncode == 0
    copy = tmp_path / "b.dump"
    done = debrief("backup", str(copy), cwd=tmp_path, DEBRIEF_DB=url)
    assert done.returncode == 0, done.stderr
    assert mode(copy) == 0o600
    refused = debrief("backup", str(copy), cwd=tmp_path, DEBRIEF_DB=url)
    assert refused.returncode == 2 and "--force" in refused.stderr


# -- serve: the WAL, shared memory and uploads, while it runs -------------------------------


@pytest.fixture
def serving(fake_slack: FakeSlack, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    data = tmp_path / "data"
    port = free_port()
    env = env_of(
        SLACK_BOT_TOKEN="xoxb-test",
        SLACK_SIGNING_SECRET=SECRET,
        SLACK_API_URL=fake_slack.base_url,
        DEBRIEF_DB=str(data / "served.db"),
        DEBRIEF_TRANSCRIPTS=str(SEEDS),
        DEBRIEF_UPLOADS=str(tmp_path / "files" / "shared" / "uploads"),
    )
    proc = subprocess.Popen(
        under_umask("serve", "--port", str(port), "--host", "127.0.0.1"),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"

    def healthy() -> bool:
        if proc.poll() is not None:
            raise AssertionError(proc.stdout.read().decode() if proc.stdout else "exited")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as r:
                return r.status == 200
        except OSError:
            return False

    try:
        wait_until("serve answers /healthz", healthy, timeout=60)
        yield url + "/slack/events", data
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=20)
        assert "Traceback" not in out.decode("utf-8", "replace")


def test_serve_keeps_the_database_its_wal_and_uploads_private(
    fake_slack: FakeSlack, serving: tuple[str, Path]
) -> None:
    url, data = serving
    db = data / "served.db"
    assert mode(data) == 0o700
    wait_until("the WAL and shared memory", lambda: Path(f"{db}-wal").exists())
    for path in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
        assert mode(path) == 0o600, path

    seed = (SEEDS / "000_9e6b3ecb0732fcf3.txt").read_bytes() + "\n上传的那一份\n".encode()
    fake_slack.add_file(FakeFile("F77", "shared.txt", seed))
    event = {
        "type": "message",
        "subtype": "file_share",
        "text": "",
        "user": "U123",
        "team": "T0001",
        "channel": "C123",
        "channel_type": "channel",
        "ts": "1800000000.000077",
        "files": [
            {
                "id": "F77",
                "name": "shared.txt",
                "mimetype": "text/plain",
                "filetype": "text",
                "user": "U123",
                "user_team": "T0001",
                "size": len(seed),
                "mode": "hosted",
            }
        ],
    }
    status, _h, _b = post_signed(url, event_body(event), SECRET)
    assert status == 200
    uploads = data.parent / "files" / "shared" / "uploads"
    saved = wait_until("the upload saved", lambda: list(uploads.glob("shared*.txt")), timeout=20)
    assert [mode(p) for p in (uploads, uploads.parent, uploads.parent.parent)] == [0o700] * 3
    assert [mode(p) for p in saved] == [0o600]


def test_doctor_warns_about_files_others_can_read(indexed: Path, tmp_path: Path) -> None:
    with FakeSlack() as fake:
        env = {"SLACK_BOT_TOKEN": "xoxb-test", "SLACK_API_URL": fake.base_url}
        first = debrief("doctor", "--json", "--db", str(indexed), cwd=tmp_path, **env)
        checks = {c["name"]: c for c in json.loads(first.stdout)["checks"]}
        assert checks["permissions"]["status"] == "ok", checks["permissions"]

        indexed.chmod(0o644)
        uploads = tmp_path / "uploads"
        uploads.mkdir(mode=0o755)
        uploads.chmod(0o755)
        done = debrief("doctor", "--json", "--db", str(indexed), cwd=tmp_path, **env)
        checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
        assert checks["permissions"]["status"] == "warn"
        detail = checks["permissions"]["detail"]
        assert f"chmod 600 {indexed}" in detail and f"chmod 700 {uploads}" in detail
        text = debrief("doctor", "--db", str(indexed), cwd=tmp_path, **env)
        assert "! permissions：这台机器上的其他用户可以读取候选人数据" in text.stdout
