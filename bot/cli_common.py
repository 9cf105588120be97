"""What every `debrief` command shares: the group, which turns the errors a user can
cause into one clean line and an exit code, and the `--db` and `--json` options.

A failure the user can act on raises `Failure` (exit 1) or, for something they must
say or configure differently, `BadUsage` (exit 2): each names a catalogue entry
(bot/words/), said in DEBRIEF_LOCALE as one line on stderr, `错误：…` or
`Error: …`. Only click's own usage errors (an unknown option) stay in English."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from typing import IO, Any, TypeVar

import click

from store.errors import NoDatabaseError, StoreError
from store.factory import Backend
from store.factory import open_store as open_backend
from store.models import Locale
from store.workspace_models import Workspace

from .cli_text import store_error
from .settings import Settings, SettingsError, environment_locale, load_settings
from .words import has, t

F = TypeVar("F", bound=Callable[..., Any])


Words = str | Callable[[Locale], str]
"""What an error says: a catalogue key (its values beside it), or how to say it in a locale."""


def error_locale() -> Locale:
    """The locale errors are said in: DEBRIEF_LOCALE, read even when it is not valid
    (the bad setting is then the error, said in Chinese, the default)."""
    return environment_locale()


def _render(words: Words, values: dict[str, object]) -> Callable[[Locale], str]:
    if callable(words):
        return words
    if not has(words):  # a message made elsewhere, in one language: said as it is
        return lambda locale: words
    return lambda locale: t(locale, words, **values)


def _show(message: str, file: IO[Any] | None) -> None:
    line = t(error_locale(), "error_line", message=message)
    if file is None:
        click.echo(line, err=True)
    else:
        click.echo(line, file=file)


class _Said:
    """A click error said in DEBRIEF_LOCALE, as one line (English in its args)."""

    said: Callable[[Locale], str]

    def _say(self, words: Words, values: dict[str, object]) -> str:
        self.said = _render(words, values)
        return self.said("en")

    def format_message(self) -> str:
        return self.said(error_locale())

    def show(self, file: IO[Any] | None = None) -> None:
        _show(self.format_message(), file)


class Failure(_Said, click.ClickException):
    """Exit 1: something went wrong that the user can act on, said in DEBRIEF_LOCALE."""

    def __init__(self, words: Words, **values: object) -> None:
        super().__init__(self._say(words, values))


class BadUsage(_Said, click.UsageError):
    """Exit 2: something to say or configure differently, said in DEBRIEF_LOCALE as one
    line, without click's usage text above it."""

    def __init__(self, words: Words, **values: object) -> None:
        super().__init__(self._say(words, values))


class Debrief(click.Group):
    """The `debrief` group: whichever command runs, an error the user can cause (a
    setting, a database that is not there or cannot be read) is a message in the team's
    language, never a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SettingsError as exc:
            raise BadUsage(exc.said) from exc
        except NoDatabaseError as exc:
            raise BadUsage(partial(store_error, exc)) from exc
        except StoreError as exc:
            raise Failure(partial(store_error, exc)) from exc


def db_option(fn: F) -> F:
    return click.option(
        "--db",
        "db_path",
        metavar="FILE|URL",
        help=(
            "The database: a SQLite file or a postgresql:// URL"
            " (default: $DEBRIEF_DB, else ./debrief.db)."
        ),
    )(fn)


def json_option(fn: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(fn)


WORKSPACE_KEY = re.compile(r"[TE][A-Z0-9]{2,}")
"""A Slack workspace's id (`T…`) or an Enterprise Grid organisation's (`E…`)."""


def workspace_option(fn: F) -> F:
    return click.option(
        "--workspace",
        "workspace",
        metavar="T…|E…",
        help=(
            "The Slack workspace (T…) or Enterprise Grid organisation (E…) whose data:"
            " required when the database holds several workspaces' data (installed in"
            " many); by default the only one."
        ),
    )(fn)


def workspace_key(key: str) -> str:
    """`key` as typed, checked to be a workspace's or an organisation's id."""
    key = key.strip()
    if not WORKSPACE_KEY.fullmatch(key):
        raise BadUsage("cli_workspace_bad_key", workspace=key)
    return key


def _known(spaces: list[Workspace]) -> Callable[[Locale], str]:
    """The workspaces a database holds, as an error lists them."""

    def say(locale: Locale) -> str:
        names = [
            w.slack_key or t(locale, "cli_workspace_zero") for w in spaces if w.erased_at is None
        ]
        return ", ".join(names) or t(locale, "cli_workspace_none")

    return say


def space_of(store: Backend, key: str | None) -> Workspace:
    """The data space a command works in: the one whose key is `key` (`--workspace`);
    without one, space 0, but only while the database holds no other space's data:
    installed in many workspaces, a command that reads or writes candidates must be
    told which (it fails closed rather than guess)."""
    spaces = store.workspaces()
    if key is not None:
        key = workspace_key(key)
        for space in spaces:
            if space.slack_key == key and space.erased_at is None:
                return space
        known = _known(spaces)
        raise BadUsage(lambda loc: t(loc, "cli_workspace_unknown", workspace=key, known=known(loc)))
    others = [w for w in spaces if w.ws != 0 and w.erased_at is None]
    if others:
        known = _known(spaces)
        raise BadUsage(lambda loc: t(loc, "cli_workspace_needed", known=known(loc)))
    return spaces[0]


def refuse_uninstalled(space: Workspace, db_path: str | None) -> None:
    """A command that writes into a data space refuses one whose workspace uninstalled
    Debrief (exit 1): its data waits for erasure, and when, in DEBRIEF_TIMEZONE. Reading,
    exporting and forgetting it still work, so that an operator can export or erase it."""
    if space.uninstalled_at is None or space.erased_at is not None:
        return
    key = space.slack_key or "?"
    due = space.erase_after
    if due is None or due <= datetime.now(UTC).isoformat():
        raise Failure("cli_workspace_uninstalled_due", workspace=key)
    when = datetime.fromisoformat(due).astimezone(settings_for(db_path).tz)
    raise Failure("cli_workspace_uninstalled", workspace=key, when=when.strftime("%Y-%m-%d %H:%M"))


def open_space(
    db_path: str | None, key: str | None, *, create: bool = False, writes: bool = False
) -> Backend:
    """The database (see `open_store`) as the data space of `--workspace` sees it; for a
    command that `writes` into it, refused when that workspace uninstalled Debrief."""
    store = open_store(db_path, create=create)
    space = space_of(store, key)
    if writes:
        refuse_uninstalled(space, db_path)
    return store.in_workspace(space.ws)


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


def settings_for(db_path: str | None) -> Settings:
    return load_settings(db_path=db_path)


def open_store(db_path: str | None, *, create: bool = False) -> Backend:
    """The database; only `index` (and `serve`) may create it: reading a database that
    is not there says so (NoDatabaseError, exit 2) instead of answering from an empty one."""
    store = open_backend(settings_for(db_path).db_path, create=create)
    ctx = click.get_current_context(silent=True)
    if ctx is not None:  # closed when the command ends: its audit written, its files shut
        ctx.call_on_close(store.close)
    return store
