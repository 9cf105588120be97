"""What a clause of a sentence does besides crediting: a sentence is cut into clauses (at
commas, colons and semicolons, and before `但`, `不过`, `but`, `though`…), and a clause
credits no one when it says something was not answered or was weak, suggests what to
ask next, wishes or sets a condition, doubts, or reports what the candidate claims of
himself; a sentence that is a question credits no one at all.

`通过，Client/Server架构讲得非常好`: the decision and the credit are two clauses, the
second a claim. `下一轮可以追问他对All-Reduce的理解`: a suggestion, whatever words it
shares with a question. Matched on the text in one script (`scripts.fold`), whatever its
case."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from store.scripts import fold

# a clause ends at a comma, colon, semicolon or dash, and before a contrast
_CUT = (
    r"[，,；;：:]|——|—|--|\s[-–]\s"
    r"|(?=(?<!不)(?:但是|但|不过|然而|可是|只是|却))"
    r"|(?=\b(?:but|though|although|however|whereas|yet)\b)"
)

# said not to be answered, or answered poorly: no credit
_UNANSWERED = (
    r"没有回答|没回答|未回答|未作答|没有作答|未能回答|没能回答|无法回答|答不上|答不出|答不好"
    r"|没答|未答|跳过|不会|不知道|不了解|不清楚|不熟|不懂|不太|不够|不足|(?<!问题)不大|不大(?:清楚|明白|懂|会|熟|了解)|不怎么|不深"
    r"|不全|不准|不对|不行|不佳|没聊|没有聊|没问到|不到位|不扎实|不透|不明白|空白|为空|空着|是空的|空的|留空|缺失"
    r"|没有提到|没提到|没有提|没提|没有谈|没谈|没讲|没说|没有涉及|没涉及|不涉及|未提及|未涉及|未能|没能"
    r"|没有展示|没有体现|没体现|没怎么|没(?:有)?(?:接触|碰|做|用|学)过|一笔带过|略过|就过了"
    r"|不明确|一塌糊涂|一团糟|糊涂|茫然|偏差|是不可能的|仅限于|只说了个|只提了|只是提了|只是提到|只报了|完全没有|根本没有|几乎没有|基本没有"
    r"|压根没有|几乎为零|为零|完全没|根本没|没有[。.!！~～]*$|放弃|说不清|讲不清|说不出|讲不出|讲不明白|说不明白|答非所问"
    r"|一般(?!来说|而言|情况|都)|较弱|偏弱|薄弱|很弱|太弱|欠缺|缺乏|有限|(?<!深入)浅(?!出)"
    r"|模糊|(?<!不)含糊|笼统|空泛|泛泛|混乱|有误|答错|说错|讲错|错了|卡壳|支支吾吾|勉强|背书"
    r"|死记硬背|照本宣科|停留在|有待|需要加强|需加强|待加强|待提高|没时间|来不及|没来得及"
    r"|没问(?!题)|没有问(?!题)|未问|漏问|没覆盖|未覆盖|缺少|一窍不通|一问三不知|搞混|混淆|只会背"
    r"|只知道|只记得|不及格|没概念|没有概念|马马虎虎|凑合|差强人意|不尽如人意|\bmeh\b"
    r"|(?<!没有)(?<!无)(?:短板|弱项|软肋|硬伤|短处)|不足之处|\bweak spot|\bweakness|\bsoft spot\b"
    r"|\bnot\b(?!\s+(?:only|bad|just))|n't\b|\bnever\b|\bno answer|\bunanswered"
    r"|\bskipped\b|\bskips\b|\bskip (?:it|q|question|the|that|this)\b"
    r"|\bleft (?:it )?blank|\bblank\b|\bempty\b|\bmissing\b|\bunable\b|\black(?:s|ed|ing)?\b"
    r"|\bweak|\bshaky|\bvague|\bsuperficial|\bshallow|\bconfused\b|\bstruggl|\bwrong\b"
    r"|\bincorrect|\bpoor|\blimited\b|\bfumbl|\bhand-?wav|\bgaps?\b|\bfail(?:ed|s)? to\b"
    r"|\bfell short|\bran out of time|\bwithout (?:an? )?answer|\bdodged\b|\bnothing\b|\bclueless\b"
    r"|\bill-prepared\b|\bun(?:familiar|aware|convincing|comfortable|prepared|clear)\b"
    r"|得(?:很|非常|挺|比较|相当|特别|十分|有点|有些)?(?:乱|散|虚|绕|啰嗦|差|糟|烂|少|空洞|表面|简单|理论|官方|套路|书面)"
    r"|\u274c|\bkn(?:ow|ows|ew) (?:of|the name)\b|\bexpected (?:a |an )?(?:better|more|deeper|stronger)\b|\bhoped for\b"
    r"|\bcould (?:have been|be) better\b|\btrouble\b|\bmixed up\b|\bmix(?:es|ed)? up\b|\bbarely\b|\bhardly\b"
    r"|\bsurface[- ]level\b|\bbuzzwords?\b|\bmemori[sz]ed\b"
)
# what to ask next, and who should ask it
_SUGGESTION = (
    r"建议(?!录用|通过|聘用|推进|进入|给|发)|下一轮|下轮|下一面|下次|下回|二面|三面|四面|终面"
    r"|复试|复面|交叉面|再面|补面|加面|加一轮|可以安排|安排[^，,]{0,4}面"
    r"|后续|之后再|后面再|再问|再聊|再看|再确认|再考察|再深挖|追问|补问|深挖"
    r"|问问|问一下|问下|考察一下|重点考察|需要考察|需考察|有待考察|值得(?:追问|深挖|再问|关注"
    r"|考察|确认|一问|问)|可以(?:再)?(?:问|考察|追问|关注|确认|了解|聊)|需要确认|需确认|待确认"
    r"|待验证|需要验证|验证一下|确认一下|请(?:追问|问|考察|确认|关注)|让他(?:讲讲|说说|聊聊)"
    r"|听他讲讲|听听"
    r"|\bnext (?:round|interview|time|stage|loop|interviewer)|\bon-?site\b|\bfollow[- ]?up"
    r"|\bprobe|\bdig (?:into|deeper)|\bask (?:him|her|them|about|the candidate)"
    r"|\bworth (?:asking|probing|checking|exploring|digging|a)\b|\bshould (?:ask|probe|check"
    r"|cover|explore|test|verify|dig)|\brecommend (?:asking|probing|checking|testing)"
    r"|\bto ask\b|\bround (?:two|three|2|3)\b|\b(?:second|third|2nd|3rd) round\b"
    r"|\bsuggest|\blet'?s\b|\blet us\b|\bwould (?:like|love) to|\bi'd (?:like|ask|want)"
    r"|\bneeds? to (?:verify|confirm|check|see|ask)|\bto be (?:confirmed|verified|checked)"
    r"|\btbd\b|\bverify|\bconfirm\b|\bplease\b|\btodo\b|\bto-do\b"
    r"|\bneeds? (?:a |an )?(?:deeper|closer|second|another) look|\bneeds? more\b"
    r"|想问|本想|本来想|打算问|原本想|准备问|计划问|\bmeant to ask\b|\bwanted to ask\b"
    r"|\bplanned to\b|\bintended to\b"
)
# a condition, a wish: not what happened
_WISH = (
    r"如果|要是|假如|(?<![他她你我])的话|假设|倘若|若是|希望|期待|期望|但愿|最好能|要能"
    r"|^\s*if\b|\bif (?:he|she|they|the candidate)\b|\bhopefully|\bhope\b|\bwish"
    r"|\bwould have\b|\bhad he\b|\bassuming\b|\bunless\b"
)
# a doubt, what the candidate claims of himself, or what the position asks for
_DOUBT = (
    r"不确定|不好说|说不好|存疑|怀疑|难以判断|无法判断|不好判断|没法判断|难说|看不出|不敢说"
    r"|简历|履历|简介|自称|号称|声称|自述|自己说|说自己|称自己|自认为|他说他|据他说|表示自己"
    r"|自我介绍|自评"
    r"|是不是|有没有|是否|([\u3400-\u9fff])[不没]\1"
    r"|\bunsure\b|\bunclear\b|(?<!no )\bdoubt|\bhard to (?:say|tell|judge)|\bcan'?t tell|\bquestionable"
    r"|\buncertain|\bresume\b|\bcv\b|\bclaims? to\b|\bclaimed\b|\bsays he\b|\bsaid he\b"
    r"|\baccording to him\b|\bself-described\b"
    r"|(?:岗位|职位|团队|我们)[^，,]{0,3}(?:需要|要求)|我们要找|需要的是|要求有|招聘要求"
    # what the interviewer or the team did or knows, not the candidate
    r"|我们(?:组|团队|这边|部门)|(?<![他她])我(?:解释|讲|介绍|说明|提|给他|跟他|向他|帮他)"
    r"|面试官(?:[（(]我[)）])?(?!们?(?:都|一致)?(?:觉得|认为|感觉))[^，,]{0,20}?(?:讲了|解释了|介绍了|说了)"
    r"|\b(?:i|we) (?:explained|described|walked"
    r"|showed|told|gave|covered|talked|introduced)\b"
    r"|加分项|必备|硬性要求|\ba must\b|\bmust-have\b|\bnice-to-have\b|\bnice to have\b"
    r"|\b(?:the )?(?:role|job|team|position) (?:needs|requires)\b|\bwe need\b"
    r"|\bwe(?:'re| are) looking for\b|\blooking for someone\b"
)
# what the question asked, not what was answered
_ABOUT_THE_QUESTION = (
    r"问的是|考察的是|题目是|题目问|问题问的是"
    r"|the question (?:is|was) about|the question asks|asks about"
)
# a sentence about the interview itself, not the candidate: `本文分享了……问题和回答`
_ABOUT_THE_INTERVIEW = (
    r"^(?:本文|本次面试|这次面试|此次面试|面试问题|问题涵盖|this (?:interview|article))"
)


# Slack's codes for the marks a reply credits or denies with, as the marks themselves (a
# code's colons are no clause's end)
_MARKS = {
    "white_check_mark": "\u2705",
    "heavy_check_mark": "\u2714",
    "ballot_box_with_check": "\u2611",
    "+1": "\U0001f44d",
    "thumbsup": "\U0001f44d",
    "100": "\U0001f4af",
    "x": "\u274c",
}


@cache
def _mark_codes() -> re.Pattern[str]:
    return re.compile(":(" + "|".join(re.escape(c) for c in _MARKS) + "):")


def _fold(text: str) -> str:
    text = _mark_codes().sub(lambda m: _MARKS[m.group(1)], text)
    return fold(unicodedata.normalize("NFKC", text))


@cache
def _cut() -> re.Pattern[str]:
    return re.compile(f"({_CUT})", re.IGNORECASE)


# a clause that goes on with the one before it
_CONTINUING = (
    r"^(?:是|就是|即|包括|比如|例如|譬如|尤其|特别|以及|还有|并且|而且|甚至|连"
    r"|and\b|as well as\b|especially\b|including\b|like\b|namely\b|e\.g\.|particularly\b"
    r"|in particular\b|notably\b|even\b|both\b)"
)


@cache
def _continues() -> re.Pattern[str]:
    return re.compile(_CONTINUING, re.IGNORECASE)


@cache
def _not_crediting() -> re.Pattern[str]:
    either = "|".join(f"(?:{p})" for p in (_UNANSWERED, _SUGGESTION, _WISH, _DOUBT))
    return re.compile(either, re.IGNORECASE)


@cache
def _about() -> re.Pattern[str]:
    return re.compile(_ABOUT_THE_QUESTION, re.IGNORECASE)


@cache
def _interview() -> re.Pattern[str]:
    return re.compile(_ABOUT_THE_INTERVIEW, re.IGNORECASE)


@cache
def _unanswered() -> re.Pattern[str]:
    return re.compile(_UNANSWERED, re.IGNORECASE)


# a question to the others after a statement: `…讲得很透，你怎么看？`, `…, thoughts?`
_TAG = (
    r"[，,]\s*(?:<@\w+>\s*)?(?:你们?|大家|各位)?(?:怎么看|觉得呢|觉得怎么样|意见呢|同意吗"
    r"|有不同意见吗)|[，,]\s*(?:对吧|是吧|对不对|是不是)"
    r"|[,，]\s*(?:what do you (?:all )?think|thoughts|agree|any thoughts|wdyt|right|no"
    r"|objections)\s*[?？]*\s*$"
)


@cache
def _tag() -> re.Pattern[str]:
    return re.compile(_TAG, re.IGNORECASE)


def _untagged(text: str) -> str:
    """`text` without a question to the others that follows a statement."""
    m = _tag().search(text)
    return text[: m.start()] if m else text


def is_question(sentence: str) -> bool:
    """The sentence asks (`他真的理解All-Reduce吗？`, `Did anyone ask Q2?`); a statement
    followed by a question to the others (`…讲得很透，你怎么看？`) does not."""
    text = _untagged(_fold(sentence)).rstrip(" \t\r\n。.…")
    return text.endswith(("?", "？")) or text.endswith(("吗", "么"))


@dataclass(frozen=True)
class Clause:
    """A clause of a sentence, in one script: what cut it from the one before (`，`,
    `：`, "" before a contrast), and whether it may credit the candidate (it says nothing
    unanswered or weak, suggests, wishes or doubts nothing, does not describe the
    question)."""

    text: str
    after: str
    crediting: bool


def clauses(sentence: str) -> list[str]:
    """The clauses of `sentence`, in one script, in order (their case kept: a name is
    written capitalised)."""
    return [c.text for c in _clauses(sentence)]


def _clauses(sentence: str) -> list[Clause]:
    pieces = _cut().split(_fold(sentence))
    found: list[Clause] = []
    for i in range(0, len(pieces), 2):
        text = pieces[i].strip() if pieces[i] else ""
        if text:
            after = (pieces[i - 1] or "").strip() if i else ""
            crediting = not _not_crediting().search(text) and not _about().search(text)
            found.append(Clause(text, after, crediting))
    return found


def says_unanswered(text: str) -> bool:
    """`text` says something was not answered, not known or answered poorly."""
    return bool(_unanswered().search(_fold(text)))


def sentence_clauses(sentence: str) -> list[Clause]:
    """The clauses of `sentence`, each marked whether it may credit; none when the
    sentence asks, or speaks of the interview itself."""
    if is_question(sentence) or _interview().search(_fold(sentence).strip()):
        return []
    return _clauses(_untagged(_fold(sentence)))


def crediting_clauses(sentence: str) -> list[str]:
    """The clauses of `sentence` that may credit the candidate: each clause that says
    nothing unanswered or weak, suggests nothing, wishes nothing, doubts nothing and does
    not describe the question; none when the sentence asks, or speaks of the interview
    itself."""
    return [c.text for c in sentence_clauses(sentence) if c.crediting]


_CONCEDING = r"^(?:虽然|虽说|虽|尽管|即使|although\b|though\b|even though\b|while\b)"


@cache
def _concedes() -> re.Pattern[str]:
    return re.compile(_CONCEDING, re.IGNORECASE)


def concedes(clause: Clause) -> bool:
    """`clause` grants something before the main clause (`虽然没答全`, `although …`):
    what comes before it still goes with what comes after."""
    return bool(_concedes().match(clause.text))


def continues(clause: Clause) -> bool:
    """`clause` goes on with what the clause before it said (`讲得最清楚的，是All-Reduce`,
    `他能讲清楚两点：…`, `…, especially on All-Reduce`)."""
    return clause.after in (":", "：") or bool(_continues().match(clause.text))
