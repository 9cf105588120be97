"""How many times each of some search terms occurs in one indexed text, counted as the
two FTS5 tables count it (pure: the text in, counts out).

The store keeps, for the terms searched in a space, each matching candidate's count
and size (store/sqlite/kept.py), so that bm25 over every match is read from a few
arrays instead of FTS5's position lists. Those counts must be FTS5's own:

- a trigram term (3+ characters) is a phrase of trigrams in `candidates_fts`: one
  instance wherever the term starts, overlapping ones included, in the text folded to
  lower case character by character (the trigram tokenizer's folding; for the
  characters a kept term can hold, ASCII and CJK, Python's `lower()` gives the same
  letters once ſ and İ are mapped as FTS5 maps them: `_FOLD`);
- a bigram term is a token of `candidates_bigrams`, whose row is every CJK bigram of
  the text and then its short Latin words (`fulltext.bigrams`): a two-character CJK
  term counts its tokens, a one-character one (a prefix query, `"模"*`) the tokens
  that start with it, a short Latin word its own;
- a row's size is its token count: the text's characters less two for the trigram
  table (one token a character, but for the last two; a NUL is skipped), the row's
  tokens for the other.

Only terms made of ASCII and CJK characters are kept (`keepable`): those are the ones
whose folding both sides agree on. tests/test_kept_postings.py checks every count
against FTS5's (inverted from its bm25) on the bench's corpus.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import ahocorasick

from .fulltext import CJK_RANGES, Term

_KEEPABLE = re.compile(f"^[\\x21-\\x7e{CJK_RANGES}]+$")
# Where Python's lower() and FTS5's folding part for a character that is, or becomes,
# ASCII or CJK: FTS5 folds ſ to s, and leaves İ (which Python lowers to i and a dot; here
# U+FFFD, which no kept term holds). With these two, both agree on every character but
# NUL, which the trigram tokenizer skips (the characters either side of it meet).
_FOLD = str.maketrans({"\u017f": "s", "\u0130": "\ufffd"})


def keepable(term: Term) -> bool:
    """Whether a term's counts can be kept: ASCII or CJK characters only."""
    return bool(_KEEPABLE.match(term.text))


def kind_of(term: Term) -> str:
    """How a kept term is counted: `trigram`, `bigram`, `prefix` (one CJK character,
    a prefix query of the bigram table) or `short`."""
    if term.kind == "bigram" and len(term.text) == 1:
        return "prefix"
    return term.kind


@dataclass(frozen=True)
class Counted:
    """One text's counts: {term id: instances} for the terms it holds (none with 0),
    and its size in each table."""

    found: dict[int, int]
    trigram_size: int
    bigram_size: int


@lru_cache(maxsize=64)
def _automaton(patterns: tuple[str, ...]) -> ahocorasick.Automaton:
    machine = ahocorasick.Automaton()
    for at, pattern in enumerate(patterns):
        machine.add_word(pattern, at)
    machine.make_automaton()
    return machine


def count(
    text: str, bigrams: str | Mapping[str, int], terms: Sequence[tuple[int, str, str]]
) -> Counted:
    """The counts of `terms` ((id, kind, text) with `kind_of`'s kinds) in a candidate's
    indexed text (`fulltext.doc_text`) and its bigram row: as written
    (`fulltext.bigrams`), or already counted token by token (PostgreSQL's save has it)."""
    found: dict[int, int] = {}
    text = text.replace("\x00", "")  # as the trigram tokenizer reads it
    substrings = [(i, t) for i, k, t in terms if k == "trigram" or (k == "bigram" and len(t) == 2)]
    if substrings:
        patterns = tuple(sorted({t for _i, t in substrings}))
        hits: Counter[int] = Counter()
        lowered = text.translate(_FOLD).lower()
        for _end, at in _automaton(patterns).iter(lowered):
            hits[at] += 1  # every instance, overlapping ones included
        by_text = {patterns[at]: n for at, n in hits.items()}
        for term_id, term in substrings:
            if by_text.get(term):
                found[term_id] = by_text[term]
    tokens_wanted = [(i, k, t) for i, k, t in terms if k in ("prefix", "short")]
    if isinstance(bigrams, str):
        tokens = bigrams.split()
        counts: Mapping[str, int] = Counter(tokens) if tokens_wanted else {}
        size = len(tokens)
    else:
        counts, size = bigrams, sum(bigrams.values())
    if tokens_wanted:
        for term_id, kind, term in tokens_wanted:
            n = (
                counts.get(term, 0)
                if kind == "short"
                else sum(c for token, c in counts.items() if token.startswith(term))
            )
            if n:
                found[term_id] = n
    return Counted(found, max(0, len(text) - 2), size)
