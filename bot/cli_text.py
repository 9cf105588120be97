"""What the command line prints for people (not `--json`), in DEBRIEF_LOCALE.

Pure functions from models to text; Chinese output uses Chinese words and full-width
colons throughout, English output English ones.
"""

from __future__ import annotations

import click

from store.models import (
    UNANSWERED_LABELS,
    Candidate,
    CandidateSummary,
    IndexResult,
    Question,
    SearchHit,
    plain_years,
)
from store.models import Locale as Locale

TEXT: dict[str, dict[Locale, str]] = {
    **{f"reason_{reason}": label for reason, label in UNANSWERED_LABELS.items()},
    "years": {"zh": "{n}年", "en": "{n} yrs"},
    "years_unknown": {"zh": "年限不详", "en": "years unknown"},
    "position_unknown": {"zh": "岗位不详", "en": "position unknown"},
    "intro": {"zh": "简介：{text}", "en": "Profile: {text}"},
    "question": {"zh": "问题{n}：{text}", "en": "Q{n}: {text}"},
    "open": {"zh": "【{reason}】", "en": "[{reason}]"},
    "goal": {"zh": "考察目标：{text}", "en": "Assesses: {text}"},
    "answer": {"zh": "回答：{text}", "en": "Answer: {text}"},
    "followup": {"zh": "追问回答（{who}）：{text}", "en": "Follow-up answer ({who}): {text}"},
    "verdict": {"zh": "点评：", "en": "Verdict:"},
    "source": {"zh": "来源：{path}", "en": "Source: {path}"},
    "list_line": {
        "zh": "{id}  {position}  {years}  {count} 个问题，{open} 个未回答  {verdict}",
        "en": "{id}  {position}  {years}  {count} questions, {open} unanswered  {verdict}",
    },
    "has_verdict": {"zh": "有点评", "en": "verdict"},
    "no_verdict": {"zh": "无点评", "en": "no verdict"},
    "no_candidates": {"zh": "还没有候选人", "en": "no candidates yet"},
    "no_position": {
        "zh": "没有岗位为“{position}”的候选人",
        "en": "no candidates for the position {position!r}",
    },
    "more": {
        "zh": "第 {first}–{last} 位，共 {total} 位：--offset {last} 看后面的",
        "en": "{first}–{last} of {total}: --offset {last} for more",
    },
    "no_matches": {"zh": "没有匹配的结果", "en": "no matches"},
    "in_question": {"zh": "问题{n} ", "en": "Q{n} "},
    "index_summary": {
        "zh": "已索引 {indexed}，未变 {unchanged}，已移除 {removed}，失败 {failed}",
        "en": "{indexed} indexed, {unchanged} unchanged, {removed} removed, {failed} failed",
    },
    "index_skipped": {"zh": "，跳过 {skipped}", "en": ", {skipped} skipped"},
    "no_audit": {"zh": "没有审计记录", "en": "no audit entries"},
    "backed_up": {
        "zh": "已把 {src} 备份到 {dest}（{size}）",
        "en": "backed up {src} to {dest} ({size})",
    },
    "forgot": {
        "zh": "已忘记 {id}：删除了记录，以及 {parts}。\n它的文件会一直被忽略，直到文件改变或执行 `debrief forget --restore`。",
        "en": "forgot {id}: removed the transcript, {parts}.\n"
        "Its file stays forgotten until it changes or `debrief forget --restore` is given.",
    },
    "restored_indexed": {"zh": "{id} 已恢复：已重新索引", "en": "{id} restored: indexed again"},
    "restored_later": {
        "zh": "{id} 已恢复：文件出现时会被索引",
        "en": "{id} restored: will be indexed when its file is",
    },
    "digest_nothing": {
        "zh": "{day}：没有要说的，不会发摘要",
        "en": "{day}: nothing to say; no digest would be posted",
    },
    "digest_sent": {"zh": "摘要已发到 {channel}", "en": "digest posted in {channel}"},
    "digest_empty": {
        "zh": "今天没有要说的：什么也没发",
        "en": "nothing to say today: nothing posted",
    },
    "digest_already": {
        "zh": "今天的摘要已经发过（或正在发）",
        "en": "today's digest was already posted (or is being posted)",
    },
    "never": {"zh": "从未", "en": "never"},
    "removed_part": {"zh": "{what} {n} 条", "en": "{n} {what}"},
    "stat_candidates": {"zh": "候选人", "en": "candidates"},
    "stat_questions": {"zh": "问题", "en": "questions"},
    "stat_unanswered": {"zh": "未回答", "en": "unanswered"},
    "stat_decisions": {"zh": "评审结论", "en": "decisions"},
    "stat_database": {"zh": "数据库", "en": "database"},
    "stat_schema": {"zh": "数据库版本", "en": "schema"},
    "stat_index_run": {"zh": "上次索引", "en": "last index run"},
    "stat_digest": {"zh": "上次摘要", "en": "last digest"},
    "index_run": {
        "zh": "{at}：索引 {indexed}，未变 {unchanged}，移除 {removed}，失败 {failed}，跳过 {skipped}",
        "en": "{at}: {indexed} indexed, {unchanged} unchanged, {removed} removed,"
        " {failed} failed, {skipped} skipped",
    },
    "skipped_file": {"zh": "  跳过：{path}：{reason}", "en": "  skipped: {path}: {reason}"},
    "failed_file": {"zh": "  失败：{path}：{reason}", "en": "  failed: {path}: {reason}"},
}


def t(locale: Locale, key: str, **values: object) -> str:
    return TEXT[key][locale].format(**values)


def years(value: float | None, locale: Locale) -> str:
    if value is None:
        return t(locale, "years_unknown")
    return t(locale, "years", n=plain_years(value))


def position(value: str | None, locale: Locale) -> str:
    return value or t(locale, "position_unknown")


def _open_mark(c: Candidate, q: Question, locale: Locale) -> str:
    if not c.is_open(q):
        return ""
    reason = t(locale, f"reason_{q.unanswered_reason or 'empty'}")
    return "  " + t(locale, "open", reason=reason)


def candidate_text(c: Candidate, locale: Locale) -> str:
    """One candidate in full, as `debrief show` prints it."""
    out = [
        click.style(f"{c.id}  {position(c.position, locale)}  {years(c.years, locale)}", bold=True)
    ]
    if c.intro:
        out.append(t(locale, "intro", text=c.intro))
    if c.summary:
        out.append(f"\n{c.summary}")
    for q in c.questions:
        head = t(locale, "question", n=q.number, text=q.question) + _open_mark(c, q, locale)
        out.append(click.style("\n" + head, bold=True))
        if q.goal:
            out.append(t(locale, "goal", text=q.goal))
        out.append(t(locale, "answer", text=q.answer or "—"))
        followup = c.followup_for(q.number)
        if followup:
            out.append(t(locale, "followup", who=followup.reviewer, text=followup.answer))
    out.append(click.style("\n" + t(locale, "verdict"), bold=True))
    out.append(c.verdict or "—")
    out.append("\n" + t(locale, "source", path=c.source))
    return "\n".join(out)


def list_line(r: CandidateSummary, locale: Locale) -> str:
    return t(
        locale,
        "list_line",
        id=r.id,
        position=position(r.position, locale),
        years=years(r.years, locale),
        count=r.questions,
        open=r.unanswered,
        verdict=t(locale, "has_verdict" if r.has_verdict else "no_verdict"),
    )


def nothing_listed(position_filter: str | None, locale: Locale) -> str:
    if position_filter:
        return t(locale, "no_position", position=position_filter)
    return t(locale, "no_candidates")


def hit_text(h: SearchHit, locale: Locale) -> str:
    head = click.style(
        f"{h.id}  {position(h.position, locale)}  {years(h.years, locale)}  ({h.score:.2f})",
        bold=True,
    )
    where = t(locale, "in_question", n=h.question) if h.question is not None else ""
    snippet = h.snippet
    if h.highlight:
        a, b = h.highlight
        snippet = snippet[:a] + click.style(snippet[a:b], fg="yellow", bold=True) + snippet[b:]
    return f"{head}\n  {where}{snippet}"


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


_PARTS_ZH = {
    "questions": "问题",
    "decisions": "评审结论",
    "followups": "追问回答",
    "replies": "讨论串回复",
    "posts": "频道帖子",
    "fulltext_rows": "全文索引",
}


def removed_parts(counts: dict[str, int], locale: Locale) -> str:
    """What `forget` removed, as `5 questions, 0 decisions` or `问题 5 条，评审结论 0 条`."""
    parts = [
        t(
            locale,
            "removed_part",
            what=_PARTS_ZH.get(what, what) if locale == "zh" else what.replace("_", " "),
            n=n,
        )
        for what, n in counts.items()
    ]
    return ("，" if locale == "zh" else ", ").join(parts)
