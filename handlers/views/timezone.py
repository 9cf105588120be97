"""A workspace's own time zone, in the settings modal (issue 34): an IANA name (such as
`America/New_York`), checked with zoneinfo; empty, the deployment's (DEBRIEF_TIMEZONE).
Its digest, reminders, deadlines and retention day follow it. Pure: no Slack, no store.
"""

from __future__ import annotations

import functools
import re
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from slack_sdk.models.blocks import InputBlock, PlainTextInputElement

from store.workspace_models import WorkspaceSettings

from ..blocks import plain
from ..i18n import Locale, t

TIMEZONE = "s_tz"  # its block id (its element's action id is "v")
MAX_ZONE = 64  # the longest IANA name is about 32 characters
_ZONE_RE = re.compile(r"[A-Za-z0-9_+\-]+(/[A-Za-z0-9_+\-]+)*")


@functools.cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones())


def is_zone(name: str) -> bool:
    """Whether `name` is an IANA time zone zoneinfo knows (not a file path, not a guess)."""
    if not _ZONE_RE.fullmatch(name) or name not in _zones():
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def timezone_block(now: WorkspaceSettings, locale: Locale) -> InputBlock:
    """The time zone's field, at the zone the workspace runs with now."""
    return InputBlock(
        block_id=TIMEZONE,
        label=plain(t(locale, "settings_timezone")),
        element=PlainTextInputElement(
            action_id="v", initial_value=now.timezone or None, max_length=MAX_ZONE
        ),
        optional=True,
        hint=plain(t(locale, "settings_timezone_hint")),
    )


def parse_timezone(values: dict[str, Any], locale: Locale) -> tuple[str | None, dict[str, str]]:
    """A submission's time zone (None: the deployment's), and what to say under its field."""
    found = (values.get(TIMEZONE) or {}).get("v")
    typed = found.get("value") if isinstance(found, dict) else None
    name = typed.strip() if isinstance(typed, str) else ""
    if not name:
        return None, {}
    if not is_zone(name):
        return None, {TIMEZONE: t(locale, "settings_bad_timezone")}
    return name, {}
