"""All configuration, read once from the environment. Nothing else reads os.environ."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class SettingsError(Exception):
    """A missing or contradictory setting; the message names the variable."""


def _ids(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list | tuple):
        return [str(v).strip() for v in value if str(v).strip()]
    raise ValueError("expected a comma-separated list of IDs")


_USER_ID_RE = re.compile(r"[UWS][A-Z0-9]+")
_CHANNEL_ID_RE = re.compile(r"[CG][A-Z0-9]+")
_USER_HINT = (
    "use Slack IDs such as U012AB3CD (a person) or S012AB3CD (a user group):"
    " in Slack, open the person's profile, ⋮ More → Copy member ID"
)
_CHANNEL_HINT = (
    "use channel IDs such as C012AB3CD: in Slack, open the channel's name at the top,"
    " the ID is at the bottom of the About tab"
)


def _check_ids(value: str, pattern: re.Pattern[str], hint: str) -> str:
    for entry in _ids(value):
        if not pattern.fullmatch(entry):
            raise ValueError(f"{entry!r} is not an ID; {hint}")
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

    # kept as strings so pydantic-settings does not try to parse them as JSON
    allowed_users_raw: str = Field("", validation_alias="DEBRIEF_ALLOWED_USERS")
    allowed_channels_raw: str = Field("", validation_alias="DEBRIEF_ALLOWED_CHANNELS")

    log_level: Literal["debug", "info", "warning", "error"] = Field(
        "info", validation_alias="DEBRIEF_LOG_LEVEL"
    )
    log_format: Literal["text", "json"] = Field("text", validation_alias="DEBRIEF_LOG_FORMAT")
    # How serve sees new transcripts: file-system events (falling back to polling when
    # they cannot be set up), or `poll` for network file systems that send no events.
    watch: Literal["auto", "poll"] = Field("auto", validation_alias="DEBRIEF_WATCH")

    @field_validator("allowed_users_raw")
    @classmethod
    def _allowed_users(cls, value: str) -> str:
        return _check_ids(value, _USER_ID_RE, _USER_HINT)

    @field_validator("allowed_channels_raw")
    @classmethod
    def _allowed_channels(cls, value: str) -> str:
        return _check_ids(value, _CHANNEL_ID_RE, _CHANNEL_HINT)

    @field_validator("digest_channel")
    @classmethod
    def _digest_channel(cls, value: str | None) -> str | None:
        value = value.strip() or None if value is not None else None
        if value is not None and not _CHANNEL_ID_RE.fullmatch(value):
            raise ValueError(f"{value!r} is not a channel ID; {_CHANNEL_HINT}")
        return value

    @field_validator("locale", "log_level", "log_format", "watch", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("api_url")
    @classmethod
    def _api_url(cls, value: str) -> str:
        value = value.strip()
        if not re.match(r"^https?://", value):
            raise ValueError("must be an http(s) URL such as https://slack.com/api/")
        return value if value.endswith("/") else value + "/"

    @field_validator("digest_time")
    @classmethod
    def _digest_time(cls, value: str) -> str:
        m = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*", value)
        if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
            raise ValueError("must be HH:MM, for example 09:30")
        return f"{int(m.group(1)):02d}:{m.group(2)}"

    @field_validator("timezone")
    @classmethod
    def _timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value.strip())
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError("must be an IANA time zone such as Asia/Shanghai") from None
        return value.strip()

    @field_validator("bot_token", "app_token", "signing_secret", "transcripts")
    @classmethod
    def _blank_is_none(cls, value: str | None) -> str | None:
        return value.strip() or None if value is not None else None

    @property
    def allowed_users(self) -> list[str]:
        return _ids(self.allowed_users_raw)

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

    def require_slack(self) -> Literal["socket", "http"]:
        """Which mode `serve` runs in; SettingsError when the tokens do not add up."""
        if not self.bot_token:
            raise SettingsError("SLACK_BOT_TOKEN is not set: the bot token (xoxb-…) is required")
        if not self.bot_token.startswith("xoxb-"):
            raise SettingsError("SLACK_BOT_TOKEN must be a bot token starting with xoxb-")
        if self.app_token and self.signing_secret:
            raise SettingsError(
                "both SLACK_APP_TOKEN and SLACK_SIGNING_SECRET are set: set SLACK_APP_TOKEN for"
                " Socket Mode or SLACK_SIGNING_SECRET for HTTP mode, not both"
            )
        self._check_serving()
        if self.app_token:
            if not self.app_token.startswith("xapp-"):
                raise SettingsError(
                    "SLACK_APP_TOKEN must be an app-level token starting with xapp-"
                )
            return "socket"
        if self.signing_secret:
            return "http"
        raise SettingsError(
            "neither SLACK_APP_TOKEN (Socket Mode) nor SLACK_SIGNING_SECRET (HTTP mode) is set"
        )

    def _check_serving(self) -> None:
        """What only `serve` needs: a readable transcripts folder, a digest it may post."""
        if self.transcripts:
            folder = Path(self.transcripts).expanduser()
            if not folder.is_dir():
                raise SettingsError(
                    f"DEBRIEF_TRANSCRIPTS: {self.transcripts} does not exist or is not a folder"
                )
            if not os.access(folder, os.R_OK | os.X_OK):
                raise SettingsError(f"DEBRIEF_TRANSCRIPTS: {self.transcripts} is not readable")
        allowed = self.allowed_channels
        if self.digest_channel and allowed and self.digest_channel not in allowed:
            raise SettingsError(
                f"DEBRIEF_DIGEST_CHANNEL {self.digest_channel} is not in DEBRIEF_ALLOWED_CHANNELS:"
                " add it there, or pick an allowed channel for the digest"
            )


_ALIASES = {name: f.validation_alias for name, f in Settings.model_fields.items()}


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment; SettingsError naming the variable when one is bad."""
    try:
        return Settings(**{_ALIASES[k]: v for k, v in overrides.items() if v is not None})  # type: ignore[arg-type]
    except ValidationError as exc:
        first = exc.errors()[0]
        var = str(first["loc"][0]) if first["loc"] else "settings"
        msg = first["msg"].removeprefix("Value error, ")
        raise SettingsError(f"{var}: {msg}") from None
