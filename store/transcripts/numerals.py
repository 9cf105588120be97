"""Numbers as people write them: `12`, `１２`, `十二`, `八十一`, `一百零三`.

One home for reading a question number, whether it comes from a transcript
(`问题十二：`), a slash command (`/candidate 问题 王磊 八十一`) or a thread reply
(`Q81: …`). Pure functions, no I/O.
"""

from __future__ import annotations

import unicodedata

CN_DIGITS = "零〇一二两兩三四五六七八九"
CN_UNITS = "十百"
CN_NUMERALS = CN_DIGITS + CN_UNITS
"""Every character a Chinese numeral up to the hundreds is written with, in either script
(`兩` is the traditional `两`; every other one is the same in both)."""

MAX_QUESTION = 10_000
"""No transcript has more questions than this; a bigger number is not a question."""

_DIGIT_VALUES = {ch: i for i, ch in enumerate("零一二三四五六七八九")}
_DIGIT_VALUES.update({"〇": 0, "两": 2, "兩": 2})
_UNIT_VALUES = {"十": 10, "百": 100}


def chinese_to_int(text: str) -> int | None:
    """Chinese numerals up to the hundreds: 十二 -> 12, 二十 -> 20, 一百零三 -> 103.

    None for anything else (an empty string, other characters)."""
    total, current, seen = 0, 0, False
    for ch in text:
        if ch in _DIGIT_VALUES:
            current, seen = _DIGIT_VALUES[ch], True
        elif ch in _UNIT_VALUES:
            total += (current or 1) * _UNIT_VALUES[ch]
            current, seen = 0, True
        else:
            return None
    return total + current if seen else None


def parse_number(token: str) -> int | None:
    """ASCII, full-width or Chinese digits -> int; None when it is not a number.

    Tokens longer than six characters are refused before any arithmetic, so a
    400-digit string costs nothing."""
    text = unicodedata.normalize("NFKC", token).strip()
    if not text or len(text) > 6:
        return None
    if text.isascii() and text.isdigit():
        return int(text)
    return chinese_to_int(text)


def parse_question_number(token: str) -> int | None:
    """A question number: 1 to MAX_QUESTION, written any of the ways above."""
    value = parse_number(token)
    return value if value is not None and 1 <= value <= MAX_QUESTION else None
