"""The candidate as a person (issue 38): the loop card, the pick list of candidates,
merging and splitting, comparing, handing off to the next interviewer."""

from __future__ import annotations

from store.models import Locale

WORDS: dict[str, dict[Locale, str]] = {
    # the loop card (handlers/views/loops.py)
    "loop_card_head": {
        "zh": "{name} · {position} · {count} 场面试",
        "en": "{name} · {position} · {count} interviews",
    },
    "loop_place": {"zh": "第 {n} 场，共 {total} 场", "en": "Interview {n} of {total}"},
    "loop_button": {"zh": "整个面试流程", "en": "Whole loop"},
    "loop_round_unknown": {"zh": "轮次未写明", "en": "round not given"},
    "loop_date_unknown": {"zh": "日期未知", "en": "date unknown"},
    "loop_card_decisions": {"zh": "评审：{tally}", "en": "Reviewers: {tally}"},
    "loop_no_decisions": {"zh": "评审：还没有结论", "en": "Reviewers: no decisions yet"},
    "loop_no_verdict": {"zh": "（没有点评）", "en": "(no verdict)"},
    "loop_interview_open": {"zh": "未回答：{numbers}", "en": "Unanswered: {numbers}"},
    "loop_question_ref": {"zh": "问题{n}", "en": "Q{n}"},
    "loop_card_open_title": {
        "zh": "整个流程仍未回答的问题（{count}）",
        "en": "Still open across the loop ({count})",
    },
    "loop_card_open_line": {"zh": "{round} · 问题{n}：{words}", "en": "{round} · Q{n}: {words}"},
    "loop_card_open_none": {
        "zh": "整个流程没有仍未回答的问题。",
        "en": "Nothing is still open across the loop.",
    },
    "loop_card_open_none_counted": {
        "zh": "读出的问题里没有仍未回答的；有的面试未能读出问题或没有记录回答，无法判断。",
        "en": "None of the questions read is still open; some interviews' questions could not"
        " be read or record no answer, so nothing more can be told.",
    },
    "loop_card_no_outcome": {"zh": "还没有录用结论。", "en": "No hiring decision yet."},
    "loop_more_interviews": {
        "zh": "另有 {count} 场较早的面试没有列出。",
        "en": "{count} earlier interview(s) not shown.",
    },
    "loop_pick": {
        "zh": "“{query}”对应 {count} 位候选人，请选择：",
        "en": "{count} candidates match “{query}”. Pick one:",
    },
    "loop_pick_line": {
        "zh": "{count} 场面试 · 最近一场 {newest}",
        "en": "{count} interview(s) · latest {newest}",
    },
    # merging and splitting (`/candidate 合并` / `拆分`)
    "merge_usage": {
        "zh": "请这样写：`/candidate 合并 &lt;面试A&gt; &lt;面试B&gt;`（面试记录的编号），"
        "把两份记录算作同一位候选人。",
        "en": "Say: `/candidate merge &lt;interview A&gt; &lt;interview B&gt;` (the transcripts' ids)"
        " to count them as one candidate.",
    },
    "split_usage": {
        "zh": "请这样写：`/candidate 拆分 &lt;面试&gt;`（面试记录的编号），把它从所属候选人中拆出。",
        "en": "Say: `/candidate split &lt;interview&gt;` (a transcript's id) to take it out of its"
        " candidate.",
    },
    "merge_ambiguous": {
        "zh": "“{who}”对应不止一份面试记录：请写面试记录的编号（{ids}）。未做任何改动。",
        "en": "“{who}” matches more than one transcript: give a transcript's id ({ids})."
        " Nothing was changed.",
    },
    "merge_not_found": {
        "zh": "找不到“{who}”的面试记录。未做任何改动。",
        "en": "No transcript matches “{who}”. Nothing was changed.",
    },
    "merge_same": {
        "zh": "{a} 和 {b} 已经是同一位候选人（{name}）的面试，没有改动。",
        "en": "{a} and {b} are already interviews of one candidate ({name}); nothing changed.",
    },
    "merge_done": {
        "zh": "已合并：{a} 和 {b} 现在算作同一位候选人 {name}，共 {count} 场面试（{rounds}）。"
        "录用结论和未回答的问题都按这位候选人来算；重新索引后也保持不变。",
        "en": "Merged: {a} and {b} now count as one candidate, {name}, with {count}"
        " interviews ({rounds}). The hiring decision and open questions are now this"
        " candidate's; re-indexing keeps it so.",
    },
    "split_alone": {
        "zh": "{interview} 本来就单独算作一位候选人，没有改动。",
        "en": "{interview} is a candidate of its own already; nothing changed.",
    },
    "split_done": {
        "zh": "已拆分：{interview} 不再算作 {name} 的面试，现在单独算作一位候选人；"
        "{name} 还有 {left} 场面试。重新索引后也保持不变。",
        "en": "Split: {interview} no longer counts as an interview of {name}; it is a"
        " candidate of its own now, and {name} has {left} interview(s) left. Re-indexing"
        " keeps it so.",
    },
    # two people alike (issue 45): a later interview matching both, a key with two names
    "alike_pending": {
        "zh": "这场面试的候选人 {name} 与 {count} 位候选人的姓名和岗位都对得上"
        "（他们被拆分成了不同的人），在有人选定之前不算作其中任何一位。是哪一位？",
        "en": "This interview's candidate, {name}, matches {count} candidates by name and"
        " position (they were split into different people), and counts as none of them"
        " until someone picks. Which one is it?",
    },
    "alike_conflict": {
        "zh": "⚠ 候选人编号 {ref} 也写在姓名不同的候选人的面试上，没有把他们算作同一人；"
        "如确是同一人，用 `合并` 把面试合到一起：",
        "en": "⚠ Candidate ID {ref} is also on interviews of a candidate with another name;"
        " they were not made one candidate. If they are one person, `merge` the interviews:",
    },
    "alike_person_line": {
        "zh": "{count} 场面试 · {rounds}",
        "en": "{count} interview(s) · {rounds}",
    },
    "alike_pick_this": {"zh": "是这一位", "en": "This one"},
    "alike_pick_new": {"zh": "是另一个人", "en": "Someone else"},
    "alike_picked": {
        "zh": "已选定：{interview} 算作 {name} 的面试，现在共 {count} 场（{rounds}）。"
        "重新索引后也保持不变。",
        "en": "Picked: {interview} counts as an interview of {name}, who now has {count}"
        " ({rounds}). Re-indexing keeps it so.",
    },
    "alike_picked_new": {
        "zh": "已选定：{interview} 单独算作一位新的候选人 {name}。重新索引后也保持不变。",
        "en": "Picked: {interview} is a new candidate of its own, {name}. Re-indexing keeps it so.",
    },
    "alike_already": {
        "zh": "{interview} 已经选定过了：现在算作 {name} 的面试。未做任何改动。",
        "en": "{interview} was picked already: it counts as an interview of {name}."
        " Nothing was changed.",
    },
    "alike_gone": {
        "zh": "找不到这位候选人了（面试可能已被删除或合并）。未做任何改动。",
        "en": "That candidate is no longer there (an interview was removed or merged)."
        " Nothing was changed.",
    },
    "merge_no_deciders": {
        "zh": "还没有人可以合并或拆分候选人：请管理员设置 DEBRIEF_DECIDERS。未做任何改动。",
        "en": "Nobody may merge or split candidates yet: an admin sets DEBRIEF_DECIDERS."
        " Nothing was changed.",
    },
    "merge_not_decider": {
        "zh": "只有 DEBRIEF_DECIDERS 中的人（可以记录录用结论的人）可以合并或拆分候选人。"
        "未做任何改动。",
        "en": "Only the people in DEBRIEF_DECIDERS (who record hiring decisions) may merge"
        " or split candidates. Nothing was changed.",
    },
    "merge_pending": {
        "zh": "还在读取可以合并候选人的用户组，请稍后再试。未做任何改动。",
        "en": "Still reading who may merge candidates; try again in a minute. Nothing was changed.",
    },
    # comparing (`/candidate 对比`)
    "compare_usage": {
        "zh": "请这样写：`/candidate 对比 &lt;A&gt; &lt;B&gt; [&lt;C&gt; &lt;D&gt;]`，"
        "两到四位候选人（姓名或面试记录编号）。",
        "en": "Say: `/candidate compare &lt;A&gt; &lt;B&gt; [&lt;C&gt; &lt;D&gt;]`: two to four"
        " candidates (names or transcript ids).",
    },
    "compare_title": {"zh": "对比 {count} 位候选人", "en": "{count} candidates side by side"},
    "compare_not_found": {
        "zh": "找不到“{who}”。请换个写法再对比。",
        "en": "Nothing matches “{who}”. Try another spelling.",
    },
    "compare_ambiguous": {
        "zh": "“{who}”对应 {count} 位候选人：{names}。请写面试记录的编号。",
        "en": "“{who}” matches {count} candidates: {names}. Give a transcript's id.",
    },
    "compare_same": {
        "zh": "这些写法指的是同一位候选人，没有可对比的。",
        "en": "Those all name the same candidate: nothing to compare.",
    },
    "compare_interviews": {
        "zh": "{count} 场面试（{rounds}）",
        "en": "{count} interview(s) ({rounds})",
    },
    "compare_answered": {
        "zh": "回答了 {answered}/{asked} 题",
        "en": "answered {answered} of {asked}",
    },
    "compare_open": {"zh": "{count} 题仍未回答", "en": "{count} still open"},
    "compare_outcome": {"zh": "录用结论：{decision}", "en": "Hiring decision: {decision}"},
    "compare_no_outcome": {"zh": "录用结论：还没有", "en": "Hiring decision: none yet"},
    # handing off to the next interviewer (`/candidate 交接`)
    "handoff_usage": {
        "zh": "请这样写：`/candidate 交接 &lt;候选人&gt; @下一轮面试官`。",
        "en": "Say: `/candidate handoff &lt;candidate&gt; @next-interviewer`.",
    },
    "handoff_title": {"zh": "交接 · {who}", "en": "Handoff · {who}"},
    "handoff_lead": {
        "zh": "{asker} 请你面试 {who} 的下一轮。之前的 {count} 场面试：",
        "en": "{asker} asks you to run {who}'s next interview. The {count} before it:",
    },
    "handoff_ask_again": {"zh": "请再问这些问题", "en": "Ask these again"},
    "handoff_nothing_open": {
        "zh": "之前的面试没有留下未回答的问题。",
        "en": "The earlier rounds left no question unanswered.",
    },
    "handoff_concerns": {"zh": "评审的顾虑", "en": "Reviewers' concerns"},
    "handoff_concern": {
        "zh": "• {round} · {who}（{decision}）：{note}",
        "en": "• {round} · {who} ({decision}): {note}",
    },
    "handoff_no_concerns": {
        "zh": "评审没有提出“不通过”或“待定”的意见。",
        "en": "No reviewer said no hire or hold.",
    },
    "handoff_sent": {
        "zh": "已把 {who} 的交接私信发给 {reviewer}：之前的面试、要再问的问题和评审的顾虑。",
        "en": "Sent {reviewer} the handoff for {who} by DM: the earlier rounds, the questions"
        " to ask again and the reviewers' concerns.",
    },
    "handoff_nobody": {
        "zh": "{who} 的交接没有发给任何人。",
        "en": "The handoff for {who} was sent to nobody.",
    },
    "handoff_too_many": {
        "zh": "一次最多交接给 {limit} 人。没有发出任何私信。",
        "en": "At most {limit} people at a time. Nothing was sent.",
    },
    "handoff_already": {
        "zh": "没有再私信 {who}：过去 24 小时内已经把这位候选人交接给过他们。",
        "en": "Not messaged again: {who}: already handed this candidate in the last 24 hours.",
    },
    "handoff_limited": {
        "zh": "没有发给 {who}：每人每小时最多让 Debrief 私信 {limit} 人（邀请评审和交接一起算），"
        "{at} 起可以再发。",
        "en": "Not sent to {who}: Debrief DMs at most {limit} people an hour for you (asks and"
        " handoffs together); you can send again from {at}.",
    },
    "handoff_failed": {
        "zh": "没能私信 {who}（{error}），交接没有发出。请确认对方可以收到 Debrief 的私信后再试。",
        "en": "Could not DM {who} ({error}); the handoff was not sent. Check they can receive"
        " Debrief's DMs and try again.",
    },
    "handoff_refused_access": {
        "zh": "没有发给 {who}：没有查看候选人信息的权限（DEBRIEF_ALLOWED_USERS）。",
        "en": "Not sent to {who}: not allowed to see candidates (DEBRIEF_ALLOWED_USERS).",
    },
    "handoff_refused_pending": {
        "zh": "没有发给 {who}：还在确认谁可以查看候选人信息，请一分钟后再试。",
        "en": "Not sent to {who}: still checking who may see candidates; try again in a minute.",
    },
    "handoff_refused_foreign": {
        "zh": "没有发给 {who}：不是本工作区的成员（其他组织的 Slack Connect 用户，或 Slack 无法确认）。",
        "en": "Not sent to {who}: not a member of this workspace (a Slack Connect user of"
        " another organisation, or Slack could not say).",
    },
}
