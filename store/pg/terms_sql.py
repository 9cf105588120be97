"""The SQL a search term becomes on PostgreSQL (pure: terms in, SQL text and parameters
out), for search.py: which candidates match a term and how often, from the index that
holds it exactly or from the text, and FTS5's bm25 of a row to the last bit."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..fulltext import Term, is_cjk
from .postings import LONG, WORD_RE

K1 = 1.2
B = 0.75


def _like(text: str) -> str:
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def condition(term: Term) -> tuple[str, Any]:
    """SQL matching a term no index lists (a CJK term of 3+ characters) in `fts`: tried
    only on candidates an index found (no index covers `fts` since pg016)."""
    return "strpos(fts, ?) > 0", term.text


_ARE_SPECIAL = re.compile(r"[\\.^$|?*+()\[\]{}]")  # what a regular expression would read


def occurrences(column: str, length: str, text: str) -> tuple[str, Any]:
    """SQL for how often `text` occurs in `column` (whose length is `length`), counted
    as FTS5 counts a phrase's instances: where it starts, overlapping ones included
    (哈哈哈 twice in 哈哈哈哈). A term that cannot overlap itself is counted by
    replacing it (no regular expression); one that can, by a lookahead's matches."""
    if not any(text[:k] == text[-k:] for k in range(1, len(text))):
        return f"(({length} - length(replace({column}, ?, ''))) / {len(text)})", text
    return f"regexp_count({column}, ?)", "(?=" + _ARE_SPECIAL.sub(r"\\\g<0>", text) + ")"


def score_sql(
    terms: list[Term], weights: list[tuple[float, float]], tf: str, length: Callable[[int], str]
) -> tuple[str, list[Any]]:
    """SQL for FTS5's bm25 of a row (higher is better here) and its parameters, given
    each term's (idf, average length): `tf` and `length(i)` name term i's frequency and
    length. Computed as fts5_aux.c computes it, so the score is SQLite's to the last bit
    and near-ties fall the same way: float8 operations in FTS5's order, each table's
    phrases summed in the query's order, then the trigram table's sum and the bigram
    table's added (`t.s + b.s` on SQLite); a trigram-side length is the text's
    characters less two (one trigram a character but the last two)."""
    sums: list[str] = []
    params: list[Any] = []
    for trigram_side in (True, False):
        parts = []
        for i, term in enumerate(terms):
            if (term.kind == "trigram") != trigram_side:
                continue
            f = f"({tf.format(i=i)})::float8"
            size = f"greatest({length(i)} - 2, 0)" if trigram_side else length(i)
            parts.append(
                f"(?::float8 * (({f} * {K1 + 1.0!r}::float8) / ({f} + {K1!r}::float8"
                f" * ({1 - B!r}::float8 + ({B!r}::float8 * ({size})::float8) / ?::float8))))"
            )
            params += list(weights[i])
        if parts:
            sums.append("(" + " + ".join(parts) + ")")
    return " + ".join(sums), params


def frequency(term: Term) -> tuple[str, Any]:
    """SQL for how often such a term occurs in `fts`."""
    return occurrences("fts", "fts_len", term.text)


def indexed_source(term: Term) -> tuple[str, list[Any]] | None:
    """A subquery of (rid, tf, dl) listing the candidates that match `term`, with its
    frequency and the document length bm25 takes for it, from the index that holds them
    exactly; None when only the text can tell (a CJK term of 3+ characters).

    - A bigram-side term: `postings` (one CJK character adds up the bigrams starting
      with it, as FTS5's prefix query does).
    - Any other term of 3+ characters: its occurrences all lie inside the text's runs of
      letters and digits (`words`, for a term made of those: TensorFlow) or inside its
      runs with punctuation (`runs`, for any other: c++, client/server), see
      postings.py; so the sum over the vocabulary entries containing it, of each one's
      frequency times the term's non-overlapping count in it, is what `frequency`
      counts in the text. Words and runs too long for a B-tree key are in `long_words`
      and `long_runs` (no vocabulary: pg_trgm finds them), added in the same sum.
    """
    if term.kind == "trigram":
        if is_cjk(term.text):
            return None
        table, key, vocabulary = (
            ("words", "word", "vocabulary")
            if WORD_RE.fullmatch(term.text)
            else ("runs", "run", "run_vocabulary")
        )
        counted, param = occurrences(key, f"length({key})", term.text)
        count = f"tf * {counted}"
        like = _like(term.text)
        return (
            f"(SELECT rid, sum(tf) AS tf, min(dl) AS dl FROM ("
            f"SELECT rid, {count} AS tf, dl FROM {table} WHERE {key} IN"
            f" (SELECT {key} FROM {vocabulary} WHERE {key} LIKE ?)"
            f" UNION ALL SELECT rid, {count} AS tf, dl FROM {LONG[table]} WHERE {key} LIKE ?"
            ") AS k GROUP BY rid)",
            [param, like, param, like],
        )
    if term.kind == "bigram" and len(term.text) == 1:
        return (
            "(SELECT rid, sum(tf) AS tf, min(dl) AS dl FROM postings WHERE term LIKE ?"
            " GROUP BY rid)",
            [term.text + "%"],  # a CJK character: nothing to escape
        )
    return "(SELECT rid, tf, dl FROM postings WHERE term = ?)", [term.text]


def bigrams_of(term: Term) -> list[str]:
    """The distinct bigrams of a CJK term of 3+ characters ([] for any other term)."""
    if term.kind != "trigram" or not is_cjk(term.text):
        return []
    return sorted({term.text[i : i + 2] for i in range(len(term.text) - 1)})


def all_bigrams(term: Term) -> tuple[str, list[Any]]:
    """A subquery of (rid, tf, dl) listing the candidates holding every bigram of a CJK
    term of 3+ characters, tf being the rarest one's count: the term occurs no more
    often than that (each instance starts where its bigrams' instances start). dl is 0 (the text's length is `fts_len`)."""
    grams = bigrams_of(term)
    return (
        "(SELECT rid, min(tf) AS tf, 0 AS dl FROM postings WHERE term = ANY(?)"
        f" GROUP BY rid HAVING count(*) = {len(grams)})",
        [grams],
    )
