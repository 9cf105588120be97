"""What every `debrief` command shares: the group, which turns the errors a user can
cause into one clean line and an exit code, and the `--db` and `--json` options.

A failure the user can act on raises `click.ClickException` (exit 1) or, for something
they must say or configure differently, `BadUsage`, a `click.UsageError` (exit 2); click
prints `Error: <message>` on stderr, one line: `BadUsage` leaves out the usage text."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import IO, Any, TypeVar

import click

from store.errors import NoDatabaseError, StoreError
from store.factory import Backend
from store.factory import open_store as open_backend

from .settings import Settings, SettingsError, load_settings

F = TypeVar("F", bound=Callable[..., Any])


class BadUsage(click.UsageError):
    """Exit 2, shown as click's one `Error: …` line without the usage text above it."""

    def show(self, file: IO[Any] | None = None) -> None:
        click.ClickException.show(self, file)


class Debrief(click.Group):
    """The `debrief` group: whichever command runs, an error the user can cause (a
    setting, a database that is not there or cannot be read) is a message, never a
    traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (SettingsError, NoDatabaseError) as exc:
            raise BadUsage(str(exc)) from exc
        except StoreError as exc:
            raise click.ClickException(str(exc)) from exc


def db_option(fn: F) -> F:
    return click.option(
        "--db",
        "db_path",
        metavar="FILE",
        help="SQLite database (default: $DEBRIEF_DB, else ./debrief.db).",
    )(fn)


def json_option(fn: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(fn)


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


def settings_for(db_path: str | None) -> Settings:
    return load_settings(db_path=db_path)


def open_store(db_path: str | None, *, create: bool = False) -> Backend:
    """The database; only `index` (and `serve`) may create it: reading a database that
    is not there says so (NoDatabaseError, exit 2) instead of answering from an empty one."""
    return open_backend(settings_for(db_path).db_path, create=create)
