"""The questions a sentence names outright: `问题2`, `第二题`, `Q2`, `Question 2`,
`问题5至问题10`, `问题2和3`, `问题2、3`, `Q5-Q10`, and in English words: `the second
question`, `question two`, `question #2`; and the last one by its place (`最后一题`,
`the last question`)."""

from __future__ import annotations

import re
from functools import cache

from store.transcripts.numerals import CN_NUMERALS, parse_question_number

_N = rf"[0-9０-９]{{1,4}}|[{CN_NUMERALS}]{{1,4}}"
_SPAN = r"\s*(?:至|到|~|～|-|–|—|to|through)\s*"
_AND = r"\s*(?:和|与|及|、|,|，|/|and|&)\s*"


@cache
def _pattern() -> re.Pattern[str]:
    # numbers a 题 closes: `第2题`, `第二、三题`, and two or more without 第 (`2、3题`; one
    # alone is a count: `3题都答对了`)
    listed = rf"(?:{_N})(?:(?:{_SPAN}|{_AND})(?:{_N}))*\s*(?:题|个问题|道题|问)"
    several = rf"(?:{_N})(?:{_AND}(?:{_N}))+\s*(?:题|个问题|道题)"
    one = (
        rf"(?:问题|题目|第\s*(?={listed})|(?<![0-9A-Za-z{CN_NUMERALS}第])(?={several})"
        rf"|(?<![A-Za-z])Q(?:uestions?)?\.?\s*#?|(?<![A-Za-z])questions?\s+#?)"
    )
    tail = r"(?:题|个问题|问)?"
    more = rf"(?:(?:{_SPAN}|{_AND})(?:{one})?(?:{_N}){tail})*"
    return re.compile(rf"(?:{one})(?:{_N}){tail}{more}", re.IGNORECASE)


_NUMBER = re.compile(rf"{_N}")

_CARDINALS: tuple[str, ...] = ("one", "two", "three", "four", "five")
_CARDINALS += ("six", "seven", "eight", "nine", "ten")
_ORDINALS: tuple[str, ...] = ("first", "second", "third", "fourth", "fifth")
_ORDINALS += ("sixth", "seventh", "eighth", "ninth", "tenth")


@cache
def _english() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """`question two` and `the second question`."""
    return (
        re.compile(rf"\b(questions?|q)\s+({'|'.join(_CARDINALS)})\b", re.IGNORECASE),
        re.compile(rf"\b({'|'.join(_ORDINALS)})\s+question\b", re.IGNORECASE),
    )


def _in_digits(sentence: str) -> str:
    """`sentence` with English number words of a question as digits (`question 2`)."""
    cardinal, ordinal = _english()
    text = cardinal.sub(
        lambda m: f"{m.group(1)} {_CARDINALS.index(m.group(2).lower()) + 1}", sentence
    )
    return ordinal.sub(lambda m: f"question {_ORDINALS.index(m.group(1).lower()) + 1}", text)


_JOIN = re.compile(rf"(?:{_N})({_SPAN}|{_AND})", re.IGNORECASE)


@cache
def _last() -> re.Pattern[str]:
    return re.compile(
        r"最后(?:一|1)?(?:个|道|那道|这道|那个|这个)?(?:问题|题)"
        r"|\b(?:the )?(?:last|final) question\b",
        re.IGNORECASE,
    )


def references(sentence: str, last: int | None = None) -> list[int]:
    """The question numbers `sentence` names, ranges spread (`问题5至问题10`: 5…10), in
    order, each once; `last`: the number of the transcript's last question, which
    `最后一题` names."""
    found: list[int] = []
    if last is not None and _last().search(sentence):
        found.append(last)
    for m in _pattern().finditer(_in_digits(sentence)):
        text = m.group(0)
        numbers = [parse_question_number(n.group(0)) for n in _NUMBER.finditer(text)]
        joins = [j.group(1) for j in _JOIN.finditer(text)]
        previous: int | None = None
        for i, n in enumerate(numbers):
            if n is None:
                continue
            link = joins[i - 1] if 0 < i <= len(joins) else ""
            if previous is not None and re.fullmatch(_SPAN, link, re.IGNORECASE):
                if 0 < n - previous <= 100:
                    found.extend(range(previous + 1, n + 1))
            else:
                found.append(n)
            previous = n
    return list(dict.fromkeys(found))


def naming(sentence: str) -> list[str]:
    """The references as written (`问题5至问题10`, `最后一题`): the words that decided."""
    text = _in_digits(sentence)
    said = [m.group(0) for m in _last().finditer(text)]
    return [w.strip() for w in [*said, *(m.group(0) for m in _pattern().finditer(text))]]
