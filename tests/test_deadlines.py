"""Deadlines (handlers/deadlines.py): what is typed -> the end of that day in the team's
time zone, as a UTC ISO time. The clock is handed in: asked at 23:30 and at 00:30 local
time (a Thursday night and the Friday just after), in Shanghai (UTC+8) and Los Angeles
(UTC-8 in December), where the UTC day and the local day differ."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest

from handlers.deadlines import (
    PAST,
    UNREADABLE,
    Due,
    day_text,
    deadline,
    due_text,
    end_of_day,
    read_day,
    working_days_after,
)

ZONES = ["Asia/Shanghai", "America/Los_Angeles"]
THU, FRI = date(2026, 12, 3), date(2026, 12, 4)


def local(zone: str, day: date, hour: int, minute: int) -> datetime:
    """That local time, as the UTC instant a clock would give."""
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=ZoneInfo(zone)).astimezone(
        UTC
    )


# (typed, the day read on Thursday 23:30, the day read on Friday 00:30)
DAYS = [
    (None, date(2026, 12, 7), date(2026, 12, 8)),  # two working days: Mon after Thu, Tue after Fri
    ("今天", THU, FRI),
    ("today", THU, FRI),
    ("明天", FRI, date(2026, 12, 5)),
    ("Tomorrow", FRI, date(2026, 12, 5)),
    ("后天", date(2026, 12, 5), date(2026, 12, 6)),
    ("周五", FRI, date(2026, 12, 11)),  # the next Friday after today
    ("星期五", FRI, date(2026, 12, 11)),
    ("礼拜五", FRI, date(2026, 12, 11)),
    ("Friday", FRI, date(2026, 12, 11)),
    ("fri", FRI, date(2026, 12, 11)),
    ("周五前", FRI, date(2026, 12, 11)),
    ("周四", date(2026, 12, 10), date(2026, 12, 10)),
    ("星期天", date(2026, 12, 6), date(2026, 12, 6)),
    ("3d", date(2026, 12, 6), date(2026, 12, 7)),
    ("3天", date(2026, 12, 6), date(2026, 12, 7)),
    ("３天", date(2026, 12, 6), date(2026, 12, 7)),  # full-width digits
    ("3 days", date(2026, 12, 6), date(2026, 12, 7)),
    ("2026-12-04", FRI, FRI),
    ("2026/12/4", FRI, FRI),
    ("2026年12月4日", FRI, FRI),
    ("12月4日", FRI, FRI),  # no year: the next such date not in the past (today counts)
    ("12月4号", FRI, FRI),
    ("12-04", FRI, FRI),
    ("12/4", FRI, FRI),
    ("Dec 4", FRI, FRI),
    ("12月3日", THU, date(2027, 12, 3)),  # on Friday, Dec 3 is next year's
    ("1月5日", date(2027, 1, 5), date(2027, 1, 5)),
    ("2月29日", date(2028, 2, 29), date(2028, 2, 29)),  # the next leap year
]


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize(("typed", "thursday", "friday"), DAYS)
def test_the_day_is_the_team_zone_s_day_across_midnight(
    zone: str, typed: str | None, thursday: date, friday: date
) -> None:
    tz = ZoneInfo(zone)
    for asked, expected in (
        (local(zone, THU, 23, 30), thursday),
        (local(zone, FRI, 0, 30), friday),
    ):
        due = deadline(typed, asked, tz)
        assert isinstance(due, Due), (typed, asked, due)
        assert due.day == expected, (typed, asked)
        assert due.at == end_of_day(expected, tz)
        assert due.at > asked.isoformat()  # never already past


def test_the_end_of_the_day_is_kept_in_utc_as_the_store_keeps_times() -> None:
    assert end_of_day(FRI, ZoneInfo("Asia/Shanghai")) == "2026-12-04T15:59:59.999999+00:00"
    assert end_of_day(FRI, ZoneInfo("America/Los_Angeles")) == "2026-12-05T07:59:59.999999+00:00"
    # summer time: Los Angeles is UTC-7 in July
    assert end_of_day(date(2026, 7, 3), ZoneInfo("America/Los_Angeles")) == (
        "2026-07-04T06:59:59.999999+00:00"
    )


@pytest.mark.parametrize("zone", ZONES)
def test_a_dated_day_already_past_is_refused_at_the_local_midnight(zone: str) -> None:
    tz = ZoneInfo(zone)
    assert isinstance(deadline("2026-12-03", local(zone, THU, 23, 30), tz), Due)
    assert deadline("2026-12-03", local(zone, FRI, 0, 30), tz) == PAST
    assert deadline("2025-01-01", local(zone, FRI, 0, 30), tz) == PAST


@pytest.mark.parametrize(
    "typed",
    ["", "   "],
)
def test_nothing_typed_is_the_default(typed: str) -> None:
    tz = ZoneInfo("Asia/Shanghai")
    due = deadline(typed, local("Asia/Shanghai", THU, 12, 0), tz)
    assert isinstance(due, Due) and due.day == date(2026, 12, 7)


@pytest.mark.parametrize(
    "typed",
    ["下下周", "soon", "2026-13-01", "2月30日", "12月", "400d", "周八", "5", "friday 5pm", "3w"],
)
def test_what_names_no_day_is_unreadable(typed: str) -> None:
    tz = ZoneInfo("Asia/Shanghai")
    assert deadline(typed, local("Asia/Shanghai", THU, 12, 0), tz) == UNREADABLE
    assert read_day(typed, THU) is None


def test_working_days_skip_the_weekend() -> None:
    assert working_days_after(date(2026, 11, 30), 2) == date(2026, 12, 2)  # Mon -> Wed
    assert working_days_after(date(2026, 12, 5), 2) == date(2026, 12, 8)  # Sat -> Tue
    assert working_days_after(date(2026, 12, 6), 2) == date(2026, 12, 8)  # Sun -> Tue


def test_a_day_is_said_with_its_weekday_and_the_year_only_when_another() -> None:
    assert day_text(FRI, "zh", 2026) == "周五（12月4日）"
    assert day_text(FRI, "en", 2026) == "Fri Dec 4"
    assert day_text(date(2027, 1, 4), "zh", 2026) == "周一（2027年1月4日）"
    assert day_text(date(2027, 1, 4), "en", 2026) == "Mon Jan 4, 2027"
    tz = ZoneInfo("America/Los_Angeles")
    stored = end_of_day(FRI, tz)  # Dec 5 in UTC, Dec 4 in Los Angeles
    assert due_text(stored, tz, "en", local("America/Los_Angeles", THU, 23, 30)) == "Fri Dec 4"
