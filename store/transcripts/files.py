"""Finding and reading transcript files: which files a folder holds (honouring
`.debriefignore`, never opening FIFOs or devices), and one file read, hashed, parsed
and tokenized (`prepare`). No database here: `prepare` runs in worker processes.

Any file is read, whatever its name (no extension is filtered): text, Markdown, Word
(.docx), OpenDocument (.odt), a web page (.html/.htm) and a PDF with a text layer each
give the interviews they hold (`formats.py`, behind the reader: reader.py; a file may
hold several, each a transcript of its own); what cannot be read (a scanned
PDF, an old .doc, an encrypted file, a spreadsheet) is `skipped` with what to do.
"""

from __future__ import annotations

import errno
import logging
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from .. import fulltext
from ..models import ParseFailure, Transcript
from . import reader
from .errors import (
    BLOCK_DEVICE,
    CHARACTER_DEVICE,
    DIRECTORY,
    FIFO,
    IGNORE_TOO_LARGE,
    LINK_OUTSIDE,
    LINK_TO_FOLDER,
    NO_SUCH_FILE,
    NOT_REGULAR,
    READ_TOO_LONG,
    READER_FAILED,
    SOCKET,
    SYMLINK_LOOP,
    NotATranscript,
    ParseError,
    code_of,
)
from .formats import MAX_BYTES, byte_limit, too_large_error
from .parser import content_hash

logger = logging.getLogger(__name__)

IGNORE_FILE = ".debriefignore"
_IGNORE_MAX_BYTES = 1024 * 1024


def display_path(path: str) -> str:
    """A path that can be printed even when its bytes are not UTF-8 (they become U+FFFD)."""
    return os.fsencode(path).decode("utf-8", "replace")


def source_path(path: str) -> str:
    """The path as stored and reported: printable, and distinct for distinct files even
    when their names differ only in bytes that are not UTF-8 (`bad\\xff.txt`)."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def special_file(mode: int) -> str | None:
    """Why a file is skipped from its stat mode, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return FIFO
    if stat.S_ISSOCK(mode):
        return SOCKET
    if stat.S_ISCHR(mode):
        return CHARACTER_DEVICE
    if stat.S_ISBLK(mode):
        return BLOCK_DEVICE
    if stat.S_ISDIR(mode):
        return DIRECTORY
    return NOT_REGULAR


def failure(shown: str, exc: ParseError) -> ParseFailure:
    """A file that fails, and why: the English reason, its code and values."""
    return ParseFailure(
        path=shown, line=exc.line, error=exc.reason, code=exc.code, params=exc.params
    )


def os_failure(path: str, exc: OSError) -> ParseFailure:
    """A file the operating system would not give, and what it said (its code names the
    error, so it can be said in any language)."""
    name = errno.errorcode.get(exc.errno or 0, "")
    said = SYMLINK_LOOP if exc.errno == errno.ELOOP else (exc.strerror or str(exc))
    return ParseFailure(path=source_path(path), error=said, code=f"os_{name}" if name else "")


@dataclass(frozen=True)
class Found:
    """A file to index and the folder it was found in (None when named itself)."""

    path: str
    root: str | None = None


class _Ignores:
    """The .debriefignore files that apply to one folder walk, by the folder holding them."""

    def __init__(self, failed: list[ParseFailure]) -> None:
        self.specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []
        self.failed = failed

    def load(self, folder: str) -> None:
        path = os.path.join(folder, IGNORE_FILE)
        try:
            st = os.stat(path)
        except OSError:
            return  # none here
        if not stat.S_ISREG(st.st_mode) or st.st_size > _IGNORE_MAX_BYTES:
            why = special_file(st.st_mode) or IGNORE_TOO_LARGE
            self.failed.append(ParseFailure(path=source_path(path), error=why, code=code_of(why)))
            return
        try:
            with open(path, "rb") as fh:
                lines = fh.read(_IGNORE_MAX_BYTES).decode("utf-8", "replace").splitlines()
        except OSError as exc:
            self.failed.append(os_failure(path, exc))
            return
        self.specs.append((folder, pathspec.GitIgnoreSpec.from_lines(lines)))

    def ignored(self, path: str, is_dir: bool = False) -> bool:
        for folder, spec in self.specs:
            if path.startswith(folder.rstrip(os.sep) + os.sep):
                rel = os.path.relpath(path, folder).replace(os.sep, "/")
                if spec.match_file(rel + "/" if is_dir else rel):
                    return True
        return False


def link_refused(path: str, within: str | None) -> str | None:
    """Why a symbolic link is not followed: it leads to a folder (never walked into: said,
    not ignored), or, `within` a folder, to a file outside it (never read: a link to
    `/etc/passwd` in a transcripts folder). None for anything else."""
    try:
        if not os.path.islink(path):
            return None
        target = os.path.realpath(path)
        if os.path.isdir(target):
            return LINK_TO_FOLDER
        if within is None:
            return None  # a link named itself is followed: it was named
        inside = os.path.realpath(within)
        return None if os.path.commonpath([inside, target]) == inside else LINK_OUTSIDE
    except (OSError, ValueError):  # (ValueError: paths on two drives)
        return LINK_OUTSIDE


def _walk(root: str, failed: list[ParseFailure]) -> Iterator[str]:
    def onerror(exc: OSError) -> None:
        failed.append(os_failure(exc.filename or root, exc))

    ignores = _Ignores(failed)
    for dirpath, dirnames, filenames in os.walk(root, onerror=onerror, followlinks=False):
        ignores.load(dirpath)
        dirnames[:] = sorted(
            d
            for d in dirnames
            if not d.startswith(".") and not ignores.ignored(os.path.join(dirpath, d), True)
        )
        for name in [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            yield os.path.join(dirpath, name)  # a link to a folder: reported (link_refused)
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            if not name.startswith(".") and not ignores.ignored(path):
                yield path


def collect(paths: Iterable[str | Path]) -> tuple[list[Found], list[str], list[ParseFailure]]:
    """-> (files, folders, failures): every file named or inside a named folder."""
    files: list[Found] = []
    roots: list[str] = []
    failed: list[ParseFailure] = []
    for p in paths:
        path = os.path.abspath(os.fspath(p))
        if os.path.isdir(path):
            roots.append(path)
            files.extend(Found(f, path) for f in _walk(path, failed))
        elif os.path.lexists(path):
            files.append(Found(path))
        else:
            failed.append(
                ParseFailure(path=source_path(os.fspath(p)), error=NO_SUCH_FILE, code="os_ENOENT")
            )
    seen: set[str] = set()
    unique = [f for f in files if not (f.path in seen or seen.add(f.path))]  # type: ignore[func-returns-value]
    return unique, roots, failed


@dataclass
class Prepared:
    """One file, read and parsed: everything the store needs, or why it failed. A file
    holds one interview or several (`transcripts`, in file order), each with its
    full-text and bigram strings (`indexed`, in the same order)."""

    path: str
    shown: str
    mtime_ns: int = 0
    size: int = 0
    hash: str = ""
    transcripts: list[Transcript] = field(default_factory=list)
    indexed: list[tuple[str, str]] = field(default_factory=list)
    failure: ParseFailure | None = None
    skipped: str | None = None  # why: not a transcript, a special file

    @property
    def transcript(self) -> Transcript | None:
        """The file's first interview (its only one, for most files); None when it gave none."""
        return self.transcripts[0] if self.transcripts else None


def _read(path: str) -> tuple[bytes, os.stat_result]:
    st = os.stat(path)  # a FIFO or a device is never opened: opening a FIFO blocks
    reason = special_file(st.st_mode)
    if reason is not None:
        raise NotATranscript(reason)
    # O_NONBLOCK: should a FIFO take the file's place after the stat, open() still returns
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    with open(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        reason = special_file(st.st_mode)
        if reason is not None:
            raise NotATranscript(reason)
        limit = MAX_BYTES
        if st.st_size > limit:  # a Word file or a PDF may be larger: its first bytes say
            limit = byte_limit(fh.read(1024), path)
            fh.seek(0)
        if st.st_size > limit:  # refused before reading it
            raise too_large_error(st.st_size, limit)
        return fh.read(limit + 1), st


def _broke(shown: str, exc: BaseException) -> None:
    """One line for the log: which file, and what broke on it (no traceback: the file is
    skipped and the run goes on)."""
    logger.warning("the reader stopped on %s: %s: %.200s", shown, type(exc).__name__, exc)


def prepare(path: str) -> Prepared:
    """Read, hash, parse and tokenize one file: every interview it holds. Pure work, no
    database: it runs in worker processes during large index runs."""
    shown = source_path(path)
    try:
        data, st = _read(path)
    except OSError as exc:
        return Prepared(path, shown, failure=os_failure(path, exc))
    except NotATranscript as exc:
        return Prepared(path, shown, skipped=exc.reason)
    except ParseError as exc:
        return Prepared(path, shown, failure=failure(shown, exc))
    out = Prepared(path, shown, st.st_mtime_ns, st.st_size, content_hash(data))
    try:
        interviews = reader.read_interviews(
            data, display_path(os.path.basename(path)), source=shown
        )
        if not interviews:  # the reader's contract: one at least, or a reason
            raise ValueError("the reader gave no interview and no reason")
    except NotATranscript as exc:
        out.skipped = exc.reason
        return out
    except ParseError as exc:
        out.failure = failure(shown, exc)
        return out
    except MemoryError:  # (in a bounded process: its cap reached)
        out.skipped = READ_TOO_LONG
        return out
    except Exception as exc:  # a reader or a library it uses broke on this file: skipped
        _broke(shown, exc)
        out.skipped = READER_FAILED
        return out
    try:
        out.indexed = [fulltext.indexed(t) for t in interviews]
    except Exception as exc:
        _broke(shown, exc)
        out.skipped = READER_FAILED
        return out
    out.transcripts = list(interviews)
    return out
