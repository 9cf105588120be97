"""Whether a sentence credits the candidate with an answer, a view or a skill, or says
that something was not answered (never a claim of an answer)."""

from __future__ import annotations

import re
from functools import cache

# crediting: he could say / showed / understands / explained … (zh and en)
_CREDIT = (
    r"能够|能|可以|会用|表达|指出|阐述|阐明|解释|说明|讲解|讲述|描述|分析|理解|认识|掌握|熟悉|熟练"
    r"|精通|分享|谈到|谈了|谈及|提到|提及|介绍|回答|答得|答出|清楚|清晰|见解|看法|观点|深入|深刻"
    r"|扎实|透彻|到位|全面|详细|充分|准确|展示|展现|体现|显示|表现出|证明|具备|具有|懂得|了解"
    r"|经验|造诣|思考|举例|举出|给出|提出|优秀|出色|不错|良好|较好|很好|有创意"
    r"|understand|understood|understanding|explain|explained|described|describe|discuss"
    r"|discussed|showed|shows|shown|demonstrat|knows|knowledge|familiar|grasp|insight"
    r"|expert|solid|strong|good|great|excellent|clear|covered|talked|shared|answered|gave"
    r"|able to|can |could "
)
# not answered: 问题2没有回答, 未作答, 跳过, 不会, did not answer (and 没有/未 before a credit)
_NOT = (
    r"没有回答|没回答|未回答|未作答|没有作答|未能回答|没能回答|无法回答|答不上|答不出|没答|未答"
    r"|跳过|不会|不知道|不了解|不清楚|不熟悉|不懂|空白|缺失|没有提到|没有谈|未提及|未涉及"
    r"|没有涉及|未能|没能|没有展示|没有体现|留空|放弃"
    r"|did not|didn't|does not|doesn't|not answer|unanswered|no answer|skipped|left blank"
    r"|could not|couldn't|unable|never answered|lacks|lacked|without answer"
)
# a sentence about the interview itself, not the candidate: `本文分享了……问题和回答`
_ABOUT_THE_INTERVIEW = (
    r"^(?:本文|本次面试|这次面试|此次面试|面试问题|问题涵盖|this (?:interview|article))"
)


@cache
def _credit() -> re.Pattern[str]:
    return re.compile(_CREDIT, re.IGNORECASE)


@cache
def _not() -> re.Pattern[str]:
    return re.compile(_NOT, re.IGNORECASE)


@cache
def _about() -> re.Pattern[str]:
    return re.compile(_ABOUT_THE_INTERVIEW, re.IGNORECASE)


def says_unanswered(sentence: str) -> bool:
    """The sentence says something was not answered (or not known): never a claim."""
    return bool(_not().search(sentence))


def credits(sentence: str) -> bool:
    """The sentence credits the candidate with an answer, a view or a skill."""
    text = sentence.strip()
    if says_unanswered(text) or _about().search(text):
        return False
    return bool(_credit().search(text))
