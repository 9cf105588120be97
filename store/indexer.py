"""Index runs: folders of files -> parser -> store, incrementally.

Unchanged files (same size and mtime, or else same content hash) are skipped,
changed ones replaced, files gone from an indexed folder removed. Every file is
written whole or not at all; the writes share a transaction that commits every
`batch_seconds` (see Store.batch). A file that fails is reported and skipped:
it never stops the rest.
"""

from __future__ import annotations

import errno
import multiprocessing
import os
import stat
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.pool import AsyncResult
from pathlib import Path

from . import fulltext
from .db import Store
from .models import IndexResult, ParseFailure, Transcript
from .parser import MAX_BYTES, ParseError, content_hash, parse_transcript, transcript_id
from .sqlite import sqlite3

Progress = Callable[[int, int], None]


def display_path(path: str) -> str:
    """A path that can be printed and stored even when its bytes are not UTF-8."""
    return os.fsencode(path).decode("utf-8", "replace")


def _walk(root: str, failed: list[ParseFailure]) -> Iterator[str]:
    def onerror(exc: OSError) -> None:
        failed.append(
            ParseFailure(path=display_path(exc.filename or root), error=exc.strerror or str(exc))
        )

    for dirpath, dirnames, filenames in os.walk(root, onerror=onerror, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.startswith("."):
                yield os.path.join(dirpath, name)


def collect(paths: Iterable[str | Path]) -> tuple[list[str], list[str], list[ParseFailure]]:
    """-> (files, folders, failures): every file named or inside a named folder."""
    files: list[str] = []
    roots: list[str] = []
    failed: list[ParseFailure] = []
    for p in paths:
        path = os.path.abspath(os.fspath(p))
        if os.path.isdir(path):
            roots.append(path)
            files.extend(_walk(path, failed))
        elif os.path.lexists(path):
            files.append(path)
        else:
            failed.append(
                ParseFailure(path=display_path(os.fspath(p)), error="no such file or directory")
            )
    seen: set[str] = set()
    unique = [f for f in files if not (f in seen or seen.add(f))]  # type: ignore[func-returns-value]
    return unique, roots, failed


@dataclass
class Prepared:
    """One file, read and parsed: everything the store needs, or why it failed."""

    path: str
    shown: str
    mtime_ns: int = 0
    size: int = 0
    hash: str = ""
    transcript: Transcript | None = None
    text: str = ""
    bigrams: str = ""
    failure: ParseFailure | None = None


def _read(path: str) -> tuple[bytes, os.stat_result]:
    with open(path, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise ParseError("not a regular file")
        if st.st_size > MAX_BYTES:  # refused before reading it
            raise ParseError(
                f"file too large for a transcript: {st.st_size / 1e6:.1f} MB "
                f"(the limit is {MAX_BYTES / 1e6:.0f} MB)"
            )
        return fh.read(MAX_BYTES + 1), st


def prepare(path: str) -> Prepared:
    """Read, hash, parse and tokenize one file. Pure work, no database: it runs in
    worker processes during large index runs."""
    shown = display_path(path)
    try:
        data, st = _read(path)
    except OSError as exc:
        reason = "symlink loop" if exc.errno == errno.ELOOP else (exc.strerror or str(exc))
        return Prepared(path, shown, failure=ParseFailure(path=shown, error=reason))
    except ParseError as exc:
        return Prepared(path, shown, failure=ParseFailure(path=shown, error=exc.reason))
    out = Prepared(path, shown, st.st_mtime_ns, st.st_size, content_hash(data))
    try:
        t = parse_transcript(data, display_path(os.path.basename(path)), source=shown)
    except ParseError as exc:
        out.failure = ParseFailure(path=shown, line=exc.line, error=exc.reason)
        return out
    out.transcript = t
    out.text = fulltext.doc_text(t.position, t.intro, t.summary, t.questions, t.verdict)
    out.bigrams = fulltext.bigrams(out.text)
    return out


PARALLEL_FROM = 400  # files to read before worker processes pay for their start-up
_SLICE = 256


def _prepared(paths: list[str], workers: int) -> Iterator[Prepared]:
    if workers < 1 or len(paths) < PARALLEL_FROM:
        yield from map(prepare, paths)
        return
    # spawn: safe even from a process with threads (debrief serve's watcher)
    context = multiprocessing.get_context("spawn")
    in_flight: deque[AsyncResult[list[Prepared]]] = deque()
    with context.Pool(workers) as pool:
        # A few slices in flight: the workers stay busy, and memory stays flat however
        # far they could run ahead of the database writer.
        for start in range(0, len(paths), _SLICE):
            in_flight.append(pool.map_async(prepare, paths[start : start + _SLICE], 16))
            if len(in_flight) > 2:
                yield from in_flight.popleft().get()
        while in_flight:
            yield from in_flight.popleft().get()


def default_workers() -> int:
    """Leave one core to the database writer."""
    return max(0, (os.cpu_count() or 1) - 1)


def index_paths(
    store: Store,
    paths: Iterable[str | Path],
    progress: Progress | None = None,
    workers: int = 0,
    batch_seconds: float = 0.25,
) -> IndexResult:
    """Index files and folders. `workers` > 0 parses in that many processes;
    `batch_seconds` is how long a write transaction may last (see Store.batch)."""
    files, roots, failed = collect(paths)
    result = IndexResult(failed=failed)
    state = store.file_state()
    forgotten = store.forgotten()
    owner = {cid: source for source, (cid, _h, _m, _s) in state.items()}
    seen: set[str] = set()
    total = len(files)
    done = 0
    todo: list[str] = []
    for path in files:  # unchanged size and time: skipped without reading
        shown = display_path(path)
        seen.add(shown)
        known = state.get(shown)
        try:
            st = os.stat(path)
        except OSError:
            todo.append(path)  # prepare() says what is wrong with it
            continue
        if known and (known[2], known[3]) == (st.st_mtime_ns, st.st_size):
            result.unchanged.append(known[0])
            done += 1
        else:
            todo.append(path)
    if progress is not None:
        progress(done, total)
    with store.batch(batch_seconds) as tick:
        for item in _prepared(todo, workers):
            try:
                _write_one(store, item, state, owner, forgotten, result)
            except ParseError as exc:
                result.failed.append(ParseFailure(path=item.shown, line=exc.line, error=exc.reason))
            except (sqlite3.DataError, sqlite3.IntegrityError, OverflowError, ValueError) as exc:
                # a file the parser let through but the database cannot hold: it fails alone
                result.failed.append(
                    ParseFailure(path=item.shown, error=f"cannot be stored: {exc}")
                )
            tick()
            done += 1
            if progress is not None:
                progress(done, total)
    for root in roots:
        prefix = display_path(root).rstrip(os.sep) + os.sep
        for source, (cid, *_rest) in state.items():
            if source.startswith(prefix) and source not in seen and store.remove(cid):
                result.removed.append(cid)
    return result


def _write_one(
    store: Store,
    item: Prepared,
    state: dict[str, tuple[str, str, int, int]],
    owner: dict[str, str],
    forgotten: dict[str, tuple[str, str]],
    result: IndexResult,
) -> None:
    known = state.get(item.shown)
    if known and item.hash and known[1] == item.hash:
        store.touch_file(known[0], item.mtime_ns, item.size)  # touched, same content
        result.unchanged.append(known[0])
        return
    cid = transcript_id(display_path(os.path.basename(item.path)))
    erased = forgotten.get(cid)
    if erased is not None and item.hash:
        if erased[0] == item.hash:
            result.forgotten.append(cid)  # erased on request, until the file changes
            return
        store.unforget(cid)
    if item.failure is not None:
        result.failed.append(item.failure)
        return
    transcript = item.transcript
    assert transcript is not None
    other = owner.get(transcript.id)
    if other is not None and other != item.shown and os.path.exists(other):
        raise ParseError(f"id {transcript.id} is already used by {other}")
    store.save(transcript, item.mtime_ns, item.size, prepared=(item.text, item.bigrams))
    owner[transcript.id] = item.shown
    result.indexed.append(transcript.id)
