"""Erasing candidates, always the same way: one on request (`debrief forget`), or every
one kept longer than DEBRIEF_RETENTION_DAYS (`debrief retention`, and the daily job
`serve` runs); and whole data spaces, those of workspaces that uninstalled Debrief once
their grace (DEBRIEF_UNINSTALL_GRACE) has passed (the daily job), or at once
(`debrief forget --workspace T…`).

Erasing is the store's `forget` (the candidate and everything recorded about them, in
one transaction; the audit keeps a pseudonym), then the transcript files shared in
Slack are overwritten and deleted, then the erasure itself is audited.

A retention policy counts from the interview's date (a date in the team's time zone:
the workspace's own, set in App Home, else DEBRIEF_TIMEZONE) or, when the transcript
gives none, from when its file was first indexed; a candidate whose file was removed
while reviews remain counts from the removal. "Older than N days" means before the
start of the day N days ago.
"""

from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime, time, timedelta
from typing import Any

from pydantic import BaseModel

from handlers.audit import AuditEvent, record
from handlers.uploads import erase_files
from store.audit import Expired
from store.factory import Backend
from store.spaces import SpaceStore
from store.workspace_models import SpaceRefusal, Workspace

from .settings import Settings
from .webhook import hands_decisions

logger = logging.getLogger("debrief.retention")

RETENTION_ACTION = "forget:retention"  # the audit's word for an erasure by the policy
SPACE_ACTION = "forget:workspace"  # the audit's word for a whole space's erasure
CHECK_EVERY_S = 3600  # how often serve asks whether today's run is still to do


def erase(
    store: Backend, candidate_id: str, actor: str, action: str, webhook: bool = False
) -> dict[str, int] | None:
    """Forget one candidate as `debrief forget` does; what was removed, None when nothing
    at all was known about them. A hiring decision recorded through it stays with the
    person while another interview of theirs remains (with `webhook`, sent to the ATS
    again)."""
    found = store.get_candidate(candidate_id)  # the file it was read from, if indexed
    counts = store.forget(candidate_id, webhook)
    if counts is None:
        return None
    # transcripts shared in Slack: the file itself, whichever of its interviews the upload
    # was recorded under (a file of several: issue 46)
    erase_files(store.forget_uploads(candidate_id, found.source if found else None))
    record(store, [AuditEvent(actor, action, candidate_id)])
    return counts


def cutoff(settings: Settings, days: int, now: datetime | None = None) -> tuple[str, str]:
    """The start of the day `days` days ago in DEBRIEF_TIMEZONE: as that local date
    (interview dates are compared with it) and as a UTC time (the store's own times)."""
    local = (now or datetime.now(UTC)).astimezone(settings.tz)
    day = local.date() - timedelta(days=days)
    midnight = datetime.combine(day, time(0), tzinfo=settings.tz)
    return day.isoformat(), midnight.astimezone(UTC).isoformat(timespec="microseconds")


def due(
    store: Backend, settings: Settings, days: int, now: datetime | None = None
) -> list[Expired]:
    """Who a policy of `days` days erases now."""
    before_day, before = cutoff(settings, days, now)
    return store.expired(before_day, before)


def apply(
    store: Backend,
    settings: Settings,
    days: int,
    actor: str,
    now: datetime | None = None,
    stopping: threading.Event | None = None,
    where: str = "",
) -> list[Expired]:
    """Erase everyone a policy of `days` days erases now (until `stopping` is set, when
    the rest wait for the next run); those it erased. `where` names the workspace in
    the log line."""
    gone: list[Expired] = []
    webhook = hands_decisions(settings, store)
    for expired in due(store, settings, days, now):
        if stopping is not None and stopping.is_set():
            break
        if erase(store, expired.id, actor, RETENTION_ACTION, webhook) is not None:
            gone.append(expired)
    if gone:
        logger.info("retention: forgot %d candidates older than %d days%s", len(gone), days, where)
    return gone


class SpaceErased(BaseModel):
    """What erasing a data space did: its candidates erased as `forget` erases them, its
    uploaded files deleted, its other rows deleted; `finished` once the space is marked
    erased (False: stopped half-way, or installed again meanwhile: `refused`)."""

    ws: int
    slack_key: str | None
    candidates: int = 0
    files: int = 0
    rows: int = 0
    finished: bool = False
    refused: SpaceRefusal | None = None


def spaces(store: Backend) -> SpaceStore:
    """The store as one that erases whole spaces (both backends' stores are)."""
    assert isinstance(store, SpaceStore)
    return store


def erase_space(
    store: Backend,
    space: Workspace,
    actor: str,
    stopping: threading.Event | None = None,
) -> SpaceErased:
    """Erase data space `space` now, whatever its date, in short transactions: each
    candidate as `forget` erases one, the transcripts saved from Slack, every other row
    it holds; its audit stays, pseudonymized, with a line saying it was erased. Run
    again, it goes on where it stopped (`stopping` set, a crash). Refused (nothing
    done) when the space may not be erased: installed, already erased, or space 0
    without a Slack key or never uninstalled."""
    held = spaces(store)
    done = SpaceErased(ws=space.ws, slack_key=space.slack_key)
    done.refused = held.begin_space_erasure(space.ws)
    if done.refused is not None:
        return done
    after = ""
    progressed = True  # since the last time the steps said nothing was left
    while True:
        if stopping is not None and stopping.is_set():
            held.wipe_erased()
            return done
        step = held.erase_space_step(space.ws, after)
        if step.stopped is not None:
            done.refused = step.stopped
            held.wipe_erased()
            return done
        after = step.after
        done.candidates += step.candidates
        done.rows += step.rows
        if step.files:
            done.files += erase_files(step.files)
            held.forget_space_files(space.ws, step.files)
        if not step.done:
            progressed = True
            continue
        if held.finish_space_erasure(space.ws):
            break
        refused = held.space_erasure_refusal(space.ws)
        if refused is not None:  # installed again just now
            done.refused = refused
            held.wipe_erased()
            return done
        if not progressed:  # a table no step empties: never loop on it
            raise RuntimeError(f"data space {space.ws} keeps rows that no erasure step deletes")
        progressed, after = False, ""  # written meanwhile: once more from the start
    record(store.in_workspace(space.ws), [AuditEvent(actor, SPACE_ACTION)])
    done.finished = True
    return done


def erase_due_spaces(
    store: Backend,
    actor: str,
    now: datetime | None = None,
    stopping: threading.Event | None = None,
) -> list[SpaceErased]:
    """Erase every space whose uninstall grace has passed by `now`, one log line each."""
    erased: list[SpaceErased] = []
    moment = (now or datetime.now(UTC)).astimezone(UTC).isoformat(timespec="microseconds")
    for space in spaces(store).spaces_to_erase(moment):
        if stopping is not None and stopping.is_set():
            break
        done = erase_space(store, space, actor, stopping)
        erased.append(done)
        if done.finished:
            logger.info(
                "uninstall grace: erased workspace %s (space %d, uninstalled %s): %d"
                " candidates, %d uploaded files, %d other rows",
                space.slack_key,
                space.ws,
                space.uninstalled_at,
                done.candidates,
                done.files,
                done.rows,
            )
        elif done.refused is not None:
            logger.info(
                "uninstall grace: workspace %s (space %d) not erased: %s",
                space.slack_key,
                space.ws,
                done.refused,
            )
        else:
            logger.info(
                "uninstall grace: erasing workspace %s (space %d) stopped half-way (%d"
                " candidates so far); the next run goes on",
                space.slack_key,
                space.ws,
                done.candidates,
            )
    return erased


class RetentionRun(BaseModel):
    """One day's run of the retention job: who the policy erased (in every space), and
    the spaces whose uninstall grace had passed."""

    forgot: list[Expired] = []
    spaces: list[SpaceErased] = []


class RetentionJob:
    """Once a day while `serve` runs, on one replica: DEBRIEF_RETENTION_DAYS applied in
    every data space (when set), and every space whose uninstall grace
    (DEBRIEF_UNINSTALL_GRACE) has passed erased. The first check of each day (in
    DEBRIEF_TIMEZONE) claims the day in the database and runs; a failed run gives the
    day back, so the next check tries again."""

    def __init__(self, settings: Settings, store: Backend) -> None:
        self.settings = settings
        self.store = store
        self.days = settings.retention_days
        self._scheduler: Any = None
        self._stopping = threading.Event()

    def run(self, now: datetime | None = None) -> RetentionRun | None:
        """Today's run, if nobody has done it; None when it was done already."""
        moment = (now or datetime.now(UTC)).astimezone(self.settings.tz)
        day = moment.date().isoformat()
        if not self.store.claim_retention(day):
            return None
        done = RetentionRun()
        try:
            if self.days is not None:
                for space in spaces(self.store).live_spaces():
                    if self._stopping.is_set():
                        break
                    where = f" in {space.slack_key}" if space.slack_key else ""
                    # "N days ago" counts in the workspace's own time zone (App Home)
                    own = self.store.workspace_settings(space.ws)
                    done.forgot += apply(
                        self.store.in_workspace(space.ws),
                        self.settings.for_workspace(own),
                        self.days,
                        "debrief",
                        moment,
                        self._stopping,
                        where,
                    )
            done.spaces = erase_due_spaces(self.store, "debrief", moment, self._stopping)
        except BaseException:
            self.store.release_retention(day)
            raise
        if self._stopping.is_set():  # cut short: the next start finishes the day
            self.store.release_retention(day)
        return done

    def run_safely(self) -> None:
        try:
            done = self.run()
            if done is None:
                logger.info("retention: today's run was done already (here or by a replica)")
            elif not done.forgot and self.days is not None:
                logger.info("retention: nobody is older than %d days", self.days)
        except Exception:
            logger.exception("retention: the daily run failed; the next check tries again")

    def start(self) -> RetentionJob:
        from .schedule import every

        self._scheduler = every(self.run_safely, self.settings.tz, CHECK_EVERY_S, "retention")
        return self

    def stop(self) -> None:
        """No new run; a run under way stops after the candidate it is erasing."""
        self._stopping.set()
        if self._scheduler is not None:
            self._scheduler.shutdown(wait=True)
