"""Slack threads: the bot's posts and the reviewers' replies to them (decisions,
follow-up answers, notes). What a reply's text means is read by `reviews.py` (pure).

Every event is keyed by Slack's (channel, ts): a retried or duplicated event, whichever
process (or replica) gets it, is one `INSERT ... ON CONFLICT` on that key. On
PostgreSQL the row lock that takes, and the `FOR UPDATE` after it, make a second
replica wait for the first and then see the same text (recorded once); SQLite's write
transaction already excludes every other writer.

Slack sends again an event it was not answered in 3 s, so a reply, its edits and its
deletion arrive late, twice or out of order, and are applied in the order of their time:
a reply keeps the Slack time of the text it holds (`edited_ts`: its edit's `edited.ts`;
NULL: as first posted, at `ts`), so an older edit never overwrites a newer one, and a
deleted reply is remembered (`deleted_replies`), so a late delivery of it, or of an edit
of it, is not recorded again."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from pydantic import BaseModel

from . import rows
from .base import Base, Tx
from .clock import utcnow
from .models import tally_decisions
from .requests import close_requests, reopen_request
from .transcripts.reviews import parse_reply, recorded_meaning

# A reply is stored before Slack gets its 200: it waits this long for the write lock at
# most, then fails, and Slack is asked to send it again.
REPLY_WAIT_SECONDS = 2.0

OPEN_COUNT_SQL = """
UPDATE candidates SET unanswered_count = (
    SELECT count(*) FROM questions q
    WHERE q.candidate_rid = candidates.rid AND q.answered = 0 AND q.answer_recorded = 1
      AND NOT EXISTS (
        SELECT 1 FROM replies r
        WHERE r.ws = candidates.ws AND r.candidate_id = candidates.id
          AND r.followup_number = q.number
      )
) WHERE ws = ? AND id = ?
"""
"""A candidate's open questions: unanswered in the transcript and not answered in a thread
(parameters: the data space, the candidate's id)."""


class ReplyOutcome:
    """What recording a thread reply did."""

    def __init__(
        self,
        recorded: bool,
        decision: str | None,
        followup: int | None,
        react: bool,
        reopened: bool = False,
        unreact: bool = False,
    ) -> None:
        self.recorded = recorded  # new or changed (False: the same event again)
        self.decision = decision
        self.followup = followup
        self.react = react  # this call claimed the acknowledgement reaction
        self.reopened = reopened  # an edit withdrew the decision: the request is open again
        self.unreact = unreact  # an edit took the decision acknowledged away: its ✅ goes


class Reply(BaseModel):
    """A reply as recorded: whose, about which candidate, the decision it holds."""

    candidate_id: str
    reviewer: str
    decision: str | None = None


class Posted(BaseModel):
    """One of the bot's posts about a candidate: where, when (Slack's ts), what kind."""

    channel: str
    ts: str
    kind: str


class Removed(Reply):
    """A reply deleted; `reopened`: it took its author's decision, and with it their
    request, away (they are asked again)."""

    reopened: bool = False


def _older(at: str | None, than: str) -> bool:
    """Whether Slack time `at` comes before `than` (an unknown or unreadable time does not:
    the event is applied as it comes)."""
    if at is None:
        return False
    try:
        return Decimal(at) < Decimal(than)
    except InvalidOperation:
        return False


def _latest_decisions(store: Base, candidate_id: str) -> list[tuple[Any, ...]]:
    return store._all(
        f"SELECT reviewer, decision, text, ts FROM replies r WHERE {store.space}"
        " AND candidate_id = ? AND decision IS NOT NULL AND ts = (SELECT max(ts)"
        " FROM replies r2 WHERE r2.ws = r.ws AND r2.candidate_id = r.candidate_id"
        " AND r2.reviewer = r.reviewer AND r2.decision IS NOT NULL) ORDER BY ts, reviewer",
        [candidate_id],
    )


def read_reviews(store: Base, candidate_id: str) -> rows.Reviews:
    """Each reviewer's latest decision, every follow-up answer, every note (a claim in
    any of them counts, store/claims/; a view shows the newest few)."""
    space = store.space
    return rows.reviews(
        _latest_decisions(store, candidate_id),
        store._all(
            f"SELECT followup_number, followup_answer, reviewer, ts FROM replies WHERE {space}"
            " AND candidate_id = ? AND followup_number IS NOT NULL ORDER BY ts",
            [candidate_id],
        ),
        store._all(
            f"SELECT reviewer, text, ts FROM replies WHERE {space} AND candidate_id = ?"
            " AND followup_number IS NULL ORDER BY ts DESC",
            [candidate_id],
        ),
    )


def decision_tally(store: Base, candidate_id: str) -> dict[str, int]:
    decisions, _f, _n = rows.reviews(_latest_decisions(store, candidate_id), [], [])
    return tally_decisions(decisions)


class ThreadStore(Base):
    """Bot posts (which candidate a thread is about) and reviewers' replies."""

    def record_post(self, channel: str, ts: str, candidate_id: str, kind: str) -> None:
        with self.tx() as tx:
            tx.execute(
                "INSERT INTO posts (ws, channel, ts, candidate_id, kind, posted_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (ws, channel, ts) DO UPDATE SET"
                " candidate_id = excluded.candidate_id, kind = excluded.kind,"
                " posted_at = excluded.posted_at",
                [self.ws, channel, ts, candidate_id, kind, utcnow()],
            )

    def post_candidate(self, channel: str, ts: str) -> str | None:
        """Which candidate a bot post (a thread's parent) is about."""
        found = self._scalar(
            f"SELECT candidate_id FROM posts WHERE {self.space} AND channel = ? AND ts = ?",
            [channel, ts],
        )
        return None if found is None else str(found)

    def posts_about(self, candidate_id: str, kinds: list[str]) -> list[Posted]:
        """The bot's posts of `kinds` about the candidate, by channel, oldest first (the
        parts of a verdict in several messages in the order they were posted)."""
        kind_in, params = self.engine.in_list("kind", kinds)
        found = self._rows(
            f"SELECT channel, ts, kind FROM posts WHERE {self.space} AND candidate_id = ?"
            f" AND {kind_in} ORDER BY channel {self.engine.bytewise}, ts {self.engine.bytewise}",
            [candidate_id, *params],
        )
        return [Posted(**r) for r in found]

    # -- reviewers' replies in threads -------------------------------------------------

    def record_reply(
        self,
        channel: str,
        ts: str,
        thread_ts: str,
        candidate_id: str,
        reviewer: str,
        text: str,
        shown: bool = False,
        original: bool = False,
        at: str | None = None,
    ) -> ReplyOutcome:
        """Record (or update, when edited) one reply. The same event twice records once:
        the row is claimed first (`ON CONFLICT DO NOTHING`), so a concurrent duplicate
        waits and then finds the same text. An edit that leaves the reviewer no decision
        on the candidate reopens the request it had closed (`shown`: it had shown them
        the others' decisions, `reopen_request`). `original`: the reply as first posted
        (not an edit), which never replaces what was recorded: delivered after its edit
        (a retry), it would undo the edit. `at`: an edit's Slack time (its `edited.ts`);
        an edit older than the text recorded changes nothing, and nothing is recorded of
        a reply deleted (`delete_reply`), whenever its delivery comes."""
        meaning = parse_reply(text)
        with self.waiting_at_most(REPLY_WAIT_SECONDS), self.tx() as tx:
            if tx.execute(
                f"SELECT 1 FROM forgotten_threads WHERE {self.space} AND channel = ? AND ts = ?",
                [channel, thread_ts],
            ).fetchone():
                return ReplyOutcome(False, None, None, False)  # a forgotten candidate's thread
            if tx.execute(
                f"SELECT 1 FROM deleted_replies WHERE {self.space} AND channel = ? AND ts = ?",
                [channel, ts],
            ).fetchone():
                return ReplyOutcome(False, None, None, False)  # delivered after its deletion
            meaning = recorded_meaning(
                meaning,
                lambda n: bool(
                    tx.execute(
                        "SELECT 1 FROM questions q JOIN candidates c ON c.rid = q.candidate_rid"
                        f" WHERE c.{self.space} AND c.id = ? AND q.number = ?",
                        [candidate_id, n],
                    ).fetchone()
                ),
            )
            followup = meaning.followup_number
            now = utcnow()
            decided = meaning.decision is not None
            inserted = tx.execute(
                "INSERT INTO replies (ws, channel, ts, thread_ts, candidate_id, reviewer, text,"
                " decision, followup_number, followup_answer, recorded_at, reacted, edited_ts)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (ws, channel, ts) DO NOTHING RETURNING 1",
                [
                    self.ws,
                    channel,
                    ts,
                    thread_ts,
                    candidate_id,
                    reviewer,
                    text,
                    meaning.decision,
                    followup,
                    meaning.followup_answer,
                    now,
                    int(decided),
                    None if original else at,
                ],
            ).fetchone()
            if inserted:
                tx.execute(OPEN_COUNT_SQL, [self.ws, candidate_id])
                if decided:
                    close_requests(tx, self.ws, candidate_id, reviewer, "decision")
                return ReplyOutcome(True, meaning.decision, followup, decided)
            old = tx.execute(
                "SELECT text, reacted, edited_ts FROM replies"
                f" WHERE {self.space} AND channel = ? AND ts = ?" + self.engine.lock_rows,
                [channel, ts],
            ).fetchone()
            if original and old[0] != text:  # the edit came first: it stands
                return ReplyOutcome(False, None, None, False)
            if not original and _older(at, old[2] or ts):  # a newer edit came first
                return ReplyOutcome(False, None, None, False)
            # the time of the text now held: an edit back to the same text is newer still
            held_since = old[2] if original or at is None else at
            react = decided and not old[1]
            if old[0] == text:
                if react or held_since != old[2]:
                    tx.execute(
                        "UPDATE replies SET reacted = ?, edited_ts = ?"
                        f" WHERE {self.space} AND channel = ? AND ts = ?",
                        [int(bool(old[1]) or react), held_since, channel, ts],
                    )
                return ReplyOutcome(False, meaning.decision, followup, react)
            # an edit: it keeps when the reply was first recorded; a decision edited away
            # is no longer acknowledged (its ✅ is taken back)
            unreact = not decided and bool(old[1])
            tx.execute(
                "UPDATE replies SET text = ?, decision = ?, followup_number = ?,"
                " followup_answer = ?, edited_at = ?, reacted = ?, edited_ts = ?"
                f" WHERE {self.space} AND channel = ? AND ts = ?",
                [
                    text,
                    meaning.decision,
                    followup,
                    meaning.followup_answer,
                    now,
                    int(decided and (bool(old[1]) or react)),
                    held_since,
                    channel,
                    ts,
                ],
            )
            tx.execute(OPEN_COUNT_SQL, [self.ws, candidate_id])
            reopened = False
            if decided:
                close_requests(tx, self.ws, candidate_id, reviewer, "decision")
            else:  # the decision edited away: asked again, if it was the last
                reopened = reopen_request(tx, self.ws, candidate_id, reviewer, shown)
        return ReplyOutcome(True, meaning.decision, followup, react, reopened, unreact)

    def reply_of(self, channel: str, ts: str) -> Reply | None:
        """The reply recorded at (channel, ts), if any."""
        found = self._rows(
            f"SELECT candidate_id, reviewer, decision FROM replies WHERE {self.space}"
            " AND channel = ? AND ts = ?",
            [channel, ts],
        )
        return Reply(**found[0]) if found else None

    def delete_reply(
        self, channel: str, ts: str, shown: bool = False, thread_ts: str | None = None
    ) -> Removed | None:
        """Take the reply at (channel, ts) away (None: there was none). When it held its
        author's last decision on the candidate, the request that decision closed is open
        again (`shown`: the decision had shown them the others', `reopen_request`).

        The deletion is remembered, also of a reply not recorded yet in a thread about a
        candidate (`thread_ts`, its parent): a delivery of the reply or of its edit that
        comes after it records nothing."""
        with self.waiting_at_most(REPLY_WAIT_SECONDS), self.tx() as tx:
            row = tx.execute(
                f"DELETE FROM replies WHERE {self.space} AND channel = ? AND ts = ?"
                " RETURNING candidate_id, reviewer, decision, thread_ts",
                [channel, ts],
            ).fetchone()
            about = (
                (str(row[0]), str(row[3]))
                if row is not None
                else self._thread_about(tx, channel, thread_ts)
            )
            if about is not None:
                tx.execute(
                    "INSERT INTO deleted_replies (ws, channel, ts, thread_ts, candidate_id,"
                    " deleted_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (ws, channel, ts)"
                    " DO NOTHING",
                    [self.ws, channel, ts, about[1], about[0], utcnow()],
                )
            if row is None:
                return None
            candidate_id, reviewer, decision = str(row[0]), str(row[1]), row[2]
            tx.execute(OPEN_COUNT_SQL, [self.ws, candidate_id])
            reopened = decision is not None and reopen_request(
                tx, self.ws, candidate_id, reviewer, shown
            )
        return Removed(
            candidate_id=candidate_id, reviewer=reviewer, decision=decision, reopened=reopened
        )

    def _thread_about(self, tx: Tx, channel: str, thread_ts: str | None) -> tuple[str, str] | None:
        """(candidate id, thread ts) of the bot's post `thread_ts` about a candidate."""
        if not thread_ts:
            return None
        found = tx.execute(
            f"SELECT candidate_id FROM posts WHERE {self.space} AND channel = ? AND ts = ?",
            [channel, thread_ts],
        ).fetchone()
        return None if found is None else (str(found[0]), thread_ts)

    def tally(self, candidate_id: str) -> dict[str, int]:
        """How many reviewers decided what, each by their latest decision."""
        return decision_tally(self, candidate_id)
