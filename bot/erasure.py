"""Erasing candidates, always the same way: one on request (`debrief forget`), or every
one kept longer than DEBRIEF_RETENTION_DAYS (`debrief retention`, and the daily job
`serve` runs).

Erasing is the store's `forget` (the candidate and everything recorded about them, in
one transaction; the audit keeps a pseudonym), then the transcript files shared in
Slack are overwritten and deleted, then the erasure itself is audited.

A retention policy counts from the interview's date (a date in the team's time zone,
DEBRIEF_TIMEZONE) or, when the transcript gives none, from when its file was first
indexed; a candidate whose file was removed while reviews remain counts from the
removal. "Older than N days" means before the start of the day N days ago.
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime, time, timedelta
from typing import Any

from handlers.audit import AuditEvent, record
from handlers.uploads import erase_files
from store.audit import Expired
from store.factory import Backend

from .settings import Settings

logger = logging.getLogger("debrief.retention")

RETENTION_ACTION = "forget:retention"  # the audit's word for an erasure by the policy
CHECK_EVERY_S = 3600  # how often serve asks whether today's run is still to do


def erase(store: Backend, candidate_id: str, actor: str, action: str) -> dict[str, int] | None:
    """Forget one candidate as `debrief forget` does; what was removed, None when nothing
    at all was known about them."""
    counts = store.forget(candidate_id)
    if counts is None:
        return None
    erase_files(store.forget_uploads(candidate_id))  # transcripts shared in Slack
    record(store, [AuditEvent(actor, action, candidate_id)])
    return counts


def cutoff(settings: Settings, days: int, now: datetime | None = None) -> tuple[str, str]:
    """The start of the day `days` days ago in DEBRIEF_TIMEZONE: as that local date
    (interview dates are compared with it) and as a UTC time (the store's own times)."""
    local = (now or datetime.now(UTC)).astimezone(settings.tz)
    day = local.date() - timedelta(days=days)
    midnight = datetime.combine(day, time(0), tzinfo=settings.tz)
    return day.isoformat(), midnight.astimezone(UTC).isoformat(timespec="microseconds")


def due(
    store: Backend, settings: Settings, days: int, now: datetime | None = None
) -> list[Expired]:
    """Who a policy of `days` days erases now."""
    before_day, before = cutoff(settings, days, now)
    return store.expired(before_day, before)


def apply(
    store: Backend,
    settings: Settings,
    days: int,
    actor: str,
    now: datetime | None = None,
    stopping: threading.Event | None = None,
) -> list[Expired]:
    """Erase everyone a policy of `days` days erases now (until `stopping` is set, when
    the rest wait for the next run); those it erased."""
    gone: list[Expired] = []
    for expired in due(store, settings, days, now):
        if stopping is not None and stopping.is_set():
            break
        if erase(store, expired.id, actor, RETENTION_ACTION) is not None:
            gone.append(expired)
    if gone:
        logger.info("retention: forgot %d candidates older than %d days", len(gone), days)
    return gone


class RetentionJob:
    """DEBRIEF_RETENTION_DAYS applied once a day while `serve` runs, on one replica: the
    first check of each day (in DEBRIEF_TIMEZONE) claims the day in the database and
    runs; a failed run gives the day back, so the next check tries again."""

    def __init__(self, settings: Settings, store: Backend) -> None:
        assert settings.retention_days is not None
        self.settings = settings
        self.store = store
        self.days = settings.retention_days
        self._scheduler: Any = None
        self._stopping = threading.Event()

    def run(self, now: datetime | None = None) -> list[Expired] | None:
        """Today's run, if nobody has done it; None when it was done already."""
        moment = (now or datetime.now(UTC)).astimezone(self.settings.tz)
        day = moment.date().isoformat()
        if not self.store.claim_retention(day):
            return None
        try:
            gone = apply(self.store, self.settings, self.days, "debrief", moment, self._stopping)
        except BaseException:
            self.store.release_retention(day)
            raise
        if self._stopping.is_set():  # cut short: the next start finishes the day
            self.store.release_retention(day)
        return gone

    def run_safely(self) -> None:
        try:
            gone = self.run()
            if gone is None:
                logger.info("retention: today's run was done already (here or by a replica)")
            elif not gone:
                logger.info("retention: nobody is older than %d days", self.days)
        except Exception:
            logger.exception("retention: the daily run failed; the next check tries again")

    def start(self) -> RetentionJob:
        from apscheduler.schedulers.background import BackgroundScheduler
        from apscheduler.triggers.interval import IntervalTrigger

        scheduler = BackgroundScheduler(timezone=self.settings.tz)
        scheduler.add_job(
            self.run_safely,
            IntervalTrigger(seconds=CHECK_EVERY_S, timezone=self.settings.tz),
            id="retention",
            coalesce=True,
            max_instances=1,
            next_run_time=datetime.now(self.settings.tz),
        )
        scheduler.start()
        self._scheduler = scheduler
        return self

    def stop(self) -> None:
        """No new run; a run under way stops after the candidate it is erasing."""
        self._stopping.set()
        if self._scheduler is not None:
            self._scheduler.shutdown(wait=True)
