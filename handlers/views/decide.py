"""Pure views for deciding with a button: the verdict post's buttons and the modal.

The buttons carry only the decision: which candidate (and which thread) they are
about is the post they sit under, remembered in the store when it was posted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictStr
from slack_sdk.models.blocks import (
    ActionsBlock,
    ButtonElement,
    ContextBlock,
    InputBlock,
    Option,
    OverflowMenuElement,
    PlainTextInputElement,
    RadioButtonsElement,
    SectionBlock,
)
from slack_sdk.models.views import View

from store.models import DECISIONS, Decision

from ..blocks import MAX_MODAL_TITLE, escape, fit, mrkdwn, plain, read_value
from ..i18n import Locale, t

DECIDE = "decide"  # action ids `decide:<decision>` and `decide:more`; the modal's callback_id
MORE = f"{DECIDE}:more"
BUTTONS: tuple[Decision, ...] = ("hire", "hold", "no_hire")
STRONG: tuple[Decision, ...] = ("strong_hire", "strong_no_hire")
NOTE_LIMIT = 1000
DECISION_BLOCK, DECISION_ACTION = "decision", "choice"
NOTE_BLOCK, NOTE_ACTION = "note", "text"


def label(locale: Locale, decision: str) -> str:
    return t(locale, f"decision_{decision}")


TARGETED = f"{DECIDE}@"  # a block_id that names its verdict thread: `decide@<metadata>`
MAX_BLOCK_ID = 255


def targets(target: Target) -> bool:
    """Whether buttons away from the verdict post (a DM) can name this target: its
    metadata must fit in a block_id."""
    return len(TARGETED + target.metadata()) <= MAX_BLOCK_ID


def decide_actions(locale: Locale, target: Target | None = None) -> ActionsBlock:
    """通过 / 待定 / 不通过, and the strong forms in an overflow menu.

    Under a verdict post the buttons need say nothing more: the post they sit under is
    the candidate and the thread. Anywhere else (a DM asking a reviewer, a reminder)
    they name the verdict thread in their block_id (`target`), so a message may hold
    buttons for several candidates; check `targets(target)` first."""
    elements: list[ButtonElement | OverflowMenuElement] = [
        ButtonElement(
            text=plain(label(locale, d)),
            action_id=f"{DECIDE}:{d}",
            value=d,
            style="primary" if d == "hire" else "danger" if d == "no_hire" else None,
        )
        for d in BUTTONS
    ]
    elements.append(
        OverflowMenuElement(
            action_id=MORE,
            options=[Option(value=d, text=plain(label(locale, d))) for d in STRONG],
        )
    )
    if target is None:
        return ActionsBlock(block_id=DECIDE, elements=elements)
    if not targets(target):
        raise ValueError(f"a decision target too long for a block_id: {target}")
    return ActionsBlock(block_id=TARGETED + target.metadata(), elements=elements)


@dataclass(frozen=True)
class Target:
    """What a decision modal is about: the candidate and the verdict post's thread."""

    candidate_id: str
    channel: str
    thread_ts: str

    def metadata(self) -> str:
        return json.dumps(
            {"id": self.candidate_id, "ch": self.channel, "ts": self.thread_ts},
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @classmethod
    def from_block_id(cls, block_id: object) -> Target | None:
        """The target a button's block_id names (`decide@<metadata>`); None otherwise."""
        if not isinstance(block_id, str) or not block_id.startswith(TARGETED):
            return None
        return cls.from_metadata(block_id.removeprefix(TARGETED))

    @classmethod
    def from_metadata(cls, text: object) -> Target | None:
        """The target a modal's `private_metadata` names; None for anything else."""
        meta = read_value(_Metadata, text)
        return cls(meta.id, meta.ch, meta.ts) if meta is not None else None


class _Metadata(BaseModel):
    """What `Target.metadata` writes, as Slack hands it back."""

    model_config = ConfigDict(frozen=True)

    id: StrictStr = Field(min_length=1, max_length=1000)
    ch: StrictStr = Field(min_length=1, max_length=100)
    ts: StrictStr = Field(min_length=1, max_length=100)


def decide_modal(
    target: Target,
    who: str,
    chosen: Decision | None,
    current: Decision | None,
    locale: Locale,
) -> dict[str, Any]:
    """The modal a decision button opens: the decision pre-selected, an optional note."""
    options = [Option(value=d, text=plain(label(locale, d))) for d in DECISIONS]
    initial = next((o for o in options if o.value == chosen), None)
    about, _ = fit(who, 2900)
    blocks: list[Any] = [SectionBlock(text=mrkdwn(t(locale, "decide_about", who=about)))]
    if current is not None:
        blocks.append(
            ContextBlock(
                elements=[
                    mrkdwn(t(locale, "decide_current", decision=label(locale, current))),
                ]
            )
        )
    blocks += [
        InputBlock(
            block_id=DECISION_BLOCK,
            label=plain(t(locale, "decide_label")),
            element=RadioButtonsElement(
                action_id=DECISION_ACTION, options=options, initial_option=initial
            ),
        ),
        InputBlock(
            block_id=NOTE_BLOCK,
            label=plain(t(locale, "decide_note")),
            optional=True,
            element=PlainTextInputElement(
                action_id=NOTE_ACTION, multiline=True, max_length=NOTE_LIMIT
            ),
        ),
        ContextBlock(elements=[mrkdwn(t(locale, "decide_hint"))]),
    ]
    view = View(
        type="modal",
        callback_id=DECIDE,
        title=plain(t(locale, "decide_title"), MAX_MODAL_TITLE),
        submit=plain(t(locale, "decide_submit"), MAX_MODAL_TITLE),
        close=plain(t(locale, "cancel"), MAX_MODAL_TITLE),
        private_metadata=target.metadata(),
        blocks=blocks,
    )
    return view.to_dict()


def notice_modal(text: str, locale: Locale) -> dict[str, Any]:
    """A modal that only says something (a candidate that is gone, say)."""
    view = View(
        type="modal",
        title=plain(t(locale, "decide_title"), MAX_MODAL_TITLE),
        close=plain(t(locale, "close"), MAX_MODAL_TITLE),
        blocks=[SectionBlock(text=mrkdwn(text))],
    )
    return view.to_dict()


def _note(note: str) -> str:
    """The note as kept and posted: trimmed, and at most NOTE_LIMIT characters as typed."""
    return note.strip()[:NOTE_LIMIT].strip()


def decision_post_text(name: str, decision: Decision, note: str, locale: Locale) -> str:
    """`<name>: 通过 — note`, as posted in the verdict's thread (name and note escaped).

    The note is cut as typed, never on its escaped length, so the post says all that the
    reply row keeps (`decision_reply_text`): escaped, a note of NOTE_LIMIT characters
    is at most five times as long, far inside a message's 40,000."""
    who, _ = fit(name, 100)
    text = f"{who}: {label(locale, decision)}"
    body = _note(note)
    return f"{text} — {escape(body)}" if body else text


def decision_reply_text(decision: Decision, note: str, locale: Locale) -> str:
    """What the reply row keeps as its text: what a typed reply would say."""
    text = label(locale, decision)
    body = _note(note)
    return f"{text} — {body}" if body else text
