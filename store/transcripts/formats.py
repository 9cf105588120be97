"""From a file's bytes to its text: plain text (UTF-8, GB18030, UTF-16) and Markdown, a
Word document (.docx), an OpenDocument text (.odt), a web page (.html), a PDF with a
text layer. What cannot be read raises `Unreadable` with what to do about it: a scanned
PDF, an old binary .doc, an .rtf, an encrypted file, a spreadsheet or a presentation.

The format comes from the bytes, never from the name alone: a .docx is a zip holding
`word/`, an .odt a zip whose `mimetype` says so, a PDF starts with `%PDF-`, old Office
files are OLE2 compound files, a web page starts with `<!DOCTYPE html` or `<html` (or
is named .html and has its tags). A .txt that is really a Word file is read as one; a
.docx that is really text is read as text.

Each format has its reader beside this module (word.py, odt.py, html.py, markdown.py,
pdf.py); a table, whatever it came from, reads as tables.py says (a table of questions
a question a row, a table of label and value `label：value`), and a heading that is no
label is layout (layout.py). Here: which reader, and the limits on size.

Pure: bytes in, text out, no I/O. The libraries are imported when a file needs them.
"""

from __future__ import annotations

import codecs
import io
import zipfile

from .errors import (
    BROKEN_UTF16,
    DAMAGED_ODT,
    DAMAGED_WORD,
    DAMAGED_ZIP,
    DOCUMENT_TOO_MUCH_TEXT,
    DOCUMENT_UNZIPS_TOO_LARGE,
    EMPTY,
    ENCRYPTED,
    NO_TEXT_LAYER,
    NOT_TEXT,
    NUL_BYTE,
    OLD_OFFICE,
    OLD_WORD,
    PRESENTATION,
    RTF,
    SPREADSHEET,
    WORD_TOO_MUCH_TEXT,
    WORD_UNZIPS_TOO_LARGE,
    ZIP,
    ParseError,
    Unreadable,
)
from .html import html_text, is_html
from .markdown import markdown_text
from .odt import odt_text
from .pdf import pdf_text
from .unzip import repacked, unzipped
from .word import docx_text

MAX_BYTES = 5 * 1024 * 1024
"""A transcript is a few dozen KB; a text file past this is not one (and no more text
than this is taken from a document)."""
MAX_DOCUMENT_BYTES = 20 * 1024 * 1024
"""A Word file or a PDF at most: pictures, fonts and layout make them many times larger
than their text (the text taken from them is still at most MAX_BYTES)."""
MAX_UNPACKED = 64 * 1024 * 1024
"""A Word or OpenDocument file's parts, unzipped, at most: a few MB of zip can unpack
to gigabytes. Counted on the bytes inflated, never on the sizes the zip declares
(unzip.py)."""

ZIP_MAGIC = b"PK\x03\x04"
OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
PDF_MAGIC = b"%PDF-"
RTF_MAGIC = b"{\\rtf"


def _is_pdf(data: bytes, name: str) -> bool:
    return data.startswith(PDF_MAGIC) or (
        name.lower().endswith(".pdf") and PDF_MAGIC in data[:1024]
    )


def byte_limit(data: bytes, name: str = "") -> int:
    """The most bytes a file may have, from its first bytes: a zip (a Word file) or a PDF
    MAX_DOCUMENT_BYTES, anything else MAX_BYTES. `data` may be only the file's start."""
    if data.startswith(ZIP_MAGIC) or _is_pdf(data, name):
        return MAX_DOCUMENT_BYTES
    return MAX_BYTES


def too_large(size: int, limit: int) -> str:
    """Why a file of `size` bytes is refused."""
    return (
        f"file too large for a transcript: {size / 1e6:.1f} MB"
        f" (the limit is {limit / 2**20:.0f} MB)"
    )


def too_large_error(size: int, limit: int) -> ParseError:
    """A file of `size` bytes refused, its size and the limit named in any language."""
    return ParseError(
        too_large(size, limit),
        code="too_large",
        params={"size": f"{size / 1e6:.1f}", "limit": f"{limit / 2**20:.0f}"},
    )


def extract_text(data: bytes, name: str = "") -> str:
    """The text of a transcript file, whatever its format. `name` only breaks ties (a
    `.pdf` whose header is not on its first byte). ParseError when the file is damaged
    or too large, Unreadable when it cannot be read as it is."""
    if data.startswith(ZIP_MAGIC):
        return _zip_text(data)
    if data.startswith(OLE2_MAGIC):
        raise Unreadable(_ole2_kind(data))
    if _is_pdf(data, name):
        text = pdf_text(data, MAX_BYTES)
        if not text.strip():
            raise Unreadable(NO_TEXT_LAYER)
        return text
    if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(RTF_MAGIC):
        raise Unreadable(RTF)
    text = decode(data)
    if is_html(text, name):
        return html_text(data, decode)
    return markdown_text(text.replace("\r\n", "\n").replace("\r", "\n"))


# -- old Office files --------------------------------------------------------------------------


def _ole2_kind(data: bytes) -> str:
    """What an OLE2 compound file holds, from the names of its streams (UTF-16 in its
    directory): an encrypted .docx/.xlsx (`EncryptedPackage`), a .doc, a .xls, a .ppt."""

    def has(stream: str) -> bool:
        return stream.encode("utf-16-le") in data

    if has("EncryptedPackage"):
        return ENCRYPTED
    if has("WordDocument"):
        return OLD_WORD
    if has("Workbook") or has("Book"):
        return SPREADSHEET
    if has("PowerPoint Document"):
        return PRESENTATION
    return OLD_OFFICE


# -- zip: .docx, and what else comes zipped -----------------------------------------------------


def _zip_text(data: bytes) -> str:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
            names = {info.filename for info in infos}
            mimetype = b""
            if "mimetype" in names:
                with zf.open("mimetype") as fh:
                    mimetype = fh.read(100)  # (never the whole entry: it may be a bomb)
    except Exception as exc:  # BadZipFile, NotImplementedError (an unknown version)…
        raise ParseError(DAMAGED_ZIP) from exc
    encrypted = any(info.flag_bits & 0x1 for info in infos)
    if any(name.startswith("word/") for name in names):
        if encrypted:
            raise Unreadable(ENCRYPTED)
        entries = unzipped(data, MAX_UNPACKED, WORD_UNZIPS_TOO_LARGE, DAMAGED_WORD)
        text = docx_text(repacked(entries))
        if len(text) > MAX_BYTES:
            raise ParseError(WORD_TOO_MUCH_TEXT)
        return text
    if any(name.startswith("xl/") for name in names) or b"spreadsheet" in mimetype:
        raise Unreadable(SPREADSHEET)
    if any(name.startswith("ppt/") for name in names) or b"presentation" in mimetype:
        raise Unreadable(PRESENTATION)
    if b"opendocument.text" in mimetype:  # (and .ott, a template of one)
        if encrypted:
            raise Unreadable(ENCRYPTED)
        entries = unzipped(data, MAX_UNPACKED, DOCUMENT_UNZIPS_TOO_LARGE, DAMAGED_ODT)
        text = odt_text(entries)
        if len(text) > MAX_BYTES:
            raise ParseError(DOCUMENT_TOO_MUCH_TEXT)
        return text
    if encrypted:
        raise Unreadable(ENCRYPTED)
    raise Unreadable(ZIP)


# -- plain text ---------------------------------------------------------------------------------


def decode(data: bytes) -> str:
    """UTF-8 (with or without BOM), UTF-16 with BOM, or GB18030; else ParseError."""
    if not data.strip(b" \t\r\n\x0b\x0c"):
        raise ParseError(EMPTY)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise ParseError(BROKEN_UTF16) from exc
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    nul = data.find(b"\x00")
    if nul >= 0:
        text = _bomless_utf16(data)
        if text is not None:
            return text
        raise ParseError(NUL_BYTE, data.count(b"\n", 0, nul) + 1)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.reason == "unexpected end of data":
            # A file cut off in the middle of its last character: keep the rest.
            return data[: exc.start].decode("utf-8")
        utf8_error = exc
    try:
        return data.decode("gb18030")
    except UnicodeDecodeError:
        line = data.count(b"\n", 0, utf8_error.start) + 1
        raise ParseError(NOT_TEXT, line) from None


def _plain_char(ch: str) -> bool:
    return (
        " " <= ch <= "~"
        or ch in "\t\r\n"
        or "\u4e00" <= ch <= "\u9fff"
        or "\u3000" <= ch <= "\u303f"
        or "\uff00" <= ch <= "\uffef"
    )


def _bomless_utf16(data: bytes) -> str | None:
    """UTF-16 saved without a BOM: the NUL bytes of its ASCII characters (line breaks,
    colons, digits) fall on one side of each pair, and it reads as Chinese and
    ASCII text. None for anything else (a binary file, UTF-8 with a NUL in it)."""
    if len(data) % 2:
        return None
    even, odd = data[0::2].count(0), data[1::2].count(0)
    if min(even, odd) * 10 > max(even, odd):  # (a Chinese character may have a 00 byte)
        return None
    try:
        text = data.decode("utf-16-be" if even > odd else "utf-16-le")
    except UnicodeDecodeError:
        return None
    plain = sum(1 for ch in text if _plain_char(ch))
    return text if "\n" in text and plain >= 0.98 * len(text) else None
