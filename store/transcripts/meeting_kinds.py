"""What a meeting recording is, with the evidence, before any fact is read from it: an
interview (one side asks the other about their experience, their skills or the job;
a podcast or a user-research interview of one guest counts), or something else, each
refused with a reason naming it (`NotATranscript`).

The evidence, in this order (docs/formats.md, "Meeting recordings"):

1. Who speaks. A recording without speaker labels (Whisper's WebVTT or SRT, plain
   speech-to-text) cannot say who asked and who answered: it is an interview when it
   asks someone, in the second person, about themselves or their work (`unlabelled`),
   else speech-to-text with no questions to anyone.
2. Roles the recording states: a role word in a speaker's label (面试官, Candidate,
   `Alice (Interviewer)`) or the header (候选人：张三, Otter's "Interviewer is Jonas
   Rosland"). Then it is an interview, as stated.
3. Otherwise how many speak: five or more people who say something beyond greetings
   (a workshop, a class, a webinar) are not an interview; nor are three or four when the
   one who asks most speaks to the group (`you all`, `anyone`, 大家, 各位).
4. Otherwise what is asked: the questions of the one who asks most that are about the
   other (`Tell me about…`, `How did you…`, 介绍一下, 你之前…, a question of knowledge:
   原理, 区别, `explain`), against the utterances of anyone that plan or discuss work
   together (`should we`, `we need to`, the deadline, the sprint, 排期, 上线, 我们需要; in a
   question, or a line of 300 characters at most, not a monologue). No question about
   the other, or more planning than interviewing, or planning while both sides ask as
   much: a work meeting.

Pure functions over the cues (`meetings.Cue`); `dialogue.py` calls `check_kind` first.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from .errors import MEETING_MANY_SPEAKERS, SPEECH_NO_QUESTIONS, WORK_MEETING, NotATranscript
from .meetings import Cue, join_cues
from .roles import asks, closing, small_talk

MANY = 5  # this many people speaking (beyond greetings) make a workshop, not an interview
_EXCHANGE = 300  # an utterance this long at most is a line of an exchange, not a monologue

# (Each pattern runs over `_plain`: lower case, each run of white space one space, so
# none of them meets a run of spaces to backtrack on. A word's start is checked by
# `_found`, not by a leading `\b`: so the engine skips to where a word could begin.)
_YOU = r"you\b|your\b|yours\b|yourself\b|你|您"
_you_re = cache(lambda: re.compile(_YOU))
# speaking to a group, not to one person
_group_re = cache(
    lambda: re.compile(
        r"you all\b|y'all\b|you guys\b|all of you\b|everyone\b|everybody\b"
        r"|anyone\b|anybody\b|folks\b|大家|各位|同学们|在座"
    )
)
# a question about the one asked: their experience, skills, choices, views, knowledge
_about_them_re = cache(
    lambda: re.compile(
        r"tell (?:me|us) (?:a (?:bit|little) |more |something )?about\b|walk (?:me|us) through\b"
        r"|introduce yourself\b|about yourself\b"
        r"|your (?:experience|background|role|career|strengths?|weakness(?:es)?|previous"
        r"|last (?:job|role|company|position|project)|current (?:job|role|company)|journey"
        r"|motivation|inspiration|approach|process|team)\b"
        r"|have you (?:ever|worked|used|built|done|had|led|managed|been)\b"
        r"|(?:how|why|when|where|what) (?:did|do|would|will|have|are|were) you\b"
        r"|what (?:made|makes|got|inspired|led) you\b|how (?:long|many|much)\b"
        r"|what (?:is|was|are|were) the (?:difference|hardest|trickiest|biggest|most)\b"
        r"|what kind of\b|what (?:is|was) it like\b|describe\b|explain\b"
        r"|a time (?:when )?you\b|why do you want\b|are you (?:familiar|comfortable)\b"
        r"|do you (?:know|have experience|enjoy|like|prefer)\b|what is it about\b"
        r"|what(?: is|'s| are) (?:a|an)\b|difference between\b"
        r"|how (?:does|do|would|could|can) (?:a|an|the|this|it)\b"
        r"|自我介绍|介绍一下|介绍下|讲讲|说说|谈谈|聊聊|讲一下|说一下|描述一下|经历|经验"
        r"|(?:你|您)(?:之前|以前|上一份|现在|目前|在|负责|做过|做的|觉得|认为|为什么|怎么|如何|了解"
        r"|知道|用过|熟悉|擅长|会|能|有没有|是怎么|期望|为啥)"
        r"|为什么(?:选择|想|要|离职|换|离开|来)|原理|区别|怎么(?:实现|设计|做|理解|保证|解决)"
        r"|如何(?:实现|设计|理解|保证|解决)|了解吗|知道吗|用过吗|熟悉吗|有哪|哪几种|哪些|是什么"
    )
)
# planning or discussing work together: we, the schedule, the tickets
_planning_re = cache(
    lambda: re.compile(
        r"(?:should|shall|do|did|are|will|would|must) we\b"
        r"|we (?:need|should|have to|must|are going to)\b|deadlines?\b|sprints?\b|tickets?\b|backlog\b"
        r"|roadmap\b|milestones?\b|release\b|launch\b|deploy(?:ment)?\b|rollout\b"
        r"|agenda\b|action items?\b|next steps?\b|follow up\b|stand-?up\b|sync\b"
        r"|schedule\b|timeline\b|eta\b|by (?:monday|tuesday|wednesday|thursday|friday"
        r"|tomorrow|end of)\b|next (?:week|sprint|month|quarter)\b|this week\b"
        r"|q[1-4]\b|budget\b|client\b|stakeholders?\b|status\b|block(?:ed|ers?)\b"
        r"|排期|上线|发布|迭代|需求|进度|对齐|跟进|同步|周会|例会|下周|明天|周[一二三四五]前|截止"
        r"|里程碑|待办|分工|负责人|评审|版本|工期|延期|提测|验收"
        r"|我们(?:要|需要|是不是|能不能|得|这周|本周)(?!聊|问|看看你)|咱们(?:要|需要|得|这周|本周)"
    )
)


def _plain(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).lower().replace("’", "'").split())


def _found(regex: re.Pattern[str], plain: str) -> bool:
    """Does `regex` match in `plain` where a word begins (a Latin match not inside a
    word; a Chinese one anywhere)?"""
    for m in regex.finditer(plain):
        at = m.start()
        if at == 0 or not (plain[at].isascii() and plain[at].isalnum()):
            return True
        before = plain[at - 1]
        if not (before.isalnum() or before == "_"):
            return True
    return False


def about_them(text: str) -> bool:
    """Does an utterance that asks ask the one it speaks to about themselves, their work
    or what they know (not the group, not a plan of ours)?"""
    plain = _plain(text)
    return _found(_about_them_re(), plain) and not _found(_group_re(), plain) and not planning(text)


def planning(text: str) -> bool:
    """Does an utterance plan or discuss work together (`should we`, the deadline, 排期)?"""
    plain = _plain(text)
    return _found(_planning_re(), plain) and "yourself" not in plain


def addressed(text: str) -> bool:
    """Does an utterance of an unlabelled recording ask someone, in the second person,
    about themselves or their work?"""
    plain = _plain(text)
    return (
        asks(text)
        and _found(_you_re(), plain)
        and _found(_about_them_re(), plain)
        and not _found(_group_re(), plain)
    )


SENTENCE_ENDS = (".", "?", "!", "。", "？", "！", "…")
_LONGEST = 400  # a caption run with no sentence end is cut here (no one sentence is longer)


def _ends_sentence(text: str) -> bool:
    return text.rstrip("\"'”」）)").endswith(SENTENCE_ENDS)


def sentences(cues: Iterable[Cue], longest: int = _LONGEST) -> list[str]:
    """The words of unlabelled cues as sentences, `longest` characters at most: a caption
    may end mid-sentence, and a question may end in the next one. (Each caption is
    joined once: linear in the captions, however few sentences end.)"""
    found: list[str] = []
    current: list[str] = []
    size = 0
    for cue in cues:
        current.append(cue.text)
        size += len(cue.text) + 1
        if _ends_sentence(cue.text) or size >= longest:
            found.append(join_cues(current))
            current, size = [], 0
    if current:
        found.append(join_cues(current))
    return found


def unlabelled(cues: list[Cue]) -> bool:
    """Is a recording without speakers an interview: does it ask someone, in the second
    person, about themselves or their work, twice at least? Raises NotATranscript when
    nobody is asked anything."""
    asked = sum(1 for s in sentences(cues) if addressed(s))
    if asked < 2:
        raise NotATranscript(SPEECH_NO_QUESTIONS)
    return True


@dataclass(frozen=True)
class Evidence:
    """What the utterances show: who speaks beyond greetings, who asks how often, and how
    many of the asker's questions are about the other against how much is planning."""

    speakers: list[str]
    asker: str | None
    interviewing: int
    planned: int
    asked_by_asker: int
    asked_by_others: int
    to_the_group: int


def evidence(cues: list[Cue], ask: Callable[[str], bool] = asks) -> Evidence:
    speakers: dict[str, None] = {}  # (in the order they first say more than a greeting)
    for c in cues:
        if c.speaker and c.speaker not in speakers and not small_talk(c.text):
            speakers[c.speaker] = None
    asking = [bool(c.speaker) and ask(c.text) for c in cues]  # each utterance read once
    asked: dict[str, int] = {}
    for c, asks_ in zip(cues, asking, strict=True):
        if asks_:
            asked[c.speaker] = asked.get(c.speaker, 0) + 1
        elif c.speaker and closing(c.text):
            break  # the other side's questions after this are theirs to ask
    asker = max(asked, key=lambda s: asked[s]) if asked else None
    interviewing = planned = to_the_group = 0
    for c, asks_ in zip(cues, asking, strict=True):
        if (asks_ or len(c.text) <= _EXCHANGE) and planning(c.text):
            planned += 1  # (a question, or a line of an exchange: not a monologue)
        if asks_ and c.speaker == asker:
            interviewing += about_them(c.text)
            to_the_group += _found(_group_re(), _plain(c.text))
    return Evidence(
        speakers=list(speakers),
        asker=asker,
        interviewing=interviewing,
        planned=planned,
        asked_by_asker=asked.get(asker, 0) if asker else 0,
        asked_by_others=sum(n for s, n in asked.items() if s != asker),
        to_the_group=to_the_group,
    )


def check_kind(cues: list[Cue], no_question: str, ask: Callable[[str], bool] = asks) -> None:
    """For a recording whose roles it does not state: return when it reads as an
    interview; raise NotATranscript naming what it is otherwise (`no_question`, the
    form's own reason, when nobody is asked anything)."""
    seen = evidence(cues, ask)
    if len(seen.speakers) >= MANY or (len(seen.speakers) > 2 and seen.to_the_group >= 2):
        raise NotATranscript(MEETING_MANY_SPEAKERS)
    if seen.asker is None:
        raise NotATranscript(no_question)
    if seen.interviewing == 0:
        raise NotATranscript(WORK_MEETING if seen.planned else no_question)
    both_ask = seen.asked_by_others * 2 >= seen.asked_by_asker
    if seen.planned > seen.interviewing or (seen.planned and both_ask):
        raise NotATranscript(WORK_MEETING)
