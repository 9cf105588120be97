"""Debrief installed in many workspaces, on loopback, wired to the fake Slack: the app
in OAuth mode, and a browser that goes through Slack's install."""

from __future__ import annotations

import html
import http.client
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from cryptography.fernet import Fernet

from .fake_oauth import CLIENT_ID, CLIENT_SECRET, Installer
from .fake_slack import FakeSlack
from .slackbot import Bot, start_bot

REDIRECT = "https://debrief.example.com/slack/oauth_redirect"
STATE_SECRET = "test-state-secret"
TOKEN_KEY = Fernet.generate_key().decode()
COOKIE = "slack-app-oauth-state"


def start_installed_bot(fake: FakeSlack, db_path: str, **settings: Any) -> Bot:
    """The app over HTTP on loopback, installed in many workspaces (no bot token)."""
    fake.oauth.redirect_urls = [REDIRECT]
    values: dict[str, Any] = {
        "bot_token": None,
        "client_id": CLIENT_ID,
        "client_secret": CLIENT_SECRET,
        "state_secret": STATE_SECRET,
        "token_key": TOKEN_KEY,
        "redirect_uri": REDIRECT,
    } | settings
    return start_bot(fake, db_path, **values)


@dataclass
class Page:
    status: int
    headers: dict[str, str]
    body: str

    @property
    def location(self) -> str:
        return self.headers.get("location", "")


def get(url: str, cookie: str | None = None) -> Page:
    """A browser's GET: no redirect followed, the Cookie header as given."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=15)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
    answer = conn.getresponse()
    body = answer.read().decode("utf-8", "replace")
    headers = {k.lower(): v for k, v in answer.getheaders()}
    conn.close()
    return Page(answer.status, headers, body)


@dataclass
class Started:
    """An install begun: the authorize URL the "Add to Slack" page links to, and the
    state cookie it set in the browser."""

    authorize_url: str
    cookie: str  # "slack-app-oauth-state=…"
    state: str


def begin_install(bot: Bot) -> Started:
    page = get(bot.server.url + "/slack/install")
    assert page.status == 200, page
    found = re.search(r'href="([^"]*oauth/v2/authorize[^"]*)"', page.body)
    assert found, page.body
    url = html.unescape(found.group(1))
    cookie = page.headers.get("set-cookie", "")
    assert cookie.startswith(COOKIE + "=") and "Secure" in cookie and "HttpOnly" in cookie
    value = cookie.split(";", 1)[0]
    state = value.split("=", 1)[1]
    assert f"state={state}" in url
    return Started(url, value, state)


def back_from_slack(bot: Bot, location: str, cookie: str | None) -> Page:
    """Slack sent the browser to our registered redirect URL (https, in front of the
    app): the same path and query, on the app's loopback port."""
    parts = urlsplit(location)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == REDIRECT, location
    return get(f"{bot.server.url}{parts.path}?{parts.query}", cookie)


def install(bot: Bot, installer: Installer | None = None) -> Page:
    """The whole install, as a browser goes through it: our page, Slack's, ours again."""
    if installer is not None:
        bot.fake.oauth.next = installer
    started = begin_install(bot)
    slack = get(started.authorize_url)
    assert slack.status == 302, slack
    return back_from_slack(bot, slack.location, started.cookie)
