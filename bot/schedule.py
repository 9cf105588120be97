"""The jobs' ways of being scheduled. The daily ones (the digest, the reminders): at a time of
day in the team's time zone, and every few minutes besides, so that a run missed while
the process was down (or one that failed) happens when it is back, the same day. The
job itself decides whether today's run is due and whether it was done (its claim).
Work that is due at any moment (an event to hand over, a transcript to fetch): a
`DueLoop`."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

CATCH_UP_MINUTES = 5


def daily(
    run: Callable[[], None],
    tz: ZoneInfo,
    at: str,
    name: str,
    day_of_week: str | None = None,
) -> Any:
    """A started scheduler calling `run` at `at` (HH:MM in `tz`) on `day_of_week` (cron's
    words, such as `mon-fri`; None: every day), and every CATCH_UP_MINUTES from now on;
    stop it with `shutdown()`."""
    from apscheduler.schedulers.background import BackgroundScheduler
    from apscheduler.triggers.cron import CronTrigger
    from apscheduler.triggers.interval import IntervalTrigger

    hour, minute = (int(x) for x in at.split(":"))
    scheduler = BackgroundScheduler(timezone=tz)
    days = {} if day_of_week is None else {"day_of_week": day_of_week}
    scheduler.add_job(
        run,
        CronTrigger(hour=hour, minute=minute, timezone=tz, **days),
        id=name,
        coalesce=True,
        max_instances=1,
        misfire_grace_time=None,
    )
    # Catch-up and retry: cheap when today's run is already recorded.
    scheduler.add_job(
        run,
        IntervalTrigger(minutes=CATCH_UP_MINUTES, timezone=tz),
        id=f"{name}-catch-up",
        coalesce=True,
        max_instances=1,
        next_run_time=datetime.now(tz),
    )
    scheduler.start()
    return scheduler


def every(run: Callable[[], None], tz: ZoneInfo, seconds: float, name: str) -> Any:
    """A started scheduler calling `run` now and every `seconds` after, one run at a time
    (a run that overlaps the next is not doubled); stop it with `shutdown()`."""
    from apscheduler.schedulers.background import BackgroundScheduler
    from apscheduler.triggers.interval import IntervalTrigger

    scheduler = BackgroundScheduler(timezone=tz)
    scheduler.add_job(
        run,
        IntervalTrigger(seconds=seconds, timezone=tz),
        id=name,
        coalesce=True,
        max_instances=1,
        next_run_time=datetime.now(tz),
    )
    scheduler.start()
    return scheduler


class DueLoop:
    """A thread that does whatever work is due, again and again, from `start()` to
    `stop()`: `due` does it and says how long to wait before looking again; `wake()`
    makes it look at once. The database away (StoreError) or anything else raised is
    logged and tried again after `poll_s`. Its users: the ATS's deliverer
    (bot/webhook.py) and Zoom's fetcher (bot/zoom.py)."""

    def __init__(
        self, due: Callable[[], float], poll_s: float, name: str, log: logging.Logger
    ) -> None:
        self.due = due
        self.poll_s = poll_s
        self._name = name
        self._log = log
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def start(self) -> bool:
        """Start the thread; False when it was running already."""
        if self._thread is not None:
            return False
        self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
        self._thread.start()
        return True

    def wake(self) -> None:
        """Look for due work now."""
        self._wake.set()

    def _run(self) -> None:
        from store.errors import StoreError

        while not self._stopping.is_set():
            self._wake.clear()
            try:
                wait = self.due()
            except StoreError as exc:  # the database is busy or away: it comes back
                wait = self.poll_s
                self._log.warning(
                    "cannot read the work due (%s): trying again in %.0f s", exc, wait
                )
            except Exception:
                wait = self.poll_s
                self._log.exception("the work due failed; trying again in %.0f s", wait)
            if wait > 0:
                self._wake.wait(wait)

    def stop(self, timeout: float) -> None:
        """No new round; one under way has `timeout` seconds to finish."""
        self._stopping.set()
        self._wake.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=timeout)
