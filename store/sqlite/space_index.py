"""Each data space's own FTS5 tables: bm25's statistics are those of the space.

FTS5's bm25 reads, besides a match's own counts, its table's row count, average sizes
and each term's document count. With one table for every space, a workspace's results
changed order, and their scores, when another company indexed transcripts with the same
words: a way to learn whether a name, an employer or a skill is common in another
company's transcripts (issue 34). So each space has a pair of its own:

- space 0 (the single-workspace mode's) keeps `candidates_fts` and `candidates_bigrams`,
  unchanged;
- space n's are `candidates_fts_ws<n>` and `candidates_bigrams_ws<n>`, made alike, created
  by the space's first save (m024 made those of the spaces indexed before it) and dropped
  when the space is erased.

Python's sqlite3 cannot register an FTS5 auxiliary function, so a bm25 over one table
with a space's own figures (from fts5vocab and counters) would be a ranking of our own,
computed over every match in Python; a table per space keeps FTS5's own bm25, exact by
construction, and a space's search reads only its own index (a smaller one). Which
table a row is in follows from its rid (base.py SPACE_BITS), so a row is written,
deleted and searched in the same table whichever view of the store handles it.
"""

from __future__ import annotations

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
    """Whether space `ws` has its tables (space 0 always has): a lookup of SQLite's
    schema in memory, no page read."""
    if ws == 0:
        return True
    return execute("SELECT 1 FROM pragma_table_list(?)", [tables(ws)[0]]).fetchone() is not None


def create(execute: Execute, ws: int) -> None:
    """Space `ws`'s tables, made as space 0's are (m001, m008), unless it has them."""
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
    """An erased space's tables go (space 0's stay: its rows went one by one)."""
    if ws == 0:
        return
    for table in tables(ws):
        execute(f"DROP TABLE IF EXISTS {table}")


def move_to_own_tables(execute: Execute) -> int:
    """Schema step m024: the rows of every space but 0, which earlier releases wrote into
    space 0's tables, moved into their space's own (each row rebuilt from the stored text,
    as a delete rebuilds it); returns how many. Space 0's tables then hold its rows
    alone, and every space's bm25 its own figures."""
    moved = 0
    found = execute(
        "SELECT rid, position, intro, summary, verdict, name, interviewers FROM candidates"
        " WHERE rid >= ? ORDER BY rid",
        [1 << SPACE_BITS],
    ).fetchall()
    made: set[int] = set()
    for rid, position, intro, summary, verdict, name, interviewers in found:
        text = fulltext.written_text(  # as written: one script came with m027
            position,
            intro,
            summary,
            indexed_questions(execute, rid),
            verdict,
            name,
            rows.names(interviewers),
        )
        ws = space_of(rid)
        if ws not in made:
            create(execute, ws)
            made.add(ws)
        tri, bi = tables(ws)
        grams = fulltext.bigrams(text)
        execute(
            "INSERT INTO candidates_fts (candidates_fts, rowid, text) VALUES ('delete', ?, ?)",
            [rid, text],
        )
        execute(
            "INSERT INTO candidates_bigrams (candidates_bigrams, rowid, bigrams)"
            " VALUES ('delete', ?, ?)",
            [rid, grams],
        )
        execute(f"INSERT INTO {tri} (rowid, text) VALUES (?, ?)", [rid, text])
        execute(f"INSERT INTO {bi} (rowid, bigrams) VALUES (?, ?)", [rid, grams])
        moved += 1
    return moved
