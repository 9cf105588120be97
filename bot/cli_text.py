"""What the command line prints for people (not `--json`), in DEBRIEF_LOCALE.

Pure functions from models to text, in the words Slack uses too: every word comes
from the command line's catalogue (bot/words/), which stands over Slack's. Chinese
output uses Chinese words and full-width colons throughout, English output English ones.
"""

from __future__ import annotations

import errno
import os

import click

from handlers.views.claims import claim_lines
from handlers.views.common import questions_text
from store.claims.check import claims_of
from store.errors import (
    BusyError,
    DiskFullError,
    NewerSchemaError,
    NoDatabaseError,
    StoreError,
    UnreachableError,
    UnstorableError,
)
from store.models import (
    Candidate,
    CandidateSummary,
    IndexResult,
    IndexWarning,
    Locale,
    Question,
    SearchHit,
    plain_years,
)
from store.transcripts.warnings import warnings_of

from .words import has, t


def years(value: float | None, locale: Locale) -> str:
    if value is None:
        return t(locale, "years_unknown")
    return t(locale, "years", years=plain_years(value))


def position(value: str | None, locale: Locale) -> str:
    return value or t(locale, "position_unknown")


def _open_mark(c: Candidate, q: Question, locale: Locale) -> str:
    if not q.answer_recorded and c.followup_for(q.number) is None:  # counted neither way
        return "  " + t(locale, "open_mark", reason=t(locale, "answer_not_recorded"))
    if not c.is_open(q):
        return ""
    reason = t(locale, f"reason_{q.unanswered_reason or 'empty'}")
    return "  " + t(locale, "open_mark", reason=reason)


def labelled(locale: Locale, key: str, text: str, **values: object) -> str:
    """`考察目标：…` / `Assesses: …`: a word of the catalogue, then what it labels."""
    return t(locale, "labelled", label=t(locale, key, **values), text=text)


def interview_date(c: Candidate | CandidateSummary) -> str:
    """`2026-11-28` or `2026-11-28 14:30` where the file gives a date, else what it wrote
    (`下周二`), else nothing."""
    if c.interviewed_at:
        return c.interviewed_at.replace("T", " ")[:16]
    return c.interviewed_at_text


def interviewers(names: list[str], locale: Locale) -> str:
    """`面试官：李四、王五` / `Interviewers: Alice, Bob`; empty when the file names none."""
    if not names:
        return ""
    return labelled(locale, "interviewers_label", t(locale, "name_separator").join(names))


def _facts(c: Candidate, locale: Locale) -> str:
    """The round, the date and the interviewers, where the file gives them."""
    facts = [
        labelled(locale, "round_label", c.round) if c.round else "",
        labelled(locale, "date_label", interview_date(c)) if interview_date(c) else "",
        interviewers(c.interviewers, locale),
    ]
    return "  ".join(f for f in facts if f)


def candidate_text(c: Candidate, locale: Locale) -> str:
    """One candidate in full, as `debrief show` prints it."""
    top = [c.id, c.name or "", position(c.position, locale), years(c.years, locale)]
    out = [click.style("  ".join(p for p in top if p), bold=True)]
    if _facts(c, locale):
        out.append(_facts(c, locale))
    if c.intro:
        out.append(labelled(locale, "profile", c.intro))
    if c.summary:
        out.append(f"\n{c.summary}")
    missing = warnings_of(c)  # said where it would be shown, never made up
    if "no_summary" in missing and c.kind != "meeting":
        out.append("\n" + t(locale, "no_summary"))
    if "questions_unread" in missing:  # the text as written: no count, nothing claimed
        out.append("\n" + t(locale, "questions_unread"))
        out.append(
            click.style("\n" + t(locale, "heading", label=t(locale, "body_title")), bold=True)
        )
        out.append(c.body.strip())
    elif "no_questions" in missing:
        kind = "no_questions_meeting" if c.kind == "meeting" else "no_questions"
        out.append("\n" + t(locale, kind))
    elif c.unrecorded and not c.counted:
        out.append("\n" + t(locale, "all_unrecorded", count=len(c.unrecorded)))
    for q in c.questions:
        head = labelled(locale, "question_short", q.question, n=q.number)
        out.append(click.style("\n" + head + _open_mark(c, q, locale), bold=True))
        if q.goal:
            out.append(labelled(locale, "goal", q.goal))
        out.append(labelled(locale, "answer", q.answer or "—"))
        followup = c.followup_for(q.number)
        if followup:
            out.append(labelled(locale, "followup", followup.answer, who=followup.reviewer))
    out.append(click.style("\n" + t(locale, "heading", label=t(locale, "verdict")), bold=True))
    no_verdict = "meeting_no_verdict" if c.kind == "meeting" else "no_verdict"
    out.append(c.verdict or t(locale, no_verdict))
    claims = claims_of(c)  # what is credited that was never answered
    if claims:
        out.append("\n" + "\n".join(claim_lines(claims, locale, plain=True, shown=len(claims))))
    out.append("\n" + labelled(locale, "source", c.source))
    return "\n".join(out)


def list_line(r: CandidateSummary, locale: Locale) -> str:
    """`id  name  position  years  date  counts  verdict`, the name and the date where the
    file gives them."""
    counts = questions_text(  # never `0 题，0 题未回答`
        r.questions, r.unanswered, locale, r.questions_read, r.unrecorded
    )
    verdict = t(locale, "with_verdict" if r.has_verdict else "without_verdict")
    parts = [
        r.id,
        r.name or "",
        position(r.position, locale),
        years(r.years, locale),
        interview_date(r),
        counts,
        verdict,
    ]
    return "  ".join(p for p in parts if p)


def pick_line(m: CandidateSummary, locale: Locale) -> str:
    """One of several matches: `id  name · position · round · date · interviewers`, what
    tells two interviews of one person (or two people of one name) apart."""
    who = [
        m.name or "",
        position(m.position, locale),
        m.round or "",
        interview_date(m),
        interviewers(m.interviewers, locale),
    ]
    return f"{m.id}  " + " · ".join(p for p in who if p)


def more(first: int, last: int, total: int, locale: Locale) -> str:
    """`第 1–50 位，共 120 位：--offset 50 看后面的`: a page of `list`, and how to go on."""
    page = t(locale, "list_page", first=first, last=last, total=total)
    return page + t(locale, "more_offset", last=last)


def nothing_listed(position_filter: str | None, locale: Locale) -> str:
    if position_filter:
        return t(locale, "no_position", position=position_filter)
    return t(locale, "no_candidates")


def matched(h: SearchHit, locale: Locale) -> str:
    """What a hit matched, for a reader (a score means nothing to one): `匹配：分布式`, or
    `部分匹配：只有 优化` when it holds only some words of a Chinese phrase."""
    terms = t(locale, "term_separator").join(h.matched)
    return t(locale, "hit_partial" if h.partial else "hit_matched", terms=terms)


def hit_text(h: SearchHit, locale: Locale) -> str:
    head = click.style(
        f"{h.id}  {position(h.position, locale)}  {years(h.years, locale)}", bold=True
    )
    head += "  " + matched(h, locale)
    where = t(locale, "question_short", n=h.question) + " " if h.question is not None else ""
    snippet = h.snippet
    if h.highlight:
        a, b = h.highlight
        snippet = snippet[:a] + click.style(snippet[a:b], fg="yellow", bold=True) + snippet[b:]
    return f"{head}\n  {where}{snippet}"


def index_warning(w: IndexWarning, locale: Locale) -> str:
    """`  注意：path：没有找到问题、没有面试总结、没有点评`: a file indexed with something
    missing, in the locale's words for its codes."""
    what = t(locale, "name_separator").join(t(locale, f"warning_{code}") for code in w.warnings)
    return t(locale, "warned_file", path=w.path, what=what)


def index_summary(result: IndexResult, locale: Locale) -> str:
    text = t(
        locale,
        "index_summary",
        indexed=len(result.indexed),
        unchanged=len(result.unchanged),
        removed=len(result.removed),
        failed=len(result.failed),
    )
    if result.skipped:
        text += t(locale, "index_skipped", skipped=len(result.skipped))
    return text


def removed_parts(counts: dict[str, int], locale: Locale) -> str:
    """What `forget` removed, as `5 questions, 0 decisions` or `问题 5 条，评审结论 0 条`."""
    parts = [
        t(
            locale,
            "removed_part",
            what=t(locale, f"n_{what}") if has(f"n_{what}") else _raw(what, locale),
            n=n,
        )
        for what, n in counts.items()
    ]
    return ("，" if locale == "zh" else ", ").join(parts)


def _raw(what: str, locale: Locale) -> str:
    return what if locale == "zh" else what.replace("_", " ")


def shown_path(path: str) -> str:
    """A database path as the user can find it: a file with its folder (`debrief.db` ->
    `/srv/debrief/debrief.db`); a server's URL as it is."""
    if "://" in path or path == ":memory:":
        return path
    return os.path.abspath(os.path.expanduser(path))


def store_error(exc: StoreError, locale: Locale) -> str:
    """A store error, said in `locale`: our own words, with what the database driver
    reported quoted as it said it (it speaks English only)."""
    detail = str(exc)
    if isinstance(exc, NoDatabaseError):
        return t(locale, "store_no_database", path=shown_path(exc.path))
    if isinstance(exc, DiskFullError):
        path = shown_path(exc.path)
        if "://" in path:  # a database server: its disk, not one of ours
            return t(locale, "store_server_full", path=path)
        return t(locale, "store_disk_full", path=path, where=os.path.dirname(path))
    for kind, key in (
        (BusyError, "store_busy"),
        (UnreachableError, "store_unreachable"),
        (NewerSchemaError, "store_newer_schema"),
        (UnstorableError, "store_unstorable"),
    ):
        if isinstance(exc, kind):
            return t(locale, key, detail=detail)
    return t(locale, "store_error", detail=detail)


def os_reason(exc: OSError, locale: Locale) -> str:
    """What the operating system said, in `locale`: `没有这个文件或文件夹`, `端口已被占用…`;
    an error without words of ours is quoted as the system said it."""
    name = errno.errorcode.get(exc.errno or 0, "")
    key = f"os_{name}"
    if name and has(key):
        return t(locale, key)
    return t(locale, "os_other", detail=exc.strerror or str(exc) or type(exc).__name__)
