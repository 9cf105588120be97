"""The hiring decision about a candidate (hire, reject, hold), and the export for an ATS.

One row per candidate in `outcomes`: a later decision replaces the earlier one (the
audit keeps each, as `outcome:<decision>`). `forget` erases it with the rest. Recording
one closes the open requests on the candidate and, when the team hands decisions to an
ATS, writes the webhook event (the candidate's export row as it stands, whose candidate
it is, an `event_id` and the decision's `sequence`, counted per candidate) in the same
transaction, and marks the candidate's events not yet sent superseded: a decision is
never recorded without its event, nor an event without its decision, and an older
decision never reaches the ATS after a newer one (store/webhooks.py delivers them).
"""

from __future__ import annotations

import json
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from . import rows
from .base import Base, Tx
from .candidate_keys import SAME_CANDIDATE
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
        " ORDER BY decided_at DESC LIMIT 1",
        [candidate_id, store.ws, candidate_id],
    )
    if r is None:
        return None
    return Outcome(decision=_hiring(r[0]), note=r[1], by=r[2], at=r[3])


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
    " ORDER BY o2.decided_at DESC LIMIT 1"
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
            # one decision a candidate (issue 38): recorded on this interview, it replaces
            # the one recorded on any of their interviews, and closes every one's requests
            ids = interviews_of(tx, self.ws, candidate_id)
            where, params = self.engine.in_list("candidate_id", ids)
            earlier = tx.execute(
                "SELECT decision, note, decided_by, decided_at, sequence FROM outcomes"
                f" WHERE {self.space} AND {where} ORDER BY decided_at" + self.engine.lock_rows,
                params,
            ).fetchall()
            r = earlier[-1] if earlier else None
            before = (
                None if r is None else Outcome(decision=_hiring(r[0]), note=r[1], by=r[2], at=r[3])
            )
            now = utcnow()
            others = [i for i in ids if i != candidate_id]
            if others:
                gone, gone_params = self.engine.in_list("candidate_id", others)
                tx.execute(f"DELETE FROM outcomes WHERE {self.space} AND {gone}", gone_params)
            counted = tx.execute(
                "INSERT INTO outcomes (ws, candidate_id, decision, note, decided_by, decided_at,"
                " sequence) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (ws, candidate_id) DO UPDATE"
                " SET decision = excluded.decision, note = excluded.note,"
                " decided_by = excluded.decided_by, decided_at = excluded.decided_at,"
                " sequence = CASE WHEN outcomes.sequence + 1 > excluded.sequence"
                " THEN outcomes.sequence + 1 ELSE excluded.sequence END RETURNING sequence",
                [
                    self.ws,
                    candidate_id,
                    decision,
                    note,
                    by,
                    now,
                    max((int(e[4] or 0) for e in earlier), default=0) + 1,
                ],
            ).fetchone()
            for one in ids:
                close_requests(tx, self.ws, one, None, "outcome")
            if webhook:
                sequence = int(counted[0])
                (row,) = export_rows(tx.rows, self.engine, self.ws, candidate_id=candidate_id)
                event_id = uuid.uuid4().hex
                for one in ids:
                    supersede_events(tx, self.ws, one, now)
                tx.execute(
                    "INSERT INTO webhook_events (ws, event_id, candidate_id, body, created_at,"
                    " next_at, sequence) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        self.ws,
                        event_id,
                        candidate_id,
                        webhook_body(row, event_id, sequence),
                        now,
                        now,
                        sequence,
                    ],
                )
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
