"""The reader's entry point: one file's bytes -> the interviews it holds, in file order.

A file holds one interview or several (一面, 二面, HR面 under headings: issue 46); each
is a Transcript of its own. A file with one interview gives it the file's id
(`transcript_id(name)`); a file with several gives the first that id and the others
`<stem>-2`, `<stem>-3`, … in file order (the indexer gives the ids it keeps: store/indexer.py `interview_ids`). A file that
is not an interview record raises NotATranscript with a reason naming what it looks
like; a damaged file ParseError. Pure: bytes in, interviews or a reason out.

Until the layouts other than the labelled one are read, this is the labelled reader's
(parser.py) one interview a file."""

from __future__ import annotations

from ..models import Transcript
from .parser import parse_transcript


def read_interviews(data: bytes, name: str, source: str | None = None) -> list[Transcript]:
    """The interviews `data` (a file called `name`, recorded as `source`) holds, >= 1,
    in file order."""
    return [parse_transcript(data, name, source)]
