"""Rows -> models, the same on every backend.

What a row means once read (a Candidate, a summary, a search hit, a digest line, a
reviewer's decisions and notes, the health and stats reports) lives here once, so the
two backends cannot drift apart in what they show, even where each reads it with its
own SQL (search, health).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from . import fulltext
from .fulltext import Sort, Term
from .models import (
    DECISIONS,
    Candidate,
    CandidateSummary,
    Decision,
    DecisionRecord,
    DigestCategory,
    DigestData,
    DigestLine,
    Followup,
    HealthCheck,
    IndexResult,
    IndexRun,
    Note,
    Origin,
    Question,
    SearchHit,
)

Row = Mapping[str, Any]
Reviews = tuple[list[DecisionRecord], list[Followup], list[Note]]
Fields = dict[int, list[tuple[str, int | None]]]

QUESTION_COLUMNS = "number, question, goal, answer, answered"
"""A question row's columns, in the order `question()` reads them; the sixth is why an
unanswered one is unanswered (or NULL where the schema has no such column yet), the
seventh, where read, its time in a meeting's recording (`started_at`), the eighth, where
read, whether the file records its answer (`answer_recorded`, issue 46)."""

FACT_COLUMNS = "name, interviewers, interviewed_at, interviewed_at_text, round"
"""Who and when, from the transcript's header: the columns `facts()` reads."""

NEWEST_FIRST = "coalesce({p}interviewed_at, {p}first_indexed_at) DESC"
"""The order of lists, `{p}` a table's alias and a dot (or nothing): by the interview's
date where the file gives one, else by when it was first indexed, newest first (ISO 8601
strings: a date sorts before the times of the same day). An index serves it."""

SUMMARY_SQL = (
    f"SELECT id, position, years, years_text, {FACT_COLUMNS}, question_count,"
    " unanswered_count, verdict IS NOT NULL AS has_verdict, first_indexed_at, candidate_key,"
    " questions_read, unrecorded_count"
    " FROM candidates"
)
"""A CandidateSummary's columns; both dialects say it the same way."""


def summary_sql(rows_of: str) -> str:
    """SUMMARY_SQL over the candidates `rows_of` names (`candidates WHERE ws = 3`): a
    subquery named `candidates`, so that a clause after it reads as it would on the table."""
    return (
        SUMMARY_SQL.removesuffix("FROM candidates")
        + f"FROM (SELECT * FROM {rows_of}) AS candidates"
    )


LAST_INDEX_RUN = "last_index_run"
"""The `meta` key of the last index run's record."""


def question(r: Sequence[Any]) -> Question:
    recorded = bool(r[7]) if len(r) > 7 else True
    return Question(
        number=r[0],
        question=r[1],
        goal=r[2],
        answer=r[3],
        answered=bool(r[4]),
        unanswered_reason=r[5] if not r[4] and recorded else None,
        started_at=r[6] if len(r) > 6 else None,
        answer_recorded=recorded,
    )


def names_json(names: Sequence[str]) -> str:
    """A list of names as its column holds it: a JSON array."""
    return json.dumps(list(names), ensure_ascii=False)


def names(stored: object) -> list[str]:
    """A names column back as a list; anything but a JSON array of strings is none."""
    try:
        found = json.loads(stored) if isinstance(stored, str) else None
    except ValueError:
        return []
    return [n for n in found if isinstance(n, str)] if isinstance(found, list) else []


def origin_json(found: Origin | None) -> str | None:
    """An interview's origin as its column holds it: a JSON object, NULL for none."""
    return None if found is None else found.model_dump_json()


def origin(stored: object) -> Origin | None:
    """The origin column back; anything but what `origin_json` wrote is none."""
    if not isinstance(stored, str) or not stored:
        return None
    try:
        return Origin.model_validate_json(stored)
    except ValueError:
        return None


def facts(r: Row) -> dict[str, Any]:
    """Who and when (FACT_COLUMNS) of a row, as the models name them."""
    return {
        "name": r.get("name"),
        "interviewers": names(r.get("interviewers")),
        "interviewed_at": r.get("interviewed_at"),
        "interviewed_at_text": r.get("interviewed_at_text") or "",
        "round": r.get("round"),
    }


def candidate(r: Row, questions: list[Question], reviews: Reviews) -> Candidate:
    decisions, followups, notes = reviews
    return Candidate(
        id=r["id"],
        position=r["position"],
        years=r["years"],
        years_text=r["years_text"] or "",
        **facts(r),
        intro=r["intro"] or "",
        summary=r["summary"] or "",
        questions=questions,
        verdict=r["verdict"],
        kind="meeting" if r.get("kind") == "meeting" else "notes",
        questions_read=bool(r.get("questions_read", 1)),
        body=r.get("body") or "",
        title=r.get("title"),
        origin=origin(r.get("origin")),
        source=r["source"] or "",
        hash=r["hash"],
        indexed_at=r["first_indexed_at"],
        candidate_ref=r.get("candidate_ref"),
        candidate_key=r.get("candidate_key"),
        decisions=decisions,
        followups=followups,
        notes=notes,
    )


def summary(r: Row) -> CandidateSummary:
    return CandidateSummary(
        id=r["id"],
        position=r["position"],
        years=r["years"],
        years_text=r["years_text"] or "",
        **facts(r),
        questions=r["question_count"],
        unanswered=r["unanswered_count"],
        has_verdict=bool(r["has_verdict"]),
        indexed_at=r["first_indexed_at"],
        candidate_key=r.get("candidate_key"),
        questions_read=bool(r.get("questions_read", 1)),
        unrecorded=r.get("unrecorded_count") or 0,
    )


def decision(value: object) -> Decision | None:
    """A stored decision as the `Decision` type, or None for anything else."""
    return next((d for d in DECISIONS if d == value), None)


def reviews(
    decisions: Iterable[Sequence[Any]],
    followups: Iterable[Sequence[Any]],
    notes_newest_first: Iterable[Sequence[Any]],
) -> Reviews:
    """(reviewer, decision, text, ts) rows, (number, answer, reviewer, ts) rows and
    (reviewer, text, ts) rows, newest first -> the models, each oldest first."""
    return (
        sorted(
            (
                DecisionRecord.model_validate(
                    {"reviewer": r[0], "decision": r[1], "text": r[2], "ts": r[3]}
                )
                for r in decisions
            ),
            key=lambda d: d.ts,
        ),
        [Followup(number=r[0], answer=r[1], reviewer=r[2], ts=r[3]) for r in followups],
        [Note(reviewer=r[0], text=r[1], ts=r[2]) for r in reversed(list(notes_newest_first))],
    )


def digest_line(r: Row) -> DigestLine:
    """A digest or Home tab line; `count` where the row has one."""
    return DigestLine(
        id=r["id"],
        position=r["position"],
        years=r["years"],
        name=r.get("name"),
        interviewed_at=r.get("interviewed_at"),
        round=r.get("round"),
        count=r.get("count", 0),
        questions=r.get("questions"),
        questions_read=bool(r.get("questions_read", 1)),
        unrecorded=r.get("unrecorded") or 0,
    )


def digest_data(
    categories: Iterable[DigestCategory],
    lines: Callable[[str, str, int], tuple[list[DigestLine], int]],
    since: str,
    per_category: int,
) -> DigestData:
    """Every category's first `per_category` lines and its total, from `lines`
    (a store's `digest_lines`)."""
    data = DigestData(since=since)
    for category in categories:
        found, total = lines(category, since, per_category)
        setattr(data, category, found)
        setattr(data, f"{category}_total", total)
    return data


Ranked = list[tuple[int, float]]
Found = list[tuple[int, float, list[Term], bool]]
"""(rid, score, the terms it matched, whether those are only the words of a phrase)."""


def ranked_rows(
    query: str, limit: int, sort: Sort, ranked: Callable[[list[Term], int], Ranked]
) -> Found:
    """The best `limit` candidates for `query`: the matches of a Chinese phrase as typed
    before the matches of its words, which are partial (`图优化` found as `优化` alone).
    `ranked` (terms, limit) is the backend's ranking of candidates containing every term."""
    limit = max(1, min(limit, 1000))
    parsed = fulltext.parse(query, segment=False)
    rows: Found = [(rid, s, parsed.exact, False) for rid, s in ranked(parsed.exact, limit)]
    if len(rows) < limit and any(
        t.kind == "trigram" and fulltext.is_cjk(t.text) for t in parsed.exact
    ):
        words = fulltext.parse(query).words
        if words:
            seen = {r[0] for r in rows}
            more = ranked(words, limit + len(rows))
            rows += [(rid, s, words, True) for rid, s in more if rid not in seen]
            if sort == "newest":
                rows.sort(key=lambda r: -r[0])
            rows = rows[:limit]
    return rows


def fields(heads: Iterable[Sequence[Any]], questions: Iterable[Sequence[Any]]) -> Fields:
    """(rid, position, intro, summary, verdict, name, interviewers, searched body) rows
    and (rid, number, question, goal, answer) rows in reading order -> each candidate's
    indexed text, field by field, with the number of the question each belongs to (None
    outside the questions); the name and interviewers last, as `fulltext.doc_text` has
    them."""
    head: Fields = {}
    tails: dict[int, list[tuple[str, int | None]]] = {}
    for rid, position, intro, summary_, verdict, name, interviewers, *body in heads:
        head[rid] = [(position or "", None), (intro or "", None), (summary_ or "", None)]
        if body and body[0]:
            head[rid].append((body[0], None))
        who = " ".join(n for n in (name or "", *names(interviewers)) if n)
        tails[rid] = [(verdict or "", None), (who, None)]
    for rid, number, question_, goal, answer in questions:
        head[rid] += [(question_, number), (goal, number), (answer, number)]
    return {rid: [*parts, *tails[rid]] for rid, parts in head.items()}


def search_hits(rows: Found, info: Mapping[int, Row], found: Fields | None) -> list[SearchHit]:
    """The hits, in `rows`' order: `info` (rid -> id, position, years) for each, with a
    snippet cut from `found` (None: no snippets) and the terms each matched. A rid not
    in `info` is skipped."""
    hits: list[SearchHit] = []
    for rid, score, used, partial in rows:
        r = info.get(rid)
        if r is None:
            continue
        cut = fulltext.snippet(found.get(rid, []), used) if found is not None else None
        hits.append(
            SearchHit(
                id=r["id"],
                position=r["position"],
                years=r["years"],
                name=r.get("name"),
                snippet=cut.text if cut else "",
                score=round(score, 6),
                highlight=cut.highlight if cut else None,
                question=cut.question if cut else None,
                matched=[t.text for t in used],
                partial=partial,
            )
        )
    return hits


def health(writable: bool, check: str, schema: str, pending: list[str]) -> HealthCheck:
    return HealthCheck(
        writable=writable,
        quick_check=check,
        schema_version=schema,
        schema_current=not pending,
        pending_migrations=pending,
    )


def index_run(result: IndexResult, finished_at: str) -> IndexRun:
    return IndexRun(
        finished_at=finished_at,
        indexed=len(result.indexed),
        unchanged=len(result.unchanged),
        removed=len(result.removed),
        failed=len(result.failed),
        skipped=len(result.skipped),
    )
