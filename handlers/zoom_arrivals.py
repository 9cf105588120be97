"""What the hiring channel is told of a Zoom transcript Debrief took by itself (issue 48):
a new interview's card, posted once at the channel's top level, as an uploaded
transcript's is (handlers/uploads.py `indexed_message`); a recording the reader refuses,
or one that could not be fetched after the last try, said once to the channel's admins
by the meeting's start time (its topic is never repeated).

Posted once: each post carries the meeting and file in its metadata, and when Slack
does not say whether it took one it is looked for rather than posted again
(handlers/sending/posting.py `post_once`). A channel shared with another organisation
(Slack Connect) gets nothing unless its workspace allows it, as for every post of
candidate data; nobody is there to be told privately, so the log says it.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime
from zoneinfo import ZoneInfo

from slack_sdk import WebClient

from store.models import ZoomRecording

from .audit import AuditEvent, record
from .blocks import Message, fit
from .deps import Deps
from .i18n import t
from .sending.posting import PostUnknown, post_once
from .shared import may_post, refusal_key
from .uploads import Outcome, indexed_message
from .views.common import notice

logger = logging.getLogger(__name__)

ZOOM_EVENT = "debrief_zoom"
"""The metadata event type of what is posted about a Zoom recording."""
POSTED_BY = "Zoom"


def meeting_time(r: ZoomRecording, tz: ZoneInfo) -> str:
    """When the meeting started, in the team's zone: `2026-12-07 14:30`."""
    try:
        start = datetime.fromisoformat(r.start_time.replace("Z", "+00:00"))
    except ValueError:
        return r.start_time
    if start.tzinfo is None:
        return start.strftime("%Y-%m-%d %H:%M")
    return start.astimezone(tz).strftime("%Y-%m-%d %H:%M")


def _post(
    r: ZoomRecording, what: str, message: Message, deps: Deps, client: WebClient, channel: str
) -> str | None:
    """Post `message` in `channel` once; its ts, or None when it was not posted."""
    refused = refusal_key(may_post(channel, client, deps))
    if refused is not None:
        logger.warning(
            "a Zoom recording's %s was not posted: %s is shared with another organisation"
            " (or Slack could not say whether it is)",
            what,
            channel,
        )
        record(deps.store, [AuditEvent("zoom", "refused:shared", r.candidate_id, channel)])
        return None
    marker = {"meeting_uuid": r.meeting_uuid, "file_id": r.file_id, "what": what}
    try:
        return post_once(
            client,
            channel,
            text=message.text,
            blocks=message.blocks,
            event_type=ZOOM_EVENT,
            marker=marker,
            since=time.time() - 600,
        )
    except PostUnknown:
        logger.warning("Slack did not say whether it took a Zoom recording's %s", what)
        return None
    except Exception as exc:
        logger.warning("could not post a Zoom recording's %s in %s: %s", what, channel, exc)
        return None


def post_arrival(
    r: ZoomRecording, outcome: Outcome, deps: Deps, client: WebClient, channel: str
) -> str | None:
    """A new interview's card in `channel`, once; its ts (None: not posted)."""
    message = indexed_message(outcome, deps, POSTED_BY)
    if message is None or outcome.candidate_id is None:
        return None
    ts = _post(r, "card", message, deps, client, channel)
    if ts is not None:
        deps.store.record_post(channel, ts, outcome.candidate_id, "summary")
        record(deps.store, [AuditEvent("zoom", "post:summary", outcome.candidate_id, channel)])
    return ts


def tell_admins(
    r: ZoomRecording,
    what: str,
    reason: str,
    deps: Deps,
    client: WebClient,
    channel: str,
) -> str | None:
    """Say once in `channel` that the recording of the meeting that started when `r`
    says was not taken: `what` is "refused" (the reader's `reason`) or "failed" (it
    could not be fetched: `reason` is what went wrong), escaped by the caller."""
    when = meeting_time(r, deps.tz)
    said = fit(reason, 1500)[0]
    message = notice(t(deps.locale, f"zoom_{what}", when=when, reason=said))
    return _post(r, what, message, deps, client, channel)
