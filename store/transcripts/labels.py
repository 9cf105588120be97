"""The transcript format's labels: every name people give each label, and the patterns
that find them at the start of a line (`岗位：`, `Position:`, `问题（一）`, `Q1.`…).

Pure data and regular expressions, used by `parser.py`; nothing here reads a file. Each
expression is compiled on its first use: the bot answering Slack parses no file.

Every Chinese word here is written in simplified characters and matched in either script:
each of its characters is a class of its simplified and traditional forms
(`store/scripts.py`, from OpenCC), so `崗位：` is `岗位：`; what a label gives is kept as
written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Literal

from ..scripts import letters, written
from .numerals import CN_NUMERALS

# Spaces that people (and word processors) put around labels.
WS = r"[ \t\u3000\u00a0\u2000-\u200b\u202f\u205f\ufeff]"
COLON = r"[:：﹕∶]"
control_re = cache(lambda: re.compile(r"[\x00-\x08\x0b\x0d-\x1f]"))

Kind = Literal["position", "years", "intro", "goal", "answer", "verdict", "summary"]
HEADER_KINDS: tuple[Kind, ...] = ("position", "years", "intro")
# Who and when, in the header only: after the first question `面试官：…` / `候选人：…`
# are the dialogue of a question and its answer, never these.
# `ref`: the candidate's explicit key (issue 38): an applicant's number, an e-mail address.
IdentityKind = Literal["name", "interviewers", "date", "round", "ref"]
IDENTITY_KINDS: tuple[IdentityKind, ...] = ("name", "interviewers", "date", "round", "ref")
HeaderKind = Kind | IdentityKind


def spaced(word: str) -> str:
    """`岗位` -> a pattern that also accepts `岗 位`, and `崗位` (either script)."""
    return written(word, f"{WS}*")


# Each label with the other names people give it; the first is the format's own.
FIELD_LABELS: dict[Kind, tuple[str, ...]] = {
    "position": (
        "岗位",
        "应聘岗位",
        "面试岗位",
        "目标岗位",
        "岗位名称",
        "应聘职位",
        "面试职位",
        "职位",
        "职位名称",
    ),
    "years": ("从业年限", "工作年限", "工作经验", "从业经验", "工龄", "经验", "年限"),
    "intro": ("简介", "个人简介", "个人介绍", "候选人简介", "候选人介绍"),
    "goal": ("考察目标", "考察点", "考察要点", "考察重点", "考察内容", "目标", "考察"),
    "answer": (
        "回答",
        "候选人回答",
        "面试者回答",
        "候选人作答",
        "作答",
        "答",
        "答案",
        "候选人",  # `面试官：…` / `候选人：…`: what the candidate said is the answer
        "面试者",
    ),
    "verdict": (
        "点评",
        "面试点评",
        "综合点评",
        "总体点评",
        "总评",
        "面试官点评",
        "面试官评价",
        "面试评价",
        "综合评价",
        "总体评价",
        "评语",
        "评价",
        "面试结论",
        "面试意见",
        "面试官意见",
        "综合意见",
    ),
    "summary": ("摘要", "总结", "概述", "概要", "小结", "面试总结"),
}
# English labels for bilingual teams, matched case-insensitively, whole words.
ENGLISH_LABELS: dict[Kind, tuple[str, ...]] = {
    "position": ("position", "role", "job title", "applied position", "position applied for"),
    "years": ("years of experience", "work experience", "experience", "years", "yoe"),
    "intro": ("profile", "candidate profile", "bio", "background"),
    "goal": ("goal", "objective", "purpose"),
    # `Q1: …` then `A: …`; `### Question 3` then `**Interviewee:** …` (after the first
    # question only: before it `Candidate:` is who, as 候选人 is)
    "answer": ("answer", "response", "candidate answer", "a", "interviewee", "candidate"),
    "verdict": (
        "verdict",
        "feedback",
        "interviewer feedback",
        "interviewer comments",
        "evaluation",
        "overall evaluation",
    ),
    "summary": ("summary", "overview"),
}


IDENTITY_LABELS: dict[IdentityKind, tuple[str, ...]] = {
    "name": ("姓名", "候选人", "候选人姓名", "应聘者"),
    "interviewers": ("面试官", "面试人"),
    "date": ("面试日期", "面试时间", "日期"),
    "round": ("轮次", "面试轮次"),
    "ref": ("候选人编号", "应聘编号", "简历编号", "邮箱", "电子邮箱"),
}
ENGLISH_IDENTITY_LABELS: dict[IdentityKind, tuple[str, ...]] = {
    "name": ("name", "candidate", "candidate name"),
    "interviewers": ("interviewer", "interviewers", "interviewer(s)"),
    "date": ("date", "interview date"),
    "round": ("round", "interview round"),
    "ref": ("candidate id", "email", "e-mail"),
}
_CHINESE_WORDS: dict[str, tuple[str, ...]] = dict([*FIELD_LABELS.items(), *IDENTITY_LABELS.items()])
_ENGLISH_WORDS: dict[str, tuple[str, ...]] = dict(
    [*ENGLISH_LABELS.items(), *ENGLISH_IDENTITY_LABELS.items()]
)


def alternatives(kind: HeaderKind) -> str:
    chinese = [spaced(w) for w in _CHINESE_WORDS[kind]]
    english = [r"\s+".join(map(re.escape, w.split())) + r"(?![a-z])" for w in _ENGLISH_WORDS[kind]]
    return "|".join(sorted(chinese + english, key=len, reverse=True))


# Markdown around a label is layout: `## 问题1`, `> 岗位：`, `- 回答：`, `- **岗位：**`.
# (Runs of spaces possessive, `*+`, and `_CLOSE`'s only before a mark: never backtracked.)
_PREFIX = rf"^{WS}*+(?:[#>*\-•]++(?:{WS}++[#>*\-•]++){{0,3}}{WS}*+|[【\[]{WS}*+)?"
_CLOSE = rf"(?:{WS}*+[*】\]]++)?"
_TAIL = rf"{_CLOSE}{WS}*+{COLON}{WS}*+(?:\*\*{WS}*+)?(?P<rest>.*)$"  # `：` and the value


@cache
def _field_alternatives() -> str:
    return "(?:" + "|".join(f"(?P<{kind}>{alternatives(kind)})" for kind in FIELD_LABELS) + ")"


_field_re = cache(lambda: re.compile(_PREFIX + _field_alternatives() + _TAIL, re.IGNORECASE))
# Labels with no colon, where the layout itself marks them: in brackets (`【岗位】前端`,
# `[点评] 通过`), in bold before the value (`**岗位** 前端`), or alone on their line as a
# heading or a bare word (`## 点评`, `**简介**`, `回答`), the value on the next lines.
_field_no_colon_res = cache(
    lambda: (
        re.compile(
            rf"^{WS}*【{WS}*{_field_alternatives()}{WS}*】{WS}*(?P<rest>.*)$", re.IGNORECASE
        ),
        re.compile(
            rf"^{WS}*\[{WS}*{_field_alternatives()}{WS}*\]{WS}*(?P<rest>.*)$", re.IGNORECASE
        ),
        re.compile(
            rf"^{WS}*\*\*{WS}*{_field_alternatives()}{WS}*\*\*(?:{WS}+(?P<rest>.*))?$",
            re.IGNORECASE,
        ),
        re.compile(rf"^{WS}*#+{WS}*{_field_alternatives()}{WS}*(?P<rest>)$", re.IGNORECASE),
        # a two-column table row: `| 岗位 | 数据工程师 |`
        re.compile(
            rf"^{WS}*\|{WS}*(?:\*\*)?{_field_alternatives()}(?:\*\*)?{WS}*\|{WS}*"
            rf"(?P<rest>[^|]*?){WS}*\|?{WS}*$",
            re.IGNORECASE,
        ),
        # a bare word only in Chinese: a line `Feedback` or `Background` is as likely a title
        re.compile(
            rf"^{WS}*(?:"
            + "|".join(
                f"(?P<{kind}>{'|'.join(spaced(w) for w in sorted(words, key=len, reverse=True))})"
                for kind, words in FIELD_LABELS.items()
            )
            + rf"){WS}*(?P<rest>)$"
        ),
    )
)


@cache
def _identity_alternatives() -> str:
    return "(?:" + "|".join(f"(?P<{kind}>{alternatives(kind)})" for kind in IDENTITY_KINDS) + ")"


# The same layouts as the other labels, but never a bare word on its own line (`日期`,
# `候选人` alone are as likely a title or the dialogue's speaker).
_identity_res = cache(
    lambda: (
        re.compile(_PREFIX + _identity_alternatives() + _TAIL, re.IGNORECASE),
        re.compile(
            rf"^{WS}*【{WS}*{_identity_alternatives()}{WS}*】{WS}*(?P<rest>.*)$", re.IGNORECASE
        ),
        re.compile(
            rf"^{WS}*\[{WS}*{_identity_alternatives()}{WS}*\]{WS}*(?P<rest>.*)$", re.IGNORECASE
        ),
        re.compile(
            rf"^{WS}*\*\*{WS}*{_identity_alternatives()}{WS}*\*\*(?:{WS}+(?P<rest>.*))?$",
            re.IGNORECASE,
        ),
        re.compile(rf"^{WS}*#+{WS}*{_identity_alternatives()}{WS}*(?P<rest>)$", re.IGNORECASE),
        re.compile(
            rf"^{WS}*\|{WS}*(?:\*\*)?{_identity_alternatives()}(?:\*\*)?{WS}*\|{WS}*"
            rf"(?P<rest>[^|]*?){WS}*\|?{WS}*$",
            re.IGNORECASE,
        ),
    )
)


def match_identity(line: str) -> re.Match[str] | None:
    """A who-or-when label at the start of `line`: `姓名：张三`, `【面试官】李四`,
    `| 日期 | 2026-11-28 |`, `**Round:** 2`."""
    for regex in _identity_res():
        m = regex.match(line)
        if m is not None:
            return m
    return None


def identity_kind(m: re.Match[str]) -> IdentityKind:
    return next(k for k in IDENTITY_KINDS if m.group(k) is not None)


# A markdown table's rule line, `|---|:---:|`: layout, not text, around the header.
table_rule_re = cache(
    lambda: re.compile(r"^\s*+\|?(?:\s*+:?-{3,}+:?\s*+\|)+\s*+(?::?-{3,}+:?\s*+)?$")
)


def match_field(line: str) -> re.Match[str] | None:
    """A field label at the start of `line`: `岗位：…`, or one of the colon-less forms."""
    m = _field_re().match(line)
    if m is None:
        for regex in _field_no_colon_res():
            m = regex.match(line)
            if m is not None:
                break
    return m


# Question labels: 问题1：, 问题 1、, 问题１., 问题一, 问题（一）, 第一题, 第3问, Q1:, Question 1.


def _num() -> str:
    return rf"[0-9０-９]{{1,30}}|[{letters(CN_NUMERALS)}]{{1,30}}"


_STRONG_SEP = rf"{WS}*+(?:{COLON}|[、．]|\.(?![0-9]))"
# a space is enough after 问题1 / 第一题, and a closing bracket or bold: `【问题1】什么是…`
_LOOSE_SEP = rf"(?:{_STRONG_SEP}|{WS}+|$|(?<=[】\]])|(?<=\*\*))"
question_re = cache(
    lambda: re.compile(
        _PREFIX
        + "(?:"
        + rf"(?:{spaced('问题')}|question){WS}*[（(]{WS}*(?P<n1>{_num()}){WS}*[）)]{_CLOSE}(?:{_STRONG_SEP})?"
        + rf"|{spaced('问题')}{WS}*(?P<n2>{_num()}){_CLOSE}{_LOOSE_SEP}"
        + rf"|第{WS}*(?P<n3>{_num()}){WS}*(?:道)?[{letters('题问')}]{_CLOSE}{_LOOSE_SEP}"
        + rf"|question{WS}*(?:no\.?{WS}*)?(?P<n4>[0-9０-９]{{1,30}}){_CLOSE}{_LOOSE_SEP}"
        # `Q3 我们上线了` is a quarter, not question 3: Q needs punctuation after its number
        + rf"|q{WS}*(?P<n5>[0-9０-９]{{1,30}}){_CLOSE}(?:{_STRONG_SEP}|[)）]|$|(?<=[】\]])|(?<=\*\*))"
        + rf"|(?:{written('问题')}|question){_CLOSE}{WS}*+{COLON}"
        + rf"){WS}*(?:\*\*{WS}*)?(?P<rest>.*)$",
        re.IGNORECASE,
    )
)

# A numbered list used for the questions, in a file with no 问题N labels: `1. 什么是闭包？`,
# `一、…`, `(3) …`. Such a line is a question only where a 考察目标 or 回答 follows it
# (the parser decides); inside an answer it is a list item.
numbered_re = cache(
    lambda: re.compile(
        rf"^{WS}*(?:#+{WS}*|\*\*{WS}*)?(?:"
        rf"(?P<n6>[0-9０-９]{{1,3}}){WS}*(?:[、．)）]|\.(?![0-9]))"
        rf"|(?P<n7>[{letters(CN_NUMERALS)}]{{1,4}}){WS}*[、．.]"
        rf"|[（(]{WS}*(?P<n8>[0-9０-９]{{1,3}}|[{letters(CN_NUMERALS)}]{{1,4}}){WS}*[)）]"
        rf"|(?P<unnumbered>{written('问')}|{written('提问')}|q){WS}*{COLON}"  # `问：…` / `答：…`, `Q: …` / `A: …`
        rf"){WS}*(?:\*\*{WS}*)?(?P<rest>.*)$",
        re.IGNORECASE,
    )
)

# Inside the 岗位 line: `岗位：视频开发工程师 从业年限：3年` (and the other way round).
_inline_header_re = cache(
    lambda: re.compile(
        r"(?:^|(?<=[\s,，;；、|/]))(?:"
        + "|".join(f"(?P<{kind}>{alternatives(kind)})" for kind in HEADER_KINDS)
        + ")"
        rf"{WS}*{COLON}",
        re.IGNORECASE,
    )
)

# The same, and the who-and-when labels: `姓名：张三 岗位：… 面试官：李四 日期：…`.
_inline_label_re = cache(
    lambda: re.compile(
        r"(?:^|(?<=[\s,，;；、|/]))(?:"
        + "|".join(f"(?P<{kind}>{alternatives(kind)})" for kind in (*HEADER_KINDS, *IDENTITY_KINDS))
        + ")"
        rf"{WS}*{COLON}",
        re.IGNORECASE,
    )
)

title_re = cache(
    lambda: re.compile(
        rf"^(?:(?:{written('标题')}|{written('题目')}|title)\s*[:：].*"
        rf"|.*(?:{'|'.join(map(written, ('面试', '笔记', '记录', '纪要')))}|interview).*)$",
        re.I,
    )
)
summary_label_re = cache(
    lambda: re.compile(
        rf"^{WS}*(?:[#>*\-•]+{WS}*|[【\[]{WS}*)?(?:{alternatives('summary')})"
        rf"{_CLOSE}{WS}*+{COLON}{WS}*+",
        re.I,
    )
)
SENTENCE_END = tuple('。！？.!?；;…）)」”"')

# A position or years value on the line after its label is at most this long.
NEXT_LINE_VALUE_MAX = 60


# Inside a question or 考察目标 line: `问题1：…？ 考察目标：… 回答：…` all on one line. A
# label counts there only after a space or a sentence's end, and never the one-character
# `答`, which ends too many ordinary clauses (`怎么答：`).
INLINE_QA_KINDS: tuple[Kind, ...] = ("goal", "answer")
_inline_qa_re = cache(
    lambda: re.compile(
        r"(?<=[\s？?。！!；;])(?:"
        + "|".join(
            f"(?P<{kind}>{'|'.join(spaced(w) for w in sorted(FIELD_LABELS[kind], key=len, reverse=True) if len(w) > 1)})"
            for kind in INLINE_QA_KINDS
        )
        + rf"){WS}*{COLON}",
    )
)


def split_inline_qa(first: str) -> tuple[str, list[tuple[Kind, str]]]:
    """`讲讲闭包？ 考察目标：JS 回答：不清楚` -> (`讲讲闭包？`, [(goal, JS), (answer, 不清楚)])."""
    parts: list[tuple[Kind, str]] = []
    head_end, key, pos = None, None, 0
    for m in _inline_qa_re().finditer(first):
        if key is None:
            head_end = m.start()
        else:
            parts.append((key, first[pos : m.start()].strip()))
        key = next(k for k in INLINE_QA_KINDS if m.group(k) is not None)
        pos = m.end()
    if key is None or head_end is None:
        return first, []
    parts.append((key, first[pos:].strip()))
    return first[:head_end].rstrip(), parts


def label_kind(m: re.Match[str]) -> Kind:
    return next(k for k in FIELD_LABELS if m.group(k) is not None)


def _header_kind(m: re.Match[str]) -> HeaderKind:
    return next(k for k in (*HEADER_KINDS, *IDENTITY_KINDS) if m.groupdict().get(k) is not None)


def _trim(value: str) -> str:
    return value.strip(" \t\u3000\u00a0,，;；、|/")


def split_header(
    key: HeaderKind, rest: str, accept: Callable[[HeaderKind, str], bool] | None = None
) -> list[tuple[HeaderKind, str]]:
    """position + `视频开发工程师 从业年限： 3年` -> [(position, …), (years, 3年)].

    With `accept`, the who-and-when labels split the line too, where `accept(kind,
    value)` takes what follows them (a `候选人：男，28岁` inside the line stays text)."""
    regex = _inline_header_re() if accept is None else _inline_label_re()
    cuts = [(m.start(), m.end(), _header_kind(m)) for m in regex.finditer(rest)]
    kept: list[tuple[int, int, HeaderKind]] = []
    end = len(rest)
    for start, stop, kind in reversed(cuts):  # from the right: a refused label is text
        if accept is None or kind in HEADER_KINDS or accept(kind, _trim(rest[stop:end])):
            kept.append((start, stop, kind))
            end = start
    parts: list[tuple[HeaderKind, str]] = []
    pos = 0
    for start, stop, kind in reversed(kept):
        parts.append((key, rest[pos:start]))
        key, pos = kind, stop
    parts.append((key, rest[pos:]))
    return [(lab, _trim(val)) for lab, val in parts]


# -- what is not the interview's facts ---------------------------------------------------------

# A list item, as written: `- …`, `* …`, `+ …`, `• …`, `1. …`, `1、…`, `（1）…`.
list_item_re = cache(
    lambda: re.compile(
        rf"^{WS}*+(?:[-*+•·](?:{WS}|$)|[0-9０-９]{{1,3}}(?:[．、)）]|\.(?![0-9]))"
        rf"|[（(][0-9０-９]{{1,3}}[)）])"
    )
)

# The candidate's own questions and the writer's remarks: `反问：`, `## 反问环节`,
# `**我的反问**`, `Questions for the interviewer`; and, alone on their line, `备注`,
# `其他`, `补充`. They open a part of the file that is no question's answer and no verdict.
_REVERSE = (
    "反问",
    "反问环节",
    "我的反问",
    "候选人反问",
    "反问面试官",
    "向面试官提问",
    "问面试官",
    "我问面试官",
    "候选人提问",
    "提问环节",
)
_REMARKS = ("备注", "其他", "其它", "补充", "附注", "感想", "感受", "心得", "面后感想", "面后总结")
_ENGLISH_REVERSE = (
    "reverse questions",
    "reverse question",
    "questions for the interviewer",
    "questions for the interviewers",
    "questions i asked",
    "my questions",
    "questions to the interviewer",
)
_ENGLISH_REMARKS = ("remarks",)


def _words(chinese: tuple[str, ...], english: tuple[str, ...]) -> str:
    return "|".join(
        sorted(
            [spaced(w) for w in chinese]
            + [r"\s+".join(map(re.escape, w.split())) + r"(?![a-z])" for w in english],
            key=len,
            reverse=True,
        )
    )


remarks_re = cache(
    lambda: re.compile(
        _PREFIX
        + rf"(?:(?:{_words(_REVERSE, _ENGLISH_REVERSE)}){_CLOSE}{WS}*+(?:{COLON}.*|[(（].*)?"
        + rf"|(?:{_words(_REMARKS, _ENGLISH_REMARKS)}){_CLOSE}{WS}*+{COLON}?{WS}*+(?:\*\*)?{WS}*+)$",
        re.IGNORECASE,
    )
)
"""A line that opens the candidate's questions (反问, with its first one after a colon)
or the writer's remarks (备注, alone on its line)."""

# YAML front matter's lines, `createTime: 2023-04-01`, `tags: [面经]`, `- 面经`.
front_matter_line_re = cache(
    lambda: re.compile(r"^(?:[A-Za-z_][\w-]{0,40}[ \t]*:(?:[ \t].*)?|[ \t]*-[ \t].*|[ \t].*|)$")
)
