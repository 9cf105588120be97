"""A reviewer's thread reply that credits the candidate on a question never answered
(issue 37): the bot answers once, in the thread, visible only to that reviewer
(chat.postEphemeral with thread_ts), naming the question."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from store.claims.check import NoteText, unsupported
from store.errors import StoreError

from .deps import Deps
from .views.claims import reply_text

logger = logging.getLogger("handlers.claims")


@dataclass(frozen=True)
class Said:
    """A reply just recorded as a note (not a follow-up answer): who, where, what."""

    channel: str
    thread_ts: str
    ts: str
    user: str
    candidate_id: str
    text: str


def answer_claims(said: Said, deps: Deps, client: WebClient) -> None:
    """Tell the reviewer, privately in the thread, of each claim their reply makes."""
    try:
        c = deps.store.get_candidate(said.candidate_id)
    except StoreError as exc:
        logger.warning("could not read the candidate to check a reply: %s", exc)
        return
    if c is None:
        return
    note = NoteText(by=said.user, ts=said.ts, text=said.text)
    claims = [x for x in unsupported(c, c.followups, [note]) if x.source == "note"]
    if not claims:
        return
    text = "\n".join(reply_text(x, deps.locale) for x in claims[:3])
    try:
        client.chat_postEphemeral(
            channel=said.channel, user=said.user, thread_ts=said.thread_ts, text=text
        )
    except SlackApiError as exc:
        logger.warning("could not answer a claim in a thread: %s", exc.response.get("error"))
