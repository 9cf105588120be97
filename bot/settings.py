"""All configuration, read once from the environment. Nothing else reads os.environ."""

from __future__ import annotations

import base64
import os
import re
from pathlib import Path
from typing import Literal, get_args
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from store.models import Locale, WorkspaceSettings

from .words import has, t


class SettingsError(Exception):
    """A missing or contradictory setting; the message names the variable.

    Made from a catalogue key (bot/words/) and its values, it is said in either
    language (`said`); its str() is the English. A plain message is said as it is."""

    def __init__(self, message: str, problem: Problem | None = None, **values: object) -> None:
        self.key = message if has(message) else None
        self.values = values
        self.problem = problem  # what is wrong with the variable `var` names
        super().__init__(self.said("en"))

    def said(self, locale: Locale) -> str:
        if self.key is None:
            return self.args[0] if self.args else ""
        values = dict(self.values)
        if self.problem is not None:
            values["problem"] = self.problem.said(locale)
        return t(locale, self.key, **values)


class Problem(ValueError):
    """What a validator finds wrong with one value: a catalogue key and its values
    (pydantic keeps the exception, so `load_settings` can say it in either language)."""

    def __init__(self, key: str, **values: object) -> None:
        self.key = key
        self.values = values
        super().__init__(self.said("en"))

    def said(self, locale: Locale) -> str:
        return t(locale, self.key, **self.values)


def environment_locale() -> Locale:
    """DEBRIEF_LOCALE as errors are said in, even when it is not valid (zh, the default,
    then): what the command line says before, or instead of, reading the settings."""
    value = os.environ.get("DEBRIEF_LOCALE", "").strip().lower()
    return "en" if value == "en" else "zh"


def _known_zone(name: str) -> bool:
    """Whether zoneinfo knows `name` here (a workspace's zone was checked when saved; a
    machine without it keeps DEBRIEF_TIMEZONE rather than fail every job)."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def _ids(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list | tuple):
        return [str(v).strip() for v in value if str(v).strip()]
    raise ValueError("expected a comma-separated list of IDs")


def _whole_number(value: object, unset: int, low: int, high: int, key: str) -> object:
    """A whole number from low to high (a blank variable: `unset`); Problem(key) if not."""
    if isinstance(value, str):
        value = value.strip()
        if not value:
            return unset
        if not value.isascii() or not value.isdigit():
            raise Problem(key)
        value = int(value)
    if isinstance(value, int) and not low <= value <= high:
        raise Problem(key)
    return value


def _is_fernet_key(key: str) -> bool:
    """A Fernet key: 32 bytes in URL-safe base64 (`Fernet.generate_key()`)."""
    try:
        return len(base64.urlsafe_b64decode(key.encode("ascii"))) == 32 and len(key) == 44
    except (ValueError, UnicodeEncodeError):
        return False


_USER_ID_RE = re.compile(r"[UWS][A-Z0-9]+")
_CHANNEL_ID_RE = re.compile(r"[CG][A-Z0-9]+")


def _check_ids(value: str, pattern: re.Pattern[str], key: str) -> str:
    for entry in _ids(value):
        if not pattern.fullmatch(entry):
            raise Problem(key, entry=entry)
    return value


class Settings(BaseSettings):
    model_config = SettingsConfigDict(extra="ignore", populate_by_name=True)

    db_path: str = Field("debrief.db", validation_alias="DEBRIEF_DB")
    transcripts: str | None = Field(None, validation_alias="DEBRIEF_TRANSCRIPTS")
    # transcripts shared in Slack are saved here; default: `uploads/` beside the database
    uploads: str | None = Field(None, validation_alias="DEBRIEF_UPLOADS")
    locale: Literal["zh", "en"] = Field("zh", validation_alias="DEBRIEF_LOCALE")

    bot_token: str | None = Field(None, validation_alias="SLACK_BOT_TOKEN")
    app_token: str | None = Field(None, validation_alias="SLACK_APP_TOKEN")
    signing_secret: str | None = Field(None, validation_alias="SLACK_SIGNING_SECRET")
    api_url: str = Field("https://slack.com/api/", validation_alias="SLACK_API_URL")

    digest_time: str = Field("09:30", validation_alias="DEBRIEF_DIGEST_TIME")
    timezone: str = Field("Asia/Shanghai", validation_alias="DEBRIEF_TIMEZONE")
    digest_channel: str | None = Field(None, validation_alias="DEBRIEF_DIGEST_CHANNEL")
    # Reviewers with overdue requests get one DM a working day at this time (HH:MM in
    # DEBRIEF_TIMEZONE); `off`: serve sends none (`debrief remind --post` still can).
    remind_time: str = Field("10:00", validation_alias="DEBRIEF_REMIND_TIME")
    # `/candidate 邀请`: at most this many reviewers DMed by one user an hour (reminders
    # are not asks); a reviewer asked about a candidate in the last day is not DMed again.
    ask_limit_per_hour: int = Field(20, validation_alias="DEBRIEF_ASK_LIMIT_PER_HOUR")

    # kept as strings so pydantic-settings does not try to parse them as JSON
    allowed_users_raw: str = Field("", validation_alias="DEBRIEF_ALLOWED_USERS")
    allowed_channels_raw: str = Field("", validation_alias="DEBRIEF_ALLOWED_CHANNELS")
    # Who may record a hiring decision (`/candidate 结论`): user ids and user groups (`S…`).
    # Empty: nobody may, and the refusal names this setting.
    deciders_raw: str = Field("", validation_alias="DEBRIEF_DECIDERS")
    # Candidate data (verdicts, decisions, the digest, an upload's summary) may be posted in
    # a channel shared with another organisation (Slack Connect). Off: refused there. One
    # workspace only: installed in many, each workspace's admins decide in App Home.
    allow_shared_channels: bool = Field(False, validation_alias="DEBRIEF_ALLOW_SHARED_CHANNELS")

    log_level: Literal["debug", "info", "warning", "error"] = Field(
        "info", validation_alias="DEBRIEF_LOG_LEVEL"
    )
    log_format: Literal["text", "json"] = Field("text", validation_alias="DEBRIEF_LOG_FORMAT")
    # How serve sees new transcripts: file-system events (falling back to polling when
    # they cannot be set up), or `poll` for network file systems that send no events.
    watch: Literal["auto", "poll"] = Field("auto", validation_alias="DEBRIEF_WATCH")
    # Candidates are forgotten this many days after their interview (or, without its
    # date, after their file was first indexed). Unset: kept until `debrief forget`.
    retention_days: int | None = Field(None, validation_alias="DEBRIEF_RETENTION_DAYS")
    # Searches are ranked in this many worker processes, so that ranking never holds the
    # interpreter that acknowledges Slack; 0 ranks in the serving process itself.
    search_workers: int = Field(2, validation_alias="DEBRIEF_SEARCH_WORKERS")
    # Each hiring decision is POSTed here for the ATS, signed with the secret (required
    # with the URL: the receiver checks it). Unset: decisions are not handed over.
    webhook_url: str | None = Field(None, validation_alias="DEBRIEF_WEBHOOK_URL")
    webhook_secret: str | None = Field(
        None, validation_alias="DEBRIEF_WEBHOOK_SECRET", validate_default=True
    )

    # Installing Debrief in many workspaces (Slack's OAuth flow) instead of serving one
    # with SLACK_BOT_TOKEN: the app's credentials, the secret that signs the install's
    # state, where Slack sends the installer back (https), and the Fernet key(s) that
    # encrypt the stored bot tokens (comma-separated: the first encrypts, any decrypts).
    client_id: str | None = Field(None, validation_alias="SLACK_CLIENT_ID")
    client_secret: str | None = Field(None, validation_alias="SLACK_CLIENT_SECRET", repr=False)
    state_secret: str | None = Field(None, validation_alias="SLACK_STATE_SECRET", repr=False)
    redirect_uri: str | None = Field(None, validation_alias="SLACK_REDIRECT_URI")
    token_key: str | None = Field(None, validation_alias="DEBRIEF_TOKEN_KEY", repr=False)
    # An uninstalled workspace's data is erased this many days later (0: at the next
    # daily run), so that a reinstall by mistake loses nothing.
    uninstall_grace_days: int = Field(30, validation_alias="DEBRIEF_UNINSTALL_GRACE")
    # A rotating bot token is refreshed this many minutes before it expires (12 hours).
    token_rotation_minutes: int = Field(120, validation_alias="DEBRIEF_TOKEN_ROTATION_MINUTES")

    @field_validator("allowed_users_raw", "deciders_raw")
    @classmethod
    def _allowed_users(cls, value: str) -> str:
        return _check_ids(value, _USER_ID_RE, "setting_not_user_id")

    @field_validator("allowed_channels_raw")
    @classmethod
    def _allowed_channels(cls, value: str) -> str:
        return _check_ids(value, _CHANNEL_ID_RE, "setting_not_channel_id")

    @field_validator("digest_channel")
    @classmethod
    def _digest_channel(cls, value: str | None) -> str | None:
        value = value.strip() or None if value is not None else None
        if value is not None and not _CHANNEL_ID_RE.fullmatch(value):
            raise Problem("setting_not_channel_id", entry=value)
        return value

    @field_validator("locale", "log_level", "log_format", "watch", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("search_workers", mode="before")
    @classmethod
    def _search_workers(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip() or "2"
            if not value.isascii() or not value.isdigit():
                raise Problem("setting_workers_range")
            value = int(value)
        if isinstance(value, int) and not 0 <= value <= 32:
            raise Problem("setting_workers_range")
        return value

    @field_validator("retention_days", mode="before")
    @classmethod
    def _retention_days(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip()
            if not value:
                return None
            if not value.isascii() or not value.isdigit():
                raise Problem("setting_not_days")
            value = int(value)
        if isinstance(value, int) and not 1 <= value <= 36500:
            raise Problem("setting_days_range")
        return value

    @field_validator("api_url")
    @classmethod
    def _api_url(cls, value: str) -> str:
        value = value.strip()
        if not re.match(r"^https?://", value):
            raise Problem("setting_not_url")
        return value if value.endswith("/") else value + "/"

    @field_validator("digest_time")
    @classmethod
    def _digest_time(cls, value: str) -> str:
        m = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*", value)
        if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
            raise Problem("setting_not_time")
        return f"{int(m.group(1)):02d}:{m.group(2)}"

    @field_validator("remind_time")
    @classmethod
    def _remind_time(cls, value: str) -> str:
        if value.strip().lower() == "off":
            return "off"
        m = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*", value)
        if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
            raise Problem("setting_not_time_or_off")
        return f"{int(m.group(1)):02d}:{m.group(2)}"

    @field_validator("timezone")
    @classmethod
    def _timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value.strip())
        except (ZoneInfoNotFoundError, ValueError):
            raise Problem("setting_not_timezone") from None
        return value.strip()

    @field_validator("webhook_url")
    @classmethod
    def _webhook_url(cls, value: str | None) -> str | None:
        value = value.strip() or None if value is not None else None
        if value is not None:
            parts = urlsplit(value)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise Problem("setting_not_webhook_url")
        return value

    @field_validator("webhook_secret")
    @classmethod
    def _webhook_secret(cls, value: str | None, info: ValidationInfo) -> str | None:
        value = value.strip() or None if value is not None else None
        if value is None and info.data.get("webhook_url"):
            raise Problem("setting_webhook_no_secret")
        return value

    @field_validator(
        "bot_token",
        "app_token",
        "signing_secret",
        "transcripts",
        "client_id",
        "client_secret",
        "state_secret",
    )
    @classmethod
    def _blank_is_none(cls, value: str | None) -> str | None:
        return value.strip() or None if value is not None else None

    @field_validator("redirect_uri")
    @classmethod
    def _redirect_uri(cls, value: str | None) -> str | None:
        value = value.strip() or None if value is not None else None
        if value is not None:
            parts = urlsplit(value)
            if parts.scheme != "https" or not parts.hostname:
                raise Problem("setting_not_redirect_uri")
        return value

    @field_validator("token_key")
    @classmethod
    def _token_key(cls, value: str | None) -> str | None:
        value = value.strip() or None if value is not None else None
        if value is not None:
            for key in (part.strip() for part in value.split(",")):
                if not _is_fernet_key(key):
                    raise Problem("setting_not_token_key")
        return value

    @field_validator("uninstall_grace_days", mode="before")
    @classmethod
    def _uninstall_grace(cls, value: object) -> object:
        return _whole_number(value, 30, 0, 36500, "setting_grace_range")

    @field_validator("ask_limit_per_hour", mode="before")
    @classmethod
    def _ask_limit(cls, value: object) -> object:
        return _whole_number(value, 20, 1, 1000, "setting_ask_limit_range")

    @field_validator("token_rotation_minutes", mode="before")
    @classmethod
    def _rotation_minutes(cls, value: object) -> object:
        return _whole_number(value, 120, 1, 719, "setting_rotation_range")

    @property
    def allowed_users(self) -> list[str]:
        return _ids(self.allowed_users_raw)

    @property
    def deciders(self) -> list[str]:
        return _ids(self.deciders_raw)

    @property
    def allowed_channels(self) -> list[str]:
        return _ids(self.allowed_channels_raw)

    @property
    def uploads_dir(self) -> Path:
        """Where transcripts shared in Slack are saved (created when the first one comes)."""
        if self.uploads and self.uploads.strip():
            return Path(self.uploads.strip()).expanduser()
        if "://" in self.db_path:  # a database server: nothing "beside" it on this disk
            return Path("uploads").resolve()
        return Path(self.db_path).expanduser().resolve().parent / "uploads"

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @property
    def oauth_variables(self) -> list[str]:
        """The OAuth install's variables that are set (SLACK_CLIENT_ID, …)."""
        values = {
            "SLACK_CLIENT_ID": self.client_id,
            "SLACK_CLIENT_SECRET": self.client_secret,
            "SLACK_STATE_SECRET": self.state_secret,
        }
        return [name for name, value in values.items() if value]

    @property
    def many_workspaces(self) -> bool:
        """Installed in many workspaces through Slack's OAuth flow (SLACK_CLIENT_ID, …)
        rather than serving one with SLACK_BOT_TOKEN."""
        return bool(self.oauth_variables)

    def require_slack(self) -> Literal["socket", "http"]:
        """Which mode `serve` runs in; SettingsError when the tokens do not add up."""
        if self.bot_token and self.oauth_variables:
            # one workspace's token, or the install for many, never both: Bolt itself
            # reads SLACK_CLIENT_ID/SECRET and would keep installs in plain files
            raise SettingsError(
                "setting_token_and_oauth", variables=", ".join(self.oauth_variables)
            )
        if self.many_workspaces:
            self.require_oauth()
        elif not self.bot_token:
            raise SettingsError("setting_no_bot_token")
        elif not self.bot_token.startswith("xoxb-"):
            raise SettingsError("setting_not_bot_token")
        if self.app_token and self.signing_secret:
            raise SettingsError("setting_both_modes")
        self._check_serving()
        if self.app_token:
            if not self.app_token.startswith("xapp-"):
                raise SettingsError("setting_not_app_token")
            return "socket"
        if self.signing_secret:
            return "http"
        raise SettingsError("setting_no_mode")

    def as_workspace(self) -> WorkspaceSettings:
        """The settings a workspace's admins may replace in App Home, as the environment
        sets them (their defaults)."""
        return WorkspaceSettings(
            allowed_users=self.allowed_users,
            allowed_channels=self.allowed_channels,
            deciders=self.deciders,
            digest_channel=self.digest_channel or "",
            digest_time=self.digest_time,
            remind_time=self.remind_time,
            timezone=self.timezone,
        )

    def for_workspace(self, own: WorkspaceSettings) -> Settings:
        """These settings with a workspace's own (App Home) in place of the environment's."""
        update: dict[str, object] = {}
        if own.allowed_users is not None:
            update["allowed_users_raw"] = ",".join(own.allowed_users)
        if own.allowed_channels is not None:
            update["allowed_channels_raw"] = ",".join(own.allowed_channels)
        if own.deciders is not None:
            update["deciders_raw"] = ",".join(own.deciders)
        if own.digest_channel is not None:
            update["digest_channel"] = own.digest_channel or None
        if own.digest_time is not None:
            update["digest_time"] = own.digest_time
        if own.remind_time is not None:
            update["remind_time"] = own.remind_time
        if own.timezone is not None and _known_zone(own.timezone):
            update["timezone"] = own.timezone  # its digest, reminders, retention day
        # a workspace's admins alone allow shared channels, never the environment (issue 34)
        update["allow_shared_channels"] = bool(own.allow_shared_channels)
        return self.model_copy(update=update)

    def require_oauth(self) -> None:
        """What installing in many workspaces needs: the app's three OAuth settings and
        the key the stored tokens are encrypted with."""
        missing = [
            name
            for name in ("SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET", "SLACK_STATE_SECRET")
            if name not in self.oauth_variables
        ]
        if missing:
            raise SettingsError("setting_oauth_incomplete", variables=", ".join(missing))
        if not self.token_key:
            raise SettingsError("setting_no_token_key")

    def _check_serving(self) -> None:
        """What only `serve` needs: a readable transcripts folder, a digest it may post."""
        if self.transcripts:
            folder = Path(self.transcripts).expanduser()
            if not folder.is_dir():
                raise SettingsError("setting_no_folder", folder=self.transcripts)
            if not os.access(folder, os.R_OK | os.X_OK):
                raise SettingsError("setting_unreadable_folder", folder=self.transcripts)
        allowed = self.allowed_channels
        if self.digest_channel and allowed and self.digest_channel not in allowed:
            raise SettingsError("setting_digest_not_allowed", channel=self.digest_channel)


_ALIASES = {name: f.validation_alias for name, f in Settings.model_fields.items()}


def _choices(variable: str) -> tuple[str, ...]:
    """The values a variable with a fixed set of them takes (DEBRIEF_LOCALE: zh, en)."""
    for f in Settings.model_fields.values():
        if f.validation_alias == variable:
            return tuple(str(c) for c in get_args(f.annotation))
    return ()


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment; SettingsError naming the variable when one is bad."""
    try:
        return Settings(**{_ALIASES[k]: v for k, v in overrides.items() if v is not None})  # type: ignore[arg-type]
    except ValidationError as exc:
        first = exc.errors()[0]
        var = str(first["loc"][0]) if first["loc"] else "settings"
        var = str(_ALIASES.get(var) or var)  # a default checked is named by its field
        found = (first.get("ctx") or {}).get("error")
        if isinstance(found, Problem):
            problem = found
        elif first["type"] == "literal_error":  # DEBRIEF_LOCALE=fr: say which values it takes
            problem = Problem("setting_one_of", choices=" / ".join(_choices(var)))
        else:
            problem = Problem("setting_other", detail=first["msg"].removeprefix("Value error, "))
        raise SettingsError("setting_bad", problem, var=var) from None
