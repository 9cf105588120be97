"""Block Kit plumbing: escaping and Slack's size limits, so no view can break them.

Limits (Slack's): 50 blocks a message, 3,000 characters a section text, 150 a
header, 2,000 a button value, 25 elements an actions block. Every piece of
transcript text is escaped (`&`, `<`, `>`) so it can never ping or forge a link.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, Field, StrictInt, StrictStr, TypeAdapter, ValidationError
from slack_sdk.models.blocks import (
    ActionsBlock,
    Block,
    ButtonElement,
    ContextBlock,
    DividerBlock,
    HeaderBlock,
    MarkdownTextObject,
    PlainTextObject,
    SectionBlock,
)

MAX_BLOCKS = 50
MAX_SECTION = 3000
MAX_HEADER = 150
MAX_VALUE = 2000
MAX_FALLBACK = 3000
MAX_MODAL_TITLE = 24  # a modal's title, submit and close texts
MAX_METADATA = 3000  # a view's private_metadata (a button's value: MAX_VALUE)
MAX_LABEL = 75  # an input's label, an option's or a button's text
# What one message's blocks may hold at most, measured as their compact JSON (the way Slack
# counts, escapes included): real Slack refuses at about 13,200 characters of block text.
MESSAGE_BUDGET = 12_000
# Room `pack` keeps free in every message for a part label and a "continue" button.
PART_RESERVE = 900


def plain(text: str, limit: int = MAX_LABEL) -> PlainTextObject:
    """A plain_text object cut to `limit` (Slack refuses longer ones, and empty ones)."""
    return PlainTextObject(text=text[:limit] or "—", emoji=False)


class Message(BaseModel):
    """One message as Slack receives it."""

    text: str
    blocks: list[dict[str, Any]] = Field(default_factory=list)
    response_type: str = "ephemeral"

    def payload(self) -> dict[str, Any]:
        return {"text": self.text, "blocks": self.blocks, "response_type": self.response_type}


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def escape(text: str) -> str:
    """Slack's three control characters; a transcript can never ping or link.

    Control characters (other than newline and tab) are dropped: Slack shows nothing for
    them and JSON spells each as six characters, which would break the size budget."""
    text = _CONTROL.sub("", text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def fit(text: str, limit: int, ellipsis: str = "…") -> tuple[str, bool]:
    """Escape `text` and cut it (never inside an entity) so it fits in `limit`."""
    escaped = escape(text)
    if len(escaped) <= limit:
        return escaped, False
    out: list[str] = []
    size = len(ellipsis)
    for ch in text:
        piece = escape(ch)
        if size + len(piece) > limit:
            break
        out.append(piece)
        size += len(piece)
    return "".join(out).rstrip() + ellipsis, True


_BREAKS = re.compile(r"(?<=[。！？!?；;\n])")


def chunks(text: str, limit: int = MAX_SECTION) -> list[str]:
    """Split text into escaped pieces of at most `limit`, at line or sentence ends if possible."""
    pieces: list[str] = []
    current = ""
    for part in _BREAKS.split(text):
        candidate = current + part
        if len(escape(candidate)) <= limit:
            current = candidate
            continue
        if current:
            pieces.append(escape(current.rstrip("\n")))
        current = part
        while len(escape(current)) > limit:
            head, _ = fit(current, limit, ellipsis="")
            taken = len(unescape(head))
            pieces.append(head)
            current = current[taken:]
    if current.strip() or not pieces:
        pieces.append(escape(current.rstrip("\n")))
    return pieces


def unescape(text: str) -> str:
    """`escape` undone: what the text said before it was escaped."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def cut_escaped(text: str, limit: int, ellipsis: str = "") -> str:
    """Already escaped text cut to `limit` characters, never inside an entity."""
    if len(text) <= limit:
        return text
    head = text[: max(0, limit - len(ellipsis))]
    amp = head.rfind("&")
    if amp != -1 and ";" not in head[amp:]:
        head = head[:amp]
    return head + ellipsis


def mrkdwn(text: str) -> MarkdownTextObject:
    """Text we wrote ourselves (already escaped where it carries transcript text)."""
    return MarkdownTextObject(text=cut_escaped(text, MAX_SECTION, "…"), verbatim=True)


def section(text: str, accessory: ButtonElement | None = None) -> SectionBlock:
    return SectionBlock(text=mrkdwn(text), accessory=accessory)


def header(text: str) -> HeaderBlock:
    value, _ = fit(" ".join(text.split()), MAX_HEADER)
    return HeaderBlock(text=PlainTextObject(text=value or "—", emoji=False))


def context(*parts: str) -> ContextBlock:
    return ContextBlock(elements=[mrkdwn(p) for p in parts if p][:10])


def divider() -> DividerBlock:
    return DividerBlock()


def encode_value(ref: dict[str, Any]) -> str:
    value = json.dumps(ref, ensure_ascii=False, separators=(",", ":"))
    if len(value) > MAX_VALUE and "q" in ref:
        ref = {**ref, "q": str(ref["q"])[:300]}
        value = json.dumps(ref, ensure_ascii=False, separators=(",", ":"))
    return value[:MAX_VALUE]


_Model = TypeVar("_Model", bound=BaseModel)
_SmallInt = Annotated[StrictInt, Field(ge=-(2**31), le=2**31 - 1)]
_REF = TypeAdapter(dict[str, StrictStr | _SmallInt | None])


def read_value(model: type[_Model], value: object) -> _Model | None:
    """A value Slack hands back as we wrote it (a button's value, a modal's
    private_metadata), read as `model`; None for anything else, however deep or odd
    its JSON (pydantic's parser gives up on deep nesting instead of recursing)."""
    if not isinstance(value, str) or len(value) > MAX_METADATA:
        return None
    try:
        return model.model_validate_json(value)
    except ValidationError:
        return None


def decode_value(value: object) -> dict[str, Any]:
    """A button's value as `encode_value` wrote it: one flat object of strings and small
    numbers; {} for anything else (nested JSON, a number too big for a database)."""
    if not isinstance(value, str) or not value or len(value) > MAX_METADATA:
        return {}
    try:
        return dict(_REF.validate_json(value))
    except ValidationError:
        return {}


def button(label: str, action_id: str, ref: dict[str, Any], primary: bool = False) -> ButtonElement:
    return ButtonElement(
        text=PlainTextObject(text=fit(label, 75)[0], emoji=False),
        action_id=action_id,
        value=encode_value(ref),
        style="primary" if primary else None,
    )


def actions(buttons: Sequence[ButtonElement], block_id: str | None = None) -> ActionsBlock:
    return ActionsBlock(elements=list(buttons)[:25], block_id=block_id)


def message(
    fallback: str,
    blocks: Iterable[Block],
    response_type: str = "ephemeral",
) -> Message:
    rendered = [b.to_dict() for b in blocks]
    if len(rendered) > MAX_BLOCKS:  # views page themselves; this is the last guard
        rendered = [*rendered[: MAX_BLOCKS - 1], ContextBlock(elements=[mrkdwn("…")]).to_dict()]
    _shrink(rendered, MESSAGE_BUDGET)
    text, _ = fit(fallback, MAX_FALLBACK)
    return Message(text=text, blocks=rendered, response_type=response_type)


def json_size(blocks: Sequence[dict[str, Any]]) -> int:
    """Characters of the blocks' compact JSON: what Slack measures against its limit."""
    return len(json.dumps(list(blocks), ensure_ascii=False, separators=(",", ":")))


def _shrink(rendered: list[dict[str, Any]], budget: int) -> None:
    """The last guard: halve the longest section until the message fits (views are sized
    so this never runs; when it does, the cut is marked with an ellipsis, never silent)."""
    while json_size(rendered) > budget:
        texts = [
            b["text"]
            for b in rendered
            if b.get("type") == "section" and isinstance(b.get("text"), dict)
        ]
        longest = max(texts, key=lambda t: len(str(t.get("text", ""))), default=None)
        if longest is None or len(str(longest["text"])) < 20:
            del rendered[-1]
            continue
        body = str(longest["text"])
        longest["text"] = cut_escaped(body, len(body) // 2, "…")


def size(block: Block) -> int:
    """One block's share of a message: its compact JSON and the comma after it."""
    return json_size([block.to_dict()]) - 1


def pack(
    head: list[Block],
    body: list[Block],
    fallback: str,
    response_type: str = "ephemeral",
    tail: list[Block] | None = None,
) -> list[Message]:
    """Spread `body` over as many messages as it takes; `head` opens the first, `tail` ends
    the last. Every message keeps `PART_RESERVE` characters and two blocks free for a part
    label and a "continue" button (see `views.label_parts`)."""
    tail = tail or []
    budget = MESSAGE_BUDGET - PART_RESERVE
    room = MAX_BLOCKS - 2
    tail_size = sum(size(b) for b in tail)
    messages: list[list[Block]] = []
    current: list[Block] = list(head)
    used = 1 + sum(size(b) for b in current)
    for block in body:
        s = size(block)
        if current and (len(current) + 1 > room or used + s > budget):
            messages.append(current)
            current, used = [], 1
        current.append(block)
        used += s
    if current and (len(current) + len(tail) > room or used + tail_size > budget):
        messages.append(current)
        current = []
    current.extend(tail)
    messages.append(current)
    return [message(fallback, blocks, response_type) for blocks in messages if blocks]


def ticked(values: dict[str, Any], block_id: str, value: str) -> bool:
    """Whether a view submission's state `values` tick the checkbox `value` of the input
    block `block_id` (its element's action id is `v`)."""
    found = (values.get(block_id) or {}).get("v")
    chosen = found.get("selected_options") if isinstance(found, dict) else None
    return isinstance(chosen, list) and any(
        isinstance(o, dict) and o.get("value") == value for o in chosen
    )
