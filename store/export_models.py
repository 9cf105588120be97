"""What is handed to an ATS: `debrief export`'s rows and the hiring decisions waiting to
be POSTed to DEBRIEF_WEBHOOK_URL. Plain values, as in models.py.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from .models import Decision, Hiring


class ExportReview(BaseModel):
    """One reviewer's current decision about a candidate and what their reply said."""

    reviewer: str
    decision: Decision
    note: str


class ExportRow(BaseModel):
    """One candidate as `debrief export` hands it to an ATS."""

    id: str
    name: str | None
    position: str
    round: str | None
    interviewed_at: str | None
    outcome: Hiring | None
    outcome_by: str | None
    outcome_at: str | None
    # whose candidate it is: the workspace (T…) or Enterprise Grid organisation (E…) of
    # its data space and their names, as Slack's installation calls them; None unknown
    team_id: str | None = None
    team_name: str | None = None
    enterprise_id: str | None = None
    enterprise_name: str | None = None
    # who the candidate is (issue 38): their interviews share it (store/candidate_keys.py)
    candidate_key: str | None = None
    reviews: list[ExportReview] = Field(default_factory=list)


class WebhookEvent(BaseModel):
    """A hiring decision waiting to be handed to the ATS: the body as it will be POSTed
    (the export's row and its `event_id`), how often it was tried, when to try next."""

    event_id: str
    candidate_id: str
    body: str
    created_at: str
    attempts: int = 0
    next_at: str
    last_error: str | None = None
    ws: int = 0  # the data space of its decision: one deliverer hands over every space's
    sequence: int = 0  # the how-manyth decision about the candidate (0: before issue 34)
