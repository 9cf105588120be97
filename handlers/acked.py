"""What a request's acknowledgement decided, for its lazy listener.

Bolt starts a request's lazy listeners alongside its ack listener, not after it: a lazy
listener that acts on what the acknowledgement accepted waits here for its verdict (the
same process runs both). Keyed by the request (a view submission's `trigger_id`, else
its view's id and hash); a verdict nobody waits for is dropped when too many pile up.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

WAIT_S = 5.0  # Slack waits 3 s for an acknowledgement: past that, it did not come
MAX_KEPT = 1000


def request_key(body: dict[str, Any]) -> str:
    """One request's key: its trigger id, else its view's id and hash."""
    trigger = body.get("trigger_id")
    if isinstance(trigger, str) and trigger:
        return trigger
    view = body.get("view") or {}
    return f"{view.get('id')}:{view.get('hash')}"


class Verdicts:
    """Each request's "accepted or not", set by its ack listener, awaited by its lazy one."""

    def __init__(self) -> None:
        self._said: OrderedDict[str, bool] = OrderedDict()
        self._changed = threading.Condition()

    def said(self, key: str, accepted: bool) -> None:
        with self._changed:
            self._said[key] = accepted
            while len(self._said) > MAX_KEPT:
                self._said.popitem(last=False)
            self._changed.notify_all()

    def wait(self, key: str, timeout: float = WAIT_S) -> bool | None:
        """What the acknowledgement of `key` said (taken: asked once); None when it
        said nothing in `timeout` seconds."""
        with self._changed:
            self._changed.wait_for(lambda: key in self._said, timeout)
            return self._said.pop(key, None)
