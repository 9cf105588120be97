"""Where Slack would show a mrkdwn marker instead of its formatting: `*bold*`, `_italic_`
and `` `code` `` do not render against Chinese characters (tests/test_views.py checks
every view with it)."""

from __future__ import annotations

MARKERS = "*_`"


def is_cjk(ch: str) -> bool:
    """A Chinese (or Japanese, Korean) character or CJK / full-width punctuation."""
    code = ord(ch)
    return (
        0x2E80 <= code <= 0x9FFF  # radicals, punctuation (、。「」), kana, CJK ideographs
        or 0xAC00 <= code <= 0xD7AF  # Hangul
        or 0xF900 <= code <= 0xFAFF  # compatibility ideographs
        or 0xFE30 <= code <= 0xFE4F  # CJK compatibility forms
        or 0xFF00 <= code <= 0xFFEF  # full-width forms: （），：！？
        or 0x20000 <= code <= 0x3FFFF  # extension ideographs
        or ch in "“”‘’…—·"
    )


def marker_problems(text: str) -> list[str]:
    """Where a mrkdwn marker (`*`, `_`, `` ` ``) touches a CJK character while its other side
    is not a space or the line's edge: Slack then shows the marker, not the formatting
    (`低级*分布式*编程`, `（`000`）`). Each problem is a short excerpt around the marker."""
    problems: list[str] = []
    for i, ch in enumerate(text):
        if ch not in MARKERS:
            continue
        left = text[i - 1] if i > 0 else ""
        right = text[i + 1] if i + 1 < len(text) else ""
        sides = [c for c in (left, right) if c]
        if (
            any(is_cjk(c) for c in sides)
            and len(sides) == 2
            and not any(c.isspace() for c in sides)
        ):
            problems.append(text[max(0, i - 8) : i + 9])
    return problems
