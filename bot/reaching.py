"""Reaching Slack from `serve`: one attempt at a time, with a growing pause between them
(BACKOFF_S) and one log line each, until Slack answers; a token Slack refuses stops it
(`Refused`). bot/serving.py says meanwhile, on `/healthz`, that Slack is unreachable."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from http.client import HTTPException
from typing import TYPE_CHECKING, TypeVar

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

if TYPE_CHECKING:
    from .settings import Settings

T = TypeVar("T")

logger = logging.getLogger("debrief")

BACKOFF_S = (1.0, 2.0, 4.0, 8.0, 15.0, 30.0)  # the pause after each failed attempt; then 30 s
ATTEMPT_TIMEOUT_S = 5  # one attempt at most; SIGTERM waits for it at worst
UNREACHABLE = "Slack unreachable"  # what /healthz says meanwhile


class Refused(Exception):
    """Slack refused a token: `serve` stops, naming it."""

    def __init__(self, key: str, error: str) -> None:
        super().__init__(f"{key}: {error}")
        self.key = key
        self.error = error


class QuietWssUrl(logging.Filter):
    """slack_sdk logs a failed `apps.connections.open` as an error block of its own; the
    starter (and the reconnect) say it in one line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Failed to retrieve WSS URL")


class _TracesOnly(logging.Filter):
    """What slack_sdk logs of an attempt: its debug traces (at DEBRIEF_LOG_LEVEL=debug),
    not its warnings and errors, which the starter says in its one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno < logging.WARNING


def _transient(exc: SlackApiError) -> bool:
    """Slack answered, but not about the token: busy or failing (429, 5xx)."""
    status = getattr(exc.response, "status_code", 200)
    return status == 429 or status >= 500


def attempt_client(settings: Settings) -> WebClient:
    """A client that tries once and lets the starter say what failed: no retries of its
    own (each would log a line), a short timeout."""
    quiet = logging.getLogger("debrief.slack-attempts")
    if not any(isinstance(f, _TracesOnly) for f in quiet.filters):
        quiet.addFilter(_TracesOnly())
    return WebClient(
        token=settings.bot_token,
        base_url=settings.api_url,
        timeout=ATTEMPT_TIMEOUT_S,
        retry_handlers=[],
        logger=quiet,
    )


def until_reached(
    call: Callable[[], T],
    refused_key: str,
    url: str,
    stopping: threading.Event,
    on_waiting: Callable[[], None] = lambda: None,
) -> T | None:
    """`call()`, again and again while Slack cannot be reached (a pause of BACKOFF_S
    between attempts, one log line each); None when `stopping` is set first. A token
    Slack refuses raises Refused(`refused_key`)."""
    attempt = 0
    while not stopping.is_set():
        attempt += 1
        try:
            return call()
        except SlackApiError as exc:
            error = str(exc.response.get("error") or exc)
            if not _transient(exc):
                raise Refused(refused_key, error) from exc
            reason = f"{getattr(exc.response, 'status_code', '?')} {error}"
        except (SlackClientError, OSError, HTTPException) as exc:
            reason = str(exc) or type(exc).__name__
        pause = BACKOFF_S[min(attempt, len(BACKOFF_S)) - 1]
        on_waiting()
        logger.warning(
            "Slack at %s cannot be reached (%s): trying again in %.0f s (attempt %d)",
            url,
            reason,
            pause,
            attempt,
        )
        stopping.wait(pause)
    return None
