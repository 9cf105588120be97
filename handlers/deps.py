"""What the listeners share for the life of the app, and how a listener finds it.

One global middleware puts the app's `Deps` in every request's context (under
`DEPS_KEY`); a listener or middleware reads them with `deps_of(context)`. `debrief ask`
and the tests build `Deps` themselves and hand them to `answer`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from store.factory import Backend

from .i18n import Locale
from .pacing import Pacer
from .people import ChannelMembers, UserNames
from .policy import Policy

DEPS_KEY = "deps"


def _open_to_all() -> Policy:
    return Policy([], [])


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _team_zone() -> ZoneInfo:
    return ZoneInfo("Asia/Shanghai")  # DEBRIEF_TIMEZONE's default


@dataclass
class Deps:
    """The store and the language to answer in; who may see what, and who may record a
    hiring decision; the pace of posts per channel, users' display names and channels' members, kept for the life of the app."""

    store: Backend
    locale: Locale = "zh"
    uploads: str | None = None  # the folder for transcripts shared in Slack (uploads.py)
    policy: Policy = field(default_factory=_open_to_all)
    pacer: Pacer = field(default_factory=Pacer)
    names: UserNames = field(default_factory=UserNames)
    members: ChannelMembers = field(default_factory=ChannelMembers)
    # who may record a hiring decision (DEBRIEF_DECIDERS): nobody while it is empty
    deciders: Policy = field(default_factory=_open_to_all)
    # hiring decisions are handed to the ATS (DEBRIEF_WEBHOOK_URL): each writes its event
    webhook: bool = False
    # the team's time zone (DEBRIEF_TIMEZONE): what "today" and a deadline's day are
    tz: ZoneInfo = field(default_factory=_team_zone)
    # what time it is (aware): deadlines and what is overdue; tests hand in their own
    clock: Callable[[], datetime] = _utc_now

    def __deepcopy__(self, memo: dict[int, Any]) -> Deps:
        """Bolt hands a lazy listener a deep copy of the request's context: the copy holds
        these same Deps (one store, one pacer, one cache), never a copy of them."""
        return self


def deps_of(context: Mapping[str, Any]) -> Deps:
    """The app's Deps, from a request's context."""
    deps = context.get(DEPS_KEY)
    if not isinstance(deps, Deps):
        raise RuntimeError("no Deps in the request's context: the deps middleware is missing")
    return deps
