"""A workspace's own settings, set by its admins in App Home (installed in many
workspaces): the modal, and what a submission says, checked. Pure: no Slack, no store.

Every field starts at what the workspace runs with now (its own value, else the
environment's); saving keeps every field as shown. Empty users means everyone, empty
channels every channel, no digest channel no digest, reminders off none.
"""

from __future__ import annotations

import json
import re
from typing import Any

from slack_sdk.models.blocks import (
    CheckboxesElement,
    ContextBlock,
    ConversationFilter,
    ConversationMultiSelectElement,
    ConversationSelectElement,
    InputBlock,
    Option,
    PlainTextInputElement,
    TimePickerElement,
    UserMultiSelectElement,
)
from slack_sdk.models.views import View

from store.workspace_models import WorkspaceSettings

from ..blocks import MAX_MODAL_TITLE, mrkdwn, plain, section
from ..i18n import Locale, t
from .independent import independent_block, parse_independent
from .shared import parse_shared, shared_block
from .timezone import TIMEZONE as TIMEZONE
from .timezone import parse_timezone, timezone_block
from .webhook import webhook_blocks
from .zoom import zoom_blocks

SETTINGS = "ws_settings"  # the Home tab's button, and the modal's callback_id
_GROUP_RE = re.compile(r"S[A-Z0-9]+")
_CHANNEL_RE = re.compile(r"[CG][A-Z0-9]+")
_USER_RE = re.compile(r"[UW][A-Z0-9]+")
_TIME_RE = re.compile(r"([01]\d|2[0-3]):[0-5]\d")

# block ids (each block's element has the action id "v")
USERS, GROUPS, CHANNELS = "s_users", "s_groups", "s_channels"
DECIDERS, DECIDER_GROUPS = "s_deciders", "s_decider_groups"
DIGEST_CHANNEL, DIGEST_TIME, REMIND_TIME, REMIND_OFF = (
    "s_digest",
    "s_digest_at",
    "s_remind",
    "s_off",
)
OFF = "off"
_FIELDS = (
    "allowed_users",
    "allowed_channels",
    "deciders",
    "digest_channel",
    "digest_time",
    "remind_time",
    "timezone",
    "independent_review",
)


def merged(own: WorkspaceSettings, defaults: WorkspaceSettings) -> WorkspaceSettings:
    """What a workspace runs with: each of its own values, else the environment's."""
    values = {
        name: getattr(own, name) if getattr(own, name) is not None else getattr(defaults, name)
        for name in _FIELDS
    }
    return WorkspaceSettings(
        **values,
        webhook_url=own.webhook_url,  # a workspace's own: never the environment's
        webhook_secret_enc=own.webhook_secret_enc,
        allow_shared_channels=own.allow_shared_channels,  # its admins' alone (issue 34)
        zoom_account_id=own.zoom_account_id,  # its own Zoom account (issue 48)
        zoom_client_id=own.zoom_client_id,
        zoom_client_secret_enc=own.zoom_client_secret_enc,
        zoom_secret_token_enc=own.zoom_secret_token_enc,
        zoom_channel=own.zoom_channel,
        version=own.version,
        saved_by=own.saved_by,
    )


def _input(
    block_id: str, label: str, element: Any, locale: Locale, hint: str | None = None
) -> InputBlock:
    return InputBlock(
        block_id=block_id,
        label=plain(t(locale, label)),
        element=element,
        optional=True,
        hint=plain(t(locale, hint)) if hint else None,
    )


def settings_modal(now: WorkspaceSettings, locale: Locale) -> dict[str, Any]:
    """The settings modal, each field at its value `now`."""
    users = [u for u in now.allowed_users or [] if _USER_RE.fullmatch(u)]
    groups = [u for u in now.allowed_users or [] if _GROUP_RE.fullmatch(u)]
    deciders = [u for u in now.deciders or [] if _USER_RE.fullmatch(u)]
    decider_groups = [u for u in now.deciders or [] if _GROUP_RE.fullmatch(u)]
    channels_only = ConversationFilter(include=["public", "private"], exclude_bot_users=True)
    off_option = Option(value=OFF, text=plain(t(locale, "settings_remind_off")))
    remind = now.remind_time if now.remind_time and now.remind_time != OFF else None
    blocks: list[Any] = [
        section(t(locale, "settings_intro")),
        _input(
            USERS,
            "settings_users",
            UserMultiSelectElement(action_id="v", initial_users=users or None),
            locale,
            "settings_users_hint",
        ),
        _input(
            GROUPS,
            "settings_groups",
            PlainTextInputElement(action_id="v", initial_value=", ".join(groups) or None),
            locale,
            "settings_groups_hint",
        ),
        _input(
            CHANNELS,
            "settings_channels",
            ConversationMultiSelectElement(
                action_id="v",
                initial_conversations=list(now.allowed_channels or []) or None,
                filter=channels_only,
            ),
            locale,
            "settings_channels_hint",
        ),
        _input(
            DECIDERS,
            "settings_deciders",
            UserMultiSelectElement(action_id="v", initial_users=deciders or None),
            locale,
        ),
        _input(
            DECIDER_GROUPS,
            "settings_decider_groups",
            PlainTextInputElement(action_id="v", initial_value=", ".join(decider_groups) or None),
            locale,
        ),
        _input(
            DIGEST_CHANNEL,
            "settings_digest_channel",
            ConversationSelectElement(
                action_id="v", initial_conversation=now.digest_channel or None, filter=channels_only
            ),
            locale,
            "settings_digest_hint",
        ),
        timezone_block(now, locale),
        _input(
            DIGEST_TIME,
            "settings_digest_time",
            TimePickerElement(action_id="v", initial_time=now.digest_time or None),
            locale,
        ),
        _input(
            REMIND_TIME,
            "settings_remind_time",
            TimePickerElement(action_id="v", initial_time=remind),
            locale,
        ),
        _input(
            REMIND_OFF,
            "settings_remind",
            CheckboxesElement(
                action_id="v",
                options=[off_option],
                initial_options=[off_option] if now.remind_time == OFF else None,
            ),
            locale,
        ),
        shared_block(now, locale),
        independent_block(now, locale),
        *webhook_blocks(now, locale),
        *zoom_blocks(now, locale),
        ContextBlock(elements=[mrkdwn(t(locale, "settings_footer"))]),
    ]
    view = View(
        type="modal",
        callback_id=SETTINGS,
        # the version it shows: a save over a newer one is refused (issue 34)
        private_metadata=json.dumps({"version": now.version}),
        title=plain(t(locale, "settings_title"), MAX_MODAL_TITLE),
        submit=plain(t(locale, "settings_save"), MAX_MODAL_TITLE),
        close=plain(t(locale, "close"), MAX_MODAL_TITLE),
        blocks=blocks,
    )
    return view.to_dict()


def opened_at(view: dict[str, Any]) -> int | None:
    """The settings' version a submitted modal was opened at (None: it does not say)."""
    try:
        found = json.loads(str(view.get("private_metadata") or ""))
    except ValueError:
        return None
    version = found.get("version") if isinstance(found, dict) else None
    return version if isinstance(version, int) and not isinstance(version, bool) else None


def notice_modal(text: str, locale: Locale) -> dict[str, Any]:
    """A modal with one sentence (someone who is not an admin clicked the button)."""
    view = View(
        type="modal",
        title=plain(t(locale, "settings_title"), MAX_MODAL_TITLE),
        close=plain(t(locale, "close"), MAX_MODAL_TITLE),
        blocks=[section(text)],
    )
    return view.to_dict()


def _value(values: dict[str, Any], block: str) -> dict[str, Any]:
    found = (values.get(block) or {}).get("v")
    return found if isinstance(found, dict) else {}


def _ids(found: object, pattern: re.Pattern[str]) -> list[str]:
    if not isinstance(found, list):
        return []
    return [str(x) for x in found if isinstance(x, str) and pattern.fullmatch(x)]


def _groups(text: object) -> tuple[list[str], list[str]]:
    """The user groups typed (S…, separated by commas or spaces), and the words that are not."""
    words = [w for w in re.split(r"[\s,，、]+", str(text or "")) if w]
    return [w for w in words if _GROUP_RE.fullmatch(w)], [
        w for w in words if not _GROUP_RE.fullmatch(w)
    ]


def parse_settings(
    view: dict[str, Any], locale: Locale
) -> tuple[WorkspaceSettings | None, dict[str, str]]:
    """A submission -> the settings, or None and what to say under which field."""
    values = (view.get("state") or {}).get("values") or {}
    if not isinstance(values, dict):
        values = {}
    errors: dict[str, str] = {}
    groups, bad = _groups(_value(values, GROUPS).get("value"))
    if bad:
        errors[GROUPS] = t(locale, "settings_bad_group", entry=bad[0][:40])
    decider_groups, bad = _groups(_value(values, DECIDER_GROUPS).get("value"))
    if bad:
        errors[DECIDER_GROUPS] = t(locale, "settings_bad_group", entry=bad[0][:40])
    users = _ids(_value(values, USERS).get("selected_users"), _USER_RE)
    deciders = _ids(_value(values, DECIDERS).get("selected_users"), _USER_RE)
    channels = _ids(_value(values, CHANNELS).get("selected_conversations"), _CHANNEL_RE)
    digest = _value(values, DIGEST_CHANNEL).get("selected_conversation")
    digest = digest if isinstance(digest, str) and _CHANNEL_RE.fullmatch(digest) else ""
    if digest and channels and digest not in channels:
        errors[DIGEST_CHANNEL] = t(locale, "settings_digest_not_allowed")
    digest_time = _value(values, DIGEST_TIME).get("selected_time")
    remind_time = _value(values, REMIND_TIME).get("selected_time")
    off = bool(_value(values, REMIND_OFF).get("selected_options"))
    times = {DIGEST_TIME: digest_time, REMIND_TIME: remind_time}
    for block, value in times.items():
        if value is not None and not (isinstance(value, str) and _TIME_RE.fullmatch(value)):
            errors[block] = t(locale, "settings_bad_time")
    zone, zone_errors = parse_timezone(values, locale)
    errors |= zone_errors
    if errors:
        return None, errors
    return (
        WorkspaceSettings(
            allowed_users=users + groups,
            allowed_channels=channels,
            deciders=deciders + decider_groups,
            digest_channel=digest,
            digest_time=str(digest_time) if digest_time else None,
            remind_time=OFF if off else (str(remind_time) if remind_time else None),
            timezone=zone,
            allow_shared_channels=parse_shared(values),
            independent_review=parse_independent(values),
        ),
        {},
    )
