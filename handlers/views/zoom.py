"""A workspace's own Zoom account, in the settings modal (issue 48, installed in many
workspaces): the account Debrief takes the cloud transcripts of, the Server-to-Server
OAuth app's client id and secret it downloads and syncs them with, the secret token
Zoom signs its webhook events with, and the channel the interviews' cards go to
(none: the digest channel). Pure: no Slack, no store, no key.

The ids are shown as saved; the secrets never are: the modal says whether each is set,
an empty field keeps it, a typed one replaces it, and a checkbox disconnects the
account (every Zoom field and secret cleared). What is kept of a secret is its
ciphertext (`seal`: DEBRIEF_TOKEN_KEY's, as tokens are encrypted). An event's
`account_id` selects the workspace (bot/zoom.py): an account without a secret token
has no webhook (every event of it is refused), which the admin is told, but it is
kept: `zoom sync` needs only the client id and secret.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from slack_sdk.models.blocks import (
    CheckboxesElement,
    ConversationFilter,
    ConversationSelectElement,
    InputBlock,
    Option,
    PlainTextInputElement,
)

from store.workspace_models import WorkspaceSettings

from ..blocks import plain
from ..i18n import Locale, t

ZOOM_ACCOUNT, ZOOM_CLIENT, ZOOM_SECRET, ZOOM_TOKEN, ZOOM_CHANNEL, ZOOM_CLEAR = (
    "s_zoom_account",
    "s_zoom_client",
    "s_zoom_secret",
    "s_zoom_token",
    "s_zoom_channel",
    "s_zoom_clear",
)
CLEAR = "clear"
MAX_ID = 64  # Zoom's account and client ids are 22 characters; room to spare
MAX_SECRET = 256
_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
_CHANNEL_RE = re.compile(r"[CG][A-Z0-9]+")
ZOOM_FIELDS = (
    "zoom_account_id",
    "zoom_client_id",
    "zoom_client_secret_enc",
    "zoom_secret_token_enc",
    "zoom_channel",
)


@dataclass(frozen=True)
class ZoomChange:
    """What a submission says of the Zoom account: its ids ("" none), the secrets typed
    (None: keep the one saved), the channel ("" the digest channel's), or clear it all;
    `keep`: it has no Zoom fields (a modal opened before they were there): as saved."""

    account_id: str = ""
    client_id: str = ""
    client_secret: str | None = field(default=None, repr=False)
    secret_token: str | None = field(default=None, repr=False)
    channel: str = ""
    clear: bool = False
    keep: bool = False


def _secret_hint(saved: str | None, unset: str, locale: Locale) -> str:
    return t(locale, "settings_zoom_secret_set" if saved else unset)


def _typed_field(
    block_id: str, label: str, hint: str, initial: str | None, max_length: int
) -> InputBlock:
    """An optional line of text (`initial`: what is shown in it; a secret: None)."""
    return InputBlock(
        block_id=block_id,
        label=plain(label),
        element=PlainTextInputElement(action_id="v", initial_value=initial, max_length=max_length),
        optional=True,
        hint=plain(hint),
    )


def zoom_blocks(now: WorkspaceSettings, locale: Locale) -> list[InputBlock]:
    """The Zoom account's fields, at what is saved (the secrets: only whether each is set)."""
    option = Option(value=CLEAR, text=plain(t(locale, "settings_zoom_clear_option")))
    channels_only = ConversationFilter(include=["public", "private"], exclude_bot_users=True)
    return [
        _typed_field(
            ZOOM_ACCOUNT,
            t(locale, "settings_zoom_account"),
            t(locale, "settings_zoom_account_hint"),
            now.zoom_account_id or None,
            MAX_ID,
        ),
        _typed_field(
            ZOOM_CLIENT,
            t(locale, "settings_zoom_client"),
            t(locale, "settings_zoom_client_hint"),
            now.zoom_client_id or None,
            MAX_ID,
        ),
        _typed_field(
            ZOOM_SECRET,
            t(locale, "settings_zoom_secret"),
            _secret_hint(now.zoom_client_secret_enc, "settings_zoom_secret_unset", locale),
            None,
            MAX_SECRET,
        ),
        _typed_field(
            ZOOM_TOKEN,
            t(locale, "settings_zoom_token"),
            _secret_hint(now.zoom_secret_token_enc, "settings_zoom_token_unset", locale),
            None,
            MAX_SECRET,
        ),
        InputBlock(
            block_id=ZOOM_CHANNEL,
            label=plain(t(locale, "settings_zoom_channel")),
            element=ConversationSelectElement(
                action_id="v", initial_conversation=now.zoom_channel or None, filter=channels_only
            ),
            optional=True,
            hint=plain(t(locale, "settings_zoom_channel_hint")),
        ),
        InputBlock(
            block_id=ZOOM_CLEAR,
            label=plain(t(locale, "settings_zoom_clear")),
            element=CheckboxesElement(action_id="v", options=[option]),
            optional=True,
        ),
    ]


def _found(values: dict[str, Any], block: str) -> dict[str, Any]:
    found = (values.get(block) or {}).get("v")
    return found if isinstance(found, dict) else {}


def _typed(values: dict[str, Any], block: str) -> str:
    value = _found(values, block).get("value")
    return value.strip() if isinstance(value, str) else ""


def parse_zoom(
    view: dict[str, Any], own: WorkspaceSettings, allowed: list[str], locale: Locale
) -> tuple[ZoomChange, dict[str, str]]:
    """A submission's Zoom account, and what to say under which field, over what the
    workspace saved (`own`: an empty secret field keeps its secret). `allowed`: the
    channels candidates may be shown in, as submitted (none: every channel)."""
    values = (view.get("state") or {}).get("values") or {}
    if not isinstance(values, dict):
        values = {}
    if _found(values, ZOOM_CLEAR).get("selected_options"):
        return ZoomChange(clear=True), {}
    if ZOOM_ACCOUNT not in values:  # Slack sends every input block, an empty one too
        return ZoomChange(keep=True), {}
    account, client = _typed(values, ZOOM_ACCOUNT), _typed(values, ZOOM_CLIENT)
    secret, token = _typed(values, ZOOM_SECRET), _typed(values, ZOOM_TOKEN)
    channel = _found(values, ZOOM_CHANNEL).get("selected_conversation")
    channel = channel if isinstance(channel, str) and _CHANNEL_RE.fullmatch(channel) else ""
    errors: dict[str, str] = {}
    for block, typed in ((ZOOM_ACCOUNT, account), (ZOOM_CLIENT, client)):
        if typed and not _ID_RE.fullmatch(typed):
            errors[block] = t(locale, "settings_zoom_bad_id")
    for block, typed in ((ZOOM_SECRET, secret), (ZOOM_TOKEN, token)):
        if len(typed) > MAX_SECRET:
            errors[block] = t(locale, "settings_zoom_long_secret", most=MAX_SECRET)
    if not account and (client or secret or token or channel):
        errors.setdefault(ZOOM_ACCOUNT, t(locale, "settings_zoom_no_account"))
    elif secret and not client:
        errors.setdefault(ZOOM_CLIENT, t(locale, "settings_zoom_no_client"))
    elif client and not secret and (client != own.zoom_client_id or not own.zoom_client_secret_enc):
        # a client id is no use without its own secret: a new one's is typed with it
        errors.setdefault(ZOOM_SECRET, t(locale, "settings_zoom_no_secret"))
    if channel and allowed and channel not in allowed:
        errors[ZOOM_CHANNEL] = t(locale, "settings_zoom_channel_not_allowed")
    change = ZoomChange(account, client, secret or None, token or None, channel)
    return change, errors


def with_zoom(
    values: WorkspaceSettings,
    own: WorkspaceSettings,
    change: ZoomChange,
    seal: Callable[[str], str],
) -> WorkspaceSettings:
    """`values` with the Zoom account as the submission says, over what `own` saved:
    new secrets sealed, saved ones kept when none was typed, nothing without an account
    (and no client secret without a client id)."""
    if change.keep:
        return values.model_copy(update={n: getattr(own, n) for n in ZOOM_FIELDS})
    if change.clear or not change.account_id:
        return values.model_copy(update=dict.fromkeys(ZOOM_FIELDS))
    secret = seal(change.client_secret) if change.client_secret else own.zoom_client_secret_enc
    token = seal(change.secret_token) if change.secret_token else own.zoom_secret_token_enc
    return values.model_copy(
        update={
            "zoom_account_id": change.account_id,
            "zoom_client_id": change.client_id or None,
            "zoom_client_secret_enc": secret if change.client_id else None,
            "zoom_secret_token_enc": token,
            "zoom_channel": change.channel or None,
        }
    )


def zoom_changed(before: WorkspaceSettings, after: WorkspaceSettings) -> bool:
    """Whether a save changed the Zoom account, its app or a secret (for the audit)."""
    return any(getattr(before, n) != getattr(after, n) for n in ZOOM_FIELDS)


def without_token(values: WorkspaceSettings) -> bool:
    """A Zoom account kept without the secret token its webhook is checked with."""
    return bool(values.zoom_account_id) and not values.zoom_secret_token_enc
