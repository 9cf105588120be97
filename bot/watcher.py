"""Keeps DEBRIEF_TRANSCRIPTS indexed while the bot serves, and rests when nothing changes.

At start, one full rescan (what changed while the bot was down). Then file-system events
(`watchfiles`: inotify, FSEvents, ReadDirectoryChangesW) say which paths changed; a file
is indexed once its writer has been quiet for `quiet` seconds (0.5 s), so a transcript
copied in slowly is read once, whole. Where events cannot be set up (a network file
system, the inotify watch limit) or with DEBRIEF_WATCH=poll, the folder is polled
instead: a stat of every file every `interval` seconds.

Index runs write in their own short transactions on their own connection; WAL keeps
lookups going meanwhile. Each file is read in a process of its own, bounded in time and
memory (store/transcripts/bounded.py), never in the process that answers Slack; one
whose reading was stopped is not read again until it changes.

Installed in many workspaces (`WorkspacesWatcher`), each installed workspace's
transcripts are in a folder named by its Slack key, `DEBRIEF_TRANSCRIPTS/T…/` (or `E…/`
for an organisation), indexed into that workspace's data space; files at the top and
folders no installed workspace owns are left alone (one log line a rescan), and a
workspace installed meanwhile is picked up at the next rescan (every
`SPACES_EVERY_S` with file-system events).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from typing import Literal

from store.errors import DiskFullError
from store.factory import Backend
from store.indexer import StoppedFiles, index_paths
from store.models import IndexResult
from store.spaces import SpaceStore
from store.transcripts.files import display_path
from store.workspace_models import Workspace

logger = logging.getLogger("debrief.watcher")

QUIET_SECONDS = 0.5  # a file counts once nothing wrote to it for this long
WAKE_MS = 200  # how often the event loop looks at files waiting for quiet (idle: a no-op)
SPACES_EVERY_S = 30.0  # with events: how often the workspaces installed are looked up

WatchMode = Literal["auto", "poll"]
Hands = Callable[[Backend], bool]
"""Whether the data space a store reads hands its hiring decisions to an ATS (`serve`:
bot/webhook.py `hands_decisions`): then an index run tells the ATS of a decided interview
whose file now names another person (store/indexer.py `index_paths`)."""


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
        hands: Hands | None = None,
    ) -> None:
        self.store = store
        self.hands = hands
        self.folder = os.path.abspath(folder)
        self.interval = interval
        self.mode = mode
        self.quiet = quiet
        self.runs = 0
        self.using: Literal["events", "poll", ""] = ""
        self.ready = threading.Event()  # set after the first full rescan
        self.pending: dict[str, float] = {}  # changed paths -> when they last changed
        # files whose reading was stopped (too long, too much memory), not read again
        # until their bytes change (index_paths)
        self.stopped: StoppedFiles = {}
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
        self._report(self._index(self.store, [self.folder]))

    def _index(self, store: Backend, paths: list[str], within: str | None = None) -> IndexResult:
        """An index run of `paths` into the data space `store` reads."""
        webhook = self.hands is not None and self.hands(store)
        return index_paths(store, paths, within=within, stopped=self.stopped, webhook=webhook)

    def _report(self, result: IndexResult, where: str = "") -> None:
        self.runs += 1
        if result.indexed or result.removed or (result.failed and self.runs == 1):
            logger.info(
                "transcripts%s: %d indexed, %d unchanged, %d removed, %d failed",
                where,
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
            done = self._index(self.store, present, within=self.folder)
            self._report(done)

    def _remove_gone(self, gone: list[str], store: Backend | None = None) -> None:
        store = store or self.store
        shown = [display_path(p) for p in gone]
        removed: list[str] = []
        for source, interviews in store.file_interviews().items():
            under = any(source == s or source.startswith(s.rstrip(os.sep) + os.sep) for s in shown)
            if under and not os.path.lexists(source):  # every interview the file held
                removed.extend(cid for cid, _part in interviews if store.remove(cid))
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

    def _tick(self) -> None:
        """Called at every wake-up of the event loop (a few times a second)."""

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
            self._tick()
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


class WorkspacesWatcher(FolderWatcher):
    """Installed in many workspaces: `folder/<slack key>/` kept indexed into the data
    space of the workspace (or organisation) installed with that key, one index run
    per space with that space's view of the store."""

    def __init__(
        self,
        store: Backend,
        folder: str,
        interval: float = 2.0,
        mode: WatchMode = "auto",
        quiet: float = QUIET_SECONDS,
        spaces_every: float = SPACES_EVERY_S,
        hands: Hands | None = None,
    ) -> None:
        super().__init__(store, folder, interval, mode, quiet, hands)
        assert isinstance(store, SpaceStore)
        self._spaces_of: SpaceStore = store
        self.spaces_every = spaces_every
        self._installed: dict[str, int] = {}  # slack key -> data space, as last looked up
        self._looked_at = 0.0
        self._skipped: set[str] = set()  # what the last log line said was left alone

    def installed(self) -> dict[str, int]:
        """The keys of the workspaces installed now, and their data spaces."""
        spaces: list[Workspace] = self._spaces_of.installed_spaces()
        self._installed = {w.slack_key: w.ws for w in spaces if w.slack_key}
        self._looked_at = time.monotonic()
        return self._installed

    def run_once(self) -> None:
        """A full rescan of each installed workspace's folder, into its space."""
        installed = self.installed()
        skipped: set[str] = set()
        for name in sorted(os.listdir(self.folder)):
            path = os.path.join(self.folder, name)
            if name.startswith("."):
                continue
            if name in installed and os.path.isdir(path):
                view = self.store.in_workspace(installed[name])
                self._report(self._index(view, [path]), f" of {name}")
            else:
                skipped.add(name)
        self._say_skipped(skipped, fresh=True)

    def _say_skipped(self, names: set[str], fresh: bool = False) -> None:
        """One log line for what is left alone, when that changed: at a rescan (`fresh`,
        all of it), or for changes under folders not said yet."""
        new = names if fresh else names - self._skipped
        if (fresh and names == self._skipped) or not new:
            return
        self._skipped = set(names) if fresh else self._skipped | names
        shown = sorted(new)
        logger.info(
            "transcripts: left alone in %s (not in the folder of an installed workspace,"
            " %s/<T… or E…>/): %s%s",
            self.folder,
            self.folder,
            ", ".join(shown[:10]),
            f" and {len(shown) - 10} more" if len(shown) > 10 else "",
        )

    def index_changed(self, paths: Iterable[str]) -> None:
        """Changed paths, each indexed into the space of the workspace whose folder
        holds it; those elsewhere left alone."""
        by_key: dict[str, list[str]] = {}
        skipped: set[str] = set()
        for path in sorted(set(paths)):
            rel = os.path.relpath(path, self.folder)
            if rel == "." or rel.startswith(".."):
                continue
            key = rel.split(os.sep)[0]
            if key.startswith(".") or _hidden(self.folder, path):
                continue
            if key in self._installed:
                by_key.setdefault(key, []).append(path)
            else:
                skipped.add(key)
        # uninstalled since the last look: left alone now, not from the next look on
        still = {w.slack_key: w.ws for w in self._spaces_of.installed_spaces()} if by_key else {}
        skipped |= {key for key in by_key if key not in still}
        if skipped:
            self._say_skipped(skipped)
        for key, changed in by_key.items():
            if key not in still:
                continue
            view = self.store.in_workspace(still[key])
            present = [p for p in changed if os.path.lexists(p)]
            gone = [p for p in changed if not os.path.lexists(p)]
            if gone:
                self._remove_gone(gone, view)
            if present:
                mine = os.path.join(self.folder, key)
                done = self._index(view, present, within=mine)
                self._report(done, f" of {key}")

    def _tick(self) -> None:
        """A workspace installed (or uninstalled) since the last look: rescan."""
        if time.monotonic() - self._looked_at < self.spaces_every:
            return
        before = dict(self._installed)
        if self.installed() != before:
            self._rescan()


def folder_watcher(
    store: Backend,
    folder: str,
    mode: WatchMode = "auto",
    many_workspaces: bool = False,
    interval: float = 2.0,
    hands: Hands | None = None,
) -> FolderWatcher:
    """The watcher `serve` keeps DEBRIEF_TRANSCRIPTS indexed with: one folder into data
    space 0, or, installed in many workspaces, a folder a workspace (not started)."""
    kind = WorkspacesWatcher if many_workspaces else FolderWatcher
    return kind(store, folder, interval=interval, mode=mode, hands=hands)
