"""The reader: a file's bytes in, the interviews it holds out (one `Transcript` each, in
file order), or why it holds none (`NotATranscript` with a reason naming what it looks
like, `ParseError` for a damaged file).

One pipeline, each step a pure function of its own module:

1. the text (formats.py: the format from the bytes, the limits on size), refused when
   it is mostly control characters; a meeting tool's export or a typed dialogue is
   read as one (dialogue.py `meeting_transcript`), and nothing below applies to it;
2. structure (document.py): Markdown through markdown-it-py, anything else by lines;
3. kind (kinds.py): what the file is, and the family of layout it is written in;
4. interviews (sections.py): one, or several under round headings (the first `stem`,
   the others `stem-2`, `stem-3`…);
5. for each interview its questions, by the family's reader: the labelled layout
   (parser.py `parse_transcript` over the interview's text), a question list
   (question_lists.py `read_question_list`) or a Q/A dialogue (qa.py `read_qa`), the
   other written family tried when the first reads nothing; a labelled reading with no
   question gives way to a written family that reads some; and its facts
   (written_facts.py) where the family is not the labelled layout, which reads its own.

An interview recognised as one whose questions no reader can read is kept, said less
of: `questions_read=False`, no questions, its text as written in `body`. Every
interview has its text as written (plain text, emphasis and markers away) in `body`.

Pure: bytes in, transcripts out; no I/O."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..models import Question, Transcript
from .dates import parse_interview_date
from .dialogue import meeting_transcript
from .document import Block, Document, document, plain
from .errors import CONTROL_CHARACTERS, NotATranscript, ParseError
from .formats import (
    OLE2_MAGIC,
    PDF_MAGIC,
    RTF_MAGIC,
    ZIP_MAGIC,
    byte_limit,
    decode,
    extract_text,
    too_large_error,
)
from .html import is_html
from .kinds import Family, kind_of
from .labels import control_re
from .markdown import is_markdown
from .parser import content_hash, parse_transcript, transcript_id
from .qa import read_qa
from .question_lists import read_question_list
from .sections import Section, preface, sections
from .written_facts import written_facts
from .years import parse_years

FamilyReader = Callable[[Sequence[Block]], list[Question] | None]

_MARKDOWN_NAMES = (".md", ".markdown", ".mdown", ".mkd")


def _written_readers(family: Family) -> list[FamilyReader]:
    """The written families' readers to try, the kind's own first."""
    if family == "dialogue":
        return [read_qa, read_question_list]
    return [read_question_list, read_qa]


def _text(data: bytes, name: str) -> str:
    text = extract_text(data, name)
    return text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")


def _written(data: bytes, name: str, extracted: str) -> tuple[str, bool]:
    """The text the document model is read from, and whether it is Markdown: a text
    file's own text (not the text formats.py flattens Markdown into); a document's
    (Word, OpenDocument, PDF, web page) extracted text, read by lines."""
    if (
        data.startswith((ZIP_MAGIC, OLE2_MAGIC, PDF_MAGIC))
        or (name.lower().endswith(".pdf") and PDF_MAGIC in data[:1024])
        or data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(RTF_MAGIC)
    ):
        return extracted, False
    raw = decode(data)
    if is_html(raw, name):
        return extracted, False
    raw = raw.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    return raw, name.lower().endswith(_MARKDOWN_NAMES) or is_markdown(raw)


def read_interviews(data: bytes, name: str, source: str | None = None) -> list[Transcript]:
    """Every interview in one file's bytes, in file order. `name` gives the ids (one
    interview, and the first of several: `transcript_id(name)`; the others `<stem>-2`,
    `<stem>-3`…); `source` is
    recorded as is (the name when None)."""
    if len(data) > byte_limit(data, name):
        raise too_large_error(len(data), byte_limit(data, name))
    text = _text(data, name)
    bad = len(control_re().findall(text)) + text.count("\ufffd")
    if bad > max(8, len(text) // 100):
        raise ParseError(CONTROL_CHARACTERS)
    stem = transcript_id(name)
    where = source if source is not None else name
    digest = content_hash(data)
    meeting = meeting_transcript(text, stem, where, digest)
    if meeting is not None:
        return [meeting.model_copy(update={"body": meeting.body or text.strip()})]
    raw, markdown = _written(data, name, text)
    doc = document(raw, markdown)
    kind = kind_of(doc, markdown)
    found = sections(doc, raw.count("\n") + 1)
    if len(found) == 1:
        whole = found[0]
        return [_interview(kind.family, whole, doc, doc.blocks, data, name, stem, where, digest)]
    lines = raw.split("\n")
    header = preface(doc, found)
    read: list[Transcript] = []
    for k, section in enumerate(found, start=1):
        part = "\n".join(lines[section.first_line - 1 : section.last_line])
        one = _interview(
            kind.family,
            section,
            Document(section.blocks, "", part),
            header,
            part.encode("utf-8"),
            name,
            stem if k == 1 else f"{stem}-{k}",
            where,
            digest,
            whole_file=False,
        )
        read.append(one)
    return read


def _interview(
    family: Family,
    section: Section,
    doc: Document,
    header: Sequence[Block],
    data: bytes,
    name: str,
    tid: str,
    where: str,
    digest: str,
    *,
    whole_file: bool = True,
) -> Transcript:
    """One interview: `section` of the file, read by its family."""
    shown = section.blocks if section.heading is None else (section.heading, *section.blocks)
    body = plain(shown)
    if family == "labelled":
        labelled = _labelled(doc, data, name, whole_file)
        if (
            labelled is not None
            and not labelled.questions
            and any(reader(section.blocks) for reader in _written_readers(family))
        ):
            labelled = None  # `岗位：` over a 面经's list: no 问题N, the list is the questions
        if labelled is not None:
            return labelled.model_copy(
                update={
                    "id": tid,
                    "source": where,
                    "hash": digest,
                    # (the whole file read as it always was; a round heading names the
                    # round of one of several interviews)
                    "round": labelled.round or (None if whole_file else section.round),
                    "body": body,
                }
            )
    questions: list[Question] | None = None
    for reader in _written_readers(family):
        questions = reader(section.blocks) or None
        if questions:
            break
    facts = written_facts(section.blocks, header if not whole_file else ())
    return Transcript(
        id=tid,
        position=facts.position,
        years=parse_years(facts.years_text) if facts.years_text else None,
        years_text=facts.years_text,
        name=facts.name,
        interviewers=facts.interviewers,
        interviewed_at=parse_interview_date(facts.date_text) if facts.date_text else None,
        interviewed_at_text=facts.date_text,
        round=section.round or facts.round,
        candidate_ref=facts.ref,
        summary=facts.summary,
        questions=questions or [],
        verdict=facts.verdict,
        questions_read=bool(questions),
        body=body,
        source=where,
        hash=digest,
    )


def _labelled(doc: Document, data: bytes, name: str, whole_file: bool) -> Transcript | None:
    """The labelled layout's reading of one interview: the file's own bytes when it is
    the whole file and has no front matter (the reading is then as it always was), else
    the interview's text (front matter never reaches the summary). None when the text
    does not read as the layout after all (NotATranscript), or when one interview of
    several fails it: the written families read it then, or it is kept with its
    questions unread. A whole file that fails the layout fails as it always did."""
    own = data if whole_file and not doc.front_matter else doc.text.encode("utf-8")
    try:
        return parse_transcript(own, name)
    except NotATranscript:  # labels, but not the layout after all: read on
        return None
    except ParseError:
        if whole_file:  # the file fails as it always did (问题99999999, no 岗位 nor 问题)
            raise
        return None  # one interview of several: the others are still read
