"""The one write path for the audit trail: who did what, about which candidate, from where.

Handlers do not write audit rows themselves. They say what happened as `AuditEvent`
values (an answer's lookups, the outbox's posts, a recorded reply, a refusal) and
the listener, the digest or the CLI hands them to `record`, the only caller of the
store's `audit`. Actions read `lookup:<kind>`, `post:<kind>`, `decision:<d>`,
`followup`, `note`, `refused:<request>`, `forget`, `restore`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class AuditEvent:
    """One line of the audit, before it is written."""

    actor: str  # a Slack user ID, "cli" or "debrief"
    action: str
    candidate: str | None = None
    channel: str | None = None


class AuditLog(Protocol):
    def audit(
        self, actor: str, action: str, candidate_id: str | None = None, channel: str | None = None
    ) -> None: ...


def record(log: AuditLog, events: Iterable[AuditEvent]) -> None:
    """Write `events` to the audit, in order."""
    for event in events:
        log.audit(event.actor, event.action, event.candidate, event.channel)
