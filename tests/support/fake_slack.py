"""``FakeSlack``: one strict fake Slack Web API, real HTTP on ``127.0.0.1:<port>``
(``base_url`` is what ``SLACK_API_URL`` points at), recording every call.

It refuses what Slack refuses: methods and required arguments are checked against Slack's
published spec (``support.spec``), messages and views against Slack's limits
(``support.limits``), posts against channel membership, ``response_url`` posts against
their 5-posts / 30-minutes budget. Faults (429 with ``Retry-After``, 5xx, a dropped
connection after processing) can be scripted per method for the next N calls. The methods
it answers are ``support.web_api.METHODS``.

One fake serves a whole test run: ``reset()`` between tests puts every piece of its state
back to what a new one has and starts a new generation. The addresses it gives out after
(``url``, ``base_url``, response_urls, file downloads) carry it, and a request of an
earlier generation is refused unrecorded (``support.fake_slack_http``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .fake_oauth import FakeOAuth
from .fake_slack_http import Reply, StampingServer, make_handler
from .limits import RESPONSE_URL_LIFETIME, RESPONSE_URL_POSTS, RULE_ERRORS, block_problem
from .servers import DEFAULT_TIMEOUT, HttpServer
from .spec import APP_TOKEN_METHODS, CLIENT_METHODS, METHOD_SCOPES, manifest_scopes, web_api_spec
from .web_api import METHODS, Call, FakeFile, Result, ResultFactory
from .workspace import MEMBER_CHANNELS, TEAM_ID

if TYPE_CHECKING:
    from .socket_mode import FakeSocketModeServer


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


class FakeSlack(HttpServer):
    """Strict fake Slack Web API + response_url sink on ``http://127.0.0.1:<port>``.

    Use as a context manager (or ``start()`` / ``stop()``)::

        with FakeSlack() as fake:
            client = WebClient(token="xoxb-test", base_url=fake.base_url)
            client.chat_postMessage(channel="C1", text="hi")
            [call] = fake.wait_for("chat.postMessage")

    ``clock`` (seconds, monotonic) decides when a response_url expires; ``member_channels``
    are the channels the bot was invited to; ``scopes`` go out in ``x-oauth-scopes``;
    ``port``: a port chosen beforehand, for a Slack that comes up late (0: any free one);
    ``name``: its serving thread's.
    """

    GENERATION = re.compile(r"g(\d+)")  # the first segment of a path of a reset fake

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        member_channels: Iterable[str] = MEMBER_CHANNELS,
        scopes: Iterable[str] | None = None,
        port: int = 0,
        name: str = "fake-slack-http",
    ) -> None:
        super().__init__(make_handler(self), name=name, port=port)
        self._lock = threading.Condition()
        self._generation = 0  # how many times reset(): the test this fake now serves
        self._in_flight = 0  # requests being handled
        self._fresh(clock, member_channels, scopes)

    def _fresh(
        self,
        clock: Callable[[], float],
        member_channels: Iterable[str],
        scopes: Iterable[str] | None,
    ) -> None:
        """Every piece of state a test may see or change, as a new fake has it."""
        self.spec = web_api_spec()
        self.clock = clock
        self.member_channels = set(member_channels)
        self.scopes = tuple(manifest_scopes() if scopes is None else scopes)
        # installing the app (support/fake_oauth.py): the authorize page, oauth.v2.access,
        # the tokens issued; its grants are manifest.yml's scopes, whatever `scopes` says
        self.oauth = FakeOAuth(scopes=manifest_scopes())
        self.admins: set[str] = set()  # users.info: workspace admins (is_admin)
        self.owners: set[str] = set()  # users.info: workspace owners (is_owner)
        # users.info, asked with an Enterprise Grid install's token: the organisation's
        # admins and owners (enterprise_user.is_admin / is_owner)
        self.org_admins: set[str] = set()
        self.org_owners: set[str] = set()
        self.usergroups: dict[str, list[str]] = {}
        self.users: dict[str, str] = {}  # user id -> display name, for users.info
        self.emails: dict[str, str] = {}  # email -> user id, for users.lookupByEmail
        self.unknown_users: set[str] = set()  # ids users.info does not know
        self.user_teams: dict[str, str] = {}  # Slack Connect users: id -> their own team
        # conversations.info: channels shared with another organisation (Slack Connect:
        # is_ext_shared), and those with an invitation to one pending (is_pending_ext_shared)
        self.shared_channels: set[str] = set()
        self.pending_shared: set[str] = set()
        self.socket_mode: FakeSocketModeServer | None = None
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
        self.dms: dict[str, str] = {}  # the bot's DM channel (D…) with a user -> that user
        self.bots: list[Any] = []  # the test bots talking to this fake (support/slackbot.py)
        self._triggers: dict[str, float] = {}
        self._view_counter = itertools.count(1)
        self._ts_counter = itertools.count(1)
        self._url_counter = itertools.count(1)

    # -- addresses ---------------------------------------------------------

    @property
    def url(self) -> str:
        """Root URL, ``http://127.0.0.1:PORT/`` (``…/g<N>/`` once reset N times)."""
        prefix = f"g{self._generation}/" if self._generation else ""
        return f"http://127.0.0.1:{self.port}/{prefix}"

    @property
    def generation(self) -> int:
        return self._generation

    def _make_httpd(self, address: tuple[str, int]) -> StampingServer:
        return StampingServer(address, self._handler, self)

    @property
    def connections(self) -> int:
        """How many connections it accepted so far."""
        httpd = self._httpd
        return httpd.accepted if isinstance(httpd, StampingServer) else 0

    def enter(self, stamp: int, path: str) -> str | None:
        """A request begins: its path without the generation, or None when it belongs to
        an earlier one (its connection was accepted before the last reset, or its address
        was given out before it). Each path returned is ended by ``leave()``."""
        segment, _, rest = path.partition("/")
        given = self.GENERATION.fullmatch(segment)
        with self._lock:
            if stamp != self._generation or (given and int(given[1]) != self._generation):
                return None
            self._in_flight += 1
        return rest if given else path

    def leave(self) -> None:
        with self._lock:
            self._in_flight -= 1
            self._lock.notify_all()

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

    def _serve_file(self, rest: str, headers: dict[str, str]) -> Reply:
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
            reply = Reply(200, None, {"Content-Type": "text/html"}, b"<html>Sign in</html>")
            error: str | None = "not_authed"
        elif found is None:
            reply, error = Reply(404, None, {}, b"not found"), "file_not_found"
        elif found.redirect:
            reply, error = Reply(302, None, {"Location": found.redirect}, b""), None
        else:
            reply = Reply(200, None, {"Content-Type": found.mimetype}, found.content)
            error = None
        with self._lock:
            self._calls.append(dataclasses.replace(call, status=reply.status, error=error))
            self._lock.notify_all()
        return reply

    def is_member(self, channel: str) -> bool:
        """Whether the bot may post in ``channel``: invited there, or its own DM with a user."""
        return channel in self.member_channels or channel.startswith("U") or channel in self.dms

    def dm_channel(self, user: str) -> str:
        """The bot's DM channel with ``user`` (``conversations.open`` gives the same one)."""
        channel = "D" + hashlib.sha1(user.encode()).hexdigest()[:10].upper()
        with self._lock:
            self.dms[channel] = user
        return channel

    def messages(self, channel: str) -> list[dict[str, Any]]:
        """The messages this fake holds in ``channel`` (as edited since), oldest first."""
        with self._lock:
            return [dict(m) for _, m in self._messages.get(channel, [])]

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

    def reset(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        member_channels: Iterable[str] = MEMBER_CHANNELS,
        scopes: Iterable[str] | None = None,
    ) -> None:
        """The fake as ``FakeSlack(clock=…, member_channels=…, scopes=…)`` would be, for
        the next test: no call, fault, result, message, user, view, file, install… of the
        one before. A new generation begins first; the requests still being handled end
        before the state is replaced, and any request of an earlier one is refused."""
        with self._lock:
            self._generation += 1
            self._lock.wait_for(lambda: self._in_flight == 0, DEFAULT_TIMEOUT)
            self._fresh(clock, member_channels, scopes)

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
    ) -> Reply:
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
            reply = Reply(status, {"ok": False, "error": error})
        elif fault is not None and not fault.drop:
            extra = {"Retry-After": str(fault.retry_after)} if fault.retry_after is not None else {}
            reply = Reply(fault.status, {"ok": False, "error": fault.error}, extra)
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
        if call.method in CLIENT_METHODS:  # the app's credentials, not a token: its own checks
            return None
        token = call.token
        if not token:
            return "not_authed"
        dead = self.oauth.token_problem(token)
        if dead is not None:
            return dead
        if token.startswith("xapp-") != (call.method in APP_TOKEN_METHODS):
            return "not_allowed_token_type"
        if any(call.params.get(name) in (None, "") for name in required):
            return "invalid_arguments"
        if not METHOD_SCOPES.get(call.method, frozenset()) <= set(self.scopes):
            return "missing_scope"
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

    def _respond(self, key: str, call: Call) -> Reply:
        error = block_problem(call.params.get("blocks"))
        if error:
            return Reply(400, {"ok": False, "error": error})
        with self._lock:
            self._response_urls[key].posts += 1
        return Reply(200, None, {}, b"ok")

    def _answer(self, call: Call) -> Reply:
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
        return Reply(200, {"ok": True, **result})

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
