"""When the interview was: `2026年11月28日 14:30`, `Nov 28, 2026 2:30 pm`, read, never
guessed. A pure function, used by the parser; the month names by handlers/deadlines.py.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date
from functools import cache

from ..scripts import fold

MONTHS = {
    # English month names and their abbreviations -> the month's number
    m: i
    for i, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ],
        start=1,
    )
    for m in names
}
_MONTH_NAME = "|".join(sorted(MONTHS, key=len, reverse=True))
# A four-digit year always: `26-11-28` or `11/28/2026` could be read more than one way.
_date_res = cache(
    lambda: (
        re.compile(
            r"(?P<y>[0-9]{4})\s*(?P<sep>[-/.])\s*(?P<m>[0-9]{1,2})\s*(?P=sep)\s*(?P<d>[0-9]{1,2})"
        ),
        re.compile(r"(?P<y>[0-9]{4})\s*年\s*(?P<m>[0-9]{1,2})\s*月\s*(?P<d>[0-9]{1,2})\s*[日号]?"),
        re.compile(
            rf"(?P<mon>{_MONTH_NAME})\.?\s*(?P<d>[0-9]{{1,2}})(?:st|nd|rd|th)?\s*,?\s*(?P<y>[0-9]{{4}})"
        ),
        re.compile(
            rf"(?P<d>[0-9]{{1,2}})(?:st|nd|rd|th)?\s+(?P<mon>{_MONTH_NAME})\.?\s*,?\s*(?P<y>[0-9]{{4}})"
        ),
    )
)
_WEEKDAYS = {
    **{
        f"{prefix}{day}": i
        for prefix in ("周", "星期", "礼拜")
        for i, day in enumerate("一二三四五六")
    },
    **{f"{prefix}{day}": 6 for prefix in ("周", "星期", "礼拜") for day in "日天"},
    **{
        name: i
        for i, names in enumerate(
            [
                ("mon", "monday"),
                ("tue", "tues", "tuesday"),
                ("wed", "wednesday"),
                ("thu", "thur", "thurs", "thursday"),
                ("fri", "friday"),
                ("sat", "saturday"),
                ("sun", "sunday"),
            ]
        )
        for name in names
    },
}
_weekday_re = cache(
    lambda: re.compile(
        r"[(（]?\s*+(?P<w>"
        + "|".join(sorted(map(re.escape, _WEEKDAYS), key=len, reverse=True))
        + r")(?![a-z])\.?(?:\s*+[)）])?"
    )
)
_PERIOD = r"上午|早上|早晨|凌晨|中午|下午|晚上|傍晚|am|a\.m\.|pm|p\.m\."
_time_re = cache(
    lambda: re.compile(
        rf"(?:(?P<p1>{_PERIOD})\s*)?"
        r"(?:(?P<h>[0-9]{1,2})\s*:\s*(?P<mi>[0-9]{2})(?:\s*:\s*(?P<s>[0-9]{2}))?"
        r"|(?P<hc>[0-9]{1,2})\s*[点时](?:\s*(?P<mic>[0-9]{1,2})\s*分?|\s*(?P<half>半))?)"
        rf"(?:\s*(?P<p2>{_PERIOD}))?"
    )
)
# `14:00-15:00`, `14:00 至 15:00`: the interview's start is its time.
_until_re = cache(lambda: re.compile(r"\s*+(?:-|–|—|~|～|至|到|to)\s*+"))
_MORNING = ("上午", "早上", "早晨", "am", "a.m.")
_EVENING = ("晚上", "傍晚")


def _clock(m: re.Match[str]) -> str | None:
    """A time of day as `HH:MM` (`HH:MM:SS` when seconds are given); None when it is no
    time (25:00, 14:75), when its half of the day contradicts it (上午 15 点), or when
    it could be noon or midnight (晚上12点)."""
    hour = int(m["h"] or m["hc"])
    minute = int(m["mi"] or m["mic"] or (30 if m["half"] else 0))
    second = int(m["s"]) if m["s"] else None
    if m["p1"] and m["p2"]:
        return None
    period = (m["p1"] or m["p2"] or "").lower()
    if period and hour == 0:
        return None  # `下午0点`
    if period and hour > 12:  # `下午14:30`: said twice, the same
        hour = hour if period not in (*_MORNING, "凌晨", "中午") else -1
    elif period in ("am", "a.m."):
        hour = 0 if hour == 12 else hour
    elif period in ("pm", "p.m."):
        hour = hour if hour == 12 else hour + 12
    elif period == "凌晨":
        hour = 0 if hour == 12 else hour if hour <= 6 else -1
    elif period in _MORNING:
        hour = hour if hour < 12 else -1
    elif period == "中午":
        hour = hour if hour in (11, 12) else hour + 12 if 1 <= hour <= 2 else -1
    elif period:  # 下午, 晚上
        hour = -1 if hour == 12 and period in _EVENING else hour if hour == 12 else hour + 12
    if not (0 <= hour <= 23 and 0 <= minute <= 59 and (second is None or 0 <= second <= 59)):
        return None
    return f"{hour:02d}:{minute:02d}" + (f":{second:02d}" if second is not None else "")


def parse_interview_date(text: str) -> str | None:
    """When an interview was, as ISO 8601: `2026-11-28`, or `2026-11-28T14:30` when a
    time is given. Read, never guessed: None for anything that is not a whole date of
    the calendar with a four-digit year (`下周二`, `11月28日`, `26-11-28`, `2026-02-30`,
    `25:00`), and None when a weekday given alongside does not fall on the date.

    `2026-11-28`, `2026/11/28`, `2026.11.28`, `2026年11月28日`, `Nov 28, 2026`, each
    with or without a time (`14:30`, `14:30:00`, `14点30分`, `下午2点`, `2:30 pm`), a
    weekday (`（周六）`, `Sat`) or the end of a time range (`14:00-15:00`); in either
    script (`2026年11月28日 下午2點`, `（週六）`)."""
    norm = fold(" ".join(unicodedata.normalize("NFKC", text).lower().split()))
    if not norm or len(norm) > 80:
        return None
    for date_re in _date_res():
        dm = date_re.match(norm)
        if dm is not None:
            break
    else:
        return None
    month = MONTHS[dm["mon"]] if "mon" in dm.groupdict() and dm["mon"] else int(dm["m"])
    try:
        day = date(int(dm["y"]), month, int(dm["d"]))
    except ValueError:
        return None  # 2026-02-30, month 13
    if not 1900 <= day.year <= 2100:
        return None
    rest, clock, weekday = norm[dm.end() :], None, None
    if rest[:1] == "t" and rest[1:2].isdigit():
        rest = rest[1:]  # `2026-11-28T14:30`
    while rest.strip(" ,，"):
        rest = rest.lstrip(" ,，")
        wm = _weekday_re().match(rest)
        if wm is not None and weekday is None:
            weekday = _WEEKDAYS[wm["w"]]
            rest = rest[wm.end() :]
            continue
        tm = _time_re().match(rest)
        if tm is not None and clock is None:
            clock = _clock(tm)
            if clock is None:
                return None
            rest = rest[tm.end() :]
            until = _until_re().match(rest)
            if until is not None:
                end = _time_re().match(rest, until.end())
                if end is None or _clock(end) is None:
                    return None
                rest = rest[end.end() :]
            continue
        return None  # something else follows the date: not read
    if weekday is not None and weekday != day.weekday():
        return None
    return day.isoformat() + (f"T{clock}" if clock else "")
