"""An install's life through the real HTTP server and the strict fake Slack, on SQLite
and PostgreSQL (issue 34): an uninstall Slack delivers again after the workspace
installed again, or older than the installation, changes nothing; `tokens_revoked`
naming another bot leaves the install alone; the install page keeps nothing in the
database, and the code Slack sends back never reaches the log."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from support.fake_oauth import Installer
from support.fake_slack import FakeSlack
from support.installed import back_from_slack, begin_install, get, install, start_installed_bot
from support.signed import command_body, event_payload, post_signed
from support.slackbot import SECRET, Bot, all_text

from bot.erasure import erase_due_spaces
from bot.words import t
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
BETA = Installer(team_id="T0002", team_name="Beta", user="UADMIN")
BETA_BOT = "UT0002BOT"  # the bot user the fake Slack gives Beta's install


@pytest.fixture
def multi(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[Bot]:
    running = start_installed_bot(
        fake_slack, db_target, uploads=str(tmp_path / "uploads"), uninstall_grace_days=0
    )
    try:
        yield running
    finally:
        running.stop()


def deliver(bot: Bot, payload: dict[str, Any], retry: int = 0) -> int:
    """Slack delivering the event `payload` (again: `retry`, as Slack says it)."""
    headers = {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"}
    body = json.dumps(payload).encode()
    status, _h, _b = post_signed(
        bot.events_url, body, SECRET, extra_headers=headers if retry else None
    )
    bot.idle()
    return status


def uninstall_event(kind: str, event_id: str, event_time: int | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": kind, "event_ts": f"{time.time():.6f}"}
    if kind == "tokens_revoked":
        event["tokens"] = {"oauth": [], "bot": [BETA_BOT]}
    payload = event_payload(event, team_id="T0002", event_id=event_id)
    if event_time is not None:
        payload["event_time"] = event_time
    return payload


def ask(bot: Bot, name: str) -> str:
    body = command_body("000", team_id="T0002", response_url=bot.fake.response_url(name))
    status, _h, answer = post_signed(bot.events_url, body, SECRET)
    assert status == 200
    bot.idle()
    said = answer.decode() if isinstance(answer, bytes) else str(answer)
    return said + "".join(all_text(r) for r in bot.fake.responses(name))


def still_installed(bot: Bot, ws: int) -> None:
    """Beta installed, its data space not due for erasure, its candidates there and
    answered, even by the daily run a day from now (DEBRIEF_UNINSTALL_GRACE=0)."""
    found = bot.store.find_installation("T0002")
    assert found is not None and found.ws == ws
    space = bot.store.workspace_of("T0002")
    assert space is not None and space.uninstalled_at is None and space.erase_after is None
    assert erase_due_spaces(bot.store, "debrief", datetime.now(UTC) + timedelta(days=1)) == []
    assert bot.store.in_workspace(ws).stats().candidates == 4
    assert "000" in ask(bot, f"check{time.monotonic_ns()}")


def installed_with_data(bot: Bot) -> int:
    assert install(bot, BETA).status == 200
    found = bot.store.find_installation("T0002")
    assert found is not None
    assert not index_paths(bot.store.in_workspace(found.ws), [SEEDS]).failed
    return found.ws


@pytest.mark.parametrize("kind", ["app_uninstalled", "tokens_revoked"])
def test_an_uninstall_delivered_again_after_a_reinstall_keeps_the_new_install(
    multi: Bot, kind: str
) -> None:
    ws = installed_with_data(multi)
    multi.fake.oauth.uninstalled("T0002")
    first = uninstall_event(kind, "Ev0LATE0001")
    assert deliver(multi, first) == 200
    assert multi.store.find_installation("T0002") is None
    assert t("zh", "not_installed") in ask(multi, "gone")
    assert install(multi, BETA).status == 200  # the admin installs it again
    assert deliver(multi, first, retry=1) == 200  # Slack: the same event, again
    still_installed(multi, ws)
    # the other event of that uninstall, arriving late with its own id
    other = "tokens_revoked" if kind == "app_uninstalled" else "app_uninstalled"
    assert deliver(multi, uninstall_event(other, "Ev0LATE0002", first["event_time"])) == 200
    still_installed(multi, ws)
    # a later uninstall still uninstalls
    multi.fake.oauth.uninstalled("T0002")
    later = max(int(time.time()), first["event_time"] + 1)
    assert deliver(multi, uninstall_event(kind, "Ev0LATE0003", later)) == 200
    assert multi.store.find_installation("T0002") is None
    space = multi.store.workspace_of("T0002")
    assert space is not None and space.erase_after is not None


def test_an_uninstall_older_than_the_installation_changes_nothing(multi: Bot) -> None:
    ws = installed_with_data(multi)
    before = int(time.time()) - 60  # an event of a minute before the install, late
    assert deliver(multi, uninstall_event("app_uninstalled", "Ev0OLD00001", before)) == 200
    still_installed(multi, ws)
    assert deliver(multi, uninstall_event("tokens_revoked", "Ev0OLD00002", before)) == 200
    still_installed(multi, ws)


def test_tokens_revoked_acts_only_on_this_install_s_bot(multi: Bot) -> None:
    ws = installed_with_data(multi)
    for n, tokens in enumerate(
        (
            {"bot": ["USOMEOTHERBOT"]},
            {"oauth": ["UADMIN"], "bot": []},  # a user's token: Debrief keeps none
            {"oauth": [BETA_BOT]},  # the bot user's id, but as a user token
            {"bot": "UT0002BOT"},  # not a list
        )
    ):
        event = {"type": "tokens_revoked", "tokens": tokens}
        assert deliver(multi, event_payload(event, team_id="T0002", event_id=f"Ev0REV{n}")) == 200
        still_installed(multi, ws)
    event = {"type": "tokens_revoked", "tokens": {"bot": ["USOMEOTHERBOT", BETA_BOT]}}
    assert deliver(multi, event_payload(event, team_id="T0002", event_id="Ev0REV9")) == 200
    assert multi.store.find_installation("T0002") is None


def test_an_uninstall_delivered_again_to_another_replica_is_handled_once(
    fake_slack: FakeSlack, db_target: str
) -> None:
    replicas = [start_installed_bot(fake_slack, db_target) for _ in range(2)]
    try:
        one, two = replicas
        assert install(one, BETA).status == 200
        first = uninstall_event("app_uninstalled", "Ev0TWICE001")
        assert deliver(one, first) == 200
        assert install(two, BETA).status == 200
        assert deliver(two, first, retry=1) == 200
        assert deliver(one, first, retry=2) == 200
        assert two.store.find_installation("T0002") is not None
    finally:
        for r in replicas:
            r.stop()


# -- the install's state ---------------------------------------------------------------


def test_the_install_page_keeps_nothing_in_the_database(multi: Bot) -> None:
    for _ in range(30):  # anyone on the internet, again and again
        assert get(multi.server.url + "/slack/install").status == 200
    assert multi.store._scalar("SELECT count(*) FROM oauth_states") == 0
    # each of those states still installs once, and only once
    multi.fake.oauth.next = BETA
    started = begin_install(multi)
    slack = get(started.authorize_url)
    assert back_from_slack(multi, slack.location, started.cookie).status == 200
    assert back_from_slack(multi, slack.location, started.cookie).status == 401
    assert multi.store._scalar("SELECT count(*) FROM oauth_states") == 1  # the one used
    assert multi.store.find_installation("T0002") is not None


def test_the_code_slack_sends_back_never_reaches_the_log(
    multi: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    multi.fake.oauth.next = BETA
    started = begin_install(multi)
    slack = get(started.authorize_url)
    code = parse_qs(urlsplit(slack.location).query)["code"][0]
    bogus = slack.location.replace(code, code + "x")
    refused = back_from_slack(multi, bogus, started.cookie)  # Slack refuses that code
    assert refused.status == 401 and "invalid_code" in refused.body
    refusals = [r for r in caplog.records if "oauth.v2.access" in r.getMessage()]
    assert refusals and all("(redacted)" in r.getMessage() for r in refusals)
    # a good one, to the end, with every debug line
    started = begin_install(multi)
    slack = get(started.authorize_url)
    good = parse_qs(urlsplit(slack.location).query)["code"][0]
    assert back_from_slack(multi, slack.location, started.cookie).status == 200
    assert multi.store.find_installation("T0002") is not None
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert code not in logged and good not in logged


def test_an_uninstall_with_a_time_slack_never_sends_is_still_an_uninstall(
    multi: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    installed_with_data(multi)
    payload = uninstall_event("app_uninstalled", "Ev0ODD0001")
    payload["event_time"] = 10**20  # no time to tell it older than the install
    assert deliver(multi, payload) == 200
    assert multi.store.find_installation("T0002") is None
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
