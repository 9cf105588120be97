"""Whether a sentence credits the candidate with an answer, a view or a skill, and in
which of its clauses (moods.py sets aside the clauses that say something was not
answered, suggest, wish, doubt or describe the question, and a sentence that asks)."""

from __future__ import annotations

import re
from functools import cache
from itertools import pairwise

from .moods import concedes, continues, sentence_clauses
from .moods import says_unanswered as _says_unanswered

# crediting: he could say / showed / understands / explained / knows it well … (zh, en)
_CREDIT = (
    # `能` alone, not the 能 of 功能, 性能, 可能, 能力
    r"能够|(?<![功性可智技本效潜才职体动])能(?!力|否|源|耗)|可以|会用|会做|很会|都会|表达|指出"
    r"|阐述|阐明|解释|说明|讲解|讲述|描述|分析|理解|认识"
    r"|掌握|熟|精通|分享|谈到|谈了|谈及|提到|提及|提出|介绍|回答|答得|答出|答对|答上|清楚|清晰"
    r"|明白|见解|见地|看法|观点|想法|心得|深入|深刻|扎实|透彻|透|到位|全面|详细|细致|细|充分"
    r"|准确|正确|完整|系统|周全|独到|展示|展现|体现|显示|表现出|证明|具备|具有|懂|了解|经验"
    r"|实战|造诣|思考|思路|逻辑|条理|举例|举了|举出|给出|说出|讲出|讲到|讲了|说了|优秀|出色"
    r"|不错|良好|较好|很好|挺好|非常好|特别好|相当好|比较好|(?<!最)好(?!像|几|多|在)|棒|漂亮|厉害"
    r"|专业|亮点|印象|满意|靠谱|没问题|有创意|创意|有深度|说服力|干货|把握|驾驭|吃透|拿手|擅长"
    r"|游刃有余|头头是道|信手拈来|如数家珍|了如指掌|对答如流|很强|较强|挺强|非常强|相当强|强项"
    r"|做过|用过|搞过|写过|负责过|参与过|实现过|部署过|设计过|调过|落地|丰富|成熟|精彩|惊艳"
    r"|亮眼|出彩|抢眼|点到|点出|点明|说到点子|切中|门儿清|门清|在行|内行|老练|有一套"
    r"|没有短板|无短板|没毛病|无可挑剔|挑不出毛病|没有短处|没有问题|没什么问题|没啥问题|问题不大|没话说|没的说|没得说|满分(?!\s*[0-9０-９一二三四五六七八九十])"
    r"|不含糊|不逊色|加分(?!项)|打动|有料|核心成员|核心角色|骨干|主力|主导|牵头|贡献很大|贡献大"
    r"|贡献突出|舒适区|拿捏|可圈可点|形象|生动|有理有据|章法|硬核|两把刷子|过硬|老手|行家|娴熟|得心应手|轻车熟路|驾轻就熟"
    # a manner said with a degree (`讲得很真实`): praise, unless the clause says it was weak
    r"|(?:讲|说|谈|聊|解释|分析|阐述|介绍|描述)得(?:很|非常|挺|比较|相当|特别|十分|蛮|超|真)"
    # the marks a Slack reply credits with (its codes are these by then, moods.py)
    r"|[\u2705\u2714\u2611\U0001F44D\U0001F4AF]"
    r"|understand|understood|explain|explanation|described|describe|description|discuss"
    r"|showed|shows|shown|demonstrat|\bknows?\b|\bknew\b|knowledge|familiar|grasp|insight"
    r"|expert|solid|strong|good|great|excellent|clear|covered|talked|shared|answer|gave"
    r"|able to|\bcan\b|\bcould\b|(?<!as )\bwell\b|\bdepth\b|\bdeep|thorough|detailed|impressi"
    r"|nailed|handled|master|fluent|confident|articulat|convincing|competent|proficient"
    r"|experience|hands-on|\bbuilt\b|worked on|implemented|designed|deployed|walked"
    r"|reasoned|\btake on\b|\bnice\b|\bbest\b|practical|\bsharp\b|\bsmart\b|\bsound\b"
    r"|thoughtful|\baccount of\b|comfortable|\bcorrect|\bright\b|highlight|worked with"
    r"|\bstandout\b|stood out|not bad|\bfine\b|\bdecent\b|\badequate|\breasonabl|\bled\b|\bowned\b|\bsolved\b|\bovercame\b|\btackled\b|\bresolved\b|\bchose\b"
    r"|\bpicked\b|\blaid out\b|\boutlined\b|\blisted\b|\bpresented\b|\bsensibl|\bclever|\b(?:has|have|had|'s|'ve) done\b"
)
# a credit word just after one of these is denied: `并不熟悉`, `谈不上熟悉`, `little depth`
_DENIED_ZH = (
    r"(?:不(?!仅|但|只|断|少|错|愧|凡|论|同|管|止|光|一样|含糊|逊色)"
    r"|没(?!问题|有问题|什么问题|啥问题|太大问题|毛病|想到|话说|的说|得说)|未(?!来)"
    r"|无(?!论|疑|比|可挑剔)|非(?!常|凡)"
    r"|谈不上|算不上|称不上|缺少|缺乏|欠缺|看不出|没看出)[^，,]{0,5}$"
)
_DENIED_EN = (
    r"\b(?:not(?!\s+(?:only|just|bad))|no(?!\s+(?:doubt|problem|issue))|never|little|barely"
    r"|hardly|lacks?|lacking|without|few|nor)\b"
    r"(?:\W+\w+){0,2}\W*$|n't(?:\W+\w+){0,2}\W*$"
)


@cache
def _credit() -> re.Pattern[str]:
    return re.compile(_CREDIT, re.IGNORECASE)


@cache
def _denied() -> re.Pattern[str]:
    return re.compile(f"(?:{_DENIED_ZH})|(?:{_DENIED_EN})", re.IGNORECASE)


def _affirms(clause: str) -> bool:
    """Some credit word of `clause` (in one script) is said, not denied."""
    return any(
        not _denied().search(clause[max(0, m.start() - 24) : m.start()])
        for m in _credit().finditer(clause)
    )


def says_unanswered(sentence: str) -> bool:
    """The sentence says something was not answered, not known, or answered poorly."""
    return _says_unanswered(sentence)


def crediting(sentence: str) -> str:
    """The part of `sentence` that credits the candidate (its crediting clauses, folded
    to one script), or "" when it credits no one."""
    found = sentence_clauses(sentence)
    # a heading's word (`All-Reduce knowledge: TBD`) yields to what its colon says, when
    # that says it was not answered, is to be asked, or is in doubt
    overruled = {
        i
        for i, (c, value) in enumerate(pairwise(found))
        if value.after in (":", "：") and not value.crediting
    }
    credited = [
        i for i, c in enumerate(found) if c.crediting and i not in overruled and _affirms(c.text)
    ]
    if not credited:
        return ""
    # the credit goes to what comes with it and before it, back to a clause that credits
    # no one (`All-Reduce — didn't get to it, otherwise strong`: not to All-Reduce);
    # after it, only to a clause that goes on with it (`讲得最清楚的，是All-Reduce`), not
    # to a new statement (`沟通不错，All-Reduce是这次的重点`)
    kept: set[int] = set()
    for i in credited:
        start = i
        while start > 0 and (found[start - 1].crediting or concedes(found[start - 1])):
            start -= 1
        kept.update(j for j in range(start, i + 1) if found[j].crediting)
    end = credited[-1]
    while end + 1 < len(found) and found[end + 1].crediting and continues(found[end + 1]):
        end += 1
        kept.add(end)
    return "，".join(found[i].text for i in sorted(kept))


def credits(sentence: str) -> bool:
    """The sentence credits the candidate with an answer, a view or a skill."""
    return bool(crediting(sentence))
