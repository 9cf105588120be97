"""The daily digest: what needs attention, once a day, in one channel.

Exactly once a day even with restarts, two bot processes or a clock jump: the day
is claimed in SQLite before posting and marked sent only once Slack accepted the
message; a failed post releases the claim so a later attempt can try again. A
digest missed while the bot was down goes out when it comes back, that same day.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from datetime import datetime, timedelta
from typing import Any, Literal

from slack_sdk import WebClient

from handlers.audit import AuditEvent, record
from handlers.blocks import Message
from handlers.views import DIGEST_PER_CATEGORY, digest_view
from store.db import Store

from .settings import Settings

logger = logging.getLogger("debrief.digest")

Outcome = Literal["sent", "empty", "not_due", "already", "no_channel"]
STALE_CLAIM_S = 15 * 60  # a claim older than this belonged to a sender that died


class Digester:
    def __init__(self, settings: Settings, store: Store, client: WebClient | None) -> None:
        self.settings = settings
        self.store = store
        self.client = client
        self.claimer = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._lock = threading.Lock()
        self._scheduler: Any = None

    def now(self) -> datetime:
        return datetime.now(self.settings.tz)

    def day(self, now: datetime) -> str:
        return now.date().isoformat()

    def due(self, now: datetime) -> bool:
        hour, minute = (int(x) for x in self.settings.digest_time.split(":"))
        return (now.hour, now.minute) >= (hour, minute)

    def compose(self, now: datetime | None = None) -> tuple[Message | None, str]:
        """The digest as it would be posted now (None when there is nothing to say)."""
        now = now or self.now()
        since = self.store.last_digest_sent_at() or _utc_iso(now - timedelta(days=1))
        data = self.store.digest_data(since, DIGEST_PER_CATEGORY)
        if data.empty:
            return None, self.day(now)
        label = (
            datetime.fromisoformat(since).astimezone(self.settings.tz).strftime("%Y-%m-%d %H:%M")
        )
        return digest_view(data, self.day(now), self.settings.locale, label), self.day(now)

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
            if not self.store.claim_digest(day, channel, self.claimer, STALE_CLAIM_S):
                return "already"
            try:
                message, _ = self.compose(now)
                if message is None:
                    self.store.finish_digest(day, self.claimer, None)
                    logger.info("digest %s: nothing to say, nothing posted", day)
                    return "empty"
                if self.client is None:
                    raise RuntimeError("no Slack client to post the digest with")
                response = self.client.chat_postMessage(
                    channel=channel,
                    text=message.text,
                    blocks=message.blocks,
                    unfurl_links=False,
                    unfurl_media=False,
                )
                self.store.finish_digest(day, self.claimer, str(response.get("ts") or "?"))
                record(self.store, [AuditEvent("debrief", "post:digest", None, channel)])
                logger.info("digest %s posted", day)
                return "sent"
            except BaseException:
                self.store.release_digest(day, self.claimer)
                raise

    def run_safely(self) -> None:
        try:
            outcome = self.run()
            logger.debug("digest run: %s", outcome)
        except Exception:
            logger.exception("the digest could not be posted; the next run will try again")

    def start(self) -> None:
        """Schedule the digest daily, and post one now if today's was missed."""
        from apscheduler.schedulers.background import BackgroundScheduler
        from apscheduler.triggers.cron import CronTrigger
        from apscheduler.triggers.interval import IntervalTrigger

        hour, minute = (int(x) for x in self.settings.digest_time.split(":"))
        scheduler = BackgroundScheduler(timezone=self.settings.tz)
        scheduler.add_job(
            self.run_safely,
            CronTrigger(hour=hour, minute=minute, timezone=self.settings.tz),
            id="digest",
            coalesce=True,
            max_instances=1,
            misfire_grace_time=None,
        )
        # Catch-up and retry: cheap when today's digest is already recorded.
        scheduler.add_job(
            self.run_safely,
            IntervalTrigger(minutes=5, timezone=self.settings.tz),
            id="digest-catch-up",
            coalesce=True,
            max_instances=1,
            next_run_time=datetime.now(self.settings.tz),
        )
        scheduler.start()
        self._scheduler = scheduler

    def stop(self) -> None:
        if self._scheduler is not None:
            self._scheduler.shutdown(wait=False)


def _utc_iso(moment: datetime) -> str:
    from datetime import UTC

    return moment.astimezone(UTC).isoformat(timespec="microseconds")
