"""What a listener or a command hands the sender: one message to send, and how (the
asker alone, or posted in the channel), with what follows it (reviewers to ask, status
messages to bring up to date). A list of them is a plan: handlers/sending/outbox.py `deliver`
carries it out, in order, and calls back into nothing that made it."""

from __future__ import annotations

from dataclasses import dataclass

from ..blocks import Message
from ..views.requests import Ask


@dataclass
class Outgoing:
    message: Message
    post: bool = False  # into the channel with chat.postMessage (so it has a ts for threads)
    candidate_id: str | None = None
    kind: str = ""
    # the asker must say something else: no such candidate, several match, a number missing
    unresolved: bool = False
    thread_ts: str | None = None  # posted in this thread (a verdict's) rather than the channel
    audit: str | None = None  # what the audit says about it, when not a lookup
    # reviewers to ask (handlers/asking.py), once the posts before it are out; `message`
    # is then what the asker is told should everything go as planned
    ask: Ask | None = None
    # a candidate whose request status messages are brought up to date once this is sent
    refresh: str | None = None
