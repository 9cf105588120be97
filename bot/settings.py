"""All configuration, read once from the environment. Nothing else reads os.environ."""

from __future__ import annotations

import re
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


class Settings(BaseSettings):
    model_config = SettingsConfigDict(extra="ignore", populate_by_name=True)

    db_path: str = Field("debrief.db", validation_alias="DEBRIEF_DB")
    transcripts: str | None = Field(None, validation_alias="DEBRIEF_TRANSCRIPTS")
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

    @field_validator("locale", mode="before")
    @classmethod
    def _locale(cls, value: object) -> object:
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

    @field_validator("bot_token", "app_token", "signing_secret", "transcripts", "digest_channel")
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
