"""The Q/A family of written records (issue 46): a dialogue written down line by line,
each line opened by who speaks. A pure function over the document model's blocks
(store/transcripts/document.py); a paragraph of several lines is read line by line.

Who speaks, by the line's label (bold or not: the document model has set `**` aside):

- the interviewer: `Q:`, `Q1.`, `问：`, `【问】`, `Interviewer:`, `面试官：`, `张三（面试官）：`,
  and an AI mock interviewer's `AI 🤖:` (`AI`, `Bot`, `Assistant`);
- the candidate: `A:`, `答：`, `【答】`, `Interviewee:`, `Candidate:`, `候选人：`, and the
  mock's `User 👩‍💻:` (`User`, `Me`, `我`);
- a name (`谢飞机：`), when only one side has a role's label and that one name takes
  turns with it (twice at least each way): the other side.

A line without a label goes on the turn before it, but a line wholly in brackets after a
question is a stage direction: of the answer when it says no answer or names the
candidate (`（候选人思考后表示不清楚）`), else no one's words (`（面试官补充了题意）`).

What is a question: each interviewer's turn that asks something (roles.py `asks`), and
every `Q:` / `问：` / `【问】` line, but not small talk (`Can you hear me?`, greetings),
feedback (`Correct! 👍`), or anything after the closing question (`你有什么想问我们的
吗`: what follows is the candidate's own questions). A follow-up (`追问：`, `面试官（追问）：`, `Follow-up:`) is no question of its own.
When some questions are numbered
(`Q1.`, `问题2`, `第3题`), only those are questions, and the interviewer's other asking
turns are follow-ups whose replies belong to the question before them.

What is an answer: only the candidate's own words after the question, before the next
one or an interviewer's remark that asks nothing and is more than a backchannel (roles.py
`backchannel`: `嗯`, `好的` go on; `好的，今天就到这里` ends it) (a heading between them, `### Brute force approach`, does not end it; a heading
does end the closing question's part). An answer that is none (marks.py `non_answer`: `不知道`,
`我不会`, `这块我没怎么接触过，跳过吧`, `（未作答，直接进入下一题）`) leaves the
question unanswered; a question the candidate says nothing to is unanswered (`empty`).

Not this family (None): fewer than two labelled lines of each side, or no question.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache

from ..models import Question
from .document import Block
from .marks import non_answer
from .names import looks_like_name
from .roles import Role, asks, backchannel, closing, small_talk, speaker

# `【问】…`, `[Q] …`, `【答】：…`
_bracket_label_re = cache(
    lambda: re.compile(
        r"[【\[][ \t]*+(?P<label>问|答|Q|A|q|a)[ \t]*+[】\]][ \t]*+[:：]?[ \t]*+(?P<rest>.*)$", re.S
    )
)
# `Label: …`, `Label：…` with a short label; `Q1. …`, `A1: …`
_label_re = cache(lambda: re.compile(r"(?P<label>[^:：\n]{1,24})[:：][ \t]*+(?P<rest>.*)$", re.S))
_numbered_qa_re = cache(
    lambda: re.compile(
        r"(?P<label>[QqAa])[ \t]*+[0-9]{1,3}[ \t]*+[.:：、．)][ \t]*+(?P<rest>.*)$", re.S
    )
)
# a question's own number at its start: `Q1.`, `问题2：`, `第3题`, `Question 4:`
_numbered_question_re = cache(
    lambda: re.compile(
        r"(?:(?i:q|question)[ \t]*+[0-9]{1,3}|问题[ \t]*+[0-9一二三四五六七八九十]{1,3}|"
        r"第[0-9一二三四五六七八九十]{1,3}(?:题|道题|个问题))[ \t]*+[.:：、．)]?[ \t]*+"
    )
)
SHORT = 200  # characters: small talk and the closing question are no longer
_ASKER = {"q", "问", "提问", "追问", "ai", "bot", "assistant", "chatbot", "interviewer ai"}
_ANSWERER = {"a", "答", "回答", "user", "me", "我", "本人", "human", "you"}
# a request roles.asks does not read: `先做个自我介绍吧`, `手写一个LRU`, `比较一下…`
_request_re = cache(
    lambda: re.compile(
        r"(?:请|先|那|那么|好|好的)?[，, ]?(?:你)?(?:先)?(?:做个|做一下|简单)?"
        r"(?:自我介绍|介绍|描述|解释|手写|写一个|写个|实现一个|实现|设计一个|设计|比较|对比|分析|举例|举个例子|列举)(?![得的过])"
    )
)
# a label with a note in brackets: `面试官（追问）`
_qualified_re = cache(
    lambda: re.compile(r"(?P<who>[^()（）]{1,20})[(（](?P<note>[^()（）]{1,20})[)）]")
)
# a remark's label in a dialogue: `点评`, `参考答案`, `Feedback`
_remark_label_re = cache(
    lambda: re.compile(
        r"(?:面试官)?(?:点评|评价|评语|参考|参考答案|答案|解析|分析|总结|备注|注|提示|反馈)"
        r"|(?:feedback|note|notes|comment|tip|hint|reference(?: answer)?|model answer|summary|score"
        r"|final score)"
    )
)
# a follow-up's label: `追问`, `面试官（追问）`, `Interviewer (follow-up)`
_follow_up_re = cache(lambda: re.compile(r"追问|follow\s*-?\s*up|followup"))
_candidate_re = cache(lambda: re.compile(r"候选人|面试者|应聘者|求职者|(?i:candidate|interviewee)"))
_stage_re = cache(lambda: re.compile(r"[(（][^()（）]{1,80}[)）]"))


def _plain(label: str) -> str:
    """A label without its emoji, symbols and spacing, lower case: `AI 🤖` -> `ai`."""
    kept = "".join(
        ch
        for ch in unicodedata.normalize("NFKC", label)
        if not unicodedata.category(ch).startswith(("S", "C", "P")) or ch in "()（）"
    )
    return " ".join(kept.split()).lower()


def _role(label: str) -> Role | None:
    """The role a label names: `Q`, `面试官`, `AI 🤖`, `张三（面试官）`, `面试官（追问）`,
    `Interviewer (follow-up)`; None for any other label (`候选人（参考）` among them: a
    reference answer is no one's turn)."""
    words = _plain(label)
    if words in _ASKER:
        return "interviewer"
    if words in _ANSWERER:
        return "candidate"
    m = _qualified_re().fullmatch(words)
    if m is not None and _follow_up_re().search(m.group("note")):
        words = m.group("who").strip()  # `面试官（追问）`: the interviewer, following up
    _name, role = speaker(words)
    return role


def speaker_line(line: str, names: dict[str, Role] | None = None) -> tuple[Role, str] | None:
    """A line's speaker's role and what they say, when it opens with a label (a role's,
    or one of `names`)."""
    for pattern in (_bracket_label_re, _numbered_qa_re, _label_re):
        m = pattern().match(line)
        if m is not None:
            role = _role(m.group("label"))
            if role is None and names:
                role = names.get(m.group("label").strip())
            if role is not None:
                rest = m.group("rest").strip()
                if pattern is _numbered_qa_re and role == "interviewer":
                    rest = line.strip()  # `Q1. …`: the number stays to be read as one
                return role, rest
    return None


@dataclass
class _Turn:
    role: Role
    lines: list[str] = field(default_factory=list)
    labelled: str = ""  # the label's plain words when it was `Q`/`问` (always a question)
    follow_up: bool = False  # `追问：`, `面试官（追问）：`, `Follow-up:`: no question of its own

    @property
    def text(self) -> str:
        return "\n".join(line for line in self.lines if line)


def _lines(blocks: Sequence[Block]) -> Iterator[str]:
    for block in blocks:
        for raw in block.text.split("\n"):
            if raw.strip():
                yield raw.strip()


def _named(blocks: Sequence[Block]) -> dict[str, Role]:
    """The other side by name, when only one side speaks by a role's label and one name
    takes turns with it (`**面试官**：… / **谢飞机**：…`): at least twice after it and
    twice before it. Nothing when both sides have their labels, or no one name does."""
    sides: set[Role] = set()
    after: dict[str, int] = {}
    before: dict[str, int] = {}
    last: str | None = None  # the label of the last labelled line: "" for a role's
    for line in _lines(blocks):
        said = speaker_line(line)
        if said is not None:
            sides.add(said[0])
            if last:
                before[last] = before.get(last, 0) + 1
            last = ""
            continue
        m = _label_re().match(line)
        if m is None or not looks_like_name(m.group("label").strip()):
            continue
        label = m.group("label").strip()
        if last == "":
            after[label] = after.get(label, 0) + 1
        last = label
    if len(sides) != 1:
        return {}
    named = [label for label, n in after.items() if n >= 2 and before.get(label, 0) >= 2]
    if len(named) != 1:
        return {}
    return {named[0]: "candidate" if sides == {"interviewer"} else "interviewer"}


def _turns(blocks: Sequence[Block], names: dict[str, Role]) -> list[_Turn | None]:
    """The dialogue as turns; None where a heading or a rule breaks it. Lines without a
    label go on the turn before them within their block; a whole block without one only
    when the dialogue goes on after it (a reflection after the last answer is no answer)."""
    found: list[_Turn | None] = []
    current: _Turn | None = None
    waiting: list[str] = []  # unlabelled blocks' lines since the last labelled line
    for block in blocks:
        if block.kind in ("heading", "rule"):
            found.append(None)
            current, waiting = None, []
            continue
        first = True
        for raw in block.text.split("\n"):
            line = raw.strip()
            if not line:
                continue
            said = speaker_line(line, names)
            if said is not None:
                if current is not None:
                    current.lines.extend(waiting)
                waiting = []
                role, rest = said
                kind = _plain(_label_of(line))
                current = _Turn(
                    role,
                    [rest],
                    labelled=kind if kind in ("q", "问") else "",
                    follow_up=_follow_up_re().search(kind) is not None,
                )
                found.append(current)
            elif _someone_else(line):
                current, waiting = None, []  # a reference answer, a remark: no one's turn
            elif (
                current is not None
                and current.role == "interviewer"
                and _stage_re().fullmatch(line)
            ):
                if non_answer(line) is not None or _candidate_re().search(line):
                    current = _Turn("candidate", [line])  # a stage direction of the answer
                    found.append(current)
                # else a note on the interviewer's side (`（面试官补充了题意）`): no one's words
            elif current is not None and (waiting or first):
                waiting.append(line)
            elif current is not None:
                current.lines.append(line)
            first = False
    return found


def _someone_else(line: str) -> bool:
    """Does a line open with a label of what is no one's turn: a speaker with a note
    (`候选人（参考）：`), a remark (`点评：`, `参考答案：`, `Feedback:`, `Tip:`)?"""
    m = _label_re().match(line)
    if m is None:
        return False
    label = _plain(m.group("label"))
    return (
        _qualified_re().fullmatch(label) is not None
        or _remark_label_re().fullmatch(label) is not None
    )


def _label_of(line: str) -> str:
    for pattern in (_bracket_label_re, _numbered_qa_re, _label_re):
        m = pattern().match(line)
        if m is not None:
            return m.group("label")
    return ""


def _asks(turn: _Turn) -> bool:
    text = turn.text
    if len(text) <= SHORT and (small_talk(text) or closing(text)):
        return False
    return (
        bool(turn.labelled)
        or asks(text)
        or _numbered_question_re().match(text) is not None
        or _request_re().match(text) is not None
    )


def read_qa(blocks: Sequence[Block]) -> list[Question] | None:
    """The questions of a Q/A record, numbered 1..n in order, each with the candidate's
    answer; None when the blocks are not such a dialogue."""
    turns = _turns(blocks, _named(blocks))
    said = [t for t in turns if t is not None]
    if (
        sum(t.role == "interviewer" for t in said) < 2
        or sum(t.role == "candidate" for t in said) < 2
    ):
        return None
    numbered = any(
        t.role == "interviewer" and _numbered_question_re().match(t.text) is not None for t in said
    )
    asked: list[tuple[str, list[str]]] = []
    open_ = False  # the candidate's words now answer the last question
    closed = False
    for turn in turns:
        if turn is None:
            closed = False  # a new section: its questions are read again
            continue
        if turn.role == "interviewer":
            text = turn.text
            if len(text) <= SHORT and closing(text):
                open_, closed = False, True
                continue
            if closed or not _asks(turn):
                if not backchannel(text):
                    open_ = False  # a remark (`好的，今天就到这里`): what follows answers nothing
                continue  # `嗯`, `好的`: the answer stays the candidate's words
            is_numbered = _numbered_question_re().match(text) is not None
            if turn.follow_up and asked:
                continue  # what the candidate says to it still answers the question
            if numbered and not is_numbered and not turn.labelled:
                continue  # a follow-up: what the candidate says still answers the question
            question = _numbered_question_re().sub("", text, count=1) if is_numbered else text
            asked.append((question.strip(), []))
            open_ = True
        elif open_ and not closed:
            asked[-1][1].append(turn.text)
    if not asked:
        return None
    found: list[Question] = []
    for number, (question, answers) in enumerate(asked, start=1):
        answer = "\n".join(a for a in answers if a)
        reason = non_answer(answer)
        found.append(
            Question(
                number=number,
                question=question,
                answer=answer,
                answered=reason is None,
                unanswered_reason=reason,
            )
        )
    return found
