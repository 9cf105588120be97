"""What PostgreSQL's text search indexes of a candidate, and what it looks for (pure).

A candidate's `tsv` (a `tsvector` literal, `document`) is made of its indexed text
(`fulltext.indexed(t)[0]`: one script, as written), case-folded:

- every CJK bigram (`fulltext.CJK_RANGES`), at consecutive positions within a run of CJK
  characters, with one position left empty after each run: `分布，布式` holds 分布 at 1
  and 布式 at 3, so the phrase 分布式 (`'分布' <-> '布式'`) is not found in it;
- every other word: a run of letters or digits that are not CJK, with its trailing `#`
  or `+` (`c#`, `c++`), at the next position.

A query's terms (`fulltext.Term`) become one `tsquery` literal (`query`), all ANDed:

- a CJK term of 3+ characters: the phrase of its bigrams; of 2: that bigram; of 1: the
  bigrams starting with it (`'分':*`, as FTS5's prefix query on SQLite);
- a short Latin word (1-2 characters): that whole word, as on SQLite;
- any other term of 3+ characters: its words; one word is a prefix (`'tensor':*` finds
  tensorflow: SQLite finds any substring, a prefix is the closest a word index gives),
  several (`node.js`, `client/server`) the phrase of them.

PostgreSQL's limits are kept here, never by the server cutting or refusing a value:
positions 1..16383 (an occurrence after that is kept without a position: found by a
word, never by a phrase it cannot check), 256 positions a lexeme, a lexeme under 2 KB
(a longer "word" is not indexed), and the whole value under 1 MB (`_BUDGET`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..fulltext import CJK_RANGES, Term

MAX_POSITION = 16383  # tsvector's highest position
MAX_POSITIONS = 256  # positions a lexeme keeps
MAX_LEXEME_BYTES = 2046  # a lexeme must be under 2 KB (2047 bytes with its length)
# A tsvector's lexemes and positions must fit in 1 MB: lexemes are added, in the order
# they first occur, while this many bytes (each lexeme's bytes and a 4-byte entry, 2
# bytes a position) are not spent; the words first seen after that point are not
# searchable (a transcript of a hundred thousand distinct words, far beyond any interview).
_BUDGET = 900_000

_TOKENS = re.compile(f"([{CJK_RANGES}]+)|([^\\W_{CJK_RANGES}]+[#+]*)")
_WORDS = re.compile(f"[^\\W_{CJK_RANGES}]+[#+]*")


def quoted(lexeme: str) -> str:
    """A lexeme as both literals take it: in single quotes, quotes and backslashes doubled."""
    if "'" in lexeme or "\\" in lexeme:
        lexeme = lexeme.replace("\\", "\\\\").replace("'", "''")
    return f"'{lexeme}'"


def document(text: str) -> str:
    """The `tsvector` literal of a candidate's indexed text: each lexeme in the order it
    first occurs, with its positions (ascending)."""
    positions: dict[str, list[int]] = {}
    at = 1
    for run, word in _TOKENS.findall(text.casefold()):
        if word:
            positions.setdefault(word, []).append(at)
            at += 1
            continue
        for i in range(len(run) - 1):
            positions.setdefault(run[i : i + 2], []).append(at + i)
        at += len(run)  # its bigrams, then one empty position
    parts: list[str] = []
    spent = 0
    for lexeme, found in positions.items():
        size = len(lexeme.encode())
        if size > MAX_LEXEME_BYTES:
            continue
        kept = [p for p in found[:MAX_POSITIONS] if p <= MAX_POSITION]
        spent += size + 4 + 2 * len(kept)
        if spent > _BUDGET:
            break
        parts.append(quoted(lexeme) + (":" + ",".join(map(str, kept)) if kept else ""))
    return " ".join(parts)


def _term(term: Term) -> str | None:
    text = term.text.casefold()
    if term.kind == "short":
        return quoted(text)
    if re.fullmatch(f"[{CJK_RANGES}]+", text):
        if len(text) == 1:
            return quoted(text) + ":*"
        return _phrase([text[i : i + 2] for i in range(len(text) - 1)])
    words = _WORDS.findall(text)
    if not words or any(len(w.encode()) > MAX_LEXEME_BYTES for w in words):
        return None  # nothing indexed, or a word too long to be (`document`)
    if len(words) == 1:
        return quoted(words[0]) + ":*"
    return _phrase(words)


def _phrase(lexemes: list[str]) -> str:
    return quoted(lexemes[0]) if len(lexemes) == 1 else f"({' <-> '.join(map(quoted, lexemes))})"


def query(terms: Sequence[Term]) -> str | None:
    """The `tsquery` literal of terms that must all match; None when one of them holds
    nothing an index can look for (`@@@`): no candidate is shown as matching it."""
    parts = [_term(t) for t in terms]
    if not parts or None in parts:
        return None
    return " & ".join(p for p in parts if p)
