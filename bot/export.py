"""`debrief export`: every candidate with the hiring decision and each reviewer's current
decision, for an applicant tracking system (ATS).

CSV (the default) is UTF-8 with a byte order mark, so that Excel opens Chinese as
Chinese; one column pair per reviewer. JSON is a list of objects, the reviews a list.
To a file (created readable by you alone; an existing one is kept unless --force, as
`backup` does; a symbolic link is refused, never followed) or to stdout. A CSV cell that
would start a formula (`=`, `+`, `-`, `@`, a tab, a carriage return) gets a leading `'`,
so a spreadsheet shows it as text.
"""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import click

from store.export_models import ExportRow

from .cli_common import BadUsage, db_option, open_space, workspace_option
from .ops import parse_since
from .settings import load_settings
from .words import t

COLUMNS = (
    "id",
    "name",
    "position",
    "round",
    "interviewed_at",
    "outcome",
    "outcome_by",
    "outcome_at",
    "team_id",
    "team_name",
    "enterprise_id",
    "enterprise_name",
    "candidate_key",
)
"""The columns every row has, in this order (whose candidate it is: the workspace or
organisation of its data space, issue 34; then who the candidate is, issue 38); the
reviewers' follow in CSV."""

BOM = "\ufeff"

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP, CSV injection)."""


def cell(value: object) -> str:
    """A CSV cell a spreadsheet shows as text: one that would start a formula gets a
    leading `'` (OWASP's advice), whatever it holds (ids and file names too)."""
    found = "" if value is None else str(value)
    return "'" + found if found.startswith(FORMULA_STARTS) else found


def as_json(found: list[ExportRow]) -> str:
    return json.dumps(
        [
            {key: getattr(r, key) for key in COLUMNS}
            | {"reviews": [v.model_dump() for v in r.reviews]}
            for r in found
        ],
        ensure_ascii=False,
        indent=2,
    )


def as_csv(found: list[ExportRow]) -> str:
    """One row per candidate; for each reviewer (in order of their id) two columns,
    `<reviewer> decision` and `<reviewer> note`, empty where they did not decide."""
    reviewers = sorted({v.reviewer for r in found for v in r.reviews})
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(
        [
            cell(c)
            for c in (
                *COLUMNS,
                *(f"{who} {part}" for who in reviewers for part in ("decision", "note")),
            )
        ]
    )
    for r in found:
        by_reviewer = {v.reviewer: v for v in r.reviews}
        row: list[Any] = [getattr(r, key) or "" for key in COLUMNS]
        for who in reviewers:
            said = by_reviewer.get(who)
            row += [said.decision, said.note] if said else ["", ""]
        writer.writerow([cell(c) for c in row])
    return BOM + out.getvalue()


PER_CANDIDATE = (
    "candidate_key",
    "name",
    "position",
    "interviews",
    "outcome",
    "outcome_by",
    "outcome_at",
    "team_id",
    "team_name",
    "enterprise_id",
    "enterprise_name",
)
"""`--per candidate`: one row per candidate (issue 38), these keys; `interviews` a list
of {id, round, interviewed_at} oldest first (in CSV: `interview_ids`, `rounds`, `dates`,
each `; `-separated, after `interviews`, their count)."""


def per_candidate(found: list[ExportRow]) -> list[dict[str, Any]]:
    """The export's rows (newest interview first) as one row per candidate, newest first."""
    people: dict[str, list[ExportRow]] = {}
    for r in found:
        people.setdefault(r.candidate_key or r.id, []).append(r)
    out = []
    for key, rs in people.items():
        oldest = sorted(rs, key=lambda r: (r.interviewed_at or "", r.id))
        newest = rs[0]
        out.append(
            {
                "candidate_key": key,
                "name": next((r.name for r in rs if r.name), None),
                "position": newest.position,
                "interviews": [
                    {"id": r.id, "round": r.round, "interviewed_at": r.interviewed_at}
                    for r in oldest
                ],
                **{k: getattr(newest, k) for k in PER_CANDIDATE[4:]},
            }
        )
    return out


def per_candidate_csv(found: list[ExportRow]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    head = [*PER_CANDIDATE[:4], "interview_ids", "rounds", "dates", *PER_CANDIDATE[4:]]
    writer.writerow(head)
    for p in per_candidate(found):
        seen = p["interviews"]
        row = [
            p["candidate_key"],
            p["name"],
            p["position"],
            len(seen),
            "; ".join(i["id"] for i in seen),
            "; ".join(i["round"] or "" for i in seen),
            "; ".join(i["interviewed_at"] or "" for i in seen),
            *(p[k] for k in PER_CANDIDATE[4:]),
        ]
        writer.writerow([cell(c) for c in row])
    return BOM + out.getvalue()


def _write(path: str, content: str, force: bool) -> None:
    """Write `content` to `path`, for its owner alone; a symbolic link is refused, never
    followed (--force would otherwise replace, and chmod, whatever it points at)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | (os.O_TRUNC if force else os.O_EXCL)
    if force and os.path.islink(path):
        raise BadUsage("export_symlink", path=path)
    try:
        fd = os.open(path, flags, stat.S_IRUSR | stat.S_IWUSR)
    except FileExistsError:
        raise BadUsage("backup_exists", path=path) from None
    except (FileNotFoundError, NotADirectoryError):
        folder = str(Path(path).expanduser().resolve().parent)
        raise BadUsage("backup_no_folder", folder=folder) from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # made a link between the check and the open
            raise BadUsage("export_symlink", path=path) from None
        raise
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        os.fchmod(f.fileno(), stat.S_IRUSR | stat.S_IWUSR)  # replaced or not, for you alone
        f.write(content)


@click.command()
@click.option(
    "--since",
    metavar="WHEN",
    help=(
        "Only candidates interviewed since then (or, without an interview date, indexed"
        " since then): 30d, 24h; today, yesterday; or a date (YYYY-MM-DD)."
    ),
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["csv", "json"]),
    default="csv",
    show_default=True,
    help="CSV (UTF-8 with a BOM, for Excel) or JSON.",
)
@click.option(
    "--output",
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="Write to FILE (readable by you alone) instead of stdout.",
)
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
@click.option(
    "--per",
    type=click.Choice(["interview", "candidate"]),
    default="interview",
    show_default=True,
    help="One row per interview, or per candidate (a person: their interviews in one row).",
)
@db_option
@workspace_option
def export(
    since: str | None,
    fmt: str,
    output: str | None,
    force: bool,
    per: str,
    db_path: str | None,
    workspace: str | None,
) -> None:
    """Every candidate with the hiring decision (outcome, by whom, when) and each
    reviewer's current decision and note, for an applicant tracking system."""
    settings = load_settings(db_path=db_path)
    start = parse_since(since, settings.tz) if since else None
    found = open_space(db_path, workspace).export_rows(start)
    if per == "candidate":
        content = (
            per_candidate_csv(found)
            if fmt == "csv"
            else json.dumps(per_candidate(found), ensure_ascii=False, indent=2) + "\n"
        )
    else:
        content = as_csv(found) if fmt == "csv" else as_json(found) + "\n"
    if output:
        _write(output, content, force)
        n = len({r.candidate_key or r.id for r in found}) if per == "candidate" else len(found)
        click.echo(t(settings.locale, "exported", n=n, path=output), err=True)
    else:
        sys.stdout.buffer.write(content.encode("utf-8"))
        sys.stdout.buffer.flush()
