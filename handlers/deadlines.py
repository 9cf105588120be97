"""When a reviewer's decision is due: `<when>` as typed -> the end of that day in the
team's time zone (the workspace's own, else DEBRIEF_TIMEZONE), kept as a UTC ISO time
as the store keeps times.

Pure: the moment "now" is always handed in, so the day boundary is the configured
zone's (23:30 in Shanghai is still today there, whatever UTC says). What it reads:

- a date: `2026-12-04`, `2026/12/4`, `2026年12月4日`; without a year (`12月4日`,
  `12-04`, `12/4`, `Dec 4`) the next such date that is not in the past;
- a weekday: `周五`, `星期五`, `礼拜五`, `Friday`, `Fri`: the next one after today;
- `今天` / `today`, `明天` / `tomorrow`, `后天`; `3d`, `3天`, `3 days`: that many days on.

Nothing typed: `WORKING_DAYS` working days (Monday to Friday) after today. A dated day
already past is refused (`PAST`), anything else unreadable (`UNREADABLE`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from store.transcripts.dates import MONTHS

from .i18n import Locale, t

WORKING_DAYS = 2  # the default: two working days after today
MAX_DAYS = 366  # `400d` is no deadline anyone means: unreadable
END_OF_DAY = time(23, 59, 59, 999999)

Problem = Literal["unreadable", "past"]
UNREADABLE: Problem = "unreadable"
PAST: Problem = "past"

_WEEKDAYS_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_WEEKDAYS_EN = {
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tue": 1,
    "tues": 1,
    "wednesday": 2,
    "wed": 2,
    "thursday": 3,
    "thu": 3,
    "thur": 3,
    "thurs": 3,
    "friday": 4,
    "fri": 4,
    "saturday": 5,
    "sat": 5,
    "sunday": 6,
    "sun": 6,
}
_MONTHS_EN = MONTHS  # the names a transcript's date may give, the same here
_RELATIVE = {"今天": 0, "今日": 0, "today": 0, "明天": 1, "明日": 1, "tomorrow": 1, "后天": 2}

_FULL_DATE = re.compile(r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*[日号]?")
_MONTH_DAY = re.compile(r"(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*[日号]?")
_EN_MONTH_DAY = re.compile(r"([a-z]+)\.?\s*(\d{1,2})(?:st|nd|rd|th)?")
_DAYS = re.compile(r"(\d{1,4})\s*(?:d|day|days|天)")
_WEEKDAY_ZH = re.compile(r"(?:周|星期|礼拜)([一二三四五六日天])")
_BEFORE = re.compile(r"(?:之前|以前|前)$")  # `周五前`: by Friday, the same day


@dataclass(frozen=True)
class Due:
    """A deadline: the day (in the team's zone) and its end as a UTC ISO time."""

    day: date
    at: str


def today(now: datetime, tz: ZoneInfo) -> date:
    """The day it is in `tz` at `now` (an aware datetime)."""
    return now.astimezone(tz).date()


def end_of_day(day: date, tz: ZoneInfo) -> str:
    """23:59:59.999999 of `day` in `tz`, as the store keeps times (UTC ISO, microseconds)."""
    moment = datetime.combine(day, END_OF_DAY, tzinfo=tz)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def working_days_after(day: date, n: int) -> date:
    """The `n`th Monday-to-Friday after `day`."""
    found = 0
    while found < n:
        day += timedelta(days=1)
        if day.weekday() < 5:
            found += 1
    return day


def _next_month_day(month: int, day: int, since: date) -> date | None:
    """The first `month`/`day` on or after `since` (Feb 29: the next leap year's)."""
    for year in range(since.year, since.year + 9):
        try:
            found = date(year, month, day)
        except ValueError:
            if not 1 <= month <= 12 or not 1 <= day <= 31:
                return None
            continue
        if found >= since:
            return found
    return None


def read_day(text: str, on: date) -> date | None:
    """The day `text` names, read on the day `on`; None when it names none. A date
    with a year is returned even when it is past (the caller says so)."""
    words = unicodedata.normalize("NFKC", text).strip().lower()
    words = _BEFORE.sub("", words).strip()
    if not words:
        return None
    if words in _RELATIVE:
        return on + timedelta(days=_RELATIVE[words])
    if m := _DAYS.fullmatch(words):
        n = int(m.group(1))
        return on + timedelta(days=n) if n <= MAX_DAYS else None
    weekday = _WEEKDAYS_EN.get(words)
    if weekday is None and (m := _WEEKDAY_ZH.fullmatch(words)):
        weekday = _WEEKDAYS_ZH[m.group(1)]
    if weekday is not None:  # the next one after today: on a Friday, `周五` is next week's
        return on + timedelta(days=(weekday - on.weekday() - 1) % 7 + 1)
    if m := _FULL_DATE.fullmatch(words):
        try:
            return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        except ValueError:
            return None
    if m := _MONTH_DAY.fullmatch(words):
        return _next_month_day(int(m.group(1)), int(m.group(2)), on)
    if (m := _EN_MONTH_DAY.fullmatch(words)) and m.group(1) in _MONTHS_EN:
        return _next_month_day(_MONTHS_EN[m.group(1)], int(m.group(2)), on)
    return None


def deadline(text: str | None, now: datetime, tz: ZoneInfo) -> Due | Problem:
    """The deadline `text` names, asked at `now` (aware), ending its day in `tz`;
    nothing typed (None or blank): `WORKING_DAYS` working days after today."""
    on = today(now, tz)
    if text is None or not text.strip():
        day: date | None = working_days_after(on, WORKING_DAYS)
    else:
        day = read_day(text, on)
    if day is None:
        return UNREADABLE
    due = Due(day, end_of_day(day, tz))
    if due.at <= now.astimezone(UTC).isoformat(timespec="microseconds"):
        return PAST
    return due


def local_day(at: str, tz: ZoneInfo) -> date:
    """The day in `tz` of a UTC ISO time (a deadline's own day: it ends that day)."""
    return datetime.fromisoformat(at).astimezone(tz).date()


def day_text(day: date, locale: Locale, this_year: int) -> str:
    """`周五（12月4日）` / `Fri Dec 4`; the year too when it is not `this_year`."""
    values = {
        "weekday": t(locale, f"weekday_{day.weekday()}"),
        "month": t(locale, f"month_{day.month}"),
        "day": day.day,
        "year": day.year,
    }
    key = "due_day" if day.year == this_year else "due_day_year"
    return t(locale, key, **values)


def due_text(at: str, tz: ZoneInfo, locale: Locale, now: datetime) -> str:
    """A stored deadline (UTC ISO) as its day in the team's zone: `周五（12月4日）`."""
    return day_text(local_day(at, tz), locale, today(now, tz).year)


def utc_iso(now: datetime) -> str:
    """`now` as the store writes times, for comparing with them."""
    return now.astimezone(UTC).isoformat(timespec="microseconds")
