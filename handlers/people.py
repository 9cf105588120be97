"""Display names for what the bot posts in a channel, where a `<@U…>` mention would ping.

`users.info` (scope `users:read`) gives the name; names are kept in memory for an hour.
A lookup that fails leaves the id, shown as plain text: never a mention."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

logger = logging.getLogger(__name__)

NAME_TTL = 3600.0  # seconds a display name is kept
FAILED_TTL = 60.0  # seconds before a failed lookup is tried again
MAX_LOOKUPS = 20  # users.info calls for one message at most (the rest show their ids)


def display_name(user: Mapping[str, Any]) -> str:
    """What Slack shows for a user: the display name, else the real name, else the handle."""
    profile = user.get("profile") or {}
    for value in (
        profile.get("display_name"),
        profile.get("real_name"),
        user.get("real_name"),
        user.get("name"),
    ):
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


class UserNames:
    """User id -> display name, cached with a TTL; shared by every listener thread."""

    def __init__(self, ttl: float = NAME_TTL, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.clock = clock
        self._cache: dict[str, tuple[str, float]] = {}  # id -> (name or "", expires)
        self._lock = threading.Lock()

    def lookup(self, client: WebClient, ids: Iterable[str]) -> dict[str, str]:
        """The names Slack knows for `ids` (an id it does not know is left out)."""
        names: dict[str, str] = {}
        asked = 0
        for user in dict.fromkeys(ids):
            now = self.clock()
            with self._lock:
                cached = self._cache.get(user)
            if cached is not None and cached[1] > now:
                if cached[0]:
                    names[user] = cached[0]
                continue
            if asked >= MAX_LOOKUPS:
                continue
            asked += 1
            name, ttl = self._ask(client, user)
            with self._lock:
                self._cache[user] = (name, self.clock() + ttl)
            if name:
                names[user] = name
        return names

    def _ask(self, client: WebClient, user: str) -> tuple[str, float]:
        try:
            response = client.users_info(user=user)
        except SlackApiError as exc:
            error = exc.response.get("error") if exc.response is not None else None
            logger.warning("users.info failed for a user (%s): showing the id", error)
            return "", FAILED_TTL
        except Exception as exc:  # Slack unreachable: the id, and try again soon
            logger.warning("users.info failed (%s): showing the id", type(exc).__name__)
            return "", FAILED_TTL
        found = response.get("user")
        name = display_name(found) if isinstance(found, dict) else ""
        return name, self.ttl
