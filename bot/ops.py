"""The operator's commands: `doctor`, `backup`, `stats`, `audit`, `forget`, `retention`
and `migrate-workspace`.

bot/cli.py attaches them to the `debrief` group.
"""

from __future__ import annotations

import os
import re
import sys
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import click

from store.errors import BackupTargetError
from store.indexer import index_paths

from . import cli_text as text
from .cli_common import (
    BadUsage,
    Failure,
    db_option,
    echo_json,
    json_option,
    open_space,
    open_store,
    space_of,
    workspace_key,
    workspace_option,
)
from .doctor import run_checks
from .doctor_check import Check
from .settings import load_settings
from .words import t

_AGO_RE = re.compile(r"(\d{1,5})\s*([dhm])", re.I)
_UNITS = {"d": "days", "h": "hours", "m": "minutes"}


def parse_since(when: str, tz: ZoneInfo, now: datetime | None = None) -> str:
    """`--since` as people say it -> the UTC ISO time audit rows are compared with.

    `7d`, `24h`, `30m` ago; `today` / `yesterday` from midnight in DEBRIEF_TIMEZONE;
    a date `2026-11-30` (UTC, from its midnight) or a full ISO time."""
    now = now or datetime.now(UTC)
    word = when.strip().lower()
    if m := _AGO_RE.fullmatch(word):
        moment = now - timedelta(**{_UNITS[m.group(2).lower()]: int(m.group(1))})
        return moment.astimezone(UTC).isoformat(timespec="microseconds")
    if word in ("today", "yesterday", "今天", "昨天"):
        day = now.astimezone(tz).date() - timedelta(days=word in ("yesterday", "昨天"))
        midnight = datetime.combine(day, time(0), tzinfo=tz)
        return midnight.astimezone(UTC).isoformat(timespec="microseconds")
    try:
        if len(word) == 10:
            return date.fromisoformat(word).isoformat()
        moment = datetime.fromisoformat(when.strip())
    except ValueError:
        raise BadUsage("cli_bad_since", when=when) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


@click.command()
@click.option(
    "--since",
    metavar="WHEN",
    help=(
        "Only entries since then: 7d, 24h, 30m ago; today or yesterday (from midnight in"
        " DEBRIEF_TIMEZONE); or a date (YYYY-MM-DD, UTC)."
    ),
)
@db_option
@workspace_option
@json_option
def audit(since: str | None, db_path: str | None, workspace: str | None, as_json: bool) -> None:
    """Who looked up, posted or decided what, about which candidate, from where."""
    settings = load_settings(db_path=db_path)
    start = parse_since(since, settings.tz) if since else None
    entries = open_space(db_path, workspace).audit_log(start)
    if as_json:
        echo_json([e.model_dump() for e in entries])
        return
    if not entries:
        click.echo(t(settings.locale, "no_audit"))
    for e in entries:
        click.echo(f"{e.when}  {e.who}  {e.what}  {e.candidate or '-'}  {e.channel or '-'}")


_MARKS = {"ok": "✓", "fail": "✗", "warn": "!", "skip": "-"}
_COLORS = {"ok": "green", "fail": "red", "warn": "yellow", "skip": None}


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} B"


@click.command()
@db_option
@json_option
def doctor(db_path: str | None, as_json: bool) -> None:
    """Check a deployment: Slack tokens, scopes and mode, channels, database, files'
    permissions, retention, transcripts, digest.

    Exit 1 when any check fails."""
    from .app import web_client

    settings = load_settings(db_path=db_path)
    client = web_client(settings) if settings.bot_token else None
    loc = "en" if as_json else settings.locale  # --json is the same in every locale
    checks: list[Check] = run_checks(settings, client, loc)
    failed = [c for c in checks if c.status == "fail"]
    if as_json:
        echo_json({"ok": not failed, "checks": [c.model_dump() for c in checks]})
    else:
        for c in checks:
            said = t(loc, "labelled", label=c.name, text=c.detail) if c.detail else c.name
            click.secho(f"{_MARKS[c.status]} {said}", fg=_COLORS[c.status])
        click.echo(t(loc, "doctor_failed", n=len(failed)) if failed else t(loc, "doctor_passed"))
    if failed:
        raise SystemExit(1)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@db_option
def backup(file: str, force: bool, db_path: str | None) -> None:
    """Copy the database to FILE while the bot keeps running (a consistent snapshot),
    readable by you alone. FILE's folder must exist; an existing FILE is kept unless
    --force.

    To restore: stop the bot, replace the database file with the backup (and delete
    any `-wal`/`-shm` files beside it), start the bot."""
    loc = load_settings(db_path=db_path).locale
    store = open_store(db_path)
    try:
        size = store.backup(file, overwrite=force)
    except BackupTargetError as exc:
        if exc.reason == "exists":
            raise BadUsage("backup_exists", path=file) from exc
        folder = str(Path(file).expanduser().resolve().parent)
        raise BadUsage("backup_no_folder", folder=folder) from exc
    click.echo(t(loc, "backed_up", src=store.path, dest=file, size=_size(size)))


@click.command()
@db_option
@workspace_option
@json_option
def stats(db_path: str | None, workspace: str | None, as_json: bool) -> None:
    """Candidates, questions, unanswered, decisions, database size, last index run and digest."""
    figures = open_space(db_path, workspace).stats()
    if as_json:
        echo_json(figures.model_dump())
        return
    loc = load_settings(db_path=db_path).locale
    run = figures.last_index_run
    never = t(loc, "never")
    last_run = (
        t(loc, "index_run", at=run.finished_at, **run.model_dump(exclude={"finished_at"}))
        if run
        else never
    )
    rows = [
        (t(loc, "n_candidates"), str(figures.candidates)),
        (t(loc, "n_interviews"), str(figures.interviews)),
        (t(loc, "n_questions"), str(figures.questions)),
        (t(loc, "n_unanswered"), str(figures.unanswered)),
        (t(loc, "n_unrecorded"), str(figures.unrecorded)),
        (t(loc, "n_questions_unread"), str(figures.questions_unread)),
        (t(loc, "n_decisions"), str(figures.decisions)),
        (t(loc, "stat_database"), _size(figures.database_bytes)),
        (t(loc, "stat_schema"), figures.schema_version),
        (t(loc, "stat_index_run"), last_run),
        (t(loc, "stat_digest"), figures.last_digest or never),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        click.echo(f"{name.ljust(width)}  {value}")


@click.command()
@click.argument("candidate", required=False)
@click.option("--restore", is_flag=True, help="Lift an earlier forget and index the file again.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@db_option
@workspace_option
@json_option
def forget(
    candidate: str | None,
    restore: bool,
    yes: bool,
    db_path: str | None,
    workspace: str | None,
    as_json: bool,
) -> None:
    """Erase a candidate and everything recorded about them (an exact id); or, with
    --workspace and no candidate, all the data of a workspace that uninstalled Debrief
    (its audit stays, pseudonymized).

    Asks first on a terminal (--yes does not); an unknown or already forgotten id is an
    error (exit 2)."""
    from handlers.audit import AuditEvent, record

    from .erasure import erase
    from .webhook import hands_decisions

    settings = load_settings(db_path=db_path)
    loc = settings.locale
    if candidate is None:
        if workspace is None or restore:
            raise BadUsage("cli_forget_what")
        _forget_workspace(db_path, workspace, yes, as_json)
        return
    store = open_space(db_path, workspace, writes=restore)  # restoring indexes the file
    if restore:
        source = store.restore(candidate)
        if source is None:
            raise BadUsage("cli_not_forgotten", id=candidate)
        webhook = hands_decisions(settings, store)
        found = source and os.path.exists(source)
        result = index_paths(store, [source], workers=1, webhook=webhook) if found else None
        record(store, [AuditEvent("cli", "restore", candidate)])
        if as_json:
            echo_json({"restored": candidate, "indexed": result.indexed if result else []})
        else:
            key = "restored_indexed" if result and result.indexed else "restored_later"
            click.echo(t(loc, key, id=candidate))
        return
    state = store.erasure_state(candidate)
    if state is None:
        raise BadUsage("cli_forget_unknown", id=candidate)
    if state == "forgotten":
        raise BadUsage("forget_already", id=candidate)
    asking = not yes and sys.stdin.isatty()  # no terminal (cron, a pipe): nobody to ask
    if asking and not click.confirm(t(loc, "forget_confirm", id=candidate), err=True):
        click.echo(t(loc, "forget_kept", id=candidate), err=True)
        raise SystemExit(1)
    counts = erase(store, candidate, "cli", "forget", hands_decisions(settings, store))
    if counts is None:  # forgotten by someone else meanwhile
        raise BadUsage("forget_already", id=candidate)
    if as_json:
        echo_json({"forgotten": candidate, "removed": counts})
        return
    click.echo(t(loc, "forgot", id=candidate, parts=text.removed_parts(counts, loc)))


def _forget_workspace(db_path: str | None, key: str, yes: bool, as_json: bool) -> None:
    """`forget --workspace T…`: the workspace's whole data space, erased now."""
    from .erasure import erase_space, spaces

    loc = load_settings(db_path=db_path).locale
    store = open_store(db_path)
    space = space_of(store, workspace_key(key))
    key = space.slack_key or key
    refused = spaces(store).space_erasure_refusal(space.ws)
    if refused is not None:
        raise Failure(_REFUSED[refused], workspace=key)
    asking = not yes and _terminal()  # no terminal (cron, a pipe): nobody to ask
    count = store.in_workspace(space.ws).count()
    if asking and not click.confirm(
        t(loc, "forget_workspace_confirm", workspace=key, n=count), err=True
    ):
        click.echo(t(loc, "forget_workspace_kept", workspace=key), err=True)
        raise SystemExit(1)
    done = erase_space(store, space, "cli")
    if done.refused is not None:  # installed again meanwhile
        raise Failure(_REFUSED[done.refused], workspace=key)
    if as_json:
        echo_json(
            {
                "workspace": key,
                "erased": done.finished,
                "candidates": done.candidates,
                "files": done.files,
                "rows": done.rows,
            }
        )
        return
    click.echo(
        t(
            loc,
            "forgot_workspace",
            workspace=key,
            candidates=done.candidates,
            files=done.files,
            rows=done.rows,
        )
    )


def _terminal() -> bool:
    """Whether someone at a terminal can be asked."""
    return sys.stdin.isatty()


_REFUSED = {
    "installed": "forget_workspace_installed",
    "unadopted": "forget_workspace_zero",
    "not_uninstalled": "forget_workspace_zero",
    "erased": "forget_workspace_erased",
}


@click.command()
@click.option("--dry-run", is_flag=True, help="List who would be forgotten; change nothing.")
@click.option("--apply", "do_apply", is_flag=True, help="Forget them now.")
@click.option(
    "--days",
    type=click.IntRange(1, 36500),
    default=None,
    help="Days to keep candidates (default: $DEBRIEF_RETENTION_DAYS).",
)
@db_option
@workspace_option
@json_option
def retention(
    dry_run: bool,
    do_apply: bool,
    days: int | None,
    db_path: str | None,
    workspace: str | None,
    as_json: bool,
) -> None:
    """Forget candidates kept longer than DEBRIEF_RETENTION_DAYS (counted from their
    interview, or without its date from their indexing): `--dry-run` lists them,
    `--apply` forgets them as `debrief forget` does. `serve` does it once a day."""
    from .erasure import apply, cutoff, due

    settings = load_settings(db_path=db_path)
    loc = settings.locale
    if dry_run == do_apply:
        raise BadUsage("retention_mode")
    days = days or settings.retention_days
    if days is None:
        raise BadUsage("retention_unset")
    store = open_space(db_path, workspace)
    if workspace:  # its own time zone (App Home) says what "N days ago" is
        settings = settings.for_workspace(store.workspace_settings(store.ws))
    day = cutoff(settings, days)[0]
    found = due(store, settings, days) if dry_run else apply(store, settings, days, "cli")
    if as_json:
        key = "would_forget" if dry_run else "forgotten"
        echo_json({"days": days, "before": day, key: [e.model_dump() for e in found]})
        return
    for e in found:
        basis = t(loc, f"retention_basis_{e.basis}")
        when = e.when  # an interview's date as the transcript gave it; else a UTC time:
        if e.basis != "interview":  # said in DEBRIEF_TIMEZONE
            when = datetime.fromisoformat(e.when).astimezone(settings.tz).strftime("%Y-%m-%d %H:%M")
        click.echo(t(loc, "retention_line", id=e.id, basis=basis, when=when))
    if not found:
        click.echo(t(loc, "retention_none", days=days, day=day))
    else:
        key = "retention_would" if dry_run else "retention_done"
        click.echo(t(loc, key, n=len(found), days=days, day=day))


@click.command(name="migrate-workspace")
@click.argument("key", metavar="T…|E…")
@click.option(
    "--force",
    is_flag=True,
    help="Even when the single-workspace mode served another workspace than KEY.",
)
@db_option
@json_option
def migrate_workspace(key: str, force: bool, db_path: str | None, as_json: bool) -> None:
    """Make this database's data (the single-workspace mode's) that of workspace KEY
    (T…, or E… for an Enterprise Grid organisation): installed in many workspaces, that
    workspace's install takes it over, no row rewritten. Instant; run it before or after
    switching to installs. Refused when KEY has data of its own already, and (without
    --force) when the single-workspace mode served another workspace."""
    from .erasure import spaces

    key = workspace_key(key)
    loc = load_settings(db_path=db_path).locale
    store = open_store(db_path)
    held = spaces(store)
    outcome = held.name_space_zero(key, force)
    if outcome == "taken":
        taken = next(w.ws for w in store.workspaces() if w.slack_key == key)
        raise Failure("migrate_workspace_taken", workspace=key, ws=taken)
    if outcome == "keyed":
        other = store.workspaces()[0].slack_key
        raise Failure("migrate_workspace_keyed", workspace=key, other=other)
    if outcome == "erased":
        raise Failure("migrate_workspace_erased", workspace=key)
    if outcome == "served_other":
        team_id, team = store.workspace() or ("", "")
        raise Failure("migrate_workspace_served_other", workspace=key, team=team, team_id=team_id)
    if as_json:
        echo_json({"workspace": key, "space": 0, "changed": outcome == "named"})
        return
    click.echo(t(loc, f"migrate_workspace_{outcome}", workspace=key))
