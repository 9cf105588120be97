"""Candidates: saving transcripts (with their full-text rows), reading them back,
listing and counting them, and resolving what someone typed to one candidate."""

from __future__ import annotations

import sqlite_utils

from . import fulltext, rows
from .clock import utcnow
from .models import Candidate, Question, Transcript
from .resolve import CandidateLookups, ResolveSQL
from .sqlite.connection import unstorable_is_said
from .sqlite.search import SearchStore
from .threads import OPEN_COUNT_SQL, read_reviews


def questions(db: sqlite_utils.Database, rid: int, reasons: bool = False) -> list[Question]:
    """A candidate's questions; `reasons`: with why each unanswered one is (a column that
    migrations before m009 do not have yet, so the full-text code does not ask for it)."""
    reason = "unanswered_reason" if reasons else "NULL"
    return [
        rows.question(r)
        for r in db.execute(
            f"SELECT {rows.QUESTION_COLUMNS}, {reason} FROM questions"
            " WHERE candidate_rid = ? ORDER BY seq",
            [rid],
        ).fetchall()
    ]


RETIRE_SQL = (
    "INSERT INTO retired (id, hash, source, at) SELECT ?, ?, ?, ?"
    " WHERE EXISTS (SELECT 1 FROM posts WHERE candidate_id = ?)"
    " OR EXISTS (SELECT 1 FROM replies WHERE candidate_id = ?)"
    " ON CONFLICT (id) DO UPDATE SET hash = excluded.hash, source = excluded.source,"
    " at = excluded.at"
)
"""A removed candidate's id is retired when something recorded still names it: the
content and path it last had are kept, so that only that file, coming back, takes the
id (and its history) again (store/indexer.py `_Ids.pick`)."""

RETIRED_SQL = "SELECT id, hash, source FROM retired"


def retire_params(candidate_id: str, content_hash: str, source: str) -> list[str]:
    return [candidate_id, content_hash, source, utcnow(), candidate_id, candidate_id]


def fts_delete(db: sqlite_utils.Database, rid: int) -> None:
    """Contentless FTS5 forgets a row only when told exactly what it indexed."""
    row = db.execute(
        "SELECT position, intro, summary, verdict FROM candidates WHERE rid = ?", [rid]
    ).fetchone()
    if row is None:
        return
    text = fulltext.doc_text(row[0], row[1], row[2], questions(db, rid), row[3])
    db.execute(
        "INSERT INTO candidates_fts (candidates_fts, rowid, text) VALUES ('delete', ?, ?)",
        [rid, text],
    )
    db.execute(
        "INSERT INTO candidates_bigrams (candidates_bigrams, rowid, bigrams)"
        " VALUES ('delete', ?, ?)",
        [rid, fulltext.bigrams(text)],
    )


_POSITION = "instr(lower(position), lower(?)) > 0"


RESOLVE_SQL = ResolveSQL(
    mark="?",
    position=_POSITION,
    prefix=lambda text, limit: (
        " WHERE id >= ? AND id < ? ORDER BY id LIMIT ?",
        [text, text + "\U0010ffff", limit],
    ),
    no_limit=-1,
    ids=lambda ids: (f" WHERE id IN ({', '.join('?' for _ in ids)})", list(ids)),
)
"""How this backend says the steps of resolving and listing (store/resolve.py)."""


class CandidateStore(SearchStore, CandidateLookups):
    """Candidates; `resolve` falls back on full-text search, hence SearchStore."""

    _RESOLVE_SQL = RESOLVE_SQL

    def file_state(self) -> dict[str, tuple[str, str, int, int]]:
        """source -> (id, hash, mtime_ns, size), for deciding what an index run must redo."""
        return {
            r["source"]: (r["id"], r["hash"], r["mtime_ns"] or 0, r["size"] or 0)
            for r in self.db.query("SELECT id, source, hash, mtime_ns, size FROM candidates")
        }

    def touch_file(self, candidate_id: str, mtime_ns: int, size: int) -> None:
        """The file was touched but its content is the same: remember the new stat."""
        self._write(
            lambda db: db.execute(
                "UPDATE candidates SET mtime_ns = ?, size = ? WHERE id = ?",
                [mtime_ns, size, candidate_id],
            )
        )

    def _save_indexed(
        self, t: Transcript, mtime_ns: int, size: int, now: str, fts: tuple[str, str]
    ) -> None:
        with unstorable_is_said():  # data SQLite refuses: this save alone fails
            self._write(lambda db: self._save(db, t, mtime_ns, size, now, fts))

    def _save(
        self,
        db: sqlite_utils.Database,
        t: Transcript,
        mtime_ns: int,
        size: int,
        now: str,
        fts: tuple[str, str],
    ) -> None:
        old = db.execute(
            "SELECT rid, first_indexed_at FROM candidates WHERE id = ?", [t.id]
        ).fetchone()
        values = [
            t.id,
            t.position,
            t.years,
            t.years_text,
            t.intro,
            t.summary,
            t.verdict,
            t.source,
            t.hash,
            mtime_ns,
            size,
            len(t.questions),
            len(t.unanswered),
        ]
        if old is None:
            cur = db.execute(
                "INSERT INTO candidates (id, position, years, years_text, intro, summary, verdict,"
                " source, hash, mtime_ns, size, question_count, unanswered_count,"
                " first_indexed_at, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [*values, now, now],
            )
            rid = cur.lastrowid
        else:
            rid = old[0]
            fts_delete(db, rid)
            db.execute("DELETE FROM questions WHERE candidate_rid = ?", [rid])
            db.execute(
                "UPDATE candidates SET id = ?, position = ?, years = ?, years_text = ?,"
                " intro = ?, summary = ?,"
                " verdict = ?, source = ?, hash = ?, mtime_ns = ?, size = ?,"
                " question_count = ?, unanswered_count = ?, indexed_at = ? WHERE rid = ?",
                [*values, now, rid],
            )
        db.conn.executemany(
            "INSERT INTO questions (candidate_rid, seq, number, question, goal, answer,"
            " answered, unanswered_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    rid,
                    seq,
                    q.number,
                    q.question,
                    q.goal,
                    q.answer,
                    int(q.answered),
                    None if q.answered else (q.unanswered_reason or "empty"),
                )
                for seq, q in enumerate(t.questions)
            ],
        )
        db.execute(OPEN_COUNT_SQL, [t.id])
        db.execute("INSERT INTO candidates_fts (rowid, text) VALUES (?, ?)", [rid, fts[0]])
        db.execute("INSERT INTO candidates_bigrams (rowid, bigrams) VALUES (?, ?)", [rid, fts[1]])

    def remove(self, candidate_id: str) -> bool:
        """Delete a candidate's transcript (its questions and full-text row too). What was
        recorded about them stays, and their id is retired (see RETIRE_SQL)."""

        def write(db: sqlite_utils.Database) -> bool:
            row = db.execute(
                "SELECT rid, hash, source FROM candidates WHERE id = ?", [candidate_id]
            ).fetchone()
            if row is None:
                return False
            fts_delete(db, row[0])
            db.execute("DELETE FROM candidates WHERE rid = ?", [row[0]])
            db.execute(RETIRE_SQL, retire_params(candidate_id, row[1], row[2]))
            return True

        return self._write(write)

    def retired(self) -> dict[str, tuple[str, str]]:
        """id -> (content hash, source) of removed candidates whose history remains."""
        return {r[0]: (r[1], r[2]) for r in self.db.execute(RETIRED_SQL)}

    def get_candidate(self, candidate_id: str) -> Candidate | None:
        found = self._rows("SELECT * FROM candidates WHERE id = ?", [candidate_id])
        if not found:
            return None
        r = found[0]
        return rows.candidate(
            r, questions(self.db, r["rid"], reasons=True), read_reviews(self.db, r["id"])
        )

    def count(self, position: str | None = None) -> int:
        if position:
            row = self.db.execute(
                f"SELECT count(*) FROM candidates WHERE {_POSITION}",
                [position],
            ).fetchone()
        else:
            row = self.db.execute("SELECT count(*) FROM candidates").fetchone()
        return int(row[0])

    def count_unanswered(self) -> int:
        """How many candidates have at least one open question."""
        row = self.db.execute(
            "SELECT count(*) FROM candidates WHERE unanswered_count > 0"
        ).fetchone()
        return int(row[0])

    def ids(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT id FROM candidates ORDER BY id")]
