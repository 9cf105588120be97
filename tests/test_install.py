"""Installing Debrief in many workspaces (issue 26), through the real HTTP server and
the strict fake Slack, on SQLite and PostgreSQL: the browser's way through Slack's
install, what is refused (a declined install, a replayed, forged or expired state, no
cookie, a bad code), token rotation, an uninstall, a revoked token, a workspace that
never installed it, and the single-workspace database adopted at the first install."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.fake_oauth import Installer
from support.fake_slack import FakeSlack
from support.installed import (
    COOKIE,
    STATE_SECRET,
    back_from_slack,
    begin_install,
    get,
    install,
    start_installed_bot,
)
from support.signed import command_body, event_body, post_signed
from support.slackbot import SECRET, Bot, all_text
from support.waiting import wait_until

from bot.oauth_state import DebriefStateStore
from bot.words import t
from store.indexer import index_paths
from store.workspace_models import Installation

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
BETA = Installer(team_id="T0002", team_name="Beta", user="UADMIN")


@pytest.fixture
def multi(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[Bot]:
    running = start_installed_bot(fake_slack, db_target, uploads=str(tmp_path / "uploads"))
    try:
        yield running
    finally:
        running.stop()


def ask(bot: Bot, text: str, team: str, name: str) -> str:
    """`/candidate text` from a user of `team`; all the bot answered, as text."""
    body = command_body(text, team_id=team, response_url=bot.fake.response_url(name))
    status, _h, answer = post_signed(bot.events_url, body, SECRET)
    assert status == 200
    said = answer.decode() if isinstance(answer, bytes) else str(answer)
    bot.idle()
    return said + "".join(all_text(r) for r in bot.fake.responses(name))


def event(bot: Bot, body: dict[str, Any], team: str) -> int:
    status, _h, _b = post_signed(bot.events_url, event_body(body, team_id=team), SECRET)
    bot.idle()
    return status


def installed(bot: Bot, key: str) -> Installation:
    found = bot.store.find_installation(key)
    assert found is not None, f"{key} is not installed"
    return found


def index_into(bot: Bot, ws: int) -> None:
    assert not index_paths(bot.store.in_workspace(ws), [SEEDS]).failed


def test_an_install_through_the_browser_serves_that_workspace_alone(multi: Bot) -> None:
    page = install(multi, BETA)
    assert page.status == 200, page.body
    assert "Expires=Thu, 01 Jan 1970" in page.headers.get("set-cookie", "")  # cookie spent
    found = installed(multi, "T0002")
    assert found.ws != 0 and found.team_name == "Beta" and found.installer_user_id == "UADMIN"
    [issued] = [i for i in multi.fake.oauth.tokens.values() if i.installer.key == "T0002"]
    assert issued.token not in found.bot_token_enc  # encrypted at rest
    index_into(multi, found.ws)
    auth_tests = len(multi.fake.calls("auth.test"))
    said = ask(multi, "000", "T0002", "beta")
    assert "000" in said and "not installed" not in said
    assert len(multi.fake.calls("auth.test")) == auth_tests  # no auth.test per request
    # the fake's own workspace never installed it: refused, and shown nothing
    refused = ask(multi, "000", "T0001", "alpha")
    assert t("zh", "not_installed") in refused and "000" not in refused.replace("T0001", "")


def test_calls_to_slack_carry_the_workspace_s_own_token(multi: Bot) -> None:
    install(multi, BETA)
    [issued] = [i for i in multi.fake.oauth.tokens.values() if i.installer.key == "T0002"]
    home = {"type": "app_home_opened", "user": "U777", "channel": "DU777", "tab": "home"}
    home["event_ts"] = f"{time.time():.6f}"
    assert event(multi, home, "T0002") == 200
    [call] = multi.fake.wait_for("views.publish")
    assert call.ok and call.token == issued.token, call.error
    # a workspace with no installation: refused before any listener, nothing published
    assert event(multi, home, "T0099") == 200
    assert len(multi.fake.calls("views.publish")) == 1


def test_a_declined_install_keeps_nothing(multi: Bot) -> None:
    page = install(multi, Installer(team_id="T0003", team_name="Gamma", decline=True))
    assert page.status == 200 and "access_denied" in page.body
    assert multi.store.find_installation("T0003") is None
    assert not multi.fake.calls("oauth.v2.access")


def test_a_state_is_good_once_and_only_in_the_browser_that_began(multi: Bot) -> None:
    multi.fake.oauth.next = BETA
    started = begin_install(multi)
    slack = get(started.authorize_url)
    # no cookie, or another browser's: refused before Slack is asked for a token
    assert back_from_slack(multi, slack.location, None).status == 400
    assert back_from_slack(multi, slack.location, f"{COOKIE}=forged").status == 400
    assert not multi.fake.calls("oauth.v2.access")
    assert back_from_slack(multi, slack.location, started.cookie).status == 200
    # replayed: the state was used
    again = back_from_slack(multi, slack.location, started.cookie)
    assert again.status == 401 and "invalid_state" in again.body
    assert len(multi.fake.calls("oauth.v2.access")) == 1


def test_an_expired_state_is_refused(multi: Bot) -> None:
    expired = DebriefStateStore(multi.store, STATE_SECRET, seconds=-1).issue()
    multi.fake.oauth.next = BETA
    slack = get(begin_install(multi).authorize_url)
    location = slack.location.replace(slack.location.split("state=")[1], expired)
    page = back_from_slack(multi, location, f"{COOKIE}={expired}")
    assert page.status == 401 and "invalid_state" in page.body
    assert multi.store.find_installation("T0002") is None


def test_a_code_slack_does_not_know_installs_nothing(multi: Bot) -> None:
    multi.fake.oauth.next = BETA
    started = begin_install(multi)
    slack = get(started.authorize_url)
    location = slack.location.replace("code=code-", "code=bogus-")
    page = back_from_slack(multi, location, started.cookie)
    assert page.status == 401 and "invalid_code" in page.body
    assert multi.store.find_installation("T0002") is None
    [refused] = multi.fake.calls("oauth.v2.access")
    assert refused.error == "invalid_code"


def test_a_token_near_its_expiry_is_renewed_on_the_next_request(multi: Bot) -> None:
    multi.fake.oauth.rotation = True
    install(multi, BETA)
    first = installed(multi, "T0002")
    assert first.bot_refresh_token_enc and first.bot_token_expires_at
    index_into(multi, first.ws)
    # an hour from its end (the store's copy of it: Slack's token is still good)
    assert multi.store.claim_token_rotation(first.ws, first.bot_token_enc, "test", "9999")
    soon = int(time.time()) + 3600
    assert multi.store.save_rotated_token(
        first.ws, "test", first.bot_token_enc, first.bot_refresh_token_enc, soon
    )
    assert "000" in ask(multi, "000", "T0002", "beta")
    [refresh] = [c for c in multi.fake.calls("oauth.v2.access") if c.params.get("refresh_token")]
    assert refresh.ok and refresh.params["grant_type"] == "refresh_token"
    renewed = installed(multi, "T0002")
    assert renewed.bot_token_enc != first.bot_token_enc
    assert renewed.bot_token_expires_at and renewed.bot_token_expires_at > soon
    home = {"type": "app_home_opened", "user": "U777", "channel": "DU777", "tab": "home"}
    home["event_ts"] = f"{time.time():.6f}"
    assert event(multi, home, "T0002") == 200
    [call] = multi.fake.wait_for("views.publish")
    assert call.ok and str(call.token).startswith("xoxe.xoxb-")
    current = [i.token for i in multi.fake.oauth.tokens.values() if i.refresh_token]
    assert call.token == current[-1]  # the renewed one
    # renewed once: the next request uses it as it is
    ask(multi, "000", "T0002", "again")
    assert (
        len([c for c in multi.fake.calls("oauth.v2.access") if c.params.get("refresh_token")]) == 1
    )


def test_an_uninstall_takes_the_token_at_once_and_keeps_the_data_for_the_grace(
    multi: Bot,
) -> None:
    install(multi, BETA)
    ws = installed(multi, "T0002").ws
    index_into(multi, ws)
    multi.fake.oauth.uninstalled("T0002")
    uninstalled = {"type": "app_uninstalled", "event_ts": f"{time.time():.6f}"}
    assert event(multi, uninstalled, "T0002") == 200
    assert multi.store.find_installation("T0002") is None
    space = multi.store.workspace_of("T0002")
    assert space is not None and space.uninstalled_at and space.erase_after
    days = (
        time.mktime(time.strptime(space.erase_after[:19], "%Y-%m-%dT%H:%M:%S")) - time.time()
    ) / 86400
    assert 29 < days < 31  # DEBRIEF_UNINSTALL_GRACE's default
    assert event(multi, uninstalled, "T0002") == 200  # delivered twice: the same
    refused = ask(multi, "000", "T0002", "after")
    assert t("zh", "not_installed") in refused
    assert multi.store.in_workspace(ws).stats().candidates == 4  # kept
    # installed again by the same workspace: the same space, nothing lost
    install(multi, BETA)
    assert installed(multi, "T0002").ws == ws
    back = multi.store.workspace_of("T0002")
    assert back is not None and back.uninstalled_at is None and back.erase_after is None
    assert "000" in ask(multi, "000", "T0002", "back")


def test_a_revoked_bot_token_is_an_uninstall_and_a_user_s_is_not(multi: Bot) -> None:
    install(multi, BETA)
    revoked_user = {"type": "tokens_revoked", "tokens": {"oauth": ["UADMIN"], "bot": []}}
    assert event(multi, revoked_user, "T0002") == 200
    assert multi.store.find_installation("T0002") is not None
    revoked_bot = {"type": "tokens_revoked", "tokens": {"oauth": [], "bot": ["UT0002BOT"]}}
    assert event(multi, revoked_bot, "T0002") == 200
    assert multi.store.find_installation("T0002") is None


def test_an_uninstall_is_recorded_whoever_the_access_rules_allow(
    fake_slack: FakeSlack, db_target: str
) -> None:
    bot = start_installed_bot(fake_slack, db_target, allowed_users_raw="U999")
    try:
        install(bot, BETA)
        uninstalled = {"type": "app_uninstalled", "event_ts": f"{time.time():.6f}"}
        assert event(bot, uninstalled, "T0002") == 200
        assert bot.store.find_installation("T0002") is None
    finally:
        bot.stop()


def test_the_single_workspace_database_becomes_its_workspace_s_at_the_first_install(
    fake_slack: FakeSlack, db_target: str
) -> None:
    from store.factory import open_store

    single = open_store(db_target)
    assert not index_paths(single, [SEEDS]).failed
    single.remember_workspace("T0002", "Beta")  # what single-workspace `serve` recorded
    single.close()
    bot = start_installed_bot(fake_slack, db_target)
    try:
        install(bot, BETA)
        assert installed(bot, "T0002").ws == 0
        assert "000" in ask(bot, "000", "T0002", "adopted")
        # another workspace starts empty
        install(bot, Installer(team_id="T0003", team_name="Gamma"))
        other = ask(bot, "000", "T0003", "gamma")
        wait_until("the answer", lambda: bool(bot.fake.responses("gamma")), 10)
        assert installed(bot, "T0003").ws != 0 and "张" not in other
    finally:
        bot.stop()


def test_the_install_pages_are_get_only_and_absent_in_single_workspace_mode(
    multi: Bot, bot: Bot
) -> None:
    conn_url = multi.server.url + "/slack/install"
    status, _h, _b = post_signed(conn_url, b"x=1", SECRET)
    assert status == 405
    assert get(bot.server.url + "/slack/install").status == 404
    assert get(bot.server.url + "/slack/oauth_redirect?code=x&state=y").status == 404


def test_each_workspace_gets_its_own_digest_with_its_own_token(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> None:
    from bot.workspace_jobs import WorkspaceJobs

    fake_slack.member_channels.add("C0DIGEST")
    bot = start_installed_bot(fake_slack, db_target, digest_channel="C0DIGEST", digest_time="00:00")
    try:
        install(bot, BETA)
        install(bot, Installer(team_id="T0003", team_name="Gamma"))
        install(bot, Installer(team_id="T0004", team_name="Delta"))
        index_into(bot, installed(bot, "T0002").ws)
        (SEEDS_ONE_DIR := tmp_path / "one").mkdir()
        one = sorted(SEEDS.glob("*.txt"))[-1]
        (SEEDS_ONE_DIR / one.name).write_bytes(one.read_bytes())
        gamma = installed(bot, "T0003").ws
        assert not index_paths(bot.store.in_workspace(gamma), [SEEDS_ONE_DIR]).failed
        jobs = WorkspaceJobs(bot.settings, bot.store, bot.app)  # type: ignore[arg-type]
        jobs.tick()
        posts = fake_slack.calls("chat.postMessage")
        tokens = {i.installer.key: i.token for i in fake_slack.oauth.tokens.values()}
        by_team = {k: [p for p in posts if p.token == tok] for k, tok in tokens.items()}
        assert len(by_team["T0002"]) == 1 and len(by_team["T0003"]) == 1
        assert not by_team["T0004"]  # nothing new there: no digest
        beta, gamma_post = (
            all_text(by_team["T0002"][0].params),
            all_text(by_team["T0003"][0].params),
        )
        stems = [p.stem for p in sorted(SEEDS.glob("*.txt"))]
        assert all(stem in beta for stem in stems)  # Beta's four new transcripts
        assert one.stem in gamma_post  # Gamma's one, and none of Beta's others
        assert not any(stem in gamma_post for stem in stems if stem != one.stem)
        jobs.tick()  # claimed for the day, in each space
        assert len(fake_slack.calls("chat.postMessage")) == 2
        # uninstalled: its jobs stop with its token
        fake_slack.oauth.uninstalled("T0003")
        uninstalled = {"type": "app_uninstalled", "event_ts": f"{time.time():.6f}"}
        assert event(bot, uninstalled, "T0003") == 200
        assert [w.slack_key for w in jobs.installed()] == ["T0002", "T0004"]
    finally:
        bot.stop()


def org_wide(*teams: str) -> Installer:
    """The organisation E0001 installing org-wide, granting the app `teams`."""
    return Installer(
        team_id=None,
        team_name=None,
        enterprise_id="E0001",
        enterprise_name="Org",
        org_wide=True,
        teams=teams,
    )


def org_command(bot: Bot, text: str, team: str, name: str) -> str:
    """`/candidate` in workspace `team` of the organisation E0001, installed org-wide."""
    from urllib.parse import urlencode

    from support.signed import command_payload

    payload = command_payload(text, team_id=team, response_url=bot.fake.response_url(name))
    payload |= {"is_enterprise_install": "true", "enterprise_id": "E0001"}
    status, _h, answer = post_signed(bot.events_url, urlencode(payload).encode(), SECRET)
    assert status == 200
    bot.idle()
    body = answer.decode() if isinstance(answer, bytes) else str(answer)
    return body + "".join(all_text(r) for r in bot.fake.responses(name))


def test_an_org_wide_install_serves_the_organisation_s_granted_workspaces_as_one(
    multi: Bot,
) -> None:
    org = org_wide("T0101", "T0102")
    assert install(multi, org).status == 200
    found = installed(multi, "E0001")
    assert found.is_enterprise_install and found.team_id is None and found.ws != 0
    index_into(multi, found.ws)
    pending = t("zh", "refused_pending")
    n = iter(range(1000))
    wait_until(
        "the organisation's workspaces read",
        lambda: pending not in org_command(multi, "000", "T0101", f"try{next(n)}"),
        15,
    )
    assert "000" in org_command(multi, "000", "T0101", "first")
    assert "000" in org_command(multi, "000", "T0102", "second")  # one data space for both
    # a workspace the organisation did not grant it: refused, shown nothing
    refused = org_command(multi, "000", "T0199", "other")
    assert t("zh", "refused") in refused and "视频开发工程师" not in refused
    # granted later: read again at once
    org.teams = ("T0101", "T0102", "T0199")
    granted = {"type": "team_access_granted", "team_ids": ["T0199"]}
    body = event_body(granted, team_id="E0001")
    assert post_signed(multi.events_url, body, SECRET)[0] == 200
    m = iter(range(1000))
    wait_until(
        "the new workspace served",
        lambda: "视频开发工程师" in org_command(multi, "000", "T0199", f"later{next(m)}"),
        15,
    )


def test_in_socket_mode_the_install_pages_are_served_on_the_health_port(
    fake_slack: FakeSlack, db_target: str
) -> None:
    from support.fake_oauth import CLIENT_ID, CLIENT_SECRET
    from support.installed import REDIRECT, TOKEN_KEY
    from support.servers import WsgiServer

    from bot.app import create_app
    from bot.http_app import Health, health_app
    from bot.settings import load_settings
    from store.factory import open_store

    fake_slack.oauth.redirect_urls = [REDIRECT]
    settings = load_settings(
        app_token="xapp-1-test",
        client_id=CLIENT_ID,
        client_secret=CLIENT_SECRET,
        state_secret=STATE_SECRET,
        token_key=TOKEN_KEY,
        api_url=fake_slack.base_url,
        db_path=db_target,
    )
    store = open_store(db_target)
    app = create_app(settings, store)
    server = WsgiServer(health_app(Health(ready=True), app)).start()
    try:
        assert get(server.url + "/healthz").status == 200
        page = get(server.url + "/slack/install")
        assert page.status == 200 and "oauth/v2/authorize" in page.body
        assert get(server.url + "/slack/events").status == 404  # events come over the socket
    finally:
        server.stop()
        app.close()
        store.close()


def test_an_org_wide_install_reminds_the_reviewers_of_its_granted_workspaces(
    fake_slack: FakeSlack, db_target: str
) -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    import time_machine

    from bot.workspace_jobs import WorkspaceJobs

    org = org_wide("T0101")
    fake_slack.user_teams |= {"UREV1": "T0101", "UREV9": "T0999"}
    bot = start_installed_bot(fake_slack, db_target, remind_time="09:00")
    try:
        install(bot, org)
        space = bot.store.in_workspace(installed(bot, "E0001").ws)
        assert not index_paths(space, [SEEDS]).failed
        space.record_post("C123", "1700000000.000100", "000_9e6b3ecb0732fcf3", "verdict")
        due = "2026-11-30T15:59:59.999999+00:00"
        assert space.record_requests(
            "000_9e6b3ecb0732fcf3", ["UREV1", "UREV9"], "UASKER", due, "C123", "1700000000.000100"
        )
        jobs = WorkspaceJobs(bot.settings, bot.store, bot.app)  # type: ignore[arg-type]
        wednesday = datetime(2026, 12, 2, 10, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
        with time_machine.travel(wednesday, tick=False):
            jobs.tick()  # the organisation's workspaces not read yet: nobody reminded
        assert not fake_slack.calls("conversations.open")
        assert bot.app is not None and bot.app.spaces is not None
        granted = bot.app.spaces.of(space.ws, "E0001").teams
        assert granted is not None
        wait_until("the organisation's workspaces read", lambda: granted.teams is not None, 15)
        with time_machine.travel(wednesday, tick=False):
            jobs.tick()
        reminded = {c.params.get("users") for c in fake_slack.calls("conversations.open")}
        assert reminded == {"UREV1"}  # UREV9 is of a workspace the org did not grant
    finally:
        bot.stop()
