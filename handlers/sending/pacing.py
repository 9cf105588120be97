"""Slack takes about one message a second per channel: posts in several parts are paced."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

POST_INTERVAL = 1.0  # seconds between two chat.postMessage calls to one channel


class Pacer:
    """Spaces the posts to each channel `interval` seconds apart, across every listener
    thread of the app (one Pacer lives in `Deps`)."""

    def __init__(
        self,
        interval: float = POST_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.interval = interval
        self.clock = clock
        self.sleep = sleep
        self._next: dict[str, float] = {}
        self._lock = threading.Lock()

    def wait(self, channel: str) -> None:
        """Return when a post to `channel` may go out; book the slot after it."""
        with self._lock:
            now = self.clock()
            slot = max(now, self._next.get(channel, now))
            self._next[channel] = slot + self.interval
            if len(self._next) > 1000:  # forget channels long quiet
                self._next = {c: t for c, t in self._next.items() if t > now}
        if slot > now:
            self.sleep(slot - now)
