"""Answers that are no answer, and why: empty (`无`, `N/A`, `（沉默）`), skipped (`跳过`,
`这题我想跳过`, `pass`), or only saying the candidate could not answer (`不知道`,
`答不上来`, `（摇头）`). Pure functions, used by the parser and by migrations that re-read
old rows.

An answer is read as a small grammar, not matched against a list of phrases: once
spaces, punctuation and case are set aside and traditional characters read as
simplified (store/scripts.py `fold`), it is a non-answer when it is nothing but fillers
(`这个`, `嗯`, `吧`, `我想`, `sorry`…) around one or more cores that skip or refuse, say
"I don't know", or describe silence or a head shake (a stage direction:
`（候选人沉默，未作答）`). Anything else in it (`我不知道当时为什么那样设计，后来…`) makes
it an answer.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from ..models import UnansweredReason
from ..scripts import fold

# A placeholder where an answer should be: compared whole, after `compact`.
_PLACEHOLDERS = {
    "",
    "无",
    "暂无",
    "没有",
    "空",
    "空白",
    "待补充",
    "待填写",
    "na",
    "n/a",
    "none",
    "null",
    "nil",
    "tbd",
    "todo",
}

# -- the grammar, over compacted simplified text -------------------------------------------
# Time as the reason: `时间关系`, `由于时间不够`, `(time)`.
_TIME = r"(?:由于|因为)?(?:时间(?:关系|原因|不够|不足|有限)|没时间|来不及)|duetotime|fortime|time"
# Who and what they did, said around the core: `候选人表示`, `他说`, `the candidate`.
_WHO = r"候选人|面试者|被面试者|被面试人|应聘者|求职者|对方|他|她|thecandidate|candidate"
_SAY = r"表示|坦言|直言|回复|回答说|回答|说|称|答道|答"
# Words that say nothing on their own (`嗯`, `这个`, `我想`, `sorry`).
_FILLER = (
    r"这个问题|这道题|这一题|这个|这题|这块|这方面|这部分|这里|此题|本题|该题|那个|那就|那|"
    r"就|还是|要不然|要不|不如|干脆|直接|请|麻烦|嗯|呃|额|唔|啊|哦|噢|诶|哎|呀|吧|了|呢|哈|"
    r"嘛|啦|哇|的|我想|我们|我|咱们|可能|暂时|暂|先|还|也|都|并|其实|说实话|老实说|坦白说|"
    r"确实|实在|真的|真|完全|根本|压根|基本上|基本|一点都|一点也|对此|对|抱歉|不好意思|"
    r"对不起|思考|想|停顿|沉吟|犹豫|愣|很久|许久|好久|半天|一会儿|一会|片刻|一下|"
    # what happened around the core: `思考后表示…`, `面试官提示后仍未答出`, `直接进入下一题`
    r"之后|以后|过后|然后|后|仍然|依然|仍|面试官|提示|引导|追问|进入|转入|转到|跳到|"
    r"em+|um+|uh+|hm+|erm|er|ah|oh|well|so|okay|ok|sorry|imsorry|honestly|actually|really|"
    r"just|please|maybe|think|ithink|id|iwould|iwill|ill|i|we|lets|letus|can|could|may|"
    r"like|wantto|want|to|the|this|that|it|one|question|thisone|fornow|now|on|here|with|"
    rf"{_TIME}|{_WHO}|{_SAY}"
)
_SKIP = (
    r"跳过|略过|略|跳|过|放弃|下一题|下一道|下一个问题|下一个|换一题|换一道|换道题|换个问题|"
    r"换一个|未问|没问|没有问|未提问|没提问|"
    r"(?:拒绝|不想|不愿意|不愿|不便|不方便|不予)(?:回答|作答|答|说)|拒答|无可奉告|"
    r"pass|passed|skip|skipped|skipping|next|nextone|moveon|movingon|giveup|notasked|"
    r"nocomment|declined|refused|(?:prefer|preferred|rather)not(?:to)?(?:answer|say)?"
)
_DONT_KNOW = (
    r"(?:(?:不太|不是很|不是太|不怎么|不大|不很|不)"
    r"(?:知道|清楚|会|了解|懂|熟悉|熟|记得|确定|明白|理解)"
    r"|没(?:有)?(?:怎么|太|咋)?(?:接触|用|做|听说|听|学|了解|研究|遇到|碰到|想|考虑|搞|弄)过"
    r"|未(?:曾)?(?:接触|用|做|听说|学|了解|研究)过"
    r"|还没(?:有)?(?:怎么)?(?:接触|用|做|学|了解|研究|看|遇到)(?:过|到)?"
    r"|(?:无法|没法|没办法)(?:回答|作答|答)|(?:回)?答不(?:上来|上|出来|出|了)|回答不了"
    r"|想不(?:起来|起|出来|出)|记不(?:清楚|清|得|起来|起)"
    r"|(?:没(?:有|能)?|未(?:能)?)(?:回)?答(?:上来|出来|上|出)|忘(?:记)?了|忘记"
    r"|(?:没(?:有|能)?|未(?:能)?)(?:写|做)(?:出来|出)|(?:写|做)不(?:出来|出)"
    r"|没(?:有)?(?:思路|想法|头绪|概念|印象)"
    r"|摇了摇头|摇摇头|摇头|摆了摆手|摆摆手|摆手)(?:做|写|答|用|说)?"
    r"|(?:do|does|did)?(?:nt|not)(?:really)?(?:know|remember|recall|understand)"
    r"|idk|(?:have|had)?no(?:idea|clue|experience)|(?:im|iam)?notsure"
    r"|(?:im|iam)?not(?:really|very)?familiar"
    r"|(?:cannot|cant|couldnot|couldnt|unableto)(?:answer|say)"
    r"|(?:shakes|shook|shaking)(?:his|her|their)?head|headshake"
    r"|(?:id|iwould|ineed|idneed)(?:haveto|to)think(?:about)?(?:that|it|this)(?:one)?"
    r"|(?:ill|iwill|icould|ican)getbacktoyou(?:onthat|onit|onthis)?"
)
_SILENT = (
    r"沉默|不语|无语|一言不发|"
    r"(?:没有|没|未|不|无)(?:作回答|作答|回答|答复|答|回复|回应|说话|出声|吭声|反应)|"
    r"silence|silent|remainedsilent|stayedsilent|saidnothing|"
    r"noanswer|noresponse|unanswered|notanswered|"
    r"(?:didnot|didnt|not|never)(?:answer|answered|respond|responded|reply|replied)"
)
# Refusing to answer is skipping it (`拒绝回答`, `no comment`).
# Which reason an answer gets when it says more than one: not knowing tells the most.
_KINDS: tuple[tuple[UnansweredReason | None, str], ...] = (
    (None, _FILLER),
    ("dont_know", _DONT_KNOW),
    ("skipped", _SKIP),
    ("empty", _SILENT),
)
LONGEST = 60  # compacted characters: a longer answer is an answer, whatever it contains
LONGEST_WORD = 24  # characters of one filler or core (`shakestheirhead`, `emmmm`)


def _bit(kind: int) -> int:
    """The bit of `_KINDS[kind]` in what `_said` returns: none for the filler."""
    return 1 << kind if kind else 0


@cache
def _words() -> tuple[tuple[int, re.Pattern[str]], ...]:
    """Each kind of word as (its bit, its pattern)."""
    return tuple((_bit(kind), re.compile(p)) for kind, (_, p) in enumerate(_KINDS))


def _said(kept: str) -> int:
    """The kinds of core (bits of `_KINDS` after the filler) that some reading of `kept`
    as nothing but fillers and cores holds; 0 when no reading covers all of it. Read
    position by position, each position once (no backtracking: `跳过` read as `跳` `过`
    or as one word costs the same), so any text costs at most LONGEST x LONGEST_WORD
    tries of each kind."""
    reached: dict[int, set[int]] = {0: {0}}
    for i in range(len(kept)):
        masks = reached.get(i)
        if not masks:
            continue
        for bit, pattern in _words():
            for j in range(i + 1, min(len(kept), i + LONGEST_WORD) + 1):
                if pattern.fullmatch(kept, i, j):
                    reached.setdefault(j, set()).update(m | bit for m in masks)
    said = 0
    for mask in reached.get(len(kept), set()):
        said |= mask
    return said


def compact(answer: str) -> str:
    """`answer` as compared with the words above: no spaces, punctuation or case."""
    return "".join(
        ch
        for ch in unicodedata.normalize("NFKC", answer).lower()
        if ch == "/" or not unicodedata.category(ch).startswith(("P", "S", "Z", "C"))
    )


def _surely_longer(answer: str, limit: int) -> bool:
    """Does `answer` surely keep more than `limit` characters once compacted? Its letters
    and digits are kept (`\\w`, counted before NFKC, which can join a letter and its
    marks, and with `_`, which goes: hence the margin the caller leaves)."""
    return len(answer) > limit and _more_words_than(limit).match(answer) is not None


@cache
def _more_words_than(limit: int) -> re.Pattern[str]:
    """Matches a text with more than `limit` letters or digits (`\\w` and `\\W` never
    overlap: one pass, no backtracking), reading no further than the one after them."""
    return re.compile(r"\W*(?:\w\W*){" + str(limit + 1) + "}")


def unanswered_reason(answer: str) -> UnansweredReason | None:
    """Why an answer is no answer: `empty` (nothing, 无, N/A, 未作答, a stage direction of
    silence), `skipped` (跳过, 这题我想跳过, pass), `dont_know` (the answer only says the
    candidate could not answer: 不知道, 答不上来, 没思路, a head shake, I don't know); None
    for an answer. An answer that merely contains 不知道 or 跳过 is an answer."""
    if _surely_longer(answer, 3 * LONGEST):
        return None  # an answer of some length: no need to compact all of it
    kept = compact(answer)
    if len(kept) > LONGEST:
        return None
    kept = fold(kept)
    if kept in _PLACEHOLDERS or kept.strip("/") in _PLACEHOLDERS:
        return "empty"
    said = _said(kept)
    for kind, (reason, _) in enumerate(_KINDS):
        if said & _bit(kind):
            return reason
    return None


def is_placeholder(answer: str) -> bool:
    """True for an empty answer or one that only says there is none (无, N/A, 跳过…)."""
    return unanswered_reason(answer) in ("empty", "skipped")
