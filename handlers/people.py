"""Who is who in Slack: display names for what the bot posts in a channel, where a
`<@U…>` mention would ping, who belongs to the workspace, who is in a channel (for the
App Home tab) and in a user group (for asking reviewers).

`users.info` (scope `users:read`) gives the name; names are kept in memory for an hour.
A lookup that fails leaves the id, shown as plain text: never a mention. A channel's
members (`conversations.members`) are kept for a few minutes. Both are cachetools'
expiring caches, shared by every listener thread (behind a lock: they are not
thread-safe on their own)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache, TLRUCache, TTLCache
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

logger = logging.getLogger(__name__)
members_logger = logging.getLogger("handlers.home")  # what the Home tab could not read

NAME_TTL = 3600.0  # seconds a display name is kept
FAILED_TTL = 60.0  # seconds before a failed lookup is tried again
MAX_LOOKUPS = 20  # users.info calls for one message at most (the rest show their ids)
USERS_KEPT = 20_000  # users whose facts are kept at most (the least recently used go)
_UNKNOWN = object()  # not in the cache (None there is a lookup that failed)


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


@dataclass(frozen=True)
class UserFacts:
    """What the bot keeps of a user from `users.info`: the name, and the workspaces the
    user belongs to (the home workspace, and on Enterprise Grid every one of the org's)."""

    name: str
    teams: frozenset[str]
    stranger: bool  # Slack's `is_stranger`: someone from an organisation not connected


def user_facts(user: Mapping[str, Any]) -> UserFacts:
    teams = {str(user["team_id"])} if user.get("team_id") else set()
    grid = user.get("enterprise_user")
    if isinstance(grid, dict):
        teams |= {str(t) for t in grid.get("teams") or [] if t}
    return UserFacts(display_name(user), frozenset(teams), bool(user.get("is_stranger")))


def _expires(user: str, facts: UserFacts | None, now: float) -> float:
    """When what `users.info` said of a user is asked again: a failed lookup soon."""
    return now + (NAME_TTL if facts is not None else FAILED_TTL)


class UserNames:
    """User id -> display name (and workspaces), kept `NAME_TTL` seconds (a failed
    lookup `FAILED_TTL`); shared by every listener thread."""

    def __init__(self) -> None:
        self._cache: TLRUCache[str, UserFacts | None] = TLRUCache(USERS_KEPT, _expires)
        self._lock = threading.Lock()

    def lookup(self, client: WebClient, ids: Iterable[str]) -> dict[str, str]:
        """The names Slack knows for `ids` (an id it does not know is left out)."""
        names: dict[str, str] = {}
        asked = 0
        for user in dict.fromkeys(ids):
            with self._lock:
                known = user in self._cache
            if not known:
                if asked >= MAX_LOOKUPS:
                    continue
                asked += 1
            facts = self.facts(client, user)
            if facts is not None and facts.name:
                names[user] = facts.name
        return names

    def facts(self, client: WebClient, user: str) -> UserFacts | None:
        """What Slack says of `user` (cached); None when it could not be read."""
        with self._lock:
            # one read: an entry may expire between a membership test and a read
            cached = self._cache.get(user, _UNKNOWN)
        if cached is not _UNKNOWN:
            return cached  # type: ignore[return-value]
        facts = self._ask(client, user)
        with self._lock:
            self._cache[user] = facts
        return facts

    def belongs(self, client: WebClient, user: str, team: str) -> bool:
        """Whether `user` is a member of the workspace `team`: not a Slack Connect user of
        another organisation, nor one Slack cannot tell us about."""
        facts = self.facts(client, user)
        return facts is not None and bool(team) and team in facts.teams and not facts.stranger

    def _ask(self, client: WebClient, user: str) -> UserFacts | None:
        try:
            response = client.users_info(user=user)
        except SlackApiError as exc:
            error = exc.response.get("error") if exc.response is not None else None
            logger.warning("users.info failed for a user (%s): showing the id", error)
            return None
        except Exception as exc:  # Slack unreachable: the id, and try again soon
            logger.warning("users.info failed (%s): showing the id", type(exc).__name__)
            return None
        found = response.get("user")
        return user_facts(found) if isinstance(found, dict) else None


def group_members(client: WebClient, group: str) -> list[str] | None:
    """A user group's members (`usergroups.users.list`), read now; None when Slack will
    not say (no such group, `usergroups:read` missing, Slack unreachable)."""
    try:
        response = client.usergroups_users_list(usergroup=group)
    except SlackApiError as exc:
        error = exc.response.get("error") if exc.response is not None else None
        logger.warning("cannot read the members of user group %s (%s)", group, error)
        return None
    except Exception as exc:
        logger.warning("cannot read the members of user group %s (%s)", group, type(exc).__name__)
        return None
    return [str(u) for u in response.get("users") or []]


MEMBERS_TTL_S = 300.0
CHANNELS_KEPT = 5000  # channels whose members are kept at most


class ChannelMembers:
    """Who is in a channel (`conversations.members`, every page), kept `MEMBERS_TTL_S`
    seconds; when Slack cannot say, the members it said last (if it ever did)."""

    def __init__(self, timer: Callable[[], float] = time.monotonic) -> None:
        self._cache: TTLCache[str, frozenset[str]] = TTLCache(
            CHANNELS_KEPT, MEMBERS_TTL_S, timer=timer
        )
        self._last: LRUCache[str, frozenset[str]] = LRUCache(CHANNELS_KEPT)
        self._lock = threading.Lock()

    def of(self, channel: str, client: WebClient) -> frozenset[str]:
        with self._lock:
            cached = self._cache.get(channel)
        if cached is not None:
            return cached
        members: set[str] = set()
        cursor = ""
        try:
            while True:
                response = client.conversations_members(channel=channel, limit=1000, cursor=cursor)
                members.update(str(m) for m in response.get("members") or [])
                cursor = str((response.get("response_metadata") or {}).get("next_cursor") or "")
                if not cursor:
                    break
        except SlackApiError as exc:
            members_logger.warning(
                "cannot read the members of %s: %s", channel, exc.response.get("error")
            )
            with self._lock:
                return self._last.get(channel, frozenset())
        found = frozenset(members)
        with self._lock:
            self._cache[channel] = self._last[channel] = found
        return found


def is_workspace_admin(client: WebClient, user: str, org_wide: bool = False) -> bool:
    """Whether Slack says `user` is an admin or owner of the workspace (or, in an
    Enterprise Grid organisation, of the organisation), asked now: never from a cache,
    for it decides who may change a workspace's settings. Unknown is no. `org_wide`: the
    settings are an org-wide install's, the whole organisation's: only its admins and
    owners (`enterprise_user.is_admin` / `is_owner`), not one workspace's, may."""
    try:
        found = client.users_info(user=user).get("user")
    except Exception as exc:
        logger.warning("could not ask Slack whether %s is an admin (%s)", user, type(exc).__name__)
        return False
    if not isinstance(found, dict) or found.get("deleted") or found.get("is_bot"):
        return False
    org = found.get("enterprise_user")
    org = org if isinstance(org, dict) else {}
    roles = (org,) if org_wide else (found, org)
    return any(bool(x.get("is_admin") or x.get("is_owner")) for x in roles)
