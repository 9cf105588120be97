"""Hiring decisions waiting to be POSTed to the ATS: at least once, once across replicas.

`record_outcome` writes each event in the decision's own transaction
(store/outcomes.py); it stays in `webhook_events` until the receiver answered 2xx. A
sender claims due events for a lease (`claimed_until`): a conditional UPDATE per event,
so of two replicas exactly one takes each; a sender that dies mid-delivery leaves a
lease that runs out, and another (or the same process, restarted) takes the event
again. One person's events (whichever of their interviews each names) are sent in the
order they were recorded: a newer decision marks the older events not yet sent
superseded (never sent), and waits while one of them is in flight. Delivered events
are kept (the audit says when) until `forget` erases the candidate, which erases their
events, delivered or not.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from .base import Base, Tx
from .clock import utcnow
from .export_models import WebhookEvent

_COLUMNS = "event_id, candidate_id, body, created_at, attempts, next_at, last_error, ws, sequence"
_WAITING = "delivered_at IS NULL AND superseded_at IS NULL"
"""An event still to be sent: neither delivered nor superseded by a newer decision."""


_SAME_PERSON = (
    "SELECT webhook_events.candidate_id UNION SELECT c2.id FROM candidates c1"
    " JOIN candidates c2 ON c2.ws = c1.ws AND c2.candidate_key = c1.candidate_key"
    " WHERE c1.ws = webhook_events.ws AND c1.id = webhook_events.candidate_id"
)
"""SQL: the interviews of the person an event names (itself, when it is not indexed)."""


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def supersede_events(tx: Tx, ws: int, candidate_id: str, now: str) -> None:
    """A newer decision about the candidate is being recorded: its events not yet
    delivered are never sent (one in flight finishes first: `claim_webhook_events`)."""
    tx.execute(
        "UPDATE webhook_events SET superseded_at = ?"
        f" WHERE ws = ? AND candidate_id = ? AND {_WAITING}",
        [now, ws, candidate_id],
    )


class WebhookStore(Base):
    def claim_webhook_events(
        self, claimer: str, lease_s: float, limit: int = 10, now: datetime | None = None
    ) -> list[WebhookEvent]:
        """Take up to `limit` undelivered events that are due, oldest first, for `lease_s`
        seconds: no other claimer gets them until delivered, failed, or the lease ends."""
        at = now or datetime.now(UTC)
        now_iso, until = _iso(at), _iso(at + timedelta(seconds=lease_s))
        bytewise = self.engine.bytewise
        free = f"(claimed_until IS NULL OR claimed_until {bytewise} < ?)"
        # one candidate's events go in the order they were recorded: none is taken while
        # an older one of the same person (any of their interviews: issue 45) waits or is
        # in flight (claimed, superseded or not), on any replica
        first = (
            "NOT EXISTS (SELECT 1 FROM webhook_events o WHERE o.ws = webhook_events.ws"
            f" AND o.candidate_id IN ({_SAME_PERSON}) AND o.delivered_at IS NULL"
            " AND (o.sequence < webhook_events.sequence OR (o.sequence = webhook_events.sequence"
            f" AND o.created_at {bytewise} < webhook_events.created_at))"
            " AND (o.superseded_at IS NULL"
            f" OR (o.claimed_until IS NOT NULL AND o.claimed_until {bytewise} >= ?)))"
        )
        due = self._rows(
            f"SELECT {_COLUMNS} FROM webhook_events WHERE {_WAITING}"
            f" AND next_at {bytewise} <= ? AND {free} AND {first}"
            f" ORDER BY created_at {bytewise}, event_id LIMIT ?",
            [now_iso, now_iso, now_iso, limit],
        )
        taken: list[WebhookEvent] = []
        for r in due:
            with self.tx() as tx:
                claimed = tx.execute(
                    "UPDATE webhook_events SET claimed_by = ?, claimed_until = ?"
                    f" WHERE event_id = ? AND {_WAITING} AND {free} AND {first}",
                    [claimer, until, r["event_id"], now_iso, now_iso],
                ).rowcount
            if claimed == 1:
                taken.append(WebhookEvent(**r))
        return taken

    def webhook_delivered(self, event_id: str, claimer: str) -> bool:
        """The receiver answered 2xx: the event is done. False when it was not ours any
        more (erased by `forget`, or taken by another claimer after our lease ran out)."""
        with self.tx() as tx:
            done = tx.execute(
                "UPDATE webhook_events SET delivered_at = ?, claimed_until = NULL,"
                " attempts = attempts + 1, last_error = NULL"
                " WHERE event_id = ? AND claimed_by = ? AND delivered_at IS NULL",
                [utcnow(), event_id, claimer],
            ).rowcount
        return done == 1

    def webhook_failed(self, event_id: str, claimer: str, error: str, retry_at: datetime) -> None:
        """The receiver refused it or could not be reached: try again at `retry_at`."""
        with self.tx() as tx:
            tx.execute(
                "UPDATE webhook_events SET attempts = attempts + 1, last_error = ?,"
                " next_at = ?, claimed_until = NULL"
                " WHERE event_id = ? AND claimed_by = ? AND delivered_at IS NULL",
                [error[:500], _iso(retry_at), event_id, claimer],
            )

    def undelivered_webhooks(self) -> tuple[int, str | None]:
        """How many events wait for delivery, and when the oldest was written."""
        row = self._one(f"SELECT count(*), min(created_at) FROM webhook_events WHERE {_WAITING}")
        if row is None:
            return 0, None
        return int(row[0] or 0), None if row[1] is None else str(row[1])

    def oldest_undelivered_webhook(self) -> WebhookEvent | None:
        """The undelivered event written first (how often it was tried, what went wrong
        last), None when every event was delivered."""
        found = self._rows(
            f"SELECT {_COLUMNS} FROM webhook_events WHERE {_WAITING}"
            f" ORDER BY created_at {self.engine.bytewise}, event_id LIMIT 1",
            [],
        )
        return WebhookEvent(**found[0]) if found else None

    def webhook_event(self, event_id: str) -> WebhookEvent | None:
        found = self._rows(f"SELECT {_COLUMNS} FROM webhook_events WHERE event_id = ?", [event_id])
        return WebhookEvent(**found[0]) if found else None
