"""All configuration, read once from the environment. Nothing else reads os.environ.

Each field's type reads and checks its variable (bot/settings_values.py); a bad one is
said as a `SettingsError` naming the variable (`load_settings`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal, get_args
from zoneinfo import ZoneInfo

from pydantic import Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from store.models import Locale
from store.workspace_models import WorkspaceSettings

from .settings_values import (
    ZOOM_TOPICS_DEFAULT,
    ApiUrl,
    AskLimit,
    Blank,
    ChannelId,
    ChannelIds,
    ClockTime,
    ClockTimeOrOff,
    Days,
    GraceDays,
    LocaleName,
    LogFormat,
    LogLevel,
    OnOff,
    PollSeconds,
    Problem,
    RedirectUri,
    RotationMinutes,
    SearchWorkers,
    Timezone,
    TokenKeys,
    UserIds,
    Watch,
    WebhookSecret,
    WebhookUrl,
    ZoomTopics,
    ids,
    known_zone,
)
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


def environment_locale() -> Locale:
    """DEBRIEF_LOCALE as errors are said in, even when it is not valid (zh, the default,
    then): what the command line says before, or instead of, reading the settings."""
    value = os.environ.get("DEBRIEF_LOCALE", "").strip().lower()
    return "en" if value == "en" else "zh"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(extra="ignore", populate_by_name=True)

    db_path: str = Field("debrief.db", validation_alias="DEBRIEF_DB")
    transcripts: Blank = Field(None, validation_alias="DEBRIEF_TRANSCRIPTS")
    # transcripts shared in Slack are saved here; default: `uploads/` beside the database
    uploads: str | None = Field(None, validation_alias="DEBRIEF_UPLOADS")
    locale: LocaleName = Field("zh", validation_alias="DEBRIEF_LOCALE")

    bot_token: Blank = Field(None, validation_alias="SLACK_BOT_TOKEN")
    app_token: Blank = Field(None, validation_alias="SLACK_APP_TOKEN")
    signing_secret: Blank = Field(None, validation_alias="SLACK_SIGNING_SECRET")
    api_url: ApiUrl = Field("https://slack.com/api/", validation_alias="SLACK_API_URL")

    digest_time: ClockTime = Field("09:30", validation_alias="DEBRIEF_DIGEST_TIME")
    timezone: Timezone = Field("Asia/Shanghai", validation_alias="DEBRIEF_TIMEZONE")
    digest_channel: ChannelId = Field(None, validation_alias="DEBRIEF_DIGEST_CHANNEL")
    # Reviewers with overdue requests get one DM a working day at this time (HH:MM in
    # DEBRIEF_TIMEZONE); `off`: serve sends none (`debrief remind --post` still can).
    remind_time: ClockTimeOrOff = Field("10:00", validation_alias="DEBRIEF_REMIND_TIME")
    # `/candidate 邀请`: at most this many reviewers DMed by one user an hour (reminders
    # are not asks); a reviewer asked about a candidate in the last day is not DMed again.
    ask_limit_per_hour: AskLimit = Field(20, validation_alias="DEBRIEF_ASK_LIMIT_PER_HOUR")

    # kept as strings so pydantic-settings does not try to parse them as JSON
    allowed_users_raw: UserIds = Field("", validation_alias="DEBRIEF_ALLOWED_USERS")
    allowed_channels_raw: ChannelIds = Field("", validation_alias="DEBRIEF_ALLOWED_CHANNELS")
    # Who may record a hiring decision (`/candidate 结论`): user ids and user groups (`S…`).
    # Empty: nobody may, and the refusal names this setting.
    deciders_raw: UserIds = Field("", validation_alias="DEBRIEF_DECIDERS")
    # Candidate data (verdicts, decisions, the digest, an upload's summary) may be posted in
    # a channel shared with another organisation (Slack Connect). Off: refused there. One
    # workspace only: installed in many, each workspace's admins decide in App Home.
    allow_shared_channels: bool = Field(False, validation_alias="DEBRIEF_ALLOW_SHARED_CHANNELS")
    # Independent review (issue 38): a reviewer with an open request for a candidate sees
    # nobody else's decisions or notes until they record their own (or everyone asked
    # has). Installed in many workspaces, each workspace's admins may change it in App Home.
    independent_review: OnOff = Field("on", validation_alias="DEBRIEF_INDEPENDENT_REVIEW")

    log_level: LogLevel = Field("info", validation_alias="DEBRIEF_LOG_LEVEL")
    log_format: LogFormat = Field("text", validation_alias="DEBRIEF_LOG_FORMAT")
    # How serve sees new transcripts: file-system events (falling back to polling when
    # they cannot be set up), or `poll` for network file systems that send no events.
    watch: Watch = Field("auto", validation_alias="DEBRIEF_WATCH")
    # Candidates are forgotten this many days after their interview (or, without its
    # date, after their file was first indexed). Unset: kept until `debrief forget`.
    retention_days: Days = Field(None, validation_alias="DEBRIEF_RETENTION_DAYS")
    # Searches are ranked in this many worker processes, so that ranking never holds the
    # interpreter that acknowledges Slack; 0 ranks in the serving process itself.
    search_workers: SearchWorkers = Field(2, validation_alias="DEBRIEF_SEARCH_WORKERS")
    # Each hiring decision is POSTed here for the ATS, signed with the secret (required
    # with the URL: the receiver checks it). Unset: decisions are not handed over.
    webhook_url: WebhookUrl = Field(None, validation_alias="DEBRIEF_WEBHOOK_URL")
    webhook_secret: WebhookSecret = Field(
        None, validation_alias="DEBRIEF_WEBHOOK_SECRET", validate_default=True
    )

    # Installing Debrief in many workspaces (Slack's OAuth flow) instead of serving one
    # with SLACK_BOT_TOKEN: the app's credentials, the secret that signs the install's
    # state, where Slack sends the installer back (https), and the Fernet key(s) that
    # encrypt the stored bot tokens (comma-separated: the first encrypts, any decrypts).
    client_id: Blank = Field(None, validation_alias="SLACK_CLIENT_ID")
    client_secret: Blank = Field(None, validation_alias="SLACK_CLIENT_SECRET", repr=False)
    state_secret: Blank = Field(None, validation_alias="SLACK_STATE_SECRET", repr=False)
    redirect_uri: RedirectUri = Field(None, validation_alias="SLACK_REDIRECT_URI")
    token_key: TokenKeys = Field(None, validation_alias="DEBRIEF_TOKEN_KEY", repr=False)
    # An uninstalled workspace's data is erased this many days later (0: at the next
    # daily run), so that a reinstall by mistake loses nothing.
    uninstall_grace_days: GraceDays = Field(30, validation_alias="DEBRIEF_UNINSTALL_GRACE")
    # A rotating bot token is refreshed this many minutes before it expires (12 hours).
    token_rotation_minutes: RotationMinutes = Field(
        120, validation_alias="DEBRIEF_TOKEN_ROTATION_MINUTES"
    )

    # Zoom's cloud transcripts (issue 48, bot/zoom.py): the Server-to-Server OAuth app's
    # account and credentials, the webhook's secret token, which meetings are interviews
    # (their topic, a regular expression matched case-insensitively), where their cards
    # go (default: the digest channel), how often `serve` asks Zoom for what the webhook
    # missed (off by default), and Zoom's addresses (tests and proxies set them).
    zoom_account_id: Blank = Field(None, validation_alias="DEBRIEF_ZOOM_ACCOUNT_ID")
    zoom_client_id: Blank = Field(None, validation_alias="DEBRIEF_ZOOM_CLIENT_ID")
    zoom_client_secret: Blank = Field(
        None, validation_alias="DEBRIEF_ZOOM_CLIENT_SECRET", repr=False
    )
    zoom_secret_token: Blank = Field(None, validation_alias="DEBRIEF_ZOOM_SECRET_TOKEN", repr=False)
    zoom_topics: ZoomTopics = Field(ZOOM_TOPICS_DEFAULT, validation_alias="DEBRIEF_ZOOM_TOPICS")
    zoom_channel: ChannelId = Field(None, validation_alias="DEBRIEF_ZOOM_CHANNEL")
    zoom_poll: PollSeconds = Field(None, validation_alias="DEBRIEF_ZOOM_POLL")
    zoom_api_url: ApiUrl = Field("https://api.zoom.us/v2/", validation_alias="DEBRIEF_ZOOM_API_URL")
    zoom_oauth_url: ApiUrl = Field("https://zoom.us/", validation_alias="DEBRIEF_ZOOM_OAUTH_URL")

    @property
    def allowed_users(self) -> list[str]:
        return ids(self.allowed_users_raw)

    @property
    def deciders(self) -> list[str]:
        return ids(self.deciders_raw)

    @property
    def allowed_channels(self) -> list[str]:
        return ids(self.allowed_channels_raw)

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
            independent_review=self.independent_review == "on",
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
        if own.timezone is not None and known_zone(own.timezone):
            update["timezone"] = own.timezone  # its digest, reminders, retention day
        if own.independent_review is not None:  # its digest hides what the asked decided
            update["independent_review"] = "on" if own.independent_review else "off"
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

    def require_zoom_pair(self) -> None:
        """The Zoom app's client id and secret go together: one without the other is a
        half-made setting, said rather than ignored."""
        pair = {
            "DEBRIEF_ZOOM_CLIENT_ID": self.zoom_client_id,
            "DEBRIEF_ZOOM_CLIENT_SECRET": self.zoom_client_secret,
        }
        missing = [name for name, value in pair.items() if not value]
        if len(missing) == 1:
            raise SettingsError("setting_zoom_incomplete", variables=missing[0])

    def _check_serving(self) -> None:
        """What only `serve` needs: a readable transcripts folder, a digest it may post."""
        if self.transcripts:
            folder = Path(self.transcripts).expanduser()
            if not folder.is_dir():
                raise SettingsError("setting_no_folder", folder=self.transcripts)
            if not os.access(folder, os.R_OK | os.X_OK):
                raise SettingsError("setting_unreadable_folder", folder=self.transcripts)
        self.require_zoom_pair()
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
