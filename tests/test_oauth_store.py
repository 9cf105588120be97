"""bot/oauth.py: Bolt's installation and state stores on Debrief's store, the tokens
encrypted at rest, rotation by one replica, the authorize step (issue 26). The store
parts run on SQLite and PostgreSQL; rotation talks to the fake Slack over HTTP."""

from __future__ import annotations

import http.client
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from cryptography.fernet import Fernet
from slack_bolt.context import BoltContext
from slack_bolt.error import BoltError
from slack_sdk import WebClient
from slack_sdk.oauth.installation_store import Installation as SlackInstallation
from support.fake_oauth import CLIENT_ID, CLIENT_SECRET, Installer
from support.fake_slack import FakeSlack
from support.spec import manifest_scopes

from bot.oauth_authorize import WorkspaceAuthorize, WorkspaceTokens
from bot.oauth_cipher import TokenCipher, TokenKeyError
from bot.oauth_installations import DebriefInstallationStore
from bot.oauth_state import DebriefStateStore
from store.sqlite.store import Store

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

KEY = Fernet.generate_key().decode()
TOKEN = "xoxb-1234-5678-secretsecret"


def slack_installation(team: str = "T0002", **values: object) -> SlackInstallation:
    return SlackInstallation(
        **{
            "app_id": "A1",
            "team_id": team,
            "team_name": "Beta",
            "bot_token": TOKEN,
            "bot_id": "B2",
            "bot_user_id": "U2BOT",
            "bot_scopes": "commands,chat:write",
            "user_id": "UADMIN",
            "token_type": "bot",
        }
        | values
    )


@pytest.fixture
def installs(store: Store) -> DebriefInstallationStore:
    return DebriefInstallationStore(store, TokenCipher(KEY), grace_days=30)


def test_a_token_is_kept_encrypted_and_comes_back_whole(
    store: Store, installs: DebriefInstallationStore
) -> None:
    installs.save(slack_installation())
    stored = store._all("SELECT bot_token_enc FROM installations")
    assert len(stored) == 1 and TOKEN not in stored[0][0]
    bot = installs.find_bot(enterprise_id=None, team_id="T0002")
    assert bot is not None and (bot.bot_token, bot.bot_user_id) == (TOKEN, "U2BOT")
    assert bot.bot_scopes == ["commands", "chat:write"]
    found = installs.find_installation(enterprise_id=None, team_id="T0002")
    assert found is not None and found.user_id == "UADMIN" and found.bot_token == TOKEN
    # no user token is kept: another user of that workspace has no installation of theirs
    assert installs.find_installation(enterprise_id=None, team_id="T0002", user_id="U9") is None
    assert installs.find_bot(enterprise_id=None, team_id="T0404") is None


def test_the_key_can_be_replaced_and_a_lost_key_is_said(
    store: Store, installs: DebriefInstallationStore
) -> None:
    installs.save(slack_installation())
    new = Fernet.generate_key().decode()
    rotated = DebriefInstallationStore(store, TokenCipher(f"{new},{KEY}"), grace_days=30)
    assert rotated.find_bot(enterprise_id=None, team_id="T0002").bot_token == TOKEN  # type: ignore[union-attr]
    lost = DebriefInstallationStore(store, TokenCipher(new), grace_days=30)
    with pytest.raises(TokenKeyError, match="DEBRIEF_TOKEN_KEY"):
        lost.find_bot(enterprise_id=None, team_id="T0002")


def test_an_org_wide_install_is_found_by_its_organisation(
    installs: DebriefInstallationStore,
) -> None:
    installs.save(
        slack_installation(
            team=None,  # type: ignore[arg-type]
            team_name=None,
            enterprise_id="E0001",
            enterprise_name="Acme",
            is_enterprise_install=True,
        )
    )
    bot = installs.find_bot(enterprise_id="E0001", team_id="T0005", is_enterprise_install=True)
    assert bot is not None and bot.enterprise_id == "E0001" and bot.is_enterprise_install
    # a workspace of the organisation asking as itself is not the org-wide install
    assert installs.find_bot(enterprise_id="E0001", team_id="T0005") is None


def test_an_uninstall_deletes_the_token_and_dates_the_erasure(
    store: Store, installs: DebriefInstallationStore
) -> None:
    installs.save(slack_installation())
    installs.delete_all(enterprise_id=None, team_id="T0002")
    assert installs.find_bot(enterprise_id=None, team_id="T0002") is None
    assert store._scalar("SELECT count(*) FROM installations") == 0
    space = store.workspace_of("T0002")
    assert space is not None and space.erase_after is not None
    days = (datetime.fromisoformat(space.erase_after) - datetime.now(UTC)).days
    assert days in (29, 30)
    installs.delete_all(enterprise_id=None, team_id="T0002")  # delivered twice: no change
    assert store.workspace_of("T0002").erase_after == space.erase_after  # type: ignore[union-attr]


def test_a_store_failure_is_bolt_s_storage_error(
    store: Store, installs: DebriefInstallationStore
) -> None:
    with store.tx() as tx:  # the database refuses the write (a table gone, here)
        tx.execute("DROP TABLE installations")
    with pytest.raises(BoltError, match="could not be kept"):
        installs.save(slack_installation())


def test_a_state_is_good_once_and_a_forged_one_never_reaches_the_database(
    store: Store, db_target: str
) -> None:
    from store.factory import open_store

    states = DebriefStateStore(store, "state-secret")
    state = states.issue()
    assert store._scalar("SELECT count(*) FROM oauth_states") == 0  # handed out: nothing kept
    other_replica = DebriefStateStore(open_store(db_target), "state-secret")
    try:
        assert other_replica.consume(state) is True
        assert states.consume(state) is False  # replayed, on another replica
    finally:
        other_replica.store.close()  # type: ignore[attr-defined]
    expiry, nonce, _signature = states.issue().split(".")
    rows = store._scalar("SELECT count(*) FROM oauth_states")
    assert states.consume(f"{expiry}.{nonce}.{'0' * 64}") is False  # not signed with our secret
    assert DebriefStateStore(store, "another secret").consume(state) is False
    later = states.issue().split(".")
    assert states.consume(f"{int(later[0]) + 3600}.{later[1]}.{later[2]}") is False  # altered
    assert states.consume("x" * 5000) is False and states.consume("1.2") is False
    assert store._scalar("SELECT count(*) FROM oauth_states") == rows  # none was used up
    expired = DebriefStateStore(store, "state-secret", seconds=0)
    assert expired.consume(expired.issue()) is False
    assert store._scalar("SELECT count(*) FROM oauth_states") == rows


# -- rotation, against the fake Slack -------------------------------------------------


@pytest.fixture
def rotating_fake() -> Iterator[FakeSlack]:
    with FakeSlack() as fake:
        fake.oauth.redirect_urls = ["https://debrief.example.com/slack/oauth_redirect"]
        fake.oauth.rotation = True
        yield fake


def installed_with_rotation(fake: FakeSlack, installs: DebriefInstallationStore) -> None:
    """Install through the fake's authorize page and oauth.v2.access, as Bolt would."""
    fake.oauth.next = Installer(team_id="T0002", team_name="Beta")
    args = {"client_id": CLIENT_ID, "scope": ",".join(manifest_scopes()), "state": "s"}
    conn = http.client.HTTPConnection("127.0.0.1", fake.port, timeout=10)
    conn.request("GET", "/oauth/v2/authorize?" + urlencode(args))
    reply = conn.getresponse()
    code = parse_qs(urlsplit(reply.getheader("Location") or "").query)["code"][0]
    conn.close()
    got = WebClient(base_url=fake.base_url).oauth_v2_access(
        client_id=CLIENT_ID, client_secret=CLIENT_SECRET, code=code
    )
    installs.save(
        slack_installation(
            bot_token=got["access_token"],
            bot_refresh_token=got["refresh_token"],
            bot_token_expires_in=got["expires_in"],
        )
    )


def tokens_for(store: Store, fake: FakeSlack | None, minutes_before: int) -> WorkspaceTokens:
    """A replica's tokens (`fake`: the Slack it renews them with; None: nothing listens)."""
    return WorkspaceTokens(
        store,
        TokenCipher(KEY),
        CLIENT_ID,
        CLIENT_SECRET,
        WebClient(base_url=fake.base_url if fake else "http://127.0.0.1:9/api/"),
        minutes_before=minutes_before,
        wait_s=0,
    )


def test_a_token_near_its_expiry_is_renewed_once_across_replicas(
    store: Store, installs: DebriefInstallationStore, rotating_fake: FakeSlack
) -> None:
    fake = rotating_fake
    installed_with_rotation(fake, installs)
    found = store.find_installation("T0002")
    assert found is not None
    old = TokenCipher(KEY).decrypt(found.bot_token_enc)
    assert tokens_for(store, fake, 120).bot_token(found) == old  # 12 hours left: kept
    # due (renewed 13 hours before expiry): replica A renews, replica B read the row
    # before A saved and keeps the old token, which Slack still takes
    a, b = tokens_for(store, fake, 780), tokens_for(store, fake, 780)
    new = a.bot_token(found)
    assert new is not None and new != old
    assert b.bot_token(found) == old
    assert len(fake.calls("oauth.v2.access")) == 2  # the install, one renewal
    renewed = store.find_installation("T0002")
    assert renewed is not None and TokenCipher(KEY).decrypt(renewed.bot_token_enc) == new
    assert WebClient(token=new, base_url=fake.base_url).auth_test()["team_id"] == "T0002"


def test_a_renewal_slack_refuses_keeps_the_token_while_it_lasts(
    store: Store,
    installs: DebriefInstallationStore,
    rotating_fake: FakeSlack,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = rotating_fake
    installed_with_rotation(fake, installs)
    found = store.find_installation("T0002")
    assert found is not None
    fake.oauth.refresh.clear()  # the refresh token Slack knows is gone
    with caplog.at_level(logging.ERROR, logger="debrief.oauth"):
        kept = tokens_for(store, fake, 780).bot_token(found)
    assert kept == TokenCipher(KEY).decrypt(found.bot_token_enc)
    assert any("refused to renew the token of T0002" in r.getMessage() for r in caplog.records)


def test_authorize_answers_from_the_install_and_names_the_data_space(
    store: Store, installs: DebriefInstallationStore
) -> None:
    installs.save(slack_installation())
    authorize = WorkspaceAuthorize(store, tokens_for(store, None, minutes_before=120))
    context = BoltContext({"is_enterprise_install": False})
    result = authorize(context=context, enterprise_id=None, team_id="T0002", user_id="U5")
    assert result is not None and result.bot_token == TOKEN and result.user_id == "U5"
    assert (result.bot_user_id, result.bot_id, result.team_id) == ("U2BOT", "B2", "T0002")
    space = store.workspace_of("T0002")
    assert space is not None and context["workspace"] == space.ws
    nobody = BoltContext({"is_enterprise_install": False})
    assert authorize(context=nobody, enterprise_id=None, team_id="T0404", user_id="U5") is None
    assert "workspace" not in nobody


def test_an_expired_token_another_replica_is_renewing_is_not_used(
    store: Store, installs: DebriefInstallationStore
) -> None:
    past = int(datetime.now(UTC).timestamp()) - 60
    installs.save(slack_installation(bot_refresh_token="xoxe-1-r", bot_token_expires_at=past))
    found = store.find_installation("T0002")
    assert found is not None
    assert store.claim_token_rotation(found.ws, found.bot_token_enc, "replica-a", "9999")
    # replica B: the claim is A's, and the token it holds is dead; it waits for A's save
    # (not at all here) and then answers "no token" rather than call Slack with it
    assert tokens_for(store, None, 120).bot_token(found) is None
