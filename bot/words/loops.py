"""What `debrief loop`, `link` and `unlink` print for people (bot/loops.py), in
DEBRIEF_LOCALE (issue 38: the candidate is a person, their interviews one loop)."""

from __future__ import annotations

from store.models import Locale

WORDS: dict[str, dict[Locale, str]] = {
    "n_interviews": {"zh": "面试", "en": "interviews"},  # `debrief stats`
    "cli_loop_head": {
        "zh": "{who} · {position} · 共 {n} 场面试（{code}）",
        "en": "{who} · {position} · {n} interview(s) ({code})",
    },
    "cli_loop_no_name": {"zh": "未写姓名", "en": "no name given"},
    "cli_loop_nth": {"zh": "第 {i} 场", "en": "#{i}"},
    "cli_loop_decisions": {"zh": "评审：{tally}", "en": "reviewers: {tally}"},
    "cli_loop_open_here": {"zh": "待回答：{numbers}", "en": "open: {numbers}"},
    "cli_loop_open_title": {"zh": "仍未回答的问题：", "en": "Still open across the loop:"},
    "cli_loop_open_none": {"zh": "没有仍未回答的问题", "en": "no question is still open"},
    "cli_loop_open_line": {
        "zh": "{round} {question_no}：{question}",
        "en": "{round} {question_no}: {question}",
    },
    "cli_loop_outcome": {
        "zh": "录用结论：{decision}（{by}，{at}）",
        "en": "hiring decision: {decision} ({by}, {at})",
    },
    "cli_loop_no_outcome": {"zh": "还没有录用结论", "en": "no hiring decision yet"},
    "cli_loop_count": {"zh": "{n} 场面试", "en": "{n} interview(s)"},
    "cli_loop_ambiguous": {
        "zh": "有 {count} 位候选人与“{query}”匹配，请用编号说明是哪一位：\n{lines}",
        "en": "{count} candidates match {query!r}; say which by key:\n{lines}",
    },
    "cli_loop_interview_ambiguous": {
        "zh": "有 {count} 场面试与“{query}”匹配，请用面试编号说明是哪一场：\n{lines}",
        "en": "{count} interviews match {query!r}; say which by id:\n{lines}",
    },
    "cli_linked": {
        "zh": "已合并：候选人 {code} 现在共 {n} 场面试",
        "en": "linked: candidate {code} now has {n} interview(s)",
    },
    "cli_link_same": {
        "zh": "已是同一位候选人（{code}），没有改动",
        "en": "already one candidate ({code}): nothing changed",
    },
    "cli_loop_pending": {
        "zh": "面试 {id} 与 {count} 位同名同岗位的候选人都对得上（他们被拆分过），"
        "还没有算作其中任何一位；选定用 debrief link <候选人编号> {id}"
        "（另一个人：debrief unlink {id}）：\n{lines}",
        "en": "interview {id} matches {count} candidates of this name and position (they"
        " were split), and counts as none of them yet; pick with debrief link <key> {id}"
        " (someone else: debrief unlink {id}):\n{lines}",
    },
    "cli_loop_conflict": {
        "zh": "候选人编号 {ref} 也写在姓名不同的候选人的面试上，没有合并：\n{lines}",
        "en": "candidate ID {ref} is also on interviews of a candidate with another name;"
        " not merged:\n{lines}",
    },
    "cli_unlinked": {
        "zh": "已拆分：面试 {id} 现在是单独的候选人 {code}",
        "en": "unlinked: interview {id} is now a candidate of its own, {code}",
    },
}
