"""`debrief serve` as a real process (bad settings: in-process, stopped before it serves),
and Socket Mode against a local WebSocket server."""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.cli import serve_stopped_by_settings
from support.fake_slack import FakeSlack
from support.servers import free_port
from support.signed import command_body, command_payload, post_signed
from support.slackbot import SECRET, all_text
from support.socket_mode import FakeSocketModeServer
from support.waiting import wait_until

from bot.app import create_app
from bot.http_limits import MAX_BODY
from bot.server import socket_mode_handler
from bot.settings import load_settings
from store.indexer import index_paths
from store.sqlite.store import Store


def clean_env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))}
    return env | values


@pytest.mark.parametrize(
    ("env", "variable"),
    [
        ({}, "SLACK_BOT_TOKEN"),
        ({"SLACK_BOT_TOKEN": "xoxb-1"}, "SLACK_APP_TOKEN"),
        (
            {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1", "SLACK_SIGNING_SECRET": "s"},
            "SLACK_SIGNING_SECRET",
        ),
        ({"SLACK_BOT_TOKEN": "xapp-1", "SLACK_SIGNING_SECRET": "s"}, "SLACK_BOT_TOKEN"),
        (
            {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s", "SLACK_API_URL": "ftp://x"},
            "SLACK_API_URL",
        ),
        (
            {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s", "DEBRIEF_LOCALE": "fr"},
            "DEBRIEF_LOCALE",
        ),
    ],
)
def test_bad_settings_exit_2_with_one_line(
    tmp_path: Path, env: dict[str, str], variable: str
) -> None:
    done = serve_stopped_by_settings("--db", str(tmp_path / "x.db"), env=env)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and variable in lines[0], done.stderr
    assert "Traceback" not in done.stderr


@contextlib.contextmanager
def serving(fake: FakeSlack, where: Path, seeds_dir: Path) -> Iterator[tuple[str, Path]]:
    """The real `debrief serve` (HTTP) on a copy of the seeds in `where`: (its events URL,
    the folder it keeps indexed); at its end, no traceback, token, secret or transcript
    text in its log."""
    folder = where / "transcripts"
    shutil.copytree(seeds_dir, folder)
    port = free_port()
    env = clean_env(
        SLACK_BOT_TOKEN="xoxb-test",
        SLACK_SIGNING_SECRET=SECRET,
        SLACK_API_URL=fake.base_url,
        DEBRIEF_DB=str(where / "served.db"),
        DEBRIEF_TRANSCRIPTS=str(folder),
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve", "--port", str(port), "--host", "127.0.0.1"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "/healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    raise AssertionError(
                        proc.stdout.read().decode() if proc.stdout else "no output"
                    ) from None
                time.sleep(0.1)
        yield url + "/slack/events", folder
    finally:
        proc.terminate()
        try:
            out, _ = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
        log = out.decode("utf-8", "replace")
        assert "Traceback" not in log, log
        assert "xoxb-test" not in log and SECRET not in log
        for text in ("神经网络模型设计师", "这位面试者", "测试工程师", "All-Reduce"):
            assert text not in log  # logs never carry transcript text


@pytest.fixture
def served(fake_slack: FakeSlack, tmp_path: Path, seeds_dir: Path) -> Iterator[tuple[str, Path]]:
    """A server of the test's own, on the test's fake Slack."""
    with serving(fake_slack, tmp_path, seeds_dir) as events:
        yield events


@pytest.fixture(scope="module")
def served_for_bodies(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """One server for the tests of request bodies (of this module, in one xdist worker):
    they send no command, so no Slack of a test's own, and each leaves nothing behind
    (its connection closed); the next finds the server as sound as the first did."""
    seeds = Path(__file__).resolve().parent.parent / "seeds"
    with (
        FakeSlack(name="fake-slack-bodies") as fake,
        serving(fake, tmp_path_factory.mktemp("bodies"), seeds) as events,
    ):
        yield events


def ask(fake: FakeSlack, url: str, text: str, name: str) -> dict[str, object]:
    status, _h, _b = post_signed(
        url, command_body(text, response_url=fake.response_url(name)), SECRET
    )
    assert status == 200
    fake.wait_for(f"response/{name}", timeout=15)
    return fake.responses(name)[0]


def test_serve_http_keeps_the_folder_indexed(
    fake_slack: FakeSlack, served: tuple[str, Path]
) -> None:
    url, folder = served
    deadline = time.time() + 20
    reply = ask(fake_slack, url, "summary 002", "first")
    while "神经网络模型设计师" not in all_text(reply) and time.time() < deadline:  # first index run
        time.sleep(0.5)
        reply = ask(fake_slack, url, "summary 002", f"again{time.time()}")
    assert "神经网络模型设计师" in all_text(reply)

    (folder / "新人.txt").write_text(
        "岗位：测试工程师 从业年限：2年\n问题1：你好\n考察目标：礼貌\n回答：\n点评：待定\n", "utf-8"
    )
    (folder / "003_20561f43447eea49.txt").unlink()
    deadline = time.time() + 20
    while time.time() < deadline:
        new = ask(fake_slack, url, "summary 新人", f"n{time.time()}")
        gone = ask(fake_slack, url, "summary 003_20561f43447eea49", f"g{time.time()}")
        if "测试工程师" in all_text(new) and "没有找到" in all_text(gone):
            break
        time.sleep(0.5)
    assert "测试工程师" in all_text(new)
    assert "没有找到" in all_text(gone)


# -- open to the internet: slow clients and large bodies ---------------------------------------

SLOW_CLIENTS = 150  # more than waitress's default connection limit (100)


def connect(url: str) -> socket.socket:
    port = urllib.parse.urlsplit(url).port
    assert port is not None
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed (or reset) this connection, without waiting (`poll`, not
    `select`, which refuses a descriptor past 1023)."""
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    if not poller.poll(0):
        return False
    try:
        return sock.recv(65536) == b""
    except OSError:
        return True


def test_slow_clients_do_not_take_the_bot_offline(
    fake_slack: FakeSlack, served: tuple[str, Path]
) -> None:
    url, _folder = served
    base = url.removesuffix("/slack/events")
    slow: list[socket.socket] = []
    try:
        for _ in range(SLOW_CLIENTS):  # each sends a request line and a header, then waits
            sock = connect(url)
            sock.sendall(b"POST /slack/events HTTP/1.1\r\nHost: bot\r\nX-Slow: 1\r\n")
            slow.append(sock)

        def healthz() -> int:
            with urllib.request.urlopen(base + "/healthz", timeout=30) as r:
                return int(r.status)

        def command() -> int:
            body = command_body("帮助", response_url=fake_slack.response_url("held"))
            return post_signed(url, body, SECRET, timeout=30)[0]

        # Answered while the slow clients are still held: had they starved the server,
        # these would have waited for the server's request deadline to close them.
        assert healthz() == 200
        assert command() == 200
        assert sum(not closed_by_server(s) for s in slow) >= 100
        fake_slack.wait_for("response/held", timeout=15)

        # A client still sending its headers, a line every second, is cut off all the same.
        trickler = connect(url)
        trickler.sendall(b"POST /slack/events HTTP/1.1\r\nHost: bot\r\n")
        deadline = time.monotonic() + 30
        while not closed_by_server(trickler):
            assert time.monotonic() < deadline, "a client sending headers slowly is never cut off"
            select.select([trickler], [], [], 1.0)  # the server closing it, or a second
            try:
                trickler.sendall(b"X-Slow: 1\r\n")
            except OSError:
                break  # closed
        trickler.close()
        wait_until("the slow clients cut off", lambda: all(closed_by_server(s) for s in slow), 30)
    finally:
        for sock in slow:
            sock.close()


def send_head(url: str, headers: str) -> socket.socket:
    sock = connect(url)
    sock.sendall(f"POST /slack/events HTTP/1.1\r\nHost: bot\r\n{headers}\r\n".encode())
    return sock


def status_of(sock: socket.socket) -> int | None:
    """The status of the server's answer, or None when it closed the connection unanswered."""
    try:
        head = sock.recv(65536)
    except ConnectionResetError:
        return None
    except TimeoutError:
        raise AssertionError("no answer: the server is still waiting for the body") from None
    return int(head.split()[1]) if head else None


@pytest.mark.parametrize("length", [300 * 1024 * 1024, MAX_BODY + 1])
def test_a_body_over_the_limit_is_refused_before_it_is_sent(
    served_for_bodies: tuple[str, Path], length: int
) -> None:
    url, _folder = served_for_bodies
    sock = send_head(url, f"Content-Type: application/json\r\nContent-Length: {length}\r\n")
    with sock:  # not one byte of the body sent: the answer cannot wait for it
        assert status_of(sock) == 413


def test_a_body_at_the_limit_is_read_then_checked(served_for_bodies: tuple[str, Path]) -> None:
    url, _folder = served_for_bodies
    status, _h, _b = post_signed(url, b"{" + b" " * (MAX_BODY - 2) + b"}", "not-the-secret")
    assert status == 401


def test_a_chunked_body_is_refused_once_past_the_limit(served_for_bodies: tuple[str, Path]) -> None:
    url, _folder = served_for_bodies
    chunk = 64 * 1024
    sent = 0
    sock = send_head(url, "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n")
    with sock:  # 8 times the limit, and never the last chunk: the answer cannot wait for it
        try:
            while sent < 8 * MAX_BODY and not select.select([sock], [], [], 0)[0]:
                sock.sendall(b"%x\r\n" % chunk + b" " * chunk + b"\r\n")
                sent += chunk
        except OSError:
            pass  # the server closed the connection on us
        assert status_of(sock) in (413, None)


def test_socket_mode_round_trip(fake_slack: FakeSlack, tmp_path: Path, seeds_dir: Path) -> None:
    with FakeSocketModeServer(fake_slack) as ws:
        settings = load_settings(
            bot_token="xoxb-test",
            app_token="xapp-test",
            api_url=fake_slack.base_url,
            db_path=str(tmp_path / "s.db"),
        )
        assert settings.require_slack() == "socket"
        store = Store(settings.db_path)
        index_paths(store, [seeds_dir])
        handler = socket_mode_handler(create_app(settings, store), "xapp-test")
        handler.connect()  # type: ignore[no-untyped-call]
        try:
            ws.wait_for_connection()
            payload = command_payload("未回答 000", response_url=fake_slack.response_url("sm"))
            envelope = ws.send_envelope(type="slash_commands", payload=payload)
            ack = ws.wait_for_ack(envelope)
            assert ack["envelope_id"] == envelope
            fake_slack.wait_for("response/sm", timeout=10)
            [reply] = fake_slack.responses("sm")
            assert "Replicated training" in all_text(reply)
            opened = fake_slack.calls("apps.connections.open")
            assert opened and opened[0].token == "xapp-test"
        finally:
            handler.close()  # type: ignore[no-untyped-call]


# -- failing to start: Slack's fault, or ours --------------------------------------------------


def serve_until_exit(tmp_path: Path, api_url: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "serve", "--port", str(free_port()), "--host", "127.0.0.1"],
        env=clean_env(
            SLACK_BOT_TOKEN="xoxb-test",
            SLACK_SIGNING_SECRET=SECRET,
            SLACK_API_URL=api_url,
            DEBRIEF_DB=str(tmp_path / "x.db"),
            **env,
        ),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        (
            "en",
            "Error: cannot start: Slack at {url} refused SLACK_BOT_TOKEN (invalid_auth):"
            " reinstall the app or copy the Bot User OAuth Token again",
        ),
        (
            "zh",
            "错误：无法启动：{url} 的 Slack 拒绝了 SLACK_BOT_TOKEN（invalid_auth）："
            "重新安装应用，或重新复制 Bot User OAuth Token",
        ),
    ],
)
def test_serve_says_slack_refused_the_token(
    fake_slack: FakeSlack, tmp_path: Path, locale: str, said: str
) -> None:
    fake_slack.set_result("auth.test", {"ok": False, "error": "invalid_auth"})
    done = serve_until_exit(tmp_path, fake_slack.base_url, DEBRIEF_LOCALE=locale)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines()[-1] == said.format(url=fake_slack.base_url)
    assert "Traceback" not in done.stderr
    assert [c.method for c in fake_slack.calls()] == ["auth.test"]


def test_a_bug_at_start_is_reported_as_a_bug(
    fake_slack: FakeSlack, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import logging

    from click.testing import CliRunner

    import bot.app
    from bot.cli import cli

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("a bug in create_app")

    monkeypatch.setattr(bot.app, "create_app", broken)
    for name in ("SLACK_APP_TOKEN", "DEBRIEF_DIGEST_CHANNEL", "DEBRIEF_TRANSCRIPTS"):
        monkeypatch.delenv(name, raising=False)
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        result = CliRunner().invoke(
            cli,
            ["serve", "--db", str(tmp_path / "x.db")],
            env={
                "SLACK_BOT_TOKEN": "xoxb-test",
                "SLACK_SIGNING_SECRET": SECRET,
                "SLACK_API_URL": fake_slack.base_url,
                "DEBRIEF_LOCALE": "en",
            },
        )
    finally:
        root.handlers[:], root.level = handlers, level
    assert result.exit_code == 1, result.output
    assert "Traceback" in result.stderr and "a bug in create_app" in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("Error: cannot start: an internal error (KeyError("), last
    assert "Slack" not in last


def test_socket_mode_reconnects_when_the_server_drops_it(
    fake_slack: FakeSlack, tmp_path: Path, seeds_dir: Path
) -> None:
    with FakeSocketModeServer(fake_slack) as ws:
        settings = load_settings(
            bot_token="xoxb-test",
            app_token="xapp-test",
            api_url=fake_slack.base_url,
            db_path=str(tmp_path / "r.db"),
        )
        store = Store(settings.db_path)
        index_paths(store, [seeds_dir])
        handler = socket_mode_handler(create_app(settings, store), "xapp-test")
        # slack_sdk's own health check (every ping_interval) would reconnect too, later:
        # put it out of reach, so that only the bot's reconnect-on-close can pass this test.
        handler.client.current_app_monitor.interval_seconds = 3600
        handler.connect()  # type: ignore[no-untyped-call]
        try:
            ws.wait_for_connection()
            for drop in (1, 2):  # dropped twice: reconnects each time
                ws.close_connections(code=1011, reason="server going away")
                ws.wait_for_connection(count=drop + 1, timeout=30)  # a new URL, a new connection
                assert len(fake_slack.calls("apps.connections.open")) == drop + 1
                name = f"again{drop}"
                payload = command_payload("未回答 000", response_url=fake_slack.response_url(name))
                envelope = ws.send_envelope(type="slash_commands", payload=payload)
                assert ws.wait_for_ack(envelope)["envelope_id"] == envelope
                fake_slack.wait_for(f"response/{name}", timeout=10)
                [reply] = fake_slack.responses(name)
                assert "Replicated training" in all_text(reply)
            assert ws.open_connections == 1
        finally:
            handler.close()  # type: ignore[no-untyped-call]
