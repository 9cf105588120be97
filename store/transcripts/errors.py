"""Why a file gives no transcript: it fails (`ParseError`), it is no transcript
(`NotATranscript`), or it is in a form that cannot be read (`Unreadable`). The
indexer reports the first as failed and skips the other two, saying why."""

from __future__ import annotations


class ParseError(ValueError):
    """The input is not a transcript. `line` is 1-based where it helps."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason if line is None else f"{reason} (line {line})")
        self.reason = reason
        self.line = line


class NotATranscript(ParseError):
    """Readable text with none of the transcript labels: a README, notes. Not a failure:
    the indexer skips it and says why."""


class Unreadable(NotATranscript):
    """A file whose text cannot be read, and what to do about it: a scanned PDF (no text
    layer), an old binary .doc, an encrypted file, a spreadsheet. Skipped, never failed:
    the reason tells the person how to make it readable."""
