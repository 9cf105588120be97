"""`debrief doctor` (the CLI in-process, against the strict fake Web API) names the token or
setting to fix: an app-level token where the bot token goes, a revoked token, a token of
another workspace or app, a bad app-level token, a signing secret of the wrong shape,
both modes configured; it reports the retention policy. `--json` says it in English
whatever the locale; a terminal gets the team's language."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.cli import Ran
from support.cli import debrief as run_debrief
from support.fake_slack import FakeSlack
from support.fake_zoom import FakeZoom
from support.socket_mode import FakeSocketModeServer

from store.sqlite.store import Store

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
SECRET_32 = "0123456789abcdef0123456789abcdef"  # the shape of Slack's signing secrets


def debrief(*args: str, **env: str) -> Ran:
    return run_debrief(*args, env=env)


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("doctor") / "d.db"
    assert debrief("index", str(SEEDS), DEBRIEF_DB=str(db)).returncode == 0
    return db


@pytest.fixture
def db(seeded: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "d.db"
    copy.write_bytes(seeded.read_bytes())
    copy.chmod(0o600)
    return copy


def doctor(fake: FakeSlack, db: Path, **env: str) -> tuple[int, dict[str, dict[str, Any]]]:
    settings = {
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_SIGNING_SECRET": SECRET_32,
        "SLACK_API_URL": fake.base_url,
        "DEBRIEF_DB": str(db),
    } | env
    done = debrief("doctor", "--json", **{k: v for k, v in settings.items() if v})
    report = json.loads(done.stdout)
    assert report["ok"] == (done.returncode == 0)
    return done.returncode, {c["name"]: c for c in report["checks"]}


def doctor_text(fake: FakeSlack, db: Path, locale: str, **env: str) -> str:
    settings = {
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_SIGNING_SECRET": SECRET_32,
        "SLACK_API_URL": fake.base_url,
        "DEBRIEF_DB": str(db),
        "DEBRIEF_LOCALE": locale,
    } | env
    return debrief("doctor", **{k: v for k, v in settings.items() if v}).stdout


def test_a_sound_http_deployment_passes(fake_slack: FakeSlack, db: Path) -> None:
    code, checks = doctor(fake_slack, db, DEBRIEF_RETENTION_DAYS="365")
    assert code == 0, checks
    assert checks["mode"] == {
        "name": "mode",
        "status": "ok",
        "detail": "HTTP mode (SLACK_SIGNING_SECRET)",
    }
    assert checks["signing secret"]["status"] == "ok"
    assert checks["slack app token"]["status"] == "skip"
    assert checks["retention"]["status"] == "ok" and "365 days" in checks["retention"]["detail"]


def test_an_app_level_token_in_the_bot_token(fake_slack: FakeSlack, db: Path) -> None:
    code, checks = doctor(fake_slack, db, SLACK_BOT_TOKEN="xapp-1-A1-123-abc")
    assert code == 1
    detail = checks["slack token"]["detail"]
    assert checks["slack token"]["status"] == "fail"
    assert "SLACK_BOT_TOKEN holds an app-level token (xapp-…)" in detail
    assert "SLACK_APP_TOKEN" in detail and "xoxb-" in detail
    assert not fake_slack.calls("auth.test")  # Slack would refuse it: not even asked
    zh = doctor_text(fake_slack, db, "zh", SLACK_BOT_TOKEN="xapp-1-A1-123-abc")
    assert "✗ slack token：SLACK_BOT_TOKEN 里是应用级令牌（xapp-…）" in zh


@pytest.mark.parametrize("error", ["invalid_auth", "token_revoked", "account_inactive"])
def test_a_revoked_bot_token_says_what_to_do(fake_slack: FakeSlack, db: Path, error: str) -> None:
    fake_slack.set_result("auth.test", {"ok": False, "error": error})
    code, checks = doctor(fake_slack, db)
    assert code == 1
    assert checks["slack token"]["detail"] == (
        f"Slack refused SLACK_BOT_TOKEN ({error}): reinstall the app or copy the"
        " Bot User OAuth Token again"
    )
    zh = doctor_text(fake_slack, db, "zh")
    assert f"拒绝了 SLACK_BOT_TOKEN（{error}）：重新安装应用，或重新复制 Bot User OAuth Token" in zh
    en = doctor_text(fake_slack, db, "en")
    assert "✗ slack token: Slack refused SLACK_BOT_TOKEN" in en


def test_a_token_of_another_workspace(fake_slack: FakeSlack, db: Path) -> None:
    store = Store(db)
    store.remember_workspace("T0THERS", "Elsewhere")
    store.close()
    code, checks = doctor(fake_slack, db)
    assert code == 1
    assert checks["workspace"]["status"] == "fail"
    detail = checks["workspace"]["detail"]
    assert "SLACK_BOT_TOKEN belongs to workspace Test (T0001)" in detail
    assert "Elsewhere (T0THERS)" in detail and "another workspace" in detail
    zh = doctor_text(fake_slack, db, "zh")
    assert "✗ workspace：SLACK_BOT_TOKEN 属于工作区 Test（T0001）" in zh


def test_the_workspace_served_before_and_the_token_agree(fake_slack: FakeSlack, db: Path) -> None:
    code, checks = doctor(fake_slack, db)
    assert checks["workspace"]["status"] == "skip"  # never served yet
    store = Store(db)
    store.remember_workspace("T0001", "Test")
    store.close()
    code, checks = doctor(fake_slack, db)
    assert code == 0 and checks["workspace"]["status"] == "ok"


# -- Socket Mode's app-level token --------------------------------------------------------


def socket_env() -> dict[str, str]:
    return {"SLACK_APP_TOKEN": "xapp-test", "SLACK_SIGNING_SECRET": ""}


def test_socket_mode_with_a_good_app_token(fake_slack: FakeSlack, db: Path) -> None:
    with FakeSocketModeServer(fake_slack):
        code, checks = doctor(fake_slack, db, **socket_env())
    assert code == 0, checks
    assert checks["slack app token"]["status"] == "ok"
    assert checks["mode"]["detail"] == "Socket Mode (SLACK_APP_TOKEN)"
    assert checks["signing secret"]["status"] == "skip"
    [opened] = fake_slack.calls("apps.connections.open")
    assert opened.token == "xapp-test"


@pytest.mark.parametrize(
    ("error", "said"),
    [
        ("invalid_auth", "Slack refused SLACK_APP_TOKEN (invalid_auth): generate a new one"),
        ("missing_scope", "SLACK_APP_TOKEN lacks the connections:write scope"),
    ],
)
def test_a_bad_app_token_is_named(fake_slack: FakeSlack, db: Path, error: str, said: str) -> None:
    fake_slack.set_result("apps.connections.open", {"ok": False, "error": error})
    code, checks = doctor(fake_slack, db, **socket_env())
    assert code == 1
    assert checks["slack token"]["status"] == "ok"  # the bot token is fine: not blamed
    assert checks["slack app token"]["status"] == "fail"
    assert checks["slack app token"]["detail"].startswith(said)
    zh = doctor_text(fake_slack, db, "zh", **socket_env())
    assert "✗ slack app token：" in zh and "SLACK_APP_TOKEN" in zh


def test_a_bot_token_in_the_app_token(fake_slack: FakeSlack, db: Path) -> None:
    code, checks = doctor(fake_slack, db, SLACK_APP_TOKEN="xoxb-test", SLACK_SIGNING_SECRET="")
    assert code == 1
    assert "SLACK_APP_TOKEN holds a bot token (xoxb-…)" in checks["slack app token"]["detail"]
    assert not fake_slack.calls("apps.connections.open")


def test_an_app_token_of_another_app(fake_slack: FakeSlack, db: Path) -> None:
    fake_slack.set_result(
        "apps.connections.open", {"url": "wss://wss.example/link/?ticket=1&app_id=A0THER"}
    )
    code, checks = doctor(fake_slack, db, **socket_env())
    assert code == 1
    assert checks["slack app token"]["detail"] == (
        "SLACK_APP_TOKEN belongs to app A0THER and SLACK_BOT_TOKEN to app A1:"
        " both must come from the same app (and workspace)"
    )


# -- the signing secret and the mode --------------------------------------------------------


@pytest.mark.parametrize(
    ("secret", "said"),
    [
        ("test-signing-secret", "does not look like Slack's (32 hex characters; this has 19"),
        ("xoxb-123-456", "SLACK_SIGNING_SECRET holds a token"),
    ],
)
def test_a_signing_secret_of_the_wrong_shape(
    fake_slack: FakeSlack, db: Path, secret: str, said: str
) -> None:
    code, checks = doctor(fake_slack, db, SLACK_SIGNING_SECRET=secret)
    assert code == 1
    assert checks["signing secret"]["status"] == "fail"
    assert said in checks["signing secret"]["detail"]
    assert secret not in checks["signing secret"]["detail"]  # a secret is never printed
    zh = doctor_text(fake_slack, db, "zh", SLACK_SIGNING_SECRET=secret)
    assert "✗ signing secret：SLACK_SIGNING_SECRET" in zh


def test_both_modes_configured(fake_slack: FakeSlack, db: Path) -> None:
    code, checks = doctor(fake_slack, db, SLACK_APP_TOKEN="xapp-test")
    assert code == 1
    assert checks["mode"]["status"] == "fail"
    assert "serve refuses to start" in checks["mode"]["detail"]
    zh = doctor_text(fake_slack, db, "zh", SLACK_APP_TOKEN="xapp-test")
    assert "✗ mode：SLACK_APP_TOKEN 和 SLACK_SIGNING_SECRET 都设置了：serve 会拒绝启动" in zh


def test_a_bot_token_beside_the_install_settings(fake_slack: FakeSlack, db: Path) -> None:
    secret = "client-secret-value"
    code, checks = doctor(fake_slack, db, SLACK_CLIENT_ID="1.2", SLACK_CLIENT_SECRET=secret)
    assert code == 1 and checks["mode"]["status"] == "fail"
    detail = checks["mode"]["detail"]
    assert "SLACK_BOT_TOKEN and SLACK_CLIENT_ID, SLACK_CLIENT_SECRET are set" in detail
    assert secret not in detail and "1.2" not in detail  # the variables' names, not values


def test_neither_mode_configured(fake_slack: FakeSlack, db: Path) -> None:
    code, checks = doctor(fake_slack, db, SLACK_SIGNING_SECRET="")
    assert code == 1 and "serve needs one" in checks["mode"]["detail"]


# -- retention ------------------------------------------------------------------------------


def test_retention_is_reported_and_its_absence_warned(fake_slack: FakeSlack, db: Path) -> None:
    code, checks = doctor(fake_slack, db)
    assert code == 0  # a warning, not a failure
    assert checks["retention"]["status"] == "warn"
    assert "DEBRIEF_RETENTION_DAYS is not set" in checks["retention"]["detail"]
    assert "PIPL" in checks["retention"]["detail"]
    zh = doctor_text(fake_slack, db, "zh")
    assert "! retention：没有设置 DEBRIEF_RETENTION_DAYS" in zh and "全部通过" in zh

    store = Store(db)
    store.db.execute(
        "UPDATE candidates SET first_indexed_at = '2020-01-01T00:00:00.000000+00:00',"
        " interviewed_at = NULL WHERE id LIKE '002%'"
    )
    store.close()
    code, checks = doctor(fake_slack, db, DEBRIEF_RETENTION_DAYS="30")
    assert checks["retention"]["status"] == "ok"
    assert checks["retention"]["detail"].endswith("due now: 1")
    en = doctor_text(fake_slack, db, "en", DEBRIEF_RETENTION_DAYS="30")
    assert "✓ retention: candidates are forgotten 30 days after their interview" in en


# -- before the first start -----------------------------------------------------------------


def test_a_database_not_created_yet_is_a_warning_before_the_first_start(
    fake_slack: FakeSlack, tmp_path: Path
) -> None:
    missing = tmp_path / "data" / "d.db"
    code, checks = doctor(fake_slack, missing, DEBRIEF_RETENTION_DAYS="365")
    assert code == 0, checks  # the setup steps end with doctor, before serve ever ran
    assert checks["database"]["status"] == "warn"
    assert checks["database"]["detail"].endswith("debrief serve creates it on its first start too")
    assert checks["retention"]["status"] == "ok"
    zh = doctor_text(fake_slack, missing, "zh")
    assert f"! database：{missing} 没有数据库" in zh and "第一次启动时也会创建它" in zh
    assert not missing.parent.exists()  # doctor changes nothing

    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", "utf-8")
    code, checks = doctor(fake_slack, blocked / "d.db")
    assert code == 1 and checks["database"]["status"] == "fail"


def test_how_mentions_last_arrived_tells_whether_should_escape_is_on(
    fake_slack: FakeSlack, db: Path
) -> None:
    """A bot token cannot read the manifest: doctor says what the latest `/candidate 邀请`
    with mentions showed, and nothing before one came."""
    _code, checks = doctor(fake_slack, db)
    assert checks["mentions"]["status"] == "skip"
    assert "cannot read the manifest" in checks["mentions"]["detail"]
    store = Store(db)
    store.note_mentions(escaped=False)  # `@ann` arrived as plain text
    store.close()
    code, checks = doctor(fake_slack, db)
    assert code == 0 and checks["mentions"]["status"] == "warn"
    assert "should_escape: true" in checks["mentions"]["detail"]
    assert "should_escape" in doctor_text(fake_slack, db, "zh")
    store = Store(db)
    store.note_mentions(escaped=True)
    store.close()
    _code, checks = doctor(fake_slack, db)
    assert (
        checks["mentions"]["status"] == "ok"
        and "should_escape is on" in checks["mentions"]["detail"]
    )


def test_installed_in_many_workspaces_the_token_key_must_decrypt_every_token(
    fake_slack: FakeSlack, db: Path
) -> None:
    from cryptography.fernet import Fernet

    from bot.oauth_cipher import TokenCipher
    from store.workspace_models import Installation

    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    store = Store(str(db))
    store.save_installation(
        Installation(
            enterprise_id=None,
            team_id="T0002",
            team_name="Beta",
            bot_id="B1",
            bot_user_id="U1",
            bot_scopes="commands",
            bot_token_enc=TokenCipher(old).encrypt("xoxb-2-secret"),
            token_type="bot",
        )
    )
    store.close()
    many = {
        "SLACK_BOT_TOKEN": "",
        "SLACK_CLIENT_ID": "1.2",
        "SLACK_CLIENT_SECRET": "s",
        "SLACK_STATE_SECRET": "t",
    }
    code, checks = doctor(fake_slack, db, **many, DEBRIEF_TOKEN_KEY=old)
    assert checks["install"]["status"] == "ok" and checks["token key"]["status"] == "ok"
    assert "slack token" not in checks and checks["mode"]["status"] == "ok"
    # the key replaced without the old one after it: said, naming the workspace
    code, checks = doctor(fake_slack, db, **many, DEBRIEF_TOKEN_KEY=new)
    assert code == 1 and checks["token key"]["status"] == "fail"
    assert "T0002" in checks["token key"]["detail"]
    assert "xoxb-2-secret" not in json.dumps(checks)
    code, checks = doctor(fake_slack, db, **many, DEBRIEF_TOKEN_KEY=f"{new},{old}")
    assert checks["token key"]["status"] == "ok"
    # a setting missing: named
    code, checks = doctor(fake_slack, db, **many | {"SLACK_STATE_SECRET": ""})
    assert code == 1 and "SLACK_STATE_SECRET" in checks["install"]["detail"]


# -- Zoom (issue 48) ----------------------------------------------------------------------------


def test_zoom_is_checked_when_connected(fake_slack: FakeSlack, db: Path, zoom: FakeZoom) -> None:
    code, checks = doctor(fake_slack, db)
    assert checks["zoom"]["status"] == "skip"  # not connected: nothing to fix
    zoom_env = {
        "DEBRIEF_ZOOM_ACCOUNT_ID": zoom.account_id,
        "DEBRIEF_ZOOM_CLIENT_ID": zoom.client_id,
        "DEBRIEF_ZOOM_CLIENT_SECRET": zoom.client_secret,
        "DEBRIEF_ZOOM_SECRET_TOKEN": zoom.secret_token,
        "DEBRIEF_ZOOM_API_URL": zoom.api_url,
        "DEBRIEF_ZOOM_OAUTH_URL": zoom.oauth_url,
        "DEBRIEF_ZOOM_CHANNEL": "C0ZOOM",
    }
    code, checks = doctor(fake_slack, db, **zoom_env)
    assert checks["zoom"]["status"] == "ok" and "token" in checks["zoom"]["detail"]
    assert zoom.token_requests == 1
    arrivals = checks["zoom arrivals"]["detail"]
    assert (
        "webhook last brought a transcript: never" in arrivals
        and "(DEBRIEF_ZOOM_POLL off)" in arrivals
    )
    code, checks = doctor(fake_slack, db, **(zoom_env | {"DEBRIEF_ZOOM_CLIENT_SECRET": "wrong"}))
    assert code != 0 and checks["zoom"]["status"] == "fail"
    assert "gave no token" in checks["zoom"]["detail"]
    assert "wrong" not in checks["zoom"]["detail"]  # never the secret itself
    zoom.fail("token", 503)  # Zoom down: said so, never "refused"
    code, checks = doctor(fake_slack, db, **zoom_env)
    assert checks["zoom"]["status"] == "fail" and "just now" in checks["zoom"]["detail"]
    bare = {"DEBRIEF_ZOOM_ACCOUNT_ID": zoom.account_id, "DEBRIEF_ZOOM_API_URL": zoom.api_url}
    code, checks = doctor(fake_slack, db, **bare)
    assert checks["zoom"]["status"] == "warn"  # the webhook alone: no sync, no expired links
    assert checks["zoom webhook"]["status"] == "warn"  # no secret token: every event refused
    assert "DEBRIEF_ZOOM_SECRET_TOKEN" in checks["zoom webhook"]["detail"]


def test_an_app_installed_before_users_read_email_is_warned_not_failed(
    fake_slack: FakeSlack, db: Path
) -> None:
    fake_slack.scopes = tuple(s for s in fake_slack.scopes if s != "users:read.email")
    code, checks = doctor(fake_slack, db)
    assert code == 0 and checks["scopes"]["status"] == "warn"
    assert "users:read.email" in checks["scopes"]["detail"]
    fake_slack.scopes = tuple(s for s in fake_slack.scopes if s != "im:write")
    code, checks = doctor(fake_slack, db)
    assert code != 0 and checks["scopes"]["status"] == "fail"
