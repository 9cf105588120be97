"""Posting a message at most once.

A 429 means Slack did not process the call: it is retried after `Retry-After`. A 5xx,
a dropped connection or a timeout after the request went out leaves the outcome
unknown: Slack may have posted the message. `chat.postMessage` is never retried
blindly then. A post carries message `metadata` naming what it is, so a sender whose
post's outcome is unknown can look for it (`conversations.history` with
`include_all_metadata`) before deciding whether to post again.
"""

from __future__ import annotations

import http.client
import logging
import socket
from typing import Any
from urllib.error import URLError
from urllib.parse import urlsplit

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import (
    ConnectionErrorRetryHandler,
    ServerErrorRetryHandler,
)
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState

logger = logging.getLogger(__name__)

# Methods whose blind repetition would show people the same message twice.
NOT_IDEMPOTENT = frozenset({"chat.postMessage"})
CLOCK_SKEW_S = 120.0  # our clock and Slack's may differ: look a little earlier than the claim
HISTORY_PAGES = 5


def _posts(request: HttpRequest) -> bool:
    return urlsplit(request.url).path.rstrip("/").rsplit("/", 1)[-1] in NOT_IDEMPOTENT


def _never_sent(error: Exception | None) -> bool:
    """A refused connection: the request never reached Slack, so repeating it is safe."""
    reason = error.reason if isinstance(error, URLError) else error
    return isinstance(reason, ConnectionRefusedError)


class _UnlessPosted:
    """A retry handler that leaves alone a post which may already have gone through."""

    def _can_retry(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        if _posts(request) and not self._post_never_sent(error):
            return False
        return super()._can_retry(  # type: ignore[misc,no-any-return]
            state=state, request=request, response=response, error=error
        )

    def _post_never_sent(self, error: Exception | None) -> bool:
        return False


class ConnectionRetryUnlessPosted(_UnlessPosted, ConnectionErrorRetryHandler):
    """Retries a dropped connection, except a post that may already have gone through
    (a refused connection never reached Slack: that one is retried)."""

    def _post_never_sent(self, error: Exception | None) -> bool:
        return _never_sent(error)


class ServerErrorRetryUnlessPosted(_UnlessPosted, ServerErrorRetryHandler):
    """Retries a 500/503, except a post: Slack may have posted it before failing."""


def outcome_unknown(exc: BaseException) -> bool:
    """Whether a failed post may nevertheless have been posted (5xx, dropped, timed out)."""
    if isinstance(exc, SlackApiError):
        status = getattr(exc.response, "status_code", 200)
        return isinstance(status, int) and status >= 500
    if isinstance(exc, URLError):
        return not _never_sent(exc)
    if isinstance(exc, ConnectionRefusedError):
        return False
    return isinstance(
        exc, ConnectionError | TimeoutError | socket.timeout | http.client.HTTPException
    )


def metadata(event_type: str, payload: dict[str, Any]) -> dict[str, Any]:
    """Message metadata for chat.postMessage: what this post is, for finding it again."""
    return {"event_type": event_type, "event_payload": payload}


class PostUnknown(Exception):
    """Slack did not say whether it took a post, and looking for it found nothing (or
    Slack could not be asked): posting again could post it twice."""


def post_once(
    client: WebClient,
    channel: str,
    *,
    text: str,
    blocks: Any,
    event_type: str,
    marker: dict[str, Any],
    since: float,
    thread_ts: str | None = None,
) -> str:
    """chat.postMessage, never twice: the post carries `marker` in its metadata, and when
    Slack does not say whether it took it (5xx, a dropped connection, a timeout) it is
    looked for (`find_posted`) instead of posted again. -> its ts. PostUnknown when it
    stays unknown (its cause: the lookup's failure, else the post's); Slack's refusals and
    every other failure as raised."""
    try:
        response = client.chat_postMessage(
            channel=channel,
            text=text,
            blocks=blocks,
            unfurl_links=False,
            unfurl_media=False,
            metadata=metadata(event_type, marker),
            thread_ts=thread_ts,  # None: in the channel
        )
    except Exception as exc:
        if not outcome_unknown(exc):
            raise
        logger.warning("chat.postMessage outcome unknown (%s): looking for the post", exc)
        try:
            ts = find_posted(client, channel, event_type, marker, since, thread_ts)
        except Exception as lookup:
            logger.warning("could not look for a post whose outcome is unknown (%s)", lookup)
            raise PostUnknown() from lookup  # why it is still unknown
        if ts is None:
            raise PostUnknown() from exc
        return ts
    return str(response.get("ts") or "?")


def find_posted(
    client: WebClient,
    channel: str,
    event_type: str,
    payload: dict[str, Any],
    since: float,
    thread_ts: str | None = None,
) -> str | None:
    """The ts of a message in `channel` (in the thread `thread_ts`, when given: a channel's
    history does not list replies), posted since `since` (epoch seconds), whose metadata
    is `event_type` with at least `payload`'s values; None when there is none. Raises when
    Slack cannot be asked (the outcome stays unknown)."""
    cursor: str | None = None
    oldest = f"{max(since - CLOCK_SKEW_S, 0):.6f}"
    for _ in range(HISTORY_PAGES):
        page: dict[str, Any] = {"oldest": oldest, "include_all_metadata": True, "limit": 200}
        if thread_ts is not None:
            response = client.conversations_replies(
                channel=channel, ts=thread_ts, cursor=cursor, **page
            )
        else:
            response = client.conversations_history(channel=channel, cursor=cursor, **page)
        for message in response.get("messages") or []:
            found = message.get("metadata") or {}
            body = found.get("event_payload") or {}
            if found.get("event_type") == event_type and all(
                body.get(k) == v for k, v in payload.items()
            ):
                return str(message.get("ts") or "") or None
        cursor = (response.get("response_metadata") or {}).get("next_cursor") or None
        if not cursor:
            return None
    logger.warning("looked through %d pages of %s without finding the post", HISTORY_PAGES, channel)
    return None
