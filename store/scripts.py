"""繁體 and 简体 as one script: a traditional character and its simplified form are the
same letter to everything that matches text (the transcript grammar's labels, the
full-text index and its queries), while the text itself stays as written.

- `fold(text)`: every traditional character as its simplified form, one character for
  one character, so the folded text has the same length and offsets as the text (a
  match found in it is at the same place in the text). OpenCC's phrase conversion is
  not used: it is not one-for-one (its phrases may change a word's length) and it
  depends on the neighbours of a character, which a substring search cannot know.
- `letter(ch)`, `written(word)`: a regular expression that accepts a word in either
  script, each Chinese character a class of its forms (`岗` -> `[岗崗]`).

The table comes from OpenCC's own dictionaries (t2s, then hk2s for the few variants t2s
leaves as they are), converted one character at a time, when first used: nothing is
loaded when the bot starts. Only the CJK characters the full-text index cuts into
bigrams (`fulltext.CJK_RANGES`) are folded, and only into them, so a folded text is
indexed as the text was.

- `search_form(text)`: what the full-text index holds of a text and what a query is
  matched as, both made by this one function: each character in its compatibility form
  (NFKC: `ＴｅｎｓｏｒＦｌｏｗ` -> `TensorFlow`, `ﬁ` -> `fi`, `⾏` -> `行`, `①` -> `1`,
  `𝐀` -> `A`), case-folded (`Straße` -> `strasse`), then in one script (`fold`).
  Character by character (a table built once, `str.translate`), so a text and a query
  fold alike wherever they are cut; sequences of a letter and combining marks are left
  as they are (`e` + U+0301 is not `é`). It may change the length (`ﬁ` -> `fi`,
  `……` -> `......`): `search_form_mapped` says where each folded character came from.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache

# fulltext.CJK_RANGES, the characters a CJK term is made of
_RANGES = ((0x3400, 0x4DC0), (0x4E00, 0xA000), (0xF900, 0xFB00))
_CONFIGS = ("t2s", "hk2s")  # tw2s also turns the simplified 么 into 幺: not used


def _in_ranges(code: int) -> bool:
    return any(low <= code < high for low, high in _RANGES)


@cache
def _mapping() -> dict[int, int]:
    """Each traditional character's code -> its simplified character's code (two
    threads asking at once may both build it: the same table, ~25 ms)."""
    import opencc

    chars = [chr(code) for low, high in _RANGES for code in range(low, high)]
    mapping: dict[int, int] = {}
    for config in _CONFIGS:
        # one character a line: OpenCC's phrases never cross a line break
        converted = opencc.OpenCC(config).convert("\n".join(chars)).split("\n")
        if len(converted) != len(chars):  # pragma: no cover - a dictionary changed shape
            raise RuntimeError(f"OpenCC {config} changed the number of lines")
        for ch, out in zip(chars, converted, strict=True):
            code = ord(ch)
            if len(out) == 1 and out != ch and _in_ranges(ord(out)):
                mapping.setdefault(code, ord(out))
    for code, target in list(mapping.items()):  # 薴 -> 苧 -> 苎: folded once is folded
        seen = {code}
        while target in mapping and target not in seen:
            seen.add(target)
            target = mapping[target]
        mapping[code] = target
    return mapping


@cache
def _table() -> list[int]:
    """`str.translate`'s table for the Basic Multilingual Plane (a list is its fastest
    form); a character beyond it is left as it is."""
    table = list(range(0x10000))
    for code, target in _mapping().items():
        table[code] = target
    return table


def fold(text: str) -> str:
    """`text` in one script (simplified), character for character: same length."""
    if text.isascii():
        return text
    return text.translate(_table())


@cache
def _forms() -> dict[str, str]:
    """Each simplified character -> it and every character that folds to it."""
    forms: dict[str, set[str]] = {}
    for code, target in _mapping().items():
        forms.setdefault(chr(target), {chr(target)}).add(chr(code))
    return {ch: "".join(sorted(found)) for ch, found in forms.items()}


def letter(ch: str) -> str:
    """A pattern for one character in either script: `岗` -> `[岗崗]`, `a` -> `a`."""
    found = _forms().get(fold(ch))
    if found is None or len(found) == 1:
        return re.escape(ch)
    return "[" + found + "]"


def letters(chars: str) -> str:
    """The body of a character class holding `chars` in either script: `两一` -> `两兩一`."""
    kept: dict[str, None] = {}
    for ch in chars:
        kept[ch] = None
        for form in _forms().get(fold(ch), ""):
            kept[form] = None
    return "".join(kept)


def written(word: str, between: str = "") -> str:
    """A pattern for `word` in either script, with `between` (a pattern) allowed
    between its characters: `written("岗位")` -> `[岗崗][位]`."""
    return between.join(letter(ch) for ch in word)


# -- the search form: compatibility forms, case and script, character by character --------

# Where NFKC or case folding changes a character. The rest of the code points change
# under neither (the CJK ideographs, Hangul syllables, surrogates, private use, the
# planes past the compatibility ideographs: tests/test_search_form.py checks every one),
# so the table is built from these alone, in ~0.1 s on first use.
_COMPAT_RANGES = (
    (0x80, 0x3400),
    (0x4DC0, 0x4E00),
    (0xA000, 0xAC00),
    (0xD7A4, 0xD800),
    (0xF900, 0x20000),
    (0x2F800, 0x2FA20),
)


def _one_char(chars: list[str]) -> list[str]:
    """Each character's NFKC form, case-folded, in one script: normalized as one text
    with a line break between characters (a starter, so no character composes with or
    is reordered past its neighbour)."""
    return fold(unicodedata.normalize("NFKC", "\n".join(chars)).casefold()).split("\n")


@cache
def _search_forms() -> dict[int, str]:
    """Each character whose search form differs from it -> its search form."""
    chars = [chr(code) for low, high in _COMPAT_RANGES for code in range(low, high)]
    forms = {ord(ch): out for ch, out in zip(chars, _one_char(chars), strict=True) if out != ch}
    for code, target in _mapping().items():  # the ideographs not scanned: one script
        forms.setdefault(code, chr(target))
    forms.update((code, chr(code).lower()) for code in range(ord("A"), ord("Z") + 1))
    return forms


@cache
def _search_tables() -> tuple[list[int | str], dict[int, str]]:
    """`str.translate`'s tables: a list for the Basic Multilingual Plane (its fastest
    form; a character past it raises there and is left as it is), a dict for the few
    characters past it that change (mathematical letters, enclosed forms, compatibility
    ideographs)."""
    bmp: list[int | str] = list(range(0x10000))
    beyond: dict[int, str] = {}
    for code, out in _search_forms().items():
        if code < 0x10000:
            bmp[code] = ord(out) if len(out) == 1 else out
        else:
            beyond[code] = out
    return bmp, beyond


_BEYOND_BMP = re.compile("[\U00010000-\U0010ffff]")


def search_form(text: str) -> str:
    """`text` as the full-text index holds it and as a query is matched: each character
    in its compatibility form (NFKC), case-folded, in one script. The same function on
    both sides; not always the same length as `text` (`search_form_mapped`)."""
    if text.isascii():
        return text.lower()
    bmp, beyond = _search_tables()
    out = text.translate(bmp)
    if _BEYOND_BMP.search(out):
        out = out.translate(beyond)
    return out


@cache
def _resizing() -> re.Pattern[str]:
    """The characters whose search form is not one character, and any character past
    the Basic Multilingual Plane (looked up one at a time: they are few)."""
    codes = sorted(c for c, out in _search_forms().items() if len(out) != 1 and c < 0x10000)
    return re.compile("[" + "".join(re.escape(chr(c)) for c in codes) + "\U00010000-\U0010ffff]")


@dataclass(frozen=True)
class Mapped:
    """A text's search form, and where each of its characters came from in the text."""

    text: str
    starts: tuple[int, ...] = ()  # where in `text` each resized character's form starts
    origins: tuple[int, ...] = ()  # that character's index in the text as written
    widths: tuple[int, ...] = ()  # the length of its form

    def origin(self, at: int) -> int:
        """The index in the written text of the character that gave folded index `at`."""
        k = bisect_right(self.starts, at) - 1
        if k < 0:
            return at
        inside = at - self.starts[k]
        if inside < self.widths[k]:
            return self.origins[k]
        return self.origins[k] + 1 + inside - self.widths[k]

    def written(self, start: int, end: int) -> tuple[int, int]:
        """The span of the written text that gave the folded span [start, end): whole
        characters (a match inside `ﬁ`'s `fi` covers the `ﬁ`)."""
        if end <= start:
            at = self.origin(start) if start < len(self.text) else self._end()
            return at, at
        return self.origin(start), self.origin(end - 1) + 1

    def _end(self) -> int:
        return self.origin(len(self.text) - 1) + 1 if self.text else 0


def search_form_mapped(text: str) -> Mapped:
    """`search_form(text)`, with the way back to the text as written."""
    folded = search_form(text)
    if len(folded) == len(text):  # no character folds to none: each to exactly one
        return Mapped(folded)
    forms = _search_forms()
    starts: list[int] = []
    origins: list[int] = []
    widths: list[int] = []
    shift = 0
    for m in _resizing().finditer(text):
        at = m.start()
        width = len(forms.get(ord(text[at]), text[at]))
        if width == 1:
            continue
        starts.append(at + shift)
        origins.append(at)
        widths.append(width)
        shift += width - 1
    return Mapped(folded, tuple(starts), tuple(origins), tuple(widths))
