"""Reminders: once a working day, each reviewer with overdue requests gets one DM.

At DEBRIEF_REMIND_TIME (Monday to Friday in DEBRIEF_TIMEZONE), every reviewer whose
requests are past their deadline gets one direct message listing them, with the
decision buttons. At most one a reviewer a day, as the digest is posted once: the
reviewer's day is claimed in the database before sending (one sender, one replica) and
marked sent once Slack took the message; a send that failed gives the claim back, so a
later run that day tries again. A DM whose outcome Slack left unknown (5xx, a dropped
connection) is never sent again blindly: it carries metadata (`debrief_reminder`, the
day and the reviewer) and is looked for in the DM first. A reminder missed while the bot
was down goes out when it comes back, the same working day.

A reviewer who may no longer see candidates (DEBRIEF_ALLOWED_USERS, or not of this
workspace: Slack Connect, deactivated) is not reminded.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from handlers.audit import AuditEvent, record
from handlers.people import user_facts
from handlers.policy import Policy
from handlers.sending.pacing import Pacer
from handlers.sending.posting import PostUnknown, find_posted, post_once
from handlers.views.remind import reminder_view
from store.factory import Backend
from store.models import Candidate
from store.request_models import Request

from .settings import Settings

logger = logging.getLogger("debrief.remind")

Status = Literal["sent", "already_sent", "would_send", "refused", "failed"]
RunOutcome = Literal["ran", "off", "not_due", "weekend"]
Access = Literal["yes", "no", "unknown"]
STALE_CLAIM_S = 15 * 60  # a claim older than this belonged to a sender that died
REMIND_EVENT = "debrief_reminder"  # the metadata event type that marks a reminder
GONE = frozenset({"user_not_found", "user_not_visible", "account_inactive"})


@dataclass(frozen=True)
class Overdue:
    """One overdue request and the candidate it is about."""

    request: Request
    candidate: Candidate

    def as_json(self) -> dict[str, Any]:
        r = self.request
        return {
            "candidate_id": r.candidate_id,
            "name": self.candidate.name,
            "position": self.candidate.position,
            "asked_by": r.asked_by,
            "asked_at": r.asked_at,
            "due_at": r.due_at,
            "channel": r.channel,
            "thread_ts": r.thread_ts,
        }


@dataclass
class Reminded:
    """What became of one reviewer's reminder."""

    reviewer: str
    status: Status
    items: list[Overdue]
    ts: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "reviewer": self.reviewer,
            "status": self.status,
            "requests": [o.as_json() for o in self.items],
        }


@dataclass
class RemindRun:
    """One run: the day it counts for, whether it ran, and each reviewer's reminder."""

    day: str
    outcome: RunOutcome
    reminders: list[Reminded] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"day": self.day, "reminders": [r.as_json() for r in self.reminders]}

    @property
    def failed(self) -> bool:
        return any(r.status == "failed" for r in self.reminders)


class Reminder:
    """The daily reminders of one process: its scheduler and its claims."""

    def __init__(
        self,
        settings: Settings,
        store: Backend,
        client: WebClient | None,
        pacer: Pacer | None = None,
        team: str | None = None,
        teams: frozenset[str] | None = None,
    ) -> None:
        """`team`: the workspace the reminded must belong to (installed in many, the
        workspace's; otherwise the one `serve` recorded, or the token's); `teams`: for
        an org-wide install, the organisation's workspaces it was granted instead."""
        self.settings = settings
        self.store = store
        self.client = client
        self.pacer = pacer or Pacer()  # one DM a second in each channel
        self.policy = Policy(settings.allowed_users, [])
        self.claimer = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._lock = threading.Lock()
        self._scheduler: Any = None
        self._team: str | None = team
        self.teams = teams
        self._refused: set[tuple[str, str]] = set()  # (day, reviewer) refused that day
        self._groups_read = False  # in this run

    # -- when ----------------------------------------------------------------------------

    def now(self) -> datetime:
        return datetime.now(self.settings.tz)

    def day(self, now: datetime) -> str:
        return now.astimezone(self.settings.tz).date().isoformat()

    def working_day(self, now: datetime) -> bool:
        return now.astimezone(self.settings.tz).weekday() < 5

    def due(self, now: datetime) -> bool:
        if self.settings.remind_time == "off":
            return False
        hour, minute = (int(x) for x in self.settings.remind_time.split(":"))
        local = now.astimezone(self.settings.tz)
        return (local.hour, local.minute) >= (hour, minute)

    # -- who, and what of ----------------------------------------------------------------

    def overdue(self, now: datetime) -> dict[str, list[Overdue]]:
        """Each reviewer's overdue requests at `now`, the oldest deadline first."""
        found: dict[str, list[Overdue]] = {}
        candidates: dict[str, Candidate | None] = {}
        for request in self.store.overdue_requests(_utc_iso(now)):
            cid = request.candidate_id
            if cid not in candidates:
                candidates[cid] = self.store.get_candidate(cid)
            candidate = candidates[cid]
            if candidate is not None:  # forgotten meanwhile: nothing to remind of
                found.setdefault(request.reviewer, []).append(Overdue(request, candidate))
        return found

    def run(
        self, now: datetime | None = None, force: bool = False, dry_run: bool = False
    ) -> RemindRun:
        """Remind each reviewer with overdue requests, once today; `force`: whatever the
        time and the day (`debrief remind --post`); `dry_run`: send and claim nothing,
        say who would be reminded of what."""
        now = now or self.now()
        day = self.day(now)
        if not force and not dry_run:
            if self.settings.remind_time == "off":
                return RemindRun(day, "off")
            if not self.working_day(now):
                return RemindRun(day, "weekend")
            if not self.due(now):
                return RemindRun(day, "not_due")
        result = RemindRun(day, "ran")
        with self._lock:
            self._refused = {seen for seen in self._refused if seen[0] == day}
            self._groups_read = False
            for reviewer, items in self.overdue(now).items():
                result.reminders.append(self._one(reviewer, items, day, now, dry_run))
        return result

    def _one(
        self, reviewer: str, items: list[Overdue], day: str, now: datetime, dry_run: bool
    ) -> Reminded:
        earlier = self.store.reminder_status(reviewer, day)
        if earlier in {"sent", "empty"}:
            return Reminded(reviewer, "already_sent", items)
        # refused once today: not asked again (Slack is not read every run for them)
        access = "no" if (day, reviewer) in self._refused else self._access(reviewer)
        if access == "no":
            if (day, reviewer) not in self._refused:
                self._refused.add((day, reviewer))
                logger.info("not reminding %s: they may not see candidates", reviewer)
            return Reminded(reviewer, "refused", items)
        if access == "unknown":
            logger.warning("cannot tell whether %s may see candidates: not reminded", reviewer)
            return Reminded(reviewer, "failed", items)
        if dry_run:
            return Reminded(reviewer, "would_send", items)
        if self.client is None:
            raise RuntimeError("no Slack client to send reminders with")
        if not self.store.claim_reminder(reviewer, day, self.claimer, STALE_CLAIM_S):
            return Reminded(reviewer, "already_sent", items)
        claimed = time.time()
        try:
            ts = self._send(reviewer, items, day, now, earlier == "posting", claimed)
        except BaseException as exc:
            if isinstance(exc, _Unknown):  # the claim stays: the next sender looks first
                logger.warning("reminder of %s: Slack did not say whether it was sent", reviewer)
                return Reminded(reviewer, "failed", items)
            self.store.release_reminder(reviewer, day, self.claimer)
            if not isinstance(exc, Exception):
                raise
            if isinstance(exc, SlackApiError):
                error = exc.response.get("error") if exc.response is not None else None
                logger.warning(
                    "reminder of %s not sent (%s); a later run tries again", reviewer, error
                )
            else:
                logger.exception("reminder of %s not sent; a later run tries again", reviewer)
            return Reminded(reviewer, "failed", items)
        return Reminded(reviewer, "sent", items, ts)

    def _access(self, reviewer: str) -> Access:
        """May `reviewer` see candidates: the allowed users and groups, then Slack: one of
        this workspace, not deactivated (without a client: the ids alone)."""
        if self.policy.groups and not self._groups_read and self.client is not None:
            self.policy.refresh(self.client)  # who is in the allowed groups now
            self._groups_read = True
        verdict = self.policy.decide(reviewer)
        if verdict == "no":
            return "no"
        if verdict == "pending":
            return "unknown"
        if self.client is None:
            return "yes"
        try:
            own = self.teams if self.teams is not None else frozenset({self._own_team()})
            user = self.client.users_info(user=reviewer).get("user")
        except SlackApiError as exc:
            error = exc.response.get("error") if exc.response is not None else None
            if error in GONE:
                return "no"
            logger.warning("users.info failed for %s (%s)", reviewer, error)
            return "unknown"
        except Exception as exc:
            logger.warning("users.info failed for %s (%s)", reviewer, type(exc).__name__)
            return "unknown"
        if not isinstance(user, dict) or user.get("deleted") or user.get("is_bot"):
            return "no"
        facts = user_facts(user)
        return "yes" if own & facts.teams and not facts.stranger else "no"

    def _own_team(self) -> str:
        if self._team is None:
            served = self.store.workspace()
            if served is not None:
                self._team = served[0]
            else:
                assert self.client is not None
                self._team = str(self.client.auth_test().get("team_id") or "")
        return self._team

    # -- sending -------------------------------------------------------------------------

    def _send(
        self,
        reviewer: str,
        items: list[Overdue],
        day: str,
        now: datetime,
        look_first: bool,
        claimed: float,
    ) -> str:
        """Open the DM, post the reminder once, record it and audit it -> its ts."""
        assert self.client is not None
        opened = self.client.conversations_open(users=reviewer)
        channel = str((opened.get("channel") or {}).get("id") or "")
        if not channel:
            raise RuntimeError("conversations.open gave no channel")
        marker = {"day": day, "reviewer": reviewer}
        pairs = [(o.request, o.candidate) for o in items]
        message, shown = reminder_view(self.settings.locale, pairs, now, self.settings.tz)
        if look_first:  # an earlier sender died or could not tell: did it send?
            start = datetime.fromisoformat(day).replace(tzinfo=self.settings.tz).timestamp()
            try:
                ts = find_posted(self.client, channel, REMIND_EVENT, marker, start)
            except Exception as exc:  # still unknown: the claim stays, looked at again later
                raise _Unknown() from exc
            if ts is not None:
                logger.info("reminder of %s: an earlier attempt had sent it", reviewer)
                return self._sent(reviewer, day, channel, ts, items[:shown])
        self.pacer.wait(channel)
        try:
            ts = post_once(
                self.client,
                channel,
                text=message.text,
                blocks=message.blocks,
                event_type=REMIND_EVENT,
                marker=marker,
                since=claimed,
            )
        except PostUnknown as exc:
            raise _Unknown() from exc
        return self._sent(reviewer, day, channel, ts, items[:shown])

    def _sent(self, reviewer: str, day: str, channel: str, ts: str, items: list[Overdue]) -> str:
        self.store.finish_reminder(reviewer, day, self.claimer, ts)
        action = f"remind:{reviewer}"
        record(
            self.store,
            [AuditEvent("debrief", action, o.request.candidate_id, channel) for o in items],
        )
        logger.info("reminded %s of %d overdue request(s)", reviewer, len(items))
        return ts

    # -- the schedule ----------------------------------------------------------------------

    def run_safely(self, now: datetime | None = None) -> None:
        try:
            outcome = self.run(now)
            logger.debug("reminder run: %s", outcome.outcome)
        except Exception:
            logger.exception("the reminders could not be sent; the next run will try again")

    def start(self) -> Reminder:
        """Schedule the reminders each working day, and send now those missed today."""
        from .schedule import daily

        self._scheduler = daily(
            self.run_safely, self.settings.tz, self.settings.remind_time, "remind", "mon-fri"
        )
        return self

    def stop(self) -> None:
        if self._scheduler is not None:
            self._scheduler.shutdown(wait=False)


class _Unknown(Exception):
    """Slack did not say whether the reminder went out, and it was not found in the DM."""


def _utc_iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="microseconds")
