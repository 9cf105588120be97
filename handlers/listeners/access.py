"""Who may see candidate data, and where: enforced once, as a Bolt middleware.

Commands, button clicks and events all pass through it before any listener, and it
never calls Slack before the request is acknowledged:
- a request from anyone outside the token's own workspace is refused: a Slack Connect
  user in a shared channel (the event's `user_team`, the user's `team_id`) as much as
  a request naming another team, and a request naming no team at all (fail closed);
- with DEBRIEF_ALLOWED_USERS set, only those users (or members of those user groups,
  `S…`) get answers, and only their thread replies are recorded; before a group was
  read once, a member is asked to try again shortly (handlers/policy.py);
- with DEBRIEF_ALLOWED_CHANNELS set, candidate data is shown or posted only there.
A refusal is short, polite and carries no candidate data. Only refusals of requests
that would have reached candidate data (a command, a button, a reply in a thread under
one of the bot's posts) are audited: someone saying "lunch?" in a channel is not.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from slack_bolt import BoltContext, BoltResponse
from slack_sdk import WebClient
from slack_sdk.webhook import WebhookClient

from ..audit import AuditEvent, record
from ..deps import Deps, deps_of
from ..i18n import t
from ..people import is_workspace_admin
from ..policy import GrantedTeams, Policy
from ..views.common import no_access_home, notice
from ..views.decide import Target
from ..views.home import HOME_SETTINGS
from ..views.settings import SETTINGS

logger = logging.getLogger("handlers.access")

# -- whose request is it -------------------------------------------------------------------


def _add(found: list[str], value: Any) -> None:
    if isinstance(value, str) and value:
        found.append(value)


def request_teams(body: dict[str, Any]) -> list[str]:
    """Every workspace a request names for its sender (not the app's authorizations).

    A slash command carries `team_id`; a click `team.id` and `user.team_id`; an event
    its envelope's `team_id` and, in a shared channel, the sender's `user_team` / `team`
    / `source_team` on the event (or on the edited message)."""
    found: list[str] = []
    _add(found, body.get("team_id"))
    team = body.get("team")
    _add(found, team.get("id") if isinstance(team, dict) else team)
    user = body.get("user")
    if isinstance(user, dict):
        _add(found, user.get("team_id"))
    event = body.get("event")
    if isinstance(event, dict):
        message = event.get("message")
        for part in (event, message if isinstance(message, dict) else {}):
            for key in ("user_team", "team", "source_team"):
                _add(found, part.get(key))
    return found


def _thread_under_our_post(body: dict[str, Any], deps: Deps) -> bool:
    """Whether an event is a message in a thread under one of the bot's candidate posts."""
    event = body.get("event")
    if not isinstance(event, dict) or event.get("type") != "message":
        return False
    channel = event.get("channel")
    inner = event.get("message") if event.get("subtype") == "message_changed" else event
    if not isinstance(inner, dict) or not isinstance(channel, str):
        return False
    thread_ts, ts = inner.get("thread_ts"), inner.get("ts")
    if not isinstance(thread_ts, str) or not thread_ts or thread_ts == ts:
        return False
    return deps.store.post_candidate(channel, thread_ts) is not None


def _matters(body: dict[str, Any], deps: Deps) -> bool:
    """Would this request have reached candidate data? Only then is its refusal audited."""
    if body.get("command"):
        return True
    if body.get("type") in {"block_actions", "view_submission", "shortcut", "message_action"}:
        return True
    event = body.get("event")
    if isinstance(event, dict) and event.get("subtype") == "file_share":
        return True  # an upload (handlers/uploads.py): who tried is audited
    if isinstance(event, dict) and event.get("type") == "app_home_opened":
        return True  # the Home tab lists candidates
    return _thread_under_our_post(body, deps)


def private_surface(body: dict[str, Any]) -> bool:
    """A request from a place only the user sees (a modal, their App Home, their DM with
    the bot): there is no channel to check, only the user."""
    if body.get("type") in {"view_submission", "view_closed"}:
        return True
    container = body.get("container")
    if body.get("type") == "block_actions" and isinstance(container, dict):
        return container.get("type") == "view"
    event = body.get("event")
    if isinstance(event, dict):
        # A DM with the bot is a channel like any other: with DEBRIEF_ALLOWED_CHANNELS
        # set, an upload or a reply there is refused as `/candidate` typed there is.
        return event.get("type") == "app_home_opened"
    return False


def judged_channel(body: dict[str, Any], context: BoltContext) -> str | None:
    """The channel a request is judged by: where it came from, except for decision
    buttons in the bot's DM (a request, a reminder), which name the verdict thread they
    decide in: they are judged by that thread's channel, where the decision is posted.
    (The DM itself, which the bot sent to that reviewer alone, shows what the Home tab
    shows them.)"""
    if body.get("type") == "block_actions":
        actions = body.get("actions")
        first = actions[0] if isinstance(actions, list) and actions else None
        target = Target.from_block_id(first.get("block_id")) if isinstance(first, dict) else None
        if target is not None and (context.channel_id or "").startswith("D"):
            return target.channel
    return context.channel_id


def _settings_request(body: dict[str, Any]) -> bool:
    """The Home tab's settings button, or the settings modal submitted: it shows no
    candidate, and its listener lets only the workspace's admins on (Slack asked then),
    so an admin who set the access rules without themselves can still change them."""
    if body.get("type") == "block_actions":
        acts = body.get("actions")
        first = acts[0] if isinstance(acts, list) and acts else None
        return isinstance(first, dict) and first.get("action_id") == HOME_SETTINGS
    view = body.get("view")
    if body.get("type") in {"view_submission", "view_closed"} and isinstance(view, dict):
        return view.get("callback_id") == SETTINGS
    return False


def _own_post_deleted(body: dict[str, Any], context: BoltContext) -> bool:
    """A post of the bot's own deleted (its user is the bot's, whom DEBRIEF_ALLOWED_USERS
    never names): it shows nobody anything, and takes back a decision made with the
    buttons (handlers/listeners/threads.py)."""
    event = body.get("event")
    return (
        isinstance(event, dict)
        and event.get("subtype") == "message_deleted"
        and bool(context.bot_user_id)
        and context.user_id == context.bot_user_id
    )


def _refuse_command(text: str) -> BoltResponse:
    body = json.dumps({"response_type": "ephemeral", "text": text}, ensure_ascii=False)
    return BoltResponse(status=200, body=body, headers={"content-type": "application/json"})


@dataclass(frozen=True)
class Refusal:
    # the i18n key of what the user is told; "refused_foreign" (a request from another
    # organisation, or naming none) is told "refused" where Slack shows it to that person
    # alone, and never answered in a channel
    reason: str
    event: AuditEvent


def check(
    body: dict[str, Any],
    context: BoltContext,
    policy: Policy,
    granted: GrantedTeams | None = None,
) -> Refusal | None:
    """None when the request may go on to the listeners; else why not, for the user and the audit.
    `granted`: installed org-wide, the organisation's workspaces it serves (else the
    token's own workspace is the only one).

    Reads nothing from Slack: it runs before the request is acknowledged."""
    kind = body.get("type") or ("command" if body.get("command") else None)
    if kind in {"url_verification", "ssl_check"} or (kind is None and "challenge" in body):
        return None
    own_team = context.authorize_result.team_id if context.authorize_result else None
    own = {own_team} if own_team else set()
    org = granted.teams if granted is not None else None
    if granted is not None:
        own = set(org or ())
    teams = request_teams(body)
    reason: str | None = None
    if granted is not None and org is None:
        reason = "refused_pending"  # the organisation's workspaces not read yet
    elif not own or not teams:
        reason = "refused_foreign"
        logger.warning("refused a request that names no workspace")
    elif any(team not in own for team in teams):
        reason = "refused_foreign"
        logger.warning("refused a request from another workspace (%s)", sorted(set(teams)))
    elif _settings_request(body):
        pass  # its admins reach a workspace's settings whoever may see candidates (below)
    else:
        verdict = "yes" if _own_post_deleted(body, context) else policy.decide(context.user_id)
        if verdict == "pending":
            reason = "refused_pending"
        elif verdict == "no":
            reason = "refused"
        elif not private_surface(body) and not policy.channel_allowed(
            judged_channel(body, context)
        ):
            reason = "refused_channel"
    if reason is None:
        return None
    event = AuditEvent(
        context.user_id or "?", f"refused:{kind or 'request'}", None, context.channel_id
    )
    return Refusal(reason, event)


def _send_refusal(url: str, text: str) -> None:
    try:
        WebhookClient(url, timeout=10).send_dict(notice(text).payload())
    except Exception:
        logger.exception("could not send a refusal")


def access_guard(
    body: dict[str, Any], context: BoltContext, next: Callable[[], BoltResponse]
) -> BoltResponse | None:
    """The middleware: let the request through to the listeners, or refuse it politely
    (and note who was refused)."""
    deps = deps_of(context)
    refusal = check(body, context, deps.policy, deps.teams)
    if refusal is None:
        return next()
    if _matters(body, deps):
        record(deps.store, [refusal.event])
    text = t(deps.locale, "refused" if refusal.reason == "refused_foreign" else refusal.reason)
    if body.get("command"):
        return _refuse_command(text)
    url = body.get("response_url")
    found = body.get("event")
    event: dict[str, Any] = found if isinstance(found, dict) else {}
    # After the acknowledgement, not before it: the answer to Slack goes out first.
    later: Callable[[], None] | None = None
    if body.get("type") == "block_actions" and isinstance(url, str) and url:
        later = partial(_send_refusal, url, text)
    elif event.get("type") == "app_home_opened" and isinstance(event.get("user"), str):
        # Slack keeps showing the last Home view published: replace it
        # installed in many workspaces, its admins keep the button of its settings
        label = t(deps.locale, "home_settings") if deps.defaults is not None else None
        later = partial(
            _publish_no_access, context.client, event["user"], text, label, deps.org_wide
        )
    elif event.get("subtype") == "file_share" and refusal.reason != "refused_foreign":
        later = partial(_tell_uploader, context.client, event, text)
    if later is not None and context.client is not None:
        threading.Thread(target=later, name="debrief-refusal", daemon=True).start()
    return BoltResponse(status=200, body="")


def _publish_no_access(
    client: WebClient | None,
    user: str,
    text: str,
    settings: str | None = None,
    org_wide: bool = False,
) -> None:
    if client is None:
        return
    try:
        if settings and not is_workspace_admin(client, user, org_wide):
            settings = None
        client.views_publish(user_id=user, view=no_access_home(text, settings))
    except Exception as exc:
        logger.warning("could not replace a refused user's Home tab (%s)", type(exc).__name__)


def _tell_uploader(client: WebClient | None, event: dict[str, Any], text: str) -> None:
    """The same words as a refused `/candidate`, seen by the uploader alone."""
    channel, user = event.get("channel"), event.get("user")
    if client is None or not isinstance(channel, str) or not isinstance(user, str):
        return
    try:
        client.chat_postEphemeral(channel=channel, user=user, text=text)
    except Exception as exc:
        logger.warning("could not tell a refused uploader (%s)", type(exc).__name__)


def home_allowed(
    event: dict[str, Any], context: BoltContext, client: WebClient, deps: Deps
) -> bool:
    """Whether the user opening the Home tab is one of ours. An `app_home_opened` event
    carries no `user_team`, so a Slack Connect user's would pass the middleware: who the
    user is is read from Slack (`users.info`, cached) after the acknowledgement. A user
    of another organisation, or one Slack cannot tell us about, sees "no access"."""
    user = str(event.get("user") or "")
    own_team = context.authorize_result.team_id if context.authorize_result else None
    own_team = own_team or context.team_id
    own = {own_team} if own_team else set()
    if deps.teams is not None:  # org-wide (no team of its own): the workspaces granted
        own = set(deps.teams.teams or ())
    if event.get("user_team"):
        return True  # judged by the middleware already
    facts = deps.names.facts(client, user) if user else None
    if facts is not None and own & facts.teams and not facts.stranger:
        return True
    logger.warning("refused the Home tab of a user outside the workspace")
    record(deps.store, [AuditEvent(user or "?", "refused:event_callback")])
    if user:
        _publish_no_access(client, user, t(deps.locale, "refused"))
    return False
