"""`debrief ARGS` in-process (click's CliRunner), for tests where the process is not the
point: the CLI's own code, exit code, stdout and stderr, without the 0.65-1 s of starting
an interpreter and importing the bot for every command.

It keeps what a process would do and show: the environment is the caller's minus every
SLACK_* and DEBRIEF_* setting, plus the test's; what the bot's code registered with
`atexit` while the command ran runs when it ends, as at a process's exit (the audit
writer's flush); an exception that escaped the CLI is printed on stderr as the traceback
a process would print (exit 1); a log record or a warning a fresh process would print on
stderr (logging's last resort, Python's default warning filters) is printed there too;
`cwd` is the working directory while it runs."""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import sys
import threading
import traceback
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from unittest import mock

import click
from click.testing import CliRunner

from bot.cli import cli


@dataclass(frozen=True)
class Ran:
    """What one `debrief` command did, as `subprocess.run(..., text=True)` reports it."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    stdout_bytes: bytes


@contextlib.contextmanager
def _as_a_fresh_process() -> Iterator[list[warnings.WarningMessage]]:
    """Logging and warnings as a fresh `python -m bot` has them: no root handler (so a
    WARNING or worse goes to stderr through logging's last resort), the root at WARNING,
    and Python's default warning filters (recorded, then printed on stderr)."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    root.handlers = []
    root.setLevel(logging.WARNING)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.resetwarnings()
            warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")
            for quiet in (DeprecationWarning, PendingDeprecationWarning, ImportWarning):
                warnings.filterwarnings("ignore", category=quiet)
            warnings.filterwarnings("ignore", category=ResourceWarning)
            yield caught
    finally:
        root.handlers = handlers
        root.setLevel(level)


_PRODUCT = ("bot.", "handlers.", "store.")
_Call = tuple[Callable[..., object], tuple[Any, ...], dict[str, Any]]


class _AtExit:
    """`debrief` with what its code registers with `atexit` run at its end, as the end of
    its process would run it, inside the command's captured output. Registrations by
    libraries imported meanwhile, or by other threads (a bot serving in the test), go to
    the real `atexit` (the test process's end)."""

    def __init__(self) -> None:
        self.calls: list[_Call] = []
        self.thread = threading.get_ident()

    def register(self, func: Callable[..., object], *args: Any, **kwargs: Any) -> object:
        mine = threading.get_ident() == self.thread
        if mine and getattr(func, "__module__", "").startswith(_PRODUCT):
            self.calls.append((func, args, kwargs))
            return func
        return _REGISTER(func, *args, **kwargs)

    def unregister(self, func: Callable[..., object]) -> None:
        self.calls = [c for c in self.calls if c[0] != func]
        _UNREGISTER(func)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        atexit.register, atexit.unregister = self.register, self.unregister  # type: ignore[assignment]
        try:
            return cli.main(*args, **kwargs)
        finally:
            atexit.register, atexit.unregister = _REGISTER, _UNREGISTER  # type: ignore[assignment]
            self.exit()

    def exit(self) -> None:
        """Run the calls, last first, as an interpreter's exit does (an exception is
        printed, as there); then end their owners' threads, as the process's end would."""
        for func, args, kwargs in reversed(self.calls):
            try:
                func(*args, **kwargs)
            except Exception:
                print(f"Exception ignored in atexit callback: {func!r}", file=sys.stderr)
                traceback.print_exc()
        for func, _args, _kwargs in self.calls:
            stop = getattr(getattr(func, "__self__", None), "stop", None)
            if callable(stop):
                stop()


_REGISTER, _UNREGISTER = atexit.register, atexit.unregister


def debrief(
    *args: str,
    env: Mapping[str, str] | None = None,
    cwd: Path | str | None = None,
    input: str | bytes | None = None,  # as click and subprocess name it
) -> Ran:
    """`debrief ARGS` with the environment's SLACK_*/DEBRIEF_* replaced by `env`, in
    `cwd`, reading `input` (else nothing) on stdin."""
    unset: dict[str, str | None] = {
        k: None for k in os.environ if k.startswith(("SLACK_", "DEBRIEF_"))
    }
    where = contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext()
    with where, _as_a_fresh_process() as caught:
        done = CliRunner().invoke(
            cast(click.Command, _AtExit()),
            list(args),
            env=unset | dict(env or {}),
            input=input,
            prog_name="debrief",
        )
    stderr = done.stderr
    for w in caught:
        stderr += warnings.formatwarning(w.message, w.category, w.filename, w.lineno, w.line)
    if done.exception is not None and not isinstance(done.exception, SystemExit):
        assert done.exc_info is not None
        stderr += "Traceback (most recent call last):\n" + "".join(
            traceback.format_exception(*done.exc_info)
        )
    return Ran(list(args), done.exit_code, done.stdout, stderr, done.stdout_bytes)


def serve_stopped_by_settings(*args: str, env: Mapping[str, str]) -> Ran:
    """`debrief serve ARGS` in-process, for a case its settings must stop before it serves
    (exit 2, one line). Were they to pass, serving itself raises at once instead of
    waiting for a Slack that is not there: the test sees that traceback, and never hangs.
    (A serve that gets past its settings is a real process: see support/serve.py.)"""

    def got_past(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("serve got past its settings")

    with mock.patch("bot.serving.serve", got_past):
        return debrief("serve", *args, env=env)
