"""What each of doctor's checks builds on: a `Check` (a name, a status, a detail in the
words of bot/words/) and `Checks`, the deployment checked and the language it is said in.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from store.models import Locale

from .settings import Settings
from .words import t

Status = Literal["ok", "fail", "warn", "skip"]


class Check(BaseModel):
    name: str
    status: Status
    detail: str = ""


def api_error(exc: SlackApiError) -> str:
    return str(exc.response.get("error") or exc)


class Checks:
    """The checks of one deployment, said in `locale` (bot/doctor.py puts them together)."""

    def __init__(self, settings: Settings, client: WebClient | None, locale: Locale) -> None:
        self.settings = settings
        self.client = client
        self.locale = locale
        self.auth: dict[str, Any] | None = None  # what auth.test said of the bot token

    def say(self, key: str, **values: object) -> str:
        return t(self.locale, key, **values)

    def check(self, name: str, status: Status, key: str = "", **values: object) -> Check:
        return Check(name=name, status=status, detail=self.say(key, **values) if key else "")
