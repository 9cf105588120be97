"""The one lookup of the bot's words, in Chinese and English. Each surface keeps its
words beside it, a table of key -> {"zh": …, "en": …}: Slack's in handlers/words/, why a
file gives no transcript beside the transcript grammar (store/transcripts/words.py,
data only: the store imports nothing of handlers/), the command line's and doctor's in
bot/words/, whose catalogue stands over this one. A key is defined once across them all
(tests/test_catalogue.py). Importing this loads no Bolt. Transcript text is never
translated."""

from __future__ import annotations

from collections.abc import Mapping

from store.models import Locale as Locale
from store.transcripts.errors import code_of
from store.transcripts.words import WORDS as REASONS

from .words import asking, cards, claims, decisions, home, loops, review, uploads

Table = Mapping[str, Mapping[Locale, str]]


class Catalogue:
    """The words of the tables each surface owns (and of the catalogue it stands over),
    and the one way to say one."""

    def __init__(self, *tables: Table, over: Catalogue | None = None) -> None:
        self.tables: tuple[Table, ...] = (*(over.tables if over else ()), *tables)
        self._words: dict[str, Mapping[Locale, str]] = {}
        for table in self.tables:
            self._words.update(table)

    def t(self, locale: Locale, key: str, **values: object) -> str:
        """The words for `key` in `locale`, with `values` in their places."""
        text = self._words[key][locale]
        return text.format(**values) if values else text

    def has(self, key: str) -> bool:
        """Whether the catalogue has words for `key`."""
        return key in self._words


CATALOGUE = Catalogue(
    cards.WORDS,
    decisions.WORDS,
    asking.WORDS,
    uploads.WORDS,
    home.WORDS,
    claims.WORDS,
    loops.WORDS,
    review.WORDS,
    REASONS,
)
"""Slack's words, and why a file gives no transcript."""

t = CATALOGUE.t
has = CATALOGUE.has


def reason_text(
    locale: Locale,
    english: str,
    code: str = "",
    params: Mapping[str, object] | None = None,
) -> str:
    """Why a file gives no transcript, in `locale`, with what to do: from its code
    (store/transcripts/errors.py; a declared reason's own by default) and values. A
    reason without words here is quoted as it was said."""
    code = code or code_of(english)
    if code.startswith("os_") and has(code):
        return t(locale, code)
    if code and has(f"why_{code}"):
        return t(locale, f"why_{code}", **(params or {}))
    return t(locale, "why_other", detail=english)
