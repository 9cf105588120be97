"""A file read in a process of its own, bounded in time and memory: what `serve` reads
(a file shared in Slack, the watched folder) is never read in the process that answers
Slack, so a file built to take minutes or gigabytes delays no `/healthz`, no ack and no
command. The reading process is stopped (SIGKILL) once it runs past its time, and its
address space is capped, so a reader that would take gigabytes fails there
(MemoryError), or dies, not the bot.

Processes come from a fork server that has the reader imported: a file costs a fork,
not an interpreter's start. Whatever stops the reading is `Stopped`; what the reading
raised (a ParseError) is raised again here.

`run_bounded` reads one file in a process of its own (what `serve` reads); `bounded_map`
reads many in a few long-lived processes (`debrief index`), each file with the same
bounds: a process that runs past its time on one file is killed, that file is `Stopped`,
and a new process takes the files after it; one that dies (the kernel's out-of-memory
killer) costs the file it was reading, never the others. Nothing is read in the calling
process. Each reading process also ends itself (SIGALRM) should one file take twice its
time: a process whose caller died never lives on.

No database here, and nothing of Slack's: a function and its arguments in, its result
out."""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from itertools import islice
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar

from .errors import READ_TOO_LONG, NotATranscript

T = TypeVar("T")
A = TypeVar("A")

SECONDS = 20.0
"""How long one file may be read (a long real PDF takes a few seconds)."""
MEMORY = 1024 * 1024 * 1024
"""The address space of a reading process at most (it needs about 100 MB to start)."""


class Stopped(NotATranscript):
    """The reading ran past its time or memory and was stopped: the file is skipped
    with that reason (and, by whoever keeps track, not read again until it changes)."""

    def __init__(self) -> None:
        super().__init__(READ_TOO_LONG)

    def __reduce__(self) -> tuple[type[Stopped], tuple[()]]:  # (sent between processes)
        return (Stopped, ())


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


# -- many files, a few processes ---------------------------------------------------------

TASK = 32
"""Files handed to a reading process at a time (each read and answered one by one)."""
_QUEUED = 2
"""Tasks a reading process holds at most: it never waits for work, and what is sent to it
never fills its pipe (which could leave it and the caller each waiting on the other)."""


def _cap(memory: int) -> None:
    import resource

    with contextlib.suppress(ValueError, OSError):  # (a lower hard limit already: it holds)
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))


def _serve(conn: Connection, fn: Callable[[Any], Any], memory: int, backstop: float) -> None:
    """A reading process: tasks in (lists of arguments; None: done), one answer out per
    argument, in order: (True, result) or (False, what it raised)."""
    _cap(memory)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):  # its caller is gone
            return
        if task is None:
            return
        for arg in task:
            # ends this process (SIGALRM's default) should the caller not stop it
            signal.setitimer(signal.ITIMER_REAL, backstop)
            try:
                answer: tuple[bool, Any] = (True, fn(arg))
            except MemoryError:
                answer = (False, Stopped())
            except BaseException as exc:
                answer = (False, exc)
            signal.setitimer(signal.ITIMER_REAL, 0)
            try:
                conn.send(answer)
            except (EOFError, OSError):  # its caller is gone
                return
            except Exception:  # what cannot be pickled: the reading failed
                try:
                    conn.send((False, Stopped()))
                except Exception:
                    return


class _Reader(Generic[A]):
    """One reading process, its connection, and what it was given and has not answered."""

    def __init__(self, fn: Callable[[A], Any], memory: int, backstop: float) -> None:
        with _lock:  # (the fork server is started once, by one thread)
            context = _context()
            self.conn, theirs = context.Pipe(duplex=True)
            self.process = context.Process(
                target=_serve, args=(theirs, fn, memory, backstop), daemon=True
            )
            self.process.start()
        theirs.close()
        self.given: deque[tuple[int, A]] = deque()  # (its place, the argument), in order
        self.tasks: deque[int] = deque()  # how many of each task it holds are unanswered
        self.since = 0.0  # when it started on the argument it is reading

    def give(self, part: list[tuple[int, A]]) -> None:
        if not self.given:
            self.since = time.monotonic()
        self.given.extend(part)
        self.tasks.append(len(part))
        with contextlib.suppress(OSError):  # it died: its end reads as closed (`bounded_map`)
            self.conn.send([arg for _at, arg in part])

    def answered(self) -> int:
        """The place of the argument it answered (the first it holds)."""
        at, _arg = self.given.popleft()
        self.tasks[0] -= 1
        if not self.tasks[0]:
            self.tasks.popleft()
        self.since = time.monotonic()
        return at

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


def bounded_map(
    fn: Callable[[A], T],
    args: Iterable[A],
    workers: int = 1,
    seconds: float | None = None,
    memory: int | None = None,
    task: int = TASK,
    ahead: int = 768,
) -> Iterator[T | BaseException]:
    """`fn(arg)` for each of `args`, in `workers` processes (at least one), each bounded as
    `run_bounded`'s: yields, in the order of `args`, each result, or what `fn` raised, or
    `Stopped` for an argument whose reading ran past `seconds`, its process's `memory`,
    or whose process died. At most `ahead` arguments are handed out before their results
    are taken. `fn` is sent by name: a module's function."""
    seconds = SECONDS if seconds is None else seconds
    memory = MEMORY if memory is None else memory
    backstop = 2 * seconds + 5
    todo = iter(enumerate(args))
    again: deque[tuple[int, A]] = deque()  # what a stopped process had not read
    readers: list[_Reader[A]] = []
    answers: dict[int, T | BaseException] = {}
    handed = taken = 0  # arguments taken from `args`; results yielded
    more = True
    try:
        while True:
            while more or again:  # hand out what the readers may hold
                room = ahead - (handed - taken)
                reader = _free(readers, workers)
                if reader is None or (room <= 0 and not again):
                    break
                part = [again.popleft() for _ in range(min(task, len(again)))]
                if more and room > 0 and len(part) < task:
                    wanted = min(task - len(part), room)
                    fresh = list(islice(todo, wanted))
                    more = len(fresh) == wanted
                    handed += len(fresh)
                    part += fresh
                if not part:
                    break
                if reader is _NEW:
                    readers.append(_Reader(fn, memory, backstop))
                    reader = readers[-1]
                reader.give(part)
            while taken in answers:
                yield answers.pop(taken)
                taken += 1
            busy = [r for r in readers if r.given]
            if not busy:
                if more or again:
                    continue
                return
            due = min(r.since for r in busy) + seconds
            ready = wait([r.conn for r in busy], max(0.0, due - time.monotonic()))
            now = time.monotonic()
            for reader in busy:
                if reader.conn in ready:
                    try:
                        _ok, value = reader.conn.recv()
                    except (EOFError, OSError):  # it died: killed for its memory, a crash
                        pass
                    except Exception as exc:  # an answer that cannot be unpickled here
                        answers[reader.answered()] = exc
                        continue
                    else:
                        answers[reader.answered()] = value
                        continue
                elif now - reader.since < seconds:
                    continue  # within its time
                # past its time on this argument, or dead: that argument is stopped, and
                # the ones after it go to another process
                answers[reader.answered()] = Stopped()
                again.extend(reader.given)
                again = deque(sorted(again, key=lambda given: given[0]))
                reader.stop()
                readers.remove(reader)
    finally:
        for reader in readers:
            reader.stop()


_NEW: Any = object()


def _free(readers: list[_Reader[A]], workers: int) -> _Reader[A] | None:
    """The reader to hand a task to: an idle one, else a new one (_NEW) while there are
    fewer than `workers`, else the least busy that holds fewer than _QUEUED tasks."""
    idle = [r for r in readers if not r.given]
    if idle:
        return idle[0]
    if len(readers) < max(1, workers):
        return _NEW  # type: ignore[no-any-return]
    free = [r for r in readers if len(r.tasks) < _QUEUED]
    return min(free, key=lambda r: len(r.given)) if free else None
