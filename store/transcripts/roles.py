"""Who speaks in a meeting transcript, and what a turn of the interviewer is: the role
words (面试官, 候选人, Interviewer, Candidate, also in `张三（面试官）`), small talk
(`你好`, `听得到吗`, `我们开始吧`), the closing question (`你有什么想问我们的吗`), a turn
that asks the candidate something. Pure functions over words, used by `meetings.py` and
`dialogue.py`.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import Literal

Role = Literal["interviewer", "candidate"]

_INTERVIEWER = r"主?面试官|面试人|考官|interviewer|hiring\s*manager"
_CANDIDATE = r"候选人|应聘者|求职者|面试者|被面试者|candidate|interviewee"
# a role word alone, maybe numbered: `面试官`, `面试官2`, `Interviewer B`
_role_alone_re = cache(
    lambda: re.compile(
        rf"^\s*(?:(?P<i>{_INTERVIEWER})|(?P<c>{_CANDIDATE}))\s*[0-9A-Za-z一二三]?\s*$", re.I
    )
)
# `张三（面试官）`, `Alice (Interviewer)`, `面试官 张三`, `面试官-张三`
_role_with_name_re = cache(
    lambda: re.compile(
        rf"^\s*(?P<name>[^()（）]+?)\s*[(（]\s*(?:(?P<i>{_INTERVIEWER})|(?P<c>{_CANDIDATE}))"
        r"\s*[0-9A-Za-z]?\s*[)）]\s*$"
        rf"|^\s*(?:(?P<i2>{_INTERVIEWER})|(?P<c2>{_CANDIDATE}))\s*[-—:：·\s]\s*(?P<name2>[^()（）]+?)\s*$",
        re.I,
    )
)
# a speaker the tool could not name: `说话人 1`, `发言人2`, `Speaker 3`, `Unknown`
_anonymous_re = cache(
    lambda: re.compile(
        r"^\s*(?:说话人|发言人|讲话人|参会人|用户|speaker|participant|unknown|guest)\s*[0-9A-Za-z]*\s*$",
        re.I,
    )
)


# what a meeting tool adds to a name about the account, not the person: Teams'
# `Bob Li (Guest)`, `(External)`, `(Unverified)`
_ACCOUNT_TAGS = frozenset({"guest", "external", "unverified", "外部", "访客", "来宾", "外部用户"})


def _without_account_tag(label: str) -> str:
    """`Bob Li (Guest)` -> `Bob Li` (found from the end, no pattern to backtrack)."""
    if not label.endswith(")"):
        return label
    opening = label.rfind("(")
    if opening <= 0 or label[opening + 1 : -1].strip().lower() not in _ACCOUNT_TAGS:
        return label
    return label[:opening].strip()


def speaker(label: str) -> tuple[str | None, Role | None]:
    """A speaker's label as (their name, their role): `张三（面试官）` -> (张三,
    interviewer), `候选人` -> (None, candidate), `说话人 1` -> (None, None), `张三` ->
    (张三, None), `Bob Li (Guest)` -> (Bob Li, None)."""
    label = _without_account_tag(unicodedata.normalize("NFKC", label).strip())
    m = _role_alone_re().match(label)
    if m is not None:
        return None, "interviewer" if m.group("i") else "candidate"
    m = _role_with_name_re().match(label)
    if m is not None:
        name = (m.group("name") or m.group("name2") or "").strip() or None
        return name, "interviewer" if (m.group("i") or m.group("i2")) else "candidate"
    if _anonymous_re().match(label):
        return None, None
    return label, None


def is_speaker_label(label: str, names: frozenset[str]) -> bool:
    """In a typed dialogue, does `label` (before a colon) name a speaker: a role word, or
    one of the `names` the header gives?"""
    name, role = speaker(label)
    return role is not None or (name is not None and name in names)


# what `compact` sets aside: all but letters, digits and `'` (spaces, punctuation,
# symbols, controls, `_`); one pass in C, not a call a character
_not_word_re = cache(lambda: re.compile(r"[^\w']|_"))


def compact(text: str) -> str:
    """`text` as its words are matched: no spaces, punctuation or case."""
    return _not_word_re().sub("", unicodedata.normalize("NFKC", text).lower())


_SMALL_TALK = (
    r"(?:(?:你好|您好|大家好|哈喽|嗨|喂|hello|hi|hey|good(?:morning|afternoon|evening))"
    r"|(?:请问)?(?:你|您)?(?:这边)?(?:能|可以)?(?:听|看)(?:得)?(?:到|见|清楚)(?:我|我们)?(?:的)?(?:说话|声音|屏幕|画面)?(?:吗|么|嘛|了吗|了)?"
    r"|(?:我的|我这边的?)?(?:声音|画面|网络)(?:还)?(?:清楚|清晰|正常|可以|ok)(?:吗|么|嘛)?"
    r"|(?:那|那么|好|好的|ok|okay)?(?:我们|咱们)?(?:就|现在)?(?:正式)?开始(?:吧|了|面试吧|面试)?"
    r"|(?:你|您)?(?:准备|准备好)(?:好)?了(?:吗|么|嘛)?"
    r"|(?:谢谢|感谢|多谢)(?:你|您)?(?:的时间|参加|参加面试)?|辛苦了|不客气|没关系|请坐|稍等(?:一下)?"
    r"|(?:欢迎|欢迎你|欢迎您)(?:参加|来参加)?(?:我们|今天)?(?:的)?(?:面试)?"
    r"|(?:我|我们)?(?:是|叫)?(?:今天的)?面试官"
    r"|(?:嗯|呃|额|啊|哦|噢|诶|好|好的|对|是的|是|行|可以|没问题|ok|okay|yes|yeah|sure|right|great|thanks|thankyou|"
    r"niceto(?:meet|see)you|canyouhearme|canyouseemyscreen|let'?s(?:get)?start(?:ed)?|howareyou|"
    r"nicetomeetyoutoo|imfine|great))+"
    # English greetings, checks and sign-offs: `Can you see that?`, `Did you all have a good
    # week so far?`, `Thank you for sharing that.`
    r"|(?:(?:hi|hello|hey|welcome|okay|ok|alright|allright|yes|yeah|yep|right|so|well|and|great|"
    r"cool|nice|perfect|excellent|awesome|wonderful|fantastic|interesting|isee|gotit|mhm|hmm|"
    r"uhhuh|sure|absolutely|definitely|lovely|bye|byebye|takecare|seeyou|seeyoulater|cheers|"
    r"(?:that'?s|that)(?:sounds|is|was)?(?:really|very|so)?(?:great|good|interesting|cool|nice|"
    r"fair|awesome|amazing|fantastic|perfect|fine)|"
    r"canyou(?:all)?(?:hear|see)(?:me|us|that|this|it|my(?:screen|slides?))(?:ok|okay|well|now|"
    r"alright|allright|clearly)?|(?:can|could)everyone(?:hear|see)(?:me|us|that|this|it|my(?:screen|"
    r"slides?))|areyou(?:all)?(?:ready|there|ok|okay)|(?:shall|can)we(?:get)?(?:start|begin)(?:ed)?|"
    r"howareyou(?:doing)?(?:today)?|howsitgoing|howisitgoing|howisyourday|"
    r"howwasyour(?:week|weekend|day|morning|holiday|break)|"
    r"didyou(?:all|guys)?have(?:a)?(?:good|nice|great|lovely)(?:week|weekend|day|morning|holiday|"
    r"break)(?:sofar)?|(?:good|nice|great)to(?:see|meet|have)(?:you|everyone)(?:all|too|here)?|"
    r"niceto(?:meet|see)(?:you|everyone)(?:all|too)?|"
    r"(?:thank|thanks)(?:you)?(?:so|very)?(?:much)?(?:again)?(?:for(?:your|the|this)?(?:time|"
    r"sharing(?:that|this)?|coming|joining|chatting|talking|having(?:me|us)|everything|"
    r"opportunity(?:tointerview)?|interview|conversation))?|"
    r"haveagood(?:day|one|week|weekend|evening)|talksoon|speaksoon))+"
)
_small_talk_re = cache(lambda: re.compile(rf"^(?:{_SMALL_TALK})$"))
_closing_re = cache(
    lambda: re.compile(
        r"(?:你|您)(?:这边|那边)?(?:还|最后)?有(?:没有)?(?:什么|啥|其他|其它|别的|任何)?(?:问题|疑问)?"
        r"(?:想|要|需要)?(?:问|了解|咨询)"
        r"|(?:有什么|有没有)(?:问题|疑问)?(?:想|要)?(?:问|了解)(?:我们|我)"
        r"|反问(?:环节)?"
        r"|(?:any|some)questions?(?:you'?dliketoask|youwanttoask)?for(?:us|me)"
        r"|anything(?:you'?d|youwould)liketoask|anyquestionsforus|whatquestionsdoyouhave"
    )
)
_numbered_cue_re = cache(
    lambda: re.compile(
        r"第[0-9一二三四五六七八九十两]+(?:个|道)?(?:问题|题)|下一(?:个|道)?(?:问题|题)"
        r"|最后一(?:个|道)?(?:问题|题)|(?:问题|题目)[0-9一二三四五六七八九十]+"
        r"|(?:first|second|third|next|last|final)question|question(?:number)?[0-9]+"
    )
)
_asking_re = cache(
    lambda: re.compile(
        r"请|能不能|能否|可不可以|可以.{0,6}吗|介绍一下|介绍下|说说|谈谈|讲讲|聊聊|说一下|讲一下|描述一下"
        r"|怎么|如何|为什么|为何"
        r"|^(?:can|could|would|will)you|^(?:tell|walk)me|^(?:describe|explain)"
        r"|^(?:how|why|what|which|when|where|who)"
    )
)
_ENDS_ASKING = ("？", "?", "吗", "呢", "么", "嘛")
# a clause that asks as English does, wherever it stands in the utterance: `So you're the
# sole developer of a game, how did you become a developer.`
_clause_asks_re = cache(
    lambda: re.compile(
        r"^(?:so|and|but|okay|ok|well|now|then|also|right){0,3}"
        r"(?:(?:how|why|what|which|when|where|who)(?:did|do|does|is|are|was|were|would|could|can|"
        r"will|have|has|made|makes|got|kind|sort|inspired|led)"
        r"|(?:can|could|would|will|do|did|have|are|were)you|(?:tell|walk)(?:me|us))"
    )
)
_clause_split_re = cache(lambda: re.compile(r"[,.;:!?，。；：！？]"))


# a greeting with the name of whom it greets: `Hi Bob,`, `张三你好`
_greeting_name_re = cache(
    lambda: re.compile(
        r"^\s*(?:(?i:hi|hello|hey|good\s+(?:morning|afternoon|evening))[\s,]+[A-Z][a-z]+\b"
        r"|[\u4e00-\u9fff]{2,3}[，,\s]*(?=你好|您好))"
    )
)


def small_talk(text: str) -> bool:
    """Greetings, `听得到吗`, `我们开始吧`, `好的`: nothing asked of the candidate."""
    return _small_talk(text, compact(text))


def _small_talk(text: str, kept: str) -> bool:
    """`small_talk`, given `kept`, the text compacted (compacted again only when a
    greeting with a name is set aside first)."""
    named = _greeting_name_re().sub("", text, count=1)
    if named != text:
        kept = compact(named)
    return not kept or _small_talk_re().match(kept) is not None


def backchannel(text: str) -> bool:
    """An interviewer's `嗯`, `Right.`, `Interesting.`, `明白了`: no remark that ends an
    answer (three words at most, or six Chinese characters)."""
    if small_talk(text):
        return True
    han = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
    return len(text.split()) <= 3 and han <= 6 and len(text) <= 24 and not ends_asking(text)


def closing(text: str) -> bool:
    """The closing question: `你有什么想问我们的吗`, `do you have any questions for us`."""
    return _closing_re().search(compact(text)) is not None


def ends_asking(text: str) -> bool:
    """Does the text end as a question does (？, ?, 吗, 呢)?"""
    return text.rstrip(" \t。.！!～~…）)」”\"'").endswith(_ENDS_ASKING)


_moves_on_re = cache(
    lambda: re.compile(
        r"noworries|nevermind|nothingtoworry|that'?s(?:fine|ok|okay|alright|allright)|"
        r"(?:let'?s|we'?ll|wecan)(?:just)?(?:move|moveon|skip|comeback|goback|leave)|"
        r"movingon|moveon|skip(?:it|that|this)|"
        r"没关系|没事|不要紧|不用紧张|算了|跳过|那我们换|换(?:一)?个(?:问题|题|话题)|先放一放|回头再"
    )
)


def moves_on(text: str) -> bool:
    """Does an interviewer, having asked, let the question go (`No worries, we can come
    back to it.`, `没关系，我们换个问题`)?"""
    return small_talk(text) or _moves_on_re().search(compact(text)) is not None


_CLAUSE_STARTS = frozenset(
    [
        "so",
        "and",
        "but",
        "okay",
        "ok",
        "well",
        "now",
        "then",
        "also",
        "right",
        "how",
        "why",
        "what",
        "which",
        "when",
        "where",
        "who",
        "can",
        "could",
        "would",
        "will",
        "do",
        "did",
        "have",
        "are",
        "were",
        "tell",
        "walk",
    ]
)


def _clause_asks(clause: str) -> bool:
    """Does a clause begin as an English question does? (Only its first words are read,
    and only when the first is one a question may begin with.)"""
    head = clause.lstrip()[:60]
    first = head.split(" ", 1)[0].lower()
    return first in _CLAUSE_STARTS and _clause_asks_re().match(compact(head)) is not None


def numbered_cue(text: str) -> bool:
    """Does the utterance name its question (`第二个问题`, `下一题`, `next question`)?"""
    return _numbered_cue_re().search(compact(text)) is not None


def asks(text: str) -> bool:
    """Does an interviewer's utterance ask the candidate something: a numbered cue
    (`第二个问题`, `下一题`), a question (`？`), or a request (请, 说说, 怎么, 为什么…),
    and neither small talk nor the closing question?"""
    kept = compact(text)  # (once: a long answer is read by each check)
    if _small_talk(text, kept) or _closing_re().search(kept) is not None:
        return False
    return (
        _numbered_cue_re().search(kept) is not None
        or ends_asking(text)
        or _asking_re().search(kept) is not None
        or any(_clause_asks(clause) for clause in _clause_split_re().split(text))
    )
