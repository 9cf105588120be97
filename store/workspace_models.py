"""The workspaces installed: their data spaces, what an install gave them, their own
settings, and what erasing or naming a space did. Plain values, as in models.py.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field


class Workspace(BaseModel):
    """One data space: the Slack workspace (`T…`) or Enterprise Grid organisation (`E…`,
    an org-wide install) whose candidates, threads and decisions it holds. Space 0 is
    the single-workspace mode's, with no key until an install adopts it."""

    ws: int
    slack_key: str | None
    kind: Literal["team", "enterprise"]
    name: str
    created_at: str
    uninstalled_at: str | None = None
    erase_after: str | None = None  # when its data goes, unless installed again before
    erased_at: str | None = None


SpaceRefusal = Literal["erased", "installed", "unadopted", "not_uninstalled"]
"""Why a data space may not be erased: it was already (`erased`), it is installed, or it
is space 0 with no Slack key (`unadopted`: the single-workspace mode's, which no install
took) or never uninstalled."""


ZeroNaming = Literal["named", "already", "taken", "keyed", "erased", "served_other"]
"""What giving space 0 a Slack key did (`SpaceStore.name_space_zero`): `named` it,
nothing (`already` that key), or nothing because another space has that key (`taken`),
space 0 has another key (`keyed`), was erased, or served another team in the
single-workspace mode (`served_other`, unless forced)."""


class SpaceStep(BaseModel):
    """One short transaction of a data space's erasure (`SpaceStore.erase_space_step`):
    what it erased, the uploaded files the caller is to erase next (then
    `forget_space_files`), and whether anything is left."""

    candidates: int = 0  # candidates (or ids the audit still named) erased as forget does
    files: list[str] = Field(default_factory=list)  # transcripts saved from Slack
    rows: int = 0  # the space's other rows deleted
    after: str = ""  # the last audit subject done: where the next step goes on
    done: bool = False  # nothing left but `finish_space_erasure`
    stopped: SpaceRefusal | None = None  # installed again (or erased) meanwhile: stop


class WorkspaceSettings(BaseModel):
    """What a workspace's admins set for it in App Home (installed in many workspaces):
    who and where may see candidates, who decides, the digest and the reminders. None:
    the environment's setting (DEBRIEF_ALLOWED_USERS, …). `digest_channel` "" turns the
    digest off; `remind_time` "off" the reminders. `version` counts the saves."""

    allowed_users: list[str] | None = None  # U…/W… users and S… user groups
    allowed_channels: list[str] | None = None
    deciders: list[str] | None = None
    digest_channel: str | None = None
    digest_time: str | None = None  # HH:MM, in its time zone
    remind_time: str | None = None  # HH:MM or "off"
    # the IANA time zone its digest, reminders, deadlines and retention day follow
    # (None: DEBRIEF_TIMEZONE); checked with zoneinfo when saved (issue 34)
    timezone: str | None = None
    # where its hiring decisions go (None: DEBRIEF_WEBHOOK_URL), and the secret they are
    # signed with, encrypted with DEBRIEF_TOKEN_KEY as tokens are (never shown back)
    webhook_url: str | None = None
    webhook_secret_enc: str | None = Field(default=None, repr=False)
    # candidate data may be posted in a channel shared with another organisation (Slack
    # Connect); None: not (issue 34)
    allow_shared_channels: bool | None = None
    # independent review (issue 38): a reviewer asked sees nobody else's decisions until
    # they record theirs; None: DEBRIEF_INDEPENDENT_REVIEW's
    independent_review: bool | None = None
    # its Zoom account (issue 48): the Server-to-Server OAuth app's account and client
    # ids, its client secret and its webhook's secret token, both encrypted with
    # DEBRIEF_TOKEN_KEY as tokens are (never shown back), and where its Zoom interviews'
    # cards go (None: its digest channel)
    zoom_account_id: str | None = None
    zoom_client_id: str | None = None
    zoom_client_secret_enc: str | None = Field(default=None, repr=False)
    zoom_secret_token_enc: str | None = Field(default=None, repr=False)
    zoom_channel: str | None = None
    version: int = 0
    saved_by: str | None = None
    saved_at: str | None = None


class Installation(BaseModel):
    """What an install gave a data space: the bot's identity and its token, encrypted by
    the caller (the store only keeps ciphertext), and when a rotating token expires."""

    ws: int = 0  # given by the store; ignored when saving
    enterprise_id: str | None
    team_id: str | None
    is_enterprise_install: bool = False
    app_id: str | None = None
    enterprise_name: str | None = None
    enterprise_url: str | None = None
    team_name: str | None = None
    bot_id: str
    bot_user_id: str
    bot_scopes: str = ""  # comma-separated, as Slack gives them
    bot_token_enc: str = Field(repr=False)
    bot_refresh_token_enc: str | None = Field(default=None, repr=False)
    bot_token_expires_at: int | None = None  # unix seconds; None: the token does not expire
    installer_user_id: str | None = None
    token_type: str | None = None
    installed_at: str = ""
    updated_at: str = ""

    @property
    def slack_key(self) -> str:
        """The data space's key: the organisation for an org-wide install, else the team."""
        key = self.enterprise_id if self.is_enterprise_install else self.team_id
        if not key:
            raise ValueError("an installation names its team, or its organisation")
        return key
