"""`debrief serve` logs to stderr; DEBRIEF_LOG_FORMAT=json makes every line one JSON object."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from support.fake_slack import FakeSlack
from support.servers import free_port
from support.slackbot import SECRET


def run_serve_until_healthy(fake: FakeSlack, tmp_path: Path, **env: str) -> tuple[str, str]:
    port = free_port()
    full = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))}
    full |= {
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_SIGNING_SECRET": SECRET,
        "SLACK_API_URL": fake.base_url,
        "DEBRIEF_DB": str(tmp_path / "logs.db"),
    } | env
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve", "--port", str(port), "--host", "127.0.0.1"],
        env=full,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    break
            except OSError:
                assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
                assert time.monotonic() < deadline, "serve never answered /healthz"
                time.sleep(0.1)
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=20)
    return out.decode(), err.decode()


def test_json_logs_are_one_object_a_line(fake_slack: FakeSlack, tmp_path: Path) -> None:
    out, err = run_serve_until_healthy(
        fake_slack, tmp_path, DEBRIEF_LOG_FORMAT="json", DEBRIEF_LOG_LEVEL="debug"
    )
    assert out == ""  # logs go to stderr only
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines
    entries = [json.loads(line) for line in lines]
    assert all({"time", "level", "logger", "message"} <= set(e) for e in entries)
    assert any("HTTP mode" in e["message"] for e in entries)
    assert any(e["level"] == "debug" for e in entries)


def test_log_level_warning_hides_info(fake_slack: FakeSlack, tmp_path: Path) -> None:
    _out, err = run_serve_until_healthy(fake_slack, tmp_path, DEBRIEF_LOG_LEVEL="warning")
    assert "HTTP mode" not in err
    assert " INFO " not in err


def test_a_clean_start_logs_no_warning(fake_slack: FakeSlack, tmp_path: Path) -> None:
    _out, err = run_serve_until_healthy(fake_slack, tmp_path, DEBRIEF_LOG_LEVEL="warning")
    assert err.strip() == "", err
