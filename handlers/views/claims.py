"""Unsupported claims as lines (pure): one ⚠ line a claim, naming the sentence and the
questions left unanswered, in the team's language. Slack's lines escape the sentence
(it comes from a file or a reviewer); `plain` ones are for a terminal."""

from __future__ import annotations

from collections.abc import Sequence

from store.claims.check import Claim

from ..blocks import escape, fit
from ..i18n import Locale, t

SHOWN = 5  # claims listed in one place, the rest counted
TEXT_LIMIT = 120  # characters of the sentence quoted


def questions_text(numbers: Sequence[int], locale: Locale) -> str:
    """`问题2、问题3` / `Q2, Q3`."""
    return t(locale, "claim_join").join(t(locale, "claim_question", n=n) for n in numbers)


CARD_LIMIT = 40  # on the card, which fits a phone screen: the sentence's first words


def claim_line(c: Claim, locale: Locale, plain: bool = False, limit: int = TEXT_LIMIT) -> str:
    """`⚠ 点评说“……”，但问题2未作答`, the words that decided after it (not on the card:
    `limit` CARD_LIMIT)."""
    said = c.text.rstrip("。.！!；;")
    if plain:
        text = said if len(said) <= limit else said[: limit - 1] + "…"
    else:
        text = fit(said, limit)[0]
    line = t(
        locale,
        "claim_warning",
        source=t(locale, f"claim_source_{c.source}"),
        text=text,
        questions=questions_text(c.questions, locale),
    )
    if c.words and limit > CARD_LIMIT:
        shown = t(locale, "claim_join").join(c.words[:6])
        line += t(locale, "claim_words", words=shown if plain else escape(shown))
    return line


def claim_lines(
    claims: Sequence[Claim],
    locale: Locale,
    plain: bool = False,
    shown: int = SHOWN,
    limit: int = TEXT_LIMIT,
) -> list[str]:
    """A line a claim, at most `shown`, then how many more."""
    lines = [claim_line(c, locale, plain, limit) for c in claims[:shown]]
    if len(claims) > shown:
        lines.append(t(locale, "claim_more", count=len(claims) - shown))
    return lines


def reply_text(c: Claim, locale: Locale) -> str:
    """The ephemeral answer to a reviewer whose thread reply makes a claim."""
    return t(
        locale,
        "claim_reply",
        text=fit(c.text.rstrip("。.！!；;"), TEXT_LIMIT)[0],
        questions=questions_text(c.questions, locale),
        words=escape(t(locale, "claim_join").join(c.words[:6]) or "—"),
    )
