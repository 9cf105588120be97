"""Independent review in the settings modal (issue 38): one checkbox, ticked while a
reviewer asked sees nobody else's decisions until they record theirs (handlers/review.py).
Pure: no Slack, no store.
"""

from __future__ import annotations

from typing import Any

from slack_sdk.models.blocks import CheckboxesElement, InputBlock, Option

from store.workspace_models import WorkspaceSettings

from ..blocks import plain, ticked
from ..i18n import Locale, t

INDEPENDENT = "s_independent"  # the block id (its element's action id is "v")
ON = "on"


def independent_block(now: WorkspaceSettings, locale: Locale) -> InputBlock:
    """The checkbox, ticked when the workspace runs with independent review now (its own
    setting, else DEBRIEF_INDEPENDENT_REVIEW's: on unless turned off)."""
    option = Option(value=ON, text=plain(t(locale, "settings_independent_option")))
    return InputBlock(
        block_id=INDEPENDENT,
        label=plain(t(locale, "settings_independent")),
        element=CheckboxesElement(
            action_id="v",
            options=[option],
            initial_options=[option] if now.independent_review is not False else None,
        ),
        optional=True,
        hint=plain(t(locale, "settings_independent_hint")),
    )


def parse_independent(values: dict[str, Any]) -> bool:
    """Whether a submission's state values tick the checkbox."""
    return ticked(values, INDEPENDENT, ON)
