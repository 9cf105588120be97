"""What a transcript's values mean: years of experience as people write them
(`1年半`, `应届`, `3-5年`, `5+ years`), answers that are no answer (`无`, `跳过`,
`不知道`), the interview's date (`2026年11月28日 14:30`) and who was there (`李四、王五`).
Pure functions, used by the parser and by migrations that re-read old rows.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date

from ..models import UnansweredReason
from .numerals import CN_NUMERALS, chinese_to_int

# -- years -----------------------------------------------------------------------------------

MAX_YEARS = 80
_YEARS_NUM = rf"[0-9]{{1,6}}(?:\.[0-9]{{1,3}})?|[{CN_NUMERALS}]{{1,8}}|半"
_YEARS_RE = re.compile(
    r"^(?:工作|从业|工龄)?\s*"
    r"(?:约|大约|大概|近|将近|接近|超过|逾|满|共|已|有|累计|差不多|至少|"
    r"about|around|over|more\s+than|at\s+least|nearly|almost|approx\.?|~|≈|>=?|≥)?\s*"
    rf"(?P<a>{_YEARS_NUM})(?:余|几|多)?"  # 十余年, 十几年: the number itself
    rf"(?:\s*(?:-|~|–|—|到|至|to)\s*(?:{_YEARS_NUM}))?"  # a range: its lower bound
    r"\s*\+?\s*"
    r"(?:(?P<year>年半|个半?年|年|years?|yrs?|y(?![a-z]))(?:\s*\+)?"
    rf"(?:\s*[,，]?\s*(?:and\s*)?零?\s*(?P<m>[0-9]{{1,2}}|[{CN_NUMERALS}]{{1,3}})"
    r"\s*(?:个?月|months?|mos?(?![a-z])|m(?![a-z]))|(?P<half>半))?"
    r"|(?P<month>个月|月|months?|mos?(?![a-z])))?"
    r"(?P<after>.?)",
    re.IGNORECASE,
)
# `1年以内`, `3年以下`, `5年内`, `2年不到`: an upper bound, no number of years to show.
_AT_MOST_RE = re.compile(r"\s*(?:以内|以下|之内|内(?!部)|不到|不足|未满)")
# English number words, read as digits: `two years`, `Three years of experience`.
_ENGLISH_NUMBERS = {
    w: str(i)
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ]
    )
}
_ENGLISH_NUMBER_RE = re.compile(r"\b(" + "|".join(_ENGLISH_NUMBERS) + r")\b")
# "Less than N years" has no lower bound worth showing: unknown, the text says the rest.
_LESS_THAN_RE = re.compile(r"^(?:不到|不足|少于|低于|未满|less\s+than|under|<)", re.IGNORECASE)
_ZERO_YEARS = (
    "应届",
    "在校",
    "在读",
    "实习生",
    "无经验",
    "无工作经验",
    "没有经验",
    "没有工作经验",
    "零经验",
    "刚毕业",
    "fresh graduate",
    "new grad",
    "no experience",
    "student",
)


def _years_number(token: str) -> float | None:
    if token == "半":
        return 0.5
    if token[0].isdigit():
        return float(token)
    value = chinese_to_int(token)
    return float(value) if value is not None else None


def parse_years(text: str) -> float | None:
    """Years of experience as people write them, to one decimal; None when unknown.

    `3年` -> 3, `五年` -> 5, `1年半` -> 1.5, `半年` -> 0.5, `3年6个月` -> 3.5,
    `18个月` -> 1.5, `3-5年` -> 3 (the lower bound), `十年以上` / `5+ years` -> the
    number, `应届` / `应届生` / `在校` -> 0, `不详` / `不到1年` -> None."""
    norm = unicodedata.normalize("NFKC", text).strip().lower()
    if not norm or _LESS_THAN_RE.match(norm):
        return None
    norm = _ENGLISH_NUMBER_RE.sub(lambda w: _ENGLISH_NUMBERS[w[1]], norm)
    m = _YEARS_RE.match(norm)
    value: float | None = None
    if m and _AT_MOST_RE.match(norm, m.start("after")):
        return None
    if m and not (m["after"] and m["after"].isalnum() and not m["year"] and not m["month"]):
        # (a bare number followed by a word, as in `2024届`, is no number of years)
        value = _years_number(m["a"])
        if value is not None:
            if m["year"] in ("年半", "个半年") or m["half"]:
                value += 0.5
            if m["m"]:
                months = _years_number(m["m"])
                value = value + months / 12 if months is not None and months < 12 else None
            if value is not None and m["month"]:
                value /= 12
    if value is None:
        compact = " ".join(norm.split())
        return 0.0 if any(word in compact for word in _ZERO_YEARS) else None
    value = round(value, 1)
    return value if 0 <= value <= MAX_YEARS else None


# -- answers that are no answer -------------------------------------------------------------

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
_EMPTY_RE = re.compile(
    rf"^{_TIME}?(?:候选人|面试者|他|她)?(?:没有|没|未|并未)(?:作答|回答|答|作回答)(?:了)?{_TIME}?$"
    r"|^(?:the)?(?:candidate)?(?:didnot|didnt|not|never)(?:answer|answered|respond|responded)$"
    r"|^(?:空白|noresponse)$"
)
_SKIPPED_RE = re.compile(
    rf"^{_TIME}?(?:候选人|面试者|他|她)?(?:此题|本题|该题)?"
    r"(?:跳过|略过|略|未问|没问|没有问|未提问)(?:了)?(?:此题|本题|该题)?"
    rf"{_TIME}?$"
    rf"|^(?:skip|skipped|pass|passed|notasked){_TIME}?$"
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
_DONT_KNOW_RE = re.compile(
    r"^(?:嗯|呃|额|唔)*(?:候选人|面试者|被面试者|被面试人|应聘者|他|她|我)?"
    r"(?:表示|说|回答|称|坦言|直言|答)?"
    r"(?:对此|对这个|这个问题|这个|这块|这方面|这题|对)?(?:我)?"
    rf"{_DONT_KNOW_CORE}+$"
    r"|^(?:sorry)?(?:i|candidate|thecandidate|they|he|she)?(?:really)?"
    r"(?:do|does|did)?(?:nt|not)(?:really)?(?:know|remember|recall)(?:it|this|that)?$"
    r"|^(?:idk|noidea|ihavenoidea|notsure|imnotsure|iamnotsure|noclue|cannotanswer|"
    r"cantanswer|couldnotanswer|couldntanswer|unabletoanswer)$"
)


def _compact(answer: str) -> str:
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
    kept = _compact(answer)
    if kept in _EMPTY or kept.strip("/") in _EMPTY or _EMPTY_RE.match(kept):
        return "empty"
    if kept in _SKIPPED or _SKIPPED_RE.match(kept):
        return "skipped"
    if _DONT_KNOW_RE.match(kept):
        return "dont_know"
    return None


def is_placeholder(answer: str) -> bool:
    """True for an empty answer or one that only says there is none (无, N/A, 跳过…)."""
    return unanswered_reason(answer) in ("empty", "skipped")


# -- when the interview was ------------------------------------------------------------------

MONTHS = {
    # English month names and their abbreviations -> the month's number
    m: i
    for i, names in enumerate(
        [
            ("jan", "january"),
            ("feb", "february"),
            ("mar", "march"),
            ("apr", "april"),
            ("may",),
            ("jun", "june"),
            ("jul", "july"),
            ("aug", "august"),
            ("sep", "sept", "september"),
            ("oct", "october"),
            ("nov", "november"),
            ("dec", "december"),
        ],
        start=1,
    )
    for m in names
}
_MONTH_NAME = "|".join(sorted(MONTHS, key=len, reverse=True))
# A four-digit year always: `26-11-28` or `11/28/2026` could be read more than one way.
_DATE_RES = (
    re.compile(
        r"(?P<y>[0-9]{4})\s*(?P<sep>[-/.])\s*(?P<m>[0-9]{1,2})\s*(?P=sep)\s*(?P<d>[0-9]{1,2})"
    ),
    re.compile(r"(?P<y>[0-9]{4})\s*年\s*(?P<m>[0-9]{1,2})\s*月\s*(?P<d>[0-9]{1,2})\s*[日号]?"),
    re.compile(
        rf"(?P<mon>{_MONTH_NAME})\.?\s*(?P<d>[0-9]{{1,2}})(?:st|nd|rd|th)?\s*,?\s*(?P<y>[0-9]{{4}})"
    ),
    re.compile(
        rf"(?P<d>[0-9]{{1,2}})(?:st|nd|rd|th)?\s+(?P<mon>{_MONTH_NAME})\.?\s*,?\s*(?P<y>[0-9]{{4}})"
    ),
)
_WEEKDAYS = {
    **{
        f"{prefix}{day}": i
        for prefix in ("周", "星期", "礼拜")
        for i, day in enumerate("一二三四五六")
    },
    **{f"{prefix}{day}": 6 for prefix in ("周", "星期", "礼拜") for day in "日天"},
    **{
        name: i
        for i, names in enumerate(
            [
                ("mon", "monday"),
                ("tue", "tues", "tuesday"),
                ("wed", "wednesday"),
                ("thu", "thur", "thurs", "thursday"),
                ("fri", "friday"),
                ("sat", "saturday"),
                ("sun", "sunday"),
            ]
        )
        for name in names
    },
}
_WEEKDAY_RE = re.compile(
    r"[(（]?\s*(?P<w>"
    + "|".join(sorted(map(re.escape, _WEEKDAYS), key=len, reverse=True))
    + r")\.?\s*[)）]?(?![a-z])"
)
_PERIOD = r"上午|早上|早晨|凌晨|中午|下午|晚上|傍晚|am|a\.m\.|pm|p\.m\."
_TIME_RE = re.compile(
    rf"(?:(?P<p1>{_PERIOD})\s*)?"
    r"(?:(?P<h>[0-9]{1,2})\s*:\s*(?P<mi>[0-9]{2})(?:\s*:\s*(?P<s>[0-9]{2}))?"
    r"|(?P<hc>[0-9]{1,2})\s*[点时](?:\s*(?P<mic>[0-9]{1,2})\s*分?|\s*(?P<half>半))?)"
    rf"(?:\s*(?P<p2>{_PERIOD}))?"
)
# `14:00-15:00`, `14:00 至 15:00`: the interview's start is its time.
_UNTIL_RE = re.compile(r"\s*(?:-|–|—|~|～|至|到|to)\s*")
_MORNING = ("上午", "早上", "早晨", "am", "a.m.")
_EVENING = ("晚上", "傍晚")


def _clock(m: re.Match[str]) -> str | None:
    """A time of day as `HH:MM` (`HH:MM:SS` when seconds are given); None when it is no
    time (25:00, 14:75), when its half of the day contradicts it (上午 15 点), or when
    it could be noon or midnight (晚上12点)."""
    hour = int(m["h"] or m["hc"])
    minute = int(m["mi"] or m["mic"] or (30 if m["half"] else 0))
    second = int(m["s"]) if m["s"] else None
    if m["p1"] and m["p2"]:
        return None
    period = (m["p1"] or m["p2"] or "").lower()
    if period and hour == 0:
        return None  # `下午0点`
    if period and hour > 12:  # `下午14:30`: said twice, the same
        hour = hour if period not in (*_MORNING, "凌晨", "中午") else -1
    elif period in ("am", "a.m."):
        hour = 0 if hour == 12 else hour
    elif period in ("pm", "p.m."):
        hour = hour if hour == 12 else hour + 12
    elif period == "凌晨":
        hour = 0 if hour == 12 else hour if hour <= 6 else -1
    elif period in _MORNING:
        hour = hour if hour < 12 else -1
    elif period == "中午":
        hour = hour if hour in (11, 12) else hour + 12 if 1 <= hour <= 2 else -1
    elif period:  # 下午, 晚上
        hour = -1 if hour == 12 and period in _EVENING else hour if hour == 12 else hour + 12
    if not (0 <= hour <= 23 and 0 <= minute <= 59 and (second is None or 0 <= second <= 59)):
        return None
    return f"{hour:02d}:{minute:02d}" + (f":{second:02d}" if second is not None else "")


def parse_interview_date(text: str) -> str | None:
    """When an interview was, as ISO 8601: `2026-11-28`, or `2026-11-28T14:30` when a
    time is given. Read, never guessed: None for anything that is not a whole date of
    the calendar with a four-digit year (`下周二`, `11月28日`, `26-11-28`, `2026-02-30`,
    `25:00`), and None when a weekday given alongside does not fall on the date.

    `2026-11-28`, `2026/11/28`, `2026.11.28`, `2026年11月28日`, `Nov 28, 2026`, each
    with or without a time (`14:30`, `14:30:00`, `14点30分`, `下午2点`, `2:30 pm`), a
    weekday (`（周六）`, `Sat`) or the end of a time range (`14:00-15:00`)."""
    norm = " ".join(unicodedata.normalize("NFKC", text).lower().split())
    if not norm or len(norm) > 80:
        return None
    for date_re in _DATE_RES:
        dm = date_re.match(norm)
        if dm is not None:
            break
    else:
        return None
    month = MONTHS[dm["mon"]] if "mon" in dm.groupdict() and dm["mon"] else int(dm["m"])
    try:
        day = date(int(dm["y"]), month, int(dm["d"]))
    except ValueError:
        return None  # 2026-02-30, month 13
    if not 1900 <= day.year <= 2100:
        return None
    rest, clock, weekday = norm[dm.end() :], None, None
    if rest[:1] == "t" and rest[1:2].isdigit():
        rest = rest[1:]  # `2026-11-28T14:30`
    while rest.strip(" ,，"):
        rest = rest.lstrip(" ,，")
        wm = _WEEKDAY_RE.match(rest)
        if wm is not None and weekday is None:
            weekday = _WEEKDAYS[wm["w"]]
            rest = rest[wm.end() :]
            continue
        tm = _TIME_RE.match(rest)
        if tm is not None and clock is None:
            clock = _clock(tm)
            if clock is None:
                return None
            rest = rest[tm.end() :]
            until = _UNTIL_RE.match(rest)
            if until is not None:
                end = _TIME_RE.match(rest, until.end())
                if end is None or _clock(end) is None:
                    return None
                rest = rest[end.end() :]
            continue
        return None  # something else follows the date: not read
    if weekday is not None and weekday != day.weekday():
        return None
    return day.isoformat() + (f"T{clock}" if clock else "")


# -- who: names of the candidate and the interviewers ---------------------------------------

NAME_MAX = 30
# A name has no digits and no clause punctuation: `候选人：男，28岁，本科` describes one.
_NOT_IN_NAMES = re.compile(r"[0-9，,。．；;：:！!？?、/@#<>\[\]{}|\\\"“”]")
# `张三 和 李四`, `Alice and Bob`; and `,` `，` `、` `/` `;` `；` between names.
_NAME_SEPARATORS = re.compile(r"\s*(?:[、，,/;；]|\s(?:和|and|&)\s)\s*", re.IGNORECASE)
_CJK_NAME_RE = re.compile(r"[\u3400-\u9fff]{2,4}")
_SENTENCE_ENDS = ("。", ".", "！", "!", "？", "?", "…")


def looks_like_name(value: str) -> bool:
    """Can `value` be a person's name (`张三`, `欧阳娜娜`, `Zhang San`, `王五（HR）`)? Not a
    description (`男，28岁`), not a sentence, not longer than NAME_MAX characters or five
    words."""
    value = unicodedata.normalize("NFKC", value).strip()
    return (
        0 < len(value) <= NAME_MAX
        and len(value.split()) <= 5
        and _NOT_IN_NAMES.search(value) is None
        and not value.endswith(_SENTENCE_ENDS)
    )


def _split_he(name: str) -> list[str]:
    """`张三和李四` -> [张三, 李四]; but a name with 和 in it stays whole (`和平`, `王和平`):
    split only where every piece is a name of two to four Chinese characters."""
    pieces = name.split("和")
    if len(pieces) > 1 and all(_CJK_NAME_RE.fullmatch(p) for p in pieces):
        return pieces
    return [name]


def split_names(value: str) -> list[str] | None:
    """The interviewers in `张三、李四`, `张三, 李四 and Bob`, `张三/李四`, `张三和李四`;
    None when one of them does not look like a name (the value is then text)."""
    names: list[str] = []
    for part in _NAME_SEPARATORS.split(value.strip()):
        part = re.sub(r"^(?:and|和|&)\s+", "", part.strip(), flags=re.IGNORECASE)
        if not part:
            continue
        for name in _split_he(part):
            if not looks_like_name(name):
                return None
            if name not in names:
                names.append(name)
    return names


_NOBODY = {
    "无",
    "暂无",
    "不详",
    "未知",
    "待定",
    "待补充",
    "待填写",
    "na",
    "n/a",
    "none",
    "unknown",
    "tbd",
}


def says_nothing(value: str) -> bool:
    """A value that only says there is none: empty, `无`, `不详`, `-`, `N/A`."""
    kept = _compact(value)
    return kept in _NOBODY or kept.strip("/") in _NOBODY or not kept
