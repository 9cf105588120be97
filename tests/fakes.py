"""Wire-level fakes of Slack for tests.

Everything here talks real HTTP / WebSocket on 127.0.0.1 with ephemeral ports:

* ``FakeSlack`` - one strict fake Web API (``base_url`` is what ``SLACK_API_URL`` points
  at) that records every call and refuses what Slack refuses: methods and required
  arguments are checked against Slack's published OpenAPI spec, messages against Block
  Kit limits, posts against channel membership, ``response_url`` posts against their
  5-posts / 30-minutes budget. Faults (429 with ``Retry-After``, 5xx, a dropped
  connection after processing) can be scripted per method for the next N calls.
* ``FakeSocketModeServer`` - a local Socket Mode WebSocket endpoint; ``apps.connections.open``
  on the attached ``FakeSlack`` returns its URL. Pushes envelopes, records acks.
* ``WsgiServer`` - runs any WSGI app under waitress on loopback, with a clean shutdown.
* Signing helpers and body builders that produce requests byte-for-byte the way Slack
  signs them (v0 HMAC-SHA256 over ``v0:{timestamp}:{raw body}``).

The fake implements only the Web API methods the bot calls (``METHODS``). Adding one is
one entry there: a function ``(fake, call) -> result`` (``{"error": ...}`` refuses).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
import itertools
import json
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
import waitress
import yaml
from websockets.exceptions import ConnectionClosed
from websockets.sync.server import Server, ServerConnection, serve

if TYPE_CHECKING:
    from wsgiref.types import WSGIApplication

__all__ = [
    "BOT_ID",
    "BOT_USER_ID",
    "CONTENT_TYPE_FORM",
    "CONTENT_TYPE_JSON",
    "MEMBER_CHANNELS",
    "METHODS",
    "TEAM_ID",
    "Call",
    "FakeClock",
    "FakeFile",
    "FakeSlack",
    "FakeSocketModeServer",
    "WsgiServer",
    "action_body",
    "block_problem",
    "command_body",
    "command_payload",
    "event_body",
    "event_payload",
    "manifest_scopes",
    "post_signed",
    "sign",
    "url_verification_body",
    "web_api_spec",
]

ROOT = Path(__file__).resolve().parent.parent
SPEC_PATH = (
    ROOT.parent / "shared" / "slack" / "api-specs" / "slack_web_openapi_v2_without_examples.json"
)

TEAM_ID = "T0001"
TEAM_NAME = "Test"
TEAM_URL = "https://test.slack.com/"
BOT_USER_ID = "UBOT"
BOT_ID = "BBOT"
APP_ID = "A1"
CONTENT_TYPE_FORM = "application/x-www-form-urlencoded"
CONTENT_TYPE_JSON = "application/json"
DEFAULT_TIMEOUT = 5.0

# Channels the bot is a member of unless a test says otherwise: the ones the tests use.
MEMBER_CHANNELS = frozenset({"C0", "C1", "C9", "C123", "CHIRE", "CRANDOM", "COTHER", "CX"})

# Slack's limits (https://api.slack.com/reference/block-kit/blocks and practice, see
# ../shared/slack/README.md): real Slack refuses at about 13,200 characters of block text;
# 12,000 characters of compact JSON is the line the bot must stay under.
MAX_BLOCKS = 50
MAX_BLOCKS_JSON = 12_000
MAX_HEADER_TEXT = 150
MAX_SECTION_TEXT = 3_000
RESPONSE_URL_POSTS = 5
RESPONSE_URL_LIFETIME = 30 * 60.0

# Methods newer than the 2020 spec, with their required arguments (besides the token).
NEWER_THAN_SPEC: dict[str, frozenset[str]] = {"apps.connections.open": frozenset()}
APP_TOKEN_METHODS = frozenset({"apps.connections.open"})

# Refusals that mean the bot broke one of Slack's rules (as opposed to runtime answers
# such as ``not_in_channel`` or scripted faults a test asked for).
RULE_ERRORS = frozenset(
    {
        "unknown_method",
        "invalid_arguments",
        "not_authed",
        "not_allowed_token_type",
        "no_text",
        "invalid_blocks",
        "invalid_blocks_format",
        "msg_blocks_too_long",
        "used_url",
        "expired_url",
        "no_such_url",
        "fake_method_not_implemented",
        "invalid_trigger_id",
        "expired_trigger_id",
        "view_too_large",
        "hash_conflict",
    }
)

# Views (modals and the Home tab): https://api.slack.com/reference/surfaces/views
MAX_VIEW_BLOCKS = 100
MAX_VIEW_TITLE = 24
MAX_PRIVATE_METADATA = 3_000
TRIGGER_LIFETIME = 3.0  # a trigger_id opens a modal within 3 seconds of the click

Result = Mapping[str, Any]
ResultFactory = Callable[["Call"], Result]


# ---------------------------------------------------------------------------
# Slack's published Web API spec
# ---------------------------------------------------------------------------


@functools.cache
def _load_spec(path: Path) -> dict[str, frozenset[str]]:
    spec = json.loads(path.read_text("utf-8"))
    methods: dict[str, frozenset[str]] = {}
    for name, operations in spec["paths"].items():
        required = {
            str(param["name"])
            for operation in operations.values()
            for param in operation.get("parameters", [])
            if param.get("required") and param["name"] != "token"
        }
        methods[name.lstrip("/")] = frozenset(required)
    return methods | NEWER_THAN_SPEC


def web_api_spec() -> dict[str, frozenset[str]]:
    """Method name -> its required arguments, from Slack's spec; skips the test without it."""
    if not SPEC_PATH.is_file():
        pytest.skip(f"Slack's Web API spec is not here ({SPEC_PATH}): the strict fake needs it")
    return _load_spec(SPEC_PATH)


def manifest_scopes() -> tuple[str, ...]:
    """The bot scopes manifest.yml asks for: what a real token would be granted."""
    manifest = yaml.safe_load((ROOT / "manifest.yml").read_text("utf-8"))
    return tuple(manifest["oauth_config"]["scopes"]["bot"])


def block_problem(blocks: Any) -> str | None:
    """The error Slack answers for these blocks, or None when it would take them."""
    if blocks is None:
        return None
    if isinstance(blocks, str):
        try:
            blocks = json.loads(blocks)
        except ValueError:
            return "invalid_blocks_format"
    if not isinstance(blocks, list):
        return "invalid_blocks_format"
    if len(json.dumps(blocks, ensure_ascii=False, separators=(",", ":"))) > MAX_BLOCKS_JSON:
        return "msg_blocks_too_long"
    if len(blocks) > MAX_BLOCKS:
        return "invalid_blocks"
    for block in blocks:
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            return "invalid_blocks"
        text = block.get("text")
        body = text.get("text") if isinstance(text, dict) else None
        if block["type"] == "header" and (not isinstance(body, str) or len(body) > MAX_HEADER_TEXT):
            return "invalid_blocks"
        if block["type"] == "section" and isinstance(body, str) and len(body) > MAX_SECTION_TEXT:
            return "invalid_blocks"
    return None


# ---------------------------------------------------------------------------
# Recorded calls
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One request received by ``FakeSlack``.

    ``method`` is the Web API method (``"chat.postMessage"``) or, for posts to a
    response URL, ``"response/<name>"`` (``kind == "response"``).
    ``params`` merges query string and body (form values are ``str``; JSON values keep
    their JSON types). ``headers`` keys are lower-case. ``status`` and ``error`` are what
    the fake answered (``error`` is None on success); ``scripted`` marks a fault a test
    asked for. ``time`` is ``time.monotonic()`` when the request arrived.
    """

    method: str
    params: dict[str, Any]
    headers: dict[str, str]
    time: float
    kind: str = "api"
    status: int = 200
    body: bytes = b""
    content_type: str = ""
    error: str | None = None
    scripted: bool = False

    @property
    def token(self) -> str | None:
        """Token from ``Authorization: Bearer ...`` or a ``token`` param."""
        auth = self.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:].strip()
        token = self.params.get("token")
        return token if isinstance(token, str) else None

    @property
    def is_json(self) -> bool:
        return self.content_type.startswith(CONTENT_TYPE_JSON)

    @property
    def ok(self) -> bool:
        return self.status == 200 and self.error is None

    def json_param(self, name: str, default: Any = None) -> Any:
        """A param that may arrive JSON-encoded in a form body (``blocks``, ``view``...)."""
        value = self.params.get(name, default)
        if isinstance(value, str) and value[:1] in ("[", "{"):
            try:
                return json.loads(value)
            except ValueError:
                return value
        return value


@dataclass
class _Fault:
    status: int
    remaining: int
    retry_after: int | None
    error: str
    drop: bool = False


@dataclass
class _ResponseUrl:
    name: str
    issued: float
    posts: int = 0


@dataclass
class _Reply:
    status: int
    json_body: dict[str, Any] | None
    headers: dict[str, str] = field(default_factory=dict)
    raw: bytes = b""
    drop: bool = False


class FakeClock:
    """A clock tests move by hand: ``FakeSlack(clock=clock)``, then ``clock.advance(...)``."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds


# ---------------------------------------------------------------------------
# The methods the bot calls
# ---------------------------------------------------------------------------


def _auth_test(fake: FakeSlack, call: Call) -> Result:
    return {
        "url": TEAM_URL,
        "team": TEAM_NAME,
        "user": "debrief",
        "team_id": TEAM_ID,
        "user_id": BOT_USER_ID,
        "bot_id": BOT_ID,
        "is_enterprise_install": False,
    }


def _apps_connections_open(fake: FakeSlack, call: Call) -> Result:
    if fake.socket_mode is None:
        return {"error": "fake_socket_mode_server_not_attached"}
    return {"url": fake.socket_mode.new_url()}


def _message_problem(fake: FakeSlack, call: Call) -> str | None:
    channel = str(call.params["channel"])
    if not fake.is_member(channel):
        return "not_in_channel" if channel.startswith("C") else "channel_not_found"
    if not any(call.params.get(key) for key in ("text", "blocks", "attachments")):
        return "no_text"
    return block_problem(call.params.get("blocks"))


def _chat_post_message(fake: FakeSlack, call: Call) -> Result:
    if error := _message_problem(fake, call):
        return {"error": error}
    channel, ts = str(call.params["channel"]), fake.next_ts()
    message: dict[str, Any] = {
        "type": "message",
        "text": call.params.get("text", ""),
        "user": BOT_USER_ID,
        "bot_id": BOT_ID,
        "app_id": APP_ID,
        "team": TEAM_ID,
        "ts": ts,
    }
    for key in ("blocks", "attachments", "thread_ts", "metadata"):
        if key in call.params:
            message[key] = call.json_param(key)
    with fake._lock:
        fake._messages.setdefault(channel, []).append((time.time(), message))
    return {"channel": channel, "ts": ts, "message": message}


def _conversations_history(fake: FakeSlack, call: Call) -> Result:
    """The channel's messages this fake accepted, newest first; ``oldest`` (epoch seconds,
    exclusive unless ``inclusive``) is compared with when each was posted, as the fake's
    ``ts`` values are not wall-clock times. ``metadata`` only with ``include_all_metadata``."""
    channel = str(call.params["channel"])
    if not fake.is_member(channel):
        return {"error": "not_in_channel" if channel.startswith("C") else "channel_not_found"}
    oldest = float(call.params.get("oldest") or 0)
    inclusive = str(call.params.get("inclusive")).lower() in ("1", "true")
    with_metadata = str(call.params.get("include_all_metadata")).lower() in ("1", "true")
    with fake._lock:
        posted = list(fake._messages.get(channel, []))
    messages = []
    for at, message in reversed(posted):
        if at > oldest or (inclusive and at == oldest):
            shown = dict(message)
            if not with_metadata:
                shown.pop("metadata", None)
            messages.append(shown)
    return {"messages": messages, "has_more": False, "response_metadata": {"next_cursor": ""}}


def _chat_post_ephemeral(fake: FakeSlack, call: Call) -> Result:
    if error := _message_problem(fake, call):
        return {"error": error}
    return {"message_ts": fake.next_ts()}


def _reactions_add(fake: FakeSlack, call: Call) -> Result:
    key = (str(call.params["channel"]), str(call.params["timestamp"]), str(call.params["name"]))
    with fake._lock:
        if key in fake._reactions:
            return {"error": "already_reacted"}
        fake._reactions.add(key)
    return {}


def _usergroups_users_list(fake: FakeSlack, call: Call) -> Result:
    users = fake.usergroups.get(str(call.params["usergroup"]))
    return {"error": "no_such_subteam"} if users is None else {"users": list(users)}


def _conversations_info(fake: FakeSlack, call: Call) -> Result:
    channel = str(call.params["channel"])
    if channel.startswith(("G", "D")) and not fake.is_member(channel):
        return {"error": "channel_not_found"}  # private: invisible to a bot not in it
    is_private = channel.startswith("G")
    return {
        "channel": {
            "id": channel,
            "name": channel.lower(),
            "is_channel": not is_private,
            "is_private": is_private,
            "is_member": fake.is_member(channel),
        }
    }


def view_problem(view: Any) -> str | None:
    """The error Slack answers for this view (a modal or a Home tab), or None."""
    if isinstance(view, str):
        try:
            view = json.loads(view)
        except ValueError:
            return "invalid_arguments"
    if not isinstance(view, dict) or view.get("type") not in ("modal", "home"):
        return "invalid_arguments"
    blocks = view.get("blocks")
    if not isinstance(blocks, list) or len(blocks) > MAX_VIEW_BLOCKS:
        return "invalid_arguments"
    for key in ("title", "submit", "close"):
        part = view.get(key)
        if part is None:
            if key == "title" and view["type"] == "modal":
                return "invalid_arguments"
            continue
        text = part.get("text") if isinstance(part, dict) else None
        if part.get("type") != "plain_text" or not isinstance(text, str) or not text:
            return "invalid_arguments"
        if len(text) > MAX_VIEW_TITLE:
            return "invalid_arguments"
    if len(str(view.get("private_metadata") or "")) > MAX_PRIVATE_METADATA:
        return "invalid_arguments"
    has_input = any(isinstance(b, dict) and b.get("type") == "input" for b in blocks)
    if view["type"] == "modal" and has_input and not view.get("submit"):
        return "invalid_arguments"  # a modal with inputs needs a submit button
    for block in blocks:
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            return "invalid_arguments"
        text = block.get("text")
        body = text.get("text") if isinstance(text, dict) else None
        if block["type"] == "header" and (not isinstance(body, str) or len(body) > MAX_HEADER_TEXT):
            return "invalid_arguments"
        if block["type"] == "section" and isinstance(body, str) and len(body) > MAX_SECTION_TEXT:
            return "invalid_arguments"
        if block["type"] == "actions" and len(block.get("elements") or []) > 25:
            return "invalid_arguments"
    if len(json.dumps(view, ensure_ascii=False)) > 250_000:
        return "view_too_large"
    return None


def _stored_view(fake: FakeSlack, call: Call, view_id: str | None = None) -> dict[str, Any]:
    view = dict(call.json_param("view"))
    view_id = view_id or f"V{next(fake._view_counter):08d}"
    view.update(
        {
            "id": view_id,
            "team_id": TEAM_ID,
            "app_id": APP_ID,
            "bot_id": BOT_ID,
            "hash": f"{int(fake.clock())}.{uuid.uuid4().hex[:8]}",
            "state": {"values": {}},
        }
    )
    with fake._lock:
        fake.views[view_id] = view
    return view


def _views_open(fake: FakeSlack, call: Call) -> Result:
    with fake._lock:
        issued = fake._triggers.get(str(call.params["trigger_id"]))
    if issued is None:
        return {"error": "invalid_trigger_id"}
    if fake.clock() - issued > TRIGGER_LIFETIME:
        return {"error": "expired_trigger_id"}
    if error := view_problem(call.json_param("view")):
        return {"error": error}
    if call.json_param("view").get("type") != "modal":
        return {"error": "invalid_arguments"}
    return {"view": _stored_view(fake, call)}


def _views_push(fake: FakeSlack, call: Call) -> Result:
    """Like views.open, from an interaction inside an open modal (the new one stacks)."""
    return _views_open(fake, call)


def _views_update(fake: FakeSlack, call: Call) -> Result:
    view_id = str(call.params.get("view_id") or "")
    with fake._lock:
        old = fake.views.get(view_id)
    if not view_id or old is None:
        return {"error": "not_found"}
    if call.params.get("hash") and call.params["hash"] != old["hash"]:
        return {"error": "hash_conflict"}
    if error := view_problem(call.json_param("view")):
        return {"error": error}
    return {"view": _stored_view(fake, call, view_id)}


def _views_publish(fake: FakeSlack, call: Call) -> Result:
    if error := view_problem(call.json_param("view")):
        return {"error": error}
    if call.json_param("view").get("type") != "home":
        return {"error": "invalid_arguments"}
    user = str(call.params["user_id"])
    with fake._lock:
        view_id = fake.home_ids.setdefault(user, f"V{next(fake._view_counter):08d}")
    view = _stored_view(fake, call, view_id)
    with fake._lock:
        fake.homes[user] = view
    return {"view": view}


@dataclass
class FakeFile:
    """A file shared in Slack: ``content`` is served at its ``url_private_download``."""

    id: str
    name: str
    content: bytes
    user: str = "U123"
    user_team: str = TEAM_ID
    mimetype: str = "text/plain"
    filetype: str = "text"
    redirect: str | None = None  # the download answers 302 to this address instead


def _files_info(fake: FakeSlack, call: Call) -> Result:
    with fake._lock:
        f = fake.files.get(str(call.params.get("file") or ""))
    if f is None:
        return {"error": "file_not_found"}
    url = f"{fake.url}files-pri/{TEAM_ID}-{f.id}/download/{urllib.parse.quote(f.name)}"
    return {
        "file": {
            "id": f.id,
            "created": 1_700_000_000,
            "timestamp": 1_700_000_000,
            "name": f.name,
            "title": f.name,
            "mimetype": f.mimetype,
            "filetype": f.filetype,
            "pretty_type": "Plain Text",
            "user": f.user,
            "user_team": f.user_team,
            "mode": "hosted",
            "editable": True,
            "is_external": False,
            "external_type": "",
            "is_public": True,
            "size": len(f.content),
            "url_private": url.replace("/download/", "/"),
            "url_private_download": url,
        },
        "comments": [],
    }


def _conversations_members(fake: FakeSlack, call: Call) -> Result:
    channel = str(call.params.get("channel") or "")
    with fake._lock:
        members = fake.channel_members.get(channel)
    if members is None:
        return {"error": "channel_not_found"}
    limit = int(call.params.get("limit") or 100)
    start = int(call.params.get("cursor") or 0)
    page = members[start : start + limit]
    more = start + limit < len(members)
    return {
        "members": page,
        "response_metadata": {"next_cursor": str(start + limit) if more else ""},
    }


def _users_info(fake: FakeSlack, call: Call) -> Result:
    """Every `U…`/`W…` id is a member of the workspace (named when ``fake.users`` names
    it), except those of ``fake.unknown_users`` and the Slack Connect users of
    ``fake.user_teams`` (another organisation's team id)."""
    user = str(call.params["user"])
    if user in fake.unknown_users or not re.fullmatch(r"[UW][A-Z0-9]{2,}", user):
        return {"error": "user_not_found"}
    name = fake.users.get(user, "")
    profile = {"display_name": name, "real_name": name}
    team = fake.user_teams.get(user, TEAM_ID)
    return {"user": {"id": user, "team_id": team, "name": name.lower(), "profile": profile}}


Method = Callable[["FakeSlack", Call], Result]

METHODS: dict[str, Method] = {
    "apps.connections.open": _apps_connections_open,
    "auth.test": _auth_test,
    "chat.postEphemeral": _chat_post_ephemeral,
    "conversations.history": _conversations_history,
    "conversations.info": _conversations_info,
    "chat.postMessage": _chat_post_message,
    "conversations.members": _conversations_members,
    "files.info": _files_info,
    "reactions.add": _reactions_add,
    "usergroups.users.list": _usergroups_users_list,
    "users.info": _users_info,
    "views.open": _views_open,
    "views.publish": _views_publish,
    "views.push": _views_push,
    "views.update": _views_update,
}


# ---------------------------------------------------------------------------
# Fake Web API
# ---------------------------------------------------------------------------


class FakeSlack:
    """Strict fake Slack Web API + response_url sink on ``http://127.0.0.1:<port>``.

    Use as a context manager (or ``start()`` / ``stop()``)::

        with FakeSlack() as fake:
            client = WebClient(token="xoxb-test", base_url=fake.base_url)
            client.chat_postMessage(channel="C1", text="hi")
            [call] = fake.wait_for("chat.postMessage")

    ``clock`` (seconds, monotonic) decides when a response_url expires; ``member_channels``
    are the channels the bot was invited to; ``scopes`` go out in ``x-oauth-scopes``.
    """

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        member_channels: Iterable[str] = MEMBER_CHANNELS,
        scopes: Iterable[str] | None = None,
    ) -> None:
        self.spec = web_api_spec()
        self.clock = clock
        self.member_channels = set(member_channels)
        self.scopes = tuple(manifest_scopes() if scopes is None else scopes)
        self.usergroups: dict[str, list[str]] = {}
        self.users: dict[str, str] = {}  # user id -> display name, for users.info
        self.unknown_users: set[str] = set()  # ids users.info does not know
        self.user_teams: dict[str, str] = {}  # Slack Connect users: id -> their own team
        self.socket_mode: FakeSocketModeServer | None = None
        self._lock = threading.Condition()
        self._calls: list[Call] = []
        self._faults: dict[str, list[_Fault]] = {}
        self._results: dict[str, Result | ResultFactory] = {}
        self._response_urls: dict[str, _ResponseUrl] = {}
        self._reactions: set[tuple[str, str, str]] = set()
        self._messages: dict[str, list[tuple[float, dict[str, Any]]]] = {}  # posted, by channel
        # the bot token files are served to (``url_private_download``), files by id
        self.bot_token = "xoxb-test"
        self.files: dict[str, FakeFile] = {}
        self.channel_members: dict[str, list[str]] = {}
        self.views: dict[str, dict[str, Any]] = {}  # every modal and Home tab, by view id
        self.homes: dict[str, dict[str, Any]] = {}  # the Home tab published for each user
        self.home_ids: dict[str, str] = {}
        self._triggers: dict[str, float] = {}
        self._view_counter = itertools.count(1)
        self._ts_counter = itertools.count(1)
        self._url_counter = itertools.count(1)
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------

    def start(self) -> Self:
        if self._httpd is not None:
            return self
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        httpd.daemon_threads = True
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="fake-slack-http",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        httpd, thread = self._httpd, self._thread
        self._httpd = self._thread = None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        if thread is not None:
            thread.join(timeout=DEFAULT_TIMEOUT)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # -- addresses ---------------------------------------------------------

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("FakeSlack is not started")
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """Root URL, ``http://127.0.0.1:PORT/``."""
        return f"http://127.0.0.1:{self.port}/"

    @property
    def base_url(self) -> str:
        """Web API base, ``http://127.0.0.1:PORT/api/`` (for ``WebClient(base_url=...)``)."""
        return f"{self.url}api/"

    def response_url(self, name: str = "default") -> str:
        """A fresh response_url, issued now; its posts are recorded as ``"response/<name>"``.

        Like Slack's, it takes at most 5 posts and none 30 minutes after it was issued
        (``used_url`` / ``expired_url``, HTTP 404). Each call issues a new URL.
        """
        if "/" in name:
            raise ValueError(f"response_url name {name!r} must not contain '/'")
        key = f"{name}/{next(self._url_counter)}"
        with self._lock:
            self._response_urls[key] = _ResponseUrl(name, self.clock())
        return f"{self.url}response/{key}"

    def trigger_id(self) -> str:
        """A trigger_id issued now (by a click): ``views.open`` takes it within 3 seconds."""
        trigger = f"{next(self._url_counter)}.{uuid.uuid4().int % 10**12}.{uuid.uuid4().hex}"
        with self._lock:
            self._triggers[trigger] = self.clock()
        return trigger

    def add_file(self, file: FakeFile) -> FakeFile:
        """Share a file: ``files.info`` describes it, its download URL serves its bytes."""
        with self._lock:
            self.files[file.id] = file
        return file

    def _serve_file(self, rest: str, headers: dict[str, str]) -> _Reply:
        """A file's bytes, to a request carrying the bot token; Slack's login page otherwise."""
        call = Call(
            method=f"files/{rest.split('/')[0]}",
            params={},
            headers=headers,
            time=time.monotonic(),
            kind="file",
        )
        file_id = rest.split("/")[0].removeprefix(f"{TEAM_ID}-")
        with self._lock:
            found = self.files.get(file_id)
        if call.token != self.bot_token:
            reply = _Reply(200, None, {"Content-Type": "text/html"}, b"<html>Sign in</html>")
            error: str | None = "not_authed"
        elif found is None:
            reply, error = _Reply(404, None, {}, b"not found"), "file_not_found"
        elif found.redirect:
            reply, error = _Reply(302, None, {"Location": found.redirect}, b""), None
        else:
            reply = _Reply(200, None, {"Content-Type": found.mimetype}, found.content)
            error = None
        with self._lock:
            self._calls.append(dataclasses.replace(call, status=reply.status, error=error))
            self._lock.notify_all()
        return reply

    def is_member(self, channel: str) -> bool:
        """Whether the bot may post in ``channel``: invited there, or its own DM with a user."""
        return channel in self.member_channels or channel.startswith("U")

    # -- scripting ---------------------------------------------------------

    def fail_next(
        self,
        method: str,
        *,
        status: int = 500,
        times: int = 1,
        retry_after: int | None = None,
        error: str | None = None,
    ) -> None:
        """Make the next ``times`` calls of ``method`` fail without being processed.

        * ``status=429``: ``Retry-After: <retry_after or 1>`` and ``error: ratelimited``.
        * ``status>=500``: that status with ``{"ok": false, "error": error or "fatal_error"}``.
        * ``status=200``: an API-level failure ``{"ok": false, "error": error}``.
        * ``status=404`` on ``"response/<name>"``: a response_url Slack no longer knows.

        Faults queue up: ``fail_next(m, status=429); fail_next(m, status=500)`` fails twice.
        """
        if status == 429:
            default_error = "ratelimited"
            retry_after = 1 if retry_after is None else retry_after
        elif status >= 500:
            default_error = "fatal_error"
        else:
            default_error = "internal_error"
        self._add_fault(method, _Fault(status, times, retry_after, error or default_error))

    def drop_next(self, method: str, *, times: int = 1) -> None:
        """Process the next ``times`` calls of ``method``, then close the connection unanswered."""
        self._add_fault(method, _Fault(200, times, None, "", drop=True))

    def _add_fault(self, method: str, fault: _Fault) -> None:
        with self._lock:
            self._faults.setdefault(method, []).append(fault)

    def set_result(self, method: str, result: Result | ResultFactory) -> None:
        """Answer ``method`` with ``result`` (merged over ``{"ok": True}``) until ``reset()``.

        The call is still checked against the spec first. ``{"ok": False, "error": ...}``
        makes a sticky failure.
        """
        with self._lock:
            self._results[method] = result

    def reset(self) -> None:
        """Forget recorded calls, pending faults and result overrides."""
        with self._lock:
            self._calls.clear()
            self._faults.clear()
            self._results.clear()

    # -- inspection --------------------------------------------------------

    def calls(self, method: str | None = None) -> list[Call]:
        with self._lock:
            return [c for c in self._calls if method is None or c.method == method]

    def responses(self, name: str = "default") -> list[dict[str, Any]]:
        """JSON bodies that response_urls named ``name`` accepted, in order."""
        return [dict(c.params) for c in self.calls(f"response/{name}") if c.ok]

    def refusals(self) -> list[Call]:
        """Calls refused because the caller broke one of Slack's rules (not scripted faults)."""
        return [c for c in self.calls() if c.error in RULE_ERRORS and not c.scripted]

    def post_times(self, channel: str) -> list[float]:
        """When each accepted ``chat.postMessage`` to ``channel`` arrived (monotonic seconds).

        Slack allows about one message a second per channel; the fake records, a test asserts.
        """
        return [
            c.time
            for c in self.calls("chat.postMessage")
            if c.ok and c.params.get("channel") == channel
        ]

    def wait_for(self, method: str, count: int = 1, timeout: float = DEFAULT_TIMEOUT) -> list[Call]:
        """Block until at least ``count`` calls of ``method`` were recorded; return them.

        Raises ``TimeoutError`` (listing what was seen) otherwise.
        """
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                matching = [c for c in self._calls if c.method == method]
                if len(matching) >= count:
                    return matching
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    seen = [c.method for c in self._calls]
                    raise TimeoutError(
                        f"waited {timeout}s for {count}x {method}; got {len(matching)}; saw: {seen}"
                    )
                self._lock.wait(remaining)

    def next_ts(self) -> str:
        micros = 1_700_000_000_000_000 + next(self._ts_counter) * 100
        return f"{micros // 1_000_000}.{micros % 1_000_000:06d}"

    # -- request handling (called from server threads) ---------------------

    def _handle(
        self, path: str, params: dict[str, Any], headers: dict[str, str], body: bytes
    ) -> _Reply:
        kind, _, rest = path.partition("/")
        call = Call(
            method=rest if kind == "api" else f"response/{rest.split('/')[0]}",
            params=params,
            headers=headers,
            time=time.monotonic(),
            kind="api" if kind == "api" else "response",
            body=body,
            content_type=headers.get("content-type", ""),
        )
        error = self._api_problem(call) if call.kind == "api" else self._url_problem(rest)
        fault = None if error else self._take_fault(call.method)
        if error:
            status = 404 if call.kind == "response" else 200
            reply = _Reply(status, {"ok": False, "error": error})
        elif fault is not None and not fault.drop:
            extra = {"Retry-After": str(fault.retry_after)} if fault.retry_after is not None else {}
            reply = _Reply(fault.status, {"ok": False, "error": fault.error}, extra)
        elif call.kind == "response":
            reply = self._respond(rest, call)
        else:
            reply = self._answer(call)
        if call.kind == "api" and reply.json_body is not None:
            reply.headers["x-oauth-scopes"] = ",".join(self.scopes)
        reply.drop = fault is not None and fault.drop
        answered = reply.json_body or {}
        refused = reply.status != 200 or answered.get("ok") is False
        error = str(answered.get("error") or f"http_{reply.status}") if refused else None
        recorded = dataclasses.replace(
            call, status=reply.status, error=error, scripted=fault is not None
        )
        with self._lock:
            self._calls.append(recorded)
            self._lock.notify_all()
        return reply

    def _api_problem(self, call: Call) -> str | None:
        """What Slack answers before it looks at the call's meaning, or None."""
        required = self.spec.get(call.method)
        if required is None:
            return "unknown_method"
        token = call.token
        if not token:
            return "not_authed"
        if token.startswith("xapp-") != (call.method in APP_TOKEN_METHODS):
            return "not_allowed_token_type"
        if any(call.params.get(name) in (None, "") for name in required):
            return "invalid_arguments"
        return None

    def _url_problem(self, key: str) -> str | None:
        with self._lock:
            url = self._response_urls.get(key)
            if url is None:
                return "no_such_url"
            if self.clock() - url.issued > RESPONSE_URL_LIFETIME:
                return "expired_url"
            if url.posts >= RESPONSE_URL_POSTS:
                return "used_url"
        return None

    def _respond(self, key: str, call: Call) -> _Reply:
        error = block_problem(call.params.get("blocks"))
        if error:
            return _Reply(400, {"ok": False, "error": error})
        with self._lock:
            self._response_urls[key].posts += 1
        return _Reply(200, None, {}, b"ok")

    def _answer(self, call: Call) -> _Reply:
        with self._lock:
            override = self._results.get(call.method)
        if override is not None:
            result = dict(override(call) if callable(override) else override)
        else:
            method = METHODS.get(call.method)
            result = (
                {"error": "fake_method_not_implemented"}
                if method is None
                else dict(method(self, call))
            )
        if "error" in result:
            result.setdefault("ok", False)
        return _Reply(200, {"ok": True, **result})

    def _take_fault(self, method: str) -> _Fault | None:
        with self._lock:
            queue = self._faults.get(method)
            if not queue:
                return None
            fault = queue[0]
            fault.remaining -= 1
            if fault.remaining <= 0:
                queue.pop(0)
            return fault


def _parse_params(query: str, body: bytes, content_type: str) -> dict[str, Any]:
    """Query string and body, form-encoded or JSON, as Slack reads them."""
    params: dict[str, Any] = _form(query)
    if not body:
        return params
    if content_type.lower().startswith(CONTENT_TYPE_JSON):
        loaded = json.loads(body.decode("utf-8"))
        if not isinstance(loaded, dict):
            raise ValueError("a JSON body must be an object")
        params.update(loaded)
    else:
        params.update(_form(body.decode("utf-8")))
    return params


def _form(text: str) -> dict[str, Any]:
    parsed = parse_qs(text, keep_blank_values=True)
    return {k: v[0] if len(v) == 1 else v for k, v in parsed.items()}


def _make_handler(fake: FakeSlack) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "FakeSlack/1.0"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self._dispatch()

        def do_POST(self) -> None:
            self._dispatch()

        def _dispatch(self) -> None:
            url = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length > 0 else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            path = url.path.strip("/")
            kind, _, rest = path.partition("/")
            if kind == "files-pri" and rest:
                self._send(fake._serve_file(rest, headers))
                return
            if kind not in ("api", "response") or not rest:
                self._send(_Reply(404, {"ok": False, "error": "unknown_path"}))
                return
            try:
                params = _parse_params(url.query, body, headers.get("content-type", ""))
            except (ValueError, UnicodeDecodeError):
                self._send(_Reply(400, {"ok": False, "error": "invalid_form_data"}))
                return
            self._send(fake._handle(path, params, headers, body))

        def _send(self, reply: _Reply) -> None:
            if reply.drop:  # processed; now close the socket without an answer
                self.close_connection = True
                return
            if reply.json_body is not None:
                payload = json.dumps(reply.json_body).encode("utf-8")
                content_type = "application/json; charset=utf-8"
            else:
                payload = reply.raw
                content_type = reply.headers.pop("Content-Type", "text/html")
            self.send_response(reply.status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(payload)))
            for key, value in reply.headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(payload)

    return Handler


# ---------------------------------------------------------------------------
# Fake Socket Mode server
# ---------------------------------------------------------------------------


class FakeSocketModeServer:
    """Local Socket Mode endpoint (``ws://127.0.0.1:PORT/link/?ticket=N&app_id=A1``).

    Pass the ``FakeSlack`` so its ``apps.connections.open`` hands out this server's URL.
    Sends ``hello`` on every connect; ``send_envelope`` pushes to the newest open
    connection; every client message carrying ``envelope_id`` is recorded as an ack.
    """

    def __init__(
        self,
        slack: FakeSlack | None = None,
        *,
        send_hello: bool = True,
        ping_interval: float | None = 0.25,
    ) -> None:
        # Server pings keep slack_sdk's builtin client snappy: its reader blocks in recv()
        # for up to 3 s (hard-coded socket timeout), which otherwise delays close() and the
        # first message after a reconnect by ~3 s. Real Slack pings too; None disables.
        self._slack = slack
        self._send_hello = send_hello
        self._ping_interval = ping_interval
        self._cond = threading.Condition()
        self._open: list[ServerConnection] = []
        self._connections_opened = 0
        self._acks: dict[str, dict[str, Any]] = {}
        self._sent_at: dict[str, float] = {}
        self._acked_at: dict[str, float] = {}
        self._received: list[str] = []
        self._tickets = itertools.count(1)
        self._server: Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------

    def start(self) -> Self:
        if self._server is not None:
            return self
        self._server = serve(
            self._serve_connection,
            "127.0.0.1",
            0,
            close_timeout=2,
            compression=None,
            ping_interval=self._ping_interval,
        )
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="fake-socket-mode", daemon=True
        )
        self._thread.start()
        if self._slack is not None:
            self._slack.socket_mode = self
        return self

    def stop(self) -> None:
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if self._slack is not None and self._slack.socket_mode is self:
            self._slack.socket_mode = None
        if server is not None:
            server.shutdown()
        if thread is not None:
            thread.join(timeout=DEFAULT_TIMEOUT)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # -- addresses ---------------------------------------------------------

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("FakeSocketModeServer is not started")
        return int(self._server.socket.getsockname()[1])

    @property
    def url(self) -> str:
        # NB: slack_sdk's builtin client sends "GET {path}?{query}", so keep a real path.
        return f"ws://127.0.0.1:{self.port}/link/"

    def new_url(self) -> str:
        """A fresh connection URL (what ``apps.connections.open`` returns)."""
        return f"{self.url}?ticket={next(self._tickets)}&app_id={APP_ID}"

    # -- connection state --------------------------------------------------

    @property
    def connections_opened(self) -> int:
        with self._cond:
            return self._connections_opened

    @property
    def open_connections(self) -> int:
        with self._cond:
            return len(self._open)

    def wait_for_connection(self, count: int = 1, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Wait until ``count`` connections were opened in total and one is open."""
        if not self._wait(lambda: self._connections_opened >= count and bool(self._open), timeout):
            raise TimeoutError(f"no Socket Mode connection #{count} within {timeout}s")

    def _wait(self, predicate: Callable[[], bool], timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(predicate, timeout)

    # -- sending -----------------------------------------------------------

    def send_envelope(
        self,
        type: str = "slash_commands",
        payload: Mapping[str, Any] | None = None,
        *,
        envelope_id: str | None = None,
        accepts_response_payload: bool | None = None,
        retry_attempt: int = 0,
        retry_reason: str = "",
        timeout: float = DEFAULT_TIMEOUT,
    ) -> str:
        """Push an envelope (``slash_commands``/``interactive``/``events_api``); return its id."""
        envelope_id = envelope_id or str(uuid.uuid4())
        if accepts_response_payload is None:
            accepts_response_payload = type != "events_api"
        envelope: dict[str, Any] = {
            "envelope_id": envelope_id,
            "payload": dict(payload or {}),
            "type": type,
            "accepts_response_payload": accepts_response_payload,
        }
        if type == "events_api":
            envelope["retry_attempt"] = retry_attempt
            envelope["retry_reason"] = retry_reason
        with self._cond:
            self._sent_at[envelope_id] = time.monotonic()
        self.send_raw(envelope, timeout=timeout)
        return envelope_id

    def send_disconnect(
        self, reason: str = "refresh_requested", timeout: float = DEFAULT_TIMEOUT
    ) -> None:
        """Ask the client to reconnect (it calls ``apps.connections.open`` again)."""
        self.send_raw(
            {"type": "disconnect", "reason": reason, "debug_info": {"host": "fake"}},
            timeout=timeout,
        )

    def send_raw(self, message: Mapping[str, Any] | str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.wait_for_connection(timeout=timeout)
        with self._cond:
            connection = self._open[-1]
        connection.send(message if isinstance(message, str) else json.dumps(message))

    def close_connections(self, code: int = 1001, reason: str = "") -> None:
        """Close all open connections from the server side (client should reconnect)."""
        with self._cond:
            connections = list(self._open)
        for connection in connections:
            connection.close(code, reason)

    # -- acks --------------------------------------------------------------

    def wait_for_ack(self, envelope_id: str, timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
        """The ack JSON (``{"envelope_id": ..., "payload": {...}?}``) for ``envelope_id``."""
        if not self._wait(lambda: envelope_id in self._acks, timeout):
            raise TimeoutError(f"no ack for envelope {envelope_id} within {timeout}s")
        with self._cond:
            return self._acks[envelope_id]

    def ack_latency(self, envelope_id: str) -> float:
        """Seconds between sending the envelope and receiving its ack."""
        with self._cond:
            return self._acked_at[envelope_id] - self._sent_at[envelope_id]

    @property
    def acks(self) -> dict[str, dict[str, Any]]:
        with self._cond:
            return dict(self._acks)

    @property
    def received(self) -> list[str]:
        """Every text message the client sent, raw."""
        with self._cond:
            return list(self._received)

    def reset(self) -> None:
        with self._cond:
            self._acks.clear()
            self._sent_at.clear()
            self._acked_at.clear()
            self._received.clear()

    # -- server side -------------------------------------------------------

    def _serve_connection(self, connection: ServerConnection) -> None:
        with self._cond:
            self._open.append(connection)
            self._connections_opened += 1
            count = self._connections_opened
        try:
            if self._send_hello:
                connection.send(json.dumps(_hello(count)))
            with self._cond:
                self._cond.notify_all()
            for message in connection:
                text = message if isinstance(message, str) else message.decode("utf-8")
                self._on_message(text)
        except ConnectionClosed:
            pass
        finally:
            with self._cond:
                if connection in self._open:
                    self._open.remove(connection)
                self._cond.notify_all()

    def _on_message(self, text: str) -> None:
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        with self._cond:
            self._received.append(text)
            if isinstance(data, dict) and isinstance(data.get("envelope_id"), str):
                self._acks[data["envelope_id"]] = data
                self._acked_at[data["envelope_id"]] = time.monotonic()
            self._cond.notify_all()


def _hello(num_connections: int) -> dict[str, Any]:
    return {
        "type": "hello",
        "num_connections": num_connections,
        "debug_info": {
            "host": "fake-applink",
            "build_number": 1,
            "approximate_connection_time": 18060,
        },
        "connection_info": {"app_id": APP_ID},
    }


# ---------------------------------------------------------------------------
# WSGI app server (waitress) on loopback
# ---------------------------------------------------------------------------


class WsgiServer:
    """Serve a WSGI app with waitress on ``127.0.0.1:<ephemeral>`` in a background thread.

    ``url`` is ``http://127.0.0.1:PORT``. The asyncore loop runs in our own thread with a
    short poll so ``stop()`` is prompt and every socket/worker is closed by that thread.
    """

    def __init__(self, app: WSGIApplication, *, threads: int = 4) -> None:
        self._app = app
        self._threads = threads
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    def start(self) -> Self:
        if self._server is not None:
            return self
        self._stopping.clear()
        self._server = waitress.create_server(
            self._app, host="127.0.0.1", port=0, threads=self._threads
        )
        self._thread = threading.Thread(target=self._run, name="wsgi-server", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        server = self._server
        use_poll = server.adj.asyncore_use_poll
        while not self._stopping.is_set():
            server.asyncore.loop(timeout=0.05, map=server._map, use_poll=use_poll, count=1)
        server.task_dispatcher.shutdown(timeout=DEFAULT_TIMEOUT)
        for dispatcher in list(server._map.values()):
            dispatcher.close()

    def stop(self) -> None:
        thread = self._thread
        self._stopping.set()
        if thread is not None:
            thread.join(timeout=DEFAULT_TIMEOUT)
        self._server = self._thread = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("WsgiServer is not started")
        # waitress reports effective_port as a *string* (getnameinfo NI_NUMERICSERV)
        return int(self._server.effective_port)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


# ---------------------------------------------------------------------------
# Signing and request bodies
# ---------------------------------------------------------------------------


def sign(body: bytes, secret: str, timestamp: int | None = None) -> dict[str, str]:
    """Slack v0 signature headers for ``body`` (exact raw bytes that will be sent)."""
    ts = int(time.time()) if timestamp is None else int(timestamp)
    base = b"v0:" + str(ts).encode("ascii") + b":" + body
    digest = hmac.new(secret.encode("utf-8"), base, hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": str(ts), "X-Slack-Signature": f"v0={digest}"}


def command_payload(
    text: str,
    command: str = "/candidate",
    user_id: str = "U123",
    channel_id: str = "C123",
    team_id: str = TEAM_ID,
    response_url: str = "https://hooks.slack.com/commands/T0001/1/xyz",
    trigger_id: str | None = None,
    *,
    user_name: str = "tester",
    channel_name: str = "general",
    team_domain: str = "test",
    api_app_id: str = APP_ID,
) -> dict[str, str]:
    """The fields Slack sends for a slash command (also the Socket Mode payload)."""
    return {
        "token": "verification-token",
        "team_id": team_id,
        "team_domain": team_domain,
        "channel_id": channel_id,
        "channel_name": channel_name,
        "user_id": user_id,
        "user_name": user_name,
        "command": command,
        "text": text,
        "api_app_id": api_app_id,
        "is_enterprise_install": "false",
        "response_url": response_url,
        "trigger_id": trigger_id
        or f"{int(time.time())}.{uuid.uuid4().int % 10**12}.{uuid.uuid4().hex}",
    }


def command_body(
    text: str,
    command: str = "/candidate",
    user_id: str = "U123",
    channel_id: str = "C123",
    team_id: str = TEAM_ID,
    response_url: str = "https://hooks.slack.com/commands/T0001/1/xyz",
    trigger_id: str | None = None,
    **extra: str,
) -> bytes:
    """Form-encoded slash command body (``Content-Type: application/x-www-form-urlencoded``)."""
    payload = command_payload(
        text, command, user_id, channel_id, team_id, response_url, trigger_id, **extra
    )
    return urlencode(payload).encode("utf-8")


def event_payload(
    event: Mapping[str, Any],
    team_id: str = TEAM_ID,
    event_id: str | None = None,
    api_app_id: str = APP_ID,
) -> dict[str, Any]:
    """An ``event_callback`` envelope (HTTP body / Socket Mode ``events_api`` payload)."""
    now = int(time.time())
    return {
        "token": "verification-token",
        "team_id": team_id,
        "api_app_id": api_app_id,
        "event": dict(event),
        "type": "event_callback",
        "event_id": event_id or f"Ev{uuid.uuid4().hex[:10].upper()}",
        "event_time": now,
        "authorizations": [
            {
                "enterprise_id": None,
                "team_id": team_id,
                "user_id": BOT_USER_ID,
                "is_bot": True,
                "is_enterprise_install": False,
            }
        ],
        "is_ext_shared_channel": False,
        "event_context": f"4-{uuid.uuid4().hex}",
    }


def event_body(
    event: Mapping[str, Any],
    team_id: str = TEAM_ID,
    event_id: str | None = None,
    api_app_id: str = APP_ID,
) -> bytes:
    """JSON ``event_callback`` body (``Content-Type: application/json``)."""
    return json.dumps(event_payload(event, team_id, event_id, api_app_id)).encode("utf-8")


def url_verification_body(challenge: str = "challenge-token") -> bytes:
    return json.dumps(
        {"token": "verification-token", "challenge": challenge, "type": "url_verification"}
    ).encode()


def block_actions_payload(
    user: str,
    container: dict[str, Any],
    actions: list[dict[str, Any]],
    *,
    username: str = "alice",
    user_team: str = TEAM_ID,
    **fields: Any,
) -> dict[str, Any]:
    """A `block_actions` interaction as Slack sends it: `user` (of team `user_team`)
    acted on `actions` in `container`; `fields` adds the rest (channel, view,
    response_url, trigger_id, message)."""
    return {
        "type": "block_actions",
        "team": {"id": TEAM_ID, "domain": "test"},
        "user": {"id": user, "username": username, "name": username, "team_id": user_team},
        "api_app_id": "A1",
        "token": "verification-token",
        "container": container,
        "actions": actions,
        **fields,
    }


def action_body(payload: Mapping[str, Any]) -> bytes:
    """Interactivity body: form-encoded ``payload=<json>``."""
    return urlencode({"payload": json.dumps(payload)}).encode("utf-8")


def post_signed(
    url: str,
    body: bytes,
    secret: str,
    content_type: str | None = None,
    extra_headers: Mapping[str, str] | None = None,
    timestamp: int | None = None,
    timeout: float = 10.0,
) -> tuple[int, dict[str, str], bytes]:
    """POST ``body`` signed as Slack would; returns ``(status, headers, body)`` even for 4xx/5xx.

    ``content_type`` defaults to JSON when the body starts with ``{``, else form-encoded.
    ``extra_headers`` override the generated ones (e.g. a bad ``X-Slack-Signature``, or
    ``X-Slack-Retry-Num``).
    """
    if content_type is None:
        content_type = CONTENT_TYPE_JSON if body[:1] == b"{" else CONTENT_TYPE_FORM
    headers = {
        "Content-Type": content_type,
        "User-Agent": "Slackbot 1.0 (+https://api.slack.com/robots)",
    }
    headers.update(sign(body, secret, timestamp))
    headers.update(extra_headers or {})
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, _header_dict(response.headers.items()), response.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, _header_dict(error.headers.items()), error.read()


def _header_dict(items: Iterable[tuple[str, str]]) -> dict[str, str]:
    return {k.lower(): v for k, v in items}
