"""Transcript parser: bytes in, a `Transcript` or a `ParseError` out.

A pure function. It reads no files, knows nothing of SQLite or Slack, and never
raises anything but `ParseError` (or its subclass `NotATranscript`) for bad input.

The format, as the recruiters write it::

    <summary paragraph(s), maybe under a title line>
    岗位：<position>  从业年限：<N年>
    简介：<profile>
    问题1：<question>
    考察目标：<what it assesses>
    回答：<answer, any number of lines; empty = unanswered>
    ...
    点评：<the reviewer's verdict, to the end of the file>

Labels count only at the start of a line, followed by a colon (question labels may
also end with `、`, `.` or a space: `问题1、`, `第一题 `, `Q1.`). A label's value may
be on the same line or on the next. Colons may be ASCII or full-width with any spaces
around them; numbers may be ASCII, full-width or Chinese numerals. Each label has
other names people give it (`_FIELD_LABELS`, `_ENGLISH_LABELS`).

Where a label counts:

- the header labels (岗位, 从业年限, 简介 and their other names) only before the
  first question: inside an answer, `经验：我做过…` is answer text;
- 考察目标 only once per question, before its 回答; 回答 only once per question;
- a verdict label (点评, 评语, Verdict…) anywhere. After the first question the
  verdict runs to the end of the file; before it (a `面试结论：通过` at the top), the
  verdict ends at the next header or question label.

`Summary:` / `Overview:` (English) is the opening summary when it comes before any
header label, and the profile (简介) when it comes after `Position:` / `Years…:` and
no profile label has been seen: in the seeds' order, the paragraph after the
position and years is the profile. The Chinese 摘要/总结/概述 are always the summary.

A file with no transcript label at all (a README, notes) raises `NotATranscript`;
a file that has labels but neither a position nor a question raises `ParseError`.
"""

from __future__ import annotations

import codecs
import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Literal

from .models import Question, Transcript, UnansweredReason
from .numerals import CN_NUMERALS, MAX_QUESTION, chinese_to_int, parse_question_number

MAX_BYTES = 5 * 1024 * 1024
"""A transcript is a few dozen KB; anything past this is not one."""

__all__ = [
    "MAX_BYTES",
    "MAX_QUESTION",
    "NotATranscript",
    "ParseError",
    "content_hash",
    "decode",
    "is_placeholder",
    "parse_transcript",
    "parse_years",
    "transcript_id",
    "unanswered_reason",
]


class ParseError(ValueError):
    """The input is not a transcript. `line` is 1-based where it helps."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason if line is None else f"{reason} (line {line})")
        self.reason = reason
        self.line = line


class NotATranscript(ParseError):
    """Readable text with none of the transcript labels: a README, notes. Not a failure:
    the indexer skips it and says why."""


# Spaces that people (and word processors) put around labels.
_WS = r"[ \t\u3000\u00a0\u2000-\u200b\u202f\u205f\ufeff]"
_COLON = r"[:：﹕∶]"
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0d-\x1f]")

Kind = Literal["position", "years", "intro", "goal", "answer", "verdict", "summary"]
_HEADER_KINDS: tuple[Kind, ...] = ("position", "years", "intro")


def _spaced(word: str) -> str:
    """`岗位` -> a pattern that also accepts `岗 位`."""
    return f"{_WS}*".join(re.escape(ch) for ch in word)


# Each label with the other names people give it; the first is the format's own.
_FIELD_LABELS: dict[Kind, tuple[str, ...]] = {
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
    "answer": ("回答", "候选人回答", "面试者回答", "候选人作答", "作答", "答", "答案"),
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
_ENGLISH_LABELS: dict[Kind, tuple[str, ...]] = {
    "position": ("position", "role", "job title", "applied position", "position applied for"),
    "years": ("years of experience", "work experience", "experience", "years", "yoe"),
    "intro": ("profile", "candidate profile", "bio", "background"),
    "goal": ("goal", "objective", "purpose"),
    "answer": ("answer", "response", "candidate answer"),
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


def _alternatives(kind: Kind) -> str:
    chinese = [_spaced(w) for w in _FIELD_LABELS[kind]]
    english = [r"\s+".join(map(re.escape, w.split())) + r"(?![a-z])" for w in _ENGLISH_LABELS[kind]]
    return "|".join(sorted(chinese + english, key=len, reverse=True))


_PREFIX = rf"^{_WS}*(?:[#>*\-•]+{_WS}*|[【\[]{_WS}*)?"
_CLOSE = rf"{_WS}*[*】\]]*"

_FIELD_RE = re.compile(
    _PREFIX
    + "(?:"
    + "|".join(f"(?P<{kind}>{_alternatives(kind)})" for kind in _FIELD_LABELS)
    + ")"
    + rf"{_CLOSE}{_WS}*{_COLON}{_WS}*(?:\*\*{_WS}*)?(?P<rest>.*)$",
    re.IGNORECASE,
)

# Question labels: 问题1：, 问题 1、, 问题１., 问题一, 问题（一）, 第一题, 第3问, Q1:, Question 1.
_NUM = rf"[0-9０-９]{{1,30}}|[{CN_NUMERALS}]{{1,30}}"
_STRONG_SEP = rf"{_WS}*(?:{_COLON}|[、．]|\.(?![0-9]))"
_LOOSE_SEP = rf"(?:{_STRONG_SEP}|{_WS}+|$)"  # a space is enough after 问题1 / 第一题
_QUESTION_RE = re.compile(
    _PREFIX
    + "(?:"
    + rf"(?:问题|question){_WS}*[（(]{_WS}*(?P<n1>{_NUM}){_WS}*[）)]{_CLOSE}(?:{_STRONG_SEP})?"
    + rf"|问题{_WS}*(?P<n2>{_NUM}){_CLOSE}{_LOOSE_SEP}"
    + rf"|第{_WS}*(?P<n3>{_NUM}){_WS}*(?:道)?[题问]{_CLOSE}{_LOOSE_SEP}"
    + rf"|question{_WS}*(?:no\.?{_WS}*)?(?P<n4>[0-9０-９]{{1,30}}){_CLOSE}{_LOOSE_SEP}"
    # `Q3 我们上线了` is a quarter, not question 3: Q needs punctuation after its number
    + rf"|q{_WS}*(?P<n5>[0-9０-９]{{1,30}}){_CLOSE}(?:{_STRONG_SEP}|[)）]|$)"
    + rf"|(?:问题|question){_CLOSE}{_WS}*{_COLON}"
    + rf"){_WS}*(?:\*\*{_WS}*)?(?P<rest>.*)$",
    re.IGNORECASE,
)

# Inside the 岗位 line: `岗位：视频开发工程师 从业年限：3年` (and the other way round).
_INLINE_HEADER_RE = re.compile(
    r"(?:^|(?<=[\s,，;；、|/]))(?:"
    + "|".join(f"(?P<{kind}>{_alternatives(kind)})" for kind in _HEADER_KINDS)
    + ")"
    rf"{_WS}*{_COLON}",
    re.IGNORECASE,
)

_TITLE_RE = re.compile(
    r"^(?:(?:标题|题目|title)\s*[:：].*|.*(?:面试|笔记|记录|纪要|interview).*)$", re.I
)
_SUMMARY_LABEL_RE = re.compile(
    rf"^{_WS}*(?:[#>*\-•]+{_WS}*|[【\[]{_WS}*)?(?:{_alternatives('summary')})"
    rf"{_CLOSE}{_WS}*{_COLON}{_WS}*",
    re.I,
)
_SENTENCE_END = tuple('。！？.!?；;…）)」”"')

# A position or years value on the line after its label is at most this long.
_NEXT_LINE_VALUE_MAX = 60

# -- years -----------------------------------------------------------------------------------

MAX_YEARS = 80
_YEARS_NUM = rf"[0-9]{{1,6}}(?:\.[0-9]{{1,3}})?|[{CN_NUMERALS}]{{1,8}}|半"
_YEARS_RE = re.compile(
    r"^(?:约|大约|大概|近|将近|接近|超过|逾|满|共|已|有|累计|差不多|"
    r"about|around|over|more\s+than|nearly|almost|approx\.?|~|≈)?\s*"
    rf"(?P<a>{_YEARS_NUM})"
    rf"(?:\s*(?:-|~|–|—|到|至|to)\s*(?:{_YEARS_NUM}))?"  # a range: its lower bound
    r"\s*\+?\s*"
    r"(?:(?P<year>年半|个半?年|年|years?|yrs?|y(?![a-z]))(?:\s*\+)?"
    rf"(?:\s*零?\s*(?P<m>[0-9]{{1,2}}|[{CN_NUMERALS}]{{1,3}})\s*个?月|(?P<half>半))?"
    r"|(?P<month>个月|月|months?|mos?(?![a-z])))?"
    r"(?P<after>.?)",
    re.IGNORECASE,
)
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
    m = _YEARS_RE.match(norm)
    value: float | None = None
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
# Only says the candidate could not answer: 不知道, 不太清楚, 没接触过, I don't know.
_DONT_KNOW_CORE = (
    r"(?:(?:完全|确实|真的|实在|并|暂时|还|也|都|真)?"
    r"(?:(?:不太|不是很|不是太|不怎么|不大|不很|不)(?:知道|清楚|会|了解|懂|熟悉|熟|记得|确定)"
    r"|没(?:有)?(?:接触|用|做|听说|学|了解|研究|遇到|碰到|想)过"
    r"|未(?:接触|用|做|听说|学|了解|研究)过"
    r"|(?:回)?答不(?:上来|上|出来|出)|想不(?:起来|起)|记不(?:清楚|清|得)"
    r"|没(?:有|能)?(?:回)?答(?:上来|出来|上|出)|忘(?:记)?了"
    r"|没(?:有)?(?:思路|想法|头绪|概念))"
    r"(?:做|写|答|用|说)?(?:了|呢|啊|哦|吧|耶|的)*(?:这个|这块|这方面|这个问题)?)"
)
_DONT_KNOW_RE = re.compile(
    r"^(?:候选人|面试者|被面试者|被面试人|应聘者|他|她|我)?"
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
    if kept in _EMPTY or kept.strip("/") in _EMPTY:
        return "empty"
    if kept in _SKIPPED:
        return "skipped"
    if _DONT_KNOW_RE.match(kept):
        return "dont_know"
    return None


def is_placeholder(answer: str) -> bool:
    """True for an empty answer or one that only says there is none (无, N/A, 跳过…)."""
    return unanswered_reason(answer) in ("empty", "skipped")


def decode(data: bytes) -> str:
    """UTF-8 (with or without BOM), UTF-16 with BOM, or GB18030; else ParseError."""
    if not data.strip(b" \t\r\n\x0b\x0c"):
        raise ParseError("empty file")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise ParseError("broken UTF-16 text") from exc
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    nul = data.find(b"\x00")
    if nul >= 0:
        raise ParseError("binary file, not text (NUL byte)", data.count(b"\n", 0, nul) + 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.reason == "unexpected end of data":
            # A file cut off in the middle of its last character: keep the rest.
            return data[: exc.start].decode("utf-8")
        utf8_error = exc
    try:
        return data.decode("gb18030")
    except UnicodeDecodeError:
        line = data.count(b"\n", 0, utf8_error.start) + 1
        raise ParseError("not text: neither UTF-8 nor GB18030", line) from None


@dataclass
class _Draft:
    number: int
    line: int
    question: list[str] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    answer: list[str] = field(default_factory=list)
    has_goal: bool = False
    has_answer: bool = False


# Inside a question or 考察目标 line: `问题1：…？ 考察目标：… 回答：…` all on one line. A
# label counts there only after a space or a sentence's end, and never the one-character
# `答`, which ends too many ordinary clauses (`怎么答：`).
_INLINE_QA_KINDS: tuple[Kind, ...] = ("goal", "answer")
_INLINE_QA_RE = re.compile(
    r"(?<=[\s？?。！!；;])(?:"
    + "|".join(
        f"(?P<{kind}>{'|'.join(_spaced(w) for w in sorted(_FIELD_LABELS[kind], key=len, reverse=True) if len(w) > 1)})"
        for kind in _INLINE_QA_KINDS
    )
    + rf"){_WS}*{_COLON}",
)


def _split_inline_qa(first: str) -> tuple[str, list[tuple[Kind, str]]]:
    """`讲讲闭包？ 考察目标：JS 回答：不清楚` -> (`讲讲闭包？`, [(goal, JS), (answer, 不清楚)])."""
    parts: list[tuple[Kind, str]] = []
    head_end, key, pos = None, None, 0
    for m in _INLINE_QA_RE.finditer(first):
        if key is None:
            head_end = m.start()
        else:
            parts.append((key, first[pos : m.start()].strip()))
        key = next(k for k in _INLINE_QA_KINDS if m.group(k) is not None)
        pos = m.end()
    if key is None or head_end is None:
        return first, []
    parts.append((key, first[pos:].strip()))
    return first[:head_end].rstrip(), parts


def _label_kind(m: re.Match[str]) -> Kind:
    return next(k for k in _FIELD_LABELS if m.group(k) is not None)


def _split_header(key: Kind, rest: str) -> list[tuple[Kind, str]]:
    """position + `视频开发工程师 从业年限： 3年` -> [(position, …), (years, 3年)]."""
    parts: list[tuple[Kind, str]] = []
    pos = 0
    for m in _INLINE_HEADER_RE.finditer(rest):
        parts.append((key, rest[pos : m.start()]))
        key = next(k for k in _HEADER_KINDS if m.group(k) is not None)
        pos = m.end()
    parts.append((key, rest[pos:]))
    return [(lab, val.strip(" \t\u3000\u00a0,，;；、|/")) for lab, val in parts]


def _block(lines: list[str]) -> str:
    """Join lines, keeping inner line breaks and paragraphs, trimming the edges."""
    text = "\n".join(line.rstrip(" \t\u3000\u00a0") for line in lines)
    return text.strip("\n \t\u3000\u00a0\ufeff")


def _clean_summary(lines: list[str]) -> str:
    """The text before 岗位, without a title line such as `XX面试笔记` or `# …`."""
    non_blank = [i for i, line in enumerate(lines) if line.strip(" \t\u3000\u00a0")]
    if non_blank:
        first = lines[non_blank[0]].strip(" \t\u3000\u00a0")
        is_title = not _SUMMARY_LABEL_RE.match(first) and (
            first.startswith("#")
            or (
                len(first) <= 40
                and not first.endswith(_SENTENCE_END)
                and bool(_TITLE_RE.match(first))
            )
        )
        if not is_title and len(non_blank) > 1 and not _SUMMARY_LABEL_RE.match(first):
            is_title = len(first) <= 30 and not first.endswith(_SENTENCE_END)
        if is_title:
            lines = lines[non_blank[0] + 1 :]
    return _SUMMARY_LABEL_RE.sub("", _block(lines), count=1)


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def transcript_id(name: str) -> str:
    """The file name without its extension: `000_9e6b.txt` -> `000_9e6b`."""
    base = PurePath(name).name
    stem = PurePath(base).stem if "." in base.lstrip(".") else base
    return stem.strip() or base


def parse_transcript(data: bytes, name: str, source: str | None = None) -> Transcript:
    """Parse one transcript file's bytes. `name` gives the id; `source` is recorded as is."""
    if len(data) > MAX_BYTES:
        raise ParseError(
            f"file too large for a transcript: {len(data) / 1e6:.1f} MB "
            f"(the limit is {MAX_BYTES / 1e6:.0f} MB)"
        )
    text = decode(data).replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    lines = text.split("\n")

    bad = len(_CONTROL_RE.findall(text)) + text.count("\ufffd")
    if bad > max(8, len(text) // 100):
        raise ParseError("binary file, not text (control characters)")

    summary: list[str] = []
    late_summary: list[str] = []  # a 总结： after the header
    position: str | None = None
    years_text = ""
    intro: list[str] = []
    drafts: list[_Draft] = []
    verdict: list[str] | None = None
    verdict_open = False  # lines go to the verdict
    target: list[str] = summary
    pending: Kind | None = None  # a position or years label whose value is on a next line
    header_seen = False  # a position or years label
    intro_seen = False
    evidence: set[str] = set()  # which labels counted: "cn" (any Chinese), "position", …

    def header(key: Kind, rest: str) -> None:
        nonlocal position, years_text, pending, target, header_seen, intro_seen
        parts = _split_header(key, rest)
        for kind, value in parts:
            if kind == "position":
                position = position or value or None
                header_seen = True
            elif kind == "years":
                years_text = years_text or value
                header_seen = True
            else:
                intro.append(value)
                intro_seen = True
            evidence.add(kind)
        last_kind, last_value = parts[-1]
        pending = last_kind if last_kind != "intro" and not last_value else None
        target = intro

    for index, line in enumerate(lines, start=1):
        fm = _FIELD_RE.match(line)
        qm = None if fm else _QUESTION_RE.match(line)
        kind = _label_kind(fm) if fm else None
        if verdict_open:
            # A verdict at the top ends where the header or the questions go on;
            # after the questions it runs to the end of the file.
            reopens = not drafts and (qm is not None or kind in _HEADER_KINDS)
            if not reopens:
                verdict = verdict if verdict is not None else []
                verdict.append(line)
                continue
            verdict_open = False
        if fm is None and qm is None:
            if pending is not None and line.strip(" \t\u3000\u00a0"):
                value = line.strip(" \t\u3000\u00a0")
                key, pending = pending, None
                if len(value) <= _NEXT_LINE_VALUE_MAX:
                    header(key, value)
                    pending = None
                    continue
            target.append(line)
            continue
        pending = None
        if fm is not None:
            assert kind is not None
            rest = fm.group("rest")
            label = fm.group(kind)
            chinese = not label.isascii()
            if kind in _HEADER_KINDS:
                if drafts:  # a header label after the questions began is text
                    target.append(line)
                    continue
                if chinese:
                    evidence.add("cn")
                header(kind, rest)
            elif kind == "summary":
                if drafts:
                    target.append(line)
                elif not chinese and header_seen and not intro_seen:
                    intro.append(rest)  # `Position: …` then `Summary: …`: the profile
                    intro_seen = True
                    target = intro
                elif not header_seen and not intro_seen:
                    summary.append(line)  # the label goes when the summary is cleaned
                    target = summary
                else:
                    late_summary.append(rest)
                    target = late_summary
            elif (
                kind == "goal" and drafts and not drafts[-1].has_goal and not drafts[-1].has_answer
            ):
                drafts[-1].has_goal = True
                goal_text, inline = _split_inline_qa(rest)
                drafts[-1].goal.append(goal_text)
                target = drafts[-1].goal
                if inline and inline[0][0] == "answer":  # `考察目标：… 回答：…`
                    drafts[-1].has_answer = True
                    drafts[-1].answer.append(inline[0][1])
                    target = drafts[-1].answer
            elif kind == "answer" and drafts and not drafts[-1].has_answer:
                drafts[-1].has_answer = True
                drafts[-1].answer.append(rest)
                target = drafts[-1].answer
            elif kind == "verdict":
                if verdict is None:
                    verdict = [rest]
                else:  # a second verdict label (the top one, then the closing one)
                    verdict += ["", rest]
                verdict_open = True
                evidence.add("verdict")
                if chinese:
                    evidence.add("cn")
            else:
                target.append(line)
            continue
        assert qm is not None
        raw = next((g for g in ("n1", "n2", "n3", "n4", "n5") if qm.group(g)), None)
        number = parse_question_number(qm.group(raw)) if raw else None
        if raw and number is None:
            raise ParseError(f"question number out of range: {qm.group(raw)[:12]}", index)
        if number is None:
            number = drafts[-1].number + 1 if drafts else 1
        head, inline = _split_inline_qa(qm.group("rest"))
        draft = _Draft(number=number, line=index, question=[head])
        drafts.append(draft)
        target = draft.question
        for kind, value in inline:  # `问题1：…？ 考察目标：… 回答：…` on one line
            if kind == "goal" and not draft.has_goal and not draft.has_answer:
                draft.has_goal = True
                draft.goal.append(value)
                target = draft.goal
            elif kind == "answer" and not draft.has_answer:
                draft.has_answer = True
                draft.answer.append(value)
                target = draft.answer
        evidence.add("question")

    english_position = "position" in evidence and "cn" not in evidence
    if not drafts and (position is None or (english_position and len(evidence) < 2)):
        if "cn" in evidence:
            raise ParseError("no 岗位 line and no 问题 found")
        raise NotATranscript("not a transcript: none of the labels 岗位, 问题N, 点评")

    questions = []
    for d in drafts:
        answer = _block(d.answer)
        reason = unanswered_reason(answer)
        questions.append(
            Question(
                number=d.number,
                question=_block(d.question),
                goal=_block(d.goal),
                answer=answer,
                answered=reason is None,
                unanswered_reason=reason,
            )
        )
    verdict_text = _block(verdict) if verdict is not None else ""
    return Transcript(
        id=transcript_id(name),
        position=position or None,
        years=parse_years(years_text) if years_text else None,
        years_text=years_text,
        intro=_block(intro),
        summary=_block([_clean_summary(summary), "", *late_summary]),
        questions=questions,
        verdict=verdict_text or None,
        source=source if source is not None else name,
        hash=content_hash(data),
    )
