"""The limits Slack enforces on what the bot sends: Block Kit messages, views (modals and
the Home tab), response_url budgets and trigger_id lifetimes; and which refusals mean the
bot broke one of Slack's rules."""

from __future__ import annotations

import json
from typing import Any

# Slack's limits (https://api.slack.com/reference/block-kit/blocks and practice: bolt-js
# issues 2509 and 2867): real Slack refuses at about 13,200 characters of block text;
# 12,000 characters of compact JSON is the line the bot must stay under.
MAX_BLOCKS = 50
MAX_BLOCKS_JSON = 12_000
MAX_HEADER_TEXT = 150
MAX_SECTION_TEXT = 3_000
RESPONSE_URL_POSTS = 5
RESPONSE_URL_LIFETIME = 30 * 60.0

# Refusals that mean the bot broke one of Slack's rules (as opposed to runtime answers
# such as ``not_in_channel`` or scripted faults a test asked for).
RULE_ERRORS = frozenset(
    {
        "unknown_method",
        "invalid_arguments",
        "not_authed",
        "not_allowed_token_type",
        "no_text",
        "invalid_blocks",
        "invalid_blocks_format",
        "msg_blocks_too_long",
        "used_url",
        "expired_url",
        "no_such_url",
        "fake_method_not_implemented",
        "invalid_trigger_id",
        "expired_trigger_id",
        "view_too_large",
        "hash_conflict",
    }
)

# Views (modals and the Home tab): https://api.slack.com/reference/surfaces/views
MAX_VIEW_BLOCKS = 100
MAX_VIEW_TITLE = 24
MAX_PRIVATE_METADATA = 3_000
TRIGGER_LIFETIME = 3.0  # a trigger_id opens a modal within 3 seconds of the click


def block_problem(blocks: Any) -> str | None:
    """The error Slack answers for these blocks, or None when it would take them."""
    if blocks is None:
        return None
    if isinstance(blocks, str):
        try:
            blocks = json.loads(blocks)
        except ValueError:
            return "invalid_blocks_format"
    if not isinstance(blocks, list):
        return "invalid_blocks_format"
    if len(json.dumps(blocks, ensure_ascii=False, separators=(",", ":"))) > MAX_BLOCKS_JSON:
        return "msg_blocks_too_long"
    if len(blocks) > MAX_BLOCKS:
        return "invalid_blocks"
    for block in blocks:
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            return "invalid_blocks"
        text = block.get("text")
        body = text.get("text") if isinstance(text, dict) else None
        if block["type"] == "header" and (not isinstance(body, str) or len(body) > MAX_HEADER_TEXT):
            return "invalid_blocks"
        if block["type"] == "section" and isinstance(body, str) and len(body) > MAX_SECTION_TEXT:
            return "invalid_blocks"
    return None


def view_problem(view: Any) -> str | None:
    """The error Slack answers for this view (a modal or a Home tab), or None."""
    if isinstance(view, str):
        try:
            view = json.loads(view)
        except ValueError:
            return "invalid_arguments"
    if not isinstance(view, dict) or view.get("type") not in ("modal", "home"):
        return "invalid_arguments"
    blocks = view.get("blocks")
    if not isinstance(blocks, list) or len(blocks) > MAX_VIEW_BLOCKS:
        return "invalid_arguments"
    for key in ("title", "submit", "close"):
        part = view.get(key)
        if part is None:
            if key == "title" and view["type"] == "modal":
                return "invalid_arguments"
            continue
        text = part.get("text") if isinstance(part, dict) else None
        if part.get("type") != "plain_text" or not isinstance(text, str) or not text:
            return "invalid_arguments"
        if len(text) > MAX_VIEW_TITLE:
            return "invalid_arguments"
    if len(str(view.get("private_metadata") or "")) > MAX_PRIVATE_METADATA:
        return "invalid_arguments"
    has_input = any(isinstance(b, dict) and b.get("type") == "input" for b in blocks)
    if view["type"] == "modal" and has_input and not view.get("submit"):
        return "invalid_arguments"  # a modal with inputs needs a submit button
    for block in blocks:
        if not isinstance(block, dict) or not isinstance(block.get("type"), str):
            return "invalid_arguments"
        text = block.get("text")
        body = text.get("text") if isinstance(text, dict) else None
        if block["type"] == "header" and (not isinstance(body, str) or len(body) > MAX_HEADER_TEXT):
            return "invalid_arguments"
        if block["type"] == "section" and isinstance(body, str) and len(body) > MAX_SECTION_TEXT:
            return "invalid_arguments"
        if block["type"] == "actions" and len(block.get("elements") or []) > 25:
            return "invalid_arguments"
    if len(json.dumps(view, ensure_ascii=False)) > 250_000:
        return "view_too_large"
    return None
