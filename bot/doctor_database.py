"""doctor's checks of the database and what it holds: its integrity and schema, the
workspace it has served, retention, the digest, the hiring decisions waiting for the ATS,
how mentions last arrived."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from store.errors import NoDatabaseError, StoreError
from store.factory import Backend, is_pg_url, open_store

from .cli_text import store_error
from .doctor_check import Check, Checks, Status
from .settings import Settings


class DatabaseChecks(Checks):
    """The database's part of doctor."""

    def database(self) -> Iterator[Check]:
        settings = self.settings
        try:
            store = open_store(settings.db_path, create=False)
        except NoDatabaseError as exc:
            said = store_error(exc, self.locale)
            if not _creatable(settings.db_path):
                yield Check(name="database", status="fail", detail=said)
                return
            # before the first start: what the rest would say of an empty database
            detail = said + self.say("doctor_database_new")
            yield Check(name="database", status="warn", detail=detail)
            yield self.retention(None)
            yield self.digest(None)
            yield self.webhook(None)
            yield self.mentions(None)
            return
        except StoreError as exc:
            yield Check(name="database", status="fail", detail=store_error(exc, self.locale))
            return
        try:
            health = store.health()
            stats = store.stats()
            last_digest = store.last_digest_sent_at()
            served = store.workspace()
            retention = self.retention(store)
            webhook = self.webhook(store)
            mentions = store.mentions_seen()
        finally:
            store.close()
        integrity: Status = "ok" if health.quick_check == "ok" else "fail"
        yield self.check(
            "database",
            integrity,
            "doctor_database",
            path=settings.db_path,
            n=stats.candidates,
            check=health.quick_check,
        )
        if health.writable:
            yield self.check("database writable", "ok")
        else:
            yield self.check(
                "database writable", "fail", "doctor_not_writable", path=settings.db_path
            )
        if health.schema_current:
            yield Check(name="schema", status="ok", detail=health.schema_version)
        else:
            yield self.check(
                "schema", "fail", "doctor_schema_behind", n=len(health.pending_migrations)
            )
        yield self.workspace(served)
        yield retention
        yield self.digest(last_digest)
        yield webhook
        yield self.mentions(mentions)

    def workspace(self, served: tuple[str, str] | None) -> Check:
        """The bot token's workspace against the one this database has served: one
        installation serves one workspace."""
        if served is None:
            return self.check("workspace", "skip", "doctor_workspace_new")
        served_id, served_name = served
        if self.auth is None:
            return self.check(
                "workspace", "skip", "doctor_workspace_unknown", team=served_name, team_id=served_id
            )
        team_id, team = str(self.auth.get("team_id") or ""), str(self.auth.get("team") or "")
        if team_id != served_id:
            return self.check(
                "workspace",
                "fail",
                "doctor_workspace_other",
                team=team,
                team_id=team_id,
                served=served_name,
                served_id=served_id,
            )
        return self.check("workspace", "ok", "doctor_workspace_ok", team=team, team_id=team_id)

    def retention(self, store: Backend | None) -> Check:
        from .erasure import due

        days = self.settings.retention_days
        if days is None:
            return self.check("retention", "warn", "doctor_retention_off")
        count = len(due(store, self.settings, days)) if store is not None else 0
        return self.check("retention", "ok", "doctor_retention_on", days=days, due=count)

    def digest(self, last_sent: str | None) -> Check:
        settings = self.settings
        if not settings.digest_channel:
            return self.check("digest", "skip", "doctor_digest_unset")
        return self.check(
            "digest",
            "ok",
            "doctor_digest",
            when=next_digest(settings).strftime("%Y-%m-%d %H:%M %Z"),
            zone=settings.timezone,
            channel=settings.digest_channel,
            last=last_sent or self.say("never"),
        )

    def mentions(self, seen: tuple[bool, str] | None) -> Check:
        """Whether a `@name` typed in `/candidate` reaches the bot as a user id (the
        manifest's `should_escape: true`, which `邀请` needs). A bot token cannot read the
        manifest: this says what the latest `邀请` with mentions showed (the bot keeps
        it), a warning when they came as plain text, nothing before one came."""
        if seen is None:
            return self.check("mentions", "skip", "doctor_mentions_unknown")
        escaped, at = seen
        when = at[:16].replace("T", " ") + " UTC"
        if escaped:
            return self.check("mentions", "ok", "doctor_mentions_ok", at=when)
        return self.check("mentions", "warn", "doctor_mentions_plain", at=when)

    def webhook(self, store: Backend | None) -> Check:
        """Hiring decisions handed to the ATS: how many wait for delivery, for how long,
        and what went wrong with the oldest (a warning while any waits)."""
        from .webhook import where

        url = self.settings.webhook_url
        if not url:
            return self.check("webhook", "skip", "doctor_webhook_unset")
        receiver = where(url)
        count, _oldest = store.undelivered_webhooks() if store is not None else (0, None)
        oldest = store.oldest_undelivered_webhook() if store is not None and count else None
        if oldest is None:
            return self.check("webhook", "ok", "doctor_webhook_ok", receiver=receiver)
        return self.check(
            "webhook",
            "warn",
            "doctor_webhook_waiting",
            n=count,
            receiver=receiver,
            age=self.age(oldest.created_at),
            attempts=oldest.attempts,
            error=oldest.last_error or self.say("doctor_webhook_not_tried"),
        )

    def age(self, since: str) -> str:
        """How long ago `since` (a UTC ISO time) was, in its largest whole unit."""
        try:
            seconds = (datetime.now(UTC) - datetime.fromisoformat(since)).total_seconds()
        except ValueError:
            return since
        minutes = max(0, int(seconds // 60))
        if minutes < 60:
            return self.say("doctor_age_minutes", n=minutes)
        if minutes < 48 * 60:
            return self.say("doctor_age_hours", n=minutes // 60)
        return self.say("doctor_age_days", n=minutes // (24 * 60))


def _creatable(db: str) -> bool:
    """Whether `serve` could create this SQLite database: its nearest existing folder is
    one this user may write in."""
    if is_pg_url(db):
        return False
    folder = Path(db).expanduser().resolve().parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


def next_digest(settings: Settings, now: datetime | None = None) -> datetime:
    """When the next daily digest is due, in the configured time zone."""
    now = (now or datetime.now(settings.tz)).astimezone(settings.tz)
    hour, minute = (int(part) for part in settings.digest_time.split(":"))
    due = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    return due if due > now else due + timedelta(days=1)
