"""Transcript parser: bytes in, a `Transcript` or a `ParseError` out.

A pure function. It reads no files, knows nothing of SQLite or Slack, and never
raises anything but `ParseError` for bad input.

The format, as the recruiters write it::

    <summary paragraph(s), maybe under a title line>
    岗位：<position>  从业年限：<N年>
    简介：<profile>
    问题1：<question>
    考察目标：<what it assesses>
    回答：<answer, any number of lines; empty = unanswered>
    ...
    点评：<the reviewer's verdict, to the end of the file>

Labels count only at the start of a line. Colons may be ASCII or full-width with
any spaces around them; numbers may be ASCII, full-width or Chinese numerals.
"""

from __future__ import annotations

import codecs
import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import PurePath

from .models import Question, Transcript

MAX_BYTES = 5 * 1024 * 1024
MAX_QUESTION = 10_000
"""A transcript is a few dozen KB; anything past this is not one."""


class ParseError(ValueError):
    """The input is not a transcript. `line` is 1-based where it helps."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason if line is None else f"{reason} (line {line})")
        self.reason = reason
        self.line = line


# Spaces that people (and word processors) put around labels.
_WS = r"[ \t\u3000\u00a0\u2000-\u200b\u202f\u205f\ufeff]"
_COLON = r"[:：﹕∶]"
_CN_NUM = "零〇一二两三四五六七八九十百"
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0d-\x1f]")


def _spaced(word: str) -> str:
    """`岗位` -> a pattern that also accepts `岗 位`."""
    return f"{_WS}*".join(re.escape(ch) for ch in word)


# Each label with the other names people give it; the first is the format's own.
_FIELD_LABELS: dict[str, tuple[str, ...]] = {
    "position": ("岗位", "应聘岗位", "面试岗位", "职位"),
    "years": ("从业年限", "工作年限", "工作经验"),
    "intro": ("简介", "个人简介"),
    "goal": ("考察目标", "考察点"),
    "answer": ("回答", "候选人回答"),
    "verdict": ("点评", "面试点评", "综合点评", "总体点评", "总评"),
}
_LABEL_KEY = {word: key for key, words in _FIELD_LABELS.items() for word in words}


def _alternatives(words: tuple[str, ...]) -> str:
    return "|".join(_spaced(w) for w in sorted(words, key=len, reverse=True))


_LABEL_RE = re.compile(
    rf"^{_WS}*(?:[#>*\-•]+{_WS}*|[【\[]{_WS}*)?"
    r"(?:"
    + "|".join(f"(?P<{key}>{_alternatives(words)})" for key, words in _FIELD_LABELS.items())
    + rf"|(?P<question>{_spaced('问题')}{_WS}*(?P<num>[0-9０-９]+|[{_CN_NUM}]+)?)"
    r")"
    rf"{_WS}*[*】\]]*{_WS}*{_COLON}{_WS}*(?P<rest>.*)$"
)

# Inside the 岗位 line: `岗位：视频开发工程师 从业年限：3年` (and the other way round).
_INLINE_HEADER_RE = re.compile(
    r"(?:^|(?<=[\s,，;；、|/]))(?P<label>"
    + _alternatives(_FIELD_LABELS["position"] + _FIELD_LABELS["years"] + _FIELD_LABELS["intro"])
    + ")"
    rf"{_WS}*{_COLON}"
)

_TITLE_RE = re.compile(
    r"^(?:(?:标题|题目|title)\s*[:：].*|.*(?:面试|笔记|记录|纪要|interview).*)$", re.I
)
_SUMMARY_LABEL_RE = re.compile(
    rf"^{_WS}*(?:摘要|总结|概述|概要|小结|summary){_WS}*{_COLON}{_WS}*", re.I
)
_SENTENCE_END = tuple('。！？.!?；;…）)」”"')

# Answers that mean "no answer". Compared after dropping spaces, punctuation and case.
_PLACEHOLDERS = {
    "",
    "无",
    "暂无",
    "没有",
    "空",
    "略",
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
}


def _cn_to_int(text: str) -> int | None:
    """Chinese numerals up to the hundreds: 十二 -> 12, 二十 -> 20, 一百零三 -> 103."""
    digits = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4}
    digits.update({"五": 5, "六": 6, "七": 7, "八": 8, "九": 9})
    units = {"十": 10, "百": 100}
    total, current, seen = 0, 0, False
    for ch in text:
        if ch in digits:
            current, seen = digits[ch], True
        elif ch in units:
            total += (current or 1) * units[ch]
            current, seen = 0, True
        else:
            return None
    return total + current if seen else None


def _to_int(text: str) -> int | None:
    text = unicodedata.normalize("NFKC", text)
    if len(text) > 6:  # no transcript has a millionth question
        return None
    if text.isascii() and text.isdigit():
        return int(text)
    return _cn_to_int(text)


_YEARS_RE = re.compile(
    rf"^(?:约|大约|近|超过|逾|满|共)?\s*(?:([0-9]{{1,4}}(?:\.[0-9]{{1,4}})?)(?![0-9])|([{_CN_NUM}]{{1,6}})|(半))"
)
MAX_YEARS = 80


def parse_years(text: str) -> int | None:
    """`3年` -> 3, `五年` -> 5, `3-5年` -> 3, `不详` -> None."""
    m = _YEARS_RE.match(unicodedata.normalize("NFKC", text).strip())
    if not m:
        return None
    if m.group(1):
        value: int | None = int(float(m.group(1)))
    elif m.group(2):
        value = _cn_to_int(m.group(2))
    else:
        value = 0
    return value if value is not None and 0 <= value <= MAX_YEARS else None


def is_placeholder(answer: str) -> bool:
    """True for an empty answer or one that only says there is none (无, N/A, （未作答）…)."""
    if len(answer) > 40:
        return False
    kept = "".join(
        ch
        for ch in unicodedata.normalize("NFKC", answer).lower()
        if ch == "/" or not unicodedata.category(ch).startswith(("P", "S", "Z", "C"))
    )
    return kept.strip("/") in _PLACEHOLDERS or kept in _PLACEHOLDERS


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


def _block(lines: list[str]) -> str:
    """Join lines, keeping inner line breaks and paragraphs, trimming the edges."""
    text = "\n".join(line.rstrip(" \t\u3000\u00a0") for line in lines)
    return text.strip("\n \t\u3000\u00a0\ufeff")


def _split_header(key: str, rest: str) -> list[tuple[str, str]]:
    """position + `视频开发工程师 从业年限： 3年` -> [(position, …), (years, 3年)]."""
    parts: list[tuple[str, str]] = []
    pos = 0
    for m in _INLINE_HEADER_RE.finditer(rest):
        parts.append((key, rest[pos : m.start()]))
        key = _LABEL_KEY[re.sub(_WS, "", m.group("label"))]
        pos = m.end()
    parts.append((key, rest[pos:]))
    return [(lab, val.strip(" \t\u3000\u00a0,，;；、|/")) for lab, val in parts]


def _clean_summary(lines: list[str]) -> str:
    """The text before 岗位, without a title line such as `XX面试笔记` or `# …`."""
    non_blank = [i for i, line in enumerate(lines) if line.strip(" \t\u3000\u00a0")]
    if non_blank:
        first = lines[non_blank[0]].strip(" \t\u3000\u00a0")
        is_title = first.startswith("#") or (
            len(first) <= 40 and not first.endswith(_SENTENCE_END) and bool(_TITLE_RE.match(first))
        )
        if not is_title and len(non_blank) > 1:
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
    position: str | None = None
    years_text: str | None = None
    intro: list[str] = []
    drafts: list[_Draft] = []
    verdict: list[str] | None = None
    target: list[str] = summary

    for index, line in enumerate(lines, start=1):
        if verdict is not None:
            verdict.append(line)
            continue
        m = _LABEL_RE.match(line)
        if m is None:
            target.append(line)
            continue
        rest = m.group("rest")
        if m.group("position") or m.group("years") or m.group("intro"):
            if drafts:  # a header label after the questions began is text
                target.append(line)
                continue
            first = next(k for k in ("position", "years", "intro") if m.group(k))
            for key, value in _split_header(first, rest):
                if key == "position":
                    position = position or value or None
                elif key == "years":
                    years_text = years_text or value
                else:
                    intro.append(value)
                target = intro
        elif m.group("question"):
            raw = m.group("num")
            number = _to_int(raw) if raw else None
            if raw and (number is None or number > MAX_QUESTION):
                raise ParseError(f"question number out of range: 问题{raw[:12]}", index)
            if number is None:
                number = drafts[-1].number + 1 if drafts else 1
            drafts.append(_Draft(number=number, line=index, question=[rest]))
            target = drafts[-1].question
        elif m.group("goal") and drafts and not drafts[-1].has_goal and not drafts[-1].has_answer:
            drafts[-1].has_goal = True
            drafts[-1].goal.append(rest)
            target = drafts[-1].goal
        elif m.group("answer") and drafts and not drafts[-1].has_answer:
            drafts[-1].has_answer = True
            drafts[-1].answer.append(rest)
            target = drafts[-1].answer
        elif m.group("verdict"):
            verdict = [rest]
        else:
            target.append(line)

    if position is None and not drafts:
        raise ParseError("not a transcript: no 岗位 line and no 问题 found")

    questions = []
    for d in drafts:
        answer = _block(d.answer)
        questions.append(
            Question(
                number=d.number,
                question=_block(d.question),
                goal=_block(d.goal),
                answer=answer,
                answered=not is_placeholder(answer),
            )
        )
    verdict_text = _block(verdict) if verdict is not None else ""
    return Transcript(
        id=transcript_id(name),
        position=position or None,
        years=parse_years(years_text) if years_text else None,
        intro=_block(intro),
        summary=_clean_summary(summary),
        questions=questions,
        verdict=verdict_text or None,
        source=source if source is not None else name,
        hash=content_hash(data),
    )
