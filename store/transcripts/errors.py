"""Why a file gives no transcript: it fails (`ParseError`), it is no transcript
(`NotATranscript`), or it is in a form that cannot be read (`Unreadable`). The
indexer reports the first as failed and skips the other two, saying why.

Each reason is English (what `--json` and the logs show) and has a stable code, with
the values it names (`params`): the catalogue (store/transcripts/words.py, `why_<code>`,
said by handlers/i18n.py) says it in the team's language, and says what to do about it.
A reason that is always the same sentence is declared once with `reason()`, which
remembers its code."""

from __future__ import annotations

import errno
import os

Params = dict[str, str | int | float]

_CODES: dict[str, str] = {}


def reason(code: str, english: str) -> str:
    """Declare a fixed reason: `english`, whose code is `code`."""
    _CODES[english] = code
    return english


def code_of(english: str) -> str:
    """The code of a reason declared with `reason()`, or of what the operating system says
    for one of its errors (`os_ENOENT`: "No such file or directory"); "" when unknown."""
    return _CODES.get(english) or _OS_CODES.get(english, "")


_OS_CODES = {os.strerror(n): f"os_{name}" for n, name in errno.errorcode.items()}

NO_SUCH_FILE = reason("os_ENOENT", "no such file or directory")
SYMLINK_LOOP = reason("os_ELOOP", "symlink loop")

# what cannot be read as it is (Unreadable): each says what to do
NO_TEXT_LAYER = reason("no_text_layer", "no text layer: export it with text, or save it as .docx")
ENCRYPTED = reason("encrypted", "encrypted: save a copy without the password, then index that")
OLD_WORD = reason("old_word", "an old Word file (.doc): save it as .docx")
OLD_OFFICE = reason("old_office", "an old Office file: save it as .docx")
SPREADSHEET = reason(
    "spreadsheet", "a spreadsheet, not a transcript: save the transcript as .docx, .txt or .md"
)
PRESENTATION = reason(
    "presentation", "a presentation, not a transcript: save the transcript as .docx, .txt or .md"
)
NO_ODT_TEXT = reason(
    "no_odt_text",
    "no text in the OpenDocument file (pictures only?): save it as .docx with its text",
)
RTF = reason("rtf", "a rich-text file (.rtf): save it as .docx")
ZIP = reason("zip", "a zip archive, not a transcript: unzip it and index the files in it")
NO_WORD_TEXT = reason(
    "no_word_text", "no text in the document (pictures only?): save it with its text as .docx"
)
NOT_A_DOCUMENT = reason(
    "not_a_document", "not a Word document (a template or a macro-enabled file?): save it as .docx"
)
# damaged, too large, or not text at all (ParseError: the file fails)
DAMAGED_ZIP = reason("damaged_zip", "a damaged zip file (a .docx?): it could not be opened")
WORD_UNZIPS_TOO_LARGE = reason(
    "word_unzips_too_large", "a Word file too large once unzipped for a transcript"
)
DAMAGED_WORD = reason("damaged_word", "a damaged Word file: it could not be read")
DAMAGED_ODT = reason("damaged_odt", "a damaged OpenDocument file (.odt): it could not be read")
DOCUMENT_TOO_MUCH_TEXT = reason(
    "document_too_much_text", "too much text for a transcript in this document"
)
DOCUMENT_UNZIPS_TOO_LARGE = reason(
    "document_unzips_too_large", "a document too large once unzipped for a transcript"
)
WORD_TOO_MUCH_TEXT = reason(
    "word_too_much_text", "too much text for a transcript in this Word file"
)
PDF_TOO_MUCH_TEXT = reason("pdf_too_much_text", "too much text for a transcript in this PDF")
DAMAGED_PDF = reason("damaged_pdf", "a damaged PDF: it could not be read")
PDF_TOO_MANY_PAGES = reason("pdf_too_many_pages", "too many pages for a transcript in this PDF")
PDF_UNPACKS_TOO_LARGE = reason(
    "pdf_unpacks_too_large", "a PDF whose contents unpack too large for a transcript"
)
EMPTY = reason("empty", "empty file")
BROKEN_UTF16 = reason("broken_utf16", "broken UTF-16 text")
NUL_BYTE = reason("nul_byte", "binary file, not text (NUL byte)")
NOT_TEXT = reason("not_text", "not text: neither UTF-8 nor GB18030")
CONTROL_CHARACTERS = reason("control_characters", "binary file, not text (control characters)")
# readable text, but no transcript in it
NO_LABELS = reason("no_labels", "not a transcript: none of the labels 岗位, 问题N, 点评")
NO_POSITION_NOR_QUESTION = reason("no_position_nor_question", "no 岗位 line and no 问题 found")
# readable text, but something other than an interview record (kinds.py)
QUESTION_BANK = reason(
    "question_bank", "a question bank with reference answers, not an interview record"
)
STUDY_NOTES = reason(
    "study_notes", "study notes that explain each question, not an interview record"
)
DATES_LIST = reason("dates_list", "a list of dates, companies and rounds, not an interview record")
SPEECH_TO_TEXT = reason(
    "speech_to_text",
    "speech to text of people talking, with no questions asked of anyone: not an interview",
)
OWN_NOTES = reason(
    "own_notes",
    "notes of one's own (preparation, topics to review), not an interview record",
)
FAQ = reason("faq", "a FAQ (questions and answers about a subject), not an interview record")
ARTICLE = reason(
    "article", "an article or a README with no interview questions in it, not an interview record"
)
# a meeting transcript (store/transcripts/meetings.py) in which no question was found
VTT_NO_QUESTIONS = reason(
    "vtt_no_questions", "a WebVTT meeting recording in which no question to the candidate was found"
)
SRT_NO_QUESTIONS = reason(
    "srt_no_questions", "an SRT meeting recording in which no question to the candidate was found"
)
MEETING_TEXT_NO_QUESTIONS = reason(
    "meeting_text_no_questions",
    "a meeting transcript (飞书妙记, 腾讯会议, 钉钉) in which no question to the candidate was found",
)
DIALOGUE_NO_QUESTIONS = reason(
    "dialogue_no_questions", "a typed dialogue in which no question to the candidate was found"
)
# a meeting recording that is not an interview (store/transcripts/meeting_kinds.py)
MEETING_MANY_SPEAKERS = reason(
    "meeting_many_speakers",
    "a recording with many speakers (a workshop, a class or a webinar), not an interview",
)
WORK_MEETING = reason(
    "work_meeting",
    "a work meeting, not an interview: the speakers plan or discuss work together, nobody is"
    " asked about their experience or skills",
)
SPEECH_NO_QUESTIONS = reason(
    "speech_no_questions",
    "speech-to-text with no questions to anyone, not an interview",
)
DAMAGED_SUBTITLES = reason(
    "damaged_subtitles", "a damaged WebVTT or SRT file: its cues could not be read"
)
# what an index run never opens
FIFO = reason("fifo", "special file: a FIFO (named pipe), not read")
SOCKET = reason("socket", "special file: a socket, not read")
CHARACTER_DEVICE = reason("character_device", "special file: a character device, not read")
BLOCK_DEVICE = reason("block_device", "special file: a block device, not read")
DIRECTORY = reason("directory", "a directory, not a file")
NOT_REGULAR = reason("not_regular", "not a regular file, not read")
IGNORE_TOO_LARGE = reason("ignore_too_large", "too large for an ignore file")
LINK_OUTSIDE = reason("link_outside", "a link to a file outside the indexed folder, not read")
LINK_TO_FOLDER = reason("link_to_folder", "a link to a folder, not followed")
# what a reader could not get through (skipped, never failed: the run goes on)
READER_FAILED = reason("reader_failed", "could not be read: its reader stopped on it")
READ_TOO_LONG = reason("read_too_long", "stopped: reading it took too long or too much memory")


# (the reasons that name values have codes of their own: "too_large", "question_number",
# "id_taken", "unstorable", "media", and `os_<errno name>` for the operating system's)


class ParseError(ValueError):
    """The input is not a transcript. `line` is 1-based where it helps; `code` and
    `params` say the reason in any language (the code of a declared reason by default)."""

    def __init__(
        self,
        reason: str,
        line: int | None = None,
        *,
        code: str = "",
        params: Params | None = None,
    ) -> None:
        super().__init__(reason if line is None else f"{reason} (line {line})")
        self.reason = reason
        self.line = line
        self.code = code or code_of(reason)
        self.params: Params = dict(params or {})


class NotATranscript(ParseError):
    """Readable text with none of the transcript labels: a README, notes. Not a failure:
    the indexer skips it and says why."""


class Unreadable(NotATranscript):
    """A file whose text cannot be read, and what to do about it: a scanned PDF (no text
    layer), an old binary .doc, an encrypted file, a spreadsheet. Skipped, never failed:
    the reason tells the person how to make it readable."""
