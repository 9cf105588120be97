"""Keeps DEBRIEF_TRANSCRIPTS indexed while the bot serves: a polling thread.

Polling (a stat per file, every few seconds) is cheap next to reading files, works
on every file system, and never blocks a reply: index runs write in their own
transactions on their own connection, and WAL keeps readers going meanwhile.
"""

from __future__ import annotations

import logging
import threading

from store.db import Store
from store.indexer import default_workers, index_paths

logger = logging.getLogger("debrief.watcher")


class FolderWatcher:
    def __init__(self, store: Store, folder: str, interval: float = 2.0) -> None:
        self.store = store
        self.folder = folder
        self.interval = interval
        self.runs = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="debrief-watcher", daemon=True)

    def start(self) -> FolderWatcher:
        self._thread.start()
        return self

    def stop(self, timeout: float = 10) -> None:
        self._stop.set()
        self._thread.join(timeout)

    def run_once(self) -> None:
        result = index_paths(self.store, [self.folder], workers=default_workers())
        self.runs += 1
        if result.indexed or result.removed or (result.failed and self.runs == 1):
            logger.info(
                "transcripts: %d indexed, %d unchanged, %d removed, %d failed",
                len(result.indexed),
                len(result.unchanged),
                len(result.removed),
                len(result.failed),
            )
        for failure in result.failed if self.runs == 1 else []:
            logger.warning("cannot index %s: %s", failure.path, failure.error)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.run_once()
            except Exception:
                logger.exception("indexing %s failed; trying again", self.folder)
            self._stop.wait(self.interval)
