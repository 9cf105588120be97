"""Schema step m028 / pg028: the candidate is a person (issue 38).

- `candidates` gains `candidate_ref` (the explicit key the file gives: `候选人编号`,
  `Candidate ID`, an e-mail address; read from the files on the next index run: every
  row is marked to be read again) and `candidate_key` (who the interview's candidate
  is: store/candidate_keys.py, computed here from the stored name and position, the
  same function a save uses, so both backends agree), with an index by space and key.
- `candidate_links`: the overrides `debrief link` / `unlink` record (interview id ->
  key, who, when), which every later save of the interview keeps.
- The hiring decision is about the candidate: where two interviews of one candidate
  both had one, the newer one is kept and the older rows go; the audit keeps every
  decision as it was.

Both backends run the same body, their parameter style apart."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..candidate_keys import natural_key
from . import REPARSE_MTIME

if TYPE_CHECKING:
    import psycopg
    import sqlite_utils

Run = Callable[[str, Sequence[Any]], Any]

LINKS_TABLE = (
    "CREATE TABLE IF NOT EXISTS candidate_links (ws INTEGER NOT NULL DEFAULT 0,"
    " interview_id TEXT NOT NULL, candidate_key TEXT NOT NULL, linked_by TEXT NOT NULL,"
    " linked_at TEXT NOT NULL, PRIMARY KEY (ws, interview_id))"
)
_BATCH = 500


def _body(run: Run) -> None:
    run("ALTER TABLE candidates ADD COLUMN candidate_ref TEXT", [])
    run("ALTER TABLE candidates ADD COLUMN candidate_key TEXT", [])
    run("CREATE INDEX IF NOT EXISTS candidates_key ON candidates (ws, candidate_key)", [])
    run(LINKS_TABLE, [])
    run("CREATE INDEX IF NOT EXISTS candidate_links_key ON candidate_links (ws, candidate_key)", [])
    last = -1
    while True:
        found = run(
            "SELECT rid, id, name, position FROM candidates WHERE rid > ? ORDER BY rid LIMIT ?",
            [last, _BATCH],
        ).fetchall()
        if not found:
            break
        last = found[-1][0]
        for rid, cid, name, position in found:
            run(
                "UPDATE candidates SET candidate_key = ? WHERE rid = ?",
                [natural_key(cid, name, position, None), rid],
            )
    run(f"UPDATE candidates SET mtime_ns = {REPARSE_MTIME:d}", [])
    # one hiring decision a candidate: the newest of their interviews' decisions
    groups: dict[tuple[int, str], list[tuple[str, str]]] = {}
    for ws, cid, at, key in run(
        "SELECT o.ws, o.candidate_id, o.decided_at, c.candidate_key FROM outcomes o"
        " JOIN candidates c ON c.ws = o.ws AND c.id = o.candidate_id",
        [],
    ).fetchall():
        groups.setdefault((ws, key), []).append((at, cid))
    for (ws, _key), decided in groups.items():
        for _at, older in sorted(decided)[:-1]:
            run("DELETE FROM outcomes WHERE ws = ? AND candidate_id = ?", [ws, older])


def m028_candidate_loops(db: sqlite_utils.Database) -> None:
    _body(lambda sql, params: db.execute(sql, list(params)))


def pg028_candidate_loops(conn: psycopg.Connection[Any]) -> None:
    _body(lambda sql, params: conn.execute(sql.replace("?", "%s"), list(params)))
