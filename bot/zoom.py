"""Zoom's cloud transcripts, taken by themselves (issue 48): the accounts they come
from, the fetcher that downloads and reads what the webhook (bot/zoom_events.py) or
`zoom sync` queued, and `zoom sync`, which finds through Zoom's API what the webhook
missed.

**Accounts.** One workspace: the environment's Zoom account (DEBRIEF_ZOOM_ACCOUNT_ID,
…) is its. Installed in many, each workspace's admins set their own in App Home (its
client secret and secret token encrypted with DEBRIEF_TOKEN_KEY): an event's
`account_id` selects the workspace.

**The webhook** (bot/zoom_events.py) checks Zoom's signature before it reads anything,
and queues the transcripts of the meetings whose topic is an interview's
(DEBRIEF_ZOOM_TOPICS) in the store (store/zoom.py: once per meeting uuid and transcript
file) before it acknowledges them.

**The fetcher** (every `serve` replica; the store's leases give each transcript to one)
downloads each queued transcript with the event's download token (or, where there is
none or it no longer works, a Server-to-Server OAuth token), reads it as a shared file
is read (handlers/uploads.py `take_file`: the reader decides whether it is an
interview), and posts the new interview's card at the top of DEBRIEF_ZOOM_CHANNEL
(default: the digest channel). What the transcript does not say the meeting fills:
its start, its host, a round its topic names, the topic as the title
(store/zoom.py `with_meeting`). A 429, a 5xx, a download cut short or a link that
expired is tried again after a growing pause; after the last try the channel's admins
are told once which meeting (by its start time) could not be fetched. A process that
stops between the acknowledgement and the download leaves the transcript queued: the
next one (or another replica, once the lease ran out) fetches it.

**`zoom sync`** lists the account's recordings from a date (every user's, every page,
a month at a time: bot/zoom_api.py) and queues what the webhook missed, with the same
filter and the same once-only rule; `serve` runs it every DEBRIEF_ZOOM_POLL.
"""

from __future__ import annotations

import logging
import os
import re
import socket
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from store.errors import StoreError
from store.models import ZoomRecording
from store.transcripts.formats import MAX_BYTES

from .schedule import DueLoop
from .zoom_api import Credentials, Downloaded, ZoomApi, ZoomError, download

if TYPE_CHECKING:
    from slack_sdk import WebClient

    from handlers.deps import Deps
    from store.factory import Backend

    from .app import DebriefApp
    from .settings import Settings

logger = logging.getLogger("debrief.zoom")

SCHEDULE_S: tuple[float, ...] = (2.0, 10.0, 60.0, 300.0, 900.0, 1800.0, 3600.0)
"""The pause after the 1st, 2nd, … failed try of a transcript; one try more than pauses."""
POLL_S = 2.0  # how often the fetcher asks the store for due transcripts (a restart's, a replica's)
LEASE_S = 15.0
"""How long a claimed transcript is ours without a word: its taking renews it every third
of that (`_Holding`), so a process killed mid-way holds it at most this long."""
STOP_WAIT_S = 5.0  # how long `stop` lets a transcript being taken finish
SYNC_DAYS = 30  # `zoom sync` looks this many days back unless told a date


# -- accounts -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ZoomAccount:
    """A Zoom account and the data space it feeds."""

    ws: int
    account_id: str
    secret_token: str | None = field(default=None, repr=False)
    credentials: Credentials | None = None
    channel: str | None = None  # where its interviews' cards go; None: nowhere
    tz: ZoneInfo = field(default_factory=lambda: ZoneInfo("UTC"))


def zoom_accounts(
    settings: Settings,
    store: Backend | None,
    decrypt: Callable[[str], str] | None = None,
    ws: int | None = None,
) -> list[ZoomAccount]:
    """Every Zoom account Debrief takes transcripts from: the environment's (one
    workspace), or each installed workspace's own (App Home, secrets decrypted; none
    without a database to read them from); with `ws`, that data space's alone (the
    others' settings are not read, their secrets not decrypted)."""
    if not settings.many_workspaces:
        if not settings.zoom_account_id:
            return []
        creds = None
        if settings.zoom_client_id and settings.zoom_client_secret:
            creds = Credentials(
                settings.zoom_account_id, settings.zoom_client_id, settings.zoom_client_secret
            )
        return [
            ZoomAccount(
                0,
                settings.zoom_account_id,
                settings.zoom_secret_token,
                creds,
                settings.zoom_channel or settings.digest_channel,
                settings.tz,
            )
        ]
    found: list[ZoomAccount] = []
    for space in store.workspaces() if store is not None else []:
        if not space.slack_key or space.uninstalled_at or space.erased_at:
            continue
        if ws is not None and space.ws != ws:
            continue
        assert store is not None
        own = store.workspace_settings(space.ws)
        if not own.zoom_account_id:
            continue
        mine = settings.for_workspace(own)

        def opened(sealed: str | None) -> str | None:
            if not sealed or decrypt is None:
                return None
            try:
                return decrypt(sealed)
            except Exception:
                logger.warning("zoom: a workspace's Zoom secret cannot be decrypted")
                return None

        secret = opened(own.zoom_client_secret_enc)
        creds = None
        if own.zoom_client_id and secret:
            creds = Credentials(own.zoom_account_id, own.zoom_client_id, secret)
        found.append(
            ZoomAccount(
                space.ws,
                own.zoom_account_id,
                opened(own.zoom_secret_token_enc),
                creds,
                own.zoom_channel or mine.digest_channel,
                mine.tz,
            )
        )
    return found


def is_interview(topic: str, pattern: str) -> bool:
    """Whether a meeting's topic says it is an interview (DEBRIEF_ZOOM_TOPICS)."""
    return re.search(pattern, topic, re.IGNORECASE) is not None


def _transcript_files(obj: dict[str, Any]) -> list[dict[str, Any]]:
    files = obj.get("recording_files")
    return [
        f
        for f in (files if isinstance(files, list) else [])
        if isinstance(f, dict)
        and str(f.get("file_type") or "").upper() == "TRANSCRIPT"
        and f.get("id")
        and f.get("download_url")
        and str(f.get("status") or "completed").lower() == "completed"
    ]


def recordings_of(
    obj: dict[str, Any], account_id: str, via: str, download_token: str | None
) -> list[ZoomRecording]:
    """The transcripts a meeting (as Zoom's event or list describes it) holds, to queue."""
    uuid_ = str(obj.get("uuid") or "")
    if not uuid_:
        return []
    return [
        ZoomRecording(
            meeting_uuid=uuid_,
            file_id=str(f["id"]),
            meeting_id=str(obj.get("id") or f.get("meeting_id") or ""),
            account_id=account_id,
            topic=str(obj.get("topic") or ""),
            start_time=str(obj.get("start_time") or f.get("recording_start") or ""),
            timezone=str(obj.get("timezone") or "") or None,
            host_email=str(obj.get("host_email") or "") or None,
            host_id=str(obj.get("host_id") or "") or None,
            download_url=str(f["download_url"]),
            download_token=download_token,
            via="poll" if via == "poll" else "webhook",
        )
        for f in _transcript_files(obj)
    ]


# -- the fetcher -------------------------------------------------------------------------------


@dataclass
class ZoomSpace:
    """What taking one data space's transcripts needs: its Deps (store, language, zone,
    uploads folder, the Slack Connect rule), its Slack client (None: nothing is posted),
    and its account."""

    deps: Deps
    client: WebClient | None
    account: ZoomAccount | None


SpaceOf = Callable[[int], ZoomSpace | None]


def app_spaces(app: DebriefApp, settings: Settings, store: Backend) -> SpaceOf:
    """Each data space's ZoomSpace, as `serve`'s app has them."""
    decrypt = zoom_decrypt(settings)

    def space(ws: int) -> ZoomSpace | None:
        mine = zoom_accounts(settings, store, decrypt, ws)  # per transcript: its space's alone
        account = next((a for a in mine if a.ws == ws), None)
        if app.spaces is None:
            if ws != 0:
                return None
            client = app.client if settings.bot_token else None
            return ZoomSpace(app.deps, client, account)
        installation = store.installation_of(ws)
        if installation is None:
            return None
        deps = app.spaces.of(ws, installation.slack_key)
        return ZoomSpace(deps, app.client_of(ws), account)

    return space


def unposted(settings: Settings, store: Backend) -> SpaceOf:
    """One workspace without a Slack token (`zoom sync` run where only the database and
    Zoom are at hand): its transcripts taken, nothing posted."""
    from handlers.deps import Deps

    deps = Deps(store, settings.locale, str(settings.uploads_dir), tz=settings.tz)

    def space(ws: int) -> ZoomSpace | None:
        if ws != 0:
            return None
        account = next((a for a in zoom_accounts(settings, store) if a.ws == 0), None)
        return ZoomSpace(deps, None, account)

    return space


def zoom_decrypt(settings: Settings) -> Callable[[str], str] | None:
    """What opens a workspace's sealed Zoom secrets (installed in many workspaces)."""
    if settings.many_workspaces and settings.token_key:
        from .oauth_cipher import TokenCipher

        return TokenCipher(settings.token_key).decrypt
    return None


def _local(start_time: str, tz: ZoneInfo) -> datetime | None:
    try:
        at = datetime.fromisoformat(start_time.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(tz)


def interviewer_of(client: WebClient | None, email: str | None) -> str | None:
    """The host as the workspace names them (their e-mail matched to a Slack user),
    else their e-mail; None when Zoom gave none."""
    if not email:
        return None
    if client is not None:
        try:
            user = client.users_lookupByEmail(email=email).get("user") or {}
        except Exception as exc:
            logger.info("zoom: the host's e-mail matched no Slack user (%s)", type(exc).__name__)
        else:
            from handlers.people import display_name

            name = display_name(user) if isinstance(user, dict) else ""
            if name:
                return name
    return email


@dataclass
class Fetched:
    """One transcript tried: taken (an interview, or one already indexed), refused,
    put off until `next_at`, or failed for good."""

    recording: ZoomRecording
    outcome: str  # indexed, duplicate, forgotten, not_transcript, parse_error, later, failed
    candidate_id: str | None = None
    next_at: datetime | None = None
    error: str = ""


class ZoomFetcher:
    """Fetches and takes the due Zoom transcripts of every data space from a thread of
    its own, from `start()` to `stop()`; `wake()` makes it look at once."""

    def __init__(
        self,
        settings: Settings,
        store: Backend,
        spaces: SpaceOf,
        *,
        schedule: Sequence[float] = SCHEDULE_S,
        poll_s: float = POLL_S,
        lease_s: float = LEASE_S,
        claimer: str | None = None,
    ) -> None:
        if not schedule:
            raise ValueError("the retry schedule needs at least one pause")
        self.settings = settings
        self.store = store
        self.spaces = spaces
        self.schedule = tuple(schedule)
        self.poll_s = poll_s
        self.lease_s = lease_s
        self.claimer = claimer or f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._apis: dict[Credentials, ZoomApi] = {}
        self._loop = DueLoop(self.fetch_due, poll_s, "debrief-zoom", logger)

    def api(self, credentials: Credentials) -> ZoomApi:
        """One API client per account (its token kept between transcripts)."""
        found = self._apis.get(credentials)
        if found is None:
            found = self._apis[credentials] = ZoomApi(
                credentials, self.settings.zoom_api_url, self.settings.zoom_oauth_url
            )
        return found

    def zooms_own(self, url: str) -> bool:
        """Whether `url` is on Zoom's hosts (zoom.us and below, or the hosts of
        DEBRIEF_ZOOM_API_URL and DEBRIEF_ZOOM_OAUTH_URL): the only place the account's
        own token is sent. A download token is the event's, for its URL alone."""
        host = (urlsplit(url).hostname or "").lower()
        ours = {
            (urlsplit(self.settings.zoom_api_url).hostname or "").lower(),
            (urlsplit(self.settings.zoom_oauth_url).hostname or "").lower(),
        }
        return bool(host) and (host in ours or host == "zoom.us" or host.endswith(".zoom.us"))

    # -- one transcript ------------------------------------------------------------------

    def fetch_one(self) -> Fetched | None:
        """Take one due transcript and try it; None when none was due."""
        if self._loop.stopping:
            return None
        taken = self.store.claim_zoom_recordings(self.claimer, self.lease_s, limit=1)
        if not taken:
            return None
        r = taken[0]
        with _Holding(self.store, r, self.claimer, self.lease_s):
            try:
                space = self.spaces(r.ws)
                if space is None:
                    return self._later(r, None, "its workspace is not installed")
                return self._take(r, space, self._download(r, space))
            except ZoomError as exc:
                return self._later(r, self.spaces(r.ws), str(exc), exc.wait)
            except Exception as exc:  # a bug, a full disk, the database: tried again later
                logger.exception("zoom: could not take a transcript")
                return self._later(r, None, f"{type(exc).__name__} (see the log)")

    def _download(self, r: ZoomRecording, space: ZoomSpace) -> Downloaded:
        """The transcript's bytes: with the event's download token, else (none, or it
        no longer works) with the account's OAuth token."""
        if not r.download_url:
            raise ZoomError("no download URL", retry=False)
        creds = space.account.credentials if space.account is not None else None
        if r.download_token:
            try:
                return download(r.download_url, r.download_token, MAX_BYTES)
            except ZoomError as exc:
                if exc.status not in (401, 403) or creds is None:
                    raise
                logger.info("zoom: the download token no longer works: using the account's")
        if creds is None:
            raise ZoomError("no download token, and no Zoom app credentials to fetch it with")
        if not self.zooms_own(r.download_url):
            raise ZoomError("the download URL is not Zoom's: the app's token is not sent there")
        api = self.api(creds)
        try:
            return download(r.download_url, api.token(), MAX_BYTES)
        except ZoomError as exc:
            if exc.status == 401:
                api.forget_token()
            raise

    def _take(self, r: ZoomRecording, space: ZoomSpace, got: Downloaded) -> Fetched:
        from handlers.audit import AuditEvent, record
        from handlers.uploads import Outcome, take_file
        from handlers.zoom_arrivals import post_arrival, tell_admins

        deps = space.deps
        local = _local(r.start_time, deps.tz)
        interviewed_at = local.strftime("%Y-%m-%dT%H:%M") if local is not None else None
        interviewer = interviewer_of(space.client, r.host_email)
        day = local.strftime("%Y-%m-%d") if local is not None else "zoom"
        # its size: the whole file's, where more was declared than the limit let be read
        info = {"name": f"{r.topic or 'zoom'}-{day}.vtt", "id": r.file_id, "size": got.size}
        folder = Path(deps.uploads or "uploads") / "zoom"
        saved: list[str] = []

        def on_saved(path: str) -> None:
            saved.append(path)
            deps.store.zoom_saving(r, path, interviewed_at, interviewer)

        outcome = take_file(info, got.data, deps, on_saved=on_saved, folder=folder)
        if outcome.kind == "duplicate" and r.path and outcome.candidate_id:
            # indexed from this very meeting by a try that stopped before marking it
            # taken (a fault, a process killed): this meeting's, its card still owed
            known = deps.store.get_candidate(outcome.candidate_id)
            if known is not None and known.source == r.path:
                outcome = Outcome("indexed", outcome.candidate_id, path=r.path)
                saved.append(r.path)
        path = saved[0] if saved and outcome.kind == "indexed" else None
        if not deps.store.zoom_finished(r, self.claimer, outcome.kind, outcome.candidate_id, path):
            logger.info("zoom: a transcript was taken, but was no longer ours to mark")
        action = {"indexed": "zoom", "duplicate": "zoom:duplicate", "forgotten": "zoom:forgotten"}
        record(
            deps.store,
            [AuditEvent("zoom", action.get(outcome.kind, "zoom:rejected"), outcome.candidate_id)],
        )
        channel = space.account.channel if space.account is not None else None
        if outcome.kind in ("indexed", "not_transcript", "parse_error"):
            if space.client is None or not channel:
                logger.info(
                    "zoom: a transcript was %s; no channel to say it in (DEBRIEF_ZOOM_CHANNEL)",
                    "indexed" if outcome.kind == "indexed" else "not indexed",
                )
            elif outcome.kind == "indexed":
                post_arrival(r, outcome, deps, space.client, channel)
            else:
                said = outcome.reply.text if outcome.reply is not None else ""
                tell_admins(r, "refused", said, deps, space.client, channel)
        logger.info("zoom: a transcript was fetched: %s", outcome.kind)
        return Fetched(r, outcome.kind, outcome.candidate_id)

    def _later(
        self, r: ZoomRecording, space: ZoomSpace | None, error: str, wait: float | None = None
    ) -> Fetched:
        """A try that failed: tried again after the schedule's pause (Zoom's wait, when
        longer), or, after the last, failed for good and the admins told once."""
        attempt = r.attempts + 1
        if attempt <= len(self.schedule):
            pause = max(self.schedule[attempt - 1], min(wait or 0.0, 3600.0))
            next_at = datetime.now(UTC) + timedelta(seconds=pause)
            self.store.zoom_put_off(r, self.claimer, error, next_at)
            logger.warning(
                "zoom: a transcript could not be fetched (%s), try %d: trying again in %.0f s",
                error,
                attempt,
                pause,
            )
            return Fetched(r, "later", next_at=next_at, error=error)
        if self.store.zoom_put_off(r, self.claimer, error, None):
            logger.warning(
                "zoom: a transcript could not be fetched after %d tries (%s)", attempt, error
            )
            if space is not None and space.client is not None and space.account is not None:
                channel = space.account.channel
                if channel:
                    from handlers.blocks import escape
                    from handlers.zoom_arrivals import tell_admins

                    tell_admins(r, "failed", escape(error), space.deps, space.client, channel)
        return Fetched(r, "failed", error=error)

    def fetch_due(self) -> float:
        """Every transcript due now, one after the other; how long to wait before
        looking again (the poll, or less when one is due sooner)."""
        wait = self.poll_s
        while (tried := self.fetch_one()) is not None:
            if tried.next_at is not None:
                ahead = (tried.next_at - datetime.now(UTC)).total_seconds()
                wait = min(wait, max(0.0, ahead))
        return wait

    # -- the thread ----------------------------------------------------------------------

    def start(self) -> ZoomFetcher:
        self._loop.start()
        return self

    def wake(self) -> None:
        """Look for due transcripts now (one was just queued)."""
        self._loop.wake()

    def stop(self) -> None:
        """No new try; one under way has a few seconds to finish, then what this
        process still holds is given back: the next process takes it at once."""
        self._loop.stop(STOP_WAIT_S)
        try:
            self.store.zoom_release(self.claimer)
        except StoreError as exc:
            logger.warning("zoom: could not give back the transcripts being fetched (%s)", exc)


class _Holding:
    """While a claimed transcript is being taken, its lease renewed every third of it
    from a thread of its own."""

    def __init__(self, store: Backend, r: ZoomRecording, claimer: str, lease_s: float) -> None:
        self.args = (store, r, claimer, lease_s)
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._renew, name="debrief-zoom-lease", daemon=True)

    def _renew(self) -> None:
        store, r, claimer, lease_s = self.args
        while not self._done.wait(lease_s / 3):
            try:
                if not store.zoom_renew(r, claimer, lease_s):
                    return
            except StoreError as exc:
                logger.warning("zoom: could not renew a transcript's lease (%s)", exc)

    def __enter__(self) -> _Holding:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join(timeout=5)


# -- zoom sync ---------------------------------------------------------------------------------


@dataclass
class Synced:
    """What one `zoom sync` found: meetings with a transcript, those passed over by
    their topic, transcripts queued now, tried again, and seen before; the accounts
    it could not read, and why."""

    meetings: int = 0
    passed_over: int = 0
    queued: list[ZoomRecording] = field(default_factory=list)
    again: int = 0
    seen: int = 0
    failed: dict[str, str] = field(default_factory=dict)  # account id -> why
    skipped: list[str] = field(default_factory=list)  # accounts without API credentials


def sync_range(
    since: date | None, tz: ZoneInfo, today: date | None = None
) -> tuple[date, date, datetime]:
    """The UTC days to list for a sync from `since` (a date in `tz`; None: SYNC_DAYS
    ago), and the moment (aware) it starts."""
    now_local = datetime.now(tz)
    first_local = since or (today or now_local.date()) - timedelta(days=SYNC_DAYS)
    start = datetime(first_local.year, first_local.month, first_local.day, tzinfo=tz)
    first_utc = start.astimezone(UTC).date()
    last_utc = datetime.now(UTC).date() + timedelta(days=1)
    return first_utc, last_utc, start


def sync(
    settings: Settings,
    store: Backend,
    since: date | None = None,
    accounts: Sequence[ZoomAccount] | None = None,
    api_of: Callable[[Credentials], ZoomApi] | None = None,
    retry_failed: bool = True,
) -> Synced:
    """Queue the transcripts of every interview meeting since `since` that the webhook
    missed (the same filter, the same once-only rule); fetching is the fetcher's. One
    that could not be fetched after the last try is tried again with `retry_failed`
    (`zoom sync`, as its notice says), not by serve's poll (its notice would come back
    after each round of tries)."""
    found = Synced()
    if accounts is None:
        accounts = zoom_accounts(settings, store, zoom_decrypt(settings))
    for account in accounts:
        if account.credentials is None:
            found.skipped.append(account.account_id)
            continue
        api = (
            api_of(account.credentials)
            if api_of is not None
            else ZoomApi(account.credentials, settings.zoom_api_url, settings.zoom_oauth_url)
        )
        first, last, start = sync_range(since, account.tz)
        space = store.in_workspace(account.ws)
        try:
            for meeting in api.meetings(first, last):
                at = _local(str(meeting.get("start_time") or ""), account.tz)
                if at is None or at < start:
                    continue
                recordings = recordings_of(meeting, account.account_id, "poll", None)
                if not recordings:
                    continue
                found.meetings += 1
                if not is_interview(str(meeting.get("topic") or ""), settings.zoom_topics):
                    found.passed_over += 1
                    continue
                for r in recordings:
                    if space.queue_zoom_recording(r):
                        found.queued.append(r)
                    elif retry_failed and space.requeue_zoom_recording(r):
                        found.again += 1
                    else:
                        found.seen += 1
        except ZoomError as exc:
            found.failed[account.account_id] = str(exc)
            logger.warning("zoom: could not list the recordings of an account: %s", exc)
    if found.passed_over:
        logger.info(
            "zoom sync: %d meeting(s) not interviews by their topic passed over", found.passed_over
        )
    return found


class ZoomPoller:
    """`serve`'s `zoom sync` every DEBRIEF_ZOOM_POLL seconds (the first at start:
    apscheduler, as the daily jobs), the fetcher woken after each that queued any."""

    def __init__(
        self, settings: Settings, store: Backend, fetcher: ZoomFetcher, every_s: float
    ) -> None:
        self.settings = settings
        self.store = store
        self.fetcher = fetcher
        self.every_s = every_s
        self.last: Synced | None = None
        self._scheduler: Any = None

    def start(self) -> ZoomPoller:
        from .schedule import every

        if self._scheduler is None:
            self._scheduler = every(self.run, self.settings.tz, self.every_s, "zoom-poll")
        return self

    def run(self) -> None:
        try:
            self.last = sync(self.settings, self.store, retry_failed=False)
            if self.last.queued or self.last.again:
                self.fetcher.wake()
        except StoreError as exc:
            logger.warning("zoom: the poll cannot reach the database (%s)", exc)
        except Exception:
            logger.exception("zoom: the poll failed; trying again at the next")

    def stop(self) -> None:
        if self._scheduler is not None:
            self._scheduler.shutdown(wait=False)
