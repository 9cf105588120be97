"""Each workspace's own Zoom account (issue 48, installed in many workspaces): its admins
set it in App Home (the account and client ids shown as saved, the client secret and
the webhook's secret token kept encrypted and never shown back, the channel its
interviews' cards go to), checked field by field; someone not an admin changes
nothing. An event's `account_id` selects the workspace, among the accounts whose
secret token signed it: one of Alpha's becomes Alpha's interview alone, its card in
Alpha's channel with Alpha's token; one of an account no workspace has, or one signed
with Alpha's token naming Beta's account, is acknowledged and stored nowhere.

Over the real HTTP server, signed as Slack and Zoom sign, against the strict fake Slack
and the strict fake Zoom, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from support.fake_oauth import Installer
from support.fake_slack import FakeSlack
from support.fake_zoom import FakeZoom, Meeting
from support.installed import TOKEN_KEY, install, start_installed_bot
from support.settings_ui import click_settings, submit_settings
from support.slackbot import Bot
from support.waiting import wait_until

from bot.oauth_cipher import TokenCipher
from bot.zoom import zoom_accounts, zoom_decrypt
from handlers.i18n import t
from handlers.views.settings import CHANNELS
from handlers.views.zoom import (
    ZOOM_ACCOUNT,
    ZOOM_CHANNEL,
    ZOOM_CLEAR,
    ZOOM_CLIENT,
    ZOOM_FIELDS,
    ZOOM_SECRET,
    ZOOM_TOKEN,
)
from store.schema.tables import TABLES

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

ALPHA, BETA = "T0002", "T0003"
# each workspace's Zoom app (made up here: Zoom's ids are 22 letters, digits, - and _)
ALPHA_ACCOUNT, BETA_ACCOUNT = "aLpHa-Acct_0001", "bEtA-Acct_0002"
ALPHA_CLIENT, BETA_CLIENT = "alphaClientId01", "betaClientId02"
ALPHA_SECRET, BETA_SECRET = "alpha-client-secret-9f8e7d", "beta-client-secret-6c5b4a"
ALPHA_TOKEN, BETA_TOKEN = "alpha-webhook-token-3e2d1c", "beta-webhook-token-0b9a8f"

# an interview as Zoom's cloud transcript writes it (text written for this test)
INTERVIEW = """WEBVTT

1
00:00:01.000 --> 00:00:04.000
李面试官: 你好，我们开始吧。请先介绍一下你最近做的项目。

2
00:00:05.000 --> 00:00:20.000
陈同学: 我在做一个订单系统，负责库存服务，用 Go 写的，每天处理两百万单。

3
00:00:21.000 --> 00:00:25.000
李面试官: 库存扣减是怎么保证不超卖的？

4
00:00:26.000 --> 00:00:45.000
陈同学: 先在 Redis 里预扣，再异步落库，落库失败会回补，每天对账一次。

5
00:00:46.000 --> 00:00:50.000
李面试官: 好的，你有什么想问我们的吗？

6
00:00:51.000 --> 00:00:55.000
陈同学: 团队现在的发布流程是怎样的？
"""


@pytest.fixture
def two(fake_slack: FakeSlack, zoom: FakeZoom, db_target: str, tmp_path: Path) -> Iterator[Bot]:
    """Alpha and Beta installed, nothing indexed, the fake Zoom as Zoom's API."""
    fake_slack.member_channels |= {"CALPHA", "CBETA"}
    fake_slack.admins.add("UADMIN")
    fake_slack.users.update({"UOTHER": "Someone Else"})
    bot = start_installed_bot(
        fake_slack,
        db_target,
        uploads=str(tmp_path / "uploads"),
        remind_time="off",
        zoom_api_url=zoom.api_url,
        zoom_oauth_url=zoom.oauth_url,
    )
    try:
        install(bot, Installer(team_id=ALPHA, team_name="Alpha", user="UADMIN"))
        install(bot, Installer(team_id=BETA, team_name="Beta", user="UADMIN"))
        yield bot
    finally:
        bot.stop()


def space(bot: Bot, key: str) -> int:
    found = bot.store.find_installation(key)
    assert found is not None
    return found.ws


def submit_zoom(
    bot: Bot,
    team: str,
    *,
    account: str = "",
    client: str = "",
    secret: str = "",
    token: str = "",
    channel: str | None = None,
    clear: bool = False,
    allowed: tuple[str, ...] = (),
    user: str = "UADMIN",
    zoom_fields: bool = True,
) -> dict[str, Any]:
    """`user` saves the settings modal with these Zoom fields (`allowed`: the channels
    candidates may be shown in; the rest empty; without `zoom_fields`, a modal that has
    none, as one opened before they were there); the acknowledgement's JSON."""
    values = {
        CHANNELS: {
            "v": {"type": "multi_conversations_select", "selected_conversations": list(allowed)}
        },
        ZOOM_ACCOUNT: {"v": {"type": "plain_text_input", "value": account}},
        ZOOM_CLIENT: {"v": {"type": "plain_text_input", "value": client}},
        ZOOM_SECRET: {"v": {"type": "plain_text_input", "value": secret}},
        ZOOM_TOKEN: {"v": {"type": "plain_text_input", "value": token}},
        ZOOM_CHANNEL: {"v": {"type": "conversations_select", "selected_conversation": channel}},
        ZOOM_CLEAR: {
            "v": {"type": "checkboxes", "selected_options": [{"value": "clear"}] if clear else []}
        },
    }
    if not zoom_fields:
        values = {CHANNELS: values[CHANNELS]}
    return submit_settings(bot, user, team, values)


def connect(bot: Bot, team: str) -> None:
    """`team`'s admin sets its whole Zoom account."""
    alpha = team == ALPHA
    got = submit_zoom(
        bot,
        team,
        account=ALPHA_ACCOUNT if alpha else BETA_ACCOUNT,
        client=ALPHA_CLIENT if alpha else BETA_CLIENT,
        secret=ALPHA_SECRET if alpha else BETA_SECRET,
        token=ALPHA_TOKEN if alpha else BETA_TOKEN,
        channel="CALPHA" if alpha else "CBETA",
    )
    assert got == {}


def whole_database(bot: Bot) -> str:
    """Every row of every table, as text."""
    rows = {table.name: bot.store._all(f"SELECT * FROM {table.name}") for table in TABLES}
    rows["workspaces"] = bot.store._all("SELECT * FROM workspaces")
    return json.dumps(rows, ensure_ascii=False, default=str)


def hint(modal: dict[str, Any], block_id: str) -> str:
    block = next(b for b in modal["blocks"] if b.get("block_id") == block_id)
    return str(block["hint"]["text"])


def dms(bot: Bot) -> list[str]:
    """What the bot wrote in direct messages (the fake's D… channels)."""
    return [
        str(c.params.get("text") or "")
        for c in bot.fake.calls("chat.postMessage")
        if c.ok and str(c.params.get("channel") or "").startswith("D")
    ]


def interview_meeting(zoom: FakeZoom, topic: str) -> Meeting:
    return zoom.add_meeting(
        topic=topic,
        start_time=datetime(2026, 12, 7, 6, 30, tzinfo=UTC),
        host_email="li@example.com",
        transcript=INTERVIEW.encode(),
    )


def stored(bot: Bot, key: str) -> tuple[int, int]:
    """What `key`'s data space holds: its candidates, and its Zoom transcripts."""
    mine = bot.store.in_workspace(space(bot, key))
    return mine.count(), len(mine.zoom_recordings())


# -- App Home -------------------------------------------------------------------------------


def test_an_admin_connects_their_workspace_s_zoom_account_and_its_secrets_stay_sealed(
    two: Bot,
) -> None:
    bot = two
    ws = space(bot, ALPHA)
    connect(bot, ALPHA)
    saved = bot.store.workspace_settings(ws)
    assert (saved.zoom_account_id, saved.zoom_client_id) == (ALPHA_ACCOUNT, ALPHA_CLIENT)
    assert saved.zoom_channel == "CALPHA"
    cipher = TokenCipher(TOKEN_KEY)
    assert saved.zoom_client_secret_enc and saved.zoom_secret_token_enc
    assert cipher.decrypt(saved.zoom_client_secret_enc) == ALPHA_SECRET
    assert cipher.decrypt(saved.zoom_secret_token_enc) == ALPHA_TOKEN
    everything = whole_database(bot)
    assert ALPHA_SECRET not in everything and ALPHA_TOKEN not in everything  # sealed at rest
    assert bot.store.workspace_settings(space(bot, BETA)).zoom_account_id is None
    bot.idle()
    bot.store.flush_audit()  # audited through the queue
    audit = [tuple(r) for r in bot.store._all("SELECT action, actor FROM audit WHERE ws = ?", [ws])]
    assert ("settings:zoom", "UADMIN") in audit

    # the modal shows the ids as saved, and of the secrets only that they are set
    modal = click_settings(bot, "UADMIN", ALPHA)
    text = json.dumps(modal, ensure_ascii=False)
    assert ALPHA_ACCOUNT in text and ALPHA_CLIENT in text and "CALPHA" in text
    assert ALPHA_SECRET not in text and ALPHA_TOKEN not in text
    set_words = t("zh", "settings_zoom_secret_set")
    assert hint(modal, ZOOM_SECRET) == hint(modal, ZOOM_TOKEN) == set_words
    beta = click_settings(bot, "UADMIN", BETA)
    assert hint(beta, ZOOM_SECRET) == t("zh", "settings_zoom_secret_unset")
    assert hint(beta, ZOOM_TOKEN) == t("zh", "settings_zoom_token_unset")

    # saved again with the secrets left empty (another channel): both kept as they were
    assert (
        submit_zoom(bot, ALPHA, account=ALPHA_ACCOUNT, client=ALPHA_CLIENT, channel="CBETA") == {}
    )
    again = bot.store.workspace_settings(ws)
    assert again.zoom_client_secret_enc == saved.zoom_client_secret_enc
    assert again.zoom_secret_token_enc == saved.zoom_secret_token_enc
    assert again.zoom_channel == "CBETA" and again.version == saved.version + 1
    # what the webhook and the fetcher read: the secrets opened again
    (account,) = zoom_accounts(bot.settings, bot.store, zoom_decrypt(bot.settings))
    assert (account.ws, account.account_id, account.secret_token) == (
        ws,
        ALPHA_ACCOUNT,
        ALPHA_TOKEN,
    )
    assert account.credentials is not None and account.credentials.client_secret == ALPHA_SECRET
    assert account.channel == "CBETA"


def test_the_zoom_fields_are_checked_and_the_account_can_be_disconnected(two: Bot) -> None:
    bot = two
    ws = space(bot, ALPHA)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"account": "not an id!", "client": ALPHA_CLIENT, "secret": "s"}, ZOOM_ACCOUNT),
        ({"account": "a" * 65}, ZOOM_ACCOUNT),
        ({"account": ALPHA_ACCOUNT, "client": "client/1", "secret": "s"}, ZOOM_CLIENT),
        ({"client": ALPHA_CLIENT, "secret": "s"}, ZOOM_ACCOUNT),  # whose app?
        ({"token": ALPHA_TOKEN}, ZOOM_ACCOUNT),
        ({"account": ALPHA_ACCOUNT, "secret": ALPHA_SECRET}, ZOOM_CLIENT),
        ({"account": ALPHA_ACCOUNT, "client": ALPHA_CLIENT}, ZOOM_SECRET),
        ({"account": ALPHA_ACCOUNT, "client": ALPHA_CLIENT, "secret": "x" * 257}, ZOOM_SECRET),
        ({"account": ALPHA_ACCOUNT, "token": "y" * 257}, ZOOM_TOKEN),
        ({"account": ALPHA_ACCOUNT, "channel": "CBETA", "allowed": ("CALPHA",)}, ZOOM_CHANNEL),
    ]
    for fields, block in cases:
        refused = submit_zoom(bot, ALPHA, **fields)
        assert refused.get("response_action") == "errors", fields
        assert set(refused["errors"]) == {block}, (fields, refused)
    assert refused["errors"][ZOOM_CHANNEL] == t("zh", "settings_zoom_channel_not_allowed")
    assert bot.store.workspace_settings(ws).version == 0  # nothing kept
    assert not dms(bot)

    # the account alone, for the sync without a webhook: kept, and the admin told
    assert submit_zoom(bot, ALPHA, account=ALPHA_ACCOUNT, client=ALPHA_CLIENT, secret="s1") == {}
    alone = bot.store.workspace_settings(ws)
    assert alone.zoom_account_id == ALPHA_ACCOUNT and alone.zoom_secret_token_enc is None
    assert dms(bot) == [t("zh", "settings_zoom_no_token")]
    # another client id needs its own secret; the saved one is not carried over to it
    other = submit_zoom(bot, ALPHA, account=ALPHA_ACCOUNT, client="anotherClient")
    assert set(other["errors"]) == {ZOOM_SECRET}

    # a modal opened before it had the Zoom fields changes nothing of the account
    connect(bot, ALPHA)
    connected = bot.store.workspace_settings(ws)
    assert submit_zoom(bot, ALPHA, allowed=("CALPHA",), zoom_fields=False) == {}
    older = bot.store.workspace_settings(ws)
    assert older.allowed_channels == ["CALPHA"] and older.version == connected.version + 1
    assert older.model_dump(include=set(ZOOM_FIELDS)) == connected.model_dump(
        include=set(ZOOM_FIELDS)
    )

    # disconnected: every Zoom field and secret gone, the rest of the settings kept
    assert submit_zoom(bot, ALPHA, account=ALPHA_ACCOUNT, clear=True, allowed=("CALPHA",)) == {}
    gone = bot.store.workspace_settings(ws)
    assert gone.allowed_channels == ["CALPHA"]
    assert (
        gone.zoom_account_id,
        gone.zoom_client_id,
        gone.zoom_client_secret_enc,
        gone.zoom_secret_token_enc,
        gone.zoom_channel,
    ) == (None, None, None, None, None)
    assert zoom_accounts(bot.settings, bot.store, zoom_decrypt(bot.settings)) == []


def test_someone_not_an_admin_cannot_change_or_clear_the_zoom_account(
    two: Bot, zoom: FakeZoom
) -> None:
    bot = two
    ws = space(bot, ALPHA)
    connect(bot, ALPHA)
    before = bot.store.workspace_settings(ws)
    notice = json.dumps(click_settings(bot, "UOTHER", ALPHA), ensure_ascii=False)
    assert t("zh", "settings_not_admin") in notice
    assert ZOOM_ACCOUNT not in notice and ALPHA_ACCOUNT not in notice
    # submissions forged past the button: acknowledged, and nothing kept
    theirs = {"account": "tHeIr-Acct_0003", "client": "theirClient", "secret": "their-secret"}
    assert submit_zoom(bot, ALPHA, **theirs, token="their-token-77", user="UOTHER") == {}
    assert submit_zoom(bot, ALPHA, account=ALPHA_ACCOUNT, clear=True, user="UOTHER") == {}
    kept = bot.store.workspace_settings(ws)
    assert kept.version == before.version and kept.zoom_account_id == ALPHA_ACCOUNT
    assert kept.zoom_secret_token_enc == before.zoom_secret_token_enc
    assert "their-token-77" not in whole_database(bot)
    bot.idle()  # the refusals are audited after the acknowledgement, through the queue
    bot.store.flush_audit()
    audit = [tuple(r) for r in bot.store._all("SELECT action, actor FROM audit WHERE ws = ?", [ws])]
    assert audit.count(("refused:settings", "UOTHER")) == 2
    # an event signed with the token they typed is Zoom's for nobody
    meeting = interview_meeting(zoom, "一面 陈同学 后端")
    event = zoom.event("recording.transcript_completed", meeting, account_id=ALPHA_ACCOUNT)
    status, _ = zoom.deliver(bot.zoom_url, event, secret="their-token-77")
    assert status == 401 and stored(bot, ALPHA) == (0, 0)


# -- an event's account selects the workspace ---------------------------------------------


def test_an_event_s_account_selects_the_workspace_and_no_other(two: Bot, zoom: FakeZoom) -> None:
    bot = two
    connect(bot, ALPHA)
    connect(bot, BETA)
    before = len(bot.fake.calls("chat.postMessage"))

    # Alpha's account, signed with Alpha's token: Alpha's interview, and Alpha's alone
    first = interview_meeting(zoom, "一面 陈同学 后端")
    event = zoom.event("recording.transcript_completed", first, account_id=ALPHA_ACCOUNT)
    status, answer = zoom.deliver(bot.zoom_url, event, secret=ALPHA_TOKEN)
    assert (status, json.loads(answer)) == (200, {"status": "queued"})
    alpha = bot.store.in_workspace(space(bot, ALPHA))
    wait_until(  # indexed, then marked taken: the row says it last
        "Alpha's interview",
        lambda: [r.state for r in alpha.zoom_recordings()] == ["taken"] and alpha.count() == 1,
        30,  # fetched and read twice in a process of its own: seconds on a loaded machine
    )
    (taken,) = alpha.zoom_recordings()
    assert (taken.account_id, taken.meeting_uuid, taken.state) == (
        ALPHA_ACCOUNT,
        first.uuid,
        "taken",
    )
    assert stored(bot, BETA) == (0, 0)
    calls = bot.fake.wait_for("chat.postMessage", count=before + 1)
    (card,) = [c for c in calls[before:] if c.params.get("channel") in ("CALPHA", "CBETA")]
    assert card.ok and card.params["channel"] == "CALPHA"
    assert card.token is not None
    assert bot.fake.oauth.tokens[card.token].installer.team_id == ALPHA  # Alpha's own token
    assert zoom.downloads(str(first.transcript_file_id)) == 1

    # an account no workspace has, signed with a token one has: acknowledged, kept nowhere
    second = interview_meeting(zoom, "二面 陈同学 后端")
    stranger = zoom.event("recording.transcript_completed", second, account_id="nObOdY_Acct_09")
    status, answer = zoom.deliver(bot.zoom_url, stranger, secret=ALPHA_TOKEN)
    assert (status, json.loads(answer)) == (200, {"status": "foreign"})
    # Alpha's token naming Beta's account: Beta's events are signed with Beta's token
    forged = zoom.event("recording.transcript_completed", second, account_id=BETA_ACCOUNT)
    status, answer = zoom.deliver(bot.zoom_url, forged, secret=ALPHA_TOKEN)
    assert (status, json.loads(answer)) == (200, {"status": "foreign"})
    # signed with a token no workspace has: refused
    status, _ = zoom.deliver(bot.zoom_url, forged, secret="a-token-nobody-set")
    assert status == 401
    # every event was answered after what it changed: nothing was queued, so nothing comes
    assert stored(bot, ALPHA) == (1, 1) and stored(bot, BETA) == (0, 0)
    assert zoom.downloads(str(second.transcript_file_id)) == 0
    assert not any(second.uuid in r.path for r in zoom.requests)

    # Beta's Zoom app checks the endpoint with Beta's token, as saved in App Home
    zoom.secret_token = BETA_TOKEN
    status, validated = zoom.validate_endpoint(bot.zoom_url)
    assert status == 200 and zoom.validation_ok(validated)

    # Beta's own event, with Beta's token: Beta's interview, its card in Beta's channel
    third = interview_meeting(zoom, "终面 陈同学 后端")
    event = zoom.event("recording.transcript_completed", third, account_id=BETA_ACCOUNT)
    status, _ = zoom.deliver(bot.zoom_url, event, secret=BETA_TOKEN)
    assert status == 200
    beta = bot.store.in_workspace(space(bot, BETA))
    wait_until(
        "Beta's interview",
        lambda: [r.state for r in beta.zoom_recordings()] == ["taken"] and beta.count() == 1,
        30,
    )
    calls = bot.fake.wait_for("chat.postMessage", count=len(calls) + 1)
    to_beta = [c for c in calls if c.params.get("channel") == "CBETA"]
    assert (
        len(to_beta) == 1 and bot.fake.oauth.tokens[str(to_beta[0].token)].installer.team_id == BETA
    )
    assert stored(bot, ALPHA) == (1, 1)
