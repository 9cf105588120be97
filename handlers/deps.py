"""What the listeners share for the life of the app, and how a listener finds it.

One global middleware puts the app's `Deps` in every request's context (under
`DEPS_KEY`); a listener or middleware reads them with `deps_of(context)`. `debrief ask`
and the tests build `Deps` themselves and hand them to `answer`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from slack_sdk import WebClient

from store.factory import Backend
from store.workspace_models import WorkspaceSettings

from .acked import Verdicts
from .i18n import Locale
from .people import ChannelMembers, UserNames
from .policy import GrantedTeams, Policy
from .sending.pacing import Pacer
from .shared import SharedChannels

logger = logging.getLogger(__name__)

DEPS_KEY = "deps"
SPACE_KEY = "workspace"  # the data space the authorize step found (bot/oauth_authorize.py)
SPACE_NAME_KEY = "workspace_key"  # … and its Slack id, T… or E…


def _open_to_all() -> Policy:
    return Policy([], [])


def utc_now() -> datetime:
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
    # the team's time zone (DEBRIEF_TIMEZONE; installed in many, the workspace's own, set
    # in App Home): what "today" and a deadline's day are
    tz: ZoneInfo = field(default_factory=_team_zone)
    # reviewers one user may ask an hour (DEBRIEF_ASK_LIMIT_PER_HOUR)
    ask_limit: int = 20
    # independent review (DEBRIEF_INDEPENDENT_REVIEW; installed in many, the workspace's
    # own, set in App Home): a reviewer asked sees nobody else's decisions (handlers/review.py)
    independent_review: bool = True
    # what time it is (aware): deadlines and what is overdue; tests hand in their own
    clock: Callable[[], datetime] = utc_now
    # installed org-wide (Enterprise Grid): the organisation's workspaces it serves;
    # None: the one workspace of the token
    teams: GrantedTeams | None = None
    # installed in many workspaces: the environment's settings, which each workspace's
    # admins may replace with their own in App Home; None: one workspace, set by the
    # environment alone
    defaults: WorkspaceSettings | None = None
    # installed in many workspaces: what its admins saved, as read for this request (the
    # one read of it a request makes: `Spaces.of`); None: one workspace
    own: WorkspaceSettings | None = None
    # installed in many workspaces: encrypts a workspace's webhook secret as its tokens
    # are (DEBRIEF_TOKEN_KEY), before the store keeps it
    seal: Callable[[str], str] | None = None
    # candidate data may be posted in a channel shared with another organisation (its
    # admins in App Home; one workspace: DEBRIEF_ALLOW_SHARED_CHANNELS); off by default
    allow_shared: bool = False
    # which channels are shared with another organisation, as Slack said (handlers/shared.py)
    shared: SharedChannels = field(default_factory=SharedChannels)
    # what each request's acknowledgement decided, awaited by its lazy listener (Bolt
    # starts both at once; the lazy one holds these same Deps: __deepcopy__)
    acked: Verdicts = field(default_factory=Verdicts)

    @property
    def org_wide(self) -> bool:
        """Installed org-wide: its settings are the whole organisation's (issue 34)."""
        return self.teams is not None

    def __deepcopy__(self, memo: dict[int, Any]) -> Deps:
        """Bolt hands a lazy listener a deep copy of the request's context: the copy holds
        these same Deps (one store, one pacer, one cache), never a copy of them."""
        return self


def zone_of(settings: WorkspaceSettings, default: ZoneInfo) -> ZoneInfo:
    """A workspace's own time zone (App Home), else `default` (DEBRIEF_TIMEZONE's); one
    this machine's zoneinfo does not know (checked when saved) is the default too."""
    if settings.timezone:
        try:
            return ZoneInfo(settings.timezone)
        except (ZoneInfoNotFoundError, ValueError):
            logger.warning("unknown time zone %r: using DEBRIEF_TIMEZONE", settings.timezone)
    return default


def deps_of(context: Mapping[str, Any]) -> Deps:
    """The app's Deps, from a request's context."""
    deps = context.get(DEPS_KEY)
    if not isinstance(deps, Deps):
        raise RuntimeError("no Deps in the request's context: the deps middleware is missing")
    return deps


class Spaces:
    """Installed in many workspaces: each data space's Deps, made at its first request
    and made again when its admins change its settings (their version). Its store sees
    that space's rows only (`store.in_workspace`); it has its own access policy (its
    settings, else the environment's; its user groups read with its own token), its own
    caches of names and members, and its shared files under `uploads/<T…>`. The pace
    of posts is one for all: Slack's limits are the app's."""

    def __init__(
        self,
        base: Deps,
        defaults: WorkspaceSettings,
        client_of: Callable[[int], WebClient | None],
    ) -> None:
        self.base = replace(base, defaults=defaults)
        self.defaults = defaults
        self.client_of = client_of
        self._made: dict[int, Deps] = {}
        self._keys: dict[int, str | None] = {}
        self._versions: dict[int, int] = {}
        self._lock = threading.Lock()
        self._closed = False

    def of(self, ws: int, key: str | None) -> Deps:
        """The Deps of data space `ws` (Slack id `key`), as its settings are now."""
        from .views.settings import merged

        own = self.base.store.workspace_settings(ws)
        with self._lock:
            found = self._made.get(ws)
            if found is not None and self._versions.get(ws) == own.version:
                return found
            rules = merged(own, self.defaults)
            policy = Policy(rules.allowed_users or [], rules.allowed_channels or [])
            deciders = Policy(rules.deciders or [], [])
            # its hiring decisions reach an ATS: the environment's, or its own (App Home)
            webhook = self.base.webhook or bool(own.webhook_url and own.webhook_secret_enc)
            allow_shared = bool(rules.allow_shared_channels)  # its admins' alone (issue 34)
            tz = zone_of(rules, self.base.tz)  # its own time zone, else DEBRIEF_TIMEZONE
            independent = (
                rules.independent_review
                if rules.independent_review is not None
                else self.base.independent_review
            )
            if found is not None:  # its settings changed: the same caches, new rules
                made = replace(
                    found,
                    own=own,
                    policy=policy,
                    deciders=deciders,
                    webhook=webhook,
                    allow_shared=allow_shared,
                    tz=tz,
                    independent_review=independent,
                )
            else:
                uploads = self.base.uploads
                if uploads is not None and ws != 0 and key:
                    uploads = f"{uploads.rstrip('/')}/{key}"
                org = bool(key and key.startswith("E"))  # an org-wide install's space
                made = replace(
                    self.base,
                    store=self.base.store.in_workspace(ws),
                    own=own,
                    uploads=uploads,
                    policy=policy,
                    deciders=deciders,
                    names=UserNames(),
                    members=ChannelMembers(),
                    teams=GrantedTeams() if org else None,
                    webhook=webhook,
                    allow_shared=allow_shared,
                    shared=SharedChannels(),
                    tz=tz,
                    independent_review=independent,
                )
            self._made[ws] = made
            self._keys[ws] = key
            self._versions[ws] = own.version
            if not self._closed:
                policy.start(lambda: self.client_of(ws))
                deciders.start(lambda: self.client_of(ws))
                if found is None and made.teams is not None:
                    made.teams.start(lambda: self.client_of(ws))
        if found is not None:
            found.policy.stop()
            found.deciders.stop()
        return made

    def teams_changed(self, key: str) -> None:
        """An organisation's workspaces changed: its space reads them again now."""
        with self._lock:
            found = [d for ws, d in self._made.items() if self._keys.get(ws) == key]
        for deps in found:
            if deps.teams is not None:
                deps.teams.read_soon()

    def close(self) -> None:
        """Stop reading user groups, for every space."""
        with self._lock:
            self._closed = True
            made = list(self._made.values())
        for deps in made:
            deps.policy.stop()
            deps.deciders.stop()
            if deps.teams is not None:
                deps.teams.stop()
