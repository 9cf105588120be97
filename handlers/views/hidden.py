"""What a card says in place of the decisions and notes independent review hides
(issue 38, handlers/review.py): that they are hidden, and who decided, never what.
Pure."""

from __future__ import annotations

from collections.abc import Sequence

from slack_sdk.models.blocks import Block

from ..blocks import context
from ..i18n import Locale, t
from .common import People, person

NAMED = 20  # reviewers named on the line; a card never grows past Slack's limits


def hidden_block(
    hidden: Sequence[str], locale: Locale, people: People | None, for_channel: bool
) -> Block:
    """For one reviewer asked (`for_channel` False: until they record theirs) or for a
    channel (until everyone asked has): hidden, and who decided (`hidden`)."""
    lines = [t(locale, "review_hidden_channel" if for_channel else "review_hidden")]
    if hidden:
        who = t(locale, "name_separator").join(person(u, people) for u in hidden[:NAMED])
        if len(hidden) > NAMED:
            who += t(locale, "name_separator") + t(locale, "status_more", count=len(hidden) - NAMED)
        lines.append(t(locale, "review_decided_who", who=who))
    return context("\n".join(lines))
