"""Tasks a test runs in a search pool's worker processes (they must be importable there)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def hold(started: str, release: str) -> int:
    """Say it started (a file), then wait until the test lets it go (another file)."""
    Path(started).write_text(str(os.getpid()))
    while not Path(release).exists():
        time.sleep(0.01)  # a worker waiting on the test, not a test waiting on time
    return os.getpid()


def die() -> None:
    os._exit(3)
