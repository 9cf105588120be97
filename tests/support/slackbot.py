"""A running Debrief app on loopback, wired to the fake Slack: the harness for wire tests."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from slack_bolt import App

from bot.app import DebriefApp, create_app
from bot.http_app import wsgi_app
from bot.server import listener_executors
from bot.settings import Settings, load_settings
from bot.zoom import ZoomFetcher, app_spaces, zoom_decrypt
from bot.zoom_events import webhook_app
from handlers.sending.pacing import Pacer
from store.factory import open_store
from store.sqlite.store import Store

from . import bot_server
from .bot_server import BotServer
from .fake_slack import FakeSlack
from .servers import WsgiServer
from .signed import action_body, block_actions_payload, command_body, event_body, post_signed

SECRET = "test-signing-secret"
TEST_POST_INTERVAL = 0.05
"""Seconds between two posts to one channel in a test bot: the pacing still orders and
spaces them (tests/test_slack_http.py checks Slack's one a second with `POST_INTERVAL`),
without a test waiting a second a post."""


class Tracker:
    """Bolt's listener executors, counting the work in flight: `wait_idle` is the readiness
    condition for "the bot has finished with every request it took" (never a fixed sleep).
    Each executor stays itself: the acks on their threads, the answers on theirs."""

    def __init__(self, app: App) -> None:
        self.pending = 0
        self.done = threading.Condition()
        runner = app.listener_runner
        lazy: Any = runner.lazy_listener_runner
        self.executors = listener_executors(app)
        runner.listener_executor = TrackedExecutor(runner.listener_executor, self)
        lazy.executor = TrackedExecutor(lazy.executor, self)

    def started(self) -> None:
        with self.done:
            self.pending += 1

    def finished(self, _future: Future[Any]) -> None:
        with self.done:
            self.pending -= 1
            self.done.notify_all()

    def wait_idle(self, timeout: float = 15) -> None:
        with self.done:
            if not self.done.wait_for(lambda: self.pending == 0, timeout):
                raise AssertionError(f"the bot still had {self.pending} listener(s) running")

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        for executor in self.executors:
            executor.shutdown(wait, cancel_futures=cancel_futures)


class TrackedExecutor(Executor):
    """One of Bolt's executors, reporting each task to `tracker`."""

    def __init__(self, inner: Executor, tracker: Tracker) -> None:
        self.inner = inner
        self.tracker = tracker

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.tracker.started()
        future = self.inner.submit(fn, *args, **kwargs)
        future.add_done_callback(self.tracker.finished)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.inner.shutdown(wait, cancel_futures=cancel_futures)


@dataclass
class Bot:
    fake: FakeSlack
    server: BotServer  # the run's (a `bot_server.Lease`) or its own
    store: Store
    settings: Settings
    work: Tracker | None = field(default=None, repr=False)
    app: DebriefApp | None = field(default=None, repr=False)
    # with a Zoom account in its settings: the fetcher serve runs (bot/zoom.py)
    zoom: ZoomFetcher | None = field(default=None, repr=False)

    def close(self) -> None:
        """Its background readers and listeners end while its fake Slack is still up:
        after, they would log refused connections into a later test. Its server takes
        no more requests (the run's is free for the next test's bot)."""
        self.server.stop()
        if self.zoom is not None:
            self.zoom.stop()
        if self.app is not None:
            self.app.close()
        if self.work is not None:
            self.work.shutdown(wait=True, cancel_futures=True)

    def stop(self) -> None:
        """The end of a test's bot: its server, its listener threads (and with them their
        SQLite connections: a long run would otherwise keep a few descriptors open for
        every bot it started), its store. The listeners still at work finish first:
        closing the store closes every thread's connection, and a connection closed
        under a query still running on another thread crashes SQLite (an xdist worker
        died of it, with no traceback, in test_slack_http and test_limits)."""
        self.close()
        self.store.close()

    def idle(self, timeout: float = 15) -> None:
        """Wait until every listener and lazy listener of the requests sent so far finished."""
        assert self.work is not None, "start the bot with start_bot()"
        self.work.wait_idle(timeout)

    @property
    def events_url(self) -> str:
        return self.server.url + "/slack/events"

    @property
    def zoom_url(self) -> str:
        return self.server.url + "/zoom/events"

    def command(self, text: str, name: str = "cmd", **kw: Any) -> tuple[int, float]:
        """Send a signed /candidate; return (status, seconds to the acknowledgement)."""
        body = command_body(text, response_url=self.fake.response_url(name), **kw)
        started = time.perf_counter()
        status, _headers, _body = post_signed(self.events_url, body, SECRET)
        return status, time.perf_counter() - started

    def replies(
        self, name: str = "cmd", count: int = 1, timeout: float = 10
    ) -> list[dict[str, Any]]:
        self.fake.wait_for(f"response/{name}", count=count, timeout=timeout)
        return self.fake.responses(name)

    def click(
        self,
        message: dict[str, Any],
        action_id: str,
        name: str = "click",
        user: str = "U123",
        channel: str = "C123",
        ephemeral: bool = True,
    ) -> int:
        """Click the button `action_id` of a message we received, as Slack would send it."""
        button = find_button(message, action_id)
        payload = block_actions_payload(
            user,
            {
                "type": "message",
                "message_ts": "1700000000.000001",
                "channel_id": channel,
                "is_ephemeral": ephemeral,
            },
            [
                {
                    "action_id": button["action_id"],
                    "block_id": "b",
                    "text": button["text"],
                    "value": button.get("value", ""),
                    "type": "button",
                    "action_ts": str(time.time()),
                }
            ],
            username="tester",
            trigger_id="1.2.3",
            channel={"id": channel, "name": "hiring"},
            response_url=self.fake.response_url(name),
        )
        status, _h, _b = post_signed(self.events_url, action_body(payload), SECRET)
        return status

    def event(
        self,
        event: dict[str, Any],
        event_id: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> int:
        status, _h, _b = post_signed(
            self.events_url, event_body(event, event_id=event_id), SECRET, extra_headers=headers
        )
        return status


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for block in message.get("blocks", []):
        if block.get("type") == "actions":
            found += block["elements"]
        accessory = block.get("accessory")
        if accessory and accessory.get("type") == "button":
            found.append(accessory)
    return found


def find_button(message: dict[str, Any], action_id: str) -> dict[str, Any]:
    for b in buttons(message):
        if b["action_id"] == action_id or b["action_id"].startswith(action_id + ":"):
            return b
    raise AssertionError(
        f"no button {action_id} in {json.dumps(message, ensure_ascii=False)[:500]}"
    )


def all_text(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False)


def start_bot(
    fake: FakeSlack,
    db_path: str,
    clock: Callable[[], datetime] | None = None,
    *,
    own_server: bool = False,
    post_interval: float = TEST_POST_INTERVAL,
    zoom_schedule: tuple[float, ...] = (0.05, 0.1, 0.2),
    zoom_fetching: bool = True,
    **settings: Any,
) -> Bot:
    """The app over HTTP on loopback; `clock` (aware datetimes) stands for the time of
    day deadlines are read at. It is served by the run's server (support/bot_server.py)
    unless another bot is on it or `own_server` asks for a server of its own (a bot that
    outlives one test needs one: the run's is vacated at the end of each test).
    `post_interval`: the bot's posts to one channel are spaced this far apart; short,
    unless the test looks at the spacing (`POST_INTERVAL`, Slack's one a second). With
    a Zoom account in `settings`, Zoom's webhook is served at /zoom/events and its
    fetcher runs (unless `zoom_fetching` is off; its retries `zoom_schedule` apart), as
    serve runs them."""
    values: dict[str, Any] = {
        "bot_token": "xoxb-test",
        "signing_secret": SECRET,
        "api_url": fake.base_url,
        "db_path": db_path,
    } | settings
    s = load_settings(**values)
    store = open_store(s.db_path)
    app = create_app(s, store, clock=clock, pacer=Pacer(post_interval))
    work = Tracker(app)
    fetcher = None
    zoom_app = None
    if s.zoom_account_id or s.many_workspaces:  # Zoom's webhook and fetcher, as serve has them
        fetcher = ZoomFetcher(
            s, store, app_spaces(app, s, store), schedule=zoom_schedule, poll_s=0.05
        )
        zoom_app = webhook_app(s, store, zoom_decrypt(s), fetcher.wake)
        if zoom_fetching:
            fetcher.start()
    wsgi: Any = wsgi_app(app, SECRET, None, zoom_app)
    server: BotServer | None = None if own_server else bot_server.lease(wsgi)
    if server is None:
        server = WsgiServer(wsgi).start()
    bot = Bot(fake=fake, server=server, store=store, settings=s, work=work, app=app, zoom=fetcher)
    fake.bots.append(bot)  # their listeners finish before this fake Slack goes away
    return bot
