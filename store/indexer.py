"""Index runs: folders of files -> parser -> store, incrementally.

Unchanged files (same size and mtime, or else same content hash) are skipped,
changed ones replaced, files gone from an indexed folder removed. Every file is
written in its own transaction, and a file that fails is reported and skipped:
it never stops the rest.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from .db import Store
from .models import IndexResult, ParseFailure
from .parser import MAX_BYTES, ParseError, content_hash, parse_transcript, transcript_id

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


def _read(path: str) -> tuple[bytes, os.stat_result]:
    with open(path, "rb") as fh:
        st = os.fstat(fh.fileno())
        return fh.read(MAX_BYTES + 1), st


def index_paths(
    store: Store, paths: Iterable[str | Path], progress: Progress | None = None
) -> IndexResult:
    files, roots, failed = collect(paths)
    result = IndexResult(failed=failed)
    state = store.file_state()
    forgotten = store.forgotten()
    owner = {cid: source for source, (cid, _h, _m, _s) in state.items()}
    seen: set[str] = set()
    total = len(files)
    with store.batch() as tick:
        for done, path in enumerate(files, start=1):
            shown = display_path(path)
            seen.add(shown)
            try:
                _index_one(store, path, shown, state, owner, forgotten, result)
            except OSError as exc:
                reason = "symlink loop" if exc.errno == errno.ELOOP else (exc.strerror or str(exc))
                result.failed.append(ParseFailure(path=shown, error=reason))
            except ParseError as exc:
                result.failed.append(ParseFailure(path=shown, line=exc.line, error=exc.reason))
            except (sqlite3.DataError, sqlite3.IntegrityError, OverflowError, ValueError) as exc:
                # a file the parser let through but the database cannot hold: it fails alone
                result.failed.append(ParseFailure(path=shown, error=f"cannot be stored: {exc}"))
            tick()
            if progress is not None:
                progress(done, total)
    for root in roots:
        prefix = display_path(root).rstrip(os.sep) + os.sep
        for source, (cid, *_rest) in state.items():
            if source.startswith(prefix) and source not in seen and store.remove(cid):
                result.removed.append(cid)
    return result


def _index_one(
    store: Store,
    path: str,
    shown: str,
    state: dict[str, tuple[str, str, int, int]],
    owner: dict[str, str],
    forgotten: dict[str, tuple[str, str]],
    result: IndexResult,
) -> None:
    st = os.stat(path)
    if not os.path.isfile(path):
        raise ParseError("not a regular file")
    known = state.get(shown)
    if known and (known[2], known[3]) == (st.st_mtime_ns, st.st_size):
        result.unchanged.append(known[0])
        return
    if st.st_size > MAX_BYTES:
        raise ParseError(
            f"file too large for a transcript: {st.st_size / 1e6:.1f} MB "
            f"(the limit is {MAX_BYTES / 1e6:.0f} MB)"
        )
    data, st = _read(path)
    if known and known[1] == content_hash(data):
        store.touch_file(known[0], st.st_mtime_ns, st.st_size)
        result.unchanged.append(known[0])
        return
    name = display_path(os.path.basename(path))
    erased = forgotten.get(transcript_id(name))
    if erased is not None:
        if erased[0] == content_hash(data):
            result.forgotten.append(transcript_id(name))  # erased on request, until it changes
            return
        store.unforget(transcript_id(name))
    transcript = parse_transcript(data, name, source=shown)
    other = owner.get(transcript.id)
    if other is not None and other != shown and os.path.exists(other):
        raise ParseError(f"id {transcript.id} is already used by {other}")
    store.save(transcript, mtime_ns=st.st_mtime_ns, size=st.st_size)
    owner[transcript.id] = shown
    result.indexed.append(transcript.id)
