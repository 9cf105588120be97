"""Unsupported claims: a sentence of the summary, the verdict or a reviewer's note that
credits the candidate with an answer, a view or a skill on a question left unanswered
(and not answered later by a follow-up in the thread).

A sentence speaks of a question when it names it (`问题2`, `Q5-Q10`) or when the words
it shares with the question and its goal, and with no answer given, weigh enough
(topics.py). A sentence that names no question and shares no such words is never
flagged. Only its crediting clauses count (credits.py, moods.py): a clause that says a
question was not answered, suggests what to ask next, wishes, doubts, or a sentence
that asks, is no claim."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, Field

from store.models import Candidate, Followup, Transcript
from store.scripts import fold

from .credits import crediting
from .references import naming, references
from .sentences import sentences, unquoted
from .topics import Topics, name_like, tokens, topics

_CJK = re.compile(r"[\u3400-\u9fff]")

Source = Literal["summary", "verdict", "note"]

# how much the shared words (and phrases) must weigh: two words of one question each
# (ln 6 + ln 3 for a transcript of five questions), or one long specific word (`优缺点`,
# `LazyBuilder`); a plain Latin word alone (`training`) never decides
ENOUGH = 2.5
_LONG_CJK = re.compile(r"^[\u3400-\u9fff]{3,}$")
_LONG_LATIN = re.compile(r"^[a-z][\w+#.\-]{2,}$")


class Claim(BaseModel):
    """One unsupported claim: where it was said, the sentence as written, the questions
    it credits that went unanswered, and the words that decided (empty when the sentence
    named the question)."""

    source: Source
    text: str
    questions: list[int] = Field(default_factory=list)
    words: list[str] = Field(default_factory=list)
    by: str | None = None  # a note's author (a Slack user id)
    ts: str | None = None  # a note's time (its Slack ts)

    def as_json(self) -> dict[str, Any]:
        """`show --json`'s form: `by` and `ts` for a note only."""
        return self.model_dump(exclude_none=self.source != "note")


class NoteText(BaseModel):
    """A reviewer's words: a thread reply, a decision's note, the hiring decision's."""

    by: str
    ts: str
    text: str


@dataclass(frozen=True)
class _Evidence:
    """What a sentence shares with one question: its words (and phrases), and whether
    one Chinese word alone (`优缺点`) decided (a name alone, `EmbeddingColumn`, is no
    lone word: it never yields)."""

    words: list[str]
    lone_word: bool


def _decides(
    t: Topics, ts: list[str], capitalised: frozenset[str], number: int
) -> _Evidence | None:
    """What the sentence shares with question `number`, when it weighs enough to say the
    sentence speaks of it (`ts`: the sentence's tokens; `capitalised`: the Latin words it
    writes as names or capitalised)."""
    shared = t.shared([w for w in ts if len(w) >= 2], number)
    phrases = t.shared_phrases(ts, number)
    if not shared and not phrases:
        return None
    weight = sum(t.weight(w) for w in [*shared, *phrases])
    names = t.names.get(number, frozenset()) | (t.titled.get(number, frozenset()) & capitalised)
    long_one = any(
        t.df.get(w) == 1 and (_LONG_CJK.match(w) or (w in names and _LONG_LATIN.match(w)))
        for w in shared
    ) or any(t.df.get(p) == 1 and _LONG_CJK.match(p.replace(" ", "")) for p in phrases)
    plain_latin_alone = len(shared) == 1 and not phrases and not _CJK.search(shared[0])
    if not (long_one or (weight >= ENOUGH and not plain_latin_alone)):
        return None
    said = shared or list(dict.fromkeys(w for p in phrases for w in p.split()))
    lone = len(shared) == 1 and not phrases and shared[0] not in names
    return _Evidence(words=said, lone_word=lone)


def _sentence_claims(
    sentence: str, t: Topics, open_numbers: set[int]
) -> tuple[list[int], list[str]]:
    part = crediting(sentence)
    if not part:
        return [], []
    named = references(part, last=max(t.vocab, default=None))
    if named:
        said = [w for w in naming(fold(sentence)) if w in part]
        return [n for n in named if n in open_numbers], said
    ts = tokens(part) + t.spelled_apart(part)
    capitalised = frozenset().union(*name_like(part))
    found = {
        n: e for n in sorted(open_numbers) if (e := _decides(t, ts, capitalised, n)) is not None
    }
    # one common word of a question (`优缺点`) yields to a question the sentence says
    # more of: `Client/Server架构的优缺点` speaks of the Client/Server question
    if any(not e.lone_word for e in found.values()):
        found = {n: e for n, e in found.items() if not e.lone_word}
    decided: list[str] = []
    for e in found.values():
        decided += [w for w in e.words if w not in decided]
    return list(found), decided


def unsupported(
    tr: Transcript, followups: Sequence[Followup] = (), notes: Sequence[NoteText] = ()
) -> list[Claim]:
    """Every unsupported claim of `tr`'s summary and verdict and of `notes`, in order.
    A question whose answer the file does not record is never unanswered, and a file
    whose questions could not be read backs no claim at all (issue 46)."""
    if not tr.questions_read:
        return []
    answered_later = {f.number for f in followups}
    open_numbers = {
        q.number
        for q in tr.questions
        if q.answer_recorded and not q.answered and q.number not in answered_later
    }
    if not open_numbers:
        return []
    given = [q.answer for q in tr.questions if q.answered] + [f.answer for f in followups]
    t = topics([(q.number, f"{q.question}\n{q.goal}") for q in tr.questions], given)
    found: list[Claim] = []
    texts: list[tuple[Source, str, NoteText | None]] = [
        ("summary", tr.summary, None),
        ("verdict", tr.verdict or "", None),
        *(("note", unquoted(n.text), n) for n in notes),
    ]
    for source, text, note in texts:
        for sentence in sentences(text):
            numbers, decided = _sentence_claims(sentence, t, open_numbers)
            if numbers:
                found.append(
                    Claim(
                        source=source,
                        text=sentence,
                        questions=numbers,
                        words=decided,
                        by=note.by if note else None,
                        ts=note.ts if note else None,
                    )
                )
    return found


def notes_of(c: Candidate) -> list[NoteText]:
    """What reviewers wrote about `c`: thread replies (decisions' among them), the hiring
    decision's note; each once."""
    seen: dict[str, NoteText] = {}
    for n in c.notes:
        seen.setdefault(n.ts, NoteText(by=n.reviewer, ts=n.ts, text=n.text))
    for d in c.decisions:
        if d.text:
            seen.setdefault(d.ts, NoteText(by=d.reviewer, ts=d.ts, text=d.text))
    if c.outcome is not None and c.outcome.note:
        seen.setdefault(
            c.outcome.at, NoteText(by=c.outcome.by, ts=c.outcome.at, text=c.outcome.note)
        )
    return sorted(seen.values(), key=lambda n: n.ts)


def claims_of(c: Candidate) -> list[Claim]:
    """Every unsupported claim about `c`: its transcript's and its reviewers'."""
    return unsupported(c, c.followups, notes_of(c))
