"""`debrief doctor` reports who may record a hiring decision (DEBRIEF_DECIDERS): unset is a
warning, a user group it cannot read fails and names the scope in manifest.yml; the real
process against the strict fake Web API."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.fake_slack import FakeSlack
from test_doctor import SEEDS, debrief, doctor, doctor_text

pytestmark = pytest.mark.sqlite_only  # doctor's own checks; the database is only opened


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "d.db"
    assert debrief("index", str(SEEDS), DEBRIEF_DB=str(path)).returncode == 0
    path.chmod(0o600)
    return path


def test_unset_deciders_is_a_warning(fake_slack: FakeSlack, db: Path) -> None:
    code, checks = doctor(fake_slack, db, DEBRIEF_RETENTION_DAYS="365")
    assert code == 0  # a warning, not a failure
    assert checks["deciders"]["status"] == "warn"
    assert "DEBRIEF_DECIDERS is not set" in checks["deciders"]["detail"]
    zh = doctor_text(fake_slack, db, "zh")
    assert "DEBRIEF_DECIDERS 未设置" in zh


def test_deciders_users_and_a_readable_group_pass(fake_slack: FakeSlack, db: Path) -> None:
    fake_slack.usergroups["S0HR"] = ["UHR"]
    _code, checks = doctor(fake_slack, db, DEBRIEF_DECIDERS="ULEAD,S0HR")
    assert checks["deciders"] == {
        "name": "deciders",
        "status": "ok",
        "detail": "who may record a hiring decision: 1 user(s), 1 user group(s)",
    }
    assert fake_slack.calls("usergroups.users.list")


@pytest.mark.slack_refusals_expected
def test_a_group_that_cannot_be_read_fails(fake_slack: FakeSlack, db: Path) -> None:
    code, checks = doctor(fake_slack, db, DEBRIEF_DECIDERS="ULEAD,S0GONE")
    assert code == 1
    assert checks["deciders"]["status"] == "fail"
    detail = checks["deciders"]["detail"]
    assert "S0GONE" in detail and "no_such_subteam" in detail and "usergroups:read" in detail
