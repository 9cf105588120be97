"""Non-answers by what they say (issue 36): an answer is unanswered when, fillers and
punctuation set aside, it only skips, says the candidate does not know, or stayed
silent, in simplified or traditional characters or in English; an answer that merely
contains such words is an answer. Through the parser and `unanswered_reason` alike."""

from __future__ import annotations

import pytest

from store.transcripts.answers import unanswered_reason
from store.transcripts.parser import parse_transcript

SMALL = """岗位：后端工程师 从业年限：3年
问题1：为什么用 Go？
考察目标：语言取舍
回答：{answer}
点评：不错
"""

NON_ANSWERS = [
    # answer, why it is unanswered (None: an answer)
    # -- skipped, in more words than 跳过
    ("这个跳过吧。", "skipped"),
    ("这题我想跳过。", "skipped"),
    ("先跳过", "skipped"),
    ("下一题吧", "skipped"),
    ("嗯……这个先跳过吧", "skipped"),
    ("要不换一题吧", "skipped"),
    ("这题 pass", "skipped"),
    ("pass", "skipped"),
    ("Pass.", "skipped"),
    ("I'll pass.", "skipped"),
    ("Can we skip this one?", "skipped"),
    ("Next question, please.", "skipped"),
    ("Let's move on.", "skipped"),
    ("這個跳過吧", "skipped"),
    ("這題我想跳過", "skipped"),
    ("下一題吧", "skipped"),
    ("時間關係，此題略過", "skipped"),
    ("候选人拒绝回答", "skipped"),
    ("这个不方便说", "skipped"),
    ("No comment.", "skipped"),
    # -- does not know, in more words than 不知道
    ("答不上来", "dont_know"),
    ("没思路", "dont_know"),
    ("呃，暂时没思路。", "dont_know"),
    ("emm 这个我可能不太清楚", "dont_know"),
    ("sorry，我不知道", "dont_know"),
    ("这个真的不会了", "dont_know"),
    ("完全没有头绪", "dont_know"),
    ("想不起来了", "dont_know"),
    ("不會", "dont_know"),
    ("答不上來", "dont_know"),
    ("沒思路", "dont_know"),
    ("這個我不太了解。", "dont_know"),
    ("沒接觸過", "dont_know"),
    ("（摇头）", "dont_know"),
    ("（候选人摇了摇头）", "dont_know"),
    ("（搖頭）", "dont_know"),
    ("I have no idea.", "dont_know"),
    ("Um, sorry, I'm not sure.", "dont_know"),
    ("I can't answer that.", "dont_know"),
    ("(shakes head)", "dont_know"),
    # -- silence: no answer at all
    ("（沉默）", "empty"),
    ("（候选人沉默，未作答）", "empty"),
    ("（候選人沉默，未作答）", "empty"),
    ("（沉默了很久，没有回答）", "empty"),
    ("【候选人没说话】", "empty"),
    ("[no answer]", "empty"),
    ("(silence)", "empty"),
    ("(no response)", "empty"),
    ("無", "empty"),
    # -- from the held-out sets (issue 46): what happened around the core
    ("这块我没怎么接触过，跳过吧", "dont_know"),
    ("這塊我沒怎麼接觸過，跳過吧", "dont_know"),
    ("（候选人思考后表示不清楚）", "dont_know"),
    ("（未作答，直接进入下一题）", "skipped"),
    ("还没研究。", "dont_know"),
    ("我还没学到这里", "dont_know"),
    ("还没有接触过这个", "dont_know"),
    ("（面试官提示后仍未答出）", "dont_know"),
    ("（沉默片刻后表示不会）", "dont_know"),
    ("I have no experience with that, can we skip it?", "dont_know"),
    ("I'm not familiar with it.", "dont_know"),
    # -- answers that merely contain such words
    ("我对这块不清楚，不过我猜是用锁来保证的，再加一个版本号。", None),
    ("不清楚具体实现，但大致是通过哈希表加链表实现 LRU。", None),
    ("面试官追问后才想起来用了 CAS。", None),
    ("后来我们直接进入了灰度阶段。", None),
    ("我不知道当时为什么那样设计，后来我们重写了调度器……", None),
    ("这个我还没研究透彻，但原理是红黑树加链表，查找 O(log n)。", None),
    ("我不知道當時為什麼那樣設計，後來我們重寫了調度器……", None),
    ("跳过了鉴权这一步，因为内网调用。", None),
    ("先跳过缓存，直接查库。", None),
    ("下一题我也可以讲讲。", None),
    ("沉默是金，但我会先写设计文档。", None),
    ("跳表", None),
    ("过滤器放在网关层。", None),
    ("略懂", None),
    ("不会，因为 Go 的调度器会处理。", None),
    ("pass by value", None),
    ("Skip list.", None),
    ("I don't know the exact number, but roughly 10k QPS.", None),
    ("No idea is too small to prototype.", None),
    ("知道，GMP 模型。", None),
    ("暂时用 Redis 顶着", None),
    ("摇头不是办法，要看监控。", None),
    ("拒绝回答是不专业的，我会先说明边界。", None),
]


@pytest.mark.parametrize(("answer", "reason"), NON_ANSWERS)
def test_a_non_answer_by_what_it_says(answer: str, reason: str | None) -> None:
    assert unanswered_reason(answer) == reason
    q = parse_transcript(SMALL.format(answer=answer).encode(), "x.txt").questions[0]
    assert (q.answered, q.unanswered_reason) == (reason is None, reason)


def test_the_table_covers_both_scripts_and_english() -> None:
    assert len(NON_ANSWERS) >= 40
    traditional = [a for a, _ in NON_ANSWERS if any(ch in a for ch in "這題過會來沒頭選")]
    english = [a for a, _ in NON_ANSWERS if a.isascii()]
    assert len(traditional) >= 8 and len(english) >= 10
    assert sum(r is None for _, r in NON_ANSWERS) >= 10
