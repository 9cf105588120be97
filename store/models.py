"""The pydantic models that flow from the parser through the store to the handlers.

Nothing here talks to SQLite or Slack: these are plain values.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_serializer

from .request_models import Request

Decision = Literal["strong_hire", "hire", "hold", "no_hire", "strong_no_hire"]
DECISIONS: tuple[Decision, ...] = get_args(Decision)  # the order tallies are shown in
UnansweredReason = Literal["empty", "skipped", "dont_know"]
# What each reason is called, in the two languages the bot and the CLI speak (one home:
# handlers/i18n.py and bot/words/ both read it).
Locale = Literal["zh", "en"]
UNANSWERED_LABELS: dict[UnansweredReason, dict[Locale, str]] = {
    "empty": {"zh": "未作答", "en": "unanswered"},
    "skipped": {"zh": "跳过", "en": "skipped"},
    "dont_know": {"zh": "不会", "en": "didn't know"},
}
"""Why a question counts as unanswered: no answer or a placeholder (无, N/A), skipped
(跳过, 略), or the answer only says the candidate could not answer (不知道, 没接触过)."""


def plain_years(years: float | None) -> int | float | None:
    """Years as people read them, in JSON and on screen: 3.0 -> 3, 1.5 -> 1.5."""
    if years is None:
        return None
    return int(years) if float(years).is_integer() else round(years, 1)


class _PlainYears(BaseModel):
    """`years` dumps as 3, not 3.0 (a float field: 1年半 is 1.5)."""

    @field_serializer("years", check_fields=False)
    def _dump_years(self, years: float | None) -> int | float | None:
        return plain_years(years)


# The daily digest's sections, in the order it shows them: the one list of them.
DigestCategory = Literal["new", "waiting", "unanswered", "decided"]
DIGEST_CATEGORIES: tuple[DigestCategory, ...] = get_args(DigestCategory)


class Question(BaseModel):
    model_config = ConfigDict(frozen=True)

    number: int
    question: str
    goal: str = ""
    answer: str = ""
    answered: bool = False
    unanswered_reason: UnansweredReason | None = None  # None when answered
    # a meeting export's time of the question in the recording (`00:03:15`); None elsewhere
    started_at: str | None = None
    # False: the file lists the question but records nothing of its answer (a bare list of
    # the questions asked). Then `answered` is False and `unanswered_reason` None, and the
    # question counts neither as answered nor as unanswered anywhere (issue 46).
    answer_recorded: bool = True


class Origin(BaseModel):
    """Where an interview came from when nobody brought its file (issue 48): the meeting
    whose cloud transcript Debrief took from Zoom by itself."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["zoom"] = "zoom"
    meeting_id: int | str  # as Zoom gives it: a number (a string only if Zoom sent one)
    meeting_uuid: str


class Transcript(_PlainYears):
    """One interview, as parsed from one file."""

    model_config = ConfigDict(frozen=True)

    id: str
    position: str | None = None
    years: float | None = None  # one decimal at most; None when unknown
    years_text: str = ""  # what the file said: `1年半`, `应届`, `不详`
    # who and when, from the header; never guessed: None (or empty) when the file does not say
    name: str | None = None
    interviewers: list[str] = Field(default_factory=list)
    interviewed_at: str | None = None  # ISO 8601: `2026-11-28` or `2026-11-28T14:30`
    interviewed_at_text: str = ""  # what the file said: `2026年11月28日 14:30`, `下周二`
    round: str | None = None  # as written: `二面`, `终面`, `HR面`, `1st round`
    # the candidate's explicit key as written (`候选人编号`, `Candidate ID`, `邮箱`): what
    # makes interviews one candidate (issue 38, store/candidate_keys.py); None: not given
    candidate_ref: str | None = None
    intro: str = ""
    summary: str = ""
    questions: list[Question] = Field(default_factory=list)
    verdict: str | None = None
    # "meeting": a meeting tool's export of the dialogue (WebVTT, SRT, 飞书妙记, 腾讯会议,
    # 钉钉), which has no summary and no verdict of its own; "notes": written notes
    kind: Literal["notes", "meeting"] = "notes"
    # False: the file is an interview record but its questions could not be read; then
    # `questions` is empty and every surface shows the text as written (`body`) with
    # "questions could not be read from this file": no count, no unanswered, no claim
    questions_read: bool = True
    body: str = ""  # the interview's text as written (plain text), filled by the reader
    # the meeting's topic, where it came from a meeting tool by itself (issue 48); None
    # for a file somebody brought
    title: str | None = None
    origin: Origin | None = None
    source: str = ""
    hash: str = ""

    @property
    def unanswered(self) -> list[Question]:
        return [q for q in self.questions if q.answer_recorded and not q.answered]

    @property
    def counted(self) -> list[Question]:
        """The questions that count as answered or unanswered: those whose answer the
        file records (issue 46)."""
        return [q for q in self.questions if q.answer_recorded]

    @property
    def unrecorded(self) -> list[Question]:
        """The questions the file lists with nothing of their answer: "answer not
        recorded", counted neither way."""
        return [q for q in self.questions if not q.answer_recorded]


class DecisionRecord(BaseModel):
    reviewer: str
    decision: Decision
    text: str
    ts: str


class Followup(BaseModel):
    number: int
    answer: str
    reviewer: str
    ts: str


def tally_decisions(decisions: Iterable[DecisionRecord]) -> dict[str, int]:
    """How many of `decisions` say what: the one tally (a candidate's, a digest line's)."""
    counts: dict[str, int] = {}
    for d in decisions:
        counts[d.decision] = counts.get(d.decision, 0) + 1
    return counts


class Note(BaseModel):
    reviewer: str
    text: str
    ts: str


Hiring = Literal["hire", "reject", "hold"]
HIRINGS: tuple[Hiring, ...] = get_args(Hiring)


class Outcome(BaseModel):
    """The hiring decision about a candidate: what, why, who recorded it and when (UTC)."""

    decision: Hiring
    note: str
    by: str
    at: str


class Candidate(Transcript):
    """A transcript as the store knows it: with what reviewers said in Slack."""

    indexed_at: str = ""
    candidate_key: str | None = None  # who the candidate is (issue 38): store/candidate_keys.py
    decisions: list[DecisionRecord] = Field(default_factory=list)
    followups: list[Followup] = Field(default_factory=list)
    notes: list[Note] = Field(default_factory=list)
    outcome: Outcome | None = None

    def followup_for(self, number: int) -> Followup | None:
        found = [f for f in self.followups if f.number == number]
        return found[-1] if found else None

    def is_open(self, q: Question) -> bool:
        """Unanswered in the transcript and not answered later in a thread (a question
        whose answer the file does not record is never open: issue 46)."""
        return q.answer_recorded and not q.answered and self.followup_for(q.number) is None

    @property
    def open_questions(self) -> list[Question]:
        return [q for q in self.questions if self.is_open(q)]

    @property
    def tally(self) -> dict[str, int]:
        return tally_decisions(self.decisions)


class CandidateSummary(_PlainYears):
    """One line of `list`: enough to pick a candidate, no transcript text."""

    id: str
    position: str | None
    years: float | None
    years_text: str = ""
    # who and when, from the header (see Transcript); what a pick list tells apart
    name: str | None = None
    interviewers: list[str] = Field(default_factory=list)
    interviewed_at: str | None = None
    interviewed_at_text: str = ""
    round: str | None = None
    questions: int  # those whose answer the file records (they count either way)
    unanswered: int
    has_verdict: bool
    indexed_at: str = ""
    candidate_key: str | None = None  # who the candidate is (issue 38)
    # issue 46: False when the file's questions could not be read (then no count is
    # shown); the questions listed with no answer recorded (counted neither way)
    questions_read: bool = True
    unrecorded: int = 0


class SearchHit(_PlainYears):
    id: str
    position: str | None
    years: float | None
    name: str | None = None  # the candidate's, where the file gives it
    snippet: str
    score: float
    # where the match sits inside `snippet`, as [start, end) character offsets
    highlight: tuple[int, int] | None = None
    # the number of the question whose question, goal or answer the snippet comes from
    question: int | None = None
    # the terms the transcript contains: the words as typed, or (`partial`) only the
    # words a Chinese phrase splits into (`图优化` -> `优化`) when it lacks the phrase
    matched: list[str] = Field(default_factory=list)
    partial: bool = False


class IndexResult(BaseModel):
    indexed: list[str] = Field(default_factory=list)
    unchanged: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)
    failed: list[ParseFailure] = Field(default_factory=list)
    skipped: list[SkippedFile] = Field(default_factory=list)
    forgotten: list[str] = Field(default_factory=list)
    # files indexed with something missing (no question found, no summary, no verdict)
    warnings: list[IndexWarning] = Field(default_factory=list)


class ParseFailure(BaseModel):
    path: str
    line: int | None = None
    error: str
    # the reason's stable code and values (store/transcripts/errors.py), which the
    # catalogue says in either language; not in `--json`, whose `error` is the English
    code: str = Field("", exclude=True)
    params: dict[str, str | int | float] = Field(default_factory=dict, exclude=True)


class SkippedFile(BaseModel):
    """A file an index run left alone, and why: not a transcript, a FIFO or a device.
    Its `reason` is always one of the declared ones (its code: `code_of(reason)`)."""

    path: str
    reason: str


class IndexWarning(BaseModel):
    """A file indexed with something a reader would expect missing: its codes, in
    store/transcripts/warnings.py's order (`no_questions`, `no_summary`, `no_verdict`)."""

    path: str
    id: str
    warnings: list[str]


IndexResult.model_rebuild()


class PendingUpload(BaseModel):
    """A file shared in Slack whose handling was claimed but never finished."""

    key: str
    file_id: str
    channel: str
    ts: str
    user: str


class DigestLine(_PlainYears):
    id: str
    position: str | None
    years: float | None
    name: str | None = None
    interviewed_at: str | None = None  # ISO 8601, from the file; None when it gives none
    round: str | None = None  # as written, where the query reads it (issue 38)
    # a line of a list that counts people (issue 38, store/people_lines.py): the interviews
    # of one candidate it lists, oldest first, and the round of each (None: not written)
    ids: list[str] = Field(default_factory=list)
    rounds: list[str | None] = Field(default_factory=list)
    count: int = 0  # unanswered questions, or decisions recorded
    questions: int | None = None  # the questions found in the file, where the query reads it
    # issue 46, where the query reads them: False when the file's questions could not be
    # read (no count shown), and the questions listed with no answer recorded
    questions_read: bool = True
    unrecorded: int = 0
    claims: int = 0  # unsupported claims about the candidate (store/claims/), where counted
    tally: dict[str, int] = Field(default_factory=dict)


class DigestData(BaseModel):
    """What the daily digest says, before it is rendered."""

    since: str
    new: list[DigestLine] = Field(default_factory=list)
    new_total: int = 0
    waiting: list[DigestLine] = Field(default_factory=list)
    waiting_total: int = 0
    unanswered: list[DigestLine] = Field(default_factory=list)
    unanswered_total: int = 0
    decided: list[DigestLine] = Field(default_factory=list)
    decided_total: int = 0
    # candidates with requests past their deadline, each with those requests (the store's
    # `overdue_lines`): filled in by who composes the digest, who knows the time
    overdue: list[tuple[DigestLine, list[Request]]] = Field(default_factory=list)
    overdue_total: int = 0

    @property
    def empty(self) -> bool:
        return not (
            self.new_total
            or self.waiting_total
            or self.unanswered_total
            or self.decided_total
            or self.overdue_total
        )


class AuditEntry(BaseModel):
    when: str
    who: str
    what: str
    candidate: str | None
    channel: str | None


class IndexRun(BaseModel):
    """What the last index run did, as `stats` and `doctor` report it."""

    finished_at: str
    indexed: int = 0
    unchanged: int = 0
    removed: int = 0
    failed: int = 0
    skipped: int = 0


class Stats(BaseModel):
    """`debrief stats`: the size of what the database holds."""

    candidates: int  # people (issue 38: a candidate's interviews count once)
    questions: int  # those whose answer the file records (issue 46): answered or not
    unanswered: int
    unrecorded: int = 0  # questions listed with no answer recorded: counted neither way
    questions_unread: int = 0  # interviews whose questions could not be read from the file
    decisions: int
    database_bytes: int
    interviews: int = 0  # the transcripts indexed
    schema_version: str
    last_index_run: IndexRun | None = None
    last_digest: str | None = None


class HealthCheck(BaseModel):
    """The database's own health, for `debrief doctor`."""

    writable: bool
    quick_check: str
    schema_version: str
    schema_current: bool
    pending_migrations: list[str] = Field(default_factory=list)


class ZoomRecording(BaseModel):
    """A Zoom cloud transcript Debrief was told of (the webhook) or found (`zoom sync`):
    waiting to be fetched, or what became of it (issue 48, store/zoom.py). What the
    meeting says of the interview (`topic`, `start_time`, its host) is kept until the
    interview is forgotten; how to fetch it, until it is fetched."""

    ws: int = 0
    meeting_uuid: str
    file_id: str
    meeting_id: str  # Zoom's number, as text
    account_id: str
    topic: str | None = None
    start_time: str  # UTC, ISO 8601, as Zoom says it
    timezone: str | None = None  # the meeting's own zone, as Zoom says it
    host_email: str | None = None
    host_id: str | None = None
    download_url: str | None = None
    download_token: str | None = Field(default=None, repr=False)
    via: Literal["webhook", "poll"] = "webhook"
    state: Literal["waiting", "taken", "refused", "failed"] = "waiting"
    attempts: int = 0
    next_at: str = ""
    last_error: str | None = None
    interviewed_at: str | None = None  # the start, in the workspace's zone (ISO, minutes)
    interviewer: str | None = None  # the host as Slack names them, else their e-mail
    candidate_id: str | None = None
    path: str | None = None  # the saved transcript (as the index names its source)
    created_at: str = ""
    finished_at: str | None = None

    @property
    def key(self) -> str:
        """Its claim among the uploads: once per meeting and transcript file."""
        return f"zoom:{self.meeting_uuid}:{self.file_id}"
