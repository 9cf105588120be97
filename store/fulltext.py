"""Full-text search for Chinese: what goes into the index and how raw text becomes a query.

The index is one FTS5 row per candidate with the trigram tokenizer (C speed, case
folded, substring semantics for any term of 3+ characters: 分布式, TensorFlow, C++).
Trigrams never match a 2-character term, and unicode61 would treat a whole run of
Chinese as one token, so a 2-character term (并行, Go) is expanded through the
index's own vocabulary: every indexed trigram that starts with those two characters.
Each column is indexed with a trailing space so that a term at the very end of a
column is followed by some character too.

Nothing user-typed ever reaches FTS5's query syntax unquoted: every term becomes a
double-quoted string with its quotes doubled, so AND/OR/NOT, `*`, `:`, `-`,
parentheses and quotes are just text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .models import Question

COLUMNS = ("position", "intro", "summary", "qa", "verdict")
# bm25 weights, in COLUMNS order: the position and profile say most about a match.
WEIGHTS = (4.0, 2.0, 1.5, 1.0, 1.5)

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_MAX_QUERY_CHARS = 512
MAX_TERMS = 16
_MAX_EXPANSION = 400


def doc_columns(
    position: str | None,
    intro: str,
    summary: str,
    questions: Iterable[Question],
    verdict: str | None,
    extra: Iterable[str] = (),
) -> tuple[str, str, str, str, str]:
    """The exact strings indexed for one candidate (and needed again to delete it)."""
    qa_parts: list[str] = []
    for q in questions:
        qa_parts.extend((q.question, q.goal, q.answer))
    qa_parts.extend(extra)
    return (
        (position or "") + " ",
        intro + " ",
        summary + " ",
        "\n".join(qa_parts) + " ",
        (verdict or "") + " ",
    )


@dataclass(frozen=True)
class Term:
    text: str  # as the user typed it, normalized
    short: bool  # under 3 characters: needs vocabulary expansion


def terms(query: str) -> list[Term]:
    """Raw user text -> search terms. Never raises."""
    text = unicodedata.normalize("NFKC", query[:_MAX_QUERY_CHARS])
    text = _CONTROL.sub(" ", text)
    out: list[Term] = []
    seen: set[str] = set()
    for word in text.split():
        # Quotes and brackets around a word are how people write queries, not content.
        word = word.strip("\"'“”‘’()[]{}<>")
        if not word:
            continue
        folded = word.casefold()
        if folded in seen:
            continue
        seen.add(folded)
        if len(word) >= 3:
            out.append(Term(folded, short=False))
        elif len(word) == 2 or _is_cjk(word):
            out.append(Term(folded, short=True))
        if len(out) >= MAX_TERMS:
            break
    return out


def _is_cjk(text: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" for ch in text)


def quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def match_expression(query_terms: list[Term], expand: Callable[[str], list[str]]) -> str | None:
    """FTS5 MATCH text for the terms, ANDed; None when nothing can match."""
    parts: list[str] = []
    for term in query_terms:
        if not term.short:
            parts.append(quote(term.text))
            continue
        trigrams = expand(term.text)[:_MAX_EXPANSION]
        if not trigrams:
            return None  # a term that occurs nowhere: no candidate has all the terms
        parts.append("(" + " OR ".join(quote(t) for t in trigrams) + ")")
    if not parts:
        return None
    return " AND ".join(parts)


def snippet(
    texts: Iterable[str], query_terms: list[Term], width: int = 60
) -> tuple[str, tuple[int, int] | None]:
    """A window of text around the first match, and where the match sits in it."""
    all_texts = [t for t in texts if t]
    for term in query_terms:
        for text in all_texts:
            at = text.casefold().find(term.text)
            if at < 0:
                continue
            start = max(0, at - width // 2)
            end = min(len(text), at + len(term.text) + width // 2)
            prefix = "…" if start > 0 else ""
            suffix = "…" if end < len(text) else ""
            body = " ".join(text[start:end].split("\n"))
            hl = (len(prefix) + at - start, len(prefix) + at - start + len(term.text))
            return prefix + body + suffix, hl
    first = next(iter(all_texts), "")
    return (first[:width] + ("…" if len(first) > width else "")), None
