"""Zoom's cloud transcripts (issue 48): the ones waiting to be fetched, at least once
and once across replicas, and what each meeting says of the interview it became.

`queue_zoom_recording` is the once-only rule: in one transaction it claims the
transcript among the uploads (key `zoom:{meeting uuid}:{file id}`, which `forget` keeps
without the file or the candidate, so a forgotten interview is not fetched again) and
writes its row; the same meeting announced twice (`recording.completed` and
`recording.transcript_completed`, the webhook and the poll, two replicas) is queued
once. A fetcher claims due rows for a lease (a conditional UPDATE, as the ATS's events
are claimed: store/webhooks.py), so of two replicas one takes each, and a process that
dies mid-way leaves a lease that runs out. A row is finished `taken` (it became an
interview, or was already one), `refused` (the reader said it is not an interview) or
`failed` (it could not be fetched after the last try). Taken, it keeps the meeting's
facts the indexer gives the interview each time its file is read (`meeting_facts`);
`forget` deletes it with the interview (store/schema/tables.py). How to fetch it (the
URL and the event's download token) is dropped once it is finished, and so are the topic
and host of a recording that became no interview or could not be fetched.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from .base import Base
from .clock import utcnow
from .models import Origin, Transcript, ZoomRecording
from .transcripts.kinds import round_named

_COLUMNS = (
    "ws, meeting_uuid, file_id, meeting_id, account_id, topic, start_time, timezone,"
    " host_email, host_id, download_url, download_token, via, state, attempts, next_at,"
    " last_error, interviewed_at, interviewer, candidate_id, path, created_at, finished_at"
)
_ROW = "ws = ? AND meeting_uuid = ? AND file_id = ?"


def with_meeting(t: Transcript, meeting: ZoomRecording) -> Transcript:
    """The interview read from a meeting's transcript, with what the meeting says where
    the transcript says nothing: its start (`interviewed_at`, in the workspace's zone),
    its host (the interviewer), a round its topic names (`二面`, `Round 2`); and, always,
    its topic as the interview's title and the meeting as its origin. What the
    transcript itself says is never replaced."""
    update: dict[str, object] = {
        "title": meeting.topic or None,
        "origin": Origin(
            meeting_id=int(meeting.meeting_id)
            if meeting.meeting_id.isdigit()
            else meeting.meeting_id,
            meeting_uuid=meeting.meeting_uuid,
        ),
    }
    if t.interviewed_at is None and meeting.interviewed_at:
        update["interviewed_at"] = meeting.interviewed_at
    if not t.interviewers and meeting.interviewer:
        update["interviewers"] = [meeting.interviewer]
    if t.round is None and meeting.topic:
        update["round"] = round_named(meeting.topic)
    return t.model_copy(update=update)


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).isoformat(timespec="microseconds")


class ZoomStore(Base):
    def queue_zoom_recording(self, r: ZoomRecording) -> bool:
        """Queue a transcript to fetch in this data space; False when it was queued (or
        taken, or forgotten) before: nothing is written then."""
        now = utcnow()
        with self.tx() as tx:
            claimed = tx.execute(
                'INSERT INTO uploads (ws, key, file_id, channel, ts, "user", outcome, at)'
                " VALUES (?, ?, ?, '', '', 'zoom', 'queued', ?) ON CONFLICT (ws, key) DO NOTHING",
                [self.ws, r.key, r.file_id, now],
            ).rowcount
            if claimed != 1:
                return False
            values = r.model_dump()
            values.update(ws=self.ws, state="waiting", attempts=0, created_at=now)
            values["next_at"] = values["next_at"] or now
            names = _COLUMNS.split(", ")
            tx.execute(
                f"INSERT INTO zoom_recordings ({_COLUMNS}) VALUES"
                f" ({', '.join('?' for _ in names)})",
                [values[n.strip()] for n in names],
            )
        return True

    def requeue_zoom_recording(self, r: ZoomRecording) -> bool:
        """Try again a transcript that could not be fetched after the last try (`zoom
        sync` found it again): due now, its tries counted afresh, fetched from where Zoom
        lists it now, with the meeting's topic and host (the last try dropped them)."""
        with self.tx() as tx:
            return (
                tx.execute(
                    "UPDATE zoom_recordings SET state = 'waiting', attempts = 0, next_at = ?,"
                    " claimed_until = NULL, download_url = ?, download_token = ?, topic = ?,"
                    " host_email = ?, host_id = ?"
                    f" WHERE {_ROW} AND state = 'failed'",
                    [
                        utcnow(),
                        r.download_url,
                        r.download_token,
                        r.topic,
                        r.host_email,
                        r.host_id,
                        self.ws,
                        r.meeting_uuid,
                        r.file_id,
                    ],
                ).rowcount
                == 1
            )

    def claim_zoom_recordings(
        self, claimer: str, lease_s: float, limit: int = 1, now: datetime | None = None
    ) -> list[ZoomRecording]:
        """Take up to `limit` due transcripts of any data space, oldest first, for
        `lease_s` seconds: no other claimer gets them until finished, put off, or the
        lease ends."""
        at = now or datetime.now(UTC)
        now_iso, until = _iso(at), _iso(at + timedelta(seconds=lease_s))
        bytewise = self.engine.bytewise
        free = f"(claimed_until IS NULL OR claimed_until {bytewise} < ?)"
        due = self._rows(
            f"SELECT {_COLUMNS} FROM zoom_recordings WHERE state = 'waiting'"
            f" AND next_at {bytewise} <= ? AND {free}"
            f" ORDER BY next_at {bytewise}, created_at {bytewise} LIMIT ?",
            [now_iso, now_iso, limit],
        )
        taken: list[ZoomRecording] = []
        for r in due:
            with self.tx() as tx:
                claimed = tx.execute(
                    "UPDATE zoom_recordings SET claimed_by = ?, claimed_until = ?"
                    f" WHERE {_ROW} AND state = 'waiting' AND {free}",
                    [claimer, until, r["ws"], r["meeting_uuid"], r["file_id"], now_iso],
                ).rowcount
            if claimed == 1:
                taken.append(ZoomRecording(**r))
        return taken

    def zoom_renew(self, r: ZoomRecording, claimer: str, lease_s: float) -> bool:
        """Hold a claimed transcript `lease_s` seconds more (its taking goes on); False
        when it is not ours any more."""
        until = _iso(datetime.now(UTC) + timedelta(seconds=lease_s))
        with self.tx() as tx:
            return (
                tx.execute(
                    f"UPDATE zoom_recordings SET claimed_until = ? WHERE {_ROW}"
                    " AND claimed_by = ? AND state = 'waiting'",
                    [until, r.ws, r.meeting_uuid, r.file_id, claimer],
                ).rowcount
                == 1
            )

    def zoom_release(self, claimer: str) -> int:
        """Give back every transcript `claimer` holds and has not finished (a process
        that stops): another process, or the next start, takes them at once."""
        with self.tx() as tx:
            return int(
                tx.execute(
                    "UPDATE zoom_recordings SET claimed_until = NULL"
                    " WHERE claimed_by = ? AND state = 'waiting' AND claimed_until IS NOT NULL",
                    [claimer],
                ).rowcount
            )

    def zoom_put_off(
        self, r: ZoomRecording, claimer: str, error: str, next_at: datetime | None
    ) -> bool:
        """A try that failed: tried again at `next_at`, or (None: that was the last try)
        failed for good. False when the row was not ours any more."""
        state = "waiting" if next_at is not None else "failed"
        finished = None if next_at is not None else utcnow()
        # after the last try: nothing of the meeting but its start (no candidate to
        # forget it with; `zoom sync` lists the rest again)
        forget_how = (
            ""
            if next_at is not None
            else ", download_url = NULL, download_token = NULL, topic = NULL, host_email = NULL,"
            " host_id = NULL"
        )
        with self.tx() as tx:
            return (
                tx.execute(
                    "UPDATE zoom_recordings SET state = ?, attempts = attempts + 1,"
                    " next_at = ?, last_error = ?, claimed_until = NULL, finished_at = ?"
                    f"{forget_how} WHERE {_ROW} AND claimed_by = ? AND state = 'waiting'",
                    [
                        state,
                        _iso(next_at) if next_at is not None else utcnow(),
                        error[:500],
                        finished,
                        r.ws,
                        r.meeting_uuid,
                        r.file_id,
                        claimer,
                    ],
                ).rowcount
                == 1
            )

    def zoom_saving(
        self, r: ZoomRecording, path: str, interviewed_at: str | None, interviewer: str | None
    ) -> None:
        """The transcript is saved at `path` (as the index names its source): the facts
        the indexer gives the interview read from this row from now on."""
        with self.tx() as tx:
            tx.execute(
                "UPDATE zoom_recordings SET path = ?, interviewed_at = ?, interviewer = ?"
                f" WHERE {_ROW}",
                [path, interviewed_at, interviewer, r.ws, r.meeting_uuid, r.file_id],
            )

    def zoom_finished(
        self,
        r: ZoomRecording,
        claimer: str,
        outcome: str,
        candidate_id: str | None = None,
        path: str | None = None,
    ) -> bool:
        """What became of a fetched transcript: `taken` (an interview: `candidate_id`,
        or one already indexed from the same bytes) or `refused` (no interview: its topic
        and host go, only its start time stays for the admins' notice). The upload's
        claim says the same, and keeps the saved file's `path` for `forget`. False when the row was not ours any more."""
        state = "taken" if outcome in ("indexed", "duplicate", "forgotten") else "refused"
        keep = "" if state == "taken" else ", topic = NULL, host_email = NULL, host_id = NULL"
        now = utcnow()
        with self.tx() as tx:
            done = tx.execute(
                "UPDATE zoom_recordings SET state = ?, candidate_id = ?, finished_at = ?,"
                " attempts = attempts + 1, last_error = NULL, claimed_until = NULL,"
                f" download_url = NULL, download_token = NULL{keep}"
                f" WHERE {_ROW} AND claimed_by = ? AND state = 'waiting'",
                [state, candidate_id, now, r.ws, r.meeting_uuid, r.file_id, claimer],
            ).rowcount
            path = path if outcome == "indexed" else None
            tx.execute(
                "UPDATE uploads SET outcome = ?, candidate_id = ?, path = ?"
                " WHERE ws = ? AND key = ?",
                [outcome, candidate_id if outcome == "indexed" else None, path, r.ws, r.key],
            )
        return done == 1

    def zoom_recording(self, meeting_uuid: str, file_id: str) -> ZoomRecording | None:
        """One transcript of this data space, as recorded."""
        found = self._rows(
            f"SELECT {_COLUMNS} FROM zoom_recordings WHERE {_ROW}",
            [self.ws, meeting_uuid, file_id],
        )
        return ZoomRecording(**found[0]) if found else None

    def zoom_recordings(self) -> list[ZoomRecording]:
        """Every transcript of this data space, oldest first."""
        return [
            ZoomRecording(**r)
            for r in self._rows(
                f"SELECT {_COLUMNS} FROM zoom_recordings WHERE {self.space}"
                " ORDER BY created_at, meeting_uuid, file_id"
            )
        ]

    def zoom_seen(self, meeting_uuid: str, file_id: str) -> bool:
        """Whether this transcript was queued before (taken, forgotten, or still waiting)."""
        key = f"zoom:{meeting_uuid}:{file_id}"
        return self._one(f"SELECT 1 FROM uploads WHERE {self.space} AND key = ?", [key]) is not None

    def meeting_facts(self) -> dict[str, ZoomRecording]:
        """The saved transcripts of this data space that came from a meeting, by the
        path the index names them with: what the indexer gives their interviews."""
        return {
            str(r["path"]): ZoomRecording(**r)
            for r in self._rows(
                f"SELECT {_COLUMNS} FROM zoom_recordings WHERE {self.space}"
                " AND path IS NOT NULL AND state IN ('waiting', 'taken')"
            )
        }

    def zoom_last_taken(self) -> dict[str, str]:
        """When the webhook and the poll (`via`) last brought a transcript to this data
        space: via -> time (ISO 8601), only those that ever did."""
        return {
            str(r[0]): str(r[1])
            for r in self._all(
                f"SELECT via, max(finished_at) FROM zoom_recordings WHERE {self.space}"
                " AND state = 'taken' GROUP BY via"
            )
        }
