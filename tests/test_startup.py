"""`debrief serve` (the real process) while Slack cannot be reached: up at once, `/healthz`
says why it is not ready (503 `starting: Slack unreachable`), one log line an attempt,
ready as soon as the strict fake Web API comes up on the address it was given, stopped
cleanly by SIGTERM meanwhile. A token Slack refuses stops it with one line naming that
token, in the team's language; so does a token of another workspace than the one the
database serves."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.fake_slack import FakeSlack
from support.serve import ServeProcess
from support.servers import free_port
from support.signed import command_body, command_payload, post_signed
from support.slackbot import SECRET, all_text
from support.socket_mode import FakeSocketModeServer
from support.waiting import wait_until

from store.sqlite.store import Store

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
WAITING = "starting: Slack unreachable"


class Serve(ServeProcess):
    """`debrief serve` running against a Slack at `api_port`, its log read as it comes."""

    def __init__(self, tmp_path: Path, api_port: int, *args: str, **env: str) -> None:
        self.api = f"http://127.0.0.1:{api_port}/api/"
        super().__init__(
            {
                "SLACK_BOT_TOKEN": "xoxb-test",
                "SLACK_API_URL": self.api,
                "DEBRIEF_DB": str(tmp_path / "served.db"),
            }
            | env
        )

    def attempts(self) -> list[str]:
        return [line for line in self.lines if "cannot be reached" in line]

    def exit_code(self) -> int:
        """Its exit code, once it stopped by itself."""
        code = self.proc.wait(timeout=60)
        self._reader.join(timeout=10)
        return code

    def stop(self) -> int:
        return self.terminate()


@pytest.fixture
def api_port() -> int:
    return free_port()  # where Slack will be: nothing listens there yet


def waits_for_slack(serve: Serve) -> None:
    """It is up, says why it is not ready, and has tried Slack twice, a line each."""
    wait_until("/healthz says it waits", lambda: serve.healthz() == (503, WAITING), timeout=60)
    wait_until("two attempts", lambda: len(serve.attempts()) >= 2, timeout=60)
    assert serve.proc.poll() is None, serve.log
    numbers = [int(re.search(r"attempt (\d+)", line).group(1)) for line in serve.attempts()]  # type: ignore[union-attr]
    assert numbers == list(range(1, len(numbers) + 1))
    about_slack = [
        line for line in serve.lines if serve.api.rstrip("/") in line or "slack_sdk" in line
    ]
    assert about_slack == serve.attempts()  # one line an attempt, nothing from slack_sdk


def test_http_mode_waits_for_slack_then_serves(tmp_path: Path, api_port: int) -> None:
    serve = Serve(tmp_path, api_port, SLACK_SIGNING_SECRET=SECRET)
    try:
        waits_for_slack(serve)
        events = f"http://127.0.0.1:{serve.port}/slack/events"
        with FakeSlack(port=api_port) as fake:
            wait_until("/healthz says ok", lambda: serve.healthz() == (200, "ok"), timeout=60)
            body = command_body("帮助", response_url=fake.response_url("up"))
            assert post_signed(events, body, SECRET)[0] == 200
            fake.wait_for("response/up", timeout=15)
            assert "/candidate" in all_text(fake.responses("up")[0])
            assert serve.stop() == 0
    finally:
        serve.stop()
    assert "Traceback" not in serve.log and "stopped" in serve.log
    # nothing a request needs is loaded after it says ready: the first search waits for nothing
    loaded = next(i for i, line in enumerate(serve.lines) if "dictionary is loaded" in line)
    workers = next(i for i, line in enumerate(serve.lines) if "search workers ready" in line)
    ready = next(i for i, line in enumerate(serve.lines) if "ready:" in line)
    assert loaded < ready and workers < ready  # ranking happens off the serving interpreter


def test_sigterm_while_waiting_for_slack_stops_cleanly(tmp_path: Path, api_port: int) -> None:
    serve = Serve(tmp_path, api_port, SLACK_SIGNING_SECRET=SECRET)
    waits_for_slack(serve)
    assert serve.stop() == 0, serve.log
    assert "Traceback" not in serve.log and serve.lines[-1].endswith("stopped"), serve.log


def test_socket_mode_waits_for_slack_and_answers_healthz_on_its_port(
    tmp_path: Path, api_port: int
) -> None:
    serve = Serve(tmp_path, api_port, SLACK_APP_TOKEN="xapp-test")
    try:
        waits_for_slack(serve)
        fake = FakeSlack(port=api_port)
        with FakeSocketModeServer(fake) as ws, fake:
            wait_until("/healthz says ok", lambda: serve.healthz() == (200, "ok"), timeout=60)
            ws.wait_for_connection()
            payload = command_payload("帮助", response_url=fake.response_url("sm"))
            envelope = ws.send_envelope(type="slash_commands", payload=payload)
            assert ws.wait_for_ack(envelope)["envelope_id"] == envelope
            fake.wait_for("response/sm", timeout=15)
            assert serve.stop() == 0
    finally:
        serve.stop()
    assert "Traceback" not in serve.log


# -- a token Slack refuses: one line, naming it -----------------------------------------------


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("en", "Error: cannot start: Slack at {url} refused SLACK_APP_TOKEN (invalid_auth):"),
        ("zh", "错误：无法启动：{url} 的 Slack 拒绝了 SLACK_APP_TOKEN（invalid_auth）："),
    ],
)
def test_socket_mode_names_the_app_token_slack_refused(
    fake_slack: FakeSlack, tmp_path: Path, locale: str, said: str
) -> None:
    fake_slack.set_result("apps.connections.open", {"ok": False, "error": "invalid_auth"})
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "serve"],
        env=kept
        | {
            "SLACK_BOT_TOKEN": "xoxb-test",
            "SLACK_APP_TOKEN": "xapp-revoked",
            "SLACK_API_URL": fake_slack.base_url,
            "DEBRIEF_DB": str(tmp_path / "s.db"),
            "DEBRIEF_LOCALE": locale,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(said.format(url=fake_slack.base_url)), last
    assert "connections:write" in last
    assert "SLACK_BOT_TOKEN" not in done.stderr and "ERROR" not in done.stderr
    assert "Failed to retrieve WSS URL" not in done.stderr and "Traceback" not in done.stderr
    assert [c.method for c in fake_slack.calls()] == ["auth.test", "apps.connections.open"]


@pytest.mark.parametrize(
    ("locale", "words"), [("en", "another database"), ("zh", "另设一个数据库")]
)
def test_a_token_of_another_workspace_is_refused(
    fake_slack: FakeSlack, tmp_path: Path, locale: str, words: str
) -> None:
    store = Store(tmp_path / "served.db")
    assert store.remember_workspace("T0THERS", "Elsewhere") == ("T0THERS", "Elsewhere")
    store.close()
    serve = Serve(
        tmp_path,
        fake_slack.port,
        SLACK_SIGNING_SECRET=SECRET,
        DEBRIEF_LOCALE=locale,
    )
    assert serve.exit_code() == 2, serve.log
    last = serve.lines[-1]
    assert "SLACK_BOT_TOKEN" in last and "T0001" in last and "T0THERS" in last and words in last
    assert not fake_slack.calls("chat.postMessage")


def test_the_first_workspace_served_is_remembered(fake_slack: FakeSlack, tmp_path: Path) -> None:
    serve = Serve(tmp_path, fake_slack.port, SLACK_SIGNING_SECRET=SECRET)
    try:
        wait_until("/healthz says ok", lambda: serve.healthz() == (200, "ok"), timeout=60)
    finally:
        assert serve.stop() == 0
    store = Store(tmp_path / "served.db", create=False)
    assert store.workspace() == ("T0001", "Test")
    store.close()
