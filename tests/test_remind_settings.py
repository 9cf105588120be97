"""DEBRIEF_REMIND_TIME: `HH:MM` in DEBRIEF_TIMEZONE (default 10:00) or `off`; anything
else stops `debrief serve` with one line naming it, as the other settings do."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.cli import serve_stopped_by_settings

from bot.settings import SettingsError, load_settings

BASE_ENV = {
    "SLACK_BOT_TOKEN": "xoxb-test",
    "SLACK_SIGNING_SECRET": "secret",
    # nothing listens here: a serve that got past its settings would wait for Slack
    "SLACK_API_URL": "http://127.0.0.1:9/api/",
}


@pytest.mark.parametrize("value", ["25:00", "10", "daily", "10:5", ""])
def test_a_bad_remind_time_stops_serve_naming_it(tmp_path: Path, value: str) -> None:
    env = BASE_ENV | {"DEBRIEF_DB": str(tmp_path / "d.db"), "DEBRIEF_REMIND_TIME": value}
    # in-process: the settings stop it before it serves (support/cli.py)
    done = serve_stopped_by_settings("--port", "0", "--host", "127.0.0.1", env=env)
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert "DEBRIEF_REMIND_TIME" in lines[0] and "HH:MM" in lines[0] and "off" in lines[0]
    assert "Traceback" not in done.stderr


def test_remind_time_values() -> None:
    assert load_settings().remind_time == "10:00"
    assert load_settings(remind_time="9:05").remind_time == "09:05"
    assert load_settings(remind_time=" OFF ").remind_time == "off"
    with pytest.raises(SettingsError) as raised:
        load_settings(remind_time="24:00")
    assert "DEBRIEF_REMIND_TIME" in raised.value.said("zh")
    assert "off" in raised.value.said("en")
