"""Independent review's words (issue 38): what a reviewer asked sees instead of the
others' decisions, the request DM's line about the thread, the digest's line, a decision
posted while others are still asked, the settings modal's checkbox."""

from __future__ import annotations

from store.models import Locale

WORDS: dict[str, dict[Locale, str]] = {
    "review_hidden": {
        "zh": "独立评审：你给出自己的结论之前，看不到其他评审的结论和备注。",
        "en": "Independent review: the other reviewers' decisions and notes are hidden"
        " until you record yours.",
    },
    "review_hidden_channel": {
        "zh": "独立评审：所有被邀请的评审都给出结论之后，这里才显示大家的结论和备注。",
        "en": "Independent review: the reviewers' decisions and notes show here once every"
        " reviewer asked has decided.",
    },
    "review_post_sealed": {
        "zh": "（已更新：有评审被邀请独立给出结论，他们给出结论之前，这里不显示评审的结论和备注。）",
        "en": "(Updated: reviewers were asked for their independent decision; the reviewers'"
        " decisions and notes are not shown here until they have decided.)",
    },
    "review_post_part_sealed": {
        "zh": "（此部分已隐藏：独立评审进行中，完整点评见本帖之前的消息。）",
        "en": "(This part is hidden while independent review is under way; the verdict is"
        " in the messages before this one.)",
    },
    "review_loop_hidden": {
        "zh": "结论暂不显示（独立评审）",
        "en": "Decisions hidden (independent review)",
    },
    "review_decided_who": {"zh": "已给出结论：{who}", "en": "Decided: {who}"},
    "review_dm_hint": {
        "zh": "请用下面的按钮给出结论：其他被邀请的评审在给出自己的结论之前看不到你的结论。"
        "{channel} 里点评讨论串中的回复，频道里所有人都能看到。",
        "en": "Decide with the buttons below: the other reviewers asked do not see your"
        " decision until they have recorded theirs. Replies in the verdict's thread in"
        " {channel} are seen by everyone in the channel.",
    },
    "review_thread_public": {
        "zh": "讨论串里的回复，频道里所有人都能看到。",
        "en": "Replies in the thread are seen by everyone in the channel.",
    },
    "review_digest_hidden": {
        "zh": "已给出结论：{who}（独立评审：全部给出后显示结论）",
        "en": "decided: {who} (independent review: shown once everyone asked has decided)",
    },
    "review_decision_posted": {
        "zh": "{who} 已给出结论（独立评审：所有被邀请的评审都给出结论后可在卡片中看到）",
        "en": "{who} recorded a decision (independent review: it shows on the card once"
        " every reviewer asked has decided)",
    },
    "settings_independent": {"zh": "独立评审", "en": "Independent review"},
    "settings_independent_option": {
        "zh": "被邀请的评审给出自己的结论之前，看不到其他人的结论和备注",
        "en": "Reviewers asked for a decision see nobody else's decisions and notes until"
        " they record theirs",
    },
    "settings_independent_hint": {
        "zh": "默认开启。招聘负责人等没有待完成邀请的人始终能看到全部内容。",
        "en": "On by default. People with no open request (the recruiter, the hiring"
        " manager) always see everything.",
    },
}
