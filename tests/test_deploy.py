"""The deployment files: the systemd unit verifies, the Docker image builds and starts."""

from __future__ import annotations

import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "deploy" / "debrief.service"


def test_unit_has_what_an_operator_needs() -> None:
    text = UNIT.read_text(encoding="utf-8")
    for line in (
        "User=debrief",
        "EnvironmentFile=/etc/debrief/debrief.env",
        "Restart=on-failure",
        "StateDirectory=debrief",
        "ExecStart=/opt/debrief/bin/debrief serve",
    ):
        assert line in text


def test_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here")
    debrief = Path(sys.executable).parent / "debrief"
    assert debrief.exists(), "the debrief script is installed next to this Python"
    unit = tmp_path / "debrief.service"
    unit.write_text(
        UNIT.read_text(encoding="utf-8").replace("/opt/debrief/bin/debrief", str(debrief)),
        encoding="utf-8",
    )
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True)
    problems = [line for line in done.stderr.splitlines() if "debrief.service" in line]
    assert done.returncode == 0 and not problems, done.stderr


def _docker_daemon() -> bool:
    docker = shutil.which("docker")
    if docker is None:
        return False
    return subprocess.run([docker, "info"], capture_output=True).returncode == 0


def test_docker_image_builds_and_runs_as_non_root() -> None:
    if not _docker_daemon():
        pytest.skip("no Docker daemon is reachable here: the image build is not exercised")
    tag = f"debrief-test-{uuid.uuid4().hex[:8]}"
    try:
        subprocess.run(["docker", "build", "-t", tag, str(ROOT)], check=True, timeout=900)
        who = subprocess.run(
            ["docker", "run", "--rm", tag, "id", "-u"], capture_output=True, text=True, check=True
        )
        assert who.stdout.strip() != "0"
        version = subprocess.run(
            ["docker", "run", "--rm", tag, "debrief", "--help"],
            capture_output=True,
            text=True,
            check=True,
        )
        assert "serve" in version.stdout
    finally:
        subprocess.run(["docker", "rmi", "-f", tag], capture_output=True)
