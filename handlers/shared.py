"""Channels shared with another organisation (Slack Connect, issue 34): candidate data
(a verdict, a summary, a decision, a digest, an upload's summary card) is never posted
in one, unless the workspace allows it (its admins in App Home; in the single-workspace
mode DEBRIEF_ALLOW_SHARED_CHANNELS). What is said privately to the workspace's own
people (ephemeral replies, the response_url) stays as it is.

Whether a channel is shared is asked of Slack (`conversations.info`: `is_ext_shared`,
and `is_pending_ext_shared` for an invitation not accepted yet; `is_shared` without
`is_org_shared` counts too) and kept a few minutes per channel. An event may say so
already (`is_ext_shared_channel`). When Slack cannot tell, nothing is posted (closed,
never open): the asker is told why.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import Any, Literal, Protocol

from cachetools import TTLCache
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

logger = logging.getLogger("handlers.shared")

# own: this organisation's alone; shared: another organisation reads it (or is invited);
# gone: Slack does not show it to the bot (not in it, or no such channel); unknown: Slack
# could not be asked, or did not say
Sharing = Literal["own", "shared", "gone", "unknown"]
SHARED_TTL_S = 300.0  # seconds an answer is kept (a channel shared meanwhile: at most this)
CHANNELS_KEPT = 5000  # answers kept at most (the least recently used go)
GONE = frozenset({"channel_not_found", "not_in_channel"})

REFUSED = "shared_channel_refused"  # catalogue keys (handlers/i18n.py)
UNKNOWN = "shared_channel_unknown"


def sharing_of(channel: Mapping[str, Any]) -> Sharing:
    """What `conversations.info`'s channel says: shared with another organisation (or an
    invitation to one pending), or this organisation's own; unknown when it says neither."""
    if channel.get("is_ext_shared") or channel.get("is_pending_ext_shared"):
        return "shared"
    if channel.get("is_shared") and not channel.get("is_org_shared"):
        return "shared"  # shared, and not only within an Enterprise Grid organisation
    if "is_ext_shared" not in channel and "is_shared" not in channel:
        return "unknown"
    return "own"


def unchecked(channel: str) -> bool:
    """The bot's DM with someone (D…, or a user id): no other organisation reads it."""
    return channel.startswith(("D", "U", "W"))


class SharedChannels:
    """Channel id -> whether it is shared with another organisation, asked of Slack and
    kept `SHARED_TTL_S` seconds (an answer Slack could not give is not kept); one per
    workspace."""

    def __init__(self) -> None:
        self._cache: TTLCache[str, Sharing] = TTLCache(CHANNELS_KEPT, SHARED_TTL_S)
        self._lock = threading.Lock()

    def peek(self, channel: str) -> Sharing | None:
        """What is known of `channel` now, without asking Slack (None: nothing)."""
        with self._lock:
            return self._cache.get(channel)

    def mark_shared(self, channel: str) -> None:
        """An event said the channel is shared (`is_ext_shared_channel`)."""
        self._keep(channel, "shared")

    def of(self, channel: str, client: WebClient) -> Sharing:
        """Whether `channel` is shared with another organisation: known, or asked now."""
        known = self.peek(channel)
        if known is not None:
            return known
        found = ask_sharing(channel, client)
        if found in ("own", "shared"):
            self._keep(channel, found)
        return found

    def _keep(self, channel: str, sharing: Sharing) -> None:
        with self._lock:
            self._cache[channel] = sharing


def ask_sharing(channel: str, client: WebClient) -> Sharing:
    """`conversations.info`, asked now."""
    try:
        info = client.conversations_info(channel=channel)
    except SlackApiError as exc:
        error = str(exc.response.get("error") if exc.response is not None else "") or "error"
        if error in GONE:
            return "gone"
        logger.warning(
            "cannot tell whether %s is shared with another organisation (%s)", channel, error
        )
        return "unknown"
    except Exception as exc:  # Slack unreachable: not known, so not posted
        logger.warning(
            "cannot tell whether %s is shared with another organisation (%s)",
            channel,
            type(exc).__name__,
        )
        return "unknown"
    found = info.get("channel")
    return sharing_of(found) if isinstance(found, dict) else "unknown"


class SharingRules(Protocol):
    """What `may_post` reads of a workspace's Deps (handlers/deps.py holds one)."""

    @property
    def allow_shared(self) -> bool: ...

    @property
    def shared(self) -> SharedChannels: ...


def may_post(channel: str, client: WebClient, deps: SharingRules, hint: bool = False) -> Sharing:
    """Whether candidate data may be posted in `channel`: "own" (it may: this organisation's
    channel, a DM, or a workspace that allows shared channels), "shared" (refused),
    "unknown" (refused: Slack could not tell), "gone" (Slack does not show the bot the
    channel: posting there would fail anyway). `hint`: the event said it is shared."""
    if deps.allow_shared or unchecked(channel):
        return "own"
    if hint:
        deps.shared.mark_shared(channel)
        return "shared"
    return deps.shared.of(channel, client)


def refusal_key(sharing: Sharing) -> str | None:
    """The catalogue key of why nothing is posted (None: it may be posted)."""
    return {"shared": REFUSED, "unknown": UNKNOWN}.get(sharing)


def answer_privately(
    client: WebClient,
    channel: str,
    user: str,
    thread_ts: str | None,
    reason: str,
    text: str,
    blocks: Any = None,
) -> None:
    """What would have been posted, shown to `user` alone (chat.postEphemeral, in the
    thread), after why it was not posted. Never raises."""
    try:
        client.chat_postEphemeral(channel=channel, user=user, thread_ts=thread_ts, text=reason)
        client.chat_postEphemeral(
            channel=channel, user=user, thread_ts=thread_ts, text=text, blocks=blocks
        )
    except Exception as exc:
        logger.warning("could not answer privately in %s (%s)", channel, exc)
