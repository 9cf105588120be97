"""Slack's side of installing an app, for ``FakeSlack``: the authorize page a browser is
sent to, ``oauth.v2.access`` (a code for a bot token, a refresh token for a new one),
and the tokens it issued, each of one workspace or organisation, which expire and are
revoked as Slack's are.

What it refuses, as Slack does (docs.slack.dev: oauth.v2.access, token rotation):
- the authorize page: another client id, scopes other than manifest.yml's, a redirect
  URI the app did not register;
- ``oauth.v2.access``: client credentials missing or wrong (HTTP Basic, or the
  ``client_id``/``client_secret`` arguments), a code used before, run out (10 minutes)
  or unknown, a ``redirect_uri`` other than the one the code was issued for, a refresh
  token that is not the current one (a used refresh token is revoked);
- any call with a token it issued that expired (``token_expired``) or was revoked
  (``token_revoked``), or that it never issued in that form (``invalid_auth``).
The tokens of the fake's own workspace (``xoxb-test``…) stay as they always were.
"""

from __future__ import annotations

import base64
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlencode

from .workspace import APP_ID

if TYPE_CHECKING:
    from .web_api import Call, Result

CLIENT_ID = "1111.2222"
CLIENT_SECRET = "fake-client-secret"
CODE_LIFETIME = 600.0
ROTATED_LIFETIME = 43200  # seconds a rotating token lives (Slack: 12 hours)
ISSUED_PREFIXES = ("xoxb-2-", "xoxe.xoxb-")  # tokens this fake issues; xoxb-test is older


@dataclass
class Installer:
    """Who installs next, and where: a workspace, or an organisation (an org-wide install)."""

    team_id: str | None = "T0002"
    team_name: str | None = "Beta"
    enterprise_id: str | None = None
    enterprise_name: str | None = None
    org_wide: bool = False
    user: str = "UADMIN"
    decline: bool = False  # the person clicks "Cancel" on Slack's page
    teams: tuple[str, ...] = ()  # org-wide: the workspaces the app was granted (auth.teams.list)

    @property
    def key(self) -> str:
        key = self.enterprise_id if self.org_wide else self.team_id
        assert key, "an install is of a team, or of an organisation"
        return key


@dataclass
class _Code:
    installer: Installer
    redirect_uri: str | None  # as given to the authorize page (None: not given)
    issued: float
    used: bool = False


@dataclass
class Issued:
    """A bot token this fake issued: whose, and until when."""

    token: str
    installer: Installer
    bot_id: str
    bot_user_id: str
    expires_at: float | None  # wall-clock seconds; None: it does not expire
    revoked: bool = False
    refresh_token: str | None = None


@dataclass
class FakeOAuth:
    """The install's state in one ``FakeSlack``. ``redirect_urls``: the app's registered
    Redirect URLs (the first is used when the authorize page is given none); ``rotation``:
    token rotation is on for the app (tokens expire, a refresh token comes with each)."""

    scopes: tuple[str, ...]
    wall: Callable[[], float] = time.time
    client_id: str = CLIENT_ID
    client_secret: str = CLIENT_SECRET
    redirect_urls: list[str] = field(default_factory=list)
    rotation: bool = False
    next: Installer = field(default_factory=Installer)
    codes: dict[str, _Code] = field(default_factory=dict)
    tokens: dict[str, Issued] = field(default_factory=dict)
    refresh: dict[str, str] = field(default_factory=dict)  # current refresh token -> bot token
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # -- the browser's side --------------------------------------------------------------

    def authorize(self, query: str) -> tuple[int, dict[str, str], bytes]:
        """``GET /oauth/v2/authorize?...``: a redirect to the app with a code (or the
        person's refusal), or Slack's error page for a request it cannot take."""
        args = {k: v[0] for k, v in parse_qs(query, keep_blank_values=True).items()}
        if args.get("client_id") != self.client_id:
            return 400, {}, b"invalid_client_id"
        asked = {s for s in args.get("scope", "").split(",") if s}
        if asked != set(self.scopes) or args.get("user_scope", ""):
            return 400, {}, b"invalid_scope"
        given = args.get("redirect_uri") or None
        if given is not None and given not in self.redirect_urls:
            return 400, {}, b"bad_redirect_uri"
        target = given or (self.redirect_urls[0] if self.redirect_urls else None)
        if target is None:
            return 400, {}, b"no_redirect_uri"
        installer = self.next
        state = args.get("state", "")
        if installer.decline:
            answer = {"error": "access_denied", "state": state}
        else:
            code = f"code-{secrets.token_hex(8)}"
            with self._lock:
                self.codes[code] = _Code(installer, given, self.wall())
            answer = {"code": code, "state": state}
        return 302, {"Location": f"{target}?{urlencode(answer)}"}, b""

    # -- oauth.v2.access -------------------------------------------------------------------

    def access(self, call: Call) -> Result:
        client = _client_credentials(call)
        if client is None or client[0] != self.client_id:
            return {"error": "invalid_client_id"}
        if client[1] != self.client_secret:
            return {"error": "bad_client_secret"}
        grant = call.params.get("grant_type") or "authorization_code"
        if grant == "refresh_token":
            return self._refreshed(str(call.params.get("refresh_token") or ""))
        if grant != "authorization_code":
            return {"error": "invalid_grant_type"}
        return self._exchanged(str(call.params.get("code") or ""), call.params.get("redirect_uri"))

    def _exchanged(self, code: str, redirect_uri: object) -> Result:
        with self._lock:
            found = self.codes.get(code)
            if found is None or found.used or self.wall() - found.issued > CODE_LIFETIME:
                return {"error": "invalid_code"}
            if (redirect_uri or None) != found.redirect_uri:
                return {"error": "bad_redirect_uri"}
            found.used = True
            installer = found.installer
            issued = self._issue(installer, f"B{installer.key}", f"U{installer.key}BOT")
        team = (
            None if installer.org_wide else {"id": installer.team_id, "name": installer.team_name}
        )
        enterprise = (
            {"id": installer.enterprise_id, "name": installer.enterprise_name}
            if installer.enterprise_id
            else None
        )
        answer: dict[str, Any] = {
            "access_token": issued.token,
            "token_type": "bot",
            "scope": ",".join(self.scopes),
            "bot_user_id": issued.bot_user_id,
            "app_id": APP_ID,
            "team": team,
            "enterprise": enterprise,
            "is_enterprise_install": installer.org_wide,
            "authed_user": {"id": installer.user},
        }
        if issued.expires_at is not None:
            answer |= {
                "refresh_token": issued.refresh_token,
                "expires_in": int(issued.expires_at - self.wall()),
            }
        return answer

    def _refreshed(self, refresh_token: str) -> Result:
        with self._lock:
            old_token = self.refresh.pop(refresh_token, None)
            old = self.tokens.get(old_token or "")
            if old is None:
                return {"error": "invalid_refresh_token"}
            issued = self._issue(old.installer, old.bot_id, old.bot_user_id)
        return {
            "access_token": issued.token,
            "token_type": "bot",
            "scope": ",".join(self.scopes),
            "refresh_token": issued.refresh_token,
            "expires_in": int((issued.expires_at or self.wall()) - self.wall()),
            "bot_user_id": issued.bot_user_id,
            "app_id": APP_ID,
            "team": {"id": old.installer.team_id} if not old.installer.org_wide else None,
            "enterprise": {"id": old.installer.enterprise_id}
            if old.installer.enterprise_id
            else None,
            "is_enterprise_install": old.installer.org_wide,
        }

    def _issue(self, installer: Installer, bot_id: str, bot_user_id: str) -> Issued:
        """A new token (the lock held). With rotation, it expires, and its refresh token
        is the only one that works for that install from now on."""
        if self.rotation:
            token = f"xoxe.xoxb-1-{secrets.token_hex(24)}"
            refresh_token: str | None = f"xoxe-1-{secrets.token_hex(24)}"
            expires_at: float | None = self.wall() + ROTATED_LIFETIME
        else:
            token, refresh_token, expires_at = f"xoxb-2-{secrets.token_hex(12)}", None, None
        issued = Issued(token, installer, bot_id, bot_user_id, expires_at, False, refresh_token)
        self.tokens[token] = issued
        if refresh_token is not None:
            for old, bot_token in list(self.refresh.items()):  # one refresh token an install
                if self.tokens[bot_token].installer.key == installer.key:
                    del self.refresh[old]
            self.refresh[refresh_token] = token
        return issued

    # -- the tokens ---------------------------------------------------------------------------

    def token_problem(self, token: str) -> str | None:
        """Why Slack would refuse a call with `token` before reading it, or None."""
        with self._lock:
            issued = self.tokens.get(token)
        if issued is None:
            return "invalid_auth" if token.startswith(ISSUED_PREFIXES) else None
        if issued.revoked:
            return "token_revoked"
        if issued.expires_at is not None and self.wall() >= issued.expires_at:
            return "token_expired"
        return None

    def identity(self, token: str | None) -> Issued | None:
        with self._lock:
            return self.tokens.get(token or "")

    def uninstalled(self, key: str) -> list[str]:
        """The app is removed from workspace or organisation `key`: its tokens stop
        working (Slack then sends `app_uninstalled`); returns them."""
        with self._lock:
            gone = [t for t, i in self.tokens.items() if i.installer.key == key and not i.revoked]
            for token in gone:
                self.tokens[token].revoked = True
            for refresh, bot_token in list(self.refresh.items()):
                if bot_token in gone:
                    del self.refresh[refresh]
        return gone


def _client_credentials(call: Call) -> tuple[str, str] | None:
    """(client id, secret) from HTTP Basic auth, which Slack prefers, or the arguments."""
    auth = call.headers.get("authorization", "")
    if auth.lower().startswith("basic "):
        try:
            decoded = base64.b64decode(auth[6:].strip()).decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            return None
        client_id, sep, secret = decoded.partition(":")
        return (client_id, secret) if sep else None
    client_id, secret = call.params.get("client_id"), call.params.get("client_secret")
    if isinstance(client_id, str) and isinstance(secret, str):
        return client_id, secret
    return None
