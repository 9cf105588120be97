"""Requests, reminders and webhook events as the store keeps them, on SQLite and
PostgreSQL: a decision by any path closes its reviewer's request, a hiring decision
closes them all and writes its webhook event in the same transaction, reminders and
events are taken by one claimer only, and `forget` erases all of it."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from store.factory import open_store

pytestmark = pytest.mark.both_backends

ID = "000_9e6b3ecb0732fcf3"
OTHER = "002_72ee0a76eea41e0e"
PAST = "2026-01-01T00:00:00.000000+00:00"
FUTURE = "2099-01-01T00:00:00.000000+00:00"
NOW = "2026-06-01T00:00:00.000000+00:00"


def ask(store, reviewers, due=FUTURE, cid=ID, thread="1700000000.000100"):  # type: ignore[no-untyped-def]
    return store.record_requests(cid, reviewers, "UASKER", due, "C1", thread)


def states(store, cid=ID):  # type: ignore[no-untyped-def]
    return {r.reviewer: r.closed_by for r in store.requests_for(cid)}


def test_asking_records_each_reviewer_once(seeded_store) -> None:  # type: ignore[no-untyped-def]
    assert ask(seeded_store, ["UA", "UB", "UA"])
    found = seeded_store.requests_for(ID)
    assert [r.reviewer for r in found] == ["UA", "UB"]
    assert all(r.open and r.asked_by == "UASKER" and r.due_at == FUTURE for r in found)
    assert not ask(seeded_store, ["UA"], cid="nosuch")
    assert seeded_store.requests_for("nosuch") == []


def test_a_thread_reply_decision_closes_only_that_reviewers_request(seeded_store) -> None:  # type: ignore[no-untyped-def]
    ask(seeded_store, ["UA", "UB"])
    seeded_store.record_post("C1", "1700000000.000100", ID, "verdict")
    seeded_store.record_reply("C1", "1700000001.1", "1700000000.000100", ID, "UB", "问一下第三题")
    assert states(seeded_store) == {"UA": None, "UB": None}  # not a decision
    seeded_store.record_reply("C1", "1700000002.1", "1700000000.000100", ID, "UA", "通过")
    assert states(seeded_store) == {"UA": "decision", "UB": None}
    # an edit that turns a follow-up into a decision closes it too
    seeded_store.record_reply("C1", "1700000001.1", "1700000000.000100", ID, "UB", "不通过")
    assert states(seeded_store) == {"UA": "decision", "UB": "decision"}


def test_a_button_decision_closes_the_request(seeded_store) -> None:  # type: ignore[no-untyped-def]
    ask(seeded_store, ["UA", "UB"])
    seeded_store.record_post("C1", "1700000000.000100", ID, "verdict")
    assert seeded_store.record_decision(
        "C1", "p.1", "1700000000.000100", ID, "UB", "hold", "再看看", claim="k1"
    )
    assert states(seeded_store) == {"UA": None, "UB": "decision"}


def test_a_hiring_decision_closes_every_open_request(seeded_store) -> None:  # type: ignore[no-untyped-def]
    ask(seeded_store, ["UA", "UB"])
    ask(seeded_store, ["UA"], cid=OTHER)
    seeded_store.record_reply("C1", "1700000002.1", "1700000000.000100", ID, "UA", "通过")
    recorded, _ = seeded_store.record_outcome(ID, "hire", "", "UBOSS")
    assert recorded
    assert states(seeded_store) == {"UA": "decision", "UB": "outcome"}
    assert states(seeded_store, OTHER) == {"UA": None}
    # asking again reopens with the new deadline
    ask(seeded_store, ["UB"], due=PAST)
    (ub,) = [r for r in seeded_store.requests_for(ID) if r.reviewer == "UB"]
    assert ub.open and ub.due_at == PAST


def test_overdue_and_the_home_queue(seeded_store) -> None:  # type: ignore[no-untyped-def]
    ask(seeded_store, ["UA"], due=PAST)
    ask(seeded_store, ["UA", "UB"], due=FUTURE, cid=OTHER)
    overdue = seeded_store.overdue_requests(NOW)
    assert [(r.candidate_id, r.reviewer) for r in overdue] == [(ID, "UA")]
    assert seeded_store.overdue_requests(NOW, reviewer="UB") == []
    lines, total = seeded_store.overdue_lines(NOW, 10)
    assert total == 1 and lines[0][0].id == ID and [r.reviewer for r in lines[0][1]] == ["UA"]
    queue, total = seeded_store.asked_of("UA", 10)
    assert total == 2 and [line.id for line, _ in queue] == [ID, OTHER]  # oldest deadline first
    assert queue[0][1].overdue(NOW) and not queue[1][1].overdue(NOW)
    seeded_store.record_outcome(ID, "reject", "", "UBOSS")
    assert seeded_store.overdue_requests(NOW) == []
    assert seeded_store.asked_of("UA", 10)[1] == 1


def test_a_reminder_is_claimed_once_a_day(seeded_store, db_target) -> None:  # type: ignore[no-untyped-def]
    other = open_store(db_target)  # another replica
    try:
        assert seeded_store.claim_reminder("UA", "2026-06-01", "one", 900)
        assert not other.claim_reminder("UA", "2026-06-01", "two", 900)
        assert other.claim_reminder("UB", "2026-06-01", "two", 900)
        seeded_store.finish_reminder("UA", "2026-06-01", "one", "1700.1")
        assert not other.claim_reminder("UA", "2026-06-01", "two", 0)  # sent stays sent
        assert seeded_store.reminder_status("UA", "2026-06-01") == "sent"
        other.release_reminder("UB", "2026-06-01", "two")
        assert seeded_store.claim_reminder("UB", "2026-06-01", "one", 900)
        # a claim whose sender died is taken over once stale
        assert other.claim_reminder("UB", "2026-06-01", "two", 0)
        assert seeded_store.claim_reminder("UA", "2026-06-02", "one", 900)  # a new day
    finally:
        other.close()


def test_a_hiring_decision_writes_its_webhook_event_in_its_transaction(seeded_store) -> None:  # type: ignore[no-untyped-def]
    seeded_store.record_reply("C1", "1700000002.1", "1700000000.000100", ID, "UA", "通过 很稳")
    assert seeded_store.undelivered_webhooks() == (0, None)
    seeded_store.record_outcome(ID, "hold", "", "UBOSS")  # no webhook: no event
    assert seeded_store.undelivered_webhooks()[0] == 0
    seeded_store.record_outcome(ID, "hire", "good", "UBOSS", webhook=True)
    count, oldest = seeded_store.undelivered_webhooks()
    assert count == 1 and oldest is not None
    (event,) = seeded_store.claim_webhook_events("one", 60)
    body = json.loads(event.body)
    assert body["event_id"] == event.event_id and body["id"] == ID
    assert body["outcome"] == "hire" and body["outcome_by"] == "UBOSS"
    assert body["reviews"] == [{"reviewer": "UA", "decision": "hire", "note": "通过 很稳"}]
    (row,) = [r for r in seeded_store.export_rows() if r.id == ID]
    # the export's row, its id, and the how-manyth decision it is (the hold was the first)
    assert body["sequence"] == 2
    kept = {k: v for k, v in body.items() if k not in ("event_id", "sequence")}
    assert kept == json.loads(row.model_dump_json())
    # the event is not recorded without its decision: a candidate not indexed gets neither
    assert seeded_store.record_outcome("nosuch", "hire", "", "UBOSS", webhook=True) == (
        False,
        None,
    )
    assert seeded_store.undelivered_webhooks()[0] == 1


def test_webhook_events_are_taken_by_one_claimer_and_retried(seeded_store, db_target) -> None:  # type: ignore[no-untyped-def]
    other = open_store(db_target)
    try:
        seeded_store.record_outcome(ID, "hire", "", "UBOSS", webhook=True)
        seeded_store.record_outcome(OTHER, "reject", "", "UBOSS", webhook=True)
        mine = seeded_store.claim_webhook_events("one", 60)
        assert len(mine) == 2
        assert other.claim_webhook_events("two", 60) == []  # leased to "one"
        first, second = mine
        assert seeded_store.webhook_delivered(first.event_id, "one")
        assert not other.webhook_delivered(second.event_id, "two")  # not theirs
        retry = datetime.now(UTC) + timedelta(minutes=5)
        seeded_store.webhook_failed(second.event_id, "one", "HTTP 500", retry)
        assert other.claim_webhook_events("two", 60) == []  # not due yet
        later = other.claim_webhook_events("two", 60, now=retry + timedelta(seconds=1))
        assert [e.event_id for e in later] == [second.event_id]
        assert later[0].attempts == 1 and later[0].last_error == "HTTP 500"
        # a claimer that died: its lease runs out and the event is taken again
        again = seeded_store.claim_webhook_events("one", 60, now=retry + timedelta(minutes=2))
        assert [e.event_id for e in again] == [second.event_id]
        assert seeded_store.webhook_delivered(second.event_id, "one")
        assert seeded_store.undelivered_webhooks() == (0, None)
    finally:
        other.close()


def test_forget_erases_requests_outcome_and_events(seeded_store) -> None:  # type: ignore[no-untyped-def]
    ask(seeded_store, ["UA"])
    seeded_store.record_outcome(ID, "hire", "", "UBOSS", webhook=True)
    ask(seeded_store, ["UB"], cid=OTHER)
    assert seeded_store.forget(ID) is not None
    assert seeded_store.requests_for(ID) == []
    assert seeded_store.outcome(ID) is None
    assert seeded_store.undelivered_webhooks()[0] == 0
    assert [r.reviewer for r in seeded_store.requests_for(OTHER)] == ["UB"]
