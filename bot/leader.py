"""One replica watches the transcripts folder: a leader gate around the FolderWatcher.

With several `debrief serve` replicas on one PostgreSQL database, each would otherwise
watch and index the same folder. `LeaderGate` tries to take a PostgreSQL advisory lock
(`store.try_lead`) every `interval` seconds on a connection of its own; the replica that
holds it runs the watcher, the others stand by. The lock belongs to the leader's database
session, so when that replica dies (or loses its connection) PostgreSQL releases it and
another replica takes over within `interval` seconds. A leader that finds its session
gone stops its watcher at once, so two never index at the same time for long (and
should they overlap, saves are upserts keyed by the candidate's id).

On SQLite (one machine, one file) there is nothing to elect: the watcher just runs.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from store.factory import Backend, is_shared

log = logging.getLogger("debrief.leader")

LEAD_INTERVAL_S = 1.0
LOCK_NAME = "debrief:watcher"


class Stoppable(Protocol):
    def stop(self, timeout: float = 10) -> None: ...


@runtime_checkable
class Electable(Protocol):
    def try_lead(self, name: str) -> bool: ...
    def still_leading(self) -> bool: ...
    def step_down(self, name: str) -> None: ...


class LeaderGate:
    """Runs `start()`'s watcher while this replica holds the lock; `stop()` ends it all."""

    def __init__(
        self,
        store: Electable,
        start: Callable[[], Stoppable],
        interval: float = LEAD_INTERVAL_S,
        name: str = LOCK_NAME,
    ) -> None:
        self.store = store
        self.start_watcher = start
        self.interval = interval
        self.name = name
        self.watcher: Stoppable | None = None
        self.leading = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="debrief-leader", daemon=True)

    def start(self) -> LeaderGate:
        self._thread.start()
        return self

    def _loop(self) -> None:
        said_standby = False
        while not self._stop.is_set():
            try:
                if self.watcher is None:
                    if self.store.try_lead(self.name):
                        log.info("this replica leads: it watches the transcripts folder")
                        self.watcher = self.start_watcher()
                        self.leading.set()
                    elif not said_standby:
                        log.info("another replica watches the transcripts folder; standing by")
                        said_standby = True
                elif not self.store.still_leading():
                    self._resign("the database session that held the lead is gone")
            except Exception as exc:  # the database is away: no lead until it is back
                if self.watcher is not None:
                    self._resign(f"cannot reach the database: {exc}")
                else:
                    log.warning("cannot reach the database to elect a watcher: %s", exc)
            self._stop.wait(self.interval)
        if self.watcher is not None:
            self._resign("serve is stopping")
            try:  # on this thread: the lock belongs to its connection
                self.store.step_down(self.name)
            except Exception as exc:  # the lock ends with the session anyway
                log.info("could not hand the lead back (it ends with the session): %s", exc)

    def _resign(self, why: str) -> None:
        log.info("this replica no longer leads (%s): its watcher stops", why)
        watcher, self.watcher = self.watcher, None
        self.leading.clear()
        if watcher is not None:
            watcher.stop(timeout=5)

    def stop(self, timeout: float = 10) -> None:
        self._stop.set()
        self._thread.join(timeout)


def watch_as_leader(store: Backend, start: Callable[[], Stoppable]) -> Stoppable:
    """The watcher `start()` makes: behind a leader gate when the database is shared."""
    if is_shared(store.path) and isinstance(store, Electable):
        return LeaderGate(store, start).start()
    return start()
