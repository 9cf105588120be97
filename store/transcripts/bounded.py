"""A file read in a process of its own, bounded in time and memory: what `serve` reads
(a file shared in Slack, the watched folder) is never read in the process that answers
Slack, so a file built to take minutes or gigabytes delays no `/healthz`, no ack and no
command. The reading process is stopped (SIGKILL) once it runs past its time, and its
address space is capped, so a reader that would take gigabytes fails there
(MemoryError), or dies, not the bot.

Processes come from a fork server that has the reader imported: a file costs a fork,
not an interpreter's start. Whatever stops the reading is `Stopped`; what the reading
raised (a ParseError) is raised again here.

No database here, and nothing of Slack's: a function and its arguments in, its result
out."""

from __future__ import annotations

import contextlib
import multiprocessing
import threading
from collections.abc import Callable
from functools import cache
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from .errors import READ_TOO_LONG, NotATranscript

T = TypeVar("T")

SECONDS = 20.0
"""How long one file may be read (a long real PDF takes a few seconds)."""
MEMORY = 1024 * 1024 * 1024
"""The address space of a reading process at most (it needs about 100 MB to start)."""


class Stopped(NotATranscript):
    """The reading ran past its time or memory and was stopped: the file is skipped
    with that reason (and, by whoever keeps track, not read again until it changes)."""

    def __init__(self) -> None:
        super().__init__(READ_TOO_LONG)


_lock = threading.Lock()


@cache
def _context() -> Any:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["store.transcripts.preload"])
    return context


def _child(conn: Connection, fn: Callable[..., Any], args: tuple[Any, ...], memory: int) -> None:
    import resource

    with contextlib.suppress(ValueError, OSError):  # (a lower hard limit already: it holds)
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    try:
        result: tuple[bool, Any] = (True, fn(*args))
    except BaseException as exc:  # (MemoryError among them: said, not a crash)
        result = (False, exc)
    try:
        conn.send(result)
    except Exception:  # what cannot be pickled: the reading failed
        conn.send((False, Stopped()))
    conn.close()


def run_bounded(
    fn: Callable[..., T], *args: Any, seconds: float | None = None, memory: int | None = None
) -> T:
    """`fn(*args)` in a process of its own: its result, or the exception it raised;
    `Stopped` when it ran past `seconds` (SECONDS), ran out of `memory` (MEMORY), or
    died."""
    seconds = SECONDS if seconds is None else seconds
    memory = MEMORY if memory is None else memory
    with _lock:  # (the fork server is started once, by one thread)
        context = _context()
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=_child, args=(send, fn, args, memory), daemon=True)
        process.start()
    send.close()
    try:
        if not receive.poll(seconds):
            raise Stopped()
        ok, value = receive.recv()
    except (EOFError, OSError) as exc:  # it died (killed for its memory, a crash)
        raise Stopped() from exc
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receive.close()
    if ok:
        return value  # type: ignore[no-any-return]
    if isinstance(value, MemoryError):
        raise Stopped() from value
    raise value
