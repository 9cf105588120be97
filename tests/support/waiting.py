"""Waiting on a condition with a deadline: the synchronization tests use instead of sleeps."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(what: str, predicate: Callable[[], T], timeout: float = 10) -> T:
    """Poll `predicate` until it returns something truthy; return it. Past `timeout`
    seconds, fail naming `what` and the last value seen. The polls start 20 ms apart and
    drift to 100 ms apart (a predicate is often a query or a request: asked every 20 ms
    for the seconds a process takes to start, it was work taken from the tests beside)."""
    deadline = time.monotonic() + timeout
    pause = 0.02
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout}s for {what}; last saw {value!r}")
        time.sleep(pause)
        pause = min(pause * 1.25, 0.1)
