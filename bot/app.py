"""The app factory: settings + store -> a Bolt App with every listener registered."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

from slack_bolt import App, BoltResponse
from slack_bolt.authorization import AuthorizeResult
from slack_bolt.error import BoltUnhandledRequestError
from slack_bolt.lazy_listener import ThreadLazyListenerRunner
from slack_bolt.logger.messages import warning_client_prioritized_and_token_skipped
from slack_bolt.middleware import IgnoringSelfEvents
from slack_sdk import WebClient
from slack_sdk.webhook import WebhookClient

from handlers import listeners
from handlers.deps import Deps, Spaces, utc_now
from handlers.policy import Policy
from handlers.sending.outbox import retry_handlers
from handlers.sending.pacing import Pacer
from handlers.views.replies import error_view
from store.factory import Backend
from store.installations import WorkspaceStore

from .oauth import Installs, installs
from .oauth_cipher import TokenCipher
from .settings import Settings
from .uninstall import uninstall_listener
from .words import t

logger = logging.getLogger("debrief")


def web_client(
    settings: Settings, token: str | None = None, team_id: str | None = None
) -> WebClient:
    """The Web API client: SLACK_API_URL as its base; see `retry_handlers` for what is
    retried. Its token: SLACK_BOT_TOKEN, or `token` (a workspace's, installed in many;
    `team_id` for an org-wide install's calls)."""
    return WebClient(
        token=token or settings.bot_token,
        base_url=settings.api_url,
        retry_handlers=retry_handlers(),
        timeout=15,
        team_id=team_id,
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


class IgnoringSelfEventsButDeletions(IgnoringSelfEvents):
    """Bolt's own middleware, the bot's own events ignored but for a post of the bot's
    deleted: a decision made with the buttons is the bot's post in the verdict's thread,
    and deleting it takes the decision back (handlers/listeners/threads.py), as deleting
    a typed reply does."""

    @classmethod
    def _is_self_event(
        cls,
        auth_result: AuthorizeResult,
        user_id: str | None,
        bot_id: str | None,
        body: dict[str, Any],
    ) -> bool:
        event = body.get("event")
        if isinstance(event, dict) and event.get("subtype") == "message_deleted":
            return False
        return bool(super()._is_self_event(auth_result, user_id, bot_id, body))


class DebriefApp(App):
    """Bolt's App, and what it reads in the background (user groups) until `close()`.
    Installed in many workspaces, `installs` is how it finds each one's token and
    `spaces` each one's Deps."""

    def __init__(
        self, *, settings: Settings, deps: Deps, installs: Installs | None, **bolt: Any
    ) -> None:
        self.settings = settings
        self.deps = deps
        self.installs = installs
        super().__init__(ignoring_self_events_enabled=False, **bolt)
        self.use(IgnoringSelfEventsButDeletions(base_logger=bolt.get("logger")))
        self.spaces: Spaces | None = None
        if installs is not None:
            self.spaces = Spaces(deps, settings.as_workspace(), self.client_of)

    def close(self) -> None:
        """Stop reading user groups: after this, the app calls Slack only for requests."""
        self.deps.policy.stop()
        self.deps.deciders.stop()
        if self.spaces is not None:
            self.spaces.close()

    def client_of(self, ws: int) -> WebClient | None:
        """A client with data space `ws`'s bot token (renewed if due); None when it is not
        installed, or its token could not be renewed. Single workspace: the app's."""
        if self.installs is None:
            return self.client if ws == 0 else None
        found = self.installs.store.installation_of(ws)
        token = None if found is None else self.installs.tokens.bot_token(found)
        if found is None or token is None:
            return None
        team = found.team_id if found.is_enterprise_install else None
        return web_client(self.settings, token, team)


def create_app(
    settings: Settings,
    store: Backend,
    *,
    verify_token: bool = True,
    clock: Callable[[], datetime] | None = None,
    pacer: Pacer | None = None,
) -> DebriefApp:
    """`clock`: what time it is (aware), for deadlines; the system's unless a test says.
    `pacer`: how posts to one channel are spaced (Slack's one a second unless a test
    that does not look at the spacing says)."""
    socket_mode = bool(settings.app_token)
    bolt_logger = logging.getLogger("debrief.bolt")
    if not any(isinstance(f, _ClientTokenNotice) for f in bolt_logger.filters):
        bolt_logger.addFilter(_ClientTokenNotice())
    client = web_client(settings)
    found: Installs | None = None
    many: dict[str, Any] = {}
    if settings.many_workspaces:
        # the install pages, each request's workspace and its token: every argument
        # given, so that Bolt reads nothing of the environment on its own
        settings.require_oauth()
        assert isinstance(store, WorkspaceStore)
        from .doctor_slack import REQUIRED_SCOPES

        found = installs(settings, store, client, list(REQUIRED_SCOPES))
        many = {
            "oauth_settings": found.oauth_settings,
            "authorize": found.authorize,
            "user_facing_authorize_error_message": t(settings.locale, "not_installed"),
        }
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
        # one workspace: the environment's; installed in many, each its own (Spaces)
        allow_shared=settings.allow_shared_channels and found is None,
        ask_limit=settings.ask_limit_per_hour,
        independent_review=settings.independent_review == "on",
        seal=TokenCipher(settings.token_key).encrypt if settings.token_key and found else None,
        clock=clock if clock is not None else utc_now,
        pacer=pacer if pacer is not None else Pacer(),
    )
    app = DebriefApp(
        settings=settings,
        deps=deps,
        installs=found,
        client=client,
        signing_secret=settings.signing_secret or "",
        request_verification_enabled=not socket_mode,
        token_verification_enabled=verify_token and not settings.many_workspaces,
        process_before_response=False,
        logger=bolt_logger,
        listener_executor=ThreadPoolExecutor(LISTENER_THREADS, "debrief-listener"),
        # a request no listener takes goes to `on_error` below instead of Bolt's 404
        raise_error_for_unhandled_request=True,
        **many,
    )
    # as Bolt's own adapters (AWS Lambda, Django) put lazy listeners where they belong
    app.listener_runner.lazy_listener_runner = ThreadLazyListenerRunner(
        bolt_logger, ThreadPoolExecutor(ANSWER_THREADS, "debrief-answer")
    )
    if found is not None and app.spaces is not None:
        # before every other middleware: an uninstall carries no user to check
        app.middleware(uninstall_listener(found.installations, app.spaces.teams_changed))
    listeners.register(app, deps, app.spaces)
    if found is None:
        policy.start(app.client)  # user groups read in the background, never before an ack
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
