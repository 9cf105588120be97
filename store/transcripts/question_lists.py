"""The question-list family of written records (issue 46): the questions asked, as list
items (`1.`, `-`, `*`, `1、`, any depth) or under `### Question N` / `问题N` / `Q3`
headings, with what the candidate answered under them or their mark beside them. A pure
function over the document model's blocks (store/transcripts/document.py).

What is read, in order:

- A question heading (`Question 3`, `问题3`, `第3题`, `Q3`, `面试题：…`, `Q: …`; the
  question after it, else the first paragraph under it; its mark as an item's) starts a
  question, and every block under it up to the next heading of its level or above is
  its answer. With speaker labels under it (`**Interviewee:**`, `Candidate:`, `候选人：`,
  `Answer:`), the answer is only what follows the candidate's label (paragraphs and
  blank lines included), not what follows an interviewer's label or comes before both.
- A list item starts a question; its deeper items, and the paragraphs after it when the
  list goes on after them (or the section's other questions have such paragraphs), are
  its answer. Code under it is part of what was asked (`以下两者有什么区别？` and its
  snippet) and a note of the right answer (`参考答案：…`) is no one's: neither is an
  answer. An item that names a group of questions (`技术题`, `手写代码`, `编程：`) is no
  question: the items under it are. A numbered paragraph (`1、…`) reads as an item.
- A mark beside a question (marks.py `split_mark`: `…  ***没答上来***`, `（没答出来）`,
  `，我回答不会`) is the recorded answer: a mark that says no answer (`不会`,
  `确实不会`, `答得不好`, `I don't know`) makes it unanswered; any other mark
  (`答的上拉电阻…`) is the candidate's answer as the record notes it. The mark leaves
  the question's text.
- A question with nothing under it and no mark: the file does not record its answer
  (`answer_recorded=False`), neither answered nor unanswered.

Never questions: the candidate's 反问 / "Questions for us", remarks (`面试评价：…`,
`总的来说…`, `第二天邮件告诉我没过`), sections on the interview (面试评价, 感受, 总结,
结果, 不足, Summary, Feedback), small talk, sign-offs; and nothing after the closing
question (`有什么想问的`) until the next section.

Not this family (None): fewer than two questions and no question heading, items that
read as prose rather than questions, a list of interviews (`8.17 字节一面`), or items that
are a dialogue's lines (`- 候选人：…`: qa.py's).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from ..models import Question
from .answers import compact
from .document import Block
from .marks import non_answer, split_mark
from .qa import speaker_line
from .roles import closing, small_talk, speaker

# `Question 3`, `Question 3: …`, `问题3`, `问题 3：…`, `第3题`, `Q3.` (not `Q&A`), and
# `面试题：…`, `问：…`, `Q: …`
_question_heading_re = cache(
    lambda: re.compile(
        r"(?:(?i:question|q)|问题|题目|第)[ \t]*+(?P<n>[0-9]{1,3}|[一二三四五六七八九十]{1,3})"
        r"[ \t]*+(?:题|道题)?[ \t]*+(?:[.:：、．)）\-—]|$|[ \t])[ \t]*+(?P<rest>.*)$"
        r"|(?:面试题|题目|问题|问|(?i:question|q))[ \t]*+[:：][ \t]*+(?P<asked>\S.*)$",
        re.S,
    )
)
# a numbered paragraph or a number left in an item's text: `1、`, `2.`, `(3)`, `（4）`
_number_re = cache(
    lambda: re.compile(r"(?:[0-9]{1,3}[ \t]*+[、.．)）]|[(（][0-9]{1,3}[)）])[ \t]*+(?=\S)")
)
# a speaker's label opening a paragraph: `Interviewee:`, `候选人：`, `Answer:`
_label_re = cache(lambda: re.compile(r"(?P<label>[^:：\n]{1,24})[:：][ \t]*+(?P<rest>.*)$", re.S))
_ANSWER_WORDS = ("answer", "a", "回答", "答", "我的回答", "my answer", "response")
_ASKER_WORDS = ("question", "q", "问", "提问", "追问", "follow-up", "follow up")

# Sections (a heading, or a short paragraph ending in a colon) that hold no question:
# the candidate's own questions, and what is said about the interview. A section's name
# is such a word, with a few characters around it at most (`面试总结`, `总结一下`,
# `Summary`); 反问 anywhere (`我的反问`).
_remark_section_re = cache(
    lambda: re.compile(
        r"反问|提问环节|我的问题|我问|总结|小结|评价|感受|感想|体会|体验|心得|反思|复盘|不足|结果|"
        r"建议|后记|备注|收获|结论|感悟|参考答案|答案|解析"
    )
)
_remark_section_en_re = cache(
    lambda: re.compile(
        r"(?:my\s+|the\s+|candidate'?s\s+|interview\s+)?(?:questions?\s+(?:for|to)\s+"
        r"(?:us|them|the\s+interviewers?|you)|questions\s+i\s+asked|summary|feedback|"
        r"reflections?|results?|outcome|(?:key\s+)?takeaways?|lessons(?:\s+learned)?|"
        r"conclusions?|verdict|(?:final\s+)?thoughts|impressions?|overall|tips|"
        r"(?:reference|model|sample)\s+answers?|answer\s+key)\b",
        re.I,
    )
)
# An item that is a remark, not a question: `面试评价：…`, `总的来说…`, `第二天邮件告诉我没过`,
# the candidate's 反问 told in a line.
_remark_item_re = cache(
    lambda: re.compile(
        r"^(?:(?:面试)?(?:评价|感受|感觉|总结|结果|结论|体验|反馈|点评|不足)[ \t]*+[:：]"
        r"|总的来说|总体(?:来说|感觉|而言)|整体(?:来说|感觉|而言|还行|还可以)|个人感觉|总之"
        r"|第[0-9一二三两]天|[0-9一二三两]{1,2}天后|后来|面完|(?:最后|结果)?(?:凉了|挂了)"
        r"|收到(?:了)?(?:offer|感谢信|通知)|面试官(?:人|很|非常|比较|挺|说)"
        r"|(?i:overall|in\s+summary|feedback|result|the\s+interviewer\s+(?:was|said)))"
        r"|反问|我问了|我问他|我问面试官"
    )
)
# The closing question as 面经 write it: `有什么想问的`, `你还有什么问题要问面试官`.
_closing_re = cache(
    lambda: re.compile(
        r"(?:还|最后)?有(?:什么|啥|没有|其他|其它|别的)?(?:问题|疑问)?(?:想|要)(?:提问|问|了解)"
        r"(?:的|我|我们|面试官|吗|么)"
    )
)
# A list of the interviews one had, not of questions: `8.17 字节一面`, `腾讯CDG面试`.
_interview_name_re = cache(
    lambda: re.compile(r"(?:[一二三四五六终]面|(?i:hr)面|面试|笔试|意向书|offer|oc|感谢信)$", re.I)
)
# A group of questions, not a question: `编程：`, `技术题`, `手写代码`, `Coding`.
_group_re = cache(
    lambda: re.compile(
        r"(?:技术|算法|编程|代码|场景|基础|项目|八股|智力|笔试|机试|开放|行为|设计)(?:题|题目|问题|相关)?|"
        r"手写(?:代码|题)?|八股文|.{0,6}(?:题|题目|问题|相关|部分)|"
        r"(?i:coding|algorithms?|technical(?:questions)?|behaviou?ral(?:questions)?|systemdesign)"
    )
)
GROUP_LONGEST = 8  # compacted characters of a group's name without a colon
SHORT = 120  # characters: a closing question, small talk or a section's name is no longer
PROSE_LONGEST = 160  # compacted characters: an item longer than this is prose


def _heading_question(text: str) -> str | None:
    """A question heading's text after its number (`""` when it has none); None for any
    other heading."""
    m = _question_heading_re().fullmatch(text.strip())
    if m is None:
        return None
    return (m.group("rest") or m.group("asked") or "").strip()


def _role(label: str) -> str | None:
    """`candidate`, `interviewer` or None for a paragraph's label."""
    words = label.strip().strip("*_ ").lower()
    if words in _ANSWER_WORDS:
        return "candidate"
    if words in _ASKER_WORDS:
        return "interviewer"
    _name, role = speaker(label)
    return role


def _section_label(block: Block) -> str | None:
    """A short paragraph that names the section after it (`不足：`, `编程：`)."""
    text = block.text.strip()
    if block.kind != "paragraph" or "\n" in text or not text.endswith((":", "：")):
        return None
    return text[:-1] if len(text) <= 40 and len(compact(text)) <= 12 else None


def _closes(text: str) -> bool:
    """The closing question: what the candidate says after it is their own questions."""
    if len(text) > SHORT:
        return False  # the closing question is a short line
    return closing(text) or _closing_re().search(compact(text)) is not None


def _remark_section(name: str) -> bool:
    """Does a section's name say it holds no question (`总结`, `面试感受`, `反问`,
    `Summary`, `Questions for us`)? `Interview notes`, `Questions and answers` hold
    questions."""
    name = name.strip()[:SHORT]
    if _remark_section_en_re().match(name) is not None or _closes(name):
        return True
    m = _remark_section_re().search(name)
    if m is None:
        return False
    before, after = compact(name[: m.start()]), compact(name[m.end() :])
    return "反问" in m.group(0) or (len(before) <= 2 and len(after) <= 4)


def remark(text: str) -> bool:
    """Is a list item a remark on the interview, not a question?"""
    head = text.strip()[:40]
    return _remark_item_re().search(head) is not None


def _strip_number(text: str) -> str:
    m = _number_re().match(text.lstrip())
    return text.lstrip()[m.end() :] if m is not None else text.strip()


def _group(text: str) -> bool:
    """Does an item name a group of questions under it (`编程：`, `技术题`)?"""
    t = text.strip()
    if t.endswith((":", "：")):
        return True
    kept = compact(t[: 4 * GROUP_LONGEST])
    return 0 < len(kept) <= GROUP_LONGEST and _group_re().fullmatch(kept) is not None


# A note of what the answer should have been, not the candidate's: `参考答案：…`,
# `完整版推荐答案：[link]`, `Reference answer: …`.
_reference_re = cache(
    lambda: re.compile(
        r"(?:参考|推荐|标准|正确)(?:答案|回答)|(?:^|[：:])答案[：:]|(?i:reference|model|sample|correct)"
        r"\s*answer|(?i:answer\s*key)"
    )
)


def _reference(text: str) -> bool:
    """Is a block under a question a note of the right answer, not the candidate's?"""
    return _reference_re().search(text[:SHORT]) is not None


# The writer's word to the reader under a question, no answer: `建议大家看看…`,
# `这题可以参考…`, `PS：…`, `注：…`, `Tip: …`
_aside_re = cache(
    lambda: re.compile(
        r"(?:建议(?:大家|各位|你|多|先|去|好好)|推荐(?:大家|看|阅读)|(?:这题|这道题|可以|大家可以)参考"
        r"|(?i:p\.?s\.?|tips?|note)[ \t]*+[:：]|(?:注|备注|提示|小贴士)[：:]"
        r"|(?:后来|面完|事后|回去|回来)(?:才|又|再)?(?:查|搜|看|问|知道|发现))"
    )
)


def _aside(block: Block) -> bool:
    """Is a block under a question the writer's aside to the reader (a quote, `建议大家…`,
    `PS：…`), not what the candidate said?"""
    return block.kind == "quote" or _aside_re().match(block.text.strip()) is not None


def _prose(text: str) -> bool:
    """Does an item read as prose (sentences: `…太严重！语速极快…。`), not as a question?"""
    t = text.strip()
    if len(compact(t[: 4 * PROSE_LONGEST])) > PROSE_LONGEST or t.endswith(("。", "！", "!")):
        return True
    return _sentence_inside_re().search(t) is not None


_sentence_inside_re = cache(lambda: re.compile(r"[。！!][^。！!？?）)」”\s]"))


@dataclass
class _Entry:
    """A question as found: its line (and marks), how it was found, what lies under it."""

    text: str
    marks: tuple[str, ...]
    heading: bool
    level: int  # a heading's level; an item's depth
    group: bool = False  # a group's name (`编程：`), no question
    run: int = 0  # the section it is in: a heading, a rule or a section's label starts one
    under: list[Block] = field(default_factory=list)
    # paragraphs after an item, kept apart until the list goes on after them
    after: list[Block] = field(default_factory=list)
    noted: str = ""  # the item's own lines after its first that note the answer


# An item's next line that notes how it was answered (`我讲了…`, `回答：…`, `面试官追问…`,
# `I said…`): not the question's text. Any other next line may be the question wrapped.
_noted_re = cache(
    lambda: re.compile(r"(?:我|答[:：]|回答|面试官|当时|(?i:i|i'm|i've|my|answered)\b)")
)


def _noted(text: str) -> tuple[str, str]:
    """An item's question and the lines under its first that note its answer."""
    first, _, rest = text.partition("\n")
    if rest.strip() and _noted_re().match(rest.lstrip()) is not None:
        return first.rstrip(), rest.strip()
    return text, ""


def _lines(block: Block) -> list[Block]:
    """A paragraph whose every line is numbered (`1、…\\n2、…`) as items, one a line; a
    numbered paragraph as an item; any other block as it is."""
    if block.kind != "paragraph":
        return [block]
    lines = [line for line in block.text.split("\n") if line.strip()]
    if lines and all(_number_re().match(line.lstrip()) for line in lines):
        return [
            Block("item", _strip_number(line), marks=block.marks, ordered=True, line=block.line + i)
            for i, line in enumerate(lines)
        ]
    return [block]


def _entries(blocks: Sequence[Block]) -> list[_Entry]:
    found: list[_Entry] = []
    current: _Entry | None = None
    run = 0
    skip = False  # in a section that holds no question
    closed = False  # after the closing question, until the next section
    for whole in blocks:
        for block in _lines(whole):
            if block.kind in ("heading", "rule") or _section_label(block) is not None:
                run += 1
            if block.kind == "heading":
                rest = _heading_question(block.text)
                if rest is not None:
                    current = _Entry(rest, block.marks, heading=True, level=block.level)
                    found.append(current)
                    skip = closed = False
                elif current is not None and current.heading and block.level > current.level:
                    pass  # a heading inside the question's (`#### Follow-up`): still its answer
                else:
                    current = None
                    skip, closed = _remark_section(block.text), False
                continue
            if block.kind == "rule":
                current = None
                continue
            label = _section_label(block)
            if label is not None and (current is None or not current.heading):
                current = None
                skip, closed = _remark_section(label), False
                continue
            if skip:
                continue
            if current is not None and current.heading:
                current.under.append(block)
                continue
            if block.kind == "item":
                if current is not None and block.level > current.level:
                    if not current.under and not current.after and _group(current.text):
                        current.group = True  # a group's name: its items are the questions
                    else:
                        current.under.append(block)
                        continue
                elif current is not None and current.after:
                    current.under.extend(current.after)  # the list goes on: they were its answer
                    current.after = []
                text = block.text.strip()
                if closed or remark(text) or (len(text) <= SHORT and small_talk(text)):
                    current = None
                    continue
                if _closes(text):
                    current, closed = None, True
                    continue
                asked, noted = _noted(_strip_number(text))
                current = _Entry(
                    asked, block.marks, heading=False, level=block.level, run=run, noted=noted
                )
                found.append(current)
                continue
            if current is not None and not remark(block.text):
                current.after.append(block)
            else:
                current = None
    answered_after = {
        e.run for e in found if not e.heading and any(b.kind == "paragraph" for b in e.under)
    }
    found = [e for e in found if not e.group]
    for entry in found:
        if entry.after and entry.run in answered_after:
            entry.under.extend(entry.after)  # other questions' answers are paragraphs too
        entry.after = []
    return found


def _answer(entry: _Entry) -> tuple[str, str]:
    """The question's text and the answer under a question heading: the first paragraph
    is the question when the heading has none; the candidate's labelled words, else all."""
    question = entry.text
    under = list(entry.under)
    if not question and under and under[0].kind == "paragraph":
        first = under[0].text.strip()
        m = _label_re().match(first)
        if m is None or _role(m.group("label")) is None:
            question, under = first, under[1:]
        elif _role(m.group("label")) == "interviewer":
            question, under = m.group("rest").strip(), under[1:]
    said = [_speaker(block) for block in under]
    if not any(role == "candidate" for role, _ in said):
        if any(role == "interviewer" for role, _ in said):
            return question, ""  # only the interviewer speaks: no answer is recorded
        return question, "\n\n".join(t for t in (_block_text(b) for b in under) if t)
    texts: list[str] = []
    speaking: str | None = None  # before the first label: no one's answer
    for block, (role, rest) in zip(under, said, strict=True):
        if role is not None:
            speaking, text = role, rest
        else:
            text = _block_text(block)
        if speaking == "candidate" and text:
            texts.append(text)
    return question, "\n\n".join(texts)


def _speaker(block: Block) -> tuple[str | None, str]:
    """Who a block's label names (`candidate`, `interviewer`, None) and what follows it."""
    m = _label_re().match(block.text.strip())
    role = _role(m.group("label")) if m is not None else None
    if m is None or role is None:
        return None, ""
    return role, m.group("rest").strip()


def _block_text(block: Block, base: int = 0) -> str:
    """A block under a question as text; an item as a list line, indented from `base`."""
    if block.kind == "table":
        return "\n".join(" | ".join(row) for row in block.rows)
    if block.kind == "item":
        return "  " * max(block.level - base, 0) + "- " + block.text.strip()
    return block.text.strip()


def _question(number: int, entry: _Entry) -> Question | None:
    if entry.heading:
        question, answer = _answer(entry)
        question, mark = split_mark(question, entry.marks)
    else:
        question, mark = split_mark(entry.text, entry.marks)
        answer = "\n".join(
            [entry.noted] * bool(entry.noted)
            + [
                _block_text(b, entry.level + 1)
                for b in entry.under
                if b.kind != "code" and not _reference(b.text) and not _aside(b)
            ]
        )
    question = question.strip()
    if not question:
        return None
    if mark:
        answer = f"{mark}\n{answer}".strip()
    if not answer:
        return Question(number=number, question=question, answer_recorded=False)
    reason = non_answer(mark) if mark and non_answer(mark) else non_answer(answer)
    return Question(
        number=number,
        question=question,
        answer=answer,
        answered=reason is None,
        unanswered_reason=reason,
    )


def read_question_list(blocks: Sequence[Block]) -> list[Question] | None:
    """The questions of a question-list record, numbered 1..n in order, each with its
    answer, its mark, or `answer_recorded=False`; None when the blocks are not a list of
    questions."""
    entries = _entries(blocks)
    headings = sum(e.heading for e in entries)
    items = [e for e in entries if not e.heading]
    if headings == 0:
        if len(items) < 2:
            return None
        said = [speaker_line(e.text.strip()) for e in items]
        if sum(s is not None and s[0] == "candidate" for s in said) >= 2:
            return None  # a dialogue's lines as items: the Q/A family's
        prose = sum(_prose(e.text) for e in items)
        if prose * 3 > len(items):
            return None
        named = sum(
            _interview_name_re().search(compact(e.text[-SHORT:])) is not None for e in items
        )
        if named * 2 > len(items):
            return None  # a list of interviews (`8.17 字节一面`), not of questions
    found: list[Question] = []
    for entry in entries:
        q = _question(len(found) + 1, entry)
        if q is not None:
            found.append(q)
    return found or None
