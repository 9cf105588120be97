"""The one rule for the people a user has the bot DM about a candidate: reviewers asked
for their decision (`/candidate 邀请`, store/requests.py) and next interviewers handed the
loop (`/candidate 交接`, store/handoffs.py).

- The same person is not DMed twice in a day about the same candidate the same way
  (asked again, handed off again), whoever asks: each kind reads its own table for that.
- At most `per_hour` people (DEBRIEF_ASK_LIMIT_PER_HOUR) an hour at one user's word,
  asks and handoffs counted together: a user's hour is the same whichever command
  they type.

Exact across replicas: a writer of a user's DMs holds that user's lock (`_hold_sender`)
from the count to the last row it records, and each row is written with a
compare-and-set against one written in the last day."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from .base import Base, Tx
from .request_models import Asks

ASK_AGAIN_AFTER = timedelta(days=1)  # one person DMed about a candidate is not DMed again
ASK_WINDOW = timedelta(hours=1)  # a sender's limit counts the people DMed in this long

Read = Callable[[str, list[Any]], list[dict[str, Any]]]


def stamp(at: datetime) -> str:
    """A UTC time as the store keeps it (ISO, microseconds: compared bytewise)."""
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def moment(now: datetime | None) -> datetime:
    return (now or datetime.now(UTC)).astimezone(UTC)


class DmLimits(Base):
    """Who of the people a user wants DMed about a candidate the rule lets through."""

    def _hold_sender(self, tx: Tx, sender: str) -> None:
        """Until `tx` ends, no other writer (on any replica) counts or records `sender`'s
        DMs: asks and handoffs take the same lock."""
        self._one_at_a_time(tx, f"debrief:asks:{self.ws:d}:{sender}")

    def _sent_in_hour(self, read: Read, sender: str, at: datetime) -> list[str]:
        """When each person `sender` had DMed in the hour before `at` was (asked or handed
        off), oldest first."""
        since = stamp(at - ASK_WINDOW)
        bytewise = self.engine.bytewise
        found = read(
            f"SELECT asked_at AS at FROM requests WHERE {self.space} AND asked_by = ?"
            f" AND asked_at {bytewise} >= ?"
            f" UNION ALL SELECT handed_at AS at FROM handoffs WHERE {self.space}"
            f" AND handed_by = ? AND handed_at {bytewise} >= ?",
            [sender, since, sender, since],
        )
        return sorted(str(r["at"]) for r in found)  # ISO UTC strings: bytewise is time order

    def _let_through(
        self,
        read: Read,
        wanted: Iterable[str],
        recent: set[str],
        sender: str,
        per_hour: int,
        at: datetime,
    ) -> Asks:
        """Of `wanted` (in order, each once): who is DMed now (`asked`), who was DMed about
        the candidate in the last day (`recent`: `already`), whom the sender's hourly
        limit leaves out (`limited`) and when the hour of the DM that frees the next
        place ends (`retry_at`)."""
        people = list(dict.fromkeys(wanted))
        per_hour = max(1, per_hour)
        times = self._sent_in_hour(read, sender, at) if people else []
        fresh = [p for p in people if p not in recent]
        room = max(0, per_hour - len(times))
        asked, limited = fresh[:room], fresh[room:]
        retry_at = None
        if limited:
            times += [stamp(at)] * len(asked)
            first = datetime.fromisoformat(times[max(0, len(times) - per_hour)])
            retry_at = stamp(first + ASK_WINDOW)
        return Asks(
            asked=asked,
            already=[p for p in people if p in recent],
            limited=limited,
            retry_at=retry_at,
        )
