"""Full-text search for Chinese: what goes into the index and how raw text becomes a query.

Two contentless FTS5 tables, both fed by C code only (no Python loop per character):

- `candidates_fts`, trigram tokenizer: any term of 3+ characters (分布式, TensorFlow,
  C++) is a phrase of trigrams, so a match is an exact, case-folded substring.
- `candidates_bigrams`, unicode61 (with `#` and `+` as token characters) over every CJK
  bigram occurrence of the text plus its short Latin words (`ai`, `go`, `c#`, `3`):
  a 2-character Chinese word (并行) and a 1-2 character Latin word are each one token
  there. It keeps positions, so FTS5's bm25 sees each token's frequency.

A short Latin word matches whole words only: one not next to another Latin letter or
digit (`AI` finds `AI` and `AI平台`, not `trAIning`; `ML` not `yaML`).

Queries: words split at whitespace and again where Chinese meets other text
(`TensorFlow分布式` is `tensorflow` + `分布式`). A run of 3+ Chinese characters is first
searched as typed; when that finds fewer than asked, the run is split into words by
jieba and all the words must match, ranked after the exact matches.

Ranking: every match is ranked by FTS5's own bm25 (IDF included), the newest first
among equals. `sort="newest"` lists matches newest first instead.

One form: the indexed text and every query go through the same fold,
`scripts.search_form`, character by character: compatibility forms as their plain
letters (NFKC: `ＴｅｎｓｏｒＦｌｏｗ` is `tensorflow`, `ﬁ` is `fi`, `⾏` is `行`, `①` is `1`),
case folded (`Straße` is `strasse`), traditional characters as simplified ones (`崗位`
finds `岗位` and the other way round), with bm25's figures as if all were written alike.
A letter followed by combining marks is not composed (`e` + U+0301 is not `é`). What
users see (snippets, highlights) is cut from the text as written: the fold may change a
text's length (`ﬁ` -> `fi`), so a match is mapped back to the characters that gave it.

What is not searched is refused, never cut: a query of more than `MAX_TERMS` distinct
terms or longer than `MAX_QUERY_CHARS` characters raises `QueryTooLong`
(store/errors.py) before anything is searched.

Nothing user-typed ever reaches FTS5's query syntax unquoted: every term becomes a
double-quoted string with its quotes doubled, so AND/OR/NOT, `*`, `:`, `-`,
parentheses and quotes are just text.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .errors import QueryTooLong
from .models import Question, Transcript
from .scripts import search_form, search_form_mapped

MAX_TERMS = 16  # distinct terms a query may have, as typed (after folding)
MAX_QUERY_CHARS = 512  # characters a query may have, as typed (runs of spaces as one)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
# The characters a CJK term is made of (a regex class body); anything else is not CJK.
CJK_RANGES = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK = CJK_RANGES
_BIGRAM_RE = re.compile(f"(?=([{_CJK}]{{2}}))")
_CJK_RE = re.compile(f"^[{_CJK}]+$")
_RUNS_RE = re.compile(f"[{_CJK}]+|[^{_CJK}]+")
# A short Latin word: 1-2 letters or digits (plus `#`/`+`), not next to another one.
_SHORT = "[0-9a-z]{1,2}[#+]{0,2}"
_SHORT_RE = re.compile(f"(?<![0-9a-z]){_SHORT}(?![0-9a-z#+])")
_SHORT_TERM_RE = re.compile(f"^{_SHORT}$")
_EDGE_PUNCT = "\"'“”‘’()[]{}<>.,;:!?，。、；：！？"

Kind = Literal["trigram", "bigram", "short"]
Sort = Literal["relevance", "newest"]


def doc_text(
    position: str | None,
    intro: str,
    summary: str,
    questions: Iterable[Question],
    verdict: str | None,
    name: str | None = None,
    interviewers: Sequence[str] = (),
    body: str = "",
) -> str:
    """The exact string indexed for one candidate: its text as written (`written_text`)
    in its search form (`scripts.search_form`, what every query is folded with too)."""
    return search_form(
        written_text(position, intro, summary, questions, verdict, name, interviewers, body)
    )


def written_text(
    position: str | None,
    intro: str,
    summary: str,
    questions: Iterable[Question],
    verdict: str | None,
    name: str | None = None,
    interviewers: Sequence[str] = (),
    body: str = "",
) -> str:
    """A candidate's indexed text as written, which releases before one script indexed
    as it is (their schema steps rebuild it so). The name and the interviewers come
    last, and only when the file gives them: a row saved before they were kept is
    deleted with the text it was indexed with. `body`, the text of an interview whose
    questions could not be read (`searched_body`), follows the summary when there is one."""
    parts = [position or "", intro, summary, *([body] if body else [])]
    for q in questions:
        parts.extend((q.question, q.goal, q.answer))
    parts.append(verdict or "")
    who = [n for n in (name or "", *interviewers) if n]
    if who:
        parts.append(" ".join(who))
    return "\n".join(parts) + " "


def bigrams(text: str) -> str:
    """The `candidates_bigrams` row of a text: every CJK bigram occurrence, then its
    short Latin words, space separated (repeats kept: bm25 counts them). Of an indexed
    text (`doc_text`, case folded already) it is a function of the text alone (Unicode
    keeps case folding stable), so the row a candidate was indexed with is made again
    exactly from the text it was given."""
    folded = text.casefold()
    return " ".join(_BIGRAM_RE.findall(folded)) + " " + " ".join(_SHORT_RE.findall(folded))


def searched_body(questions_read: object, body: str | None) -> str:
    """The part of an interview's text as written that is indexed: all of it when its
    questions could not be read (so that it stays searchable: issue 46), else none (its
    questions and answers are)."""
    return "" if questions_read else (body or "")


BODY_SQL = "CASE WHEN questions_read = 0 THEN body ELSE '' END"
"""`searched_body` in SQL, for the queries that rebuild a candidate's indexed text."""


def indexed(t: Transcript) -> tuple[str, str]:
    """(doc_text, bigrams) of a transcript: what a save indexes for it."""
    text = doc_text(
        t.position,
        t.intro,
        t.summary,
        t.questions,
        t.verdict,
        t.name,
        t.interviewers,
        searched_body(t.questions_read, t.body),
    )
    return text, bigrams(text)


@dataclass(frozen=True)
class Term:
    text: str  # as typed, normalized and case-folded
    kind: Kind


@dataclass(frozen=True)
class Query:
    """The terms as typed, and (when a Chinese run splits into words) the words."""

    exact: list[Term]
    words: list[Term] | None = None


def _term(text: str) -> Term | None:
    if _CJK_RE.match(text):
        return Term(text, "trigram" if len(text) >= 3 else "bigram")
    if len(text) >= 3:
        return Term(text, "trigram")
    if _SHORT_TERM_RE.match(text):
        return Term(text, "short")
    return None  # punctuation: nothing to search for


# -- the segmenter: jieba's dictionary, loaded once, before the first request ------------
# rjieba (jieba-rs) cuts with jieba's own dictionary and gives the same words without
# HMM, but loads in a tenth of the time and cuts far faster; `serve` loads it before it
# says it is ready (`warm`), so no request waits for it.

_segmenter_lock = threading.Lock()
_segmenter: Any = None


def _cutter() -> Any:
    global _segmenter
    if _segmenter is None:
        with _segmenter_lock:
            if _segmenter is None:
                import rjieba

                _segmenter = rjieba.Jieba()
    return _segmenter


def _segment(run: str) -> list[str]:
    return [w for w in _cutter().cut(run, False) if w.strip()]


def segment(text: str) -> list[str]:
    """jieba's words of `text`, as written (the dictionary loaded once, shared)."""
    return _segment(text)


def warm() -> None:
    """Load the segmenter's dictionary and the search form's tables now (call at
    startup, before serving requests)."""
    _segment(search_form("分詞"))


def parse(query: str, segment: bool = True) -> Query:
    """Raw user text -> search terms, folded as the index is (`scripts.search_form`).
    QueryTooLong when it is longer than MAX_QUERY_CHARS or has more than MAX_TERMS
    distinct terms: nothing of it is searched then. The words of a Chinese phrase
    (searched when the phrase is not found) are its first MAX_TERMS."""
    typed = " ".join(_CONTROL.sub(" ", query).split())
    if len(typed) > MAX_QUERY_CHARS:
        raise QueryTooLong("chars", len(typed), MAX_QUERY_CHARS)
    text = search_form(typed)
    exact: list[Term] = []
    words: list[Term] = []
    split = False
    for word in text.split():
        # Quotes and brackets around a word are how people write queries, not content.
        for run in _RUNS_RE.findall(word):
            run = run.strip(_EDGE_PUNCT)
            term = _term(run) if run else None
            if term is None:
                continue
            exact.append(term)
            pieces = [run]
            if segment and term.kind == "trigram" and _CJK_RE.match(run):
                pieces = [w for w in _segment(run) if len(w) >= 2] or [run]
                split = split or pieces != [run]
            words.extend(t for t in (_term(p) for p in pieces) if t is not None)
    distinct = _dedup(exact)
    if len(distinct) > MAX_TERMS:
        raise QueryTooLong("terms", len(distinct), MAX_TERMS)
    return Query(distinct, _dedup(words)[:MAX_TERMS] if split else None)


def _dedup(found: list[Term]) -> list[Term]:
    return list(dict.fromkeys(found))


def terms(query: str) -> list[Term]:
    """The terms of `query` as typed."""
    return parse(query, segment=False).exact


def quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


@dataclass(frozen=True)
class Match:
    """MATCH expressions for the two tables; None where a table has no part in it."""

    trigram: str | None
    bigram: str | None


def match_expressions(query_terms: Sequence[Term]) -> Match | None:
    """None when there is nothing to search for."""
    tri = [quote(t.text) for t in query_terms if t.kind == "trigram"]
    bi = [
        quote(t.text) + ("*" if len(t.text) == 1 and t.kind == "bigram" else "")
        for t in query_terms
        if t.kind != "trigram"
    ]
    if not tri and not bi:
        return None
    return Match(" AND ".join(tri) or None, " AND ".join(bi) or None)


def find(text: str, term: Term) -> tuple[int, int] | None:
    """Where `term` first occurs in `text` as the index would match it (in its search
    form), as a span of `text` as written: the whole characters that gave the match."""
    mapped = search_form_mapped(text)
    folded = mapped.text
    if term.kind == "short":
        m = re.search(f"(?<![0-9a-z]){re.escape(term.text)}(?![0-9a-z])", folded)
        return mapped.written(m.start(), m.end()) if m else None
    at = folded.find(term.text)
    return mapped.written(at, at + len(term.text)) if at >= 0 else None


@dataclass(frozen=True)
class Snippet:
    text: str
    highlight: tuple[int, int] | None
    question: int | None  # the question's number when the match is in a question or answer


def snippet(
    fields: Sequence[tuple[str, int | None]], query_terms: Sequence[Term], width: int = 60
) -> Snippet:
    """A window of text around the first match, where the match sits in it, and the
    number of the question it belongs to. `fields` are (text, question number or None)."""
    present = [(t, n) for t, n in fields if t]
    for term in query_terms:
        for text, number in present:
            found = find(text, term)
            if found is None:
                continue
            at, stop = found
            start = max(0, at - width // 2)
            end = min(len(text), stop + width // 2)
            prefix = "…" if start > 0 else ""
            suffix = "…" if end < len(text) else ""
            body = " ".join(text[start:end].split("\n"))
            offset = len(prefix) + at - start
            return Snippet(prefix + body + suffix, (offset, offset + stop - at), number)
    first = present[0][0] if present else ""
    return Snippet(first[:width] + ("…" if len(first) > width else ""), None, None)


def is_cjk(text: str) -> bool:
    return bool(_CJK_RE.match(text))
