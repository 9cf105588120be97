"""A workspace's own webhook for its ATS, in the settings modal (issue 34): the URL its
hiring decisions are POSTed to and the secret they are signed with, instead of
DEBRIEF_WEBHOOK_URL's. Pure: no Slack, no store, no key.

The URL is shown as saved; the secret never is: the modal says whether one is set, an
empty field keeps it, a typed one replaces it, and a checkbox clears both. What is kept
is the secret's ciphertext (`seal`: DEBRIEF_TOKEN_KEY's, as tokens are encrypted).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from slack_sdk.models.blocks import CheckboxesElement, InputBlock, Option, PlainTextInputElement

from store.workspace_models import WorkspaceSettings

from ..blocks import plain
from ..i18n import Locale, t

HOOK_URL, HOOK_SECRET, HOOK_CLEAR = "s_hook_url", "s_hook_secret", "s_hook_clear"
CLEAR = "clear"
MAX_URL = 2000  # what the field takes
MAX_SECRET = 500


@dataclass(frozen=True)
class WebhookChange:
    """What a submission says of the webhook: the URL ("" none), a new secret typed
    (None: keep the one saved), or clear both."""

    url: str = ""
    secret: str | None = field(default=None, repr=False)
    clear: bool = False


def webhook_blocks(now: WorkspaceSettings, locale: Locale) -> list[InputBlock]:
    """The webhook's fields, at what is saved (the secret: only whether it is set)."""
    option = Option(value=CLEAR, text=plain(t(locale, "settings_hook_clear_option")))
    has_secret = bool(now.webhook_secret_enc)
    return [
        InputBlock(
            block_id=HOOK_URL,
            label=plain(t(locale, "settings_hook_url")),
            element=PlainTextInputElement(
                action_id="v", initial_value=now.webhook_url or None, max_length=MAX_URL
            ),
            optional=True,
            hint=plain(t(locale, "settings_hook_url_hint")),
        ),
        InputBlock(
            block_id=HOOK_SECRET,
            label=plain(t(locale, "settings_hook_secret")),
            element=PlainTextInputElement(action_id="v", max_length=MAX_SECRET),
            optional=True,
            hint=plain(
                t(
                    locale,
                    "settings_hook_secret_set" if has_secret else "settings_hook_secret_unset",
                )
            ),
        ),
        InputBlock(
            block_id=HOOK_CLEAR,
            label=plain(t(locale, "settings_hook_clear")),
            element=CheckboxesElement(action_id="v", options=[option]),
            optional=True,
        ),
    ]


def _typed(values: dict[str, Any], block: str) -> str:
    found = (values.get(block) or {}).get("v")
    value = found.get("value") if isinstance(found, dict) else None
    return value.strip() if isinstance(value, str) else ""


def good_url(url: str) -> bool:
    """An http:// or https:// URL with a host (as DEBRIEF_WEBHOOK_URL must be)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname) and " " not in url


def parse_webhook(
    view: dict[str, Any], has_secret: bool, locale: Locale
) -> tuple[WebhookChange, dict[str, str]]:
    """A submission's webhook, and what to say under which field. `has_secret`: one is
    saved already (an empty field keeps it)."""
    values = (view.get("state") or {}).get("values") or {}
    if not isinstance(values, dict):
        values = {}
    found = (values.get(HOOK_CLEAR) or {}).get("v")
    if isinstance(found, dict) and found.get("selected_options"):
        return WebhookChange(clear=True), {}
    url, secret = _typed(values, HOOK_URL), _typed(values, HOOK_SECRET)
    errors: dict[str, str] = {}
    if url and not good_url(url):
        errors[HOOK_URL] = t(locale, "settings_hook_bad_url")
    elif secret and not url:
        errors[HOOK_URL] = t(locale, "settings_hook_no_url")
    elif url and not secret and not has_secret:
        errors[HOOK_SECRET] = t(locale, "settings_hook_no_secret")
    return WebhookChange(url=url, secret=secret or None), errors


def with_webhook(
    values: WorkspaceSettings,
    own: WorkspaceSettings,
    change: WebhookChange,
    seal: Callable[[str], str],
) -> WorkspaceSettings:
    """`values` with the webhook as the submission says, over what `own` saved: the new
    secret sealed, the saved one kept when none was typed, none without a URL."""
    if change.clear or not change.url:
        return values.model_copy(update={"webhook_url": None, "webhook_secret_enc": None})
    sealed = seal(change.secret) if change.secret else own.webhook_secret_enc
    return values.model_copy(update={"webhook_url": change.url, "webhook_secret_enc": sealed})
