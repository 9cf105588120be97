"""Candidates on PostgreSQL: save (with the full-text columns), get, list, count, resolve.

The counterpart of `store/candidates.py`; a save is one upsert keyed by the candidate's
id, so two replicas indexing the same file record it once."""

from __future__ import annotations

from .. import rows
from ..candidates import RETIRE_SQL, RETIRED_SQL, retire_params
from ..models import Candidate, Question, Transcript
from ..resolve import CandidateLookups, ResolveSQL
from .connection import Conn
from .postings import Rows, text_array
from .search import PgSearch
from .threads import OPEN_COUNT_SQL, read_reviews

_RETIRE_SQL = RETIRE_SQL.replace("?", "%s")


def _clean(text: str | None) -> str | None:
    """PostgreSQL text cannot hold NUL characters."""
    return text.replace("\x00", "") if text else text


def index_columns(text: str, bigrams: str) -> tuple[str, int, list[str], int]:
    """(fts, fts_len, terms, terms_len) of a candidate's indexed text and bigram string."""
    tokens = bigrams.split()
    fts = text.casefold().replace("\x00", "")
    return fts, len(fts), sorted(set(tokens)), len(tokens)  # fts_len is length(fts)


def questions(conn: Conn, rid: int) -> list[Question]:
    return [
        rows.question(r)
        for r in conn.execute(
            f"SELECT {rows.QUESTION_COLUMNS}, unanswered_reason FROM questions"
            " WHERE candidate_rid = %s ORDER BY seq",
            [rid],
        ).fetchall()
    ]


_POSITION = "strpos(lower(position), lower(%s)) > 0"


RESOLVE_SQL = ResolveSQL(
    mark="%s",
    position=_POSITION,
    prefix=lambda text, limit: (
        " WHERE starts_with(id, %s) ORDER BY id LIMIT %s",
        [text, limit],
    ),
    no_limit=None,
    ids=lambda ids: (" WHERE id = ANY(%s)", [list(ids)]),
)
"""How this backend says the steps of resolving and listing (store/resolve.py)."""


class PgCandidates(PgSearch, CandidateLookups):
    _RESOLVE_SQL = RESOLVE_SQL

    def file_state(self) -> dict[str, tuple[str, str, int, int]]:
        return {
            r[1]: (r[0], r[2], r[3] or 0, r[4] or 0)
            for r in self._all_rows("SELECT id, source, hash, mtime_ns, size FROM candidates")
        }

    def touch_file(self, candidate_id: str, mtime_ns: int, size: int) -> None:
        self._write(
            lambda c: c.execute(
                "UPDATE candidates SET mtime_ns = %s, size = %s WHERE id = %s",
                [mtime_ns, size, candidate_id],
            )
        )

    def _save_indexed(
        self, t: Transcript, mtime_ns: int, size: int, now: str, prepared: tuple[str, str]
    ) -> None:
        fts, fts_len, terms, terms_len = index_columns(*prepared)
        values = [
            _clean(t.id),
            _clean(t.position),
            t.years,
            _clean(t.years_text),
            _clean(t.intro),
            _clean(t.summary),
            _clean(t.verdict),
            _clean(t.source),
            t.hash,
            mtime_ns,
            size,
            len(t.questions),
            len(t.unanswered),
            now,
            now,
            fts,
            fts_len,
            text_array(terms),
            terms_len,
        ]

        def write(conn: Conn) -> None:
            row = conn.execute(
                "INSERT INTO candidates (id, position, years, years_text, intro, summary, verdict,"
                " source, hash, mtime_ns, size, question_count, unanswered_count,"
                " first_indexed_at, indexed_at, fts, fts_len, terms, terms_len)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s,"
                " %s::text[], %s) ON CONFLICT (id) DO UPDATE SET position = excluded.position,"
                " years = excluded.years, years_text = excluded.years_text,"
                " intro = excluded.intro, summary = excluded.summary,"
                " verdict = excluded.verdict, source = excluded.source, hash = excluded.hash,"
                " mtime_ns = excluded.mtime_ns, size = excluded.size,"
                " question_count = excluded.question_count,"
                " unanswered_count = excluded.unanswered_count,"
                " indexed_at = excluded.indexed_at, fts = excluded.fts,"
                " fts_len = excluded.fts_len, terms = excluded.terms,"
                " terms_len = excluded.terms_len RETURNING rid",
                values,
            ).fetchone()
            assert row is not None
            rid = row[0]
            conn.execute("DELETE FROM questions WHERE candidate_rid = %s", [rid])
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO questions (candidate_rid, seq, number, question, goal, answer,"
                    " answered, unanswered_reason) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                    [
                        (
                            rid,
                            seq,
                            q.number,
                            _clean(q.question),
                            _clean(q.goal),
                            _clean(q.answer),
                            int(q.answered),
                            None if q.answered else (q.unanswered_reason or "empty"),
                        )
                        for seq, q in enumerate(t.questions)
                    ],
                )
            conn.execute(OPEN_COUNT_SQL, [t.id])
            # The old frequency rows went with the update (triggers: migrations.py); the
            # new ones are written now, or with the batch, last: a save that failed
            # above leaves none behind.
            batch = self.batch_rows()
            rows = Rows() if batch is None else batch
            rows.add(rid, prepared[1].split(), fts)
            if batch is None:
                rows.write(conn)

        with self._stored():
            self._write(write)

    def remove(self, candidate_id: str) -> bool:
        def write(conn: Conn) -> bool:
            row = conn.execute(
                "DELETE FROM candidates WHERE id = %s RETURNING rid, hash, source", [candidate_id]
            ).fetchone()
            if row is None:
                return False
            batch = self.batch_rows()
            if batch is not None:
                batch.drop(int(row[0]))  # saved earlier in this batch: nothing to write
            conn.execute(_RETIRE_SQL, retire_params(candidate_id, row[1], row[2]))
            return True

        return self._write(write)

    def retired(self) -> dict[str, tuple[str, str]]:
        return {r[0]: (r[1], r[2]) for r in self._all_rows(RETIRED_SQL)}

    def get_candidate(self, candidate_id: str) -> Candidate | None:
        found = self._rows(
            "SELECT rid, id, position, years, years_text, intro, summary, verdict, source, hash,"
            " first_indexed_at FROM candidates WHERE id = %s",
            [candidate_id],
        )
        if not found:
            return None
        r = found[0]
        with self._said():
            reviews = read_reviews(self.conn, r["id"])
            qs = questions(self.conn, r["rid"])
        return rows.candidate(r, qs, reviews)

    def count(self, position: str | None = None) -> int:
        if position:
            row = self._one(f"SELECT count(*) FROM candidates WHERE {_POSITION}", [position])
        else:
            row = self._one("SELECT count(*) FROM candidates")
        return int(row[0]) if row else 0

    def count_unanswered(self) -> int:
        row = self._one("SELECT count(*) FROM candidates WHERE unanswered_count > 0")
        return int(row[0]) if row else 0

    def ids(self) -> list[str]:
        return [r[0] for r in self._all_rows("SELECT id FROM candidates ORDER BY id")]
