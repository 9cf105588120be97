"""Reviewers asked for their decision, and the daily reminders of those overdue.

A request is one row per candidate and reviewer: who asked, when, the deadline (UTC ISO,
the end of a day in the team's time zone), and the verdict thread it belongs to. It is
closed in the same transaction as what answers it: the reviewer's decision by any path
(a thread reply, a button, the modal: `close_requests` is called by each store write
that records one) or a hiring decision on the candidate, which closes them all. Asking
the same reviewer again reopens their row with the new deadline; so does the reviewer
withdrawing their decision (the reply deleted or edited into none: `reopen_request`, in
the transaction that takes it away), with its deadline as it was.

A reviewer's reminder on a day is claimed as the digest is (`INSERT ... ON CONFLICT DO
UPDATE ... WHERE`): one sender, one replica, once, whatever restarts in between.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from . import rows
from .base import Tx
from .clock import utcnow
from .dm_limits import ASK_AGAIN_AFTER, DmLimits, Read, moment, stamp
from .models import DigestLine
from .request_models import Asks, Request

_COLUMNS = (
    "q.candidate_id, q.reviewer, q.asked_by, q.asked_at, q.due_at, q.channel, q.thread_ts,"
    " q.closed_at, q.closed_by, q.withdrawn_at"
)
_LINE = "c.id, c.position, c.years, c.name, c.interviewed_at, c.round"  # a line names its round
MENTIONS = "mentions"  # the `meta` key: how the last `/candidate 邀请` with mentions had them


def _request(r: dict[str, Any]) -> Request:
    return Request(
        candidate_id=r["candidate_id"],
        reviewer=r["reviewer"],
        asked_by=r["asked_by"],
        asked_at=r["asked_at"],
        due_at=r["due_at"],
        channel=r["channel"],
        thread_ts=r["thread_ts"],
        closed_at=r["closed_at"],
        closed_by=r["closed_by"],
        withdrawn_at=r["withdrawn_at"],
    )


def close_requests(
    tx: Tx,
    ws: int,
    candidate_id: str,
    reviewer: str | None,
    why: Literal["decision", "outcome"],
) -> int:
    """Close the open requests on a candidate of data space `ws`: `reviewer`'s (their
    decision arrived) or everyone's (`reviewer` None: a hiring decision). Runs in the
    caller's transaction, so a decision and the request it answers are recorded
    together. -> how many it closed."""
    sql = "UPDATE requests SET closed_at = ?, closed_by = ? WHERE ws = ? AND candidate_id = ?"
    params: list[Any] = [utcnow(), why, ws, candidate_id]
    if reviewer is not None:
        sql += " AND reviewer = ?"
        params.append(reviewer)
    return tx.execute(sql + " AND closed_at IS NULL", params).rowcount


def reopen_request(tx: Tx, ws: int, candidate_id: str, reviewer: str, shown: bool) -> bool:
    """`reviewer`'s request about the candidate, closed by their decision, open again now
    that they have none left on it (withdrawn: deleted, or edited into none); `shown`:
    that decision had shown them the others' (kept as `withdrawn_at`). Runs in the
    caller's transaction, the one that took the decision away. -> whether it reopened."""
    now = utcnow()
    seen = ", withdrawn_at = ?" if shown else ""
    return bool(
        tx.execute(
            f"UPDATE requests SET closed_at = NULL, closed_by = NULL{seen}"
            " WHERE ws = ? AND candidate_id = ? AND reviewer = ? AND closed_by = 'decision'"
            " AND NOT EXISTS (SELECT 1 FROM replies r WHERE r.ws = requests.ws"
            " AND r.candidate_id = requests.candidate_id AND r.reviewer = requests.reviewer"
            " AND r.decision IS NOT NULL)",
            [*([now] if shown else []), ws, candidate_id, reviewer],
        ).rowcount
        > 0
    )


class RequestStore(DmLimits):
    """Record and read requests; the thread's status message; reminder claims."""

    def record_requests(
        self,
        candidate_id: str,
        reviewers: Iterable[str],
        asked_by: str,
        due_at: str,
        channel: str,
        thread_ts: str,
    ) -> bool:
        """Ask each of `reviewers` (again, reopening a closed request with the new
        deadline). False, and nothing recorded, when the candidate is not indexed."""
        now = utcnow()
        with self.tx() as tx:
            if not tx.execute(
                f"SELECT 1 FROM candidates WHERE {self.space} AND id = ?", [candidate_id]
            ).fetchone():
                return False
            tx.executemany(
                "INSERT INTO requests (ws, candidate_id, reviewer, asked_by, asked_at, due_at,"
                " channel, thread_ts) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (ws, candidate_id, reviewer) DO UPDATE SET"
                " asked_by = excluded.asked_by, asked_at = excluded.asked_at,"
                " due_at = excluded.due_at, channel = excluded.channel,"
                " thread_ts = excluded.thread_ts, closed_at = NULL, closed_by = NULL",
                [
                    [self.ws, candidate_id, r, asked_by, now, due_at, channel, thread_ts]
                    for r in dict.fromkeys(reviewers)
                ],
            )
        return True

    def ask_plan(
        self,
        candidate_id: str,
        reviewers: Iterable[str],
        asked_by: str,
        per_hour: int,
        now: datetime | None = None,
    ) -> Asks:
        """What `record_asks` would do now, recording nothing."""
        return self._plan(self._rows, candidate_id, reviewers, asked_by, per_hour, now)

    def record_asks(
        self,
        candidate_id: str,
        reviewers: Iterable[str],
        asked_by: str,
        due_at: str,
        channel: str,
        thread_ts: str,
        per_hour: int,
        now: datetime | None = None,
    ) -> Asks | None:
        """Ask `reviewers` (in order) about the candidate, as `record_requests` does, but
        none asked about it in the last day (by anyone) and, past `per_hour` reviewers
        asked by `asked_by` in the last hour, none: -> who was asked, who not and why.
        None, and nothing recorded, when the candidate is not indexed."""
        at = moment(now)
        again = stamp(at - ASK_AGAIN_AFTER)
        with self.tx() as tx:
            if not tx.execute(
                f"SELECT 1 FROM candidates WHERE {self.space} AND id = ?", [candidate_id]
            ).fetchone():
                return None
            self._hold_sender(tx, asked_by)
            plan = self._plan(tx.rows, candidate_id, reviewers, asked_by, per_hour, at)
            asked: list[str] = []
            for reviewer in plan.asked:
                # compare-and-set: another asker's ask of this reviewer a moment ago wins
                if tx.execute(
                    "INSERT INTO requests (ws, candidate_id, reviewer, asked_by, asked_at,"
                    " due_at, channel, thread_ts) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (ws, candidate_id, reviewer) DO UPDATE SET"
                    " asked_by = excluded.asked_by, asked_at = excluded.asked_at,"
                    " due_at = excluded.due_at, channel = excluded.channel,"
                    " thread_ts = excluded.thread_ts, closed_at = NULL, closed_by = NULL"
                    f" WHERE requests.asked_at {self.engine.bytewise} < ? RETURNING 1",
                    [
                        self.ws,
                        candidate_id,
                        reviewer,
                        asked_by,
                        stamp(at),
                        due_at,
                        channel,
                        thread_ts,
                        again,
                    ],
                ).fetchone():
                    asked.append(reviewer)
        already = [r for r in plan.asked if r not in asked]
        return plan.model_copy(update={"asked": asked, "already": plan.already + already})

    def _plan(
        self,
        read: Read,
        candidate_id: str,
        reviewers: Iterable[str],
        asked_by: str,
        per_hour: int,
        now: datetime | None,
    ) -> Asks:
        """Who of `reviewers` would be asked now, who was asked in the last day, and whom
        the asker's hourly limit leaves out (and when it lets them ask again): the rule
        of store/dm_limits.py over the requests."""
        at = moment(now)
        wanted = list(dict.fromkeys(reviewers))
        if not wanted:
            return Asks()
        among, params = self.engine.in_list("reviewer", wanted)
        recent = {
            r["reviewer"]
            for r in read(
                f"SELECT reviewer FROM requests WHERE {self.space} AND candidate_id = ?"
                f" AND {among} AND asked_at {self.engine.bytewise} >= ?",
                [candidate_id, *params, stamp(at - ASK_AGAIN_AFTER)],
            )
        }
        return self._let_through(read, wanted, recent, asked_by, per_hour, at)

    def requests_for(self, candidate_id: str) -> list[Request]:
        """Everyone asked about the candidate, open or closed, in the order they were asked."""
        found = self._rows(
            f"SELECT {_COLUMNS} FROM requests q WHERE q.{self.space} AND q.candidate_id = ?"
            f" ORDER BY q.asked_at, q.reviewer {self.engine.bytewise}",
            [candidate_id],
        )
        return [_request(r) for r in found]

    def asked_of(
        self, reviewer: str, limit: int, offset: int = 0
    ) -> tuple[list[tuple[DigestLine, Request]], int]:
        """`reviewer`'s open requests, the oldest deadline first (the App Home queue)."""
        where = (
            "FROM requests q JOIN candidates c ON c.ws = q.ws AND c.id = q.candidate_id"
            f" WHERE q.{self.space} AND q.reviewer = ? AND q.closed_at IS NULL"
        )
        total = self._scalar(f"SELECT count(*) {where}", [reviewer])
        found = self._rows(
            f"SELECT {_LINE}, {_COLUMNS} {where} ORDER BY q.due_at, c.id LIMIT ? OFFSET ?",
            [reviewer, limit, offset],
        )
        return [(rows.digest_line(r), _request(r)) for r in found], int(total or 0)

    def overdue_requests(self, now: str, reviewer: str | None = None) -> list[Request]:
        """Open requests whose deadline is before `now` (a UTC ISO time), by reviewer,
        oldest deadline first; only `reviewer`'s when given."""
        sql = (
            f"SELECT {_COLUMNS} FROM requests q JOIN candidates c"
            f" ON c.ws = q.ws AND c.id = q.candidate_id WHERE q.{self.space}"
            f" AND q.closed_at IS NULL AND q.due_at {self.engine.bytewise} < ?"
        )
        params: list[Any] = [now]
        if reviewer is not None:
            sql += " AND q.reviewer = ?"
            params.append(reviewer)
        order = f" ORDER BY q.reviewer {self.engine.bytewise}, q.due_at, q.candidate_id"
        return [_request(r) for r in self._rows(sql + order, params)]

    def overdue_lines(
        self, now: str, limit: int, offset: int = 0
    ) -> tuple[list[tuple[DigestLine, list[Request]]], int]:
        """Candidates with overdue requests (the digest's "overdue feedback"), the one
        overdue longest first, each with its overdue requests (oldest deadline first)."""
        where = (
            "FROM requests q JOIN candidates c ON c.ws = q.ws AND c.id = q.candidate_id"
            f" WHERE q.{self.space} AND q.closed_at IS NULL"
            f" AND q.due_at {self.engine.bytewise} < ?"
        )
        total = self._scalar(f"SELECT count(DISTINCT c.id) {where}", [now])
        found = self._rows(
            "SELECT c.id, min(c.position) AS position, min(c.years) AS years,"
            " min(c.name) AS name, min(c.interviewed_at) AS interviewed_at,"
            f" min(c.round) AS round, min(q.due_at) AS since {where}"
            " GROUP BY c.id ORDER BY since ASC, c.id LIMIT ? OFFSET ?",
            [now, limit, offset],
        )
        lines = [rows.digest_line(r) for r in found]
        if not lines:
            return [], int(total or 0)
        in_ids, params = self.engine.in_list("q.candidate_id", [line.id for line in lines])
        late: dict[str, list[Request]] = {line.id: [] for line in lines}
        for r in self._rows(
            f"SELECT {_COLUMNS} FROM requests q WHERE q.{self.space} AND {in_ids}"
            " AND q.closed_at IS NULL"
            f" AND q.due_at {self.engine.bytewise} < ? ORDER BY q.due_at, q.reviewer",
            [*params, now],
        ):
            late[r["candidate_id"]].append(_request(r))
        return [(line, late[line.id]) for line in lines], int(total or 0)

    # -- the status message in the verdict's thread ------------------------------------

    def status_post(self, candidate_id: str, channel: str) -> str | None:
        """The ts of the candidate's request status message in `channel` (the latest,
        should there be several threads); None before one is posted. It is recorded as a
        post of kind `status` (`record_post`)."""
        found = self._scalar(
            f"SELECT max(ts) FROM posts WHERE {self.space} AND candidate_id = ? AND channel = ?"
            " AND kind = 'status'",
            [candidate_id, channel],
        )
        return None if found is None else str(found)

    # -- how mentions arrive (the manifest's should_escape) ------------------------------

    def note_mentions(self, escaped: bool) -> None:
        """How the mentions of the latest `/candidate 邀请` that had any arrived: as user
        ids (`escaped`: should_escape is on) or as plain `@name` text; for `doctor`."""
        value = json.dumps({"escaped": escaped, "at": utcnow()})
        with self.tx() as tx:
            tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [MENTIONS, value],
            )

    def mentions_seen(self) -> tuple[bool, str] | None:
        """(escaped, when) of the latest `note_mentions`; None before any."""
        found = self._scalar("SELECT value FROM meta WHERE key = ?", [MENTIONS])
        if found is None:
            return None
        value = json.loads(str(found))
        return bool(value["escaped"]), str(value["at"])

    # -- reminders ---------------------------------------------------------------------

    def claim_reminder(self, reviewer: str, day: str, claimer: str, stale_after_s: float) -> bool:
        """Take `reviewer`'s reminder of `day` for `claimer`; False when it was sent, or
        is being sent by a sender that has not died (`stale_after_s`)."""
        now = datetime.now(UTC)
        stale = (now - timedelta(seconds=stale_after_s)).isoformat()
        with self.tx() as tx:
            taken = tx.execute(
                "INSERT INTO reminders (ws, reviewer, day, status, claimer, claimed_at)"
                " VALUES (?, ?, ?, 'posting', ?, ?) ON CONFLICT (ws, reviewer, day) DO UPDATE SET"
                " status = excluded.status, claimer = excluded.claimer,"
                " claimed_at = excluded.claimed_at, sent_at = NULL, ts = NULL"
                " WHERE reminders.status = 'posting'"
                f" AND reminders.claimed_at {self.engine.bytewise} < ?"
                " RETURNING 1",
                [self.ws, reviewer, day, claimer, now.isoformat(), stale],
            ).fetchone()
        return taken is not None

    def finish_reminder(self, reviewer: str, day: str, claimer: str, ts: str | None) -> None:
        """Slack took the reminder (its ts), or there was nothing to remind of (None)."""
        with self.tx() as tx:
            tx.execute(
                "UPDATE reminders SET status = ?, sent_at = ?, ts = ?"
                f" WHERE {self.space} AND reviewer = ? AND day = ? AND claimer = ?",
                ["sent" if ts else "empty", utcnow(), ts, reviewer, day, claimer],
            )

    def release_reminder(self, reviewer: str, day: str, claimer: str) -> None:
        """Sending failed: a later attempt that day may try again."""
        with self.tx() as tx:
            tx.execute(
                f"DELETE FROM reminders WHERE {self.space} AND reviewer = ? AND day = ?"
                " AND claimer = ? AND status = 'posting'",
                [reviewer, day, claimer],
            )

    def reminder_status(self, reviewer: str, day: str) -> str | None:
        found = self._scalar(
            f"SELECT status FROM reminders WHERE {self.space} AND reviewer = ? AND day = ?",
            [reviewer, day],
        )
        return None if found is None else str(found)
