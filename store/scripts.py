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
"""

from __future__ import annotations

import re
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
