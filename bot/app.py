"""The app factory: settings + store -> a Bolt App with every listener registered."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

from slack_bolt import App, BoltResponse
from slack_bolt.error import BoltUnhandledRequestError
from slack_bolt.lazy_listener import ThreadLazyListenerRunner
from slack_bolt.logger.messages import warning_client_prioritized_and_token_skipped
from slack_sdk import WebClient
from slack_sdk.webhook import WebhookClient

from handlers import listeners
from handlers.deps import Deps
from handlers.i18n import t
from handlers.outbox import retry_handlers
from handlers.policy import Policy
from handlers.views import error_view
from store.factory import Backend

from .settings import Settings

logger = logging.getLogger("debrief")


def web_client(settings: Settings) -> WebClient:
    """The Web API client: SLACK_API_URL as its base; see `retry_handlers` for what is retried."""
    return WebClient(
        token=settings.bot_token,
        base_url=settings.api_url,
        retry_handlers=retry_handlers(),
        timeout=15,
    )


class _ClientTokenNotice(logging.Filter):
    """Bolt reads SLACK_BOT_TOKEN from the environment by itself and, seeing our client
    (which carries that same token), warns that the token will be unused. It is the
    same token: the warning says nothing an operator can act on."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != warning_client_prioritized_and_token_skipped()


def _ack_unhandled(unhandled: BoltUnhandledRequestError) -> BoltResponse:
    """The answer to a request no listener took: Slack sends every event and interaction
    the app is subscribed to or that its surfaces produce (a link button's click, another
    modal, a shortcut), and answered 404 it retries the event, turns the subscription off
    when most fail, or shows the user an error. A suggestion gets no options."""
    body = unhandled.body
    if unhandled.last_global_middleware_name:  # neither answered nor passed it on: a bug
        logger.warning(
            "middleware %s let a %s request through unanswered",
            unhandled.last_global_middleware_name,
            body.get("type"),
        )
    else:
        logger.debug("no listener for a %s request; acknowledged", body.get("type"))
    if body.get("type") in ("block_suggestion", "dialog_suggestion"):
        return BoltResponse(status=200, body={"options": []})
    return BoltResponse(status=200, body="")


# Bolt runs every ack function, and each listener that acknowledges in its own body, on
# its listener threads; and, unless told otherwise, the lazy listeners (the answers to
# commands and clicks: searches, summaries) on the same threads, five by default. Five
# answers waiting for a busy database then held every thread, and the next request's
# ack queued behind them until Bolt gave up on it after 3 s (two PostgreSQL replicas at
# 100,000 transcripts under new searches: ack p99 over 1 s). Answers get threads of
# their own, so that an ack never waits for one.
LISTENER_THREADS = 16
ANSWER_THREADS = (
    16  # above the search pool's queue (2 workers x 4): a burst beyond it is told "busy"
)


class DebriefApp(App):
    """Bolt's App, and what it reads in the background (user groups) until `close()`."""

    deps: Deps

    def close(self) -> None:
        """Stop reading user groups: after this, the app calls Slack only for requests."""
        self.deps.policy.stop()
        self.deps.deciders.stop()


def create_app(
    settings: Settings,
    store: Backend,
    *,
    verify_token: bool = True,
    clock: Callable[[], datetime] | None = None,
) -> DebriefApp:
    """`clock`: what time it is (aware), for deadlines; the system's unless a test says."""
    socket_mode = bool(settings.app_token)
    bolt_logger = logging.getLogger("debrief.bolt")
    if not any(isinstance(f, _ClientTokenNotice) for f in bolt_logger.filters):
        bolt_logger.addFilter(_ClientTokenNotice())
    app = DebriefApp(
        client=web_client(settings),
        signing_secret=settings.signing_secret or "",
        request_verification_enabled=not socket_mode,
        token_verification_enabled=verify_token,
        process_before_response=False,
        logger=bolt_logger,
        listener_executor=ThreadPoolExecutor(LISTENER_THREADS, "debrief-listener"),
        # a request no listener takes goes to `on_error` below instead of Bolt's 404
        raise_error_for_unhandled_request=True,
    )
    # as Bolt's own adapters (AWS Lambda, Django) put lazy listeners where they belong
    app.listener_runner.lazy_listener_runner = ThreadLazyListenerRunner(
        bolt_logger, ThreadPoolExecutor(ANSWER_THREADS, "debrief-answer")
    )
    policy = Policy(settings.allowed_users, settings.allowed_channels)
    deciders = Policy(settings.deciders, [])
    deps = Deps(
        store,
        settings.locale,
        str(settings.uploads_dir),
        policy,
        deciders=deciders,
        webhook=settings.webhook_url is not None,
        tz=settings.tz,
    )
    if clock is not None:
        deps.clock = clock
    app.deps = deps
    listeners.register(app, deps)
    policy.start(app.client)  # user groups are read in the background, never before an ack
    deciders.start(app.client)

    @app.error
    def on_error(error: Exception, body: dict[str, Any]) -> BoltResponse:
        """A request the bot has no use for: acknowledged, quietly. Anything else: log it
        whole; tell the user in one kind sentence."""
        if isinstance(error, BoltUnhandledRequestError):
            return _ack_unhandled(error)
        logger.exception("unhandled error in a listener", exc_info=error)
        url = body.get("response_url") if isinstance(body, dict) else None
        if url:
            try:
                WebhookClient(url).send_dict(error_view(settings.locale).payload())
            except Exception:
                logger.exception("could not tell the user about the failure")
        return BoltResponse(status=200, body=t(settings.locale, "error"))

    return app
