"""Settings an operator gets wrong stop `debrief serve` with one line naming the variable.

Each bad setting runs `debrief serve` in-process: it must exit 2 before it serves (were
it to go on, serving raises at once: support/cli.py). Valid settings, and what only
serving checks, run the real `debrief serve` process: its start-up is the point there.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli import Ran, serve_stopped_by_settings

from bot.settings import SettingsError, load_settings

BASE_ENV = {
    "SLACK_BOT_TOKEN": "xoxb-test",
    "SLACK_SIGNING_SECRET": "secret",
    # nothing listens here: a serve that got past its settings would wait for Slack
    "SLACK_API_URL": "http://127.0.0.1:9/api/",
}


def serve(tmp_path: Path, **env: str) -> Ran:
    """`debrief serve` with settings that must stop it before it serves."""
    given = BASE_ENV | {"DEBRIEF_DB": str(tmp_path / "d.db")} | env
    return serve_stopped_by_settings("--port", "0", "--host", "127.0.0.1", env=given)


def serve_process(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """The real `debrief serve`, for settings that pass: it starts, and stops at Slack."""
    full = {
        k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))
    } | BASE_ENV
    full |= {"DEBRIEF_DB": str(tmp_path / "d.db")} | env
    return subprocess.run(
        [sys.executable, "-m", "bot", "serve", "--port", "0", "--host", "127.0.0.1"],
        env=full,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"DEBRIEF_ALLOWED_USERS": "alice,bob"}, ["DEBRIEF_ALLOWED_USERS", "'alice'", "member ID"]),
        ({"DEBRIEF_ALLOWED_USERS": "U0123, @bob"}, ["DEBRIEF_ALLOWED_USERS", "'@bob'"]),
        ({"DEBRIEF_ALLOWED_CHANNELS": "#hiring"}, ["DEBRIEF_ALLOWED_CHANNELS", "'#hiring'", "ID"]),
        ({"DEBRIEF_DIGEST_CHANNEL": "#hiring"}, ["DEBRIEF_DIGEST_CHANNEL", "'#hiring'"]),
        ({"DEBRIEF_TIMEZONE": "Mars/Olympus"}, ["DEBRIEF_TIMEZONE", "IANA"]),
        ({"DEBRIEF_DIGEST_TIME": "25:00"}, ["DEBRIEF_DIGEST_TIME", "HH:MM"]),
        ({"DEBRIEF_SEARCH_WORKERS": "many"}, ["DEBRIEF_SEARCH_WORKERS", "0 到 32"]),
        ({"DEBRIEF_SEARCH_WORKERS": "99"}, ["DEBRIEF_SEARCH_WORKERS", "0 到 32"]),
        ({"DEBRIEF_LOCALE": "fr"}, ["DEBRIEF_LOCALE"]),
        ({"DEBRIEF_LOG_LEVEL": "loud"}, ["DEBRIEF_LOG_LEVEL"]),
        ({"DEBRIEF_LOG_FORMAT": "xml"}, ["DEBRIEF_LOG_FORMAT"]),
        ({"DEBRIEF_TRANSCRIPTS": "/no/such/folder"}, ["DEBRIEF_TRANSCRIPTS", "不存在"]),
        # one workspace's token beside the install for many: Bolt would read the client
        # id and secret itself and keep the installs in plain files
        ({"SLACK_CLIENT_ID": "1.2"}, ["SLACK_BOT_TOKEN", "SLACK_CLIENT_ID"]),
        (
            {"SLACK_CLIENT_SECRET": "s", "SLACK_STATE_SECRET": "t"},
            ["SLACK_BOT_TOKEN", "SLACK_CLIENT_SECRET, SLACK_STATE_SECRET"],
        ),
        ({"SLACK_REDIRECT_URI": "http://debrief.example.com/r"}, ["SLACK_REDIRECT_URI", "https"]),
        ({"DEBRIEF_TOKEN_KEY": "not-a-key"}, ["DEBRIEF_TOKEN_KEY", "Fernet"]),
        ({"DEBRIEF_TOKEN_KEY": f"{'A' * 43}=,short"}, ["DEBRIEF_TOKEN_KEY", "Fernet"]),
        ({"DEBRIEF_UNINSTALL_GRACE": "-1"}, ["DEBRIEF_UNINSTALL_GRACE", "0 到 36500"]),
        ({"DEBRIEF_UNINSTALL_GRACE": "thirty"}, ["DEBRIEF_UNINSTALL_GRACE", "0 到 36500"]),
        ({"DEBRIEF_TOKEN_ROTATION_MINUTES": "720"}, ["DEBRIEF_TOKEN_ROTATION_MINUTES", "1 到 719"]),
        (
            {"SLACK_CLIENT_ID": "1.2", "DEBRIEF_LOCALE": "en"},
            ["both SLACK_BOT_TOKEN and SLACK_CLIENT_ID are set"],
        ),
        # installing in many workspaces: all three of the app's settings, and the key
        (
            {"SLACK_BOT_TOKEN": "", "SLACK_CLIENT_ID": "1.2"},
            ["SLACK_CLIENT_SECRET, SLACK_STATE_SECRET", "多个工作区"],
        ),
        (
            {
                "SLACK_BOT_TOKEN": "",
                "SLACK_CLIENT_ID": "1.2",
                "SLACK_CLIENT_SECRET": "s",
                "SLACK_STATE_SECRET": "t",
            },
            ["DEBRIEF_TOKEN_KEY", "Fernet"],
        ),
        (
            {"DEBRIEF_DIGEST_CHANNEL": "C0DIGEST", "DEBRIEF_ALLOWED_CHANNELS": "C0HIRE"},
            ["DEBRIEF_DIGEST_CHANNEL", "DEBRIEF_ALLOWED_CHANNELS"],
        ),
    ],
)
def test_bad_setting_stops_serve_naming_it(
    tmp_path: Path, env: dict[str, str], expected: list[str]
) -> None:
    done = serve(tmp_path, **env)
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    for part in expected:
        assert part in lines[0]
    assert "Traceback" not in done.stderr


def test_transcripts_that_is_a_file_stops_serve(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "notes.txt"
    not_a_folder.write_text("hello", encoding="utf-8")
    done = serve(tmp_path, DEBRIEF_TRANSCRIPTS=str(not_a_folder))
    assert done.returncode == 2
    # said in DEBRIEF_LOCALE, zh by default
    assert "DEBRIEF_TRANSCRIPTS" in done.stderr and "不是文件夹" in done.stderr


def test_good_ids_pass_the_settings_check(tmp_path: Path) -> None:
    # Valid settings get past validation and stop only at Slack, which refuses the token
    # (serve waits for a Slack it cannot reach: one that answers is needed here).
    from support.fake_slack import FakeSlack

    with FakeSlack() as fake:
        fake.set_result("auth.test", {"ok": False, "error": "invalid_auth"})
        done = serve_process(
            tmp_path,
            SLACK_API_URL=fake.base_url,
            DEBRIEF_ALLOWED_USERS="U0123ABC, W0456DEF, S0789GHI",
            DEBRIEF_ALLOWED_CHANNELS="C0HIRE,G0PRIVATE",
            DEBRIEF_DIGEST_CHANNEL="C0HIRE",
            DEBRIEF_TRANSCRIPTS=str(tmp_path),
        )
    assert done.returncode == 2
    assert "DEBRIEF_" not in done.stderr.splitlines()[-1]
    assert "SLACK_BOT_TOKEN" in done.stderr.splitlines()[-1]


def test_the_install_settings_are_read_and_blank_ones_are_unset() -> None:
    from bot.settings import load_settings

    key = "A" * 43 + "="  # 32 zero-ish bytes in URL-safe base64: a well-formed key
    s = load_settings(
        client_id=" 1.2 ",
        client_secret="",
        redirect_uri="https://debrief.example.com/slack/oauth_redirect",
        token_key=f"{key}, {key}",
        uninstall_grace_days="0",
        token_rotation_minutes=" ",
    )
    assert s.client_id == "1.2" and s.client_secret is None and s.state_secret is None
    assert s.oauth_variables == ["SLACK_CLIENT_ID"]
    assert s.uninstall_grace_days == 0 and s.token_rotation_minutes == 120
    assert key not in repr(s)  # the key that decrypts every token stays out of logs
    assert load_settings().uninstall_grace_days == 30


def test_socket_mode_installed_in_many_workspaces_needs_a_port(tmp_path: Path) -> None:
    """The install pages are web pages: without --port nothing would serve them."""
    from cryptography.fernet import Fernet

    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))}
    env |= {
        "SLACK_APP_TOKEN": "xapp-1-test",
        "SLACK_CLIENT_ID": "1.2",
        "SLACK_CLIENT_SECRET": "s",
        "SLACK_STATE_SECRET": "t",
        "DEBRIEF_TOKEN_KEY": Fernet.generate_key().decode(),
        "SLACK_API_URL": "http://127.0.0.1:9/api/",
        "DEBRIEF_DB": str(tmp_path / "d.db"),
        "DEBRIEF_LOCALE": "en",
    }
    done = subprocess.run(
        [sys.executable, "-m", "bot", "serve"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2, done.stderr
    assert "--port" in done.stderr and "Traceback" not in done.stderr


def test_the_zoom_settings_are_read_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings()
    assert settings.zoom_poll is None  # off unless asked
    assert settings.zoom_topics == "面试|面試|面談|interview|[一二三四终終]面|HR面"
    assert settings.zoom_api_url == "https://api.zoom.us/v2/"
    assert settings.zoom_oauth_url == "https://zoom.us/"
    for said, seconds in (
        ("15m", 900),
        ("1h", 3600),
        ("90s", 90),
        ("20", 1200),
        ("off", None),
        ("5s", 5),  # a test, or a team that wants its cards within seconds without a URL
    ):
        monkeypatch.setenv("DEBRIEF_ZOOM_POLL", said)
        assert load_settings().zoom_poll == seconds
    for bad in ("soon", "0s", "2d"):
        monkeypatch.setenv("DEBRIEF_ZOOM_POLL", bad)
        with pytest.raises(SettingsError, match="DEBRIEF_ZOOM_POLL"):
            load_settings()
    monkeypatch.delenv("DEBRIEF_ZOOM_POLL")
    monkeypatch.setenv("DEBRIEF_ZOOM_TOPICS", "面试(")
    with pytest.raises(SettingsError, match="DEBRIEF_ZOOM_TOPICS"):
        load_settings()
    monkeypatch.setenv("DEBRIEF_ZOOM_TOPICS", "screen|onsite")
    assert load_settings().zoom_topics == "screen|onsite"
    monkeypatch.setenv("DEBRIEF_ZOOM_CHANNEL", "#hiring")
    with pytest.raises(SettingsError, match="DEBRIEF_ZOOM_CHANNEL"):
        load_settings()
