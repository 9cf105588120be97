"""Schema step m027 / pg027: the full-text index in one script (issue 36).

Since this release the indexed text is folded to simplified characters (`fulltext.doc_text`,
`scripts.fold`) and so is every query. A database written before indexed each text as
written: its rows holding a traditional character are indexed again, folded; the others
(most, in a team that writes 简体) are already what a save indexes now and are left alone.
The stored text itself (candidates, questions) is never changed: what users see stays as
written.

- SQLite: its body went with issue 47: step m035 indexes every row again from the
  stored text, folded (store/sqlite/space_index.py).
- PostgreSQL: `fts` (the folded, case-folded text), `terms` and their lengths are
  updated, which takes the candidate out of the frequency rows (trigger
  `candidates_blocks`), and its new rows are written, as a save writes them.

Both read the candidates a batch at a time, in rid order.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from .. import fulltext
from ..scripts import fold

if TYPE_CHECKING:
    import psycopg

_BATCH = 500


def pg027_one_script_index(conn: psycopg.Connection[Any]) -> None:
    """Each candidate whose `fts` holds a traditional character, indexed folded."""
    from ..pg.postings import Rows, text_array

    last = -1
    while True:
        found = conn.execute(
            "SELECT rid, fts FROM candidates WHERE rid > %s ORDER BY rid LIMIT %s",
            [last, _BATCH],
        ).fetchall()
        if not found:
            return
        last = int(found[-1][0])
        written = Rows()
        for rid, fts in found:
            folded = fold(fts or "")
            if folded == (fts or ""):
                continue
            # what a save of the same text writes (pg/indexing.py `counted_text`): `fts`
            # is case-folded already, and bigrams() case-folds as it did for the save
            tokens = fulltext.bigrams(folded).split()
            counts = Counter(tokens)
            conn.execute(
                "UPDATE candidates SET fts = %s, fts_len = %s, terms = %s::text[],"
                " terms_len = %s WHERE rid = %s",
                [folded, len(folded), text_array(list(counts)), len(tokens), rid],
            )
            written.add(int(rid), counts, len(tokens), folded)
        written.write(conn)
