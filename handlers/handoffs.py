"""Handing a candidate to the next interviewers, once `/candidate 交接` decided whom and
what each is sent (`Handoff`, handlers/loop_answers.py). It follows the rule asking
reviewers follows (store/dm_limits.py: nobody DMed the same candidate's handoff twice
a day, the asker's hourly limit, asks and handoffs together, exact across replicas):
`record_handoffs` says who is handed it now, the handoff is audited
(`handoff:<users>`), their DMs are sent, a handoff Slack did not take is released (it
may be sent again), and the asker gets one reply naming who got it, who did not and
why. It plans; the sender (handlers/sending/) sends."""

from __future__ import annotations

from dataclasses import replace

from .audit import AuditEvent, record
from .deps import Deps
from .sending.outbox import Outbox, deliver
from .sending.outgoing import DirectMessage
from .views.handoff import Handoff, handoff_reply
from .views.replies import not_found_view


def hand_off(handoff: Handoff, outbox: Outbox, deps: Deps) -> None:
    """Record, audit, the DMs, then the asker's one reply."""
    store, now = deps.store, deps.clock()
    wanted = [user for user, _dm in handoff.dms]
    done = store.record_handoffs(
        handoff.candidate_id, handoff.interviews, wanted, handoff.asker, deps.ask_limit, now
    )
    if done is None:  # forgotten or removed just now
        outbox.reply(not_found_view(deps.locale, handoff.candidate_id))
        return
    if done.asked:
        users = ",".join(done.asked)
        event = AuditEvent(handoff.asker, f"handoff:{users}", handoff.candidate_id, handoff.channel)
        record(store, [event])
    handed = set(done.asked)
    dms = [DirectMessage(user, dm) for user, dm in handoff.dms if user in handed]
    failed = deliver(dms, outbox).failed
    if failed:  # not handed to them after all: it may be sent again
        store.release_handoffs(handoff.candidate_id, failed, now)
    went = replace(
        handoff,
        reached=tuple(done.asked),
        already=tuple(done.already),
        limited=tuple(done.limited),
        limit=deps.ask_limit,
        retry_at=done.retry_at,
        failed=dict(failed),
    )
    outbox.reply(handoff_reply(went, deps.locale, now, deps.tz))
