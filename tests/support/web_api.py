"""The Web API methods the fake answers, and what it records of each request.

``METHODS`` maps a method name to a function ``(fake, call) -> result`` (``{"error": ...}``
refuses); adding a method the bot calls is one entry there. Each sees the ``FakeSlack``
it runs in: its members, files, users, views and the messages it took.
"""

from __future__ import annotations

import json
import re
import time
import urllib.parse
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .limits import TRIGGER_LIFETIME, block_problem, view_problem
from .servers import CONTENT_TYPE_JSON
from .workspace import APP_ID, BOT_ID, BOT_USER_ID, TEAM_ID, TEAM_NAME, TEAM_URL

if TYPE_CHECKING:
    from .fake_slack import FakeSlack

Result = Mapping[str, Any]
ResultFactory = Callable[["Call"], Result]


@dataclass(frozen=True)
class Call:
    """One request received by ``FakeSlack``.

    ``method`` is the Web API method (``"chat.postMessage"``) or, for posts to a
    response URL, ``"response/<name>"`` (``kind == "response"``).
    ``params`` merges query string and body (form values are ``str``; JSON values keep
    their JSON types). ``headers`` keys are lower-case. ``status`` and ``error`` are what
    the fake answered (``error`` is None on success); ``scripted`` marks a fault a test
    asked for. ``time`` is ``time.monotonic()`` when the request arrived.
    """

    method: str
    params: dict[str, Any]
    headers: dict[str, str]
    time: float
    kind: str = "api"
    status: int = 200
    body: bytes = b""
    content_type: str = ""
    error: str | None = None
    scripted: bool = False

    @property
    def token(self) -> str | None:
        """Token from ``Authorization: Bearer ...`` or a ``token`` param."""
        auth = self.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:].strip()
        token = self.params.get("token")
        return token if isinstance(token, str) else None

    @property
    def is_json(self) -> bool:
        return self.content_type.startswith(CONTENT_TYPE_JSON)

    @property
    def ok(self) -> bool:
        return self.status == 200 and self.error is None

    def json_param(self, name: str, default: Any = None) -> Any:
        """A param that may arrive JSON-encoded in a form body (``blocks``, ``view``...)."""
        value = self.params.get(name, default)
        if isinstance(value, str) and value[:1] in ("[", "{"):
            try:
                return json.loads(value)
            except ValueError:
                return value
        return value


@dataclass
class FakeFile:
    """A file shared in Slack: ``content`` is served at its ``url_private_download``."""

    id: str
    name: str
    content: bytes
    user: str = "U123"
    user_team: str = TEAM_ID
    mimetype: str = "text/plain"
    filetype: str = "text"
    redirect: str | None = None  # the download answers 302 to this address instead


def _auth_test(fake: FakeSlack, call: Call) -> Result:
    issued = fake.oauth.identity(call.token)
    if issued is not None:  # a token an install got: its own workspace or organisation
        who = issued.installer
        team = who.team_id if not who.org_wide else None
        return {
            "url": f"https://{(team or who.enterprise_id or '').lower()}.slack.com/",
            "team": who.team_name if team else who.enterprise_name,
            "user": "debrief",
            "team_id": team or who.enterprise_id,
            "user_id": issued.bot_user_id,
            "bot_id": issued.bot_id,
            "enterprise_id": who.enterprise_id,
            "is_enterprise_install": who.org_wide,
        }
    return {
        "url": TEAM_URL,
        "team": TEAM_NAME,
        "user": "debrief",
        "team_id": TEAM_ID,
        "user_id": BOT_USER_ID,
        "bot_id": BOT_ID,
        "is_enterprise_install": False,
    }


def _bots_info(fake: FakeSlack, call: Call) -> Result:
    if call.params.get("bot") != BOT_ID:
        return {"error": "bot_not_found"}
    return {
        "bot": {
            "id": BOT_ID,
            "deleted": False,
            "name": "debrief",
            "updated": 1_700_000_000,
            "app_id": APP_ID,
            "user_id": BOT_USER_ID,
        }
    }


def _apps_connections_open(fake: FakeSlack, call: Call) -> Result:
    if fake.socket_mode is None:
        return {"error": "fake_socket_mode_server_not_attached"}
    return {"url": fake.socket_mode.new_url()}


def _message_problem(fake: FakeSlack, call: Call) -> str | None:
    channel = str(call.params["channel"])
    if not fake.is_member(channel):
        return "not_in_channel" if channel.startswith("C") else "channel_not_found"
    if not any(call.params.get(key) for key in ("text", "blocks", "attachments")):
        return "no_text"
    return block_problem(call.params.get("blocks"))


def _chat_post_message(fake: FakeSlack, call: Call) -> Result:
    if error := _message_problem(fake, call):
        return {"error": error}
    channel, ts = str(call.params["channel"]), fake.next_ts()
    message: dict[str, Any] = {
        "type": "message",
        "text": call.params.get("text", ""),
        "user": BOT_USER_ID,
        "bot_id": BOT_ID,
        "app_id": APP_ID,
        "team": TEAM_ID,
        "ts": ts,
    }
    for key in ("blocks", "attachments", "thread_ts", "metadata"):
        if key in call.params:
            message[key] = call.json_param(key)
    with fake._lock:
        fake._messages.setdefault(channel, []).append((time.time(), message))
    return {"channel": channel, "ts": ts, "message": message}


def _conversations_history(fake: FakeSlack, call: Call) -> Result:
    """The channel's messages this fake accepted, newest first; ``oldest`` (epoch seconds,
    exclusive unless ``inclusive``) is compared with when each was posted, as the fake's
    ``ts`` values are not wall-clock times. ``metadata`` only with ``include_all_metadata``."""
    channel = str(call.params["channel"])
    if not fake.is_member(channel):
        return {"error": "not_in_channel" if channel.startswith("C") else "channel_not_found"}
    oldest = float(call.params.get("oldest") or 0)
    inclusive = str(call.params.get("inclusive")).lower() in ("1", "true")
    with_metadata = str(call.params.get("include_all_metadata")).lower() in ("1", "true")
    with fake._lock:
        posted = list(fake._messages.get(channel, []))
    messages = []
    for at, message in reversed(posted):
        if message.get("thread_ts") not in (None, message.get("ts")):
            continue  # a reply in a thread: Slack lists those with conversations.replies
        if at > oldest or (inclusive and at == oldest):
            shown = dict(message)
            if not with_metadata:
                shown.pop("metadata", None)
            messages.append(shown)
    return {"messages": messages, "has_more": False, "response_metadata": {"next_cursor": ""}}


def _conversations_replies(fake: FakeSlack, call: Call) -> Result:
    """A thread's parent and replies, oldest first (``oldest`` as in history, the parent
    always first); ``metadata`` only with ``include_all_metadata``."""
    channel, ts = str(call.params["channel"]), str(call.params["ts"])
    if not fake.is_member(channel):
        return {"error": "not_in_channel" if channel.startswith("C") else "channel_not_found"}
    oldest = float(call.params.get("oldest") or 0)
    with_metadata = str(call.params.get("include_all_metadata")).lower() in ("1", "true")
    with fake._lock:
        posted = list(fake._messages.get(channel, []))
    parent = [m for _, m in posted if m.get("ts") == ts]
    if not parent:
        return {"error": "thread_not_found"}
    replies = [
        m for at, m in posted if m.get("thread_ts") == ts and m.get("ts") != ts and at > oldest
    ]
    messages = []
    for message in [*parent, *replies]:
        shown = dict(message)
        if not with_metadata:
            shown.pop("metadata", None)
        messages.append(shown)
    return {"messages": messages, "has_more": False, "response_metadata": {"next_cursor": ""}}


def _chat_post_ephemeral(fake: FakeSlack, call: Call) -> Result:
    if error := _message_problem(fake, call):
        return {"error": error}
    return {"message_ts": fake.next_ts()}


def _reactions_add(fake: FakeSlack, call: Call) -> Result:
    key = (str(call.params["channel"]), str(call.params["timestamp"]), str(call.params["name"]))
    with fake._lock:
        if key in fake._reactions:
            return {"error": "already_reacted"}
        fake._reactions.add(key)
    return {}


def _reactions_remove(fake: FakeSlack, call: Call) -> Result:
    key = (str(call.params["channel"]), str(call.params["timestamp"]), str(call.params["name"]))
    with fake._lock:
        if key not in fake._reactions:
            return {"error": "no_reaction"}
        fake._reactions.discard(key)
    return {}


def _usergroups_users_list(fake: FakeSlack, call: Call) -> Result:
    users = fake.usergroups.get(str(call.params["usergroup"]))
    return {"error": "no_such_subteam"} if users is None else {"users": list(users)}


def _conversations_info(fake: FakeSlack, call: Call) -> Result:
    channel = str(call.params["channel"])
    if channel.startswith(("G", "D")) and not fake.is_member(channel):
        return {"error": "channel_not_found"}  # private: invisible to a bot not in it
    is_private = channel.startswith("G")
    shared = channel in fake.shared_channels
    return {
        "channel": {
            "id": channel,
            "name": channel.lower(),
            "is_channel": not is_private,
            "is_private": is_private,
            "is_member": fake.is_member(channel),
            # Slack Connect (``fake.shared_channels``, ``fake.pending_shared``)
            "is_shared": shared,
            "is_ext_shared": shared,
            "is_org_shared": False,
            "is_pending_ext_shared": channel in fake.pending_shared,
        }
    }


def _stored_view(fake: FakeSlack, call: Call, view_id: str | None = None) -> dict[str, Any]:
    view = dict(call.json_param("view"))
    view_id = view_id or f"V{next(fake._view_counter):08d}"
    view.update(
        {
            "id": view_id,
            "team_id": TEAM_ID,
            "app_id": APP_ID,
            "bot_id": BOT_ID,
            "hash": f"{int(fake.clock())}.{uuid.uuid4().hex[:8]}",
            "state": {"values": {}},
        }
    )
    with fake._lock:
        fake.views[view_id] = view
    return view


def _views_open(fake: FakeSlack, call: Call) -> Result:
    with fake._lock:
        issued = fake._triggers.get(str(call.params["trigger_id"]))
    if issued is None:
        return {"error": "invalid_trigger_id"}
    if fake.clock() - issued > TRIGGER_LIFETIME:
        return {"error": "expired_trigger_id"}
    if error := view_problem(call.json_param("view")):
        return {"error": error}
    if call.json_param("view").get("type") != "modal":
        return {"error": "invalid_arguments"}
    return {"view": _stored_view(fake, call)}


def _views_push(fake: FakeSlack, call: Call) -> Result:
    """Like views.open, from an interaction inside an open modal (the new one stacks)."""
    return _views_open(fake, call)


def _views_update(fake: FakeSlack, call: Call) -> Result:
    view_id = str(call.params.get("view_id") or "")
    with fake._lock:
        old = fake.views.get(view_id)
    if not view_id or old is None:
        return {"error": "not_found"}
    if call.params.get("hash") and call.params["hash"] != old["hash"]:
        return {"error": "hash_conflict"}
    if error := view_problem(call.json_param("view")):
        return {"error": error}
    return {"view": _stored_view(fake, call, view_id)}


def _views_publish(fake: FakeSlack, call: Call) -> Result:
    if error := view_problem(call.json_param("view")):
        return {"error": error}
    if call.json_param("view").get("type") != "home":
        return {"error": "invalid_arguments"}
    user = str(call.params["user_id"])
    with fake._lock:
        view_id = fake.home_ids.setdefault(user, f"V{next(fake._view_counter):08d}")
    view = _stored_view(fake, call, view_id)
    with fake._lock:
        fake.homes[user] = view
    return {"view": view}


def _files_info(fake: FakeSlack, call: Call) -> Result:
    with fake._lock:
        f = fake.files.get(str(call.params.get("file") or ""))
    if f is None:
        return {"error": "file_not_found"}
    url = f"{fake.url}files-pri/{TEAM_ID}-{f.id}/download/{urllib.parse.quote(f.name)}"
    return {
        "file": {
            "id": f.id,
            "created": 1_700_000_000,
            "timestamp": 1_700_000_000,
            "name": f.name,
            "title": f.name,
            "mimetype": f.mimetype,
            "filetype": f.filetype,
            "pretty_type": "Plain Text",
            "user": f.user,
            "user_team": f.user_team,
            "mode": "hosted",
            "editable": True,
            "is_external": False,
            "external_type": "",
            "is_public": True,
            "size": len(f.content),
            "url_private": url.replace("/download/", "/"),
            "url_private_download": url,
        },
        "comments": [],
    }


def _conversations_members(fake: FakeSlack, call: Call) -> Result:
    channel = str(call.params.get("channel") or "")
    with fake._lock:
        members = fake.channel_members.get(channel)
    if members is None:
        return {"error": "channel_not_found"}
    limit = int(call.params.get("limit") or 100)
    start = int(call.params.get("cursor") or 0)
    page = members[start : start + limit]
    more = start + limit < len(members)
    return {
        "members": page,
        "response_metadata": {"next_cursor": str(start + limit) if more else ""},
    }


def _auth_teams_list(fake: FakeSlack, call: Call) -> Result:
    """The workspaces a token reaches: an org-wide install's, those it was granted; a
    workspace's token, its own."""
    issued = fake.oauth.identity(call.token)
    if issued is None:
        teams = [TEAM_ID]
    elif issued.installer.org_wide:
        teams = list(issued.installer.teams)
    else:
        teams = [issued.installer.team_id or ""]
    return {
        "teams": [{"id": team, "name": team.lower()} for team in teams],
        "response_metadata": {"next_cursor": ""},
    }


def _users_info(fake: FakeSlack, call: Call) -> Result:
    """Every `U…`/`W…` id is a member of the workspace (named when ``fake.users`` names
    it), except those of ``fake.unknown_users`` and the Slack Connect users of
    ``fake.user_teams`` (another organisation's team id). Asked with the token of an
    install in an Enterprise Grid organisation, its members carry `enterprise_user`
    (their roles in the organisation: ``fake.org_admins``, ``fake.org_owners``)."""
    user = str(call.params["user"])
    if user in fake.unknown_users or not re.fullmatch(r"[UW][A-Z0-9]{2,}", user):
        return {"error": "user_not_found"}
    return {"user": _user_object(fake, call, user)}


def _users_lookup_by_email(fake: FakeSlack, call: Call) -> Result:
    """The member ``fake.emails`` gives the address to (compared as Slack does, without
    regard to case), described as users.info describes them, with the address in their
    profile; ``users_not_found`` for an address no member has."""
    email = str(call.params["email"]).strip().lower()
    found = next((uid for addr, uid in fake.emails.items() if addr.lower() == email), None)
    if found is None or found in fake.unknown_users:
        return {"error": "users_not_found"}
    described = _user_object(fake, call, found)
    described["profile"]["email"] = str(call.params["email"]).strip()
    return {"user": described}


def _user_object(fake: FakeSlack, call: Call, user: str) -> dict[str, Any]:
    """A member as users.info and users.lookupByEmail describe them."""
    name = fake.users.get(user, "")
    profile = {"display_name": name, "real_name": name}
    issued = fake.oauth.identity(call.token)  # asked with an install's token: its workspace
    home = issued.installer.team_id if issued is not None else None
    team = fake.user_teams.get(user, home or TEAM_ID)
    found: dict[str, Any] = {
        "id": user,
        "team_id": team,
        "name": name.lower(),
        "deleted": False,
        "is_bot": False,
        "profile": profile,
        "is_admin": user in fake.admins or user in fake.owners,  # owners are admins too
        "is_owner": user in fake.owners,
    }
    grid = issued.installer if issued is not None else None
    member = user not in fake.user_teams or (grid is not None and team in grid.teams)
    if grid is not None and grid.enterprise_id and member:
        # a member of the install's organisation (Slack's objs_enterprise_user): their
        # roles in the organisation, and its workspaces they are in
        found["enterprise_user"] = {
            "id": user,
            "enterprise_id": grid.enterprise_id,
            "enterprise_name": grid.enterprise_name or "",
            "is_admin": user in fake.org_admins or user in fake.org_owners,
            "is_owner": user in fake.org_owners,
            "teams": [team],
        }
    return found


def _conversations_open(fake: FakeSlack, call: Call) -> Result:
    """The bot's DM with one user (``users``); a group DM (several) is not what Debrief
    opens, and is refused here so that a call that would open one is noticed."""
    users = [u for u in str(call.params.get("users") or "").split(",") if u]
    if not users:
        return {"error": "users_list_not_supplied"}
    if len(users) > 1:
        return {"error": "not_enough_users"}
    user = users[0]
    if user in fake.unknown_users or not re.fullmatch(r"[UW][A-Z0-9]{2,}", user):
        return {"error": "user_not_found"}
    channel = fake.dm_channel(user)
    return {"channel": {"id": channel}, "already_open": False, "no_op": False}


def _chat_update(fake: FakeSlack, call: Call) -> Result:
    """Edit one of the bot's own messages in place (blocks checked as a post's are)."""
    channel, ts = str(call.params["channel"]), str(call.params["ts"])
    if not any(call.params.get(key) for key in ("text", "blocks", "attachments")):
        return {"error": "no_text"}
    if error := block_problem(call.params.get("blocks")):
        return {"error": error}
    with fake._lock:
        for _, message in fake._messages.get(channel, []):
            if message.get("ts") == ts:
                if message.get("user") != BOT_USER_ID:
                    return {"error": "cant_update_message"}
                message["text"] = call.params.get("text", "")
                for key in ("blocks", "attachments", "metadata"):
                    if key in call.params:
                        message[key] = call.json_param(key)
                message["edited"] = {"user": BOT_USER_ID, "ts": fake.next_ts()}
                return {"channel": channel, "ts": ts, "text": message["text"]}
    return {"error": "message_not_found"}


Method = Callable[["FakeSlack", Call], Result]

METHODS: dict[str, Method] = {
    "apps.connections.open": _apps_connections_open,
    "auth.test": _auth_test,
    "auth.teams.list": _auth_teams_list,
    "oauth.v2.access": lambda fake, call: fake.oauth.access(call),
    "bots.info": _bots_info,
    "chat.postEphemeral": _chat_post_ephemeral,
    "conversations.history": _conversations_history,
    "conversations.info": _conversations_info,
    "chat.postMessage": _chat_post_message,
    "chat.update": _chat_update,
    "conversations.open": _conversations_open,
    "conversations.replies": _conversations_replies,
    "conversations.members": _conversations_members,
    "files.info": _files_info,
    "reactions.add": _reactions_add,
    "reactions.remove": _reactions_remove,
    "usergroups.users.list": _usergroups_users_list,
    "users.info": _users_info,
    "users.lookupByEmail": _users_lookup_by_email,
    "views.open": _views_open,
    "views.publish": _views_publish,
    "views.push": _views_push,
    "views.update": _views_update,
}
