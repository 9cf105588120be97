"""What Debrief says of an unsupported claim (issue 37): a summary, verdict or note that
credits the candidate on a question never answered; on the card, the verdict, the
digest, App Home, `debrief show` and the ephemeral answer to a thread reply."""

from __future__ import annotations

from store.models import Locale

WORDS: dict[str, dict[Locale, str]] = {
    "claim_source_summary": {"zh": "总结", "en": "The summary"},
    "claim_source_verdict": {"zh": "点评", "en": "The verdict"},
    "claim_source_note": {"zh": "评审备注", "en": "A reviewer's note"},
    "claim_question": {"zh": "问题{n}", "en": "Q{n}"},
    "claim_join": {"zh": "、", "en": ", "},
    "claim_warning": {
        "zh": "⚠ {source}说“{text}”，但{questions}未作答",
        "en": "⚠ {source} says “{text}”, but {questions} went unanswered",
    },
    "claim_words": {"zh": "（依据：{words}）", "en": " (by: {words})"},
    "claim_more": {"zh": "……另有 {count} 处", "en": "…and {count} more"},
    "claim_reply": {
        "zh": "⚠ 你的回复说“{text}”，但{questions}未作答（依据：{words}）。如果候选人后来回答了，"
        "请在本讨论串里回复 `问题N：回答内容` 记下。",
        "en": "⚠ Your reply says “{text}”, but {questions} went unanswered (by: {words})."
        " If the candidate answered later, record it in this thread: `Q<n>: the answer`.",
    },
    "claim_count": {"zh": "⚠ {count} 处点评与作答不符", "en": "⚠ {count} unsupported claims"},
}
