"""Index runs: folders of files -> parser -> store, incrementally.

Unchanged files (same size and mtime, or else same content hash) are skipped,
changed ones replaced, files gone from an indexed folder removed. Every file is
written whole or not at all; the writes share a transaction that commits every
`batch_seconds` (see Store.batch). A file that fails is reported and skipped:
it never stops the rest. That holds for data the database refuses too (UnstorableError),
in a save or when the batch holding it commits: the batch is then written again a file
per transaction, and only the file it cannot hold fails ("cannot be stored"). A
database that cannot be written at all (unreachable, its disk full: StoreError) ends
the run.

Not everything in a folder is a transcript, and that is no failure: a file with
none of the transcript labels (a README, notes) and a special file (a FIFO, a
socket, a device: known from `stat`, never opened) are reported in `skipped`. A
`.debriefignore` in an indexed folder or below it names files to leave out, in
gitignore syntax (relative to the folder that holds it); a file any of them
ignores is not indexed, and leaves the index if it was.

One file, one id: a file's id is its name without the extension, unless another
live file already has that id (the same name in two folders, or names that differ
only in bytes that are not UTF-8); then it is the name plus `_` and 8 hex digits
of a hash of its path relative to the indexed folder. A file keeps the id it got
for as long as it stays indexed, so ids never flip between files from run to run.
A file of several interviews (一面, 二面, HR面: issue 46) gives each an id of its own,
the first the file's id itself, the others the file's id plus `-2`, `-3`, … in file
order (`interview_ids`): a file that gains a round (an 二面 written under the 一面) keeps
its first interview's id, and with it that interview's reviews, decisions and posts.
Every one of them must be free for the file to take that id. A file read again with fewer interviews loses
the ones past its last; a file removed, all of them.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import closing
from pathlib import Path

from .api import IndexTarget
from .errors import UnstorableError
from .models import IndexResult, IndexWarning, ParseFailure, SkippedFile, ZoomRecording
from .schema import REPARSE_MTIME
from .transcripts.bounded import Stopped, bounded_map
from .transcripts.errors import READ_TOO_LONG, READER_FAILED, ParseError
from .transcripts.files import (
    Found,
    Prepared,
    collect,
    display_path,
    failure,
    link_refused,
    prepare,
    source_path,
    special_file,
)
from .transcripts.formats import MAX_DOCUMENT_BYTES
from .transcripts.parser import content_hash, transcript_id
from .transcripts.warnings import warnings_of
from .zoom import with_meeting

Progress = Callable[[int, int], None]
logger = logging.getLogger(__name__)


def unstorable(shown: str, exc: UnstorableError) -> ParseFailure:
    """A file the database cannot hold, and what the database said."""
    return ParseFailure(
        path=shown,
        error=f"cannot be stored: {exc}",
        code="unstorable",
        params={"detail": str(exc)},
    )


PARALLEL_FROM = 400  # files to read before more than one reading process pays for its start
_TASK = 32  # files a reading process is handed at a time
_AHEAD = 768  # files handed out before the writer takes them (two tasks a process at least)


def _prepared(paths: list[str], workers: int) -> Generator[Prepared, None, None]:
    """Each file read and parsed, in order: in `workers` processes (one for a small run),
    each file bounded in time and memory (transcripts/bounded.py `bounded_map`): a file
    that runs past them, or whose process dies (the out-of-memory killer), is skipped as
    stopped (READ_TOO_LONG), and the files after it are read by another process. Nothing
    is read in this process, and every way this ends leaves nothing waiting: closed early
    (a full disk), its processes are killed; should this process die, they end too.
    `workers` 0 reads here, in this process: only for callers that read files they made
    themselves (tests)."""
    if workers < 1:
        yield from map(prepare, paths)
        return
    processes = workers if len(paths) >= PARALLEL_FROM else 1
    read = bounded_map(prepare, paths, processes, task=_TASK, ahead=_AHEAD)
    for path, item in zip(paths, read, strict=True):
        yield item if isinstance(item, Prepared) else _unread(path, item)


def _unread(path: str, exc: BaseException) -> Prepared:
    """A file whose reading was stopped (past its time or memory), or whose reader raised
    what `prepare` does not catch: skipped with that reason, and its size and time."""
    shown = source_path(path)
    if isinstance(exc, Stopped):  # (the run reports it, skipped with its reason)
        logger.info("reading %s was stopped: too long or too much memory", shown)
    else:
        logger.warning("the reader stopped on %s: %s: %.200s", shown, type(exc).__name__, exc)
    out = Prepared(
        path, shown, skipped=READ_TOO_LONG if isinstance(exc, Stopped) else READER_FAILED
    )
    try:
        st = os.stat(path)
        out.mtime_ns, out.size = st.st_mtime_ns, st.st_size
    except OSError:
        return out
    if isinstance(exc, Stopped):  # its hash: the same bytes are not read again (`stopped`)
        out.hash = _digest(path)
    return out


StoppedFiles = dict[str, tuple[int, int, str]]
"""Files whose reading was stopped: path -> (mtime_ns, size, content hash)."""


def _digest(path: str) -> str:
    """The content hash of a file (its bytes only: never parsed), "" when it cannot be
    read or is not a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb") as fh:
            if special_file(os.fstat(fh.fileno()).st_mode) is not None:
                return ""
            return content_hash(fh.read(MAX_DOCUMENT_BYTES + 1))
    except OSError:
        return ""


def _stopped_before(path: str, st: os.stat_result, stopped: StoppedFiles) -> bool:
    """Whether the file at `path` is one whose reading was stopped, unchanged since: the
    same time and size, or else the same bytes (touched, copied back): not read again.
    A file that changed is read again."""
    known = stopped.get(path)
    if known is None:
        return False
    mtime_ns, size, digest = known
    if (st.st_mtime_ns, st.st_size) == (mtime_ns, size):
        return True
    if st.st_size != size or not digest or _digest(path) != digest:
        return False
    stopped[path] = (st.st_mtime_ns, st.st_size, digest)
    return True


def _chunks(items: Iterator[Prepared], seconds: float, most: int = 256) -> Iterator[list[Prepared]]:
    """Parsed files in groups: up to `most` files, or what `seconds` of reading gave."""
    chunk: list[Prepared] = []
    started = time.monotonic()
    for item in items:
        chunk.append(item)
        if len(chunk) >= most or time.monotonic() - started >= seconds:
            yield chunk
            chunk = []
            started = time.monotonic()
    if chunk:
        yield chunk


def default_workers() -> int:
    """Leave one core to the database writer (and read in one process at least)."""
    return max(1, (os.cpu_count() or 1) - 1)


def interview_ids(base: str, count: int) -> list[str]:
    """The ids of a file's `count` interviews, the file's id being `base`: `base` itself
    for the first (the only one in a file of one), then `base-2`, `base-3`, … in file
    order. The first keeps the file's id so that a file which gains a round, or loses
    all but its first, keeps the reviews and posts that name it."""
    return [base] + [f"{base}-{k}" for k in range(2, count + 1)]


def _short_hash(path: str, root: str | None) -> str:
    where = os.fsencode(path)
    if root is not None:
        where = os.path.relpath(where, os.fsencode(root))
    return hashlib.sha256(where).hexdigest()[:8]


class _Ids:
    """Which file has which id, for one run: a known file keeps its id; a new one gets
    its stem, or the stem plus a short hash of its path when the stem is someone else's.

    An id is someone else's while a live file has it, and while it is retired (its
    candidate was removed, but posts and reviews still name it) for any file but the
    one it last stood for. A file that moved takes its id along only with the same
    content: a different file of the same name never inherits another's reviews.

    A file of several interviews has one id a interview (`interview_ids`): the file's id
    is taken only when every one of them is free."""

    def __init__(
        self,
        state: dict[str, tuple[str, str, int, int]],
        seen: set[str],
        roots: list[str],
        retired: dict[str, tuple[str, str]] | None = None,
        files: dict[str, list[tuple[str, int]]] | None = None,
    ) -> None:
        self.state = state
        # source -> (id, part) of each interview indexed from it (file order)
        self.files = (
            files
            if files is not None
            else {source: [(cid, 0)] for source, (cid, _h, _m, _s) in state.items()}
        )
        self.owner = {cid: source for source, found in self.files.items() for cid, _p in found}
        self.seen = seen
        self.prefixes = tuple(source_path(r).rstrip(os.sep) + os.sep for r in roots)
        self.retired = retired or {}

    def live(self, source: str) -> bool:
        """Found in this run, or (outside the folders indexed) still on disk."""
        if source in self.seen:
            return True
        return not source.startswith(self.prefixes) and os.path.exists(source)

    def known(self, source: str) -> list[str]:
        """The ids of the interviews indexed from `source`, in file order."""
        return [cid for cid, _part in self.files.get(source, [])]

    def _file_id(self, source: str) -> str | None:
        """The id `source` was indexed under (its interviews' ids without `-k`)."""
        found = self.files.get(source)
        if not found:
            return None
        cid, part = found[0]
        return cid.removesuffix(f"-{part:d}") if part > 1 else cid

    def pick(self, found: Found, content_hash: str, count: int = 1) -> list[str]:
        """The ids of the file's `count` interviews: those it has, else the first of its
        choices whose ids are all free."""
        shown = source_path(found.path)
        base = transcript_id(display_path(os.path.basename(found.path)))
        choices = [
            base,
            f"{base}_{_short_hash(found.path, found.root)}",
            f"{base}_{_short_hash(os.path.abspath(found.path), None)}",
        ]
        had = self._file_id(shown)
        if had is not None:  # a known file keeps its id
            choices.insert(0, had)
        for file_id in choices:
            cids = interview_ids(file_id, count)
            if all(self._free(cid, shown, content_hash) for cid in cids):
                return cids
        owner = self.owner.get(base) or ""
        raise ParseError(
            f"id {base} is already used by {owner}",
            code="id_taken",
            params={"id": base, "owner": owner},
        )

    def _free(self, cid: str, shown: str, content_hash: str) -> bool:
        other = self.owner.get(cid)
        if other == shown:
            return True
        if other is None:
            gone = self.retired.get(cid)
            return gone is None or content_hash in (gone[0], "") or gone[1] == shown
        if self.live(other):
            return False
        moved_from = self.state.get(other)  # a file gone from there: moved here?
        return moved_from is not None and moved_from[1] == content_hash

    def take(self, cids: list[str], shown: str) -> None:
        for cid in cids:
            self.owner[cid] = shown

    def drop(self, cid: str, shown: str) -> None:
        """`cid` is no longer an interview of `shown` (removed from the index)."""
        if self.owner.get(cid) == shown:
            del self.owner[cid]


_REPORTED = (
    "indexed",
    "unchanged",
    "removed",
    "failed",
    "skipped",
    "forgotten",
    "warnings",
)


class _Mark:
    """Where a run's report and its ids stood before some writes: what to go back to
    when a transaction holding those writes is rolled back."""

    def __init__(self, result: IndexResult, ids: _Ids, done: int = 0) -> None:
        self.lengths = [len(getattr(result, name)) for name in _REPORTED]
        self.owner = dict(ids.owner)
        self.files = dict(ids.files)
        self.done = done

    def restore(self, result: IndexResult, ids: _Ids) -> None:
        for name, length in zip(_REPORTED, self.lengths, strict=True):
            del getattr(result, name)[length:]
        ids.owner.clear()
        ids.owner.update(self.owner)
        ids.files.clear()
        ids.files.update(self.files)


def index_paths(
    store: IndexTarget,
    paths: Iterable[str | Path],
    progress: Progress | None = None,
    workers: int = 0,
    batch_seconds: float = 0.25,
    within: str | None = None,
    stopped: StoppedFiles | None = None,
    webhook: bool = False,
) -> IndexResult:
    """Index files and folders. `workers` > 0 parses in that many processes, each file
    bounded in time and memory, none in this one (`_prepared`; `debrief index` always);
    0 parses here (callers that index files they made themselves: tests);
    `batch_seconds` is how long a write transaction may last (see Store.batch).
    A symbolic link is followed only to a file inside the folder it was found in (or
    `within`, the folder the files named belong to: the watcher's): a link to a file
    elsewhere, or to a folder, is skipped and said, and leaves the index.

    With `stopped` (what `serve` reads: the watcher, uploads), files are read in bounded
    processes whatever `workers` says; one stopped is kept in `stopped` (its path: its
    time, size and content hash) and not read again until its bytes change, so a file
    built to take minutes is not read every few seconds for ever.

    With `webhook` (the data space hands its hiring decisions to an ATS: bot/webhook.py
    `hands_decisions`), a save that gives a decided interview another person (its file
    now names them) writes the ATS's event of each person whose decision it changed
    (store/candidates.py `save`)."""
    found_files, roots, failed = collect(paths)
    result = IndexResult(failed=failed)
    files: list[Found] = []
    for found in found_files:
        why = link_refused(found.path, found.root or within)
        if why is None:
            files.append(found)
        else:
            result.skipped.append(SkippedFile(path=source_path(found.path), reason=why))
    refused = [s.path for s in result.skipped]  # links not followed: out of the index
    state = store.file_state()
    forgotten = store.forgotten()
    meetings = store.meeting_facts()  # files a meeting tool brought (issue 48): by path
    seen = {source_path(f.path) for f in files}
    ids = _Ids(state, seen, roots, store.retired(), store.file_interviews())
    total = len(files)
    done = 0
    todo: list[Found] = []
    for found in files:  # unchanged size and time: skipped without reading
        shown = source_path(found.path)
        known = state.get(shown)
        try:
            st = os.stat(found.path)
        except OSError:
            todo.append(found)  # prepare() says what is wrong with it
            continue
        reason = special_file(st.st_mode)
        if reason is None and stopped is not None and _stopped_before(found.path, st, stopped):
            reason = READ_TOO_LONG  # stopped before, unchanged since: not read again
        if reason is not None:  # from stat: a FIFO is never opened
            result.skipped.append(SkippedFile(path=shown, reason=reason))
            done += 1
        elif known and (known[2], known[3]) == (st.st_mtime_ns, st.st_size):
            result.unchanged.extend(ids.known(shown))
            done += 1
        else:
            todo.append(found)
    if progress is not None:
        progress(done, total)
    by_path = {f.path: f for f in todo}

    def write(item: Prepared) -> None:
        try:
            _write_one(store, item, by_path[item.path], ids, forgotten, result, webhook, meetings)
        except ParseError as exc:
            result.failed.append(failure(item.shown, exc))
        except UnstorableError as exc:
            # a file the parser let through but the database cannot hold: it fails alone
            result.failed.append(unstorable(item.shown, exc))

    # Files are read and parsed outside any transaction; what was parsed is then written
    # in short transactions, so an index run never holds the write lock while it reads.
    # A run that stops (a full disk) stops its workers then and there, not when the
    # error is forgotten.
    if stopped is not None:  # what serve reads: never in the process that answers Slack
        workers = max(1, workers)
    with closing(_prepared([f.path for f in todo], workers)) as parsed:
        for chunk in _chunks(parsed, min(batch_seconds, 0.5)):
            if stopped is not None:
                stopped.update(
                    (item.path, (item.mtime_ns, item.size, item.hash))
                    for item in chunk
                    if item.skipped == READ_TOO_LONG
                )
            before = _Mark(result, ids, done)
            try:
                with store.batch(batch_seconds) as tick:
                    for item in chunk:
                        write(item)
                        tick()
                        done += 1
                        if progress is not None:
                            progress(done, total)
            except UnstorableError:
                # A commit refused the batch (on PostgreSQL the frequency rows are written at
                # the commit): all of it since the last commit was rolled back. The chunk is
                # written again a file per transaction, so only what cannot be stored fails;
                # what an earlier commit of the chunk kept is saved again, the same.
                before.restore(result, ids)
                for item in chunk:
                    mark = _Mark(result, ids)
                    try:
                        with store.batch(batch_seconds):
                            write(item)
                    except UnstorableError as exc:
                        mark.restore(result, ids)
                        result.failed.append(unstorable(item.shown, exc))
                done = before.done + len(chunk)
                if progress is not None:
                    progress(done, total)
    for root in [*roots, *refused]:
        prefix = source_path(root).rstrip(os.sep) + os.sep
        for source, interviews in ids.files.items():
            if not (source.startswith(prefix) or source == root) or source in seen:
                continue
            for cid, _part in interviews:  # every interview of a file gone
                if ids.owner.get(cid) == source and store.remove(cid):  # not taken over
                    result.removed.append(cid)
    return result


def _write_one(
    store: IndexTarget,
    item: Prepared,
    found: Found,
    ids: _Ids,
    forgotten: dict[str, tuple[str, str]],
    result: IndexResult,
    webhook: bool = False,
    meetings: dict[str, ZoomRecording] | None = None,
) -> None:
    known = ids.state.get(item.shown)
    meeting = (meetings or {}).get(item.shown)
    had = ids.known(item.shown)
    if known and item.hash and known[1] == item.hash and known[2] != REPARSE_MTIME:
        for cid in had:  # touched, same content
            store.touch_file(cid, item.mtime_ns, item.size)
        result.unchanged.extend(had)
        return
    if item.skipped is not None:
        # not a transcript (any more): reported, and a transcript it once was stays
        # indexed as it was, as for a file that fails
        result.skipped.append(SkippedFile(path=item.shown, reason=item.skipped))
        return
    several = len(item.transcripts) > 1
    cids = ids.pick(found, item.hash, max(1, len(item.transcripts)))
    erased_now: list[str] = []
    for cid in cids:
        erased = forgotten.get(cid)
        if erased is not None and item.hash:
            if erased[0] == item.hash:
                erased_now.append(cid)  # erased on request, until the file changes
                continue
            store.unforget(cid)
    result.forgotten.extend(erased_now)
    if item.failure is not None:
        if not erased_now:
            result.failed.append(item.failure)
        return
    saved: list[str] = []
    for part, (cid, transcript, indexed) in enumerate(
        zip(cids, item.transcripts, item.indexed, strict=True), start=1
    ):
        if cid in erased_now:
            continue
        if (transcript.id, transcript.hash) != (cid, item.hash):
            # every interview of a file carries the file's id and content hash: what the
            # next run compares, and what forget keeps (erased until the file changes)
            transcript = transcript.model_copy(update={"id": cid, "hash": item.hash})
        if meeting is not None:  # what the meeting says where the transcript says nothing
            transcript = with_meeting(transcript, meeting)
        store.save(
            transcript,
            item.mtime_ns,
            item.size,
            prepared=indexed,
            webhook=webhook,
            part=part if several else 0,
        )
        saved.append(cid)
        result.indexed.append(cid)
        missing = warnings_of(transcript)  # questions unread or none found, no summary…
        if missing:
            result.warnings.append(IndexWarning(path=item.shown, id=cid, warnings=list(missing)))
    for cid in had:  # the file holds fewer interviews now, or numbers them otherwise
        if cid not in cids and ids.owner.get(cid) == item.shown and store.remove(cid):
            ids.drop(cid, item.shown)
            result.removed.append(cid)
    ids.take(saved, item.shown)
    ids.files[item.shown] = [
        (cid, part if several else 0) for part, cid in enumerate(cids, 1) if cid in saved
    ]
