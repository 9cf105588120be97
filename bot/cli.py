"""The `debrief` command line: the group, every command attached to it, and the
commands that read the index (index, show, search, list). The operator's commands
are in bot/ops.py and bot/migrate_db.py, those that talk to Slack in bot/cli_slack.py;
what they share, errors as one clean line included, in bot/cli_common.py."""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from handlers.i18n import reason_text
from store.claims.check import claims_of
from store.errors import QueryTooLong
from store.factory import Backend
from store.indexer import default_workers, index_paths
from store.models import Candidate, IndexResult, Locale, Question, plain_years
from store.resolve import Resolution
from store.transcripts.warnings import warnings_of

from . import cli_text as text
from .cli_common import (
    BadUsage,
    Debrief,
    Failure,
    db_option,
    echo_json,
    json_option,
    open_space,
    settings_for,
    workspace_option,
)
from .cli_slack import ask, digest, remind, serve
from .cli_zoom import zoom
from .export import export
from .loops import link, loop, unlink
from .migrate_db import migrate_db
from .ops import audit, backup, doctor, forget, migrate_workspace, retention, stats
from .webhook import hands_decisions
from .words import t

# The --json contracts: these keys, as docs/reference.md spells them.
SEARCH_KEYS = {"id", "position", "years", "snippet", "score", "question", "matched", "partial"}
# who and when, from the transcript's header: in `show --json` and `list --json`
FACT_KEYS = ("name", "interviewers", "interviewed_at", "interviewed_at_text", "round")
LIST_KEYS = {
    "id",
    "position",
    "years",
    "years_text",
    *FACT_KEYS,
    "questions",
    "unanswered",
    "has_verdict",
    "candidate_key",
}


def list_row_json(r: Any) -> dict[str, Any]:
    """One row of `list --json`: the keys every row has (LIST_KEYS, as ever), and only
    where they apply (issue 46) `questions_read: false` (the questions could not be read:
    then `questions` and `unanswered` are null, no count holds) and `unrecorded` (the
    questions listed with no answer recorded, in neither count)."""
    row: dict[str, Any] = r.model_dump(include=LIST_KEYS)
    if not r.questions_read:
        row.update(questions=None, unanswered=None, questions_read=False)
    if r.unrecorded:
        row["unrecorded"] = r.unrecorded
    return row


# -- index -------------------------------------------------------------------------------


def index_json(result: IndexResult) -> dict[str, Any]:
    return {
        "indexed": result.indexed,
        "unchanged": result.unchanged,
        "removed": result.removed,
        "failed": [f.model_dump() for f in result.failed],
        "skipped": [s.model_dump() for s in result.skipped],
        "forgotten": result.forgotten,
        # each file indexed with something missing, and its codes (warnings_of)
        "warnings": [w.model_dump() for w in sorted(result.warnings, key=lambda w: w.path)],
    }


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@db_option
@workspace_option
@json_option
def index(
    paths: tuple[str, ...], db_path: str | None, workspace: str | None, as_json: bool
) -> None:
    """Index transcript files and folders (new, changed and removed files), into one
    workspace's data with --workspace."""
    store = open_space(db_path, workspace, create=True, writes=True)
    bulk: dict[str, Any] = {
        "workers": default_workers(),
        "batch_seconds": 2.0,
        # a file that now names another person than its decided interview was: the ATS
        # hears of each person's decision that changed (store/candidates.py `save`)
        "webhook": hands_decisions(settings_for(db_path), store),
    }
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

        loc = settings_for(db_path).locale
        columns = (
            TextColumn(t(loc, "progress_indexing")),
            BarColumn(),
            MofNCompleteColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn(t(loc, "progress_left")),
            TimeRemainingColumn(),
        )
        with Progress(*columns, transient=True) as bar:
            task = bar.add_task("index", total=None, rate="")

            def progress(done: int, total: int) -> None:
                speed = bar.tasks[0].speed
                rate = t(loc, "progress_rate", n=f"{speed:,.0f}") if speed else ""
                bar.update(task, completed=done, total=total, rate=rate)

            result = index_paths(store, paths, progress=progress, **bulk)
    store.record_index_run(result)
    if as_json:
        echo_json(index_json(result))
    else:
        loc = settings_for(db_path).locale
        click.echo(text.index_summary(result, loc))
        for s in result.skipped:
            why = reason_text(loc, s.reason)
            click.secho(t(loc, "skipped_file", path=s.path, reason=why), err=True)
        for f in result.failed:
            where = f"{f.path}:{f.line}" if f.line else f.path
            why = reason_text(loc, f.error, f.code, f.params)
            click.secho(t(loc, "failed_file", path=where, reason=why), fg="yellow", err=True)
        for w in sorted(result.warnings, key=lambda w: w.path):
            click.secho(text.index_warning(w, loc), err=True)
    missing = any(not os.path.lexists(p) for p in paths)
    sys.exit(1 if missing or any(run_failed(f.code) for f in result.failed) else 0)


# What the file system says when the disk, not a file, is at fault.
_DISK_ERRORS = frozenset({"os_EIO", "os_ENOSPC", "os_EROFS", "os_EDQUOT", "os_ENOMEM", "os_EMFILE"})


def run_failed(code: str) -> bool:
    """Does a failure say the run itself could not work, not one file? The database
    would not hold what was read (`unstorable`), or the disk would not give it. A file
    that is damaged, too large, a broken link, unreadable to us or gone since it was
    listed is that file's: reported, and the run exits 0 (one file never fails a run)."""
    return code == "unstorable" or code in _DISK_ERRORS


# -- show ----------------------------------------------------------------------------------


def _question_json(c: Candidate, q: Question) -> dict[str, Any]:
    out: dict[str, Any] = {
        "number": q.number,
        "question": q.question,
        "goal": q.goal,
        "answer": q.answer,
        # a question whose answer the file does not record counts neither way:
        # answered only by a follow-up in a thread (issue 46)
        "answered": not c.is_open(q) if q.answer_recorded else c.followup_for(q.number) is not None,
        "unanswered_reason": q.unanswered_reason if c.is_open(q) else None,
        "started_at": q.started_at,
    }
    if not q.answer_recorded:  # only where it applies: the keys of every question as ever
        out["answer_recorded"] = False
    return out


def candidate_json(c: Candidate) -> dict[str, Any]:
    """`show --json`. The keys every candidate has, as ever; where the questions could
    not be read (issue 46), `questions_read: false` and `body`, the text as written."""
    unread = {} if c.questions_read else {"questions_read": False, "body": c.body}
    return {
        "id": c.id,
        "candidate_key": c.candidate_key,
        "position": c.position,
        "years": plain_years(c.years),
        "years_text": c.years_text,
        **{key: getattr(c, key) for key in FACT_KEYS},
        "intro": c.intro,
        "summary": c.summary,
        "questions": [_question_json(c, q) for q in c.questions],
        "verdict": c.verdict,
        "kind": c.kind,
        **unread,
        # where a meeting tool brought it by itself (issue 48): the meeting's topic, and
        # the meeting; None for a file somebody brought
        "title": c.title,
        "origin": c.origin.model_dump() if c.origin is not None else None,
        "source": c.source,
        "decisions": [d.model_dump() for d in c.decisions],
        "followups": [f.model_dump() for f in c.followups],
        "indexed_at": c.indexed_at,
        "outcome": c.outcome.model_dump() if c.outcome else None,
        # questions_unread or no_questions, no_summary, no_verdict: [] if none
        "warnings": list(warnings_of(c)),
        "unsupported": [claim.as_json() for claim in claims_of(c)],
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
        raise Failure("cli_no_match", query=who)
    matches = found.matches

    def pick(loc: Locale) -> str:
        lines = "\n".join(
            "  " + text.pick_line(m, loc)  # id, name · position · round · date · interviewers
            for m in matches
        )
        return t(loc, "cli_ambiguous", count=len(matches), query=who, lines=lines)

    raise Failure(pick)


@click.command()
@click.argument("candidate", nargs=-1, required=True)
@db_option
@workspace_option
@json_option
def show(
    candidate: tuple[str, ...], db_path: str | None, workspace: str | None, as_json: bool
) -> None:
    """Show one candidate: an id, a unique id prefix, or words matching one candidate."""
    store = open_space(db_path, workspace)
    c = resolve_or_exit(store, " ".join(candidate), as_json)
    if as_json:
        echo_json(candidate_json(c))
        return
    click.echo(text.candidate_text(c, settings_for(db_path).locale))


# -- search --------------------------------------------------------------------------------


@click.command()
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
@workspace_option
@json_option
def search(
    query: tuple[str, ...],
    db_path: str | None,
    limit: int,
    sort: str,
    workspace: str | None,
    as_json: bool,
) -> None:
    """Full-text search: best matches first."""
    words = " ".join(query).split()  # any Unicode space separates words
    if not words:
        raise BadUsage("cli_empty_query")
    store = open_space(db_path, workspace)
    try:
        hits = store.search(
            " ".join(words), limit=limit, sort="newest" if sort == "newest" else "relevance"
        )
    except QueryTooLong as refused:  # nothing searched: say why, as a usage error
        raise BadUsage(
            "search_too_many_terms" if refused.reason == "terms" else "search_too_long",
            found=refused.found,
            most=refused.most,
        ) from refused
    if as_json:
        echo_json([h.model_dump(include=SEARCH_KEYS) for h in hits])
        return
    loc = settings_for(db_path).locale
    if not hits:
        click.echo(t(loc, "no_matches"))
    for h in hits:
        click.echo(text.hit_text(h, loc))


# -- list ----------------------------------------------------------------------------------


@click.command(name="list")
@click.argument("position", required=False)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=None,
    help="At most N candidates (default: 50 in a terminal, all otherwise).",
)
@click.option("--offset", type=click.IntRange(min=0), default=0, help="Skip the first M.")
@db_option
@workspace_option
@json_option
def list_(
    position: str | None,
    limit: int | None,
    offset: int,
    db_path: str | None,
    workspace: str | None,
    as_json: bool,
) -> None:
    """Candidates, newest first, optionally for one position."""
    store = open_space(db_path, workspace)
    if limit is None and not as_json and sys.stdout.isatty():
        limit = 50
    rows = store.list_candidates(position, limit=limit, offset=offset)
    if as_json:
        echo_json([list_row_json(r) for r in rows])
        return
    loc = settings_for(db_path).locale
    if not rows:
        click.echo(text.nothing_listed(position, loc))
    for r in rows:
        click.echo(text.list_line(r, loc))
    total = store.count(position)
    if limit is not None and offset + len(rows) < total:
        click.secho(text.more(offset + 1, offset + len(rows), total, loc), dim=True)


@click.group(cls=Debrief, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="debrief-bot")
def cli() -> None:
    """Debrief: interview transcripts, indexed, in Slack."""


# reading the index
cli.add_command(index)
cli.add_command(show)
cli.add_command(search)
cli.add_command(list_)
cli.add_command(loop)  # the candidate as a person (bot/loops.py)
cli.add_command(link)
cli.add_command(unlink)
# Slack, or speaking as the bot (bot/cli_slack.py)
cli.add_command(serve)
cli.add_command(ask)
cli.add_command(digest)
cli.add_command(remind)
# the operator's (bot/ops.py, bot/migrate_db.py)
cli.add_command(doctor)
cli.add_command(backup)
cli.add_command(stats)
cli.add_command(audit)
cli.add_command(forget)
cli.add_command(retention)
cli.add_command(migrate_workspace)
cli.add_command(migrate_db)
cli.add_command(export)
# Zoom's cloud transcripts (bot/cli_zoom.py)
cli.add_command(zoom)


def main() -> None:
    cli(prog_name="debrief")
