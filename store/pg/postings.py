"""The frequency tables behind bm25 on PostgreSQL, and how a save or a batch writes them.

Each candidate's indexed text (`fts`, case-folded) gives three kinds of rows, each
(key, rid, tf, dl):

- `postings`: every CJK bigram and short Latin word (the bigram side, `fulltext.bigrams`),
  its count, and the candidate's token count (pg004);
- `words`: every maximal run of 3+ letters and digits, its count, and `len(fts)` (pg005);
- `runs`: every maximal run of characters a search term can hold (not CJK, not
  whitespace) that is not letters and digits only, such as `c++` or `client/server，`,
  its count, and `len(fts)` (pg006).

A search term of 3+ characters other than CJK can only occur inside such a run (a term
holds no whitespace or CJK character, `fulltext.parse`), so `words` or `runs` give its
exact count; a run that is letters and digits only cannot hold a term with punctuation.

A word or run longer than MAX_KEY characters (a pasted key, a base64 blob, a long URL)
is no B-tree key: it goes to `long_words` or `long_runs` instead (pg010), the same
columns, found by pg_trgm (search.py reads both). Rows saved before pg010 may still
hold such a key in `words` or `runs` (one that fitted); each key of a candidate is in
one table or the other, never both.

`Rows` collects them: a save outside a batch writes its own at once; inside an index run's
batch (`PgConnection.batch`) they are written at the batch's commit, sorted by key,
with one COPY per table, so the primary keys' B-trees are filled in order instead of at
a thousand random places or more per transcript.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

import psycopg

from ..fulltext import CJK_RANGES

Conn = psycopg.Connection[Any]
Row = tuple[str, int, int, int]

# A Latin word as `words` keeps it: a maximal run of 3+ letters and digits of `fts`.
WORD_RE = re.compile("[0-9a-z]{3,}")
# A run as `runs` keeps it: maximal, neither CJK nor whitespace (Python's `\s` is
# `str.isspace`, what `str.split` splits a query on), and not letters and digits only.
RUN_RE = re.compile(f"[^{CJK_RANGES}\\s]+")
_ALNUM_RE = re.compile("[0-9a-z]+")
# The longest key `words` and `runs` take: at most 4 bytes a character in UTF-8, so an
# entry of their B-trees (or their vocabularies') stays well under the ~2,700 bytes
# PostgreSQL allows one.
MAX_KEY = 256


def postings(rid: int, tokens: list[str]) -> Iterator[Row]:
    """(term, rid, tf, dl) rows of one candidate's bigram-side tokens."""
    dl = len(tokens)
    for term, tf in Counter(tokens).items():
        yield term, rid, tf, dl


def words(rid: int, fts: str) -> Iterator[Row]:
    """(word, rid, tf, dl) rows of one candidate's indexed text."""
    for word, tf in Counter(WORD_RE.findall(fts)).items():
        yield word, rid, tf, len(fts)


def runs(rid: int, fts: str) -> Iterator[Row]:
    """(run, rid, tf, dl) rows of one candidate's indexed text: its runs with punctuation
    (or any other character that is not a letter, digit, CJK or whitespace)."""
    found = Counter(r for r in RUN_RE.findall(fts) if not _ALNUM_RE.fullmatch(r))
    for run, tf in found.items():
        yield run, rid, tf, len(fts)


def _split(rows: Iterable[Row]) -> tuple[list[Row], list[Row]]:
    """(rows whose key a B-tree can hold, rows whose key is longer than MAX_KEY)."""
    short: list[Row] = []
    long: list[Row] = []
    for row in rows:
        (long if len(row[0]) > MAX_KEY else short).append(row)
    return short, long


class Rows:
    """The frequency rows of some candidates (one list per table of TABLES, in its
    order), written together."""

    def __init__(self) -> None:
        self._by_rid: dict[int, tuple[list[Row], ...]] = {}

    def add(self, rid: int, tokens: list[str], fts: str) -> None:
        """A candidate's rows (a later add for the same rid replaces them)."""
        short_words, long_words = _split(words(rid, fts))
        short_runs, long_runs = _split(runs(rid, fts))
        self._by_rid[rid] = (
            list(postings(rid, tokens)),
            short_words,
            short_runs,
            long_words,
            long_runs,
        )

    def drop(self, rid: int) -> None:
        self._by_rid.pop(rid, None)

    def clear(self) -> None:
        self._by_rid.clear()

    def __len__(self) -> int:
        return len(self._by_rid)

    def write(self, conn: Conn) -> None:
        """COPY every row, in key order, then forget them."""
        if not self._by_rid:
            return
        kept = list(self._by_rid.values())
        self._by_rid.clear()
        for i, table in enumerate(TABLES):
            write(conn, table, (r for rows in kept for r in rows[i]))


TABLES = {
    "postings": "term",
    "words": "word",
    "runs": "run",
    "long_words": "word",
    "long_runs": "run",
}
"""Each table and its key column, in the order `Rows` holds them."""
_VOCABULARY = {"words": "vocabulary", "runs": "run_vocabulary"}
LONG = {"words": "long_words", "runs": "long_runs"}
"""Where the words and runs longer than MAX_KEY go."""


def write(conn: Conn, table: str, rows: Iterable[Row]) -> None:
    """COPY `rows` into `table` (a key of TABLES) in key order, and their keys into its
    vocabulary where it has one. Rows are grouped by key and formatted as COPY text here:
    psycopg's per-row `write_row` and sorting millions of tuples cost more client time
    than the server spends inserting them."""
    by_key: dict[str, list[str]] = {}
    for key, rid, tf, dl in rows:
        line = f"{rid}\t{tf}\t{dl}\n"
        found = by_key.get(key)
        if found is None:
            by_key[key] = [line]
        else:
            found.append(line)
    if not by_key:
        return
    keys = sorted(by_key)
    parts: list[str] = []
    for key in keys:
        text = _copy_text(key) + "\t"
        parts += [text + line for line in by_key[key]]
    data = "".join(parts)
    with (
        conn.cursor() as cur,
        cur.copy(f"COPY {table} ({TABLES[table]}, rid, tf, dl) FROM STDIN") as copy,
    ):
        copy.write(data)
    vocabulary = _VOCABULARY.get(table)
    if vocabulary:
        conn.execute(
            f"INSERT INTO {vocabulary} ({TABLES[table]}) SELECT unnest(%s::text[])"
            " ON CONFLICT DO NOTHING",
            [keys],
        )


_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _copy_text(key: str) -> str:
    """A key as COPY's text format reads it back (runs may hold a backslash)."""
    return key.translate(_COPY_ESCAPES) if "\\" in key or not key.isprintable() else key


def text_array(items: list[str]) -> str:
    """`items` as a PostgreSQL array literal (for `%s::text[]`): much cheaper for the
    client than letting psycopg adapt a list of ~1,400 strings."""
    quoted = (i.replace("\\", "\\\\").replace('"', '\\"') for i in items)
    return "{" + ",".join(f'"{q}"' for q in quoted) + "}"
