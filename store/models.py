"""The pydantic models that flow from the parser through the store to the handlers.

Nothing here talks to SQLite or Slack: these are plain values.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_serializer

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
    intro: str = ""
    summary: str = ""
    questions: list[Question] = Field(default_factory=list)
    verdict: str | None = None
    source: str = ""
    hash: str = ""

    @property
    def unanswered(self) -> list[Question]:
        return [q for q in self.questions if not q.answered]


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
    reviews: list[ExportReview] = Field(default_factory=list)


class Request(BaseModel):
    """One reviewer asked for their decision about a candidate: by whom, when, due when
    (UTC ISO times), and from which verdict thread. Open until the reviewer records a
    decision on that candidate by any path, or a hiring decision closes it."""

    candidate_id: str
    reviewer: str
    asked_by: str
    asked_at: str
    due_at: str
    channel: str
    thread_ts: str
    closed_at: str | None = None
    closed_by: Literal["decision", "outcome"] | None = None

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


class Workspace(BaseModel):
    """One data space: the Slack workspace (`T…`) or Enterprise Grid organisation (`E…`,
    an org-wide install) whose candidates, threads and decisions it holds. Space 0 is
    the single-workspace mode's, with no key until an install adopts it."""

    ws: int
    slack_key: str | None
    kind: Literal["team", "enterprise"]
    name: str
    created_at: str
    uninstalled_at: str | None = None
    erase_after: str | None = None  # when its data goes, unless installed again before
    erased_at: str | None = None


SpaceRefusal = Literal["erased", "installed", "unadopted", "not_uninstalled"]
"""Why a data space may not be erased: it was already (`erased`), it is installed, or it
is space 0 with no Slack key (`unadopted`: the single-workspace mode's, which no install
took) or never uninstalled."""


ZeroNaming = Literal["named", "already", "taken", "keyed", "erased", "served_other"]
"""What giving space 0 a Slack key did (`SpaceStore.name_space_zero`): `named` it,
nothing (`already` that key), or nothing because another space has that key (`taken`),
space 0 has another key (`keyed`), was erased, or served another team in the
single-workspace mode (`served_other`, unless forced)."""


class SpaceStep(BaseModel):
    """One short transaction of a data space's erasure (`SpaceStore.erase_space_step`):
    what it erased, the uploaded files the caller is to erase next (then
    `forget_space_files`), and whether anything is left."""

    candidates: int = 0  # candidates (or ids the audit still named) erased as forget does
    files: list[str] = Field(default_factory=list)  # transcripts saved from Slack
    rows: int = 0  # the space's other rows deleted
    after: str = ""  # the last audit subject done: where the next step goes on
    done: bool = False  # nothing left but `finish_space_erasure`
    stopped: SpaceRefusal | None = None  # installed again (or erased) meanwhile: stop


class WorkspaceSettings(BaseModel):
    """What a workspace's admins set for it in App Home (installed in many workspaces):
    who and where may see candidates, who decides, the digest and the reminders. None:
    the environment's setting (DEBRIEF_ALLOWED_USERS, …). `digest_channel` "" turns the
    digest off; `remind_time` "off" the reminders. `version` counts the saves."""

    allowed_users: list[str] | None = None  # U…/W… users and S… user groups
    allowed_channels: list[str] | None = None
    deciders: list[str] | None = None
    digest_channel: str | None = None
    digest_time: str | None = None  # HH:MM, in its time zone
    remind_time: str | None = None  # HH:MM or "off"
    # the IANA time zone its digest, reminders, deadlines and retention day follow
    # (None: DEBRIEF_TIMEZONE); checked with zoneinfo when saved (issue 34)
    timezone: str | None = None
    # where its hiring decisions go (None: DEBRIEF_WEBHOOK_URL), and the secret they are
    # signed with, encrypted with DEBRIEF_TOKEN_KEY as tokens are (never shown back)
    webhook_url: str | None = None
    webhook_secret_enc: str | None = Field(default=None, repr=False)
    # candidate data may be posted in a channel shared with another organisation (Slack
    # Connect); None: not (issue 34)
    allow_shared_channels: bool | None = None
    version: int = 0
    saved_by: str | None = None
    saved_at: str | None = None


class Installation(BaseModel):
    """What an install gave a data space: the bot's identity and its token, encrypted by
    the caller (the store only keeps ciphertext), and when a rotating token expires."""

    ws: int = 0  # given by the store; ignored when saving
    enterprise_id: str | None
    team_id: str | None
    is_enterprise_install: bool = False
    app_id: str | None = None
    enterprise_name: str | None = None
    enterprise_url: str | None = None
    team_name: str | None = None
    bot_id: str
    bot_user_id: str
    bot_scopes: str = ""  # comma-separated, as Slack gives them
    bot_token_enc: str = Field(repr=False)
    bot_refresh_token_enc: str | None = Field(default=None, repr=False)
    bot_token_expires_at: int | None = None  # unix seconds; None: the token does not expire
    installer_user_id: str | None = None
    token_type: str | None = None
    installed_at: str = ""
    updated_at: str = ""

    @property
    def slack_key(self) -> str:
        """The data space's key: the organisation for an org-wide install, else the team."""
        key = self.enterprise_id if self.is_enterprise_install else self.team_id
        if not key:
            raise ValueError("an installation names its team, or its organisation")
        return key


class Candidate(Transcript):
    """A transcript as the store knows it: with what reviewers said in Slack."""

    indexed_at: str = ""
    decisions: list[DecisionRecord] = Field(default_factory=list)
    followups: list[Followup] = Field(default_factory=list)
    notes: list[Note] = Field(default_factory=list)
    outcome: Outcome | None = None

    def followup_for(self, number: int) -> Followup | None:
        found = [f for f in self.followups if f.number == number]
        return found[-1] if found else None

    def is_open(self, q: Question) -> bool:
        """Unanswered in the transcript and not answered later in a thread."""
        return not q.answered and self.followup_for(q.number) is None

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
    questions: int
    unanswered: int
    has_verdict: bool
    indexed_at: str = ""


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
    count: int = 0  # unanswered questions, or decisions recorded
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

    candidates: int
    questions: int
    unanswered: int
    decisions: int
    database_bytes: int
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
