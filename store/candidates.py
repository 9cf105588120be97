"""Candidates: saving transcripts (with their full-text rows), reading them back,
listing and counting them, and resolving what someone typed to one candidate.

A save is one upsert keyed by the candidate's id (two replicas indexing the same file
record it once), its questions, and its full-text rows, which each backend writes its
own way (`_index`: store/sqlite/search.py, store/pg/search.py)."""

from __future__ import annotations

from typing import Any

from . import fulltext, rows
from .alikes import RECORD_SQL, chosen_key, reader
from .base import Base, Tx
from .candidate_keys import SAME_CANDIDATE
from .clock import utcnow
from .errors import refused_data
from .hits import HitSearch
from .models import Candidate, CandidateSummary, Question, SearchHit, Transcript
from .outcomes import (
    current_outcome,
    hand_over_outcome,
    read_outcome,
    read_outcome_row,
    settle_person,
)
from .resolve import Resolution, list_clause, position_has, resolve
from .threads import read_reviews

RETIRE_SQL = (
    "INSERT INTO retired (ws, id, hash, source, at) SELECT ?, ?, ?, ?, ?"
    " WHERE EXISTS (SELECT 1 FROM posts WHERE ws = ? AND candidate_id = ?)"
    " OR EXISTS (SELECT 1 FROM replies WHERE ws = ? AND candidate_id = ?)"
    " OR EXISTS (SELECT 1 FROM outcomes WHERE ws = ? AND candidate_id = ?)"
    " ON CONFLICT (ws, id) DO UPDATE SET hash = excluded.hash, source = excluded.source,"
    " at = excluded.at"
)
"""A removed candidate's id is retired when something recorded still names it: the
content and path it last had are kept, so that only that file, coming back, takes the
id (and its history) again (store/indexer.py `_Ids.pick`)."""

LINKED_KEY = (
    "coalesce((SELECT l.candidate_key FROM candidate_links l WHERE l.ws = ?"
    " AND l.interview_id = ?), ?)"
)
"""An interview's candidate key as a save writes it: the override `link`/`unlink`
recorded (store/loops.py), else the key its file gives (store/candidate_keys.py)."""

_KEPT_ON_UPDATE = ("rid", "ws", "id", "first_indexed_at")
_OPEN_AFTER_REPLIES = (
    "(SELECT count(*) FROM (VALUES {numbers}) AS n WHERE NOT EXISTS (SELECT 1 FROM replies r"
    " WHERE r.ws = ? AND r.candidate_id = ? AND r.followup_number = n.column1))"
)
_QUESTIONS_A_STATEMENT = 100  # 900 parameters: well within SQLite's and PostgreSQL's limits


def questions(store: Base, rid: int) -> list[Question]:
    """A candidate's questions, in their order."""
    return [
        rows.question(r)
        for r in store._all(
            f"SELECT {rows.QUESTION_COLUMNS}, unanswered_reason, started_at, answer_recorded"
            " FROM questions"
            " WHERE candidate_rid = ? ORDER BY seq",
            [rid],
        )
    ]


class CandidateStore(HitSearch, Base):
    """Candidates; `resolve` falls back on full-text search, hence HitSearch."""

    def file_state(self) -> dict[str, tuple[str, str, int, int]]:
        """source -> (id, hash, mtime_ns, size), for deciding what an index run must redo
        (a file of several interviews: its first's id; every interview of a file has its
        hash, time and size: `file_interviews` names them all)."""
        return {
            r[1]: (r[0], r[2], r[3] or 0, r[4] or 0)
            for r in self._all(
                f"SELECT id, source, hash, mtime_ns, size FROM candidates WHERE {self.space}"
                " ORDER BY part DESC"
            )
        }

    def file_interviews(self) -> dict[str, list[tuple[str, int]]]:
        """source -> (id, part) of each interview indexed from it, in file order: a file
        of one interview has part 0, a file of several 1, 2, … (issue 46)."""
        found: dict[str, list[tuple[str, int]]] = {}
        for r in self._all(
            f"SELECT source, id, part FROM candidates WHERE {self.space} ORDER BY source, part"
        ):
            found.setdefault(r[0], []).append((r[1], int(r[2] or 0)))
        return found

    def touch_file(self, candidate_id: str, mtime_ns: int, size: int) -> None:
        """The file was touched but its content is the same: remember the new stat."""
        self._write(
            lambda tx: tx.execute(
                f"UPDATE candidates SET mtime_ns = ?, size = ? WHERE {self.space} AND id = ?",
                [mtime_ns, size, candidate_id],
            )
        )

    def save(
        self,
        t: Transcript,
        mtime_ns: int = 0,
        size: int = 0,
        prepared: tuple[str, str] | None = None,
        webhook: bool = False,
        part: int = 0,
    ) -> None:
        """Insert or replace one transcript, atomically; `part`: its place in a file of
        several interviews (1, 2, …), 0 in a file of one. `prepared`: its full-text and
        bigram strings, when a worker process already computed them. With `webhook` (the
        team hands its decisions to an ATS), a save that moves a decided interview to
        another person (its file now names them) writes, in the same transaction, the
        event of each person whose current decision it changed (`_moved`). Data the
        database cannot hold is UnstorableError: this save alone fails."""
        now = utcnow()
        indexed = prepared or fulltext.indexed(t)
        with refused_data():
            self._write(lambda tx: self._save(tx, t, mtime_ns, size, now, indexed, webhook, part))

    def _save(
        self,
        tx: Tx,
        t: Transcript,
        mtime_ns: int,
        size: int,
        now: str,
        indexed: tuple[str, str],
        webhook: bool = False,
        part: int = 0,
    ) -> None:
        text = self.engine.storable
        # a decision recorded through this interview: whose it was until now, so that a
        # save giving the interview another person tells the ATS of both (issue 45)
        holds = webhook and read_outcome_row(tx, self.ws, t.id) is not None
        was = None
        if holds:
            found = tx.execute(
                f"SELECT candidate_key FROM candidates WHERE {self.space} AND id = ?", [t.id]
            ).fetchone()
            was = None if found is None else str(found[0])
        index_columns, prepared = self._index_columns(indexed)
        # who the candidate is, where no override says (store/alikes.py: two people
        # recorded as sharing the file's key or name and position)
        key, alike = chosen_key(
            reader(tx),
            self.space,
            t.id,
            t.name,
            t.position,
            t.candidate_ref,
        )
        for shared, candidate, why in alike:
            tx.execute(RECORD_SQL, [self.ws, shared, candidate, why, t.id, "index", now])
        columns: dict[str, Any] = {
            "ws": self.ws,
            "id": text(t.id),
            "position": text(t.position),
            "years": t.years,
            "years_text": text(t.years_text),
            "name": text(t.name),
            "interviewers": text(rows.names_json(t.interviewers)),
            "interviewed_at": t.interviewed_at,
            "interviewed_at_text": text(t.interviewed_at_text),
            "round": text(t.round),
            "candidate_ref": text(t.candidate_ref),
            "candidate_key": key,
            "intro": text(t.intro),
            "summary": text(t.summary),
            "verdict": text(t.verdict),
            "kind": t.kind,
            "questions_read": int(t.questions_read),
            "body": text(t.body),
            "title": text(t.title),
            "origin": rows.origin_json(t.origin),
            "source": text(t.source),
            "hash": t.hash,
            "mtime_ns": mtime_ns,
            "size": size,
            "part": part,
            # the questions that count either way; those whose answer the file does not
            # record apart (issue 46)
            "question_count": len(t.counted),
            "unrecorded_count": len(t.unrecorded),
            "unanswered_count": len(t.unanswered),
            "first_indexed_at": now,
            "indexed_at": now,
            **index_columns,
        }
        self._reindexing(tx, t.id)
        changed = ", ".join(f"{c} = excluded.{c}" for c in columns if c not in _KEPT_ON_UPDATE)
        names = list(columns)
        values = ["?"] * len(names)
        params = list(columns.values())
        open_numbers = [q.number for q in t.unanswered]
        if open_numbers:
            # the open questions no reply has followed up yet (as OPEN_COUNT_SQL counts
            # them), counted in the insert: the row is written once, not updated after
            at = names.index("unanswered_count")
            values[at] = _OPEN_AFTER_REPLIES.format(numbers=", ".join("(?)" for _ in open_numbers))
            params[at : at + 1] = [*open_numbers, self.ws, t.id]
        # who the candidate is: what `debrief link`/`unlink` said of the interview, else
        # what its file says (columns before unanswered_count: its parameters moved last)
        at = names.index("candidate_key")
        values[at] = LINKED_KEY
        params[at : at + 1] = [self.ws, t.id, params[at]]
        rid_sql = self._new_rid(tx)
        if rid_sql is not None:  # the next rid of this space's range (base.py SPACE_BITS)
            names.insert(0, "rid")
            values.insert(0, rid_sql)  # SQL alone: no parameter moves
        saved = tx.execute(
            f"INSERT INTO candidates ({', '.join(names)}) VALUES ({', '.join(values)})"
            f" ON CONFLICT (ws, id) DO UPDATE SET {changed} RETURNING rid, candidate_key",
            params,
        ).fetchone()
        rid = saved[0]
        if holds and was != saved[1]:
            self._moved(tx, t.id, was, str(saved[1]))
        # an interview that joins a person with a hiring decision (its file now names
        # them): the decision closes its open requests, however it arrives (issue 45)
        tx.execute(
            "UPDATE requests SET closed_at = ?, closed_by = 'outcome' WHERE ws = ?"
            " AND candidate_id = ? AND closed_at IS NULL AND EXISTS (SELECT 1 FROM outcomes o"
            f" WHERE o.ws = requests.ws AND o.candidate_id IN {SAME_CANDIDATE})",
            [now, self.ws, t.id, self.ws, t.id],
        )
        tx.execute("DELETE FROM questions WHERE candidate_rid = ?", [rid])
        question_rows = [
            (
                rid,
                seq,
                q.number,
                text(q.question),
                text(q.goal),
                text(q.answer),
                int(q.answered),
                None if q.answered or not q.answer_recorded else (q.unanswered_reason or "empty"),
                text(q.started_at),
                int(q.answer_recorded),
            )
            for seq, q in enumerate(t.questions)
        ]
        for start in range(0, len(question_rows), _QUESTIONS_A_STATEMENT):
            chunk = question_rows[start : start + _QUESTIONS_A_STATEMENT]
            tx.execute(
                "INSERT INTO questions (candidate_rid, seq, number, question, goal, answer,"
                " answered, unanswered_reason, started_at, answer_recorded) VALUES "
                + ", ".join("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" for _ in chunk),
                [v for row in chunk for v in row],
            )
        self._index(tx, rid, prepared)

    def _moved(self, tx: Tx, interview_id: str, was: str | None, key: str) -> None:
        """The save of interview `interview_id`, holding a decision, gave it the person
        `key` instead of `was` (None: it was not indexed): each person's current decision
        compared with theirs before, the ATS sent those that changed (store/outcomes.py
        `settle_person`, as a split and a merge do), in order after every earlier event
        of either (item 5 of issue 45)."""
        left = self._ids_in(tx, was) if was is not None else []
        joined = self._ids_in(tx, key)
        before_left = current_outcome(tx, self.ws, [*left, interview_id])
        before_joined = current_outcome(tx, self.ws, [i for i in joined if i != interview_id])
        every = sorted({*left, *joined})
        settle_person(tx, self.ws, left, [before_left], True, every)
        settle_person(tx, self.ws, joined, [before_joined], True, every)

    def _ids_in(self, tx: Tx, key: str) -> list[str]:
        """The ids of the interviews with candidate key `key`, in `tx`."""
        return [
            str(r[0])
            for r in tx.execute(
                f"SELECT id FROM candidates WHERE {self.space} AND candidate_key = ? ORDER BY id",
                [key],
            ).fetchall()
        ]

    def remove(self, candidate_id: str) -> bool:
        """Delete a candidate's transcript (its questions and full-text rows too). What was
        recorded about them stays, and their id is retired (see RETIRE_SQL)."""

        def write(tx: Tx) -> bool:
            row = tx.execute(
                f"SELECT rid, hash, source FROM candidates WHERE {self.space} AND id = ?",
                [candidate_id],
            ).fetchone()
            if row is None:
                return False
            rid, content_hash, source = row
            # the hiring decision is the person's (issue 38): another interview of theirs
            # holds it from now on (the ATS has it already: the file went, nobody decided)
            hand_over_outcome(tx, self.ws, candidate_id, webhook=False)
            self._unindex(tx, rid)
            tx.execute("DELETE FROM candidates WHERE rid = ?", [rid])
            tx.execute(
                RETIRE_SQL,
                [self.ws, candidate_id, content_hash, source, utcnow()]
                + [self.ws, candidate_id] * 3,
            )
            return True

        return self._write(write)

    def retired(self) -> dict[str, tuple[str, str]]:
        """id -> (content hash, source) of removed candidates whose history remains."""
        return {
            r[0]: (r[1], r[2])
            for r in self._all(f"SELECT id, hash, source FROM retired WHERE {self.space}")
        }

    def get_candidate(self, candidate_id: str) -> Candidate | None:
        found = self._rows(
            f"SELECT rid, id, position, years, years_text, {rows.FACT_COLUMNS}, intro, summary,"
            f" verdict, kind, questions_read, body, title, origin, source, hash, first_indexed_at,"
            " candidate_ref,"
            f" candidate_key FROM candidates WHERE {self.space}"
            " AND id = ?",
            [candidate_id],
        )
        if not found:
            return None
        r = found[0]
        c = rows.candidate(r, questions(self, r["rid"]), read_reviews(self, r["id"]))
        return c.model_copy(update={"outcome": read_outcome(self, r["id"])})

    def count(self, position: str | None = None) -> int:
        if position:
            found = self._scalar(
                f"SELECT count(*) FROM candidates WHERE {self.space}"
                f" AND {position_has(self.engine)}",
                [position],
            )
        else:
            found = self._scalar(f"SELECT count(*) FROM candidates WHERE {self.space}")
        return int(found or 0)

    def count_unanswered(self) -> int:
        """How many candidates (people: issue 38) have at least one open question in any
        of their interviews."""
        return int(
            self._scalar(
                f"SELECT count(DISTINCT candidate_key) FROM candidates WHERE {self.space}"
                " AND unanswered_count > 0"
            )
            or 0
        )

    def count_without_questions(self) -> int:
        """How many candidates (people: their key) have an interview with no question that
        counts (never "all answered"): none found, none read from the file, or none with
        its answer recorded (issue 46)."""
        return int(
            self._scalar(
                "SELECT count(DISTINCT coalesce(candidate_key, id)) FROM candidates"
                f" WHERE {self.space} AND question_count = 0"
            )
            or 0
        )

    def ids(self) -> list[str]:
        return [
            r[0] for r in self._all(f"SELECT id FROM candidates WHERE {self.space} ORDER BY id")
        ]

    def list_candidates(
        self,
        position: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        unanswered_only: bool = False,
    ) -> list[CandidateSummary]:
        """Candidates, newest first (by the interview's date where the file gives one, else
        by when it was first indexed); `position` filters by substring, any case."""
        return self._summaries(*list_clause(self.engine, position, unanswered_only, limit, offset))

    def resolve(self, text: str, limit: int = 25) -> Resolution:
        """A full id, an id prefix, a name or a name prefix, or words that match."""
        return resolve(text, limit, self.engine, self._summaries, self._plain_search)

    def _summaries(self, clause: str, params: list[Any]) -> list[CandidateSummary]:
        """The summaries `SELECT ... FROM candidates` + `clause` finds in this space."""
        return [
            rows.summary(r)
            for r in self._rows(rows.summary_sql(f"candidates WHERE {self.space}") + clause, params)
        ]

    def _plain_search(self, text: str, limit: int) -> list[SearchHit]:
        return self.search(text, limit=limit, snippets=False)
