"""The specific words a sentence shares with a question (its text and its goal), each
weighted by how rare it is among the transcript's questions: a word most questions
share (`模型`, `经验`, `TensorFlow` in a TensorFlow interview) decides nothing. Two
words side by side in both (`高级 分布式`, `TensorFlow 服务`) weigh again, as a phrase of
that question.

Words are jieba's (rjieba, the segmenter search uses), in one script (繁體 as 简体),
casefolded, English terms as the Chinese a transcript writes (glossary.py); interview
boilerplate (`请`, `如何`, `考察`, `被面试人`…) is no topic. A Latin word is specific
when the question writes it as a name is written (`LazyBuilder`, `All-Reduce`, `XLA`,
`gRPC`), or capitalised where both the question and the sentence write it so
(`Kubernetes`): a plain word (`training`, `server`) never decides alone. A name joined
by hyphens is also the name written as one word (`All-Reduce` is `allreduce`)."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from store.fulltext import segment
from store.scripts import fold

from .glossary import as_chinese

_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"[\w][\w+#.\-]*", re.UNICODE)
# Latin words joined by hyphens (`all-reduce`), also written as one (`allreduce`)
_HYPHENED = re.compile(r"(?<![\w-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\w-])")
# a Latin word written as a name: capitalised (not first in a sentence), inner capitals,
# digits, joined by - + # . or in capitals
_LATIN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[-+#.][A-Za-z0-9+#]+)*[+#]*")
_NAME_LIKE = re.compile(r"^.+[A-Z]|[0-9]|[-+#.]|^[A-Z]{2,}$")
# a name of two or more capitalised parts (`EmbeddingColumn`, `StateManager`), which a
# note may write apart (`embedding columns`, `state manager`)
_CAMEL = re.compile(r"(?<![A-Za-z0-9])[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+(?![A-Za-z0-9])")
_CAMEL_PART = re.compile(r"[A-Z][a-z0-9]+")
_SENTENCE_START = re.compile(r"(?:^|[.?!:;。？！：；\n]|\d[.、)）])\s*$")

# words every interview's questions and goals are made of: never a topic
_BOILERPLATE_WORDS = """
    请 您 你 你们 我们 他 她 被面试人 面试人 面试者 面试 面试官 候选人 考察 了解 评估 考核 如何 怎样
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


# characters that say nothing on their own: they keep the words beside them apart, and
# are never part of a phrase
_FUNCTION_CHARACTERS = frozenset(
    "的了和与及或在是对把被也都就还又很并等中上下里这那其他她我你它们之为以于从到将让给由向"
    "着过得地个些种次能会要该说讲做用有没不一而且则但所如若即已曾再才只仅最更太挺较颇非各每"
    "某此本何哪谁啥么吗呢吧啊呀哦嗯请您如"
)


def tokens(text: str) -> list[str]:
    """`words`, with the single Chinese characters kept in their places (`图` of `图优化`,
    `下` of `框架下设计`): what phrases are made of."""
    return list(_tokens(text))


@lru_cache(maxsize=1024)
def _tokens(text: str) -> tuple[str, ...]:
    """`tokens`, kept for the texts read again (a transcript's questions and answers are
    read at every check of the candidate: each card, each list line, each reply)."""
    found: list[str] = []
    said = as_chinese(fold(unicodedata.normalize("NFKC", text)).casefold())
    said = _HYPHENED.sub(lambda m: f"{m.group(0)} {m.group(0).replace('-', '')}", said)
    for w in segment(said):
        w = w.strip()
        if not w or w in BOILERPLATE or not _WORD.match(w):
            continue
        if _CJK.search(w) or (len(w) >= 2 and not w.isdigit()):
            found.append(w)
    return tuple(found)


def words(text: str) -> list[str]:
    """The content words of `text`, in one script, casefolded, English terms in Chinese,
    in order: Chinese words of two characters or more, Latin words of two letters or
    more; no boilerplate."""
    return [w for w in tokens(text) if len(w) >= 2]


def pairs(ts: Sequence[str]) -> list[str]:
    """Each two tokens side by side in `ts` (a text's `tokens`), as one key `a b`, and
    each two a `的` joins (`高级的分布式` is `高级分布式`); none with a character that says
    nothing on its own (`的`, `下`)."""
    side_by_side = list(pairwise(ts))
    joined = [(a, c) for (a, b), (_, c) in pairwise(side_by_side) if b == "的"]
    return [
        f"{a} {b}"
        for a, b in [*side_by_side, *joined]
        if a != b and a not in _FUNCTION_CHARACTERS and b not in _FUNCTION_CHARACTERS
    ]


def name_like(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The Latin words `text` writes as names, as `words` has them: those written as
    nothing but a name is (`LazyBuilder`, `All-Reduce`: `reduce`, `XLA`, `K8s`), and those
    merely capitalised inside a sentence (`Kubernetes`, but also `Server`)."""
    strong: set[str] = set()
    titled: set[str] = set()
    text = unicodedata.normalize("NFKC", text)
    for m in _LATIN.finditer(text):
        said = m.group(0)
        latin = [w for w in words(said) if not _CJK.search(w)]
        if _NAME_LIKE.search(said):
            strong.update(latin)
        # a sentence starts capitalised in English; Chinese starts a name so only as a name
        elif said[0].isupper() and (
            _CJK.search(text) or not _SENTENCE_START.search(text[: m.start()])
        ):
            titled.update(latin)
    return frozenset(strong), frozenset(titled - strong)


@dataclass(frozen=True)
class Topics:
    """Each question's words and phrases, and how rare each is among the questions."""

    vocab: dict[int, frozenset[str]]
    df: dict[str, int]
    given: frozenset[str]  # the words of every answer given (the transcript's, follow-ups)
    phrases: dict[int, frozenset[str]]  # each question's pairs of words side by side
    names: dict[int, frozenset[str]]  # each question's Latin words written as names
    titled: dict[int, frozenset[str]]  # each question's Latin words merely capitalised
    apart: dict[str, str]  # each name of capitalised parts, as words -> how written apart

    def spelled_apart(self, text: str) -> list[str]:
        """The names of capitalised parts `text` writes apart (`embedding columns` is
        `EmbeddingColumn`), as `tokens` has them."""
        folded = text.casefold()
        return [name for name, said in self.apart.items() if _apart(said).search(folded)]

    @property
    def count(self) -> int:
        return len(self.vocab)

    def weight(self, word: str) -> float:
        """idf over the transcript's questions: ln((N + 1) / df), 0 for a word (or a
        phrase) in more than half of them."""
        df = self.df.get(word, 0)
        if df == 0 or df * 2 > max(2, self.count):
            return 0.0
        return math.log((self.count + 1) / df)

    def shared_phrases(self, sentence_tokens: Sequence[str], number: int) -> list[str]:
        """The phrases of question `number` the sentence says, token beside token, that
        no answer given says."""
        own = self.phrases.get(number, frozenset())
        return [
            p
            for p in dict.fromkeys(pairs(sentence_tokens))
            if p in own and p not in self.given and self.weight(p) > 0
        ]

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


@lru_cache(maxsize=256)
def _apart(said: str) -> re.Pattern[str]:
    return re.compile(said)


def _written_apart(text: str) -> dict[str, str]:
    """Each name of capitalised parts in `text` (`EmbeddingColumn`), as `tokens` has it
    (`embeddingcolumn`), and the pattern of its parts written apart (`embedding
    column(s)`, `embedding-column`)."""
    found: dict[str, str] = {}
    for m in _CAMEL.finditer(text):
        parts = [p.casefold() for p in _CAMEL_PART.findall(m.group(0))]
        joined = "".join(parts)
        said = r"[\s_-]+".join(re.escape(p) for p in parts)
        found[joined] = rf"(?<![a-z0-9]){said}s?(?![a-z0-9])"
    return found


def topics(questions: Sequence[tuple[int, str]], given: Iterable[str]) -> Topics:
    """`questions`: (number, question and goal); `given`: the answers given."""
    said = {n: tokens(text) for n, text in questions}
    vocab = {n: frozenset(w for w in ts if len(w) >= 2) for n, ts in said.items()}
    phrases = {n: frozenset(pairs(ts)) for n, ts in said.items()}
    df: dict[str, int] = {}
    for keys in [*vocab.values(), *phrases.values()]:
        for k in keys:
            df[k] = df.get(k, 0) + 1
    answered: set[str] = set()
    for answer in given:
        ts = tokens(answer)
        answered.update(w for w in ts if len(w) >= 2)
        answered.update(pairs(ts))
    named = {n: name_like(text) for n, text in questions}
    names = {n: strong for n, (strong, _) in named.items()}
    titled = {n: capitalised for n, (_, capitalised) in named.items()}
    apart: dict[str, str] = {}
    for _, text in questions:
        apart |= _written_apart(text)
    return Topics(vocab, df, frozenset(answered), phrases, names, titled, apart)
