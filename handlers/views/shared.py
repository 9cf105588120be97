"""Whether candidate data may be posted in channels shared with another organisation
(Slack Connect), in the settings modal (issue 34): one checkbox, off unless the
workspace's admins tick it. Pure: no Slack, no store.
"""

from __future__ import annotations

from typing import Any

from slack_sdk.models.blocks import CheckboxesElement, InputBlock, Option

from store.workspace_models import WorkspaceSettings

from ..blocks import plain, ticked
from ..i18n import Locale, t

SHARED = "s_shared"  # the block id (its element's action id is "v")
ALLOW = "allow"


def shared_block(now: WorkspaceSettings, locale: Locale) -> InputBlock:
    """The checkbox, ticked when the workspace allows shared channels now."""
    option = Option(value=ALLOW, text=plain(t(locale, "settings_shared_option")))
    return InputBlock(
        block_id=SHARED,
        label=plain(t(locale, "settings_shared")),
        element=CheckboxesElement(
            action_id="v",
            options=[option],
            initial_options=[option] if now.allow_shared_channels else None,
        ),
        optional=True,
        hint=plain(t(locale, "settings_shared_hint")),
    )


def parse_shared(values: dict[str, Any]) -> bool:
    """Whether a submission's state values tick the checkbox."""
    return ticked(values, SHARED, ALLOW)
