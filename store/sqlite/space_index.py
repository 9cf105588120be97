"""Each data space's own FTS5 tables: bm25's statistics are those of the space.

FTS5's bm25 reads, besides a match's own counts, its table's row count, average sizes
and each term's document count. With one table for every space, a workspace's results
changed order, and their scores, when another company indexed transcripts with the same
words: a way to learn whether a name, an employer or a skill is common in another
company's transcripts (issue 34). So each space has a pair of its own:

- space 0 (the single-workspace mode's) keeps `candidates_fts` and `candidates_bigrams`;
- space n's are `candidates_fts_ws<n>` and `candidates_bigrams_ws<n>`, made alike by the
  space's first save and dropped when the space is erased.

A contentless table forgets a row only when given the very text it indexed. Since m035
(issue 47) that text is kept, compressed, in `search_texts` (one row a candidate, written
with its index rows, deleted with them): `delete` gives it back, so nothing of a
forgotten candidate is left whatever changed since it was indexed (a folding table, a
parser). FTS5's `contentless_delete=1` would delete by rowid alone, but needs SQLite
3.43: Python's own sqlite3 is older on many systems (3.40 on Debian 12), where the
store runs without pysqlite3's wheel (not built for ARM) and where tools open the file.

Python's sqlite3 cannot register an FTS5 auxiliary function, so a bm25 over one table
with a space's own figures (from fts5vocab and counters) would be a ranking of our own,
computed over every match in Python; a table per space keeps FTS5's own bm25, exact by
construction, and a space's search reads only its own index (a smaller one). Which
table a row is in follows from its rid (base.py SPACE_BITS), so a row is written,
deleted and searched in the same table whichever view of the store handles it.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

from .. import fulltext, rows
from ..base import SPACE_BITS
from ..models import Question

Execute = Callable[..., Any]

_HASHSIZE = 67108864  # as m001/m008: a bigger in-memory hash before each flush


def indexed_questions(execute: Callable[[str, list[Any]], Any], rid: int) -> list[Question]:
    """A candidate's questions as its indexed text holds them (`execute` is a
    connection's or a transaction's: the migrations read them too)."""
    return [
        rows.question([*r, None])
        for r in execute(
            f"SELECT {rows.QUESTION_COLUMNS} FROM questions WHERE candidate_rid = ? ORDER BY seq",
            [rid],
        ).fetchall()
    ]


def tables(ws: int) -> tuple[str, str]:
    """The trigram and the bigram tables of data space `ws`."""
    if ws == 0:
        return "candidates_fts", "candidates_bigrams"
    return f"candidates_fts_ws{ws:d}", f"candidates_bigrams_ws{ws:d}"


def space_of(rid: int) -> int:
    """The data space a candidate's rid belongs to."""
    return rid >> SPACE_BITS


def state_sql(ws: int) -> str:
    """The rows of the space's FTS5 shadow tables that change with every write reaching
    its index: 1 = averages (rows, total tokens), 10 = the structure (its segments and a
    cookie bumped on every change)."""
    tri, bi = tables(ws)
    return (
        f"SELECT block FROM {tri}_data WHERE id IN (1, 10)"
        " UNION ALL SELECT x'00'"
        f" UNION ALL SELECT block FROM {bi}_data WHERE id IN (1, 10)"
    )


def exists(execute: Execute, ws: int) -> bool:
    """Whether space `ws` has its tables: a lookup of SQLite's schema in memory, no page
    read."""
    return execute("SELECT 1 FROM pragma_table_list(?)", [tables(ws)[0]]).fetchone() is not None


def create(execute: Execute, ws: int) -> None:
    """Space `ws`'s tables, contentless (the text is not stored in them), unless it has
    them."""
    if exists(execute, ws):
        return
    tri, bi = tables(ws)
    execute(f"CREATE VIRTUAL TABLE {tri} USING fts5(text, tokenize='trigram', content='')")
    execute(
        f"CREATE VIRTUAL TABLE {bi} USING fts5("
        "bigrams, tokenize=\"unicode61 tokenchars '#+'\", content='')"
    )
    for table in (tri, bi):
        execute(f"INSERT INTO {table} ({table}, rank) VALUES ('hashsize', {_HASHSIZE:d})")


def drop(execute: Execute, ws: int) -> None:
    """An erased space's tables go, and the texts they were given (space 0's tables
    stay: its rows went one by one)."""
    low = ws << SPACE_BITS
    execute(
        "DELETE FROM search_texts WHERE rid BETWEEN ? AND ?", [low, low + (1 << SPACE_BITS) - 1]
    )
    if ws == 0:
        return
    for table in tables(ws):
        execute(f"DROP TABLE IF EXISTS {table}")


def insert(conn: Any, ws: int, found: list[tuple[int, tuple[str, str]]]) -> None:
    """Index candidates of space `ws`, (rid, `fulltext.indexed`) each, on a sqlite3
    connection: each table's rows in one statement, which FTS5 keeps in memory until the
    commit and writes as one segment, and the text given to it kept (`search_texts`,
    compressed) for the day it is deleted. Makes the space's tables on its first save."""
    create(conn.execute, ws)
    tri, bi = tables(ws)
    conn.executemany(
        f"INSERT INTO {tri} (rowid, text) VALUES (?, ?)", [(r, i[0]) for r, i in found]
    )
    conn.executemany(
        f"INSERT INTO {bi} (rowid, bigrams) VALUES (?, ?)", [(r, i[1]) for r, i in found]
    )
    conn.executemany(
        "INSERT OR REPLACE INTO search_texts (rid, text) VALUES (?, ?)",
        [(r, zlib.compress(i[0].encode("utf-8"), 1)) for r, i in found],
    )


def delete(execute: Execute, rid: int) -> None:
    """Take a candidate out of its space's index with exactly the text it was given
    (kept by `insert`; the bigram row is a pure function of it): nothing is computed
    again from the candidate's text or a folding table that may have changed since
    (issue 47), so none of its terms is left to match or to read (fts5vocab)."""
    row = execute("DELETE FROM search_texts WHERE rid = ? RETURNING text", [rid]).fetchone()
    ws = space_of(rid)
    if row is None or not exists(execute, ws):
        return  # (the kept text goes in any case: nothing of the candidate stays)
    text = zlib.decompress(row[0]).decode("utf-8")
    tri, bi = tables(ws)
    execute(f"INSERT INTO {tri} ({tri}, rowid, text) VALUES ('delete', ?, ?)", [rid, text])
    execute(
        f"INSERT INTO {bi} ({bi}, rowid, bigrams) VALUES ('delete', ?, ?)",
        [rid, fulltext.bigrams(text)],
    )


_BATCH = 500


def m035_deletable_index(db: Any) -> None:
    """Schema step m035 (issue 47): every space's index made again from the stored text
    as a save indexes it now (`fulltext.indexed`: one script, compatibility forms
    folded), keeping the text each row was given (`search_texts`) so that it is deleted
    exactly; the postings kept for searched terms (m029) go. Earlier steps that moved or
    re-indexed rows (m024, m027) left that to this one."""
    execute = db.execute
    old = [
        r[0]
        for r in execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL%'"
            " AND (name IN ('candidates_fts', 'candidates_bigrams')"
            " OR name GLOB 'candidates_fts_ws*' OR name GLOB 'candidates_bigrams_ws*')"
        ).fetchall()
    ]
    for table in old:
        execute(f"DROP TABLE {table}")
    execute("DROP TABLE IF EXISTS search_postings")
    execute("DROP TABLE IF EXISTS search_terms")
    execute("CREATE TABLE search_texts (rid INTEGER PRIMARY KEY, text BLOB NOT NULL)")
    create(execute, 0)
    last = -1
    while True:
        found = execute(
            "SELECT rid, position, intro, summary, verdict, name, interviewers, questions_read,"
            " body FROM candidates WHERE rid > ? ORDER BY rid LIMIT ?",
            [last, _BATCH],
        ).fetchall()
        if not found:
            return
        last = found[-1][0]
        asked: dict[int, list[Question]] = {}
        for r in execute(
            f"SELECT candidate_rid, {rows.QUESTION_COLUMNS} FROM questions"
            " WHERE candidate_rid BETWEEN ? AND ? ORDER BY candidate_rid, seq",
            [found[0][0], last],
        ).fetchall():
            asked.setdefault(r[0], []).append(rows.question([*r[1:], None]))
        by_space: dict[int, list[tuple[int, tuple[str, str]]]] = {}
        for rid, position, intro, summary, verdict, name, interviewers, read, body in found:
            text = fulltext.doc_text(
                position,
                intro or "",
                summary or "",
                asked.get(rid, []),
                verdict,
                name,
                rows.names(interviewers),
                fulltext.searched_body(read, body),
            )
            by_space.setdefault(space_of(rid), []).append((rid, (text, fulltext.bigrams(text))))
        for ws, some in by_space.items():
            insert(db.conn, ws, some)
