"""The candidate as a person (issue 38): who an interview's candidate is, their loop of
interviews, the candidates a name finds, putting a wrong grouping right (`link`,
`unlink`), and lists that count people. Each query written once, for both backends.

Who is one candidate: store/candidate_keys.py (the key a save writes on each interview,
`candidates.candidate_key`); an override `link`/`unlink` recorded in `candidate_links`
wins, and every later save of the interview keeps it (store/candidates.py `LINKED_KEY`).

What is still open across a loop: a question unanswered in one interview (and not
answered by a follow-up in its thread) is open unless a LATER interview of the loop has
the same question answered: the same question is the same text once width, spaces,
punctuation, script and case are set aside (`same_question`)."""

from __future__ import annotations

import unicodedata
from typing import Any

from . import alikes
from .base import Tx
from .candidate_keys import looks_like_key, natural_key, normalised, own_key
from .candidates import CandidateStore
from .clock import utcnow
from .errors import UnknownCandidateError
from .loop_models import Alike, Loop, LoopInterview, LoopSummary, OpenQuestion
from .models import DECISIONS, Candidate, Decision, DigestLine
from .outcomes import current_outcome, read_outcome, settle_person
from .rows import digest_line, names

PersonLines = tuple[LoopSummary, list[DigestLine]]
"""A candidate and some of their interviews (each naming its round), oldest first."""


def same_question(text: str) -> str:
    """A question as the loop compares it: NFKC, one script, any case, without spaces or
    punctuation (`讲讲 Redis？` and `講講redis?` are one question)."""
    plain = normalised(text)
    return "".join(ch for ch in plain if not unicodedata.category(ch).startswith(("P", "S", "Z")))


def _order(c: Candidate) -> tuple[str, str, str]:
    """Oldest first: by the interview's date (where the file gives none, when it was first
    indexed), then when it was first indexed, then its id."""
    return (c.interviewed_at or c.indexed_at or "", c.indexed_at or "", c.id)


def _interview(c: Candidate) -> LoopInterview:
    counts: dict[Decision, int] = {}
    for d in c.decisions:  # each reviewer's latest decision
        counts[d.decision] = counts.get(d.decision, 0) + 1
    return LoopInterview(
        id=c.id,
        round=c.round,
        interviewed_at=c.interviewed_at,
        interviewed_at_text=c.interviewed_at_text,
        interviewers=list(c.interviewers),
        decisions={d: counts[d] for d in DECISIONS if d in counts},
        open_questions=[q.number for q in c.open_questions],
        verdict=c.verdict,
        questions=len(c.counted),
        questions_read=c.questions_read,
        unrecorded=len(c.unrecorded),
    )


def still_open(interviews: list[Candidate]) -> list[OpenQuestion]:
    """The questions open across a loop (`interviews` oldest first)."""
    found: list[OpenQuestion] = []
    for at, c in enumerate(interviews):
        for q in c.open_questions:
            asked = same_question(q.question)
            answered_later = asked and any(
                same_question(later_q.question) == asked and not later.is_open(later_q)
                for later in interviews[at + 1 :]
                for later_q in later.questions
            )
            if not answered_later:
                found.append(
                    OpenQuestion(
                        interview=c.id, number=q.number, question=q.question, round=c.round
                    )
                )
    return found


class LoopStore(CandidateStore):
    """Candidates as people: their key, their loop, finding them, linking and splitting."""

    def candidate_key(self, interview_id: str) -> str | None:
        """The key of the candidate whose interview `interview_id` is; None: not indexed."""
        found = self._scalar(
            f"SELECT candidate_key FROM candidates WHERE {self.space} AND id = ?", [interview_id]
        )
        return None if found is None else str(found)

    def _ids_of(self, key: str) -> list[str]:
        # sorted here: with `ORDER BY id` SQLite walks the space's (ws, id) index, every
        # row of it, instead of the (ws, candidate_key) one
        return sorted(
            r[0]
            for r in self._all(
                f"SELECT id FROM candidates WHERE {self.space} AND candidate_key = ?", [key]
            )
        )

    def interview_ids(self, interview_id: str) -> list[str]:
        """The ids of every interview of the candidate whose interview `interview_id` is
        (itself among them), read from the key alone: no loop is built."""
        key = self.candidate_key(interview_id)
        ids = self._ids_of(key) if key is not None else []
        return ids if interview_id in ids else [interview_id, *ids]

    def loop(self, key: str) -> Loop | None:
        """The candidate `key` names: their interviews oldest first, what is still open
        across them, the hiring decision. None when no interview has that key."""
        interviews = sorted(
            (c for i in self._ids_of(key) if (c := self.get_candidate(i)) is not None),
            key=_order,
        )
        if not interviews:
            return None
        newest_first = list(reversed(interviews))
        return Loop(
            key=key,
            name=next((c.name for c in newest_first if c.name), None),
            position=next((c.position for c in newest_first if c.position), None),
            interviews=[_interview(c) for c in interviews],
            open=still_open(interviews),
            outcome=read_outcome(self, interviews[0].id),
        )

    def loop_of(self, interview_id: str) -> Loop | None:
        """The loop of the candidate whose interview `interview_id` is."""
        key = self.candidate_key(interview_id)
        return None if key is None else self.loop(key)

    def loop_summaries(self, keys: list[str]) -> list[LoopSummary]:
        """One line per candidate of `keys`, in that order (those with no interview left out)."""
        if not keys:
            return []
        where, params = self.engine.in_list("candidate_key", keys)
        found: dict[str, list[dict[str, Any]]] = {}
        for r in self._rows(
            "SELECT id, name, position, interviewed_at, interviewed_at_text, round,"
            " interviewers, first_indexed_at, candidate_key"
            f" FROM candidates WHERE {self.space} AND {where}",
            params,
        ):
            found.setdefault(r["candidate_key"], []).append(r)
        lines = []
        for key in keys:
            rs = sorted(
                found.get(key, []),
                key=lambda r: (
                    r["interviewed_at"] or r["first_indexed_at"] or "",
                    r["first_indexed_at"] or "",
                    r["id"],
                ),
            )
            if not rs:
                continue
            dated = [r["interviewed_at"] for r in rs if r["interviewed_at"]]
            who = dict.fromkeys(n for r in rs for n in names(r["interviewers"]))
            lines.append(
                LoopSummary(
                    key=key,
                    name=next((r["name"] for r in reversed(rs) if r["name"]), None),
                    position=next((r["position"] for r in reversed(rs) if r["position"]), None),
                    interviews=len(rs),
                    newest=max(dated) if dated else None,
                    ids=[r["id"] for r in rs],
                    rounds=[r["round"] for r in rs],
                    dates=[r["interviewed_at"] or r["interviewed_at_text"] or "" for r in rs],
                    interviewers=list(who),
                )
            )
        return lines

    def find_loops(self, text: str, limit: int = 25) -> list[LoopSummary]:
        """The candidates `text` names: a candidate's key, or the candidates of the
        interviews it resolves to (an id, a name, as `resolve` finds them); one line per
        candidate, in the order their first interview was found."""
        text = " ".join(text.split())
        if looks_like_key(text) and self._ids_of(text.strip()):
            return self.loop_summaries([text.strip()])
        keys: list[str] = []
        for m in self.resolve(text, limit).matches:
            key = m.candidate_key or self.candidate_key(m.id)
            if key is not None and key not in keys:
                keys.append(key)
        return self.loop_summaries(keys[:limit])

    def _key_named(self, what: str) -> str:
        """The key `what` names: an interview's id, or a candidate's key."""
        key = self.candidate_key(what)
        if key is None and looks_like_key(what) and self._ids_of(what):
            key = what
        if key is None:
            raise UnknownCandidateError(what)
        return key

    def link(self, a: str, b: str, by: str, webhook: bool = False) -> str:
        """Put the interviews of `b`'s candidate into `a`'s candidate (each an interview
        id or a candidate's key), kept over later index runs (`by` recorded with it).
        -> the candidate's key. No hiring decision is deleted: the newest of the two is
        the person's (store/outcomes.py), and it closes their open requests; with
        `webhook`, the ATS is sent it when either had another. The caller audits it
        (handlers/audit.py `record`): `link:<key>` on each interview of `b`'s candidate
        (`loop_summaries([b's key])` before)."""
        into, moved = self._key_named(a), self._key_named(b)
        if into == moved:
            return into
        now = utcnow()

        def write(tx: Tx) -> None:
            sides = [self._ids_in(tx, into), self._ids_in(tx, moved)]
            before = [current_outcome(tx, self.ws, side) for side in sides]
            ids = sorted({*sides[0], *sides[1]})
            for i in ids:  # every interview of both: what each file says may change later
                self._pin(tx, i, into, by, now)
            tx.execute(
                f"UPDATE candidates SET candidate_key = ? WHERE {self.space} AND candidate_key = ?",
                [into, moved],
            )
            alikes.record_picks(tx, self.space, self.ws, ids, into, by, now)
            settle_person(tx, self.ws, ids, before, webhook, ids)

        self._write(write)
        return into

    def unlink(self, interview_id: str, by: str, webhook: bool = False) -> str:
        """Make the interview a candidate of its own, kept over later index runs (`by`
        recorded with it). -> its new key. Each hiring decision stays with the interview
        it was recorded through, so each side keeps its own (store/outcomes.py); with
        `webhook`, the ATS is sent each side's current decision where it changed. The
        caller audits it (handlers/audit.py `record`): `unlink:<key>` on it."""
        was = self.candidate_key(interview_id)
        if was is None:
            raise UnknownCandidateError(interview_id)
        own = own_key(interview_id)
        now = utcnow()

        def write(tx: Tx) -> None:
            every = self._ids_in(tx, was)
            before = current_outcome(tx, self.ws, every)
            self._pin(tx, interview_id, own, by, now)
            tx.execute(
                f"UPDATE candidates SET candidate_key = ? WHERE {self.space} AND id = ?",
                [own, interview_id],
            )
            alikes.record_split(tx, self.space, self.ws, interview_id, was, by, now)
            if was == own:
                return
            rest = [i for i in every if i != interview_id]
            settle_person(tx, self.ws, rest, [before], webhook, every)
            settle_person(tx, self.ws, [interview_id], [before], webhook, every, new_key=True)

        self._write(write)
        return own

    # -- two people alike (issue 45, store/alikes.py) -------------------------------------

    def people_alike(self, interview_id: str) -> Alike | None:
        """The other candidates who share the interview's explicit key, or its name and
        position, recorded as two people (a split, a key with two names); whether the
        interview waits for someone to pick one. None: nobody is recorded alike."""
        found = self._rows(
            "SELECT id, name, position, candidate_ref, candidate_key, EXISTS (SELECT 1 FROM"
            " candidate_links l WHERE l.ws = candidates.ws AND l.interview_id = candidates.id)"
            f" AS pinned FROM candidates WHERE {self.space} AND id = ?",
            [interview_id],
        )
        if not found:
            return None
        r = found[0]
        own = own_key(interview_id)
        shared = natural_key(interview_id, r["name"], r["position"], r["candidate_ref"])
        if shared == own:
            return None
        known = alikes.recorded(self._all, self.space, shared)
        if not known:
            return None
        current = r["candidate_key"]
        keys = alikes.sharing(shared, known)
        people = self.loop_summaries([k for k in keys if k != current])
        if not people:
            return None
        return Alike(
            why=alikes.why_of(known),
            ref=r["candidate_ref"],
            pending=not r["pinned"] and current == own and current not in keys,
            people=people,
        )

    def _pin(self, tx: Tx, interview_id: str, key: str, by: str, now: str) -> None:
        tx.execute(
            "INSERT INTO candidate_links (ws, interview_id, candidate_key, linked_by, linked_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (ws, interview_id) DO UPDATE SET"
            " candidate_key = excluded.candidate_key, linked_by = excluded.linked_by,"
            " linked_at = excluded.linked_at",
            [self.ws, interview_id, key, by, now],
        )

    # -- lists that count people ---------------------------------------------------------

    def count_people(self, position: str | None = None) -> int:
        """How many candidates (people, not interviews); `position` as `count` takes it."""
        sql = f"SELECT count(DISTINCT candidate_key) FROM candidates WHERE {self.space}"
        params: list[Any] = []
        if position:
            sql += " AND " + self.engine.contains("lower(position)", "lower(?)")
            params.append(position)
        return int(self._scalar(sql, params) or 0)

    def count_people_unanswered(self) -> int:
        """How many candidates have an open question in any of their interviews (as
        `count_unanswered`)."""
        return self.count_unanswered()

    def unanswered_by_person(self, limit: int, offset: int = 0) -> tuple[list[PersonLines], int]:
        """Candidates with open questions, most open first: each with the interviews that
        have some (each line naming its round, `count` its open questions), oldest first;
        and how many candidates in all."""
        total = self.count_people_unanswered()
        keys = [
            r[0]
            for r in self._all(
                f"SELECT candidate_key FROM candidates WHERE {self.space} AND unanswered_count > 0"
                " GROUP BY candidate_key ORDER BY sum(unanswered_count) DESC,"
                " max(coalesce(interviewed_at, first_indexed_at)) DESC, candidate_key"
                " LIMIT ? OFFSET ?",
                [limit, offset],
            )
        ]
        if not keys:
            return [], total
        where, params = self.engine.in_list("candidate_key", keys)
        lines: dict[str, list[DigestLine]] = {}
        for r in self._rows(
            "SELECT id, position, years, name, interviewed_at, round, unanswered_count AS count,"
            " question_count AS questions, questions_read, unrecorded_count AS unrecorded,"
            f" candidate_key FROM candidates WHERE {self.space}"
            f" AND unanswered_count > 0 AND {where}"
            " ORDER BY coalesce(interviewed_at, first_indexed_at), first_indexed_at, id",
            params,
        ):
            lines.setdefault(r["candidate_key"], []).append(digest_line(r))
        return [(s, lines.get(s.key, [])) for s in self.loop_summaries(keys)], total


__all__ = ["LoopStore", "PersonLines", "same_question", "still_open"]
