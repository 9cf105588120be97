"""The specific words a sentence shares with a question (its text and its goal), each
weighted by how rare it is among the transcript's questions: a word most questions
share (`模型`, `经验`, `TensorFlow` in a TensorFlow interview) decides nothing.

Words are jieba's (rjieba, the segmenter search uses), casefolded; interview boilerplate
(`请`, `如何`, `考察`, `被面试人`…) is no topic."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from store.fulltext import segment

_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[\w][\w+#.\-]*", re.UNICODE)

# words every interview's questions and goals are made of: never a topic
_BOILERPLATE_WORDS = """
    请 您 你 你们 我们 他 她 被面试人 面试人 面试者 候选人 考察 了解 评估 考核 如何 怎样
    怎么 什么 哪些 哪个 为什么 是否 一下 一个 一些 这个 这些 那些 其中 以及 或者 还是 进行
    使用 利用 通过 采用 作为 对于 关于 方面 过程 时候 情况 能力 理解 程度 认识 掌握 看法
    经验 实际 实践 具体 相关 主要 问题 回答 举例 例子 说明 介绍 描述 简述 简要 解释 谈谈
    分享 看待 认为 觉得 遇到 处理 解决 工作 项目 过去 之前 曾经 最近 应用 操作 有关 以及
    哪些 其他 不同 方法 方式 作用 什么样 一次 如果 时候 已经 非常 一定 以及 各自 自己 出来
    表达 指出 见解 显示 展示 体现 深入 深刻 良好 较好 很好 具备 具有 能够 可以 表现 出色
    优秀 面对 谈到 还有 也 及其 实践经验 实际经验 专业知识 专业 素养 理论 知识 技能 思路
    策略 思维 应用能力 操作能力 实际应用 实际操作 重要性 重要 影响 好处 优势 认知 熟悉
    the a an and or of to in on for with how what why which your you
    his her he she they candidate interview question answer explain describe experience
    please tell about did does do can could would should is are was were be been this that
    all its their from as at by it
"""
BOILERPLATE = frozenset(_BOILERPLATE_WORDS.split())


def words(text: str) -> list[str]:
    """The content words of `text`, casefolded, in order: Chinese words of two characters
    or more, Latin words of two letters or more; no boilerplate."""
    found: list[str] = []
    for w in segment(unicodedata.normalize("NFKC", text).casefold()):
        w = w.strip()
        if not w or w in BOILERPLATE or not _WORD.match(w):
            continue
        if _CJK.search(w):
            if len(w) >= 2:
                found.append(w)
        elif len(w) >= 2 and not w.isdigit():
            found.append(w)
    return found


@dataclass(frozen=True)
class Topics:
    """Each question's words, and how rare each word is among the questions."""

    vocab: dict[int, frozenset[str]]
    df: dict[str, int]
    given: frozenset[str]  # the words of every answer given (the transcript's, follow-ups)

    @property
    def count(self) -> int:
        return len(self.vocab)

    def weight(self, word: str) -> float:
        """idf over the transcript's questions: ln((N + 1) / df), 0 for a word in more
        than half of them."""
        df = self.df.get(word, 0)
        if df == 0 or df * 2 > max(2, self.count):
            return 0.0
        return math.log((self.count + 1) / df)

    def shared(self, sentence_words: Iterable[str], number: int) -> list[str]:
        """The specific words a sentence shares with question `number` that no answer
        given says: what speaks of that question and of nothing answered."""
        vocab = self.vocab.get(number, frozenset())
        out = [
            w
            for w in dict.fromkeys(sentence_words)
            if w in vocab and w not in self.given and self.weight(w) > 0
        ]
        return out


def topics(questions: Sequence[tuple[int, str]], given: Iterable[str]) -> Topics:
    """`questions`: (number, question and goal); `given`: the answers given."""
    vocab = {n: frozenset(words(text)) for n, text in questions}
    df: dict[str, int] = {}
    for ws in vocab.values():
        for w in ws:
            df[w] = df.get(w, 0) + 1
    said: set[str] = set()
    for answer in given:
        said.update(words(answer))
    return Topics(vocab, df, frozenset(said))
