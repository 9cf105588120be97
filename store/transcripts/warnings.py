"""What a transcript does not hold that a reader would expect: no question found, no
summary, no verdict. One pure function, read by every surface that would otherwise
count or show what is not there (`show --json`'s and `index --json`'s `warnings`, the
card, the unanswered list, the lists, the digest, App Home), so none of them says "all
answered" of a file in which no question was found, or makes up a summary or verdict.
"""

from __future__ import annotations

from typing import Literal

from ..models import Transcript

WarningCode = Literal["questions_unread", "no_questions", "no_summary", "no_verdict"]
WARNINGS: tuple[WarningCode, ...] = ("questions_unread", "no_questions", "no_summary", "no_verdict")
"""The stable codes, in the order `warnings_of` lists them."""


def warnings_of(t: Transcript) -> list[WarningCode]:
    """The codes that apply to `t`, in `WARNINGS`' order; empty when nothing is missing.
    A meeting export (`kind == "meeting"`) has no summary and no verdict of its own: it
    says so as any file without them does. A file whose questions could not be read
    (`questions_read` False) gives "questions_unread" instead of "no_questions"."""
    missing = {
        # an interview whose questions could not be read says so, not "no question"
        "questions_unread": not t.questions_read,
        "no_questions": t.questions_read and not t.questions,
        "no_summary": not t.summary.strip(),
        "no_verdict": not (t.verdict or "").strip(),
    }
    return [code for code in WARNINGS if missing[code]]
