"""Answers that are no answer, and why: empty (`无`, `N/A`), skipped (`跳过`, `略`), or only
saying the candidate could not answer (`不知道`, `没接触过`). Pure functions, used by the
parser and by migrations that re-read old rows.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from ..models import UnansweredReason

# Compared after dropping spaces, punctuation and case.
_EMPTY = {
    "",
    "无",
    "暂无",
    "没有",
    "空",
    "无回答",
    "暂无回答",
    "未作答",
    "暂未作答",
    "未答",
    "未回答",
    "没有回答",
    "没回答",
    "未答复",
    "待补充",
    "待填写",
    "候选人未作答",
    "候选人未回答",
    "面试者未作答",
    "面试者未回答",
    "na",
    "n/a",
    "none",
    "null",
    "nil",
    "tbd",
    "todo",
    "noanswer",
    "unanswered",
}
_SKIPPED = {
    "略",
    "跳过",
    "已跳过",
    "跳过此题",
    "跳过该题",
    "跳过本题",
    "此题跳过",
    "本题跳过",
    "该题跳过",
    "候选人跳过",
    "面试者跳过",
    "未问",
    "没问",
    "时间关系跳过",
    "时间关系未问",
    "skip",
    "skipped",
    "pass",
    "passed",
}
# The same, said in more words: `候选人没有回答`, `跳过了`, `时间关系，此题略`, `Skipped (time)`.
_TIME = (
    r"(?:(?:由于|因为)?(?:时间(?:关系|原因|不够|不足|有限)|没时间|来不及)|duetotime|fortime|time)"
)
_empty_re = cache(
    lambda: re.compile(
        rf"^{_TIME}?(?:候选人|面试者|他|她)?(?:没有|没|未|并未)(?:作答|回答|答|作回答)(?:了)?{_TIME}?$"
        r"|^(?:the)?(?:candidate)?(?:didnot|didnt|not|never)(?:answer|answered|respond|responded)$"
        r"|^(?:空白|noresponse)$"
    )
)
_skipped_re = cache(
    lambda: re.compile(
        rf"^{_TIME}?(?:候选人|面试者|他|她)?(?:此题|本题|该题)?"
        r"(?:跳过|略过|略|未问|没问|没有问|未提问)(?:了)?(?:此题|本题|该题)?"
        rf"{_TIME}?$"
        rf"|^(?:skip|skipped|pass|passed|notasked){_TIME}?$"
    )
)
# Only says the candidate could not answer: 不知道, 不太清楚, 没接触过, I don't know.
_DONT_KNOW_CORE = (
    r"(?:(?:完全|确实|真的|实在|并|暂时|还|也|都|真|基本|基本上|根本|压根|一点都|一点也)?"
    r"(?:(?:不太|不是很|不是太|不怎么|不大|不很|不)(?:知道|清楚|会|了解|懂|熟悉|熟|记得|确定)"
    r"|没(?:有)?(?:接触|用|做|听说|听|学|了解|研究|遇到|碰到|想)过"
    r"|无法(?:回答|作答)"
    r"|未(?:接触|用|做|听说|学|了解|研究)过"
    r"|(?:回)?答不(?:上来|上|出来|出)|想不(?:起来|起)|记不(?:清楚|清|得)"
    r"|没(?:有|能)?(?:回)?答(?:上来|出来|上|出)|忘(?:记)?了"
    r"|没(?:有)?(?:思路|想法|头绪|概念))"
    r"(?:做|写|答|用|说)?(?:了|呢|啊|哦|吧|耶|的)*(?:这个|这块|这方面|这个问题)?)"
)
_dont_know_re = cache(
    lambda: re.compile(
        r"^(?:嗯|呃|额|唔)*(?:候选人|面试者|被面试者|被面试人|应聘者|他|她|我)?"
        r"(?:表示|说|回答|称|坦言|直言|答)?"
        r"(?:对此|对这个|这个问题|这个|这块|这方面|这题|对)?(?:我)?"
        rf"{_DONT_KNOW_CORE}+$"
        r"|^(?:sorry)?(?:i|candidate|thecandidate|they|he|she)?(?:really)?"
        r"(?:do|does|did)?(?:nt|not)(?:really)?(?:know|remember|recall)(?:it|this|that)?$"
        r"|^(?:idk|noidea|ihavenoidea|notsure|imnotsure|iamnotsure|noclue|cannotanswer|"
        r"cantanswer|couldnotanswer|couldntanswer|unabletoanswer)$"
    )
)


def compact(answer: str) -> str:
    """`answer` as compared with the words above: no spaces, punctuation or case."""
    return "".join(
        ch
        for ch in unicodedata.normalize("NFKC", answer).lower()
        if ch == "/" or not unicodedata.category(ch).startswith(("P", "S", "Z", "C"))
    )


def unanswered_reason(answer: str) -> UnansweredReason | None:
    """Why an answer is no answer: `empty` (nothing, 无, 未作答, N/A, -), `skipped`
    (跳过, 略), `dont_know` (the answer only says the candidate could not answer:
    不知道, 不太清楚, 没接触过, I don't know); None for an answer. A long answer that
    merely contains 不知道 is an answer."""
    if len(answer) > 40:
        return None
    kept = compact(answer)
    if kept in _EMPTY or kept.strip("/") in _EMPTY or _empty_re().match(kept):
        return "empty"
    if kept in _SKIPPED or _skipped_re().match(kept):
        return "skipped"
    if _dont_know_re().match(kept):
        return "dont_know"
    return None


def is_placeholder(answer: str) -> bool:
    """True for an empty answer or one that only says there is none (无, N/A, 跳过…)."""
    return unanswered_reason(answer) in ("empty", "skipped")
