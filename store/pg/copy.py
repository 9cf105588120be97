"""Copy a SQLite database into an empty PostgreSQL one (`debrief migrate-db`).

Every table the bot keeps (`store/schema/tables.py`, in its order) is copied row for
row in one PostgreSQL transaction (all of it lands, or none of it): candidates with
their questions (and their `tsv` built from the same text as SQLite's index),
reviews (thread replies and button decisions), posts, digests, the audit, what was
forgotten and erased, meta, claims, the workspaces.
Row ids are kept, so "newest first" is the same order on both; then the counts of every
table are compared. The SQLite database is only read.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .. import fulltext, rows
from ..base import SPACE_BITS
from ..errors import StoreError
from ..models import Question
from ..schema.tables import TABLES
from ..sqlite.store import Store
from .connection import Conn
from .lexemes import document

if TYPE_CHECKING:
    from . import PgStore

_BATCH = 2000


def _columns(conn: Conn, table: str) -> list[str]:
    rows = conn.execute(
        "SELECT column_name FROM information_schema.columns"
        " WHERE table_name = %s AND table_schema = current_schema() ORDER BY ordinal_position",
        [table],
    ).fetchall()
    return [r[0] for r in rows]


def _sqlite_rows(src: Store, table: str) -> Iterator[dict[str, Any]]:
    order = "rid" if table == "candidates" else "rowid"
    yield from src.db.query(f"SELECT * FROM [{table}] ORDER BY {order}")


def _questions_by_rid(src: Store) -> dict[int, list[Question]]:
    found: dict[int, list[Question]] = defaultdict(list)
    for r in src.db.query(
        "SELECT candidate_rid, number, question, goal, answer, answered FROM questions"
        " ORDER BY candidate_rid, seq"
    ):
        found[r["candidate_rid"]].append(
            Question(
                number=r["number"],
                question=r["question"],
                goal=r["goal"],
                answer=r["answer"],
                answered=bool(r["answered"]),
            )
        )
    return found


def _clean(value: Any) -> Any:
    return value.replace("\x00", "") if isinstance(value, str) else value


def copy_sqlite(src: Store, dst: PgStore) -> dict[str, tuple[int, int]]:
    """Copy `src` into `dst` (which must hold no candidates, replies or audit yet);
    returns {table: (rows in SQLite, rows in PostgreSQL)}."""
    with src._said():  # SQLite's errors too are the store's
        return _copy(src, dst)


def _copy(src: Store, dst: PgStore) -> dict[str, tuple[int, int]]:
    present = set(src.db.table_names())
    tables = [t for t in TABLES if t.name in present]
    questions = _questions_by_rid(src) if "candidates" in present else {}
    with dst.tx() as tx:
        conn: Conn = tx.conn
        for table in ("candidates", "replies", "audit", "posts", "installations"):
            row = conn.execute(f"SELECT count(*) FROM {table}").fetchone()
            if row and row[0]:
                raise StoreError(
                    f"{dst.path} already holds {table}: migrate-db copies into an empty"
                    " database only (create a new one, or drop its tables)"
                )
        conn.execute("DELETE FROM meta")  # only the migration's own bookkeeping is there
        if "workspaces" in present:  # space 0 as the migration made it: SQLite's instead
            conn.execute("DELETE FROM oauth_states")
            conn.execute("DELETE FROM workspaces")
        for spec in tables:
            table = spec.name
            theirs = _columns(conn, table)
            batch: list[list[Any]] = []
            cols: list[str] = []
            for r in _sqlite_rows(src, table):
                if spec.copy == "text":
                    text = fulltext.doc_text(
                        r["position"],
                        r["intro"] or "",
                        r["summary"] or "",
                        questions.get(r["rid"], []),
                        r["verdict"],
                        r.get("name"),
                        rows.names(r.get("interviewers")),
                        fulltext.searched_body(r.get("questions_read", 1), r.get("body")),
                    )
                    r = r | {"tsv": document(text)}
                if not cols:
                    cols = [c for c in theirs if c in r]
                batch.append([_clean(r[c]) for c in cols])
                if len(batch) >= _BATCH:
                    _insert(conn, table, cols, batch)
                    batch = []
            if batch:
                _insert(conn, table, cols, batch)
            key = spec.identity
            if key:
                # candidates: the identity numbers space 0's rids alone; other spaces own
                # rid ranges of their own above it (base.py SPACE_BITS)
                below = f" WHERE {key} < {1 << SPACE_BITS:d}" if table == "candidates" else ""
                conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{key}'),"
                    f" coalesce((SELECT max({key}) FROM {table}{below}), 0) + 1, false)"
                )
    counts: dict[str, tuple[int, int]] = {}
    for table in (t.name for t in tables):
        (ours,) = src.db.execute(f"SELECT count(*) FROM [{table}]").fetchone()
        theirs_count = dst._scalar(f"SELECT count(*) FROM {table}")
        counts[table] = (int(ours), int(theirs_count or 0))
    return counts


def _insert(conn: Conn, table: str, cols: list[str], rows: list[list[Any]]) -> None:
    names = ", ".join(f'"{c}"' for c in cols)
    marks = ", ".join("%s" for _ in cols)
    with conn.cursor() as cur:
        cur.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)
