"""A meeting transcript made a `Transcript`: each speaker's turns, who is the interviewer
and who the candidate, the questions and their answers, the header's facts.

Who is who: the role words in a speaker's label (面试官, 候选人, Interviewer, Candidate,
`张三（面试官）`), else the header (the name under 候选人/姓名 is the candidate, those
under 面试官 the interviewers; participants marked with their role), else who asks: the
speaker who asks most before the closing question (a question, a request: `roles.asks`)
is the interviewer, and of the others the one who says most the candidate. Every other
speaker who asks something is an interviewer too.

The questions are the interviewer's turns that ask the candidate something (`roles.asks`:
a numbered cue, a question, a request), from the utterance that asks; not small talk,
and none after the closing `你有什么想问我们的吗`. Each answer is what the candidate says
until the next question, unanswered by `answers.unanswered_reason`. Each question keeps
the time its utterance began (`started_at`). Such a file has no summary and no verdict
(unless a verdict label follows the dialogue): none is made up.

Before any of that, what the recording is (`meeting_kinds.py`): when it does not state
its roles, a workshop, a work meeting or speech-to-text with no questions to anyone is
refused, saying so. A recording without speaker labels that reads as an interview is
returned with `questions_read` False: who asked and who answered cannot be known.

An answer is only the candidate's turns after its question and before the next one,
and an interviewer's turn that says something of substance without asking, once the
candidate has answered, ends it: what the candidate says after the interviewer's remark
is not the answer to the earlier question. An interviewer who asks again before the candidate has said anything (`…？`,
`No worries.`, `Next question: …？`) leaves the first question unanswered. Every meeting
returned keeps its dialogue as written in `body`, a `Name: text` line a turn.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from ..models import Question, Transcript
from .answers import unanswered_reason
from .dates import parse_interview_date
from .drafts import block
from .errors import (
    DIALOGUE_NO_QUESTIONS,
    MEETING_TEXT_NO_QUESTIONS,
    SRT_NO_QUESTIONS,
    VTT_NO_QUESTIONS,
    NotATranscript,
)
from .meeting_facts import Facts, read_facts
from .meeting_kinds import check_kind, sentences, unlabelled
from .meetings import Cue, Meeting, join_cues, read_meeting, stage_direction
from .names import looks_like_name
from .roles import (
    Role,
    asks,
    backchannel,
    closing,
    ends_asking,
    moves_on,
    numbered_cue,
    speaker,
)
from .years import parse_years

Asks = Callable[[str], bool]  # does an utterance ask something (`roles.asks`)

_NO_QUESTIONS = {
    "vtt": VTT_NO_QUESTIONS,
    "srt": SRT_NO_QUESTIONS,
    "timed": MEETING_TEXT_NO_QUESTIONS,
    "dialogue": DIALOGUE_NO_QUESTIONS,
}


@dataclass
class Turn:
    """Consecutive utterances of one speaker."""

    label: str
    cues: list[Cue] = field(default_factory=list)


def turns(cues: list[Cue]) -> list[Turn]:
    found: list[Turn] = []
    for cue in cues:
        if not found or found[-1].label != cue.speaker:
            found.append(Turn(cue.speaker))
        found[-1].cues.append(cue)
    return found


def _name(label: str) -> str | None:
    name, _role = speaker(label)
    return name if name is not None and looks_like_name(name) else None


def stated_roles(cues: list[Cue], facts: Facts) -> dict[str, Role]:
    """The roles the recording states: role words in a speaker's label, the header's
    candidate and interviewers, the participants it marks."""
    labels = list(dict.fromkeys(c.speaker for c in cues if c.speaker))
    marked = {n: r for n, r in facts.participants if n is not None and r is not None}
    found: dict[str, Role] = {}
    for label in labels:
        name, role = speaker(label)
        if role is None and name is not None:
            if name == facts.name:
                role = "candidate"
            elif name in facts.interviewers:
                role = "interviewer"
            else:
                role = marked.get(name)
        if role is not None:
            found[label] = role
    return found


def roles(cues: list[Cue], facts: Facts, ask: Asks = asks) -> dict[str, Role]:
    """Each speaker's role: those stated, then who asks (`roles.asks`: a question, a
    request, before the closing question) most; a speaker left out could not be placed
    (one who neither answers nor asks anything is nobody's interviewer)."""
    labels = list(dict.fromkeys(c.speaker for c in cues if c.speaker))
    said: dict[str, int] = {label: 0 for label in labels}
    asked: dict[str, int] = {label: 0 for label in labels}
    closed = False  # after the closing question, the candidate asks: not counted
    for c in cues:
        if c.speaker:
            said[c.speaker] += len(c.text)
            if not closed and ask(c.text):
                asked[c.speaker] += 1
            closed = closed or closing(c.text)
    found = stated_roles(cues, facts)
    rest = [label for label in labels if label not in found]
    if "candidate" not in found.values() and rest:
        if "interviewer" not in found.values():
            ranked = sorted(rest, key=lambda label: asked[label], reverse=True)
            if len(ranked) < 2 or asked[ranked[0]] == asked[ranked[1]]:
                return found  # nobody asks more than the others: who is who is unknown
            found[ranked[0]] = "interviewer"
            rest.remove(ranked[0])
        if rest:
            candidate = max(rest, key=lambda label: said[label])
            found[candidate] = "candidate"
            rest.remove(candidate)
    for label in rest:
        if asked[label]:
            found[label] = "interviewer"
    return found


def _asked_in(cues: list[Cue], ask: Asks = asks) -> list[list[Cue]]:
    """The questions of one interviewer's turn: from an utterance that asks to the last
    that asks (a rephrase, `I mean, events that arrive late.`, goes on with it), unless
    the interviewer, having asked, lets it go (`No worries.`, `没关系`) or names the next
    question before asking again: then the first was left unanswered and the next is a
    question of its own."""
    found: list[list[tuple[Cue, bool]]] = []  # each question's utterances, and whether each asks
    moved = False  # since the last question ended, the interviewer let it go
    for c in cues:
        if ask(c.text):
            last = next((q for q, asking in reversed(found[-1]) if asking), None) if found else None
            if last is not None and (moved or numbered_cue(c.text)) and ends_asking(last.text):
                found.append([(c, True)])
            elif found:
                found[-1].append((c, True))
            else:
                found.append([(c, True)])
            moved = False
        elif found:
            moved = moved or moves_on(c.text)
            found[-1].append((c, False))  # a question across captions, or rephrased
    for question in found:  # a question ends with its last utterance that asks
        while len(question) > 1 and not question[-1][1]:
            question.pop()
    return [[c for c, _ in question] for question in found]


def questions(cues: list[Cue], who: dict[str, Role], ask: Asks = asks) -> list[Question]:
    """The interviewer's questions to the candidate, each with what the candidate said
    after it, until the next question or the interviewer's next remark."""
    asked: list[tuple[list[Cue], list[str]]] = []
    listening = False  # are the candidate's turns still the answer to the last question?
    for turn in turns(cues):
        role = who.get(turn.label)
        if role == "interviewer":
            if any(closing(c.text) for c in turn.cues):
                break  # what follows is the candidate's questions, not answers
            found = _asked_in(turn.cues, ask)
            if found:
                asked.extend((question, []) for question in found)
                listening = True
            elif _answered(asked) and not all(backchannel(c.text) for c in turn.cues):
                # a remark after the answer: what follows answers nothing asked (a remark
                # before it, `I mean in production.`, leaves the question open)
                listening = False
        elif (role == "candidate" or _noted(turn)) and asked and listening:
            asked[-1][1].append(join_cues([c.text for c in turn.cues]))
    found_questions: list[Question] = []
    for number, (question, answer_turns) in enumerate(asked, start=1):
        answer = block(answer_turns)
        reason = unanswered_reason(answer)
        found_questions.append(
            Question(
                number=number,
                question=join_cues([c.text for c in question]),
                answer=answer,
                answered=reason is None,
                unanswered_reason=reason,
                started_at=question[0].start,
            )
        )
    return found_questions


def _noted(turn: Turn) -> bool:
    """A note taker's line of no speaker (`（未作答，直接进入下一题）`): what became of the
    answer, kept with it as written."""
    return not turn.label and all(stage_direction(c.text) for c in turn.cues)


def _answered(asked: list[tuple[list[Cue], list[str]]]) -> bool:
    """Has the candidate said something to the last question that is not a question of
    their own (`The streaming one?`)?"""
    return bool(asked) and any(not ends_asking(said) for said in asked[-1][1])


def body_of(cues: list[Cue], labelled: bool = True) -> str:
    """The dialogue as written: a `Name: text` line a turn (a speaker's consecutive
    utterances joined); a recording without speakers, its words as sentences, a line
    for each few (a `Note: …` a caption begins with kept as written)."""
    if labelled:
        return "\n".join(
            f"{turn.label}: {join_cues([c.text for c in turn.cues])}"
            if turn.label
            else join_cues([c.text for c in turn.cues])
            for turn in turns(cues)
        )
    # sentences gathered into lines of about 300 characters
    lines: list[str] = []
    line: list[str] = []
    size = 0
    written = [Cue("", f"{c.speaker}: {c.text}" if c.speaker else c.text) for c in cues]
    for sentence in sentences(written):
        line.append(sentence)
        size += len(sentence) + 1
        if size >= 300:
            lines.append(join_cues(line))
            line, size = [], 0
    if line:
        lines.append(join_cues(line))
    return "\n".join(lines)


def _people(meeting: Meeting, facts: Facts, who: dict[str, Role]) -> tuple[str | None, list[str]]:
    """The candidate's name and the interviewers: the header's, else the speakers' and
    the participants' names where their role is known."""
    name = facts.name
    interviewers = list(facts.interviewers)
    named = [(_name(label), role) for label, role in who.items()]
    named += [(n, r) for n, r in facts.participants if r is not None]
    for n, role in named:
        if n is None:
            continue
        if role == "candidate":
            name = name or n
        elif n not in interviewers and n != name:
            interviewers.append(n)
    return name, interviewers


def meeting_transcript(text: str, id_: str, source: str, hash_: str) -> Transcript | None:
    """The `Transcript` of a meeting transcript's text; None when `text` is none.
    NotATranscript (skipped, saying what the file is) when the recording is not an
    interview (`meeting_kinds.py`) or no question to the candidate is found in it."""
    meeting = read_meeting(text)
    if meeting is None:
        return None
    facts = read_facts(meeting.header)
    if not meeting.cues:
        raise NotATranscript(_NO_QUESTIONS[meeting.form])
    if not _labelled(meeting.cues):  # who asked and who answered is unknown
        unlabelled(meeting.cues)
        return _transcript(meeting, facts, id_, source, hash_, [], None, [], read=False)
    ask = cache(asks)  # (each utterance read once, however many steps ask about it)
    if not stated_roles(meeting.cues, facts):
        check_kind(meeting.cues, _NO_QUESTIONS[meeting.form], ask)
    who = roles(meeting.cues, facts, ask)
    found = questions(meeting.cues, who, ask) if "candidate" in who.values() else []
    if not found:
        raise NotATranscript(_NO_QUESTIONS[meeting.form])
    name, interviewers = _people(meeting, facts, who)
    return _transcript(meeting, facts, id_, source, hash_, found, name, interviewers, read=True)


def _labelled(cues: list[Cue]) -> bool:
    """Does the recording say who speaks: two speakers at least, named in half its
    utterances at least (a caption of Whisper's that begins `Note: ` names nobody)?"""
    named = [c.speaker for c in cues if c.speaker]
    return len(set(named)) >= 2 and len(named) * 2 >= len(cues)


def _transcript(
    meeting: Meeting,
    facts: Facts,
    id_: str,
    source: str,
    hash_: str,
    found: list[Question],
    name: str | None,
    interviewers: list[str],
    *,
    read: bool,
) -> Transcript:
    verdict = block(meeting.verdict) if meeting.verdict is not None else ""
    return Transcript(
        id=id_,
        position=facts.position,
        years=parse_years(facts.years_text) if facts.years_text else None,
        years_text=facts.years_text,
        name=name,
        interviewers=interviewers,
        interviewed_at=parse_interview_date(facts.date_text) if facts.date_text else None,
        interviewed_at_text=facts.date_text,
        round=facts.round,
        questions=found,
        questions_read=read,
        body=body_of(meeting.cues, labelled=read),
        verdict=verdict or None,
        kind="meeting",
        source=source,
        hash=hash_,
    )
