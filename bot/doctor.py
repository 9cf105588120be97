"""`debrief doctor`: check a deployment and say, line by line, what is wrong and which
setting to fix.

`Doctor.checks()` puts the checks together, each a small method yielding `Check`s, in
the words of the catalogue (bot/words/): the team's language for a terminal,
English for `--json`, whose output is the same whatever DEBRIEF_LOCALE says. Nothing
here changes anything: the database is opened without being created, the transcripts
folder is parsed but not indexed, and Slack is only asked questions.

A token of another workspace is told two ways: the workspace the bot token belongs to
(`auth.test`) is not the one this database has served (`serve` records it the first
time it starts); the app-level token belongs to another app than the bot token (the
`app_id` Slack puts in the Socket Mode URL, against `bots.info`), when Slack says.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qs, urlsplit

from pydantic import BaseModel
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from handlers.i18n import reason_text
from handlers.shared import sharing_of
from store.errors import NoDatabaseError, StoreError
from store.factory import Backend, is_pg_url, open_store
from store.models import Locale
from store.private import others_can_read
from store.transcripts.files import collect, prepare

from .cli_text import store_error
from .settings import Settings, SettingsError
from .words import t

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
    "im:write",
)
"""The bot scopes manifest.yml asks for (a test keeps the two in step)."""

# What Slack answers for a token that no longer works: revoked, the app uninstalled,
# the user who installed it deactivated, a typo.
REVOKED = frozenset(
    {"invalid_auth", "token_revoked", "token_expired", "account_inactive", "not_authed"}
)
SIGNING_SECRET_RE = re.compile(r"[0-9a-f]{32}")  # what Slack hands out: 32 hex digits

Status = Literal["ok", "fail", "warn", "skip"]


class Check(BaseModel):
    name: str
    status: Status
    detail: str = ""


def _api_error(exc: SlackApiError) -> str:
    return str(exc.response.get("error") or exc)


class Doctor:
    """The checks of one deployment, said in `locale`."""

    def __init__(self, settings: Settings, client: WebClient | None, locale: Locale) -> None:
        self.settings = settings
        self.client = client
        self.locale = locale
        self.auth: dict[str, Any] | None = None  # what auth.test said of the bot token

    def say(self, key: str, **values: object) -> str:
        return t(self.locale, key, **values)

    def check(self, name: str, status: Status, key: str = "", **values: object) -> Check:
        return Check(name=name, status=status, detail=self.say(key, **values) if key else "")

    def checks(self) -> list[Check]:
        slack = self.installs() if self.settings.many_workspaces else self.bot_token()
        return [
            *slack,
            self.deciders(),
            *self.app_token(),
            *self.signing_secret(),
            self.mode(),
            *self.database(),
            *self.permissions(),
            *self.transcripts(),
        ]

    # -- Slack -------------------------------------------------------------------------

    def bot_token(self) -> Iterator[Check]:
        token, name = self.settings.bot_token, "slack token"
        if not token or self.client is None:
            yield self.check(name, "fail", "doctor_bot_unset")
            return
        if token.startswith("xapp-"):
            yield self.check(name, "fail", "doctor_bot_is_app_token")
            return
        if not token.startswith("xoxb-"):
            yield self.check(name, "fail", "doctor_bot_not_bot")
            return
        try:
            auth = self.client.auth_test()
        except SlackApiError as exc:
            error = _api_error(exc)
            key = "doctor_bot_revoked" if error in REVOKED else "doctor_bot_refused"
            yield self.check(name, "fail", key, error=error)
            return
        except (SlackClientError, OSError) as exc:
            yield self.check(name, "fail", "doctor_unreachable", url=self.settings.api_url, exc=exc)
            return
        self.auth = dict(auth.data) if isinstance(auth.data, dict) else {}
        yield self.check(
            name,
            "ok",
            "doctor_bot_ok",
            user=auth.get("user_id"),
            team=auth.get("team"),
            team_id=auth.get("team_id"),
        )
        yield self.scopes(auth.headers or {})
        channels = ([self.settings.digest_channel] if self.settings.digest_channel else []) + [
            c for c in self.settings.allowed_channels if c != self.settings.digest_channel
        ]
        for channel in channels:
            yield self.membership(channel, channel == self.settings.digest_channel)

    def installs(self) -> Iterator[Check]:
        """Installed in many workspaces: the app's OAuth settings are all there, and
        DEBRIEF_TOKEN_KEY decrypts every stored token (a key changed without keeping the
        old one after it would leave each workspace to install Debrief again)."""
        try:
            self.settings.require_oauth()
        except SettingsError as exc:
            yield Check(name="install", status="fail", detail=exc.said(self.locale))
            return
        yield self.check("install", "ok", "doctor_install_ok")
        assert self.settings.token_key is not None
        try:
            store = open_store(self.settings.db_path, create=False)
        except StoreError:
            return  # the database check says why
        try:
            from .oauth import TokenCipher, TokenKeyError

            cipher = TokenCipher(self.settings.token_key)
            installed = [
                found
                for space in store.workspaces()
                if space.slack_key and (found := store.installation_of(space.ws)) is not None
            ]
            stale: list[str] = []
            for found in installed:
                try:
                    cipher.decrypt(found.bot_token_enc)
                    if found.bot_refresh_token_enc:
                        cipher.decrypt(found.bot_refresh_token_enc)
                except TokenKeyError:
                    stale.append(found.slack_key)
        finally:
            store.close()
        if stale:
            yield self.check(
                "token key", "fail", "doctor_token_key_stale", n=len(stale), keys=", ".join(stale)
            )
        else:
            yield self.check("token key", "ok", "doctor_token_key_ok", n=len(installed))

    def deciders(self) -> Check:
        """Who may record a hiring decision: unset is a warning (nobody may); each user
        group must be readable (`usergroups:read`, a group of this workspace)."""
        name, ids = "deciders", self.settings.deciders
        if not ids:
            return self.check(name, "warn", "doctor_deciders_unset")
        groups = [g for g in ids if g.startswith("S")]
        if groups and self.client is not None and self.auth is not None:
            for group in groups:
                try:
                    self.client.usergroups_users_list(usergroup=group)
                except SlackApiError as exc:
                    return self.check(
                        name, "fail", "doctor_deciders_group", group=group, error=_api_error(exc)
                    )
                except (SlackClientError, OSError) as exc:
                    return self.check(name, "warn", "doctor_channel_unreachable", exc=exc)
        return self.check(
            name, "ok", "doctor_deciders_ok", users=len(ids) - len(groups), groups=len(groups)
        )

    def scopes(self, headers: dict[str, Any]) -> Check:
        header = next((v for k, v in headers.items() if k.lower() == "x-oauth-scopes"), None)
        if header is None:
            return self.check("scopes", "warn", "doctor_scopes_unknown")
        granted = {s.strip() for s in str(header).split(",") if s.strip()}
        missing = [s for s in REQUIRED_SCOPES if s not in granted]
        if missing:
            return self.check("scopes", "fail", "doctor_scopes_missing", missing=", ".join(missing))
        return self.check("scopes", "ok", "doctor_scopes_ok", n=len(REQUIRED_SCOPES))

    def membership(self, channel: str, is_digest: bool) -> Check:
        name = f"channel {channel}" + (" (digest)" if is_digest else "")
        assert self.client is not None
        try:
            info = self.client.conversations_info(channel=channel)
        except SlackApiError as exc:
            error = _api_error(exc)
            if error == "channel_not_found":
                return self.check(name, "fail", "doctor_channel_not_found", error=error)
            return self.check(name, "fail", "doctor_channel_error", error=error)
        except (SlackClientError, OSError) as exc:
            return self.check(name, "fail", "doctor_channel_unreachable", exc=exc)
        data = info.get("channel") or {}
        label = f"#{data.get('name')}" if data.get("name") else channel
        if not data.get("is_member"):
            return self.check(name, "fail", "doctor_channel_not_member", channel=label)
        if is_digest and sharing_of(data) == "shared":  # Slack Connect: another company reads it
            allowed = self.settings.allow_shared_channels
            key = "doctor_channel_shared_allowed" if allowed else "doctor_channel_shared"
            return self.check(name, "warn", key, channel=label)
        return self.check(name, "ok", "doctor_channel_ok", channel=label)

    def app_token(self) -> Iterator[Check]:
        """Socket Mode's token: an app-level token that may open connections, of the
        same app as the bot token (when Slack says which app each belongs to)."""
        token, name = self.settings.app_token, "slack app token"
        if not token:
            yield self.check(name, "skip", "doctor_app_unset")
            return
        if token.startswith("xoxb-"):
            yield self.check(name, "fail", "doctor_app_is_bot_token")
            return
        if not token.startswith("xapp-"):
            yield self.check(name, "fail", "doctor_app_not_app")
            return
        client = WebClient(base_url=self.settings.api_url, timeout=15)
        try:
            opened = client.apps_connections_open(app_token=token)
        except SlackApiError as exc:
            error = _api_error(exc)
            key = {
                "missing_scope": "doctor_app_scope",
                **dict.fromkeys(REVOKED, "doctor_app_revoked"),
            }
            yield self.check(name, "fail", key.get(error, "doctor_app_refused"), error=error)
            return
        except (SlackClientError, OSError) as exc:
            yield self.check(name, "fail", "doctor_unreachable", url=self.settings.api_url, exc=exc)
            return
        app = parse_qs(urlsplit(str(opened.get("url") or "")).query).get("app_id", [""])[0]
        bot_app = self._bot_app()
        if app and bot_app and app != bot_app:
            yield self.check(name, "fail", "doctor_app_other_app", app=app, bot_app=bot_app)
            return
        yield self.check(name, "ok", "doctor_app_ok")

    def _bot_app(self) -> str | None:
        """The app the bot token belongs to (`bots.info`), None when it cannot be told."""
        bot_id = (self.auth or {}).get("bot_id")
        if self.client is None or not bot_id:
            return None
        try:
            info = self.client.bots_info(bot=str(bot_id))
        except (SlackClientError, OSError):
            return None
        app = (info.get("bot") or {}).get("app_id")
        return str(app) if app else None

    def signing_secret(self) -> Iterator[Check]:
        secret, name = self.settings.signing_secret, "signing secret"
        if not secret:
            yield self.check(name, "skip", "doctor_secret_unset")
        elif secret.startswith(("xox", "xapp-")):
            yield self.check(name, "fail", "doctor_secret_is_token")
        elif not SIGNING_SECRET_RE.fullmatch(secret):
            yield self.check(name, "fail", "doctor_secret_shape", length=len(secret))
        else:
            yield self.check(name, "ok", "doctor_secret_ok")

    def mode(self) -> Check:
        """Which mode `serve` would run in; both or neither set, it refuses to start."""
        app, secret = bool(self.settings.app_token), bool(self.settings.signing_secret)
        oauth = self.settings.oauth_variables
        if self.settings.bot_token and oauth:
            return self.check("mode", "fail", "setting_token_and_oauth", variables=", ".join(oauth))
        if app and secret:
            return self.check("mode", "fail", "doctor_mode_both")
        if not app and not secret:
            return self.check("mode", "fail", "doctor_mode_neither")
        return self.check("mode", "ok", "doctor_mode_socket" if app else "doctor_mode_http")

    # -- the database ------------------------------------------------------------------

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

    def permissions(self) -> Iterator[Check]:
        """Files of personal data that other users of this machine can read."""
        exposed: list[str] = []
        db = self.settings.db_path
        if not is_pg_url(db):
            exposed += [p for p in (db, db + "-wal", db + "-shm") if _readable_by_others(p)]
        uploads = str(self.settings.uploads_dir)
        if _readable_by_others(uploads):
            exposed.append(uploads)
        if exposed:
            fixes = "; ".join(f"chmod {'700' if os.path.isdir(p) else '600'} {p}" for p in exposed)
            yield self.check("permissions", "warn", "doctor_permissions_open", fixes=fixes)
        else:
            yield self.check("permissions", "ok", "doctor_permissions_ok")

    # -- the transcripts and the digest ------------------------------------------------

    def transcripts(self) -> Iterator[Check]:
        settings = self.settings
        if not settings.transcripts:
            yield self.check("transcripts", "skip", "doctor_transcripts_unset")
            return
        folder = Path(settings.transcripts).expanduser()
        if not folder.is_dir() or not os.access(folder, os.R_OK | os.X_OK):
            yield self.check("transcripts", "fail", "doctor_transcripts_unreadable", path=folder)
            return
        counts = {"transcripts": 0, "skipped": 0, "failing": 0}
        first_failure = ""
        # the same walk and the same reading as an index run: .debriefignore honoured,
        # FIFOs and devices skipped from stat, nothing written
        found, _roots, missing = collect([folder])
        for failure in missing:
            counts["failing"] += 1
            why = reason_text(self.locale, failure.error, failure.code, failure.params)
            first_failure = first_failure or self.say("labelled", label=failure.path, text=why)
        for f in found:
            prepared = prepare(f.path)
            if prepared.skipped is not None:
                counts["skipped"] += 1
            elif prepared.failure is not None:
                counts["failing"] += 1
                where = prepared.failure.path + (
                    f":{prepared.failure.line}" if prepared.failure.line else ""
                )
                failed = prepared.failure
                why = reason_text(self.locale, failed.error, failed.code, failed.params)
                first_failure = first_failure or self.say("labelled", label=where, text=why)
            else:
                counts["transcripts"] += 1
        detail = self.say("doctor_transcripts", path=folder, **counts)
        if first_failure:
            detail += self.say("doctor_transcripts_first", failure=first_failure)
        status: Status = "warn" if counts["failing"] else "ok"
        yield Check(name="transcripts", status=status, detail=detail)

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


def _readable_by_others(path: str) -> bool:
    try:
        return others_can_read(path)
    except OSError:
        return False  # not there (yet): nothing to read


def next_digest(settings: Settings, now: datetime | None = None) -> datetime:
    """When the next daily digest is due, in the configured time zone."""
    now = (now or datetime.now(settings.tz)).astimezone(settings.tz)
    hour, minute = (int(part) for part in settings.digest_time.split(":"))
    due = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    return due if due > now else due + timedelta(days=1)


def run_checks(settings: Settings, client: WebClient | None, locale: Locale = "en") -> list[Check]:
    return Doctor(settings, client, locale).checks()
