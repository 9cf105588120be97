"""Reviewers asked for their decision (`/candidate 邀请`): a request and what asking did.
Plain values, as in models.py.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class Request(BaseModel):
    """One reviewer asked for their decision about a candidate: by whom, when, due when
    (UTC ISO times), and from which verdict thread. Open until the reviewer records a
    decision on that candidate by any path, or a hiring decision closes it; open again
    when the reviewer withdraws the decision that closed it (`withdrawn_at`: when they
    last withdrew one after it had shown them the others' decisions and notes)."""

    candidate_id: str
    reviewer: str
    asked_by: str
    asked_at: str
    due_at: str
    channel: str
    thread_ts: str
    closed_at: str | None = None
    closed_by: Literal["decision", "outcome"] | None = None
    withdrawn_at: str | None = None

    @property
    def open(self) -> bool:
        return self.closed_at is None

    def overdue(self, now: str) -> bool:
        """Still open past its deadline (`now`: a UTC ISO time, as the store keeps them)."""
        return self.open and self.due_at < now


class Asks(BaseModel):
    """What asking reviewers about a candidate does (`RequestStore.record_asks`): whom it
    asks now, who was asked about that candidate in the last day (by anyone: not asked
    again), and whom the asker's hourly limit leaves out, with when the asker may ask
    someone again (`retry_at`, UTC ISO)."""

    asked: list[str] = Field(default_factory=list)
    already: list[str] = Field(default_factory=list)
    limited: list[str] = Field(default_factory=list)
    retry_at: str | None = None
