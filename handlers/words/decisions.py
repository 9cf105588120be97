"""Hiring decisions in Slack: channels shared with another organisation, `/candidate 结论`,
the decision a card shows, and the decide modal (handlers/listeners/decide.py)."""

from __future__ import annotations

from store.models import Locale

WORDS: dict[str, dict[Locale, str]] = {
    # channels shared with another organisation (Slack Connect, issue 34; handlers/shared.py)
    "shared_channel_refused": {
        "zh": "这个频道与其他组织共享（Slack Connect），其他公司的人也能看到这里的消息，"
        "所以我不会把候选人信息发在这里。请换一个只有本公司的人的频道；"
        "如确需在共享频道发帖，请管理员在 Debrief 的设置里允许。",
        "en": "This channel is shared with another organisation (Slack Connect): people of"
        " another company read it, so I do not post candidate information here. Use a channel"
        " of your own organisation; to post in shared channels, an admin may allow it in"
        " Debrief's settings.",
    },
    "shared_channel_unknown": {
        "zh": "无法向 Slack 确认这个频道是否与其他组织共享，为安全起见没有在这里发帖。请稍后再试。",
        "en": "Slack could not tell me whether this channel is shared with another"
        " organisation, so to be safe I did not post here. Please try again in a moment.",
    },
    "shared_only_you": {
        "zh": "下面的内容只有你能看到。",
        "en": "What follows is only for you.",
    },
    "shared_decision_kept": {
        "zh": "你的结论已记录，但没有发在讨论串里。",
        "en": "Your decision is recorded, but it is not posted in the thread.",
    },
    "settings_shared": {
        "zh": "与其他组织共享的频道",
        "en": "Channels shared with other organisations",
    },
    "settings_shared_option": {
        "zh": "允许把候选人信息发到与其他组织共享的频道（Slack Connect）",
        "en": "Post candidate information in channels shared with another organisation"
        " (Slack Connect)",
    },
    "settings_shared_hint": {
        "zh": "默认不允许：点评、结论、每日摘要和上传文件的总结不会发到其他公司也能看到的频道。",
        "en": "Off by default: verdicts, decisions, the daily digest and the summaries of"
        " uploaded files are not posted where another company reads them.",
    },
    "decision_strong_hire": {"zh": "强烈推荐", "en": "strong hire"},
    "decision_hire": {"zh": "通过", "en": "hire"},
    "decision_hold": {"zh": "待定", "en": "hold"},
    "decision_no_hire": {"zh": "不通过", "en": "no hire"},
    "decision_strong_no_hire": {"zh": "强烈不推荐", "en": "strong no hire"},
    # the hiring decision (`/candidate 结论`, handlers/commands.py)
    "outcome_hire": {"zh": "录用", "en": "hire"},
    "outcome_reject": {"zh": "不录用", "en": "reject"},
    "outcome_hold": {"zh": "待定", "en": "hold"},
    "outcome_card": {"zh": "*录用结论*：{decision}", "en": "*Hiring decision:* {decision}"},
    "outcome_by": {"zh": "{who} 记录于 {at}", "en": "recorded by {who} on {at}"},
    "outcome_posted": {
        "zh": "{who} 记录了录用结论：*{decision}*",
        "en": "{who} recorded the hiring decision: *{decision}*",
    },
    "outcome_replaces": {
        "zh": "（取代之前的结论：{decision}，{who} 记录于 {at}）",
        "en": "(replaces the earlier decision: {decision}, recorded by {who} on {at})",
    },
    "outcome_need": {
        "zh": "请这样写：`/candidate 结论 &lt;候选人&gt; 录用|不录用|待定 [备注]`",
        "en": "Say: `/candidate decide &lt;candidate&gt; hire|reject|hold [note]`",
    },
    "outcome_no_deciders": {
        "zh": "还没有人可以记录录用结论：请管理员设置 DEBRIEF_DECIDERS。未记录任何内容。",
        "en": "Nobody may record hiring decisions yet: ask an admin to set DEBRIEF_DECIDERS."
        " Nothing was recorded.",
    },
    "outcome_not_decider": {
        "zh": "只有 DEBRIEF_DECIDERS 中的人可以记录录用结论。未记录任何内容。",
        "en": "Only the people in DEBRIEF_DECIDERS may record a hiring decision."
        " Nothing was recorded.",
    },
    "outcome_pending": {
        "zh": "还在读取可以记录结论的用户组，请稍后再试。未记录任何内容。",
        "en": "Still reading who may decide (user groups): try again in a moment."
        " Nothing was recorded.",
    },
    "outcome_no_thread": {
        "zh": "这个频道里还没有 {who} 的点评：先用 `/candidate 点评 {who}` 发出点评，"
        "结论会记在它的讨论串里。未记录任何内容。",
        "en": "No verdict for {who} was posted in this channel: post it first with"
        " `/candidate verdict {who}`; the decision goes in its thread. Nothing was recorded.",
    },
    # decide with a button (handlers/listeners/decide.py)
    "decide_title": {"zh": "记录结论", "en": "Record a decision"},
    "decide_submit": {"zh": "记录", "en": "Record"},
    "close": {"zh": "关闭", "en": "Close"},
    "cancel": {"zh": "取消", "en": "Cancel"},
    "decide_about": {"zh": "候选人：{who}", "en": "Candidate: {who}"},
    "decide_current": {"zh": "你当前的结论：{decision}", "en": "Your current decision: {decision}"},
    "decide_label": {"zh": "结论", "en": "Decision"},
    "decide_note": {"zh": "备注（可选）", "en": "Note (optional)"},
    "decide_hint": {
        "zh": "结论会以你的名义发到点评帖的讨论串里；再次记录会替换你之前的结论。",
        "en": "Your decision is posted in the verdict's thread under your name;"
        " recording again replaces your earlier one.",
    },
    "decide_need": {"zh": "请选择一个结论。", "en": "Pick a decision."},
    "decide_note_long": {
        "zh": "备注最多 {limit} 字。",
        "en": "A note is at most {limit} characters.",
    },
    "decide_gone": {
        "zh": "这位候选人已不在库中（可能已被删除），无法记录结论。",
        "en": "This candidate is no longer indexed (perhaps erased): no decision can be recorded.",
    },
}
