"""Full-text search for Chinese: what goes into the index and how raw text becomes a query.

Two contentless FTS5 tables, both fed by C code only (no Python loop per character):

- `candidates_fts`, trigram tokenizer: any term of 3+ characters (分布式, TensorFlow,
  C++) is a phrase of trigrams, so a match is an exact, case-folded substring.
- `candidates_bigrams`, unicode61 over each candidate's distinct CJK bigrams (found
  by one regular expression): a 2-character word (并行) is one token. Trigrams never
  match a term under 3 characters, and unicode61 alone would make a whole run of
  Chinese one token; this table closes that gap. It keeps no positions (detail=none):
  a 2-character word needs none.

A 2-character term that is not Chinese (`Go`, `AI`) is expanded through the trigram
index's vocabulary: every indexed trigram starting with it. The indexed text ends
with a space, so a term at the very end of the text is followed by a character too.

Ranking: matches come newest first from the index (cheap at any size); the newest
`RANK_WINDOW` of them are ranked by bm25's term-frequency part, counted in their
text, and the best returned. FTS5's own bm25 would first count every match in the
whole index (0.1 s for a common term at 100,000 transcripts); within the window all
documents contain every term, so that count would not change the order anyway. For a term found in
most of 100,000 transcripts, ranking every match would cost a second; ranking the
newest few hundred costs milliseconds and is what a recruiter wants anyway.

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

RANK_WINDOW = 100
MAX_TERMS = 16
_MAX_QUERY_CHARS = 512
_MAX_EXPANSION = 400
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_BIGRAM_RE = re.compile(f"(?=([{_CJK}]{{2}}))")
_CJK_RE = re.compile(f"^[{_CJK}]+$")


def doc_text(
    position: str | None,
    intro: str,
    summary: str,
    questions: Iterable[Question],
    verdict: str | None,
) -> str:
    """The exact string indexed for one candidate (and needed again to delete it)."""
    parts = [position or "", intro, summary]
    for q in questions:
        parts.extend((q.question, q.goal, q.answer))
    parts.append(verdict or "")
    return "\n".join(parts) + " "


def bigrams(text: str) -> str:
    """Every distinct CJK bigram of the text, in first-seen order, space separated."""
    return " ".join(dict.fromkeys(_BIGRAM_RE.findall(text)))


@dataclass(frozen=True)
class Term:
    text: str  # as typed, normalized and case-folded

    @property
    def kind(self) -> str:
        if len(self.text) >= 3:
            return "trigram"
        if _CJK_RE.match(self.text):
            return "bigram"  # 2 characters, or 1 (prefix of a bigram)
        return "expand"


def terms(query: str) -> list[Term]:
    """Raw user text -> search terms. Never raises."""
    text = unicodedata.normalize("NFKC", query[:_MAX_QUERY_CHARS])
    text = _CONTROL.sub(" ", text)
    out: list[Term] = []
    seen: set[str] = set()
    for word in text.split():
        # Quotes and brackets around a word are how people write queries, not content.
        word = word.strip("\"'“”‘’()[]{}<>")
        folded = word.casefold()
        if not word or folded in seen or (len(word) == 1 and not _CJK_RE.match(word)):
            continue
        seen.add(folded)
        out.append(Term(folded))
        if len(out) >= MAX_TERMS:
            break
    return out


def quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


@dataclass(frozen=True)
class Match:
    """MATCH expressions for the two tables; None where a table has no part in it."""

    trigram: str | None
    bigram: str | None


def match_expressions(query_terms: list[Term], expand: Callable[[str], list[str]]) -> Match | None:
    """None when nothing can match (no terms, or a term that occurs nowhere)."""
    tri: list[str] = []
    bi: list[str] = []
    for term in query_terms:
        if term.kind == "trigram":
            tri.append(quote(term.text))
        elif term.kind == "bigram":
            bi.append(quote(term.text) + ("*" if len(term.text) == 1 else ""))
        else:
            found = expand(term.text)[:_MAX_EXPANSION]
            if not found:
                return None
            tri.append("(" + " OR ".join(quote(t) for t in found) + ")")
    if not tri and not bi:
        return None
    return Match(" AND ".join(tri) or None, " AND ".join(bi) or None)


def bm25_tf(
    texts: dict[int, str], words: list[str], k1: float = 1.2, b: float = 0.75
) -> dict[int, float]:
    """Okapi BM25 without IDF (equal for every document that matched all the terms)."""
    if not texts:
        return {}
    average = sum(len(t) for t in texts.values()) / len(texts) or 1.0
    scores: dict[int, float] = {}
    for rid, text in texts.items():
        norm = k1 * (1 - b + b * len(text) / average)
        score = 0.0
        for word in words:
            tf = text.count(word)
            score += tf * (k1 + 1) / (tf + norm) if tf else 0.0
        scores[rid] = round(score, 6)
    return scores


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
