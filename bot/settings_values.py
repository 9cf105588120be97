"""The values a setting takes: each type below reads one variable's text and checks it,
raising `Problem` (a catalogue key, bot/words/) when it is wrong. `Settings`
(bot/settings.py) declares its fields with them; nothing here reads the environment."""

from __future__ import annotations

import base64
import re
from typing import Annotated, Literal
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AfterValidator, BeforeValidator, ValidationInfo

from store.models import Locale

from .words import t


class Problem(ValueError):
    """What a validator finds wrong with one value: a catalogue key and its values
    (pydantic keeps the exception, so `load_settings` can say it in either language)."""

    def __init__(self, key: str, **values: object) -> None:
        self.key = key
        self.values = values
        super().__init__(self.said("en"))

    def said(self, locale: Locale) -> str:
        return t(locale, self.key, **self.values)


def known_zone(name: str) -> bool:
    """Whether zoneinfo knows `name` here (a workspace's zone was checked when saved; a
    machine without it keeps DEBRIEF_TIMEZONE rather than fail every job)."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def ids(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list | tuple):
        return [str(v).strip() for v in value if str(v).strip()]
    raise ValueError("expected a comma-separated list of IDs")


def _whole_number(unset: int | None, low: int, high: int, key: str) -> BeforeValidator:
    """A whole number from low to high (a blank variable: `unset`); Problem(key) if not."""

    def check(value: object) -> object:
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

    return BeforeValidator(check)


def _retention_days(value: object) -> object:
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


def _is_fernet_key(key: str) -> bool:
    """A Fernet key: 32 bytes in URL-safe base64 (`Fernet.generate_key()`)."""
    try:
        return len(base64.urlsafe_b64decode(key.encode("ascii"))) == 32 and len(key) == 44
    except (ValueError, UnicodeEncodeError):
        return False


USER_ID_RE = re.compile(r"[UWS][A-Z0-9]+")
CHANNEL_ID_RE = re.compile(r"[CG][A-Z0-9]+")


def _ids_like(pattern: re.Pattern[str], key: str) -> AfterValidator:
    def check(value: str) -> str:
        for entry in ids(value):
            if not pattern.fullmatch(entry):
                raise Problem(key, entry=entry)
        return value

    return AfterValidator(check)


def _blank_is_none(value: str | None) -> str | None:
    return value.strip() or None if value is not None else None


def _lower(value: object) -> object:
    return value.strip().lower() if isinstance(value, str) else value


def _digest_channel(value: str | None) -> str | None:
    value = _blank_is_none(value)
    if value is not None and not CHANNEL_ID_RE.fullmatch(value):
        raise Problem("setting_not_channel_id", entry=value)
    return value


def _api_url(value: str) -> str:
    value = value.strip()
    if not re.match(r"^https?://", value):
        raise Problem("setting_not_url")
    return value if value.endswith("/") else value + "/"


def _clock(value: str, key: str) -> str:
    m = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*", value)
    if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        raise Problem(key)
    return f"{int(m.group(1)):02d}:{m.group(2)}"


def _remind_time(value: str) -> str:
    if value.strip().lower() == "off":
        return "off"
    return _clock(value, "setting_not_time_or_off")


def _timezone(value: str) -> str:
    try:
        ZoneInfo(value.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise Problem("setting_not_timezone") from None
    return value.strip()


def _webhook_url(value: str | None) -> str | None:
    value = _blank_is_none(value)
    if value is not None:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise Problem("setting_not_webhook_url")
    return value


def _webhook_secret(value: str | None, info: ValidationInfo) -> str | None:
    value = _blank_is_none(value)
    if value is None and info.data.get("webhook_url"):
        raise Problem("setting_webhook_no_secret")
    return value


def _redirect_uri(value: str | None) -> str | None:
    value = _blank_is_none(value)
    if value is not None:
        parts = urlsplit(value)
        if parts.scheme != "https" or not parts.hostname:
            raise Problem("setting_not_redirect_uri")
    return value


def _token_key(value: str | None) -> str | None:
    value = _blank_is_none(value)
    if value is not None:
        for key in (part.strip() for part in value.split(",")):
            if not _is_fernet_key(key):
                raise Problem("setting_not_token_key")
    return value


ZOOM_TOPICS_DEFAULT = "面试|面試|面談|interview|[一二三四终終]面|HR面"


def _zoom_topics(value: str) -> str:
    """A regular expression Python can compile (matched case-insensitively); blank: the
    default."""
    value = value.strip() or ZOOM_TOPICS_DEFAULT
    try:
        re.compile(value, re.IGNORECASE)
    except re.error as exc:
        raise Problem("setting_not_regex", detail=str(exc)) from None
    return value


_DURATION = re.compile(r"(\d{1,6})\s*(s|m|min|h)?", re.IGNORECASE)
_UNIT_S = {"s": 1, "m": 60, "min": 60, "h": 3600}


def _zoom_poll(value: object) -> object:
    """`off` (or blank): no poll; else a duration such as `15m`, `1h`, `90s` (a bare
    number is minutes), from one second to a day, in seconds."""
    if value is None or isinstance(value, int):
        return value
    text = str(value).strip().lower()
    if text in ("", "off", "0"):
        return None
    m = _DURATION.fullmatch(text)
    if m is None:
        raise Problem("setting_not_poll")
    seconds = int(m.group(1)) * _UNIT_S[(m.group(2) or "m").lower()]
    if not 1 <= seconds <= 86400:
        raise Problem("setting_poll_range")
    return seconds


Blank = Annotated[str | None, AfterValidator(_blank_is_none)]  # a blank variable: unset
UserIds = Annotated[str, _ids_like(USER_ID_RE, "setting_not_user_id")]  # U…, W…, S…
ChannelIds = Annotated[str, _ids_like(CHANNEL_ID_RE, "setting_not_channel_id")]
ChannelId = Annotated[str | None, AfterValidator(_digest_channel)]
ApiUrl = Annotated[str, AfterValidator(_api_url)]
ClockTime = Annotated[str, AfterValidator(lambda v: _clock(v, "setting_not_time"))]
ClockTimeOrOff = Annotated[str, AfterValidator(_remind_time)]
Timezone = Annotated[str, AfterValidator(_timezone)]
WebhookUrl = Annotated[str | None, AfterValidator(_webhook_url)]
WebhookSecret = Annotated[str | None, AfterValidator(_webhook_secret)]
RedirectUri = Annotated[str | None, AfterValidator(_redirect_uri)]
TokenKeys = Annotated[str | None, AfterValidator(_token_key)]
Days = Annotated[int | None, BeforeValidator(_retention_days)]
SearchWorkers = Annotated[int, _whole_number(2, 0, 32, "setting_workers_range")]
AskLimit = Annotated[int, _whole_number(20, 1, 1000, "setting_ask_limit_range")]
GraceDays = Annotated[int, _whole_number(30, 0, 36500, "setting_grace_range")]
RotationMinutes = Annotated[int, _whole_number(120, 1, 719, "setting_rotation_range")]
LocaleName = Annotated[Literal["zh", "en"], BeforeValidator(_lower)]
LogLevel = Annotated[Literal["debug", "info", "warning", "error"], BeforeValidator(_lower)]
LogFormat = Annotated[Literal["text", "json"], BeforeValidator(_lower)]
Watch = Annotated[Literal["auto", "poll"], BeforeValidator(_lower)]
ZoomTopics = Annotated[str, AfterValidator(_zoom_topics)]
PollSeconds = Annotated[int | None, BeforeValidator(_zoom_poll)]
OnOff = Annotated[Literal["on", "off"], BeforeValidator(_lower)]
