"""The store's clock: timestamps as both backends keep them (ISO 8601, UTC, microseconds)."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")
