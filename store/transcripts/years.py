"""Years of experience as people write them: `1年半`, `应届`, `3-5年`, `5+ years`, `十年以上`.
A pure function, used by the parser.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from ..scripts import fold
from .numerals import CN_NUMERALS, chinese_to_int

MAX_YEARS = 80
_YEARS_NUM = rf"[0-9]{{1,6}}(?:\.[0-9]{{1,3}})?|[{CN_NUMERALS}]{{1,8}}|半"
_years_re = cache(
    lambda: re.compile(
        # (runs of white space possessive, `\s*+`: never two runs side by side to split)
        r"^(?:工作|从业|工龄)?\s*+"
        r"(?:(?:约|大约|大概|近|将近|接近|超过|逾|满|共|已|有|累计|差不多|至少|"
        r"about|around|over|more\s++than|at\s++least|nearly|almost|approx\.?|~|≈|>=?|≥)\s*+)?"
        rf"(?P<a>{_YEARS_NUM})(?:余|几|多)?"  # 十余年, 十几年: the number itself
        rf"(?:\s*+(?:-|~|–|—|到|至|to)\s*+(?:{_YEARS_NUM}))?"  # a range: its lower bound
        r"\s*+(?:\+\s*+)?"
        r"(?:(?P<year>年半|个半?年|年|years?|yrs?|y(?![a-z]))(?:\s*+\+)?"
        rf"(?:\s*+(?:[,，]\s*+)?(?:and\s*+)?零?\s*+(?P<m>[0-9]{{1,2}}|[{CN_NUMERALS}]{{1,3}})"
        r"\s*+(?:个?月|months?|mos?(?![a-z])|m(?![a-z]))|(?P<half>半))?"
        r"|(?P<month>个月|月|months?|mos?(?![a-z])))?"
        r"(?P<after>.?)",
        re.IGNORECASE,
    )
)
# `1年以内`, `3年以下`, `5年内`, `2年不到`: an upper bound, no number of years to show.
_at_most_re = cache(lambda: re.compile(r"\s*+(?:以内|以下|之内|内(?!部)|不到|不足|未满)"))
# English number words, read as digits: `two years`, `Three years of experience`.
_ENGLISH_NUMBERS = {
    w: str(i)
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
}
_english_number_re = cache(lambda: re.compile(r"\b(" + "|".join(_ENGLISH_NUMBERS) + r")\b"))
# "Less than N years" has no lower bound worth showing: unknown, the text says the rest.
_less_than_re = cache(
    lambda: re.compile(r"^(?:不到|不足|少于|低于|未满|less\s+than|under|<)", re.IGNORECASE)
)
_ZERO_YEARS = (
    "应届",
    "在校",
    "在读",
    "实习生",
    "无经验",
    "无工作经验",
    "没有经验",
    "没有工作经验",
    "零经验",
    "刚毕业",
    "fresh graduate",
    "new grad",
    "no experience",
    "student",
)


def _years_number(token: str) -> float | None:
    if token == "半":
        return 0.5
    if token[0].isdigit():
        return float(token)
    value = chinese_to_int(token)
    return float(value) if value is not None else None


def parse_years(text: str) -> float | None:
    """Years of experience as people write them, to one decimal; None when unknown.

    `3年` -> 3, `五年` -> 5, `1年半` -> 1.5, `半年` -> 0.5, `3年6个月` -> 3.5,
    `18个月` -> 1.5, `3-5年` -> 3 (the lower bound), `十年以上` / `5+ years` -> the
    number, `应届` / `应届生` / `在校` -> 0, `不详` / `不到1年` -> None. Traditional
    characters read as their simplified forms: `兩年`, `應屆`, `三年六個月`."""
    norm = fold(unicodedata.normalize("NFKC", text).strip().lower())
    if not norm or _less_than_re().match(norm):
        return None
    norm = _english_number_re().sub(lambda w: _ENGLISH_NUMBERS[w[1]], norm)
    m = _years_re().match(norm)
    value: float | None = None
    if m and _at_most_re().match(norm, m.start("after")):
        return None
    if m and not (m["after"] and m["after"].isalnum() and not m["year"] and not m["month"]):
        # (a bare number followed by a word, as in `2024届`, is no number of years)
        value = _years_number(m["a"])
        if value is not None:
            if m["year"] in ("年半", "个半年") or m["half"]:
                value += 0.5
            if m["m"]:
                months = _years_number(m["m"])
                value = value + months / 12 if months is not None and months < 12 else None
            if value is not None and m["month"]:
                value /= 12
    if value is None:
        compact = " ".join(norm.split())
        return 0.0 if any(word in compact for word in _ZERO_YEARS) else None
    value = round(value, 1)
    return value if 0 <= value <= MAX_YEARS else None
