"""Waiting on a condition with a deadline: the synchronization tests use instead of sleeps."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(what: str, predicate: Callable[[], T], timeout: float = 10) -> T:
    """Poll `predicate` until it returns something truthy; return it. Past `timeout`
    seconds, fail naming `what` and the last value seen."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout}s for {what}; last saw {value!r}")
        time.sleep(0.02)
