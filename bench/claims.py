"""Unsupported claims (issues 37, 45): precision and recall of the check on the labelled
sets, beside a naive baseline measured in the same run (a sentence that names an
unanswered question or shares any word with one is flagged): the seeds' summaries and
verdicts and their few notes (tests/claims_labelled.py), those summaries and verdicts
alone, and reviewers' notes in Chinese and English (tests/claims_notes.py), each note
checked alone as a thread reply is.

    python bench/claims.py
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from claims_labelled import (  # noqa: E402
    CASES,
    SUMMARIES,
    Score,
    check,
    evaluate,
    evaluate_notes,
)
from claims_notes import NOTE_SETS  # noqa: E402

from store.claims.check import NoteText  # noqa: E402
from store.claims.references import references  # noqa: E402
from store.claims.sentences import sentences  # noqa: E402
from store.claims.topics import words  # noqa: E402
from store.models import Transcript  # noqa: E402


def any_shared_word(tr: Transcript, notes: Sequence[NoteText]) -> list[tuple[str, list[int]]]:
    """The baseline: any word in common with an unanswered question (or its number)."""
    open_qs = [q for q in tr.questions if not q.answered]
    found: list[tuple[str, list[int]]] = []
    texts = [tr.summary, tr.verdict or "", *(n.text for n in notes)]
    for s in (s for text in texts for s in sentences(text)):
        ws = set(words(s))
        named = set(references(s))
        hit = [
            q.number for q in open_qs if q.number in named or ws & set(words(q.question + q.goal))
        ]
        if hit:
            found.append((s, hit))
    return found


def line(name: str, s: Score) -> str:
    return (
        f"{name:<28} precision {s.precision:6.1%}  recall {s.recall:6.1%}"
        f"  ({s.right} right of {s.flagged} flagged, {s.labelled} labelled)"
    )


def report(title: str, ours: Score, baseline: Score) -> None:
    print(title)
    print(line("debrief (store/claims/)", ours))
    print(line("baseline: any shared word", baseline))
    for wrong in ours.wrong:
        print("  wrong: " + wrong)
    for missed in ours.missed:
        print("  missed: " + missed)


def main() -> None:
    report(
        f"labelled set: {len(CASES)} cases of the seeds (tests/claims_labelled.py)",
        evaluate(check),
        evaluate(any_shared_word),
    )
    report(
        "their summaries and verdicts alone",
        evaluate(check, SUMMARIES),
        evaluate(any_shared_word, SUMMARIES),
    )
    notes = sum(len(s.notes) for s in NOTE_SETS)
    report(
        f"reviewers' notes: {notes} notes on {len(NOTE_SETS)} seed variants"
        " (tests/claims_notes.py)",
        evaluate_notes(check),
        evaluate_notes(any_shared_word),
    )


if __name__ == "__main__":
    main()
