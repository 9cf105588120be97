"""The fake Slack's install side (support/fake_oauth.py) refuses what Slack refuses: a
test of the OAuth flow that passes against it has to do what Slack asks."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from support.fake_oauth import CLIENT_ID, CLIENT_SECRET, ROTATED_LIFETIME, Installer
from support.fake_slack import FakeSlack
from support.spec import manifest_scopes

REDIRECT = "https://debrief.example.com/slack/oauth_redirect"


class Wall:
    """A wall clock the test moves (token expiry is in wall-clock seconds)."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def fake() -> Iterator[FakeSlack]:
    with FakeSlack() as running:
        running.oauth.redirect_urls = [REDIRECT]
        yield running


def authorize(fake: FakeSlack, **query: str) -> tuple[int, dict[str, str]]:
    """A browser opening Slack's authorize page: the status, and the redirect's query
    (`to`: where it sends the browser; `page`: the error page, when it does not)."""
    args = {
        "client_id": CLIENT_ID,
        "scope": ",".join(manifest_scopes()),
        "user_scope": "",
        "state": "s1",
    } | query
    conn = http.client.HTTPConnection("127.0.0.1", fake.port, timeout=10)
    conn.request("GET", "/oauth/v2/authorize?" + urlencode(args))
    answer = conn.getresponse()
    location = answer.getheader("Location") or ""
    page = answer.read()
    conn.close()
    parsed = urlsplit(location)
    back = {k: v[0] for k, v in parse_qs(parsed.query).items()}
    if location:
        back["to"] = f"{parsed.scheme}://{parsed.netloc}{parsed.path}"
    else:
        back["page"] = page.decode()
    return answer.status, back


def exchange(fake: FakeSlack, code: str, **kw: str) -> dict[str, object]:
    client = WebClient(base_url=fake.base_url)
    args = {"client_id": CLIENT_ID, "client_secret": CLIENT_SECRET} | kw
    return dict(client.oauth_v2_access(code=code, **args).data)  # type: ignore[arg-type]


def test_an_install_gives_a_bot_token_of_that_workspace(fake: FakeSlack) -> None:
    fake.oauth.next = Installer(team_id="T0002", team_name="Beta", user="UADMIN")
    status, back = authorize(fake)
    assert status == 302 and back["to"] == REDIRECT and back["state"] == "s1"
    answer = exchange(fake, back["code"])
    assert answer["team"] == {"id": "T0002", "name": "Beta"} and answer["token_type"] == "bot"
    assert answer["authed_user"] == {"id": "UADMIN"} and "refresh_token" not in answer
    token = str(answer["access_token"])
    who = WebClient(token=token, base_url=fake.base_url).auth_test()
    assert (who["team_id"], who["user_id"]) == ("T0002", answer["bot_user_id"])
    # the code is good once
    with pytest.raises(SlackApiError, match="invalid_code"):
        exchange(fake, back["code"])
    # the fake's own workspace is still there, with its own token
    assert WebClient(token="xoxb-test", base_url=fake.base_url).auth_test()["team_id"] == "T0001"


def test_an_org_wide_install_is_of_the_organisation(fake: FakeSlack) -> None:
    fake.oauth.next = Installer(
        team_id=None, team_name=None, enterprise_id="E0001", enterprise_name="Acme", org_wide=True
    )
    _status, back = authorize(fake)
    answer = exchange(fake, back["code"])
    assert answer["team"] is None and answer["is_enterprise_install"] is True
    assert answer["enterprise"] == {"id": "E0001", "name": "Acme"}


@pytest.mark.parametrize(
    ("query", "refused"),
    [
        ({"client_id": "9.9"}, b"invalid_client_id"),
        ({"scope": "chat:write"}, b"invalid_scope"),
        ({"user_scope": "search:read"}, b"invalid_scope"),
        ({"redirect_uri": "https://elsewhere.example.com/cb"}, b"bad_redirect_uri"),
    ],
)
def test_the_authorize_page_refuses_what_the_app_did_not_register(
    fake: FakeSlack, query: dict[str, str], refused: bytes
) -> None:
    status, back = authorize(fake, **query)
    assert status == 400 and "code" not in back and back["page"] == refused.decode()


def test_a_person_who_declines_sends_back_no_code(fake: FakeSlack) -> None:
    fake.oauth.next = Installer(decline=True)
    status, back = authorize(fake)
    assert status == 302 and back == {"error": "access_denied", "state": "s1", "to": REDIRECT}


def test_oauth_v2_access_refuses_wrong_credentials_codes_and_redirects(fake: FakeSlack) -> None:
    _status, back = authorize(fake, redirect_uri=REDIRECT)
    with pytest.raises(SlackApiError, match="bad_client_secret"):
        exchange(fake, back["code"], client_secret="guess")
    with pytest.raises(SlackApiError, match="invalid_client_id"):
        exchange(fake, back["code"], client_id="9.9")
    with pytest.raises(SlackApiError, match="bad_redirect_uri"):
        exchange(fake, back["code"])  # issued for a redirect_uri: it must be sent again
    with pytest.raises(SlackApiError, match="invalid_code"):
        exchange(fake, "code-never-issued", redirect_uri=REDIRECT)
    assert exchange(fake, back["code"], redirect_uri=REDIRECT)["ok"] is True


def test_a_code_runs_out_after_ten_minutes() -> None:
    wall = Wall()
    with FakeSlack() as fake:
        fake.oauth.redirect_urls = [REDIRECT]
        fake.oauth.wall = wall
        _status, back = authorize(fake)
        wall.now += 601
        with pytest.raises(SlackApiError, match="invalid_code"):
            exchange(fake, back["code"])


def test_rotating_tokens_expire_and_each_refresh_token_works_once() -> None:
    wall = Wall()
    with FakeSlack() as fake:
        fake.oauth.redirect_urls = [REDIRECT]
        fake.oauth.wall = wall
        fake.oauth.rotation = True
        _status, back = authorize(fake)
        answer = exchange(fake, back["code"])
        token, refresh = str(answer["access_token"]), str(answer["refresh_token"])
        assert token.startswith("xoxe.xoxb-") and answer["expires_in"] == ROTATED_LIFETIME
        client = WebClient(base_url=fake.base_url)
        renewed = client.oauth_v2_access(
            client_id=CLIENT_ID,
            client_secret=CLIENT_SECRET,
            grant_type="refresh_token",
            refresh_token=refresh,
        )
        assert renewed["access_token"] != token and renewed["refresh_token"] != refresh
        with pytest.raises(SlackApiError, match="invalid_refresh_token"):
            client.oauth_v2_access(
                client_id=CLIENT_ID,
                client_secret=CLIENT_SECRET,
                grant_type="refresh_token",
                refresh_token=refresh,  # used: revoked
            )
        wall.now += ROTATED_LIFETIME
        with pytest.raises(SlackApiError, match="token_expired"):
            WebClient(token=token, base_url=fake.base_url).auth_test()


def test_an_uninstall_revokes_the_workspace_s_tokens(fake: FakeSlack) -> None:
    _status, back = authorize(fake)
    token = str(exchange(fake, back["code"])["access_token"])
    assert fake.oauth.uninstalled("T0002") == [token]
    with pytest.raises(SlackApiError, match="token_revoked"):
        WebClient(token=token, base_url=fake.base_url).chat_postMessage(channel="C1", text="hi")
    with pytest.raises(SlackApiError, match="invalid_auth"):
        WebClient(token="xoxb-2-never-issued", base_url=fake.base_url).auth_test()


def test_users_info_says_who_administers_the_workspace(fake: FakeSlack) -> None:
    fake.admins.add("UADMIN")
    fake.owners.add("UOWNER")
    client = WebClient(token="xoxb-test", base_url=fake.base_url)
    flags = {
        u: (
            client.users_info(user=u)["user"]["is_admin"],
            client.users_info(user=u)["user"]["is_owner"],
        )
        for u in ("UADMIN", "UOWNER", "UMEMBER")
    }
    assert flags == {"UADMIN": (True, False), "UOWNER": (True, True), "UMEMBER": (False, False)}
