"""The candidate as a person (issue 38): the interviews of one loop, and what is still
open across it. Values only; the store makes them (`Store.loop_of`, `Store.find_loops`).

A candidate is a person applying for a position; each transcript is one of their
interviews. `key` names the candidate, stable across re-indexing and restarts."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from .models import Decision, Outcome


class LoopInterview(BaseModel):
    """One interview of a loop, as the loop card and `debrief loop --json` show it."""

    id: str
    round: str | None = None
    interviewed_at: str | None = None  # ISO 8601, as Transcript.interviewed_at
    interviewed_at_text: str = ""
    interviewers: list[str] = Field(default_factory=list)
    decisions: dict[Decision, int] = Field(default_factory=dict)  # reviewers' decisions
    open_questions: list[int] = Field(default_factory=list)  # unanswered, not answered later
    verdict: str | None = None  # the interview's verdict as written (the card shows its start)
    questions: int = 0  # how many questions were found in its file that count either way
    # issue 46: False when its file's questions could not be read (no count shown); the
    # questions listed with no answer recorded (counted neither way)
    questions_read: bool = True
    unrecorded: int = 0


class OpenQuestion(BaseModel):
    """A question still open across the loop: unanswered in `interview` and not answered
    in a later round or by a follow-up in a thread."""

    interview: str
    number: int
    question: str
    round: str | None = None  # the round it comes from, as written


class Loop(BaseModel):
    """A candidate: their interviews oldest first, what is still open, the hiring decision."""

    key: str
    name: str | None = None
    position: str | None = None
    interviews: list[LoopInterview] = Field(default_factory=list)
    open: list[OpenQuestion] = Field(default_factory=list)
    outcome: Outcome | None = None


class LoopSummary(BaseModel):
    """One line of a pick list of candidates: name · position · interviews · newest date,
    and what tells two people of one name and position apart (issue 45): their rounds,
    dates and interviewers."""

    key: str
    name: str | None = None
    position: str | None = None
    interviews: int = 0
    newest: str | None = None  # the newest interview's date (ISO), where known
    ids: list[str] = Field(default_factory=list)  # the interviews' ids, oldest first
    rounds: list[str | None] = Field(default_factory=list)  # each interview's, oldest first
    dates: list[str] = Field(default_factory=list)  # each interview's date as known ("": none)
    interviewers: list[str] = Field(default_factory=list)  # everyone who interviewed them, once


class Alike(BaseModel):
    """The other candidates who share an interview's explicit key or name and position
    (issue 45, store/alikes.py): `split`, one was split off another; `conflict`, the
    explicit key `ref` names people of different names. `pending`: the interview joined
    none of them and waits for someone to pick."""

    why: Literal["split", "conflict"]
    ref: str | None = None
    pending: bool = False
    people: list[LoopSummary] = Field(default_factory=list)
