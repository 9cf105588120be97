"""Who was there: the candidate's name and the interviewers (`李四、王五`, `张三和李四`,
`張三與李四`), and values that only say there is none (`不详`, `N/A`, `不詳`), in either
script; names are kept as written. Pure functions, used by the parser.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from ..scripts import fold, written
from .answers import compact

NAME_MAX = 30
# A name has no digits and no clause punctuation: `候选人：男，28岁，本科` describes one.
_not_in_names = cache(lambda: re.compile(r"[0-9，,。．；;：:！!？?、/@#<>\[\]{}|\\\"“”]"))
# a count of people, no name: `两位`, `三名`, `两个人`, `几位面试官`
_count_re = cache(
    lambda: re.compile(r"[一二两三四五六七八九十几多数]{1,3}(?:位|个|名)?(?:人|面试官)?")
)
# `张三 和 李四`, `张三 与 李四`, `Alice and Bob`; and `,` `，` `、` `/` `;` `；` between names.
_AND = ("和", "与")
_and = cache(lambda: "|".join(map(written, _AND)))
_name_separators = cache(
    # (a separator starts where white space starts, its runs possessive: splitting a
    # value of thousands of spaces is one pass, not a try at each of them)
    lambda: re.compile(
        rf"(?:(?<!\s)\s*+[、，,/;；]|[、，,/;；]|(?<!\s)\s++(?:{_and()}|and|&)\s)\s*+",
        re.IGNORECASE,
    )
)
_leading_and = cache(lambda: re.compile(rf"^(?:and|{_and()}|&)\s+", re.IGNORECASE))
_cjk_name_re = cache(lambda: re.compile(r"[\u3400-\u9fff]{2,4}"))
_SENTENCE_ENDS = ("。", ".", "！", "!", "？", "?", "…")


def looks_like_name(value: str) -> bool:
    """Can `value` be a person's name (`张三`, `欧阳娜娜`, `Zhang San`, `王五（HR）`)? Not a
    description (`男，28岁`), not a count of people (`两位`, `三名`), not a sentence, not
    longer than NAME_MAX characters or five words."""
    value = unicodedata.normalize("NFKC", value).strip()
    return (
        0 < len(value) <= NAME_MAX
        and len(value.split()) <= 5
        and _not_in_names().search(value) is None
        and not value.endswith(_SENTENCE_ENDS)
        and not (_count_re().fullmatch(value) and value[-1] in "位个名人官")
    )


def _split_he(name: str) -> list[str]:
    """`张三和李四`, `張三與李四` -> [张三, 李四]; but a name with 和 in it stays whole (`和平`,
    `王和平`): split only where every piece is a name of two to four Chinese characters."""
    folded, pieces, start = fold(name), [], 0
    for at, ch in enumerate(folded):  # folded: the same length, cut where the name is
        if ch in _AND:
            pieces.append(name[start:at])
            start = at + 1
    pieces.append(name[start:])
    if len(pieces) > 1 and all(_cjk_name_re().fullmatch(p) for p in pieces):
        return pieces
    return [name]


def split_names(value: str) -> list[str] | None:
    """The interviewers in `张三、李四`, `张三, 李四 and Bob`, `张三/李四`, `张三和李四`;
    None when one of them does not look like a name (the value is then text)."""
    names: list[str] = []
    for part in _name_separators().split(value.strip()):
        part = _leading_and().sub("", part.strip())
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
    kept = fold(compact(value))
    return kept in _NOBODY or kept.strip("/") in _NOBODY or not kept
