"""The jobs' ways of being scheduled. The daily ones (the digest, the reminders): at a time of
day in the team's time zone, and every few minutes besides, so that a run missed while
the process was down (or one that failed) happens when it is back, the same day. The
job itself decides whether today's run is due and whether it was done (its claim)."""

from __future__ import annotations

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
