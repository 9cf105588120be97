"""The daily digest: what needs attention, once a day, in one channel.

Exactly once a day even with restarts, two bot processes or a clock jump: the day
is claimed in SQLite before posting and marked sent only once Slack accepted the
message; a failed post releases the claim so a later attempt can try again. A post
whose outcome Slack left unknown (5xx, dropped connection) is never repeated blindly:
the digest carries metadata (`debrief_digest`, its day) and is looked for in the
channel first. A digest missed while the bot was down goes out when it comes back,
that same day. Never in a channel shared with another organisation (Slack Connect),
unless allowed (DEBRIEF_ALLOW_SHARED_CHANNELS; a workspace's admins in App Home): that
day's digest is skipped and logged, and Slack not saying whether it is shared is a
failure the next run tries again (issue 34).
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from datetime import datetime, timedelta
from typing import Any, Literal

from slack_sdk import WebClient

from handlers.audit import AuditEvent, record
from handlers.blocks import Message
from handlers.people import UserNames
from handlers.review import hidden_lines, seen_by
from handlers.sending.posting import PostUnknown, find_posted, post_once
from handlers.shared import ask_sharing, unchecked
from handlers.views.lists import DIGEST_PER_CATEGORY, digest_view
from store.claims.counts import count_claims
from store.factory import Backend
from store.models import DIGEST_CATEGORIES, DigestData

from .settings import Settings

logger = logging.getLogger("debrief.digest")

Outcome = Literal["sent", "empty", "not_due", "already", "no_channel", "shared"]
STALE_CLAIM_S = 15 * 60  # a claim older than this belonged to a sender that died
DIGEST_EVENT = "debrief_digest"  # the metadata event type that marks a digest post


class Digester:
    def __init__(self, settings: Settings, store: Backend, client: WebClient | None) -> None:
        self.settings = settings
        self.store = store
        self.client = client
        self.claimer = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._lock = threading.Lock()
        self._scheduler: Any = None
        self.names = UserNames()  # who is overdue, by display name
        self._refused_on: str | None = None  # the day a shared channel was last logged

    def now(self) -> datetime:
        return datetime.now(self.settings.tz)

    def day(self, now: datetime) -> str:
        """The day it is at `now` in the team's time zone (the workspace's own)."""
        return now.astimezone(self.settings.tz).date().isoformat()

    def due(self, now: datetime) -> bool:
        hour, minute = (int(x) for x in self.settings.digest_time.split(":"))
        local = now.astimezone(self.settings.tz)
        return (local.hour, local.minute) >= (hour, minute)

    def data(self, now: datetime | None = None) -> DigestData:
        """What the digest says now: each category since the last digest, and the
        requests past their deadline at `now` (overdue feedback)."""
        now = now or self.now()
        since = self.store.last_digest_sent_at() or _utc_iso(now - timedelta(days=1))
        data = self.store.digest_data(since, DIGEST_PER_CATEGORY)
        on = self.settings.independent_review == "on"
        count_claims(  # what each candidate listed is credited with that went unanswered,
            # from the notes everyone in the channel may see (independent review)
            (line for category in DIGEST_CATEGORIES for line in getattr(data, category)),
            seen_by(self.store, None, on),
        )
        data.overdue, data.overdue_total = self.store.overdue_lines(
            _utc_iso(now), DIGEST_PER_CATEGORY
        )
        return data

    def compose(self, now: datetime | None = None) -> tuple[Message | None, str]:
        """The digest as it would be posted now (None when there is nothing to say)."""
        now = now or self.now()
        return self.render(self.data(now), now), self.day(now)

    def render(self, data: DigestData, now: datetime) -> Message | None:
        """`data` as one message (None when there is nothing to say). Reviewers overdue
        are named by their display names: the digest is a channel post, it pings no one."""
        if data.empty:
            return None
        label = (
            datetime.fromisoformat(data.since)
            .astimezone(self.settings.tz)
            .strftime("%Y-%m-%d %H:%M")
        )
        # independent review: a decided candidate someone asked has not decided on shows
        # who decided, not what (the channel's readers include the people asked)
        on = self.settings.independent_review == "on"
        hidden = hidden_lines(self.store, [x.id for x in data.decided], None, on)
        reviewers = [r.reviewer for _line, late in data.overdue for r in late]
        reviewers += [u for who in hidden.values() for u in who]
        people = self.names.lookup(self.client, reviewers) if self.client and reviewers else {}
        return digest_view(
            data,
            self.day(now),
            self.settings.locale,
            label,
            people=people,
            tz=self.settings.tz,
            hidden=hidden,
        )

    def run(self, now: datetime | None = None, force: bool = False) -> Outcome:
        """Post today's digest if it is due and nobody has; say what happened."""
        channel = self.settings.digest_channel
        if not channel:
            return "no_channel"
        now = now or self.now()
        if not force and not self.due(now):
            return "not_due"
        day = self.day(now)
        with self._lock:
            earlier = self.store.digest_status(day)  # an earlier attempt's outcome unknown?
            if not self.store.claim_digest(day, channel, self.claimer, STALE_CLAIM_S):
                return "already"
            claimed = time.time()
            try:
                message, _ = self.compose(now)
                if message is None:
                    self.store.finish_digest(day, self.claimer, None)
                    logger.info("digest %s: nothing to say, nothing posted", day)
                    return "empty"
                if self.client is None:
                    raise RuntimeError("no Slack client to post the digest with")
                if not self._may_post(channel, day):
                    self.store.release_digest(day, self.claimer)
                    return "shared"
                if earlier in {"posting", "unknown"}:
                    start_of_day = datetime.fromisoformat(day).replace(tzinfo=self.settings.tz)
                    ts = self._find(channel, day, start_of_day.timestamp())
                    if ts is not None:
                        logger.info("digest %s: an earlier attempt had posted it", day)
                        return self._sent(day, channel, ts)
                return self._post(day, channel, message, claimed)
            except BaseException:
                self.store.release_digest(day, self.claimer)  # not when marked unknown
                raise

    def _may_post(self, channel: str, day: str) -> bool:
        """Whether the digest may go to `channel`: not one shared with another organisation
        (unless allowed). Slack not saying is an error: the next run asks again."""
        assert self.client is not None
        if self.settings.allow_shared_channels or unchecked(channel):
            return True
        sharing = ask_sharing(channel, self.client)
        if sharing == "unknown":
            raise RuntimeError(f"cannot tell whether {channel} is shared with another organisation")
        if sharing != "shared":
            return True  # this organisation's (a channel the bot cannot see: the post says)
        logger.log(
            logging.WARNING if self._refused_on != day else logging.DEBUG,
            "digest %s not posted: %s is shared with another organisation (Slack Connect);"
            " DEBRIEF_ALLOW_SHARED_CHANNELS (installed in many workspaces: the workspace's"
            " settings) allows it",
            day,
            channel,
        )
        self._refused_on = day
        return False

    def _find(self, channel: str, day: str, since: float) -> str | None:
        assert self.client is not None
        return find_posted(self.client, channel, DIGEST_EVENT, {"day": day}, since)

    def _post(self, day: str, channel: str, message: Message, claimed: float) -> Outcome:
        """Post once. When Slack does not say whether it took the post (5xx, a dropped
        connection, a timeout), look for it in the channel rather than post it again; not
        found, the day is marked unknown and the next run looks again before posting."""
        assert self.client is not None
        try:
            ts = post_once(
                self.client,
                channel,
                text=message.text,
                blocks=message.blocks,
                event_type=DIGEST_EVENT,
                marker={"day": day},
                since=claimed,
            )
        except PostUnknown as unknown:
            self.store.mark_digest_unknown(day, self.claimer)
            raise (unknown.__cause__ or unknown) from None  # what Slack (or the network) said
        return self._sent(day, channel, ts)

    def _sent(self, day: str, channel: str, ts: str) -> Outcome:
        self.store.finish_digest(day, self.claimer, ts)
        record(self.store, [AuditEvent("debrief", "post:digest", None, channel)])
        logger.info("digest %s posted", day)
        return "sent"

    def run_safely(self, now: datetime | None = None) -> None:
        try:
            outcome = self.run(now)
            logger.debug("digest run: %s", outcome)
        except Exception:
            logger.exception("the digest could not be posted; the next run will try again")

    def start(self) -> None:
        """Schedule the digest daily, and post one now if today's was missed."""
        from .schedule import daily

        self._scheduler = daily(
            self.run_safely, self.settings.tz, self.settings.digest_time, "digest"
        )

    def stop(self) -> None:
        if self._scheduler is not None:
            self._scheduler.shutdown(wait=False)


def _utc_iso(moment: datetime) -> str:
    from datetime import UTC

    return moment.astimezone(UTC).isoformat(timespec="microseconds")
