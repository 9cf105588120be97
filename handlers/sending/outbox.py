"""Where rendered messages go: back to the asker, or into the channel.

`deliver` carries out a plan (replies, posts, DMs, edits: handlers/sending/outgoing.py)
through an `Outbox`, in order, and says how it went. `SlackOutbox` speaks to Slack
(response_url first, chat.postEphemeral once the response_url is spent or expired,
chat.postMessage for posts, a DM, chat.update) and remembers every post about a
candidate so replies in its thread can be tied to them, and in the audit; it knows
nothing of what asked for a message. `RecordingOutbox` keeps the payloads, for
`debrief ask`.

An answer may end with reviewers to ask (`Outgoing.ask`) or next interviewers to hand
a candidate to (`Outgoing.handoff`), or name a candidate whose request status messages
are to be brought up to date once it is sent (`Outgoing.refresh`): those are not the
sender's to plan; handlers/asking.py and handlers/handoffs.py, which made them, plan
them and hand the sender their plans.
"""

from __future__ import annotations

import http.client
import logging
import time
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from slack_bolt import Ack
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler
from slack_sdk.webhook import WebhookClient

from store.factory import Backend

from ..audit import AuditEvent, record
from ..blocks import Message, escape
from ..deps import Deps
from ..i18n import Locale, t
from ..shared import may_post, refusal_key
from ..views.common import notice
from .outgoing import DirectMessage, Edit, Outgoing, Send
from .pacing import Pacer
from .posting import (
    ConnectionRetryUnlessPosted,
    PostUnknown,
    ServerErrorRetryUnlessPosted,
    post_once,
)

logger = logging.getLogger(__name__)

POST_EVENT = "debrief_post"  # the metadata event type of the bot's channel posts
RESPONSE_URL_POSTS = 5  # Slack accepts 5 posts to one response_url in 30 minutes


def retry_handlers() -> list[Any]:
    """Slack answering 429 is retried (Retry-After honoured: it did not process the call);
    a 5xx or a dropped connection too, except for chat.postMessage, which may have been
    posted: its sender looks before posting again (handlers/sending/posting.py)."""
    return [
        ConnectionRetryUnlessPosted(max_retry_count=2),
        RateLimitErrorRetryHandler(max_retry_count=3),
        ServerErrorRetryUnlessPosted(max_retry_count=2),
    ]


def ack_now(ack: Ack) -> None:
    """The empty first answer Slack waits for (3 s at most): nothing slow happens before it."""
    ack()


def is_direct(channel: str | None, channel_name: str | None) -> bool:
    """A DM or group DM: no bot can be invited there (`D…`, `directmessage`, `mpdm-…`)."""
    name = channel_name or ""
    return (channel or "").startswith("D") or name == "directmessage" or name.startswith("mpdm")


def sender_for(body: dict[str, Any], client: WebClient, deps: Deps) -> SlackOutbox:
    """What answers a command or a button click: its channel, user, response_url."""
    channel = body.get("channel_id") or (body.get("channel") or {}).get("id")
    user = body.get("user_id") or (body.get("user") or {}).get("id")
    name = body.get("channel_name") or (body.get("channel") or {}).get("name")
    direct = is_direct(channel, name)
    return SlackOutbox(client, deps, channel, user, body.get("response_url"), direct=direct)


def direct_message(client: WebClient, user: str, message: Message, what: str) -> str | None:
    """`message` in the bot's DM with `user`: Slack's error, or None. A refusal or a
    dropped connection is logged ("could not `what`") and never retried."""
    try:
        opened = client.conversations_open(users=user)
        channel = str((opened.get("channel") or {}).get("id") or "")
        client.chat_postMessage(
            channel=channel,
            text=message.text,
            blocks=message.blocks or None,
            unfurl_links=False,
            unfurl_media=False,
        )
    except SlackApiError as exc:
        error = str((exc.response or {}).get("error") or "error")
        logger.warning("could not %s (%s)", what, error)
        return error
    except (OSError, http.client.HTTPException) as exc:  # dropped, timed out
        logger.warning("could not %s (%s)", what, type(exc).__name__)
        return type(exc).__name__
    return None


class Outbox(Protocol):
    def reply(self, message: Message, replace_original: bool = False) -> None: ...

    def post(self, outgoing: Outgoing) -> str | None: ...

    def dm(self, user: str, message: Message) -> str | None: ...

    def edit(self, edit: Edit) -> None: ...


@dataclass(frozen=True)
class Delivered:
    """How a plan went: whether every post went out, the DMs that did not go, and the ts
    of each post that went out."""

    posted: bool
    failed: Mapping[str, str]  # user -> Slack's error
    posts: tuple[str, ...] = ()


def deliver(plan: Iterable[Send], outbox: Outbox) -> Delivered:
    """Send each in order; once a post fails (the asker was told why), what comes after
    it is not tried. A DM that does not go is said in `failed`, and the rest go on."""
    failed: dict[str, str] = {}
    posts: list[str] = []
    for item in plan:
        if isinstance(item, DirectMessage):
            error = outbox.dm(item.user, item.message)
            if error is not None:
                failed[item.user] = error
        elif isinstance(item, Edit):
            outbox.edit(item)
        elif not item.post:
            outbox.reply(item.message)
        elif (ts := outbox.post(item)) is None:
            return Delivered(False, failed, tuple(posts))
        else:
            posts.append(ts)
    return Delivered(True, failed, tuple(posts))


class RecordingOutbox:
    """Keeps what would be sent, as Slack would receive it."""

    def __init__(self) -> None:
        self.payloads: list[dict[str, Any]] = []

    def reply(self, message: Message, replace_original: bool = False) -> None:
        self.payloads.append(message.payload())

    def post(self, outgoing: Outgoing) -> str | None:
        self.payloads.append({**outgoing.message.payload(), "response_type": "in_channel"})
        return "recorded"

    def dm(self, user: str, message: Message) -> str | None:
        self.payloads.append({**message.payload(), "channel": user})
        return None

    def edit(self, edit: Edit) -> None:
        self.payloads.append({**edit.message.payload(), "channel": edit.channel, "ts": edit.ts})


class SlackOutbox:
    """Replies and posts in Slack for one command or click: its channel, its user, its
    response_url; `direct`: the channel is a DM or group DM (posting there cannot be
    fixed with /invite). Posts are paced by the app's pacer (about one a second a
    channel) and never go into a channel shared with another organisation unless the
    workspace allows it (handlers/shared.py)."""

    def __init__(
        self,
        client: WebClient,
        deps: Deps,
        channel: str | None,
        user: str | None,
        response_url: str | None,
        direct: bool = False,
    ) -> None:
        self.client = client
        self.deps = deps
        self.store: Backend = deps.store
        self.locale: Locale = deps.locale
        self.pacer: Pacer = deps.pacer
        self.channel = channel
        self.user = user
        self.response_url = response_url
        self.direct = direct
        self.sent_to_url = 0

    def reply(self, message: Message, replace_original: bool = False) -> None:
        payload: dict[str, Any] = {**message.payload(), "replace_original": replace_original}
        if self.response_url and self.sent_to_url < RESPONSE_URL_POSTS:
            self.sent_to_url += 1
            webhook = WebhookClient(self.response_url, retry_handlers=retry_handlers(), timeout=10)
            try:
                response = webhook.send_dict(payload)
                if response.status_code == 200:
                    return
                logger.warning(
                    "response_url answered %s; falling back to chat.postEphemeral",
                    response.status_code,
                )
            except Exception:
                logger.exception("response_url failed; falling back to chat.postEphemeral")
            self.sent_to_url = RESPONSE_URL_POSTS  # spent or expired: do not try it again
        if self.channel and self.user:
            self.client.chat_postEphemeral(
                channel=self.channel, user=self.user, text=message.text, blocks=message.blocks
            )
        else:
            logger.warning("no way to reply: no response_url, channel or user")

    def post(self, outgoing: Outgoing) -> str | None:
        if not self.channel:
            self.reply(outgoing.message)
            return None
        refused = self._shared_refusal(self.channel, outgoing)
        if refused is not None:  # told to the asker alone; nothing posted
            self.reply(notice(refused))
            return None
        message = outgoing.message
        self.pacer.wait(self.channel)
        marker = {"kind": outgoing.kind, "nonce": uuid.uuid4().hex}
        started = time.time()
        try:
            ts = post_once(
                self.client,
                self.channel,
                text=message.text,
                blocks=message.blocks,
                event_type=POST_EVENT,
                marker=marker,
                since=started,
                thread_ts=outgoing.thread_ts,
            )
        except SlackApiError as exc:
            error = exc.response.get("error") if exc.response is not None else None
            if error in {"not_in_channel", "channel_not_found", "is_archived", "restricted_action"}:
                self.reply(notice(self._cannot_post(str(error), outgoing)))
                return None
            raise
        except PostUnknown:  # not posted again: the asker is told to check the channel
            self.reply(notice(t(self.locale, "post_unknown")))
            return None
        return self._posted(outgoing, self.channel, {"ts": ts})

    def dm(self, user: str, message: Message) -> str | None:
        return direct_message(self.client, user, message, "DM a reviewer")

    def edit(self, edit: Edit) -> None:
        """chat.update where the channel is still the workspace's own (anywhere for an
        edit that `hides`); else, or when the message is gone, `edit.instead` is posted
        (refused in a shared channel)."""
        own = edit.hides or may_post(edit.channel, self.client, self.deps) == "own"
        if edit.hides:  # one of many posts edited at once: paced as posts are
            self.pacer.wait(edit.channel)
        if own and self._update(edit):
            return
        if edit.instead is not None:
            self.post(edit.instead)

    def _update(self, edit: Edit) -> bool:
        """False when the message is gone (deleted); Slack's other refusals are logged."""
        message = edit.message
        try:
            self.client.chat_update(
                channel=edit.channel, ts=edit.ts, text=message.text, blocks=message.blocks
            )
        except SlackApiError as exc:
            error = (exc.response or {}).get("error")
            if error == "message_not_found":
                return False
            logger.warning("could not edit a message (%s)", error)
        return True

    def _posted(self, outgoing: Outgoing, channel: str, response: Any) -> str:
        """Slack took the post: remember it for its thread, and in the audit."""
        ts = str(response.get("ts") or "")
        if ts and outgoing.candidate_id:
            self.store.record_post(channel, ts, outgoing.candidate_id, outgoing.kind)
        # Recorded the moment Slack took it: the audit never lags behind the channel.
        event = AuditEvent(
            self.user or "?", f"post:{outgoing.kind}", outgoing.candidate_id, channel
        )
        record(self.store, [event])
        return ts

    def _shared_refusal(self, channel: str, outgoing: Outgoing) -> str | None:
        """Why candidate data is not posted in `channel` (shared with another organisation,
        or Slack could not tell: handlers/shared.py), or None; audited when refused."""
        sharing = may_post(channel, self.client, self.deps)
        if sharing == "gone" or (sharing == "unknown" and self.direct):
            return self._cannot_post("channel_not_found", outgoing)  # cannot post there anyway
        key = refusal_key(sharing)
        if key is None:
            return None
        logger.info("not posted in %s: %s", channel, sharing)
        record(
            self.store,
            [AuditEvent(self.user or "?", "refused:shared", outgoing.candidate_id, channel)],
        )
        text = t(self.locale, key)
        if outgoing.kind == "verdict" and outgoing.candidate_id:
            text += "\n" + t(self.locale, "verdict_private", who=escape(outgoing.candidate_id))
        return text

    def _cannot_post(self, error: str, outgoing: Outgoing) -> str:
        """Why the post did not go out, and what the asker can do (never lost in silence)."""
        if error == "restricted_action":
            text = t(self.locale, "restricted_action")
        elif self.direct:
            text = t(self.locale, "cannot_post_dm")
        else:
            text = t(self.locale, "not_in_channel")
        if outgoing.kind == "verdict" and outgoing.candidate_id:
            text += "\n" + t(self.locale, "verdict_private", who=escape(outgoing.candidate_id))
        return text
