"""What the bot keeps of Slack's answers (who is shared, who is in a channel, who a user
is) is kept a while and in bounded memory (issue 35): cachetools' expiring caches, the
least recently used forgotten first once they are full, whatever the workspace's size.
A stand-in for Slack's Web API counts what is asked; what the caches mean for the bot is
tested over HTTP (tests/test_shared_channels.py, tests/test_home.py, tests/test_requests.py)."""

from __future__ import annotations

from typing import Any, cast

from slack_sdk import WebClient

from handlers.people import CHANNELS_KEPT as MEMBERS_KEPT
from handlers.people import USERS_KEPT, ChannelMembers, UserNames
from handlers.shared import CHANNELS_KEPT, SharedChannels


class Slack:
    """Answers conversations.info, conversations.members and users.info; counts them."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def conversations_info(self, channel: str) -> dict[str, Any]:
        self.asked.append(channel)
        return {"channel": {"id": channel, "is_ext_shared": False, "is_shared": False}}

    def conversations_members(self, channel: str, limit: int, cursor: str) -> dict[str, Any]:
        self.asked.append(channel)
        return {"members": ["U1"], "response_metadata": {"next_cursor": ""}}

    def users_info(self, user: str) -> dict[str, Any]:
        self.asked.append(user)
        return {"user": {"id": user, "team_id": "T1", "profile": {"display_name": user}}}


def test_whether_a_channel_is_shared_is_kept_for_a_bounded_number_of_channels() -> None:
    slack = Slack()
    client = cast(WebClient, slack)
    shared = SharedChannels()
    assert shared.of("C0", client) == "own" and shared.of("C0", client) == "own"
    assert slack.asked == ["C0"]  # kept
    for n in range(1, CHANNELS_KEPT + 1):
        shared.of(f"C{n}", client)
    assert shared.peek("C0") is None  # the oldest forgotten: memory stays bounded
    assert shared.peek(f"C{CHANNELS_KEPT}") == "own"


def test_channel_members_are_kept_for_a_bounded_number_of_channels() -> None:
    slack = Slack()
    client = cast(WebClient, slack)
    members = ChannelMembers()
    assert members.of("C0", client) == members.of("C0", client) == frozenset({"U1"})
    assert slack.asked == ["C0"]
    for n in range(1, MEMBERS_KEPT + 1):
        members.of(f"C{n}", client)
    members.of("C0", client)
    assert slack.asked.count("C0") == 2  # forgotten, asked again


def test_user_names_are_kept_for_a_bounded_number_of_users() -> None:
    slack = Slack()
    client = cast(WebClient, slack)
    names = UserNames()
    assert names.lookup(client, ["U0"]) == {"U0": "U0"} == names.lookup(client, ["U0"])
    assert slack.asked == ["U0"]
    for n in range(1, USERS_KEPT + 1):
        names.facts(client, f"U{n}")
    assert names.belongs(client, "U0", "T1")
    assert slack.asked.count("U0") == 2  # forgotten, asked again


def test_channel_members_fall_back_on_what_slack_said_last_when_it_cannot_say() -> None:
    """Expired, and Slack fails: the members Slack said last, as before the caches were
    cachetools' (never nobody, which would empty a member's Home tab)."""
    from slack_sdk.errors import SlackApiError
    from slack_sdk.web import SlackResponse

    class Failing(Slack):
        fail = False

        def conversations_members(self, channel: str, limit: int, cursor: str) -> dict[str, Any]:
            if self.fail:
                response = SlackResponse(
                    client=None,
                    http_verb="POST",
                    api_url="",
                    req_args={},
                    data={"ok": False, "error": "ratelimited"},
                    headers={},
                    status_code=429,
                )
                raise SlackApiError("ratelimited", response)
            return super().conversations_members(channel, limit, cursor)

    now = [0.0]
    slack = Failing()
    client = cast(WebClient, slack)
    members = ChannelMembers(timer=lambda: now[0])
    assert members.of("C0", client) == frozenset({"U1"})
    now[0] += 301  # past MEMBERS_TTL_S
    slack.fail = True
    assert members.of("C0", client) == frozenset({"U1"})
    assert slack.asked == ["C0"]  # the second ask failed before it counted
    assert members.of("C9", client) == frozenset()  # never said: nobody
