"""The fake Slack and the bot's HTTP server start once per test run and are reset between
tests (support/fake_slack.py `reset`, support/bot_server.py): a test sees nothing of the
one before, and nothing the one before still sends lands in it."""

from __future__ import annotations

import itertools
import socket
import threading
import urllib.request
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.webhook import WebhookClient
from support import bot_server
from support.fake_oauth import CLIENT_ID, CLIENT_SECRET, FakeOAuth, Installer
from support.fake_slack import FakeClock, FakeSlack
from support.installed import get, start_installed_bot
from support.slackbot import start_bot
from support.socket_mode import FakeSocketModeServer
from support.spec import manifest_scopes
from support.waiting import wait_until
from support.web_api import FakeFile

pytest_plugins = ["pytester"]  # two tests in a row, in a run of their own

# what a FakeSlack is as a server, not what a test sees of Slack
SERVER = {"_thread", "thread_name", "_handler", "_fixed_port", "_httpd", "_lock"}
SERVER |= {"_generation", "_in_flight"}


@pytest.fixture
def fake(clock: FakeClock) -> Iterator[FakeSlack]:
    # a fake of its own: these tests reset it, and make it refuse on purpose
    with FakeSlack(clock=clock) as server:
        yield server


def client(fake: FakeSlack, base_url: str | None = None) -> WebClient:
    web = WebClient(token="xoxb-test", base_url=base_url or fake.base_url)
    web.retry_handlers.clear()
    return web


def state(fake: FakeSlack) -> dict[str, Any]:
    """What a test can see or change of `fake`, comparable."""

    def plain(value: object) -> object:
        if isinstance(value, itertools.count):
            return repr(value)
        if isinstance(value, FakeOAuth):
            return {k: v for k, v in vars(value).items() if k != "_lock"}
        return value

    return {k: plain(v) for k, v in vars(fake).items() if k not in SERVER}


def used_in_every_way(fake: FakeSlack) -> None:
    """A test that touched every piece of the fake's state."""
    web = client(fake)
    posted = web.chat_postMessage(channel="C1", text="hi")
    web.reactions_add(channel="C1", timestamp=posted["ts"], name="eyes")
    web.conversations_open(users="U99")
    web.views_open(
        trigger_id=fake.trigger_id(), view={"type": "modal", "title": _t("m"), "blocks": []}
    )
    web.views_publish(user_id="U99", view={"type": "home", "blocks": []})
    WebhookClient(fake.response_url("cmd")).send_dict({"text": "answer"})
    fake.fail_next("chat.postMessage", times=3)
    fake.set_result("bots.info", {"bot": {}})
    fake.add_file(FakeFile("F1", "a.txt", b"a"))
    fake.channel_members["C1"] = ["U1"]
    fake.oauth.redirect_urls = ["https://x.example/back"]
    fake.oauth.rotation = True
    fake.oauth.next = Installer(team_id="T0009")
    query = urlencode({"client_id": CLIENT_ID, "scope": ",".join(manifest_scopes())})
    code = get(f"http://127.0.0.1:{fake.port}/oauth/v2/authorize?{query}").location
    code = code.split("code=")[1].split("&")[0]
    WebClient(base_url=fake.base_url).oauth_v2_access(
        client_id=CLIENT_ID, client_secret=CLIENT_SECRET, code=code
    )
    fake.admins.add("UA")
    fake.owners.add("UO")
    fake.org_admins.add("UOA")
    fake.org_owners.add("UOO")
    fake.usergroups["S1"] = ["U1"]
    fake.users["U1"] = "One"
    fake.emails["one@example.com"] = "U1"
    fake.unknown_users.add("UX")
    fake.user_teams["UEXT"] = "T0THER"
    fake.shared_channels.add("CSHARED")
    fake.pending_shared.add("CPENDING")
    fake.member_channels.add("CNEW")
    fake.bots.append(object())
    fake.bot_token = "xoxb-other"
    fake.scopes = ("commands",)
    fake.spec = {**fake.spec, "made.up": frozenset()}


def _t(text: str) -> dict[str, str]:
    return {"type": "plain_text", "text": text}


def test_reset_leaves_nothing_of_the_test_before(fake: FakeSlack) -> None:
    later = FakeClock(2_000_000.0)
    new = state(FakeSlack(clock=later))
    with FakeSocketModeServer(fake):
        used_in_every_way(fake)
        before = state(fake)
        assert set(before) == set(new)
        # the test above reaches every piece (a piece added to the fake is used there too)
        assert [k for k in new if before[k] == new[k]] == []
        fake.reset(clock=later)
        assert state(fake) == new
    assert client(fake).auth_test()["ok"] and fake.clock is later


def test_reset_takes_what_a_new_fake_is_given(fake: FakeSlack) -> None:
    given: dict[str, Any] = {"member_channels": ["CONLY"], "scopes": ["commands", "chat:write"]}
    fake.reset(**given)
    new = state(FakeSlack(**given))
    assert state(fake) == new


def test_an_address_given_out_before_a_reset_reaches_nothing(fake: FakeSlack) -> None:
    fake.reset()  # as the run's fake is before each test (a new fake's addresses are its root)
    old_api, old_reply = fake.base_url, fake.response_url("cmd")
    fake.add_file(FakeFile("F1", "a.txt", b"a"))
    old_file = f"{fake.url}files-pri/T0001-F1/download/a.txt"
    fake.reset()
    assert fake.base_url != old_api
    with pytest.raises(SlackApiError) as refused:
        client(fake, old_api).chat_postMessage(channel="C1", text="late")
    assert refused.value.response.status_code == 410
    assert WebhookClient(old_reply).send_dict({"text": "late"}).status_code == 410
    request = urllib.request.Request(old_file, headers={"Authorization": "Bearer xoxb-test"})
    with pytest.raises(urllib.error.HTTPError) as gone:
        urllib.request.urlopen(request, timeout=5)
    assert gone.value.code == 410
    assert fake.calls() == [] and fake.messages("C1") == []
    # what is given out now reaches it; so does its root (the authorize page's place)
    client(fake).chat_postMessage(channel="C1", text="now")
    client(fake, f"http://127.0.0.1:{fake.port}/api/").auth_test()
    assert [c.method for c in fake.calls()] == ["chat.postMessage", "auth.test"]


def test_a_connection_opened_before_a_reset_is_refused_unrecorded(fake: FakeSlack) -> None:
    body = b"channel=C1&text=late"
    head = (
        "POST /api/chat.postMessage HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer xoxb-test\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    accepted = fake.connections
    with socket.create_connection(("127.0.0.1", fake.port), timeout=5) as sock:
        sock.sendall(head.encode())
        wait_until("the fake took the connection", lambda: fake.connections > accepted)
        fake.reset()
        sock.sendall(body)
        answer = b"".join(iter(lambda: sock.recv(4096), b""))
    assert answer.split(b"\r\n")[0].split(b" ")[1] == b"410", answer
    assert fake.calls() == [] and fake.messages("C1") == []


def test_a_request_being_answered_at_a_reset_ends_before_the_state_is_new(
    fake: FakeSlack,
) -> None:
    entered, release = threading.Event(), threading.Event()

    def slow(_call: object) -> dict[str, Any]:
        entered.set()
        release.wait(5)
        return {}

    fake.set_result("auth.test", slow)
    caller = threading.Thread(target=client(fake).auth_test)
    caller.start()
    assert entered.wait(5)
    resetting = threading.Thread(target=fake.reset)
    resetting.start()
    wait_until("the reset began", lambda: fake.generation == 1)
    release.set()
    caller.join(5)
    resetting.join(5)
    assert fake.calls() == []


# -- the bot's HTTP server -------------------------------------------------------------------


def statuses(urls: Iterable[str]) -> list[int]:
    return [get(url).status for url in urls]


def test_one_bot_server_answers_with_each_test_s_bot_in_turn(
    fake_slack: FakeSlack, tmp_path: Path
) -> None:
    plain = start_bot(fake_slack, str(tmp_path / "a.db"))
    try:
        url = plain.server.url
        assert statuses([url + "/healthz", url + "/slack/install"]) == [200, 404]
        # another bot at the same time (replicas): a server of its own
        other = start_bot(fake_slack, str(tmp_path / "b.db"))
        asked = start_bot(fake_slack, str(tmp_path / "c.db"), own_server=True)
        try:
            assert len({url, other.server.url, asked.server.url}) == 3
            assert statuses([other.server.url + "/healthz", asked.server.url + "/healthz"]) == [
                200,
                200,
            ]
        finally:
            other.stop()
            asked.stop()
    finally:
        plain.stop()
    assert get(url + "/healthz").status == 503  # no bot in
    installed = start_installed_bot(fake_slack, str(tmp_path / "d.db"))
    try:
        assert installed.server.url == url
        assert statuses([url + "/slack/install"]) == [200]  # the new app answers
    finally:
        installed.stop()


def test_a_request_being_answered_ends_before_its_bot_leaves(fake_slack: FakeSlack) -> None:
    entered, release = threading.Event(), threading.Event()
    order: list[str] = []

    def slow(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        entered.set()
        release.wait(5)
        order.append("answered")
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"done"]

    leased = bot_server.lease(slow)
    assert leased is not None
    answers: list[int] = []
    asking = threading.Thread(target=lambda: answers.append(get(leased.url + "/x").status))
    asking.start()
    assert entered.wait(5)

    def stop() -> None:
        leased.stop()
        order.append("stopped")

    stopping = threading.Thread(target=stop)
    stopping.start()
    wait_until("the bot swapped out", lambda: get(leased.url + "/healthz").status == 503)
    release.set()
    asking.join(5)
    stopping.join(5)
    assert answers == [200] and order == ["answered", "stopped"]


# -- the fixtures, across tests --------------------------------------------------------------

ACROSS_TESTS = """
import time

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

before = {}

def test_one(fake_slack, bot):
    fake_slack.users["U1"] = "One"
    fake_slack.fail_next("chat.postMessage")
    assert bot.command("search 张三")[0] == 200
    assert bot.replies()
    before.update(fake=fake_slack, api=fake_slack.base_url, events=bot.events_url)
    before["end"] = time.monotonic()

def test_two(fake_slack, bot):
    assert fake_slack is before["fake"] and bot.events_url == before["events"]
    assert [c for c in fake_slack.calls() if c.time < before["end"]] == []
    assert fake_slack.users == {} and fake_slack.responses("cmd") == []
    # the bot of the test before, still talking: refused, recorded nowhere
    late = WebClient(token="xoxb-test", base_url=before["api"])
    late.retry_handlers.clear()
    seen = len(fake_slack.calls())
    with pytest.raises(SlackApiError) as refused:
        late.chat_postMessage(channel="C1", text="late")
    assert refused.value.response.status_code == 410
    assert len(fake_slack.calls()) == seen and fake_slack.messages("C1") == []
    assert bot.command("search 张三")[0] == 200
    assert len(bot.replies()) == 1

def test_three_breaks_a_rule(fake_slack):
    with pytest.raises(SlackApiError):
        WebClient(token="xoxb-test", base_url=fake_slack.base_url).api_call("no.such")
"""


SUITE_CONFTEST = """
import importlib.util

spec = importlib.util.spec_from_file_location("suite_conftest", {path!r})
suite = importlib.util.module_from_spec(spec)
spec.loader.exec_module(suite)
globals().update({{k: v for k, v in vars(suite).items() if not k.startswith("__")}})
"""


def test_two_tests_in_a_row_share_one_fake_slack_and_one_bot_server(
    pytester: pytest.Pytester,
) -> None:
    suite = Path(__file__).with_name("conftest.py")
    pytester.makeconftest(SUITE_CONFTEST.format(path=str(suite)))
    pytester.makepyfile(test_across=ACROSS_TESTS)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:xdist")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*real Slack would have refused*no.such -> unknown_method*"])
