"""Schema step m027 / pg027: the full-text index in one script (issue 36).

Since this release the indexed text is folded to simplified characters (`fulltext.doc_text`,
`scripts.fold`) and so is every query. A database written before indexed each text as
written: its rows holding a traditional character are indexed again, folded; the others
(most, in a team that writes 简体) are already what a save indexes now and are left alone.
The stored text itself (candidates, questions) is never changed: what users see stays as
written.

- SQLite: the index is contentless (FTS5, `content=''`): a row is taken out by giving the
  text it was indexed with (as written: every earlier step indexed `written_text`), then
  put in again, folded, in its space's two tables.
- PostgreSQL: `fts` (the folded, case-folded text), `terms` and their lengths were
  updated, and the candidate's frequency rows written again; since pg035, which indexes
  every candidate's stored text folded and drops those, nothing is done here.

SQLite reads the candidates a batch at a time, in rid order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import fulltext, rows
from ..scripts import fold

if TYPE_CHECKING:
    import psycopg
    import sqlite_utils

_BATCH = 500


def m027_one_script_index(db: sqlite_utils.Database) -> None:
    """Each candidate whose indexed text holds a traditional character, indexed folded."""
    from ..sqlite import space_index

    last = -1
    while True:
        found = db.execute(
            "SELECT rid, position, intro, summary, verdict, name, interviewers FROM candidates"
            " WHERE rid > ? ORDER BY rid LIMIT ?",
            [last, _BATCH],
        ).fetchall()
        if not found:
            return
        last = found[-1][0]
        for rid, position, intro, summary, verdict, name, interviewers in found:
            text = fulltext.written_text(
                position,
                intro or "",
                summary or "",
                space_index.indexed_questions(db.execute, rid),
                verdict,
                name,
                rows.names(interviewers),
            )
            folded = fold(text)
            ws = space_index.space_of(rid)
            if folded == text or not space_index.exists(db.execute, ws):
                continue
            tri, bi = space_index.tables(ws)
            db.execute(
                f"INSERT INTO {tri} ({tri}, rowid, text) VALUES ('delete', ?, ?)", [rid, text]
            )
            db.execute(
                f"INSERT INTO {bi} ({bi}, rowid, bigrams) VALUES ('delete', ?, ?)",
                [rid, fulltext.bigrams(text)],
            )
            db.execute(f"INSERT INTO {tri} (rowid, text) VALUES (?, ?)", [rid, folded])
            db.execute(
                f"INSERT INTO {bi} (rowid, bigrams) VALUES (?, ?)", [rid, fulltext.bigrams(folded)]
            )


def pg027_one_script_index(conn: psycopg.Connection[Any]) -> None:
    """Nothing since pg035: it indexes every candidate's stored text again, folded
    (`fulltext.doc_text`), and drops the columns and rows this step rewrote; their code
    went with it."""
