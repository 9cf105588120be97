"""What a written file is, decided from its document model (document.py) before any
fact is read from it: an interview record, and of which family, or something else,
refused with a reason that names what it looks like.

Something else, in this order (the first that fits):

- a question bank: questions with `参考答案` / `参考回答` / `答案解析` / `Reference answer`
  (and the like) under them, at least two, or one under every question; or a heading
  that names a collection of questions (`高频面试题`, `面试题汇总`, `题库`) where no
  heading names a round;
- study notes: at least three questions as headings or items, most of them followed by
  an explanation (a code block, or a long text no one says in the first person), and
  no speaker anywhere: what a question means, not what a candidate said;
- a list of dates: most lines start with a date (`8.17 字节一面`, `2023-09-06 微信二面`)
  and are short, and none asks anything: a diary of interviews, not a record of one;
- speech to text: plain text with no heading, list or speaker, in which people talk
  (`呃`, `然后`, `就是`, `um`) and hardly anyone asks anything;
- notes of one's own: a heading of one's notes (知识点, 复习, 面试准备…) where no heading
  names a round, or a draft of one's 自我介绍 with few questions; or a long text (thirty
  blocks or more) of which hardly any block asks anything.

An interview record, in this order (a FAQ, a heading that says so, is none):

- the labelled layout (parser.py) when a heading, a paragraph, an item or a table row
  carries its own labels (`_labelled`: 岗位, 考察目标, 回答, 点评…, or a numbered 问题N /
  第N题); a verdict label in an item is none: `- 面试评价：整体还行` in a 反问 list;
- a dialogue when both sides speak, each at the start of lines: an asking side
  (面试官, Interviewer, Q, 问, 【问】, the one whose turns end in questions) and an
  answering side (候选人, Interviewee, Candidate, A, 答, 【答】), in bold or not;
- a question list when at least two headings, items or paragraphs ask something
  (`roles.asks`, or they start as a question does: 自我介绍, 介绍, 简述, 手写…).

Nothing of these: `NO_LABELS`, as before, or an article (front matter, links, code)
with no interview in it.

Pure: a `Document` in, a `Kind` or `NotATranscript` out. No regular expression here
that can backtrack: the few patterns are bounded alternations."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

from .document import Block, Document
from .errors import (
    ARTICLE,
    DATES_LIST,
    FAQ,
    NO_LABELS,
    OWN_NOTES,
    QUESTION_BANK,
    SPEECH_TO_TEXT,
    STUDY_NOTES,
    NotATranscript,
)
from .labels import label_kind, match_field, question_re
from .roles import asks, closing, ends_asking, speaker

Family = Literal["labelled", "dialogue", "question_list"]


@dataclass(frozen=True)
class Kind:
    """An interview record of `family`, and the evidence it was known by."""

    family: Family
    evidence: str


# -- what a block says ---------------------------------------------------------------------------

_REFERENCE = (
    "参考答案",
    "参考回答",
    "答案解析",
    "标准答案",
    "示例回答",
    "回答示例",
    "回答思路",
    "答题思路",
    "答案要点",
    "解析",
    "reference answer",
    "sample answer",
    "model answer",
    "suggested answer",
    "example answer",
    "ideal answer",
)
_QUESTION_STARTS = (
    "自我介绍",
    "介绍",
    "简述",
    "简单介绍",
    "简单说",
    "说一下",
    "说说",
    "讲",
    "谈谈",
    "聊聊",
    "描述",
    "解释",
    "手写",
    "手撕",
    "编程",
    "算法题",
    "代码",
    "实现",
    "写一个",
    "了解",
    "知道",
    "是否",
    "有没有",
    "问了",
    "问项目",
    "项目",
    "如何",
    "怎么",
    "为什么",
    "什么是",
)
_QUESTION_WORDS = ("什么", "哪些", "哪个", "区别", "原理", "怎么", "如何", "为什么", "吗")
_FILLERS = ("呃", "嗯", "然后", "就是", "对对", "那个", " um ", " uh ", "you know")
_OWN_NOTES_WORDS = ("自我介绍稿", "知识点", "复习", "背诵", "八股", "面试准备", "准备面试")
_SELF_INTRO_OPENINGS = ("面试官您好", "面试官你好", "面试官好", "各位面试官", "大家好，我叫")
_ASKING_SIDE = ("问", "提问", "q", "question", "面试官", "interviewer", "ai", "bot", "hr")
_ANSWERING_SIDE = ("答", "回答", "a", "answer", "候选人", "interviewee", "candidate", "我", "me")
# a date at the start of a line: `8.17`, `9.6`, `2023-09-06`, `9月6日`, `12. 8`
_date_start_re = cache(
    lambda: re.compile(
        r"^(?:[0-9]{4}[-./年])?[0-9]{1,2}[ ]?[-./月][ ]?[0-9]{1,2}(?:日|号)?(?![0-9])"
    )
)


# (bounded alternations: nothing here backtracks on a long heading)
_round_re = cache(
    lambda: re.compile(
        r"(?:[一二三四五六七八九十0-9]{1,2}|终|hr|HR|Hr|交叉|主管|总监|技术|业务|加|电|群)面(?!试)"
        r"|第[一二三四五六七八九十0-9]{1,2}轮(?:面试)?"
        r"|(?i:round|transcript|interview)[ \t]{0,3}#?[0-9]{1,2}\b"
        r"|(?i:(?:first|second|third|fourth|final|1st|2nd|3rd|4th|5th)[ \t]{1,3}round)"
        r"|(?i:phone[ \t]{1,3}screen|onsite)"
    )
)


def round_named(text: str) -> str | None:
    """The round a heading names, as written: `1、一面` -> `一面`; None when it names none."""
    m = _round_re().search(text[:200])
    return m.group(0).strip() if m is not None else None


def reference_marker(text: str) -> bool:
    """Does a block start with a reference answer's label (`参考答案：`, `解析`)?"""
    head = text.strip().lstrip("*【[#>").strip().lower()
    for word in _REFERENCE:
        if head.startswith(word):
            rest = head[len(word) :].lstrip("*】] ")
            if not rest or rest[0] in ":：":
                return True
    return False


@lru_cache(maxsize=4096)
def asks_question(text: str) -> bool:
    """Does a heading, item or paragraph ask something of the person interviewed: a
    question (`roles.asks`), or a line that starts as one does (自我介绍, 介绍`http`,
    手写代码) or names what was asked (`…有什么区别`, `…原理`)?"""
    words = text.strip()
    if not words or len(words) > 400 or closing(words):
        return False
    if asks(words):
        return True
    plain = words.lstrip("0123456789.、)） \t").replace("`", "")
    return plain.startswith(_QUESTION_STARTS) or any(w in plain[:80] for w in _QUESTION_WORDS)


def asks_strictly(text: str) -> bool:
    """A paragraph asks only as an interviewer's turn does (`roles.asks`: a question, a
    request, a numbered cue): `没什么印象了` names no question, though it says 什么."""
    words = text.strip()
    return bool(words) and len(words) <= 400 and _asks_short(words)


@lru_cache(maxsize=4096)
def _asks_short(words: str) -> bool:
    """`asks`, remembered: the kind step and the interviews step (sections.py) ask it
    of the same paragraphs, and only of short ones (400 characters at most)."""
    return asks(words)


@lru_cache(maxsize=1024)
def question_heading(text: str) -> bool:
    """Is a heading itself a question (`### Question 3`, `### 1、unique_ptr的用法？`)?"""
    if question_re().match(text) is not None:
        return True
    stripped = text.strip()
    return ends_asking(stripped) and asks_question(stripped)


def _speaker_label(line: str) -> str | None:
    """The speaker a line starts with (`**面试官**：`, `Interviewer:`, `【问】`, `Q:`,
    `**AI 🤖:**`), lower-cased without its markers, or None."""
    s = line.strip().lstrip(">-*+ ").strip()
    bold = line.strip().startswith("**")
    if s.startswith(("【", "[")):
        close = s.find("】" if s[0] == "【" else "]", 1, 12)
        if close > 1:
            return s[1:close].strip().lower()
        return None
    for at, ch in enumerate(s[:24]):
        if ch in ":：":
            label = s[:at].replace("*", "").strip()
            after = s[at + 1 :].replace("*", "").strip()
            if not label or (not after and not bold):
                return None
            if any(c.isdigit() for c in label) and label[:1].lower() not in ("q", "a"):
                return None  # `2023:`, a time `10:30`
            return label.lower()
    return None


def _side(label: str) -> str | None:
    """Which side a speaker's label is on: "ask", "answer", or None."""
    plain = "".join(ch for ch in label if ch.isalnum() or "\u4e00" <= ch <= "\u9fff").lower()
    bare = plain.rstrip("0123456789")
    if bare in _ASKING_SIDE:
        return "ask"
    if bare in _ANSWERING_SIDE:
        return "answer"
    _name, role = speaker(label)
    if role == "interviewer":
        return "ask"
    if role == "candidate":
        return "answer"
    if bare in ("user", "用户", "学生", "student", "求职者"):
        return "answer"
    return None


def dialogue_sides(text: str) -> tuple[int, int]:
    """How many lines of `text` start with an asking speaker, and with an answering one."""
    asking = answering = 0
    for line in text.split("\n"):
        label = _speaker_label(line)
        if label is None:
            continue
        side = _side(label)
        asking += side == "ask"
        answering += side == "answer"
    return asking, answering


_ALONE = ("岗位", "职位", "点评", "回答", "作答")
_ANSWER_LABELS = ("回答", "候选人回答", "面试者回答", "候选人作答", "作答")


def _label_lines(blocks: Sequence[Block]) -> Iterator[tuple[str, bool]]:
    """The lines a label may start, and whether each is an item's: headings,
    paragraphs' lines, a table's rows as `label：value`, items (`- 岗位：SRE`)."""
    for b in blocks:
        if b.kind == "heading":
            yield b.text, False
        elif b.kind in ("paragraph", "item"):
            yield from ((line, b.kind == "item") for line in b.text.split("\n"))
        elif b.kind == "table":
            yield from ((f"{row[0]}：{row[1]}", False) for row in b.rows if len(row) == 2)


def _labelled(blocks: Sequence[Block]) -> bool:
    """Do headings, paragraphs or tables carry the labelled layout's own labels: a
    numbered 问题N / 第N题, or a Chinese label that says enough alone (岗位, 回答, 点评,
    考察目标, any of three characters or more), or two kinds of label (`经验：` and
    `评价：`; `Position:` and `Verdict:`; never one English word alone, which CSS or code
    says too)?"""
    kinds: set[str] = set()
    for line, item in _label_lines(blocks):
        if len(line) > 2000:
            continue
        fm = match_field(line)
        if fm is not None:
            kind = label_kind(fm)
            label = "".join(fm.group(kind).split()).lower()
            if kind == "answer" and label not in _ANSWER_LABELS:
                continue
            if kind not in ("position", "years", "intro", "goal", "answer", "verdict"):
                continue
            if item and kind == "verdict":
                continue  # `- 面试评价：整体还行` in a 反问 list is what the list says
            if not label.isascii() and (label in _ALONE or len(label) >= 3):
                return True
            if label.isascii() and line[:2].isspace():
                continue  # `  position: absolute;` in code
            kinds.add(kind)
            continue
        qm = question_re().match(line)
        if qm is not None and not line.strip().lower().startswith(("q", "question", "#")):
            groups = qm.groupdict()
            if any(groups.get(g) for g in ("n1", "n2", "n3")):
                return True
    return len(kinds) >= 2


# -- what the file is ----------------------------------------------------------------------------


def _questions(blocks: Sequence[Block]) -> list[Block]:
    return [
        b
        for b in blocks
        if (b.kind == "heading" and question_heading(b.text))
        or (b.kind == "item" and asks_question(b.text))
        or (b.kind == "paragraph" and asks_strictly(b.text))
    ]


def _question_bank(blocks: Sequence[Block], questions: Callable[[], int]) -> bool:
    markers = sum(
        1 for b in blocks if b.kind in ("paragraph", "item", "heading") and reference_marker(b.text)
    )
    return markers >= 2 or (markers >= 1 and markers * 2 >= max(questions(), 1))


def _study_notes(doc: Document, speakers: int) -> bool:
    """Questions as headings (or items), each followed by an explanation."""
    if speakers:
        return False
    blocks = doc.blocks
    heads = [i for i, b in enumerate(blocks) if b.kind == "heading" and question_heading(b.text)]
    if len(heads) < 3:
        return False
    explained = 0
    for n, at in enumerate(heads):
        end = heads[n + 1] if n + 1 < len(heads) else len(blocks)
        under = blocks[at + 1 : end]
        words = "".join(b.text for b in under if b.kind != "heading")
        first_person = words.count("我") + words.lower().count(" i ")
        if any(b.kind == "code" for b in under) or (len(words) >= 200 and first_person == 0):
            explained += 1
    return explained * 3 >= len(heads) * 2


def _dates_list(doc: Document) -> bool:
    lines = [line.strip() for line in doc.text.split("\n") if line.strip()]
    if len(lines) < 4:
        return False
    dated = [line for line in lines if len(line) <= 40 and _date_start_re().match(line)]
    if len(dated) * 10 < len(lines) * 7:
        return False
    return not any(ends_asking(line) for line in lines)


def _speech(doc: Document, markdown: bool, speakers: int) -> bool:
    blocks = doc.blocks
    if markdown or speakers or len(blocks) < 8:
        return False
    if any(b.kind != "paragraph" for b in blocks):
        return False
    text = " " + " ".join(b.text for b in blocks).lower() + " "
    fillers = sum(text.count(word) for word in _FILLERS)
    asking = sum(1 for b in blocks if ends_asking(b.text))
    return fillers * 150 >= len(text) and asking * 10 < len(blocks)


def _own_notes(doc: Document, questions: int) -> bool:
    """A heading of one's notes (知识点, 复习, 面试准备…) or a 自我介绍 draft, and few
    questions; or a long text that hardly asks anything. (Only headings say it: `准备得
    不够` in a record's own words is no sign.)"""
    headings = [b.text for b in doc.blocks if b.kind == "heading"]
    if any(any(word in h for word in _OWN_NOTES_WORDS) for h in headings):
        # (a record may tell how one prepared, under its rounds: `## 面试准备`, `## 一面`)
        return not any(round_named(h) for h in headings)
    if any(b.text.startswith(_SELF_INTRO_OPENINGS) for b in doc.blocks if b.kind == "paragraph"):
        return questions * 4 < len(doc.blocks) or questions < 2
    return len(doc.blocks) >= 30 and questions * 20 < len(doc.blocks)


def _article(doc: Document) -> bool:
    return bool(doc.front_matter) or any(b.kind == "code" for b in doc.blocks) or "](" in doc.text


# a heading that names a collection of questions to learn, not an interview
_BANK_TITLE_WORDS = (
    "高频面试题",
    "常见面试题",
    "面试题汇总",
    "面试题整理",
    "面试题大全",
    "面试题合集",
    "面试题清单",
    "面试题库",
    "题库",
    "interview questions and answers",
    "common interview questions",
)


def _bank_title(doc: Document) -> bool:
    """A heading that names a collection of questions (`前端高频面试题 Q&A`, `面试题汇总`),
    and no heading that names a round: its answers are the writer's, to learn."""
    headings = [b.text for b in doc.blocks if b.kind == "heading"]
    return any(any(w in h.lower() for w in _BANK_TITLE_WORDS) for h in headings) and not any(
        round_named(h) for h in headings
    )


_FAQ_WORDS = ("faq", "frequently asked", "常见问题", "问题解答", "疑难解答")


def _faq(doc: Document) -> bool:
    return any(
        b.kind == "heading" and any(w in b.text.lower() for w in _FAQ_WORDS) for b in doc.blocks
    )


def kind_of(doc: Document, markdown: bool) -> Kind:
    """What the file is: the family of interview record it reads as, or NotATranscript
    with a reason naming what it looks like."""
    counted: list[int] = []

    def questions() -> int:
        """The questions asked, counted only where the answer needs them: a file of the
        labelled layout (most files) is known without reading every paragraph so."""
        if not counted:
            counted.append(len(_questions(doc.blocks)))
        return counted[0]

    asking, answering = dialogue_sides(doc.text)
    speakers = asking + answering
    if _question_bank(doc.blocks, questions) or _bank_title(doc):
        raise NotATranscript(QUESTION_BANK)
    if _study_notes(doc, speakers):
        raise NotATranscript(STUDY_NOTES)
    if _dates_list(doc):
        raise NotATranscript(DATES_LIST)
    if _speech(doc, markdown, speakers):
        raise NotATranscript(SPEECH_TO_TEXT)
    if _labelled(doc.blocks):
        return Kind("labelled", "a label of the labelled layout")
    if _faq(doc):
        raise NotATranscript(FAQ)
    if asking and answering:
        return Kind("dialogue", f"{asking} lines of the asking side, {answering} of the answering")
    if _own_notes(doc, questions()):
        raise NotATranscript(OWN_NOTES)
    if questions() >= 2:
        return Kind("question_list", f"{questions()} questions asked")
    if _article(doc):
        raise NotATranscript(ARTICLE)
    raise NotATranscript(NO_LABELS)
