"""A meeting transcript made a `Transcript`: each speaker's turns, who is the interviewer
and who the candidate, the questions and their answers, the header's facts.

Who is who: the role words in a speaker's label (面试官, 候选人, Interviewer, Candidate,
`张三（面试官）`), else the header (the name under 候选人/姓名 is the candidate, those
under 面试官 the interviewers; participants marked with their role), else who asks: the
speaker whose utterances end as questions (？, ?, 吗, 呢) most is the interviewer, and of
the others the one who says most the candidate. Every other speaker is an interviewer.

The questions are the interviewer's turns that ask the candidate something (`roles.asks`:
a numbered cue, a question, a request), from the utterance that asks; not small talk,
and none after the closing `你有什么想问我们的吗`. Each answer is what the candidate says
until the next question, unanswered by `answers.unanswered_reason`. Each question keeps
the time its utterance began (`started_at`). Such a file has no summary and no verdict
(unless a verdict label follows the dialogue): none is made up.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
from .meetings import Cue, Meeting, join_cues, read_meeting
from .names import looks_like_name
from .roles import Role, asks, closing, ends_asking, speaker
from .years import parse_years

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


def roles(cues: list[Cue], facts: Facts) -> dict[str, Role]:
    """Each speaker's role; a speaker left out could not be placed."""
    labels = list(dict.fromkeys(c.speaker for c in cues if c.speaker))
    said: dict[str, int] = {label: 0 for label in labels}
    asked: dict[str, int] = {label: 0 for label in labels}
    for c in cues:
        if c.speaker:
            said[c.speaker] += len(c.text)
            asked[c.speaker] += ends_asking(c.text)
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
        found[label] = "interviewer"
    return found


def questions(cues: list[Cue], who: dict[str, Role]) -> list[Question]:
    """The interviewer's questions to the candidate, each with what the candidate said
    until the next one."""
    asked: list[tuple[list[Cue], list[str]]] = []
    for turn in turns(cues):
        role = who.get(turn.label)
        if role == "interviewer":
            if any(closing(c.text) for c in turn.cues):
                break  # what follows is the candidate's questions, not answers
            asking = [i for i, c in enumerate(turn.cues) if asks(c.text)]
            if asking:  # from the first utterance that asks to the last
                asked.append((turn.cues[asking[0] : asking[-1] + 1], []))
        elif role == "candidate" and asked:
            asked[-1][1].append(join_cues([c.text for c in turn.cues]))
    found: list[Question] = []
    for number, (question, answer_turns) in enumerate(asked, start=1):
        answer = block(answer_turns)
        reason = unanswered_reason(answer)
        found.append(
            Question(
                number=number,
                question=join_cues([c.text for c in question]),
                answer=answer,
                answered=reason is None,
                unanswered_reason=reason,
                started_at=question[0].start,
            )
        )
    return found


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
    NotATranscript (skipped, saying what the file is) when no question to the candidate
    is found in it."""
    meeting = read_meeting(text)
    if meeting is None:
        return None
    facts = read_facts(meeting.header)
    who = roles(meeting.cues, facts)
    found = questions(meeting.cues, who) if "candidate" in who.values() else []
    if not found:
        raise NotATranscript(_NO_QUESTIONS[meeting.form])
    name, interviewers = _people(meeting, facts, who)
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
        verdict=verdict or None,
        kind="meeting",
        source=source,
        hash=hash_,
    )
