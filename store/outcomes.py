"""The hiring decision about a candidate (hire, reject, hold), and the export for an ATS.

A decision is recorded through one interview and is the person's (issue 38): a row in
`outcomes` per interview it was recorded through, the newest row of any of a person's
interviews their current decision (a later decision through the same interview replaces
that row; the audit keeps each, as `outcome:<decision>`). So merging two people
(`link`) deletes no decision, and splitting them (`unlink`) gives each back the ones
recorded through its own interviews (issue 45); `forget` (or a removed file) of one
interview hands its decision to another interview of the same person
(`hand_over_outcome`): the decision stays with the person while any interview of
theirs remains.

Recording one closes the open requests on every interview of the person, as does a
merge that brings one in (`settle_person`). When the team hands decisions to an ATS,
each change of a person's current decision (recorded, merged, split, handed over by
`forget`) writes a webhook event (the export row of the interview holding it, whose
candidate it is, an `event_id` and a `sequence` higher than any earlier one of those
interviews) in the same transaction, and marks their events not yet sent superseded: a
decision is never recorded without its event, nor an event without its decision, and an
older decision never reaches the ATS after a newer one (store/webhooks.py delivers them).
"""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from . import rows
from .base import Base, Tx
from .candidate_keys import SAME_CANDIDATE, natural_key
from .clock import utcnow
from .engine import Engine
from .export_models import ExportReview, ExportRow
from .identity import space_owner
from .models import HIRINGS, Hiring, Outcome
from .requests import close_requests
from .webhooks import supersede_events

Fetch = Callable[[str, Sequence[Any]], list[dict[str, Any]]]


def _hiring(value: object) -> Hiring:
    found = next((h for h in HIRINGS if h == value), None)
    if found is None:
        raise ValueError(f"not a hiring decision: {value!r}")
    return found


def read_outcome(store: Base, candidate_id: str) -> Outcome | None:
    """The hiring decision about the candidate whose interview `candidate_id` is (issue
    38: one a candidate, whichever of their interviews it was recorded on)."""
    r = store._one(
        "SELECT decision, note, decided_by, decided_at FROM outcomes"
        # one IN over a UNION, not `= ? OR IN (…)`: an OR with a subquery walks every
        # outcome of the space instead of looking the few ids up
        f" WHERE {store.space} AND candidate_id IN (SELECT ? UNION {SAME_CANDIDATE[1:-1]})"
        " ORDER BY decided_at DESC, candidate_id DESC LIMIT 1",
        [candidate_id, store.ws, candidate_id],
    )
    if r is None:
        return None
    return Outcome(decision=_hiring(r[0]), note=r[1], by=r[2], at=r[3])


def read_outcome_row(tx: Tx, ws: int, candidate_id: str) -> Outcome | None:
    """The decision recorded through interview `candidate_id` itself, in `tx`."""
    r = tx.execute(
        "SELECT decision, note, decided_by, decided_at FROM outcomes"
        f" WHERE ws = {ws:d} AND candidate_id = ?",
        [candidate_id],
    ).fetchone()
    return None if r is None else Outcome(decision=_hiring(r[0]), note=r[1], by=r[2], at=r[3])


def export_rows(
    fetch: Fetch,
    engine: Engine,
    ws: int,
    since: str | None = None,
    candidate_id: str | None = None,
) -> list[ExportRow]:
    """The export's rows of data space `ws`, read with `fetch` (the store's reads, or a
    transaction's): every candidate, those since `since`, or the one `candidate_id`."""
    bytewise = engine.bytewise
    where, params = f" WHERE c.ws = {ws:d}", []
    if candidate_id is not None:
        where, params = where + " AND c.id = ?", [candidate_id]
    elif since:
        where += (
            f" AND ((c.interviewed_at IS NOT NULL AND c.interviewed_at {bytewise} >= ?)"
            f" OR (c.interviewed_at IS NULL AND c.first_indexed_at {bytewise} >= ?))"
        )
        params = [since[:10], since]
    found = fetch(
        "SELECT c.id, c.name, c.position, c.round, c.interviewed_at, c.candidate_key,"
        " o.decision, o.decided_by, o.decided_at FROM candidates c"
        f" LEFT JOIN outcomes o ON o.ws = c.ws AND o.candidate_id = ({CANDIDATE_OUTCOME})"
        + where
        + " ORDER BY "
        + rows.NEWEST_FIRST.format(p="c.")
        + ", c.id",
        params,
    )
    one = "" if candidate_id is None else " AND r.candidate_id = ?"
    reviews: dict[str, list[ExportReview]] = defaultdict(list)
    for r in fetch(
        "SELECT candidate_id, reviewer, decision, text FROM replies r"
        f" WHERE r.ws = {ws:d} AND decision IS NOT NULL AND ts = (SELECT max(ts)"
        " FROM replies r2 WHERE r2.ws = r.ws AND r2.candidate_id = r.candidate_id"
        " AND r2.reviewer = r.reviewer AND r2.decision IS NOT NULL)"
        + one
        + " ORDER BY candidate_id, reviewer",
        [] if candidate_id is None else [candidate_id],
    ):
        said = rows.decision(r["decision"])
        if said is not None:
            reviews[r["candidate_id"]].append(
                ExportReview(reviewer=r["reviewer"], decision=said, note=r["text"])
            )
    owner = space_owner(fetch, ws)
    return [
        ExportRow(
            id=r["id"],
            name=r["name"],
            position=r["position"],
            round=r["round"],
            interviewed_at=r["interviewed_at"],
            outcome=None if r["decision"] is None else _hiring(r["decision"]),
            outcome_by=r["decided_by"],
            outcome_at=r["decided_at"],
            team_id=owner.team_id,
            team_name=owner.team_name,
            enterprise_id=owner.enterprise_id,
            enterprise_name=owner.enterprise_name,
            candidate_key=r["candidate_key"],
            reviews=reviews.get(r["id"], []),
        )
        for r in found
    ]


CANDIDATE_OUTCOME = (
    "SELECT o2.candidate_id FROM outcomes o2 JOIN candidates c2 ON c2.ws = o2.ws"
    " AND c2.id = o2.candidate_id WHERE c2.ws = c.ws AND c2.candidate_key = c.candidate_key"
    " ORDER BY o2.decided_at DESC, o2.candidate_id DESC LIMIT 1"
)
"""The interview (of candidate row `c`'s candidate) whose row holds their hiring decision."""


def interviews_of(tx: Tx, ws: int, candidate_id: str) -> list[str]:
    """The ids of every interview of the candidate whose interview `candidate_id` is
    (itself alone when it is not indexed, or has no key yet)."""
    found = [
        r[0]
        for r in tx.execute(
            f"SELECT id FROM candidates WHERE ws = {ws:d} AND id IN {SAME_CANDIDATE} ORDER BY id",
            [ws, candidate_id],
        ).fetchall()
    ]
    return found or [candidate_id]


def webhook_body(row: ExportRow, event_id: str, sequence: int) -> str:
    """What the ATS receives: the export's row (as `debrief export --format json` writes
    it: whose candidate, the decision and its `outcome_at`), the event's id and its
    `sequence` (the how-manyth decision about the candidate: a receiver keeps the
    highest), as compact UTF-8 JSON."""
    return json.dumps(
        {**row.model_dump(), "event_id": event_id, "sequence": sequence},
        ensure_ascii=False,
        separators=(",", ":"),
    )


Current = tuple[str, str, str, str] | None
"""A person's current decision as `current_outcome` reads it: the interview holding it,
the decision, who recorded it, when; None: no decision."""


def current_outcome(tx: Tx, ws: int, ids: list[str]) -> Current:
    """The newest decision recorded through any of the interviews `ids` (one person's)."""
    if not ids:
        return None
    where, params = tx.engine.in_list("candidate_id", ids)
    r = tx.execute(
        f"SELECT candidate_id, decision, decided_by, decided_at FROM outcomes WHERE ws = {ws:d}"
        f" AND {where} ORDER BY decided_at DESC, candidate_id DESC LIMIT 1",
        params,
    ).fetchone()
    return None if r is None else (str(r[0]), str(r[1]), str(r[2]), str(r[3]))


def _same(a: Current, b: Current) -> bool:
    """The same decision (whichever interview holds it)."""
    return (a is None) == (b is None) and (a is None or b is None or a[1:] == b[1:])


def next_sequence(tx: Tx, ws: int, ids: list[str]) -> int:
    """A sequence higher than any decision's or event's of the interviews `ids` had: what
    an ATS keeping the highest (by interview or by person) takes as the newest."""
    where, params = tx.engine.in_list("candidate_id", ids)
    found = 0
    for table in ("outcomes", "webhook_events"):
        r = tx.execute(
            f"SELECT max(sequence) FROM {table} WHERE ws = {ws:d} AND {where}", params
        ).fetchone()
        found = max(found, int(r[0] or 0) if r is not None else 0)
    return found + 1


def write_event(
    tx: Tx, ws: int, candidate_id: str, sequence: int, now: str, ids: list[str]
) -> None:
    """The webhook event of the person whose interview `candidate_id` is, as its export row
    stands now; the waiting events of the interviews `ids` (theirs, and any they were one
    person with until now) superseded."""
    (row,) = export_rows(tx.rows, tx.engine, ws, candidate_id=candidate_id)
    event_id = uuid.uuid4().hex
    for one in ids:
        supersede_events(tx, ws, one, now)
    tx.execute(
        "INSERT INTO webhook_events (ws, event_id, candidate_id, body, created_at,"
        " next_at, sequence) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [ws, event_id, candidate_id, webhook_body(row, event_id, sequence), now, now, sequence],
    )


def settle_person(
    tx: Tx,
    ws: int,
    ids: list[str],
    before: list[Current],
    webhook: bool,
    also: list[str],
    new_key: bool = False,
) -> None:
    """The interviews `ids` are one person now (a merge, or one side of a split) whose
    current decision was each of `before` until now: with a decision, their open requests
    are closed (however it arrived); when it is not the one each had, or the person has a
    `new_key` whoever decided (split off), the ATS is sent the person's current decision,
    or that they have none, superseding the waiting events of `ids` (its sequence above
    every one of `also`: the interviews they were one person with)."""
    if not ids:
        return
    now_current = current_outcome(tx, ws, ids)
    if now_current is not None:
        for one in ids:
            close_requests(tx, ws, one, None, "outcome")
    changed = not all(_same(b, now_current) for b in before)
    if not webhook or not (changed or (new_key and now_current is not None)):
        return
    every = sorted({*ids, *also})
    sequence = next_sequence(tx, ws, every)
    holder = sorted(ids)[0] if now_current is None else now_current[0]
    if now_current is not None:
        tx.execute(
            f"UPDATE outcomes SET sequence = ? WHERE ws = {ws:d} AND candidate_id = ?",
            [sequence, holder],
        )
    write_event(tx, ws, holder, sequence, utcnow(), ids)


def hand_over_outcome(tx: Tx, ws: int, gone: str, webhook: bool) -> None:
    """Interview `gone` is about to be erased or removed: the decision recorded through it
    goes to another interview of the same person (among those whose own file says they
    are the same person, if any, so that a merge split later gives it back to them: one
    holding none, else the one with the oldest, which it replaces when newer), so it stays with the person while any interview
    of theirs remains. When it was the person's current decision, the ATS is sent it again,
    naming the interview that holds it now (the events of `gone` are erased with it)."""
    mine = tx.execute(
        f"SELECT decided_at, sequence FROM outcomes WHERE ws = {ws:d} AND candidate_id = ?",
        [gone],
    ).fetchone()
    if mine is None:
        return
    ids = interviews_of(tx, ws, gone)
    others = [i for i in ids if i != gone]
    if not others:
        return  # the person goes with it
    before = current_outcome(tx, ws, ids)
    where, params = tx.engine.in_list("candidate_id", others)
    held = {
        str(r[0]): str(r[1])
        for r in tx.execute(
            f"SELECT candidate_id, decided_at FROM outcomes WHERE ws = {ws:d} AND {where}",
            params,
        ).fetchall()
    }
    # the interviews its own file says are the same person first: merged with another
    # person (`link`), it stays on its side, and a split later gives it back to them
    files = {
        str(r[0]): natural_key(str(r[0]), r[1], r[2], r[3])
        for r in tx.execute(
            "SELECT id, name, position, candidate_ref FROM candidates"
            f" WHERE ws = {ws:d} AND id IN {SAME_CANDIDATE}",
            [ws, gone],
        ).fetchall()
    }
    pool = [i for i in others if files.get(i) == files.get(gone)] or others
    free = [i for i in pool if i not in held]
    if free:
        target = free[0]
    else:
        target = min(pool, key=lambda i: (held[i], i))
        if held[target] > str(mine[0]):  # every one of its side is newer: history
            tx.execute(f"DELETE FROM outcomes WHERE ws = {ws:d} AND candidate_id = ?", [gone])
            return
        tx.execute(f"DELETE FROM outcomes WHERE ws = {ws:d} AND candidate_id = ?", [target])
    tx.execute(
        f"UPDATE outcomes SET candidate_id = ? WHERE ws = {ws:d} AND candidate_id = ?",
        [target, gone],
    )
    if webhook and before is not None and before[0] == gone:
        sequence = next_sequence(tx, ws, ids)
        tx.execute(
            f"UPDATE outcomes SET sequence = ? WHERE ws = {ws:d} AND candidate_id = ?",
            [sequence, target],
        )
        write_event(tx, ws, target, sequence, utcnow(), ids)


class OutcomeStore(Base):
    """Record, read and export hiring decisions."""

    def record_outcome(
        self, candidate_id: str, decision: Hiring, note: str, by: str, webhook: bool = False
    ) -> tuple[bool, Outcome | None]:
        """Record `by`'s hiring decision about the candidate, replacing any earlier one,
        and close the candidate's open requests; with `webhook`, write the event the ATS
        is sent in the same transaction.

        Returns (recorded, the decision it replaced): (False, None), and nothing
        recorded, when the candidate is not indexed."""
        with self.tx() as tx:
            if not tx.execute(
                f"SELECT 1 FROM candidates WHERE {self.space} AND id = ?", [candidate_id]
            ).fetchone():
                return False, None
            # one decision a candidate (issue 38): recorded through this interview, it is
            # the newest of the person's, and closes every one's requests; the decisions
            # recorded through their other interviews stay theirs (issue 45: a split
            # gives each back to its person)
            ids = interviews_of(tx, self.ws, candidate_id)
            # the person's decisions locked (in the order `forget` takes them), then their
            # interviews: before the first decision there is no row of the first to lock,
            # and two deciders at once would both take sequence 1
            for table, column in (("outcomes", "candidate_id"), ("candidates", "id")):
                where, params = self.engine.in_list(column, ids)
                tx.execute(
                    f"SELECT 1 FROM {table} WHERE {self.space} AND {where}" + self.engine.lock_rows,
                    params,
                ).fetchall()
            r = current_outcome(tx, self.ws, ids)
            before = None if r is None else read_outcome_row(tx, self.ws, r[0])
            now = utcnow()
            sequence = next_sequence(tx, self.ws, ids)
            tx.execute(
                "INSERT INTO outcomes (ws, candidate_id, decision, note, decided_by, decided_at,"
                " sequence) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (ws, candidate_id) DO UPDATE"
                " SET decision = excluded.decision, note = excluded.note,"
                " decided_by = excluded.decided_by, decided_at = excluded.decided_at,"
                " sequence = excluded.sequence",
                [self.ws, candidate_id, decision, note, by, now, sequence],
            )
            for one in ids:
                close_requests(tx, self.ws, one, None, "outcome")
            if webhook:
                write_event(tx, self.ws, candidate_id, sequence, now, ids)
        return True, before

    def verdict_post(self, candidate_id: str, channel: str) -> str | None:
        """The ts of the candidate's latest verdict post in `channel`: the thread a hiring
        decision is posted in. None when no verdict was posted there."""
        found = self._scalar(
            f"SELECT max(ts) FROM posts WHERE {self.space} AND candidate_id = ? AND channel = ?"
            " AND kind = 'verdict'",
            [candidate_id, channel],
        )
        return None if found is None else str(found)

    def outcome(self, candidate_id: str) -> Outcome | None:
        """The candidate's current hiring decision, None before one is recorded."""
        return read_outcome(self, candidate_id)

    def export_rows(self, since: str | None = None) -> list[ExportRow]:
        """Every indexed candidate (newest interview first) with their hiring decision and
        each reviewer's current decision. `since` (a UTC ISO time) keeps those interviewed
        on or after its day, or, without an interview date, first indexed since then."""
        return export_rows(self._rows, self.engine, self.ws, since)
