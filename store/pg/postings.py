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

Since pg015 those three are views over compressed rows: a row per key and block of
128 consecutive rids (`b_postings`, `b_words`, `b_runs`: the block's offsets and
frequencies as two arrays) and a row per block of everyone's lengths (`block_lengths`);
at 100,000 transcripts 137 million posting rows became under 4 million. A save appends
to its keys' block rows; a delete or a new text takes the candidate's offset out of
them (trigger `candidates_blocks`, store/schema/pg_search.py).

`Rows` collects them: a save outside a batch writes its own at once; inside an index run's
batch (`PgConnection.batch`) they are written at the batch's commit, one statement per
table, in key order.
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


BLOCK_BITS = 7
"""A block holds the rids r with the same r >> BLOCK_BITS: 128 consecutive rids."""
_OFFSET_MASK = (1 << BLOCK_BITS) - 1

BLOCKS = {
    "postings": ("b_postings", "term"),
    "words": ("b_words", "word"),
    "runs": ("b_runs", "run"),
}
"""Each frequency table (a view since pg015) and the block table behind it, with its key."""
_VOCABULARY = {"words": "vocabulary", "runs": "run_vocabulary"}
LONG = {"words": "long_words", "runs": "long_runs"}
"""Where the words and runs longer than MAX_KEY go (a row per key and candidate)."""


Counts = dict[str, int]


def _counts(fts: str) -> tuple[Counts, Counts]:
    """A candidate's key -> tf of its words and its runs (as `words` and `runs` yield
    them), counted at C speed."""
    found = Counter(RUN_RE.findall(fts))
    run_counts = {r: tf for r, tf in found.items() if not _ALNUM_RE.fullmatch(r)}
    return Counter(WORD_RE.findall(fts)), run_counts


def _long_keys(counts: Counts) -> Counts:
    """Take the keys longer than MAX_KEY out of `counts`, and return them."""
    if max(map(len, counts), default=0) <= MAX_KEY:
        return {}
    long = {k: tf for k, tf in counts.items() if len(k) > MAX_KEY}
    for k in long:
        del counts[k]
    return long


class Rows:
    """The frequency rows of some candidates, written together (`write`).

    Kept as each candidate's counts (key -> tf), not as rows: an index run's batch
    holds a few hundred candidates of ~1,400 keys each, and every Python object made
    per key and candidate costs the writer time the database then waits for."""

    def __init__(self) -> None:
        # rid -> counts of (postings, short words, short runs, long words, long runs)
        self._by_rid: dict[int, tuple[Counts, Counts, Counts, Counts, Counts]] = {}
        self._lengths: dict[int, tuple[int, int]] = {}
        # rid -> (fts, bigram-side counts): for the kept postings (store/kept_postings.py)
        self._texts: dict[int, tuple[str, Counts]] = {}

    def add(self, rid: int, terms: Counts, terms_len: int, fts: str) -> None:
        """A candidate's rows, from the counts of its bigram-side tokens (`terms_len` of
        them) and its indexed text (a later add for the same rid replaces them)."""
        word_counts, run_counts = _counts(fts)
        long_words = _long_keys(word_counts)
        long_runs = _long_keys(run_counts)
        self._by_rid[rid] = (terms, word_counts, run_counts, long_words, long_runs)
        self._lengths[rid] = (terms_len, len(fts))
        self._texts[rid] = (fts, terms)

    def drop(self, rid: int) -> None:
        self._by_rid.pop(rid, None)
        self._lengths.pop(rid, None)
        self._texts.pop(rid, None)

    def clear(self) -> None:
        self._by_rid.clear()
        self._lengths.clear()
        self._texts.clear()

    def take_texts(self) -> dict[int, tuple[str, Counts]]:
        """The texts added since the last call (rid -> (fts, bigram-side counts)), for
        the kept postings to be written beside the rows; then forgets them."""
        texts, self._texts = self._texts, {}
        return texts

    def __len__(self) -> int:
        return len(self._by_rid)

    def write(self, conn: Conn) -> None:
        """Write every row, then forget them: each candidate's lengths into its block's
        `block_lengths` row, its frequencies appended to the rows of its keys' blocks
        (`b_postings`, `b_words`, `b_runs`, a row per key and block, in key order), keys
        too long for a B-tree as rows of their own, new words and runs into their
        vocabularies. The caller's transaction has written `candidates` already, so it
        holds the `fts_version` lock every such writer takes first (pg008): two writers
        never update the same block rows at once."""
        if not self._by_rid:
            return
        kept = sorted(self._by_rid.items())
        lengths = self._lengths
        self._by_rid = {}
        self._lengths = {}
        self._texts = {}  # (what the kept postings wanted of them was taken before)
        _write_lengths(conn, [(rid, *lengths[rid]) for rid, _ in kept])
        for i, table in enumerate(BLOCKS):
            _append(conn, table, [(rid, counts[i]) for rid, counts in kept])
        for i, table in ((3, "long_words"), (4, "long_runs")):
            copy_rows(
                conn,
                table,
                (
                    (key, rid, tf, lengths[rid][1])
                    for rid, counts in kept
                    for key, tf in counts[i].items()
                ),
            )


def _write_lengths(conn: Conn, found: list[tuple[int, int, int]]) -> None:
    """Each (rid, bigram-side token count, text length) into `block_lengths`."""
    blocks = sorted({rid >> BLOCK_BITS for rid, _, _ in found})
    conn.execute(
        "INSERT INTO block_lengths (block, terms_len, fts_len)"
        f" SELECT b, array_fill(0, ARRAY[{1 << BLOCK_BITS}]), array_fill(0, ARRAY[{1 << BLOCK_BITS}])"
        " FROM unnest(%s::bigint[]) AS b ON CONFLICT (block) DO NOTHING",
        [blocks],
    )
    with conn.cursor() as cur:
        cur.executemany(
            "UPDATE block_lengths SET terms_len[%s] = %s, fts_len[%s] = %s WHERE block = %s",
            [
                (off, terms_len, off, fts_len, rid >> BLOCK_BITS)
                for rid, terms_len, fts_len in found
                for off in [(rid & _OFFSET_MASK) + 1]
            ],
        )


def _append(conn: Conn, table: str, docs: list[tuple[int, Counts]]) -> None:
    """Append each candidate's (key -> tf) counts, `docs` in rid order, to their
    (key, block) rows of `table`'s block table, in (key, block) order, and their keys to
    its vocabulary where it has one. The arrays go as text (array literals): much
    cheaper for the client than adapting lists."""
    by_block: dict[int, dict[str, tuple[list[int], list[int]]]] = {}
    for rid, counts in docs:
        block = rid >> BLOCK_BITS
        keys = by_block.get(block)
        if keys is None:
            keys = by_block[block] = {}
        off = rid & _OFFSET_MASK
        get = keys.get
        for key, tf in counts.items():
            found = get(key)
            if found is None:
                keys[key] = ([off], [tf])
            else:
                found[0].append(off)
                found[1].append(tf)
    order = sorted((key, block) for block, keys in by_block.items() for key in keys)
    if not order:
        return
    offs: list[str] = []
    tfs: list[str] = []
    for key, block in order:
        o, t = by_block[block][key]
        offs.append("{" + ",".join(map(str, o)) + "}")
        tfs.append("{" + ",".join(map(str, t)) + "}")
    block_table, column = BLOCKS[table]
    conn.execute(
        f"INSERT INTO {block_table} AS b ({column}, block, offs, tfs)"
        " SELECT k, blk, o::smallint[], t::integer[]"
        " FROM unnest(%s::text[], %s::bigint[], %s::text[], %s::text[]) AS u(k, blk, o, t)"
        f" ON CONFLICT ({column}, block) DO UPDATE"
        " SET offs = b.offs || excluded.offs, tfs = b.tfs || excluded.tfs",
        [text_array([k for k, _ in order]), [b for _, b in order], offs, tfs],
    )
    vocabulary = _VOCABULARY.get(table)
    if vocabulary:
        conn.execute(
            f"INSERT INTO {vocabulary} ({column}) SELECT unnest(%s::text[]) ON CONFLICT DO NOTHING",
            [text_array(sorted({k for k, _ in order}))],
        )


ROW_TABLES = {
    "postings": "term",
    "words": "word",
    "runs": "run",
    "long_words": "word",
    "long_runs": "run",
}
"""Tables of a row per key and candidate, and their key column: `long_words` and
`long_runs`, and `postings`, `words` and `runs` as pg004-pg006 built them (pg015 turned
those into blocks)."""


def copy_rows(conn: Conn, table: str, rows: Iterable[Row]) -> None:
    """COPY `rows` into `table` (a key of ROW_TABLES) in key order, and their keys into
    its vocabulary where it has one. Rows are grouped by key and formatted as COPY text
    here: psycopg's per-row `write_row` and sorting millions of tuples cost more client
    time than the server spends inserting them."""
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
        cur.copy(f"COPY {table} ({ROW_TABLES[table]}, rid, tf, dl) FROM STDIN") as copy,
    ):
        copy.write(data)
    vocabulary = _VOCABULARY.get(table)
    if vocabulary:
        conn.execute(
            f"INSERT INTO {vocabulary} ({ROW_TABLES[table]}) SELECT unnest(%s::text[])"
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
    joined = '","'.join(items)
    if "\\" not in joined and joined.count('"') == 2 * len(items) - 2:
        return '{"' + joined + '"}'  # nothing to escape: the usual case
    quoted = (i.replace("\\", "\\\\").replace('"', '\\"') for i in items)
    return "{" + ",".join(f'"{q}"' for q in quoted) + "}"
