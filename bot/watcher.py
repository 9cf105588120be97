"""Keeps DEBRIEF_TRANSCRIPTS indexed while the bot serves, and rests when nothing changes.

At start, one full rescan (what changed while the bot was down). Then file-system events
(`watchfiles`: inotify, FSEvents, ReadDirectoryChangesW) say which paths changed; a file
is indexed once its writer has been quiet for `quiet` seconds (0.5 s), so a transcript
copied in slowly is read once, whole. Where events cannot be set up (a network file
system, the inotify watch limit) or with DEBRIEF_WATCH=poll, the folder is polled
instead: a stat of every file every `interval` seconds.

Index runs write in their own short transactions on their own connection; WAL keeps
lookups going meanwhile.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterable
from typing import Literal

from store.errors import DiskFullError
from store.factory import Backend
from store.indexer import default_workers, index_paths
from store.models import IndexResult
from store.transcripts.files import display_path

logger = logging.getLogger("debrief.watcher")

QUIET_SECONDS = 0.5  # a file counts once nothing wrote to it for this long
WAKE_MS = 200  # how often the event loop looks at files waiting for quiet (idle: a no-op)

WatchMode = Literal["auto", "poll"]


def _hidden(folder: str, path: str) -> bool:
    """Skipped as index runs skip them: dot files and anything in a dot folder."""
    rel = os.path.relpath(path, folder)
    return any(part.startswith(".") for part in rel.split(os.sep))


class FolderWatcher:
    def __init__(
        self,
        store: Backend,
        folder: str,
        interval: float = 2.0,
        mode: WatchMode = "auto",
        quiet: float = QUIET_SECONDS,
    ) -> None:
        self.store = store
        self.folder = os.path.abspath(folder)
        self.interval = interval
        self.mode = mode
        self.quiet = quiet
        self.runs = 0
        self.using: Literal["events", "poll", ""] = ""
        self.ready = threading.Event()  # set after the first full rescan
        self.pending: dict[str, float] = {}  # changed paths -> when they last changed
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="debrief-watcher", daemon=True)

    def start(self) -> FolderWatcher:
        self._thread.start()
        return self

    def stop(self, timeout: float = 10) -> None:
        """Stop taking changes; an index run under way finishes its current file first."""
        self._stop.set()
        self._thread.join(timeout)

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    # -- index runs ------------------------------------------------------------------------

    def run_once(self) -> None:
        """A full rescan: every file's size and time, new and changed files indexed,
        removed ones removed."""
        self._report(index_paths(self.store, [self.folder], workers=default_workers()))

    def _report(self, result: IndexResult) -> None:
        self.runs += 1
        if result.indexed or result.removed or (result.failed and self.runs == 1):
            logger.info(
                "transcripts: %d indexed, %d unchanged, %d removed, %d failed",
                len(result.indexed),
                len(result.unchanged),
                len(result.removed),
                len(result.failed),
            )
        for failure in result.failed:
            logger.warning("cannot index %s: %s", failure.path, failure.error)

    def index_changed(self, paths: Iterable[str]) -> None:
        """Index the paths that changed: files and folders that exist are (re)indexed,
        those that are gone have their transcripts removed."""
        present: list[str] = []
        gone: list[str] = []
        for path in sorted(set(paths)):
            if path != self.folder and _hidden(self.folder, path):
                continue
            (present if os.path.lexists(path) else gone).append(path)
        if gone:
            self._remove_gone(gone)
        if present:
            self._report(index_paths(self.store, present, workers=default_workers()))

    def _remove_gone(self, gone: list[str]) -> None:
        shown = [display_path(p) for p in gone]
        removed: list[str] = []
        for source, (cid, *_rest) in self.store.file_state().items():
            under = any(source == s or source.startswith(s.rstrip(os.sep) + os.sep) for s in shown)
            if under and not os.path.lexists(source) and self.store.remove(cid):
                removed.append(cid)
        if removed:
            logger.info("transcripts: %d removed", len(removed))

    # -- the loop --------------------------------------------------------------------------

    def _loop(self) -> None:
        if self.mode == "auto":
            try:
                self._watch_events()
            except Exception as exc:  # no events here: fall back on polling
                if self.stopping:
                    return
                logger.warning(
                    "file-system events unavailable for %s (%s): polling every %.0f s instead",
                    self.folder,
                    exc,
                    self.interval,
                )
            else:
                return
        self._poll()

    def _rescan(self) -> None:
        try:
            self.run_once()
        except DiskFullError as exc:  # one line; the next pass finishes the job
            logger.error("indexing %s stopped: %s", self.folder, exc)
        except Exception:
            logger.exception("indexing %s failed; trying again", self.folder)
        finally:
            self.ready.set()

    def _poll(self) -> None:
        self.using = "poll"
        while not self._stop.is_set():
            self._rescan()
            self._stop.wait(self.interval)

    def _watch_events(self) -> None:
        from watchfiles import watch

        pending = self.pending
        first = True
        for changes in watch(
            self.folder,
            stop_event=self._stop,
            step=50,
            debounce=int(self.quiet * 1000),
            rust_timeout=WAKE_MS,
            yield_on_timeout=True,
            watch_filter=None,
            ignore_permission_denied=True,
        ):
            if first:  # the watch is set up: changes from now on are queued
                first = False
                self.using = "events"
                self._rescan()
                logger.info("watching %s for changes", self.folder)
            now = time.monotonic()
            for _change, path in changes:
                pending[path] = now
            due = [p for p, at in pending.items() if now - at >= self.quiet]
            if not due:
                continue
            for p in due:
                del pending[p]
            try:
                self.index_changed(due)
            except DiskFullError as exc:
                logger.error("indexing %s stopped: %s", self.folder, exc)
                for p in due:  # tried again at the next change or wake-up
                    pending.setdefault(p, now + self.interval)
            except Exception:
                logger.exception("indexing changes in %s failed; rescanning", self.folder)
                self._rescan()
        if not self.stopping:
            raise RuntimeError("the file-system watch ended")
