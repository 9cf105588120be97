"""The `debrief` command line. Errors become one clean line and an exit code.

A failure the user can act on raises `click.ClickException` (exit 1) or, for something
they must say or configure differently, `BadUsage`, a `click.UsageError` (exit 2); click
prints `Error: <message>` on stderr, one line: `BadUsage` leaves out the usage text."""

from __future__ import annotations

import functools
import json
import logging
import os
import sys
from collections.abc import Callable
from http.client import HTTPException
from typing import IO, Any, ParamSpec, TypeVar

import click
from slack_sdk.errors import SlackApiError, SlackClientError

from store.db import NoDatabaseError, Resolution, StoreError
from store.factory import Backend
from store.factory import open_store as open_backend
from store.indexer import default_workers, index_paths
from store.models import Candidate, IndexResult, plain_years
from store.sqlite import sqlite3

from . import cli_text as text
from .settings import Settings, SettingsError, load_settings

F = TypeVar("F", bound=Callable[..., Any])
P = ParamSpec("P")
R = TypeVar("R")


class BadUsage(click.UsageError):
    """Exit 2, shown as click's one `Error: …` line without the usage text above it."""

    def show(self, file: IO[Any] | None = None) -> None:
        click.ClickException.show(self, file)


def clean_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn the errors a user can cause into a message, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except (SettingsError, NoDatabaseError) as exc:
            raise BadUsage(str(exc)) from exc
        except StoreError as exc:
            raise click.ClickException(str(exc)) from exc
        except sqlite3.Error as exc:
            from store.connection import is_disk_full

            if is_disk_full(exc):  # SQLITE_FULL outside a store write: still one line
                raise click.ClickException("disk full: " + str(exc)) from exc
            raise click.ClickException(f"database error: {exc}") from exc

    return wrapper


def db_option(fn: F) -> F:
    return click.option(
        "--db",
        "db_path",
        metavar="FILE",
        help="SQLite database (default: $DEBRIEF_DB, else ./debrief.db).",
    )(fn)


def json_option(fn: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON.")(fn)


def settings_for(db_path: str | None) -> Settings:
    return load_settings(db_path=db_path)


def open_store(db_path: str | None, *, create: bool = False) -> Backend:
    """The database; only `index` (and `serve`) may create it: reading a database that
    is not there says so (NoDatabaseError, exit 2) instead of answering from an empty one."""
    return open_backend(settings_for(db_path).db_path, create=create)


# The --json contracts: these keys, as the README and the issues spell them.
SEARCH_KEYS = {"id", "position", "years", "snippet", "score", "question"}
LIST_KEYS = {"id", "position", "years", "years_text", "questions", "unanswered", "has_verdict"}


def echo_json(value: Any) -> None:
    click.echo(json.dumps(value, ensure_ascii=False, indent=2))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="debrief-bot")
def cli() -> None:
    """Debrief: interview transcripts, indexed, in Slack."""


# -- index -------------------------------------------------------------------------------


def index_json(result: IndexResult) -> dict[str, Any]:
    return {
        "indexed": result.indexed,
        "unchanged": result.unchanged,
        "removed": result.removed,
        "failed": [f.model_dump() for f in result.failed],
        "skipped": [s.model_dump() for s in result.skipped],
        "forgotten": result.forgotten,
    }


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@db_option
@json_option
@clean_errors
def index(paths: tuple[str, ...], db_path: str | None, as_json: bool) -> None:
    """Index transcript files and folders (new, changed and removed files)."""
    store = open_store(db_path, create=True)
    bulk: dict[str, Any] = {"workers": default_workers(), "batch_seconds": 2.0}
    if as_json or not sys.stderr.isatty():
        result = index_paths(store, paths, **bulk)
    else:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        columns = (
            TextColumn("indexing"),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
        )
        with Progress(*columns, transient=True) as bar:
            task = bar.add_task("index", total=None, rate="")

            def progress(done: int, total: int) -> None:
                speed = bar.tasks[0].speed
                rate = f"{speed:,.0f} files/s" if speed else ""
                bar.update(task, completed=done, total=total, rate=rate)

            result = index_paths(store, paths, progress=progress, **bulk)
    store.record_index_run(result)
    if as_json:
        echo_json(index_json(result))
    else:
        loc = settings_for(db_path).locale
        click.echo(text.index_summary(result, loc))
        for s in result.skipped:
            click.secho(text.t(loc, "skipped_file", path=s.path, reason=s.reason), err=True)
        for f in result.failed:
            where = f"{f.path}:{f.line}" if f.line else f.path
            line = text.t(loc, "failed_file", path=where, reason=f.error)
            click.secho(line, fg="yellow", err=True)
    sys.exit(1 if result.failed else 0)


# -- show ----------------------------------------------------------------------------------


def candidate_json(c: Candidate) -> dict[str, Any]:
    return {
        "id": c.id,
        "position": c.position,
        "years": plain_years(c.years),
        "years_text": c.years_text,
        "intro": c.intro,
        "summary": c.summary,
        "questions": [
            {
                "number": q.number,
                "question": q.question,
                "goal": q.goal,
                "answer": q.answer,
                "answered": not c.is_open(q),
                "unanswered_reason": q.unanswered_reason if c.is_open(q) else None,
            }
            for q in c.questions
        ],
        "verdict": c.verdict,
        "source": c.source,
        "decisions": [d.model_dump() for d in c.decisions],
        "followups": [f.model_dump() for f in c.followups],
        "indexed_at": c.indexed_at,
    }


def resolve_or_exit(store: Backend, who: str, as_json: bool) -> Candidate:
    found: Resolution = store.resolve(who)
    if found.unique is not None:
        candidate = store.get_candidate(found.unique.id)
        if candidate is not None:
            return candidate
    if as_json:
        echo_json(
            {
                "error": "ambiguous" if found.matches else "not_found",
                "query": who,
                "matches": [m.id for m in found.matches],
            }
        )
    if not found.matches:
        raise click.ClickException(f"no candidate matches {who!r}")
    loc = load_settings().locale
    lines = "\n".join(
        f"  {m.id}  {text.position(m.position, loc)}  {text.years(m.years, loc)}"
        for m in found.matches
    )
    raise click.ClickException(
        f"{len(found.matches)} candidates match {who!r}; say which:\n{lines}"
    )


@cli.command()
@click.argument("candidate", nargs=-1, required=True)
@db_option
@json_option
@clean_errors
def show(candidate: tuple[str, ...], db_path: str | None, as_json: bool) -> None:
    """Show one candidate: an id, a unique id prefix, or words matching one candidate."""
    store = open_store(db_path)
    c = resolve_or_exit(store, " ".join(candidate), as_json)
    if as_json:
        echo_json(candidate_json(c))
        return
    click.echo(text.candidate_text(c, settings_for(db_path).locale))


# -- search --------------------------------------------------------------------------------


@cli.command()
@click.argument("query", nargs=-1, required=True)
@db_option
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 1000))
@click.option(
    "--sort",
    type=click.Choice(["relevance", "newest"]),
    default="relevance",
    show_default=True,
    help="best matches first (bm25), or newest first",
)
@json_option
@clean_errors
def search(
    query: tuple[str, ...], db_path: str | None, limit: int, sort: str, as_json: bool
) -> None:
    """Full-text search: best matches first."""
    store = open_store(db_path)
    hits = store.search(
        " ".join(query), limit=limit, sort="newest" if sort == "newest" else "relevance"
    )
    if as_json:
        echo_json([h.model_dump(include=SEARCH_KEYS) for h in hits])
        return
    loc = settings_for(db_path).locale
    if not hits:
        click.echo(text.t(loc, "no_matches"))
    for h in hits:
        click.echo(text.hit_text(h, loc))


# -- list ----------------------------------------------------------------------------------


@cli.command(name="list")
@click.argument("position", required=False)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help="At most N candidates (default: 50 in a terminal, all otherwise).",
)
@click.option("--offset", type=click.IntRange(min=0), default=0, help="Skip the first M.")
@db_option
@json_option
@clean_errors
def list_(
    position: str | None, limit: int | None, offset: int, db_path: str | None, as_json: bool
) -> None:
    """Candidates, newest first, optionally for one position."""
    store = open_store(db_path)
    if limit is None and not as_json and sys.stdout.isatty():
        limit = 50
    rows = store.list_candidates(position, limit=limit, offset=offset)
    if as_json:
        echo_json([r.model_dump(include=LIST_KEYS) for r in rows])
        return
    loc = settings_for(db_path).locale
    if not rows:
        click.echo(text.nothing_listed(position, loc))
    for r in rows:
        click.echo(text.list_line(r, loc))
    total = store.count(position)
    if limit is not None and offset + len(rows) < total:
        more = text.t(loc, "more", first=offset + 1, last=offset + len(rows), total=total)
        click.secho(more, dim=True)


# -- Slack ---------------------------------------------------------------------------------


@cli.command()
@click.option(
    "--port", default=3000, show_default=True, type=click.IntRange(0, 65535), help="HTTP mode port."
)
@click.option("--host", default="0.0.0.0", show_default=True, help="HTTP mode address.")
@db_option
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"], case_sensitive=False),
    default=None,
    help="Overrides DEBRIEF_LOG_LEVEL (default info).",
)
@clean_errors
def serve(port: int, host: str, db_path: str | None, log_level: str | None) -> None:
    """Run the bot: Socket Mode with SLACK_APP_TOKEN, HTTP mode with SLACK_SIGNING_SECRET."""
    from . import logs
    from .app import create_app
    from .digest import Digester
    from .leader import watch_as_leader
    from .server import serve_http, serve_socket_mode
    from .watcher import FolderWatcher

    settings = settings_for(db_path)
    mode = settings.require_slack()
    logs.configure(log_level or settings.log_level, settings.log_format)
    log = logging.getLogger("debrief")
    store = open_backend(settings.db_path)
    try:
        app = create_app(settings, store)
    except Exception as exc:  # Bolt checks the token with auth.test here
        raise start_failure(exc, settings.api_url, log) from exc
    # the Chinese word splitter loads its dictionary now, not on the first user's search
    from store.fulltext import warm

    warm()
    digester = watcher = None
    if settings.digest_channel:
        digester = Digester(settings, store, app.client)
        digester.start()
        log.info(
            "daily digest at %s %s in %s",
            settings.digest_time,
            settings.timezone,
            settings.digest_channel,
        )
    else:
        log.info("DEBRIEF_DIGEST_CHANNEL is not set: no daily digest")
    if settings.transcripts:
        folder = settings.transcripts
        watcher = watch_as_leader(  # one replica watches when the database is shared
            store, lambda: FolderWatcher(store, folder, mode=settings.watch).start()
        )
        log.info("keeping %s indexed", settings.transcripts)
    else:
        log.info("DEBRIEF_TRANSCRIPTS is not set: serving what %s already holds", settings.db_path)

    def on_stop() -> None:
        """After the last request: the watcher and the digest stop, the audit is flushed."""
        if watcher is not None:
            watcher.stop(timeout=5)
        if digester is not None:
            digester.stop()
        store.close()  # writes the queued audit lines
        log.info("stopped")

    if mode == "socket":
        assert settings.app_token is not None
        log.info("Socket Mode")
        try:
            serve_socket_mode(app, settings.app_token, on_stop)
        except Exception as exc:  # apps.connections.open, then the WebSocket
            raise start_failure(exc, settings.api_url, log) from exc
    else:
        log.info("HTTP mode on %s:%d/slack/events", host, port)
        assert settings.signing_secret is not None
        try:
            serve_http(app, settings.signing_secret, host, port, on_stop)
        except OSError as exc:  # the port is taken, or the address is not ours
            raise click.ClickException(f"cannot listen on {host}:{port}: {exc}") from exc


def render_text(payload: dict[str, Any]) -> str:
    """A message payload as readable text, for a terminal."""
    from handlers.blocks import unescape

    lines: list[str] = []
    for block in payload.get("blocks") or []:
        kind = block.get("type")
        if kind == "header":
            lines.append(f"== {unescape(block['text']['text'])} ==")
        elif kind == "section":
            lines.append(unescape(block["text"]["text"]))
            accessory = block.get("accessory")
            if accessory and accessory.get("type") == "button":
                lines.append(f"  [{accessory['text']['text']}]")
        elif kind == "context":
            lines.append("  " + " · ".join(unescape(e.get("text", "")) for e in block["elements"]))
        elif kind == "actions":
            lines.append("  " + " ".join(f"[{e['text']['text']}]" for e in block["elements"]))
        elif kind == "divider":
            lines.append("-" * 40)
    if not lines:
        lines.append(unescape(payload.get("text", "")))
    return "\n".join(lines)


@cli.command()
@click.argument("command")
@db_option
@click.option("--user", default="U_CLI", show_default=True, help="Who asks (a Slack user ID).")
@click.option("--channel", default="C_CLI", show_default=True, help="Where (a Slack channel ID).")
@json_option
@clean_errors
def ask(command: str, db_path: str | None, user: str, channel: str, as_json: bool) -> None:
    """Run a /candidate command without Slack: `debrief ask "/candidate 总结 000"`."""
    from handlers.audit import record
    from handlers.commands import Deps, answer, parse_command
    from handlers.outbox import RecordingOutbox, deliver

    settings = settings_for(db_path)
    text = command.strip()
    if text.startswith("/"):
        name, _, text = text.partition(" ")
        if name != "/candidate":
            raise click.ClickException(f"unknown command {name}: only /candidate is served")
    store = open_backend(settings.db_path, create=False)
    outbox = RecordingOutbox()
    deps = Deps(store=store, locale=settings.locale)
    result = answer(parse_command(text), deps, user=user, channel=channel)
    record(store, result.events)
    deliver(result.outgoing, outbox)
    if as_json:
        echo_json(outbox.payloads[0] if len(outbox.payloads) == 1 else outbox.payloads)
    else:
        for i, payload in enumerate(outbox.payloads):
            if i:
                click.echo("")
            if payload.get("response_type") == "in_channel":
                click.secho(f"(posted in {channel} for everyone)", dim=True)
            click.echo(render_text(payload))
    if not result.resolved:  # unknown or ambiguous candidate, a missing number: say so
        raise SystemExit(1)


@cli.command()
@click.option("--post", "do_post", is_flag=True, help="Post today's digest (once a day).")
@click.option("--dry-run", is_flag=True, help="Print the digest without posting it.")
@db_option
@json_option
@clean_errors
def digest(do_post: bool, dry_run: bool, db_path: str | None, as_json: bool) -> None:
    """The daily digest: `--post` for cron, `--dry-run [--json]` to see it."""
    from .app import web_client
    from .digest import Digester

    if do_post == dry_run:
        raise BadUsage("say --post or --dry-run")
    settings = settings_for(db_path)
    store = open_backend(settings.db_path, create=False)
    if dry_run:
        message, day = Digester(settings, store, None).compose()
        if as_json:
            echo_json(
                {"text": message.text, "blocks": message.blocks}
                if message
                else {"text": "", "blocks": []}
            )
        elif message is None:
            click.echo(f"{day}: nothing to say; no digest would be posted")
        else:
            click.echo(render_text(message.payload()))
        return
    if not settings.digest_channel:
        raise BadUsage("DEBRIEF_DIGEST_CHANNEL is not set: say which channel ID gets the digest")
    if not settings.bot_token:
        raise BadUsage("SLACK_BOT_TOKEN is not set: the bot token (xoxb-…) is required to post")
    outcome = Digester(settings, store, web_client(settings)).run(force=True)
    words = {
        "sent": f"digest posted in {settings.digest_channel}",
        "empty": "nothing to say today: nothing posted",
        "already": "today's digest was already posted (or is being posted)",
    }
    if as_json:
        echo_json({"outcome": outcome})
    else:
        click.echo(words.get(outcome, outcome))


@cli.command()
@click.argument("candidate")
@click.option("--restore", is_flag=True, help="Lift an earlier forget and index the file again.")
@db_option
@json_option
@clean_errors
def forget(candidate: str, restore: bool, db_path: str | None, as_json: bool) -> None:
    """Erase a candidate and everything recorded about them (an exact id)."""
    from handlers.audit import AuditEvent, record

    store = open_store(db_path)
    if restore:
        source = store.restore(candidate)
        if source is None:
            raise click.ClickException(f"{candidate} is not forgotten")
        result = index_paths(store, [source]) if source and os.path.exists(source) else None
        record(store, [AuditEvent("cli", "restore", candidate)])
        if as_json:
            echo_json({"restored": candidate, "indexed": result.indexed if result else []})
        else:
            again = (
                "indexed again" if result and result.indexed else "will be indexed when its file is"
            )
            click.echo(f"{candidate} restored: {again}")
        return
    counts = store.forget(candidate)
    if counts is None:
        raise click.ClickException(
            f"no candidate {candidate!r} (forget takes an exact id; see debrief list)"
        )
        return
    from handlers.uploads import erase_files

    erase_files(store.forget_uploads(candidate))  # a transcript shared in Slack: its saved file
    record(store, [AuditEvent("cli", "forget", candidate)])
    if as_json:
        echo_json({"forgotten": candidate, "removed": counts})
        return
    parts = ", ".join(f"{n} {what.replace('_', ' ')}" for what, n in counts.items())
    click.echo(f"forgot {candidate}: removed the transcript, {parts}.")
    click.echo("Its file stays forgotten until it changes or `debrief forget --restore` is given.")


def slack_failure(exc: BaseException) -> str | None:
    """How talking to Slack failed ("refused the token (invalid_auth)", "could not be
    reached (…)"), following the exception's causes; None when it is not about Slack."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, SlackApiError):
            error = seen.response.get("error") if seen.response is not None else None
            return f"refused the token ({error or seen})"
        if isinstance(seen, SlackClientError | OSError | HTTPException):
            return f"could not be reached ({seen})"
        seen = seen.__cause__ or seen.__context__
    return None


def start_failure(exc: Exception, api_url: str, log: logging.Logger) -> click.ClickException:
    """Slack refusing the token or not answering is the user's to fix (exit 2, one line);
    anything else is a bug in this code: its traceback goes to the log (exit 1)."""
    problem = slack_failure(exc)
    if problem is None:
        log.error("cannot start: a bug, not Slack", exc_info=exc)
        return click.ClickException(f"cannot start: an internal error ({exc!r}; traceback above)")
    return BadUsage(f"cannot start: Slack at {api_url} {problem}")


# The operator's commands live in their own module and hang on `cli` when it loads.
from . import migrate_db, ops  # noqa: E402, F401


def main() -> None:
    cli(prog_name="debrief")
