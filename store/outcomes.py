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
from .base import Base
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
    r = store._one(
        "SELECT decision, note, decided_by, decided_at FROM outcomes"
        f" WHERE {store.space} AND candidate_id = ?",
        [candidate_id],
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
        "SELECT c.id, c.name, c.position, c.round, c.interviewed_at, o.decision,"
        " o.decided_by, o.decided_at FROM candidates c"
        " LEFT JOIN outcomes o ON o.ws = c.ws AND o.candidate_id = c.id"
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
            reviews=reviews.get(r["id"], []),
        )
        for r in found
    ]


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
            r = tx.execute(
                "SELECT decision, note, decided_by, decided_at FROM outcomes"
                f" WHERE {self.space} AND candidate_id = ?" + self.engine.lock_rows,
                [candidate_id],
            ).fetchone()
            before = (
                None if r is None else Outcome(decision=_hiring(r[0]), note=r[1], by=r[2], at=r[3])
            )
            now = utcnow()
            counted = tx.execute(
                "INSERT INTO outcomes (ws, candidate_id, decision, note, decided_by, decided_at,"
                " sequence) VALUES (?, ?, ?, ?, ?, ?, 1) ON CONFLICT (ws, candidate_id) DO UPDATE"
                " SET decision = excluded.decision, note = excluded.note,"
                " decided_by = excluded.decided_by, decided_at = excluded.decided_at,"
                " sequence = outcomes.sequence + 1 RETURNING sequence",
                [self.ws, candidate_id, decision, note, by, now],
            ).fetchone()
            close_requests(tx, self.ws, candidate_id, None, "outcome")
            if webhook:
                sequence = int(counted[0])
                (row,) = export_rows(tx.rows, self.engine, self.ws, candidate_id=candidate_id)
                event_id = uuid.uuid4().hex
                supersede_events(tx, self.ws, candidate_id, now)
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
