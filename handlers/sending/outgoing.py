"""What a listener or a command hands the sender: a plan, the list of what to send in
order. An `Outgoing` is one message, to the asker alone or posted in the channel, with
what follows it (reviewers to ask, status messages to bring up to date, the next
interviewers to hand a candidate to: the code that made the plan carries those out,
handlers/asking.py, handlers/handoffs.py); a `DirectMessage` goes to one
person in the bot's DM with them; an `Edit` makes a message the bot posted say
something else. handlers/sending/outbox.py `deliver` carries a plan out, in order, and
calls back into nothing that made it."""

from __future__ import annotations

from dataclasses import dataclass

from ..blocks import Message
from ..views.handoff import Handoff
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
    # is then what the asker is told should everything go as planned (`deliver` replies it)
    ask: Ask | None = None
    # a candidate whose request status messages are brought up to date once this is sent
    refresh: str | None = None
    # a candidate whose posts in channels are kept to independent review once this is sent
    # (handlers/sealing.py): a merge may bring the requests of one into the other's loop
    seal: str | None = None
    # the next interviewers to hand the candidate to (handlers/handoffs.py), once the
    # posts before it are out; `message` is then what the asker is told should it go
    handoff: Handoff | None = None


@dataclass(frozen=True)
class DirectMessage:
    """`message` to `user` alone, in the bot's DM with them."""

    user: str
    message: Message


@dataclass(frozen=True)
class Edit:
    """The bot's message `ts` in `channel` made to say `message` (chat.update), where the
    channel is still the workspace's own. When the message is gone (deleted) or the
    channel is not the workspace's own any more, `instead` is posted (refused in a
    channel shared with another organisation: its asker is told why); None: nothing.
    `hides`: the message is made to say less than it did (handlers/sealing.py), which
    it may wherever it is: edited even in a channel shared since."""

    channel: str
    ts: str
    message: Message
    instead: Outgoing | None = None
    hides: bool = False


Send = Outgoing | DirectMessage | Edit  # one step of a plan
