"""Handoffs to the next interviewer (`/candidate 交接`): one row per candidate and person
handed the loop, with who handed it to them and when, so that a handoff follows the
rule asking reviewers follows (store/dm_limits.py): nobody is DMed the same candidate's
handoff twice in a day, whoever hands it off, and a user's handoffs count toward their
hourly limit with their asks. A row is the candidate's data (`forget` deletes it)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from .dm_limits import ASK_AGAIN_AFTER, DmLimits, moment, stamp
from .request_models import Asks


class HandoffStore(DmLimits):
    """Record handoffs under the rule of store/dm_limits.py."""

    def record_handoffs(
        self,
        candidate_id: str,
        interviews: Iterable[str],
        recipients: Iterable[str],
        handed_by: str,
        per_hour: int,
        now: datetime | None = None,
    ) -> Asks | None:
        """Hand the candidate (`candidate_id`, the newest of their `interviews`) to
        `recipients`, in order: none handed a handoff about any of those interviews in
        the last day (by anyone), and, past `per_hour` people `handed_by` had DMed in
        the last hour (asked or handed off), none. -> who is handed it now (`asked`),
        who not and why. None, and nothing recorded, when the candidate is not indexed."""
        at = moment(now)
        again = stamp(at - ASK_AGAIN_AFTER)
        ids = list(dict.fromkeys([candidate_id, *interviews]))
        wanted = list(dict.fromkeys(recipients))
        with self.tx() as tx:
            if not tx.execute(
                f"SELECT 1 FROM candidates WHERE {self.space} AND id = ?", [candidate_id]
            ).fetchone():
                return None
            if not wanted:
                return Asks()
            self._hold_sender(tx, handed_by)
            of, id_params = self.engine.in_list("candidate_id", ids)
            among, params = self.engine.in_list("recipient", wanted)
            recent = {
                r["recipient"]
                for r in tx.rows(
                    f"SELECT recipient FROM handoffs WHERE {self.space} AND {of} AND {among}"
                    f" AND handed_at {self.engine.bytewise} >= ?",
                    [*id_params, *params, again],
                )
            }
            plan = self._let_through(tx.rows, wanted, recent, handed_by, per_hour, at)
            handed: list[str] = []
            for person in plan.asked:
                # compare-and-set: another handoff to this person a moment ago wins
                if tx.execute(
                    "INSERT INTO handoffs (ws, candidate_id, recipient, handed_by, handed_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (ws, candidate_id, recipient)"
                    " DO UPDATE SET handed_by = excluded.handed_by,"
                    " handed_at = excluded.handed_at"
                    f" WHERE handoffs.handed_at {self.engine.bytewise} < ? RETURNING 1",
                    [self.ws, candidate_id, person, handed_by, stamp(at), again],
                ).fetchone():
                    handed.append(person)
        already = [p for p in plan.asked if p not in handed]
        return plan.model_copy(update={"asked": handed, "already": plan.already + already})

    def release_handoffs(
        self, candidate_id: str, recipients: Iterable[str], handed_at: datetime
    ) -> None:
        """The handoffs `record_handoffs` recorded at `handed_at` for `recipients` did not
        reach them (Slack did not take the DM): they count for nothing, and may be sent
        again at once."""
        wanted = list(dict.fromkeys(recipients))
        if not wanted:
            return
        among, params = self.engine.in_list("recipient", wanted)
        with self.tx() as tx:
            tx.execute(
                f"DELETE FROM handoffs WHERE {self.space} AND candidate_id = ? AND {among}"
                " AND handed_at = ?",
                [candidate_id, *params, stamp(moment(handed_at))],
            )
