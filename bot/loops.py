"""`debrief loop`, `link` and `unlink` (issue 38): the candidate as a person, their
interviews one loop, and putting a wrong grouping right. The store finds and groups
(store/loops.py); this prints, in DEBRIEF_LOCALE, or as JSON."""

from __future__ import annotations

from typing import Any

import click

from handlers.audit import AuditEvent, record
from handlers.views.common import nothing_counted
from handlers.views.loops import all_counted
from store.factory import Backend
from store.loop_models import Alike, Loop, LoopSummary
from store.models import Locale

from . import cli_text as text
from .cli_common import (
    BadUsage,
    Failure,
    db_option,
    echo_json,
    json_option,
    open_space,
    settings_for,
    workspace_option,
)
from .webhook import hands_decisions
from .words import t

LOOP_KEYS = ("key", "name", "position", "interviews", "open", "outcome")
"""`debrief loop --json`: these keys, in this order (docs/reference.md)."""


def loop_json(loop: Loop) -> dict[str, Any]:
    return {
        "key": loop.key,
        "name": loop.name,
        "position": loop.position,
        "interviews": [
            {
                "id": i.id,
                "round": i.round,
                "interviewed_at": i.interviewed_at,
                "interviewers": i.interviewers,
                "decisions": dict(i.decisions),
                "open_questions": i.open_questions,
            }
            for i in loop.interviews
        ],
        "open": [
            {"interview": q.interview, "number": q.number, "question": q.question}
            for q in loop.open
        ],
        "outcome": loop.outcome.model_dump() if loop.outcome else None,
    }


def summary_line(s: LoopSummary, loc: Locale) -> str:
    """`c_…  王小明 · 后端工程师 · 2 场面试 · 2026-11-25 · 一面 2026-11-20, 二面 2026-11-25 ·
    面试官：李四`: one of several candidates, told apart by rounds, dates, interviewers."""
    rounds = ", ".join(
        " ".join(p for p in (r or "", (s.dates[n] if n < len(s.dates) else "")[:16]) if p)
        for n, r in enumerate(s.rounds)
    )
    parts = [
        s.name or t(loc, "cli_loop_no_name"),
        text.position(s.position, loc),
        t(loc, "cli_loop_count", n=s.interviews),
        (s.newest or "").replace("T", " ")[:16],
        rounds,  # issue 45: two people of one name and position told apart
        text.interviewers(s.interviewers, loc),
    ]
    return f"{s.key}  " + " · ".join(p for p in parts if p)


def one_loop(store: Backend, who: str) -> LoopSummary:
    """The one candidate `who` names (a name, an interview's id, a key); exit 1 when none,
    exit 2 with the candidates listed (on stderr) when several."""
    found = store.find_loops(who)
    if not found:
        raise Failure("cli_no_match", query=who)
    if len(found) > 1:

        def pick(loc: Locale) -> str:
            listed = "\n".join("  " + summary_line(s, loc) for s in found)
            return t(loc, "cli_loop_ambiguous", count=len(found), query=who, lines=listed)

        raise BadUsage(pick)
    return found[0]


def loop_text(loop: Loop, loc: Locale) -> list[str]:
    out = [
        t(
            loc,
            "cli_loop_head",
            who=loop.name or t(loc, "cli_loop_no_name"),
            position=text.position(loop.position, loc),
            n=len(loop.interviews),
            code=loop.key,
        )
    ]
    for n, i in enumerate(loop.interviews, start=1):
        tally = ", ".join(f"{t(loc, f'decision_{d}')} ×{c}" for d, c in i.decisions.items())
        parts = [
            t(loc, "cli_loop_nth", i=n),
            i.round or "",
            (i.interviewed_at or "").replace("T", " ")[:16] or i.interviewed_at_text,
            text.interviewers(i.interviewers, loc),
            t(loc, "cli_loop_decisions", tally=tally) if tally else "",
            t(loc, "cli_loop_open_here", numbers=", ".join(map(str, i.open_questions)))
            if i.open_questions
            else "",
            nothing_counted(i.questions_read, i.unrecorded, loc)
            if not i.questions and (not i.questions_read or i.unrecorded)
            else "",
        ]
        out.append(f"{i.id}  " + " · ".join(p for p in parts if p))
    if loop.open:
        out.append(t(loc, "cli_loop_open_title"))
        out += [
            "  "
            + t(
                loc,
                "cli_loop_open_line",
                round=q.round or q.interview,
                question_no=t(loc, "question_short", n=q.number),
                question=q.question,
            )
            for q in loop.open
        ]
    elif all_counted(loop):
        out.append(t(loc, "cli_loop_open_none"))
    else:  # an interview whose questions are unread or record no answer (issue 46)
        out.append(t(loc, "loop_card_open_none_counted"))
    if loop.outcome is None:
        out.append(t(loc, "cli_loop_no_outcome"))
    else:
        o = loop.outcome
        decision = t(loc, f"outcome_{o.decision}")
        out.append(t(loc, "cli_loop_outcome", decision=decision, by=o.by, at=o.at[:16]))
    return out


@click.command()
@click.argument("who", nargs=-1, required=True)
@db_option
@workspace_option
@json_option
def loop(who: tuple[str, ...], db_path: str | None, workspace: str | None, as_json: bool) -> None:
    """A candidate's whole loop (WHO: a name, an interview's id, or a candidate's key):
    each interview oldest first, the questions still open, the hiring decision."""
    store = open_space(db_path, workspace)
    found = one_loop(store, " ".join(who))
    shown = store.loop(found.key)
    if shown is None:  # its interviews went between the two reads
        raise Failure("cli_no_match", query=" ".join(who))
    if as_json:
        echo_json(loop_json(shown))
        return
    loc = settings_for(db_path).locale
    for line in loop_text(shown, loc):
        click.echo(line)
    newest = shown.interviews[-1].id if shown.interviews else None
    alike = store.people_alike(newest) if newest is not None else None
    if alike is not None and (alike.pending or alike.why == "conflict"):
        click.echo(alike_text(newest or "", alike, loc))


def alike_text(interview: str, alike: Alike, loc: Locale) -> str:
    """Two people alike (issue 45): the people a later interview waits to be picked
    among, or who else an explicit key names."""
    lines = "\n".join("  " + summary_line(s, loc) for s in alike.people)
    if alike.pending:
        return t(loc, "cli_loop_pending", id=interview, count=len(alike.people), lines=lines)
    return t(loc, "cli_loop_conflict", ref=alike.ref or "", lines=lines)


@click.command()
@click.argument("a")
@click.argument("b")
@db_option
@workspace_option
def link(a: str, b: str, db_path: str | None, workspace: str | None) -> None:
    """Make B's candidate's interviews A's candidate's (each a name, an interview's id,
    or a candidate's key): kept when the files are indexed again, audited."""
    store = open_space(db_path, workspace, writes=True)
    into, moved = one_loop(store, a), one_loop(store, b)
    loc = settings_for(db_path).locale
    if into.key == moved.key:
        click.echo(t(loc, "cli_link_same", code=into.key))
        return
    key = store.link(into.key, moved.key, "cli", hands_decisions(settings_for(db_path), store))
    record(store, [AuditEvent("cli", f"link:{key}", i) for i in moved.ids])
    click.echo(t(loc, "cli_linked", code=key, n=into.interviews + moved.interviews))


@click.command()
@click.argument("interview")
@db_option
@workspace_option
def unlink(interview: str, db_path: str | None, workspace: str | None) -> None:
    """Make one interview (its id, or a name that finds one) a candidate of its own:
    kept when the files are indexed again, audited."""
    store = open_space(db_path, workspace, writes=True)
    found = store.resolve(interview)
    if not found.matches:
        raise Failure("cli_no_match", query=interview)
    if found.unique is None:
        matches = found.matches

        def pick(loc: Locale) -> str:
            lines = "\n".join("  " + text.pick_line(m, loc) for m in matches)
            return t(
                loc,
                "cli_loop_interview_ambiguous",
                count=len(matches),
                query=interview,
                lines=lines,
            )

        raise BadUsage(pick)
    one = found.unique.id
    key = store.unlink(one, "cli", hands_decisions(settings_for(db_path), store))
    record(store, [AuditEvent("cli", f"unlink:{key}", one)])
    click.echo(t(settings_for(db_path).locale, "cli_unlinked", id=one, code=key))
