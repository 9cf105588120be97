"""`debrief doctor`: check a deployment and say, line by line, what is wrong.

Each check is a small function returning `Check`s; `run_checks` puts them together.
Nothing here changes anything: the database is opened without being created, the
transcripts folder is parsed but not indexed, and Slack is only asked questions.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Literal

from pydantic import BaseModel
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from store.errors import StoreError
from store.factory import open_store
from store.transcripts.files import collect, prepare

from .settings import Settings

REQUIRED_SCOPES = (
    "commands",
    "chat:write",
    "reactions:write",
    "channels:history",
    "groups:history",
    "usergroups:read",
    "files:read",
    "im:history",
    "channels:read",
    "groups:read",
    "users:read",
)
"""The bot scopes manifest.yml asks for (a test keeps the two in step)."""

Status = Literal["ok", "fail", "warn", "skip"]


class Check(BaseModel):
    name: str
    status: Status
    detail: str = ""


def check_slack(settings: Settings, client: WebClient | None) -> Iterator[Check]:
    if not settings.bot_token or client is None:
        yield Check(name="slack token", status="fail", detail="SLACK_BOT_TOKEN is not set")
        return
    try:
        auth = client.auth_test()
    except SlackApiError as exc:
        yield Check(
            name="slack token",
            status="fail",
            detail=f"Slack refused the token: {exc.response.get('error')}",
        )
        return
    except (SlackClientError, OSError) as exc:
        yield Check(
            name="slack token",
            status="fail",
            detail=f"cannot reach Slack at {settings.api_url}: {exc}",
        )
        return
    yield Check(
        name="slack token",
        status="ok",
        detail=f"bot {auth.get('user_id')} in workspace {auth.get('team')} ({auth.get('team_id')})",
    )
    header = next(
        (v for k, v in (auth.headers or {}).items() if k.lower() == "x-oauth-scopes"), None
    )
    if header is None:
        yield Check(name="scopes", status="warn", detail="Slack did not report the token's scopes")
    else:
        granted = {s.strip() for s in str(header).split(",") if s.strip()}
        missing = [s for s in REQUIRED_SCOPES if s not in granted]
        yield Check(
            name="scopes",
            status="fail" if missing else "ok",
            detail=(
                f"missing {', '.join(missing)}: add them in the app's OAuth & Permissions"
                " (or reinstall from manifest.yml), then reinstall the app"
                if missing
                else f"{len(REQUIRED_SCOPES)} scopes the manifest asks for are granted"
            ),
        )
    channels = ([settings.digest_channel] if settings.digest_channel else []) + [
        c for c in settings.allowed_channels if c != settings.digest_channel
    ]
    for channel in channels:
        yield _membership(client, channel, channel == settings.digest_channel)


def _membership(client: WebClient, channel: str, is_digest: bool) -> Check:
    name = f"channel {channel}" + (" (digest)" if is_digest else "")
    try:
        info = client.conversations_info(channel=channel)
    except SlackApiError as exc:
        error = exc.response.get("error")
        hint = " (private channel: invite the bot first)" if error == "channel_not_found" else ""
        return Check(name=name, status="fail", detail=f"{error}{hint}")
    except (SlackClientError, OSError) as exc:
        return Check(name=name, status="fail", detail=f"cannot ask Slack: {exc}")
    data = info.get("channel") or {}
    label = f"#{data.get('name')}" if data.get("name") else channel
    if data.get("is_member"):
        return Check(name=name, status="ok", detail=f"the bot is in {label}")
    return Check(name=name, status="fail", detail=f"the bot is not in {label}: /invite @Debrief")


def check_database(settings: Settings) -> Iterator[Check]:
    try:
        store = open_store(settings.db_path, create=False)
    except StoreError as exc:
        yield Check(name="database", status="fail", detail=str(exc))
        return
    try:
        health = store.health()
        stats = store.stats()
        last_digest = store.last_digest_sent_at()
    finally:
        store.close()
    yield Check(
        name="database",
        status="ok" if health.quick_check == "ok" else "fail",
        detail=f"{settings.db_path}: {stats.candidates} candidates, integrity {health.quick_check}",
    )
    yield Check(
        name="database writable",
        status="ok" if health.writable else "fail",
        detail="" if health.writable else f"cannot write to {settings.db_path}",
    )
    yield Check(
        name="schema",
        status="ok" if health.schema_current else "fail",
        detail=health.schema_version
        if health.schema_current
        else f"{len(health.pending_migrations)} steps behind: run any debrief command to upgrade",
    )
    yield from check_digest(settings, last_digest)


def check_transcripts(settings: Settings) -> Iterator[Check]:
    if not settings.transcripts:
        yield Check(name="transcripts", status="skip", detail="DEBRIEF_TRANSCRIPTS is not set")
        return
    folder = Path(settings.transcripts).expanduser()
    if not folder.is_dir() or not os.access(folder, os.R_OK | os.X_OK):
        yield Check(name="transcripts", status="fail", detail=f"{folder} is not a readable folder")
        return
    counts = {"transcripts": 0, "skipped": 0, "failing": 0}
    first_failure = ""
    # the same walk and the same reading as an index run: .debriefignore honoured,
    # FIFOs and devices skipped from stat, nothing written
    found, _roots, missing = collect([folder])
    for failure in missing:
        counts["failing"] += 1
        first_failure = first_failure or f"{failure.path}: {failure.error}"
    for f in found:
        prepared = prepare(f.path)
        if prepared.skipped is not None:
            counts["skipped"] += 1
        elif prepared.failure is not None:
            counts["failing"] += 1
            where = prepared.failure.path + (
                f":{prepared.failure.line}" if prepared.failure.line else ""
            )
            first_failure = first_failure or f"{where}: {prepared.failure.error}"
        else:
            counts["transcripts"] += 1
    detail = (
        f"{folder}: {counts['transcripts']} transcripts, {counts['skipped']} skipped,"
        f" {counts['failing']} failing"
    )
    if first_failure:
        detail += f" (first: {first_failure})"
    yield Check(name="transcripts", status="warn" if counts["failing"] else "ok", detail=detail)


def next_digest(settings: Settings, now: datetime | None = None) -> datetime:
    """When the next daily digest is due, in the configured time zone."""
    now = (now or datetime.now(settings.tz)).astimezone(settings.tz)
    hour, minute = (int(part) for part in settings.digest_time.split(":"))
    due = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    return due if due > now else due + timedelta(days=1)


def check_digest(settings: Settings, last_sent: str | None) -> Iterator[Check]:
    if not settings.digest_channel:
        yield Check(name="digest", status="skip", detail="DEBRIEF_DIGEST_CHANNEL is not set")
        return
    when = next_digest(settings).strftime("%Y-%m-%d %H:%M %Z")
    last = last_sent or "never"
    yield Check(
        name="digest",
        status="ok",
        detail=f"next at {when} ({settings.timezone}) in {settings.digest_channel}; last sent {last}",
    )


def run_checks(settings: Settings, client: WebClient | None) -> list[Check]:
    return [
        *check_slack(settings, client),
        *check_database(settings),
        *check_transcripts(settings),
    ]
