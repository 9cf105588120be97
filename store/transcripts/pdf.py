"""A PDF's text as it was written, from its layout (pdfplumber, on pdfminer.six): the
lines of each page and its ruled tables, top to bottom. A line break that only wraps a
paragraph is taken out (Chinese joined with no space, Latin words with one); a
paragraph break stays; a label line always starts a line. A table reads as
`tables.py` says, each cell's wrapped lines joined the same way.

A line wraps into the next when the next line's first word (a Chinese character, a
Latin word) would not have fitted at the end of it before the right edge of its text
(the page's right margin, taken as wide as its left one, or a cell's), the next line
starts where it started or further left, and no wider gap than a line's parts them.

Pure: bytes in, text out. pdfplumber is imported when a file needs it."""

from __future__ import annotations

import io
import itertools
import re
import zlib
from dataclasses import dataclass
from functools import cache
from typing import Any

from .errors import (
    DAMAGED_PDF,
    ENCRYPTED,
    PDF_TOO_MANY_PAGES,
    PDF_TOO_MUCH_TEXT,
    PDF_UNPACKS_TOO_LARGE,
    ParseError,
    Unreadable,
)
from .labels import match_field, match_identity, numbered_re, question_re
from .tables import table_lines

_CJK_RANGES = ((0x2E80, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF), (0x20000, 0x3FFFF))


def _cjk(ch: str) -> bool:
    return bool(ch) and any(lo <= ord(ch) <= hi for lo, hi in _CJK_RANGES)


@dataclass
class _Line:
    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    first_word: float  # the width of its first word (a Chinese character, a Latin word)
    size: float
    space: float  # the width of a space between its words


MAX_PAGES = 300
"""A transcript is a few pages: a PDF of more is refused before its pages are read."""
MAX_PAGE_CHARS = 30_000
"""Characters on one page at most (a dense page has a few thousand), counted as the page
is laid out: a page of a million glyphs is stopped at this many, not after."""
MAX_STREAM = 32 * 1024 * 1024
MAX_STREAMS = 256 * 1024 * 1024
"""What the PDF's compressed streams (pictures aside) may inflate to, one and all:
counted before any is parsed (pdfminer inflates a stream whole)."""


class _TooMuch(Exception):
    """A page with more than MAX_PAGE_CHARS characters."""


def pdf_text(data: bytes, limit: int) -> str:
    """The text of a PDF with a text layer ("" when it has none); `limit` characters
    at most, else ParseError. Its pages, each page's characters and what its streams
    inflate to are bounded before they are parsed (MAX_PAGES, MAX_PAGE_CHARS,
    MAX_STREAM)."""
    _check_encryption(data)
    _check_streams(data)
    import pdfplumber
    from pdfminer.pdfpage import PDFPage
    from pdfplumber.page import Page

    try:
        pdf = pdfplumber.open(io.BytesIO(data))
        try:
            size = 0
            out: list[str] = []
            last: _Line | None = None  # the line read last, across pages
            doctop = 0.0
            for number, found in enumerate(PDFPage.create_pages(pdf.doc), 1):
                if number > MAX_PAGES:
                    raise ParseError(PDF_TOO_MANY_PAGES)
                page = Page(pdf, found, page_number=number, initial_doctop=doctop)
                doctop += float(page.height)
                _lay_out(page)
                size += len(page.chars)
                if size > limit:
                    raise ParseError(PDF_TOO_MUCH_TEXT)
                blocks, right = _page(page)
                page.close()  # its layout let go: one page's at a time
                for block in blocks:
                    if isinstance(block, list):  # a table's lines
                        out.extend(block)
                        last = None
                    else:
                        _add(out, last, block, right)
                        last = block
        finally:
            pdf._pages = []  # (else closing it lays out every page it has, to close them)
            pdf.close()
    except ParseError:
        raise
    except Exception as exc:  # pdfminer raises many kinds of error on a damaged file
        raise ParseError(DAMAGED_PDF) from exc
    return "\n".join(out)


def _lay_out(page: Any) -> None:
    """Lay `page` out as pdfplumber does, stopping at MAX_PAGE_CHARS characters."""
    from pdfminer.pdfinterp import PDFPageInterpreter
    from pdfplumber.page import PDFPageAggregatorWithMarkedContent

    class Counted(PDFPageAggregatorWithMarkedContent):
        left = MAX_PAGE_CHARS

        def render_char(self, *args: Any, **kwargs: Any) -> float:
            self.left -= 1
            if self.left < 0:
                raise _TooMuch
            return float(super().render_char(*args, **kwargs))

    device = Counted(page.pdf.rsrcmgr, pageno=page.page_number, laparams=page.pdf.laparams)
    try:
        PDFPageInterpreter(page.pdf.rsrcmgr, device).process_page(page.page_obj)
    except _TooMuch as exc:
        raise ParseError(PDF_TOO_MUCH_TEXT) from exc
    page._layout = device.get_result()  # (what pdfplumber's `layout` would have made)


_stream_re = cache(lambda: re.compile(rb"stream\r?\n"))
_PIECE = 64 * 1024


def _check_streams(data: bytes) -> None:
    """ParseError when a compressed stream inflates past MAX_STREAM, or all of them past
    MAX_STREAMS: inflated a piece at a time, nothing kept. Pictures are left out (their
    dictionary says /Image: pdfminer never inflates them), and what is not zlib's is
    left to the parser."""
    total = 0
    for m in _stream_re().finditer(data):
        if b"/Image" in data[max(0, m.start() - 1024) : m.start()].rpartition(b"<<")[2]:
            continue
        inflate = zlib.decompressobj()
        at, one = m.end(), 0
        try:
            while not inflate.eof and at < len(data):
                pending = inflate.unconsumed_tail or data[at : at + _PIECE]
                if not inflate.unconsumed_tail:
                    at += _PIECE
                got = len(inflate.decompress(pending, _PIECE))
                one, total = one + got, total + got
                if one > MAX_STREAM or total > MAX_STREAMS:
                    raise ParseError(PDF_UNPACKS_TOO_LARGE)
                if not got and not inflate.unconsumed_tail and at >= len(data):
                    break
        except zlib.error:
            continue  # not zlib's (or damaged): the parser says


def _check_encryption(data: bytes) -> None:
    """Unreadable when the PDF has a password to open it (one locked only against
    editing opens); ParseError when its page tree says it has more than MAX_PAGES."""
    from pypdf import PdfReader
    from pypdf.errors import DependencyError

    try:
        reader = PdfReader(io.BytesIO(data))
        opened: int = 1
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("")
            except (DependencyError, NotImplementedError):
                opened = 0  # (an encryption this installation cannot undo)
        pages = _count(reader) if opened else 0
    except Exception as exc:
        raise ParseError(DAMAGED_PDF) from exc
    if not opened:
        raise Unreadable(ENCRYPTED)
    if pages > MAX_PAGES:
        raise ParseError(PDF_TOO_MANY_PAGES)


def _count(reader: Any) -> int:
    """The pages the page tree's root says it has (its /Count, read alone: pypdf's own
    count reads every page); 0 when it says nothing readable (pages are then counted
    as they are read)."""
    count = reader.trailer["/Root"].get_object()["/Pages"].get_object().get("/Count")
    return int(count) if isinstance(count, int) else 0


def _lines(page: Any) -> list[_Line]:
    found: list[_Line] = []
    for line in page.extract_text_lines(return_chars=True, strip=True):
        spaces = [c["x1"] - c["x0"] for c in line["chars"] if c["text"] == " "]
        chars = [c for c in line["chars"] if c["text"].strip()]
        if not chars or not line["text"].strip():
            continue
        gaps = [
            after["x0"] - before["x1"]
            for before, after in itertools.pairwise(chars)
            if after["x0"] - before["x1"] > 0.15 * (after.get("size") or 10)
        ]
        first = chars[0]
        end = first["x1"]
        if not _cjk(first["text"]):
            for before, ch in itertools.pairwise(chars):
                gap = ch["x0"] - before["x1"]
                if _cjk(ch["text"]) or gap > 0.2 * (ch.get("size") or 10):
                    break
                end = ch["x1"]
        found.append(
            _Line(
                text=line["text"],
                x0=line["x0"],
                x1=line["x1"],
                top=line["top"],
                bottom=line["bottom"],
                first_word=end - first["x0"],
                size=max(float(c.get("size") or 0) for c in chars) or line["bottom"] - line["top"],
                space=min(spaces or gaps or [0.25 * float(first.get("size") or 10)]),
            )
        )
    return found


def _page(page: Any) -> tuple[list[_Line | list[str]], float]:
    """The page's lines and tables (a table as its lines), top to bottom, and the right
    edge of its text: the page's width less its left margin (the leftmost line's start)."""
    tables = page.find_tables()
    outside = page
    for table in tables:
        outside = outside.outside_bbox(table.bbox, strict=False)
    lines = _lines(outside)
    blocks: list[tuple[float, _Line | list[str]]] = [(ln.top, ln) for ln in lines]
    blocks += [(table.bbox[1], _table(page, table)) for table in tables]
    blocks.sort(key=lambda b: b[0])
    left = min((ln.x0 for ln in lines), default=0.0)
    return [block for _top, block in blocks], float(page.width) - left


def _table(page: Any, table: Any) -> list[str]:
    rows: list[list[str]] = []
    for row in table.rows:
        cells: list[str] = []
        for bbox in row.cells:
            if bbox is None:
                cells.append("")  # merged with the cell before it
                continue
            lines = _lines(page.within_bbox(bbox, strict=False))
            if not lines:
                cells.append("")
                continue
            padding = min(ln.x0 for ln in lines) - bbox[0]
            cells.append("\n".join(_join(lines, bbox[2] - max(padding, 0.0))))
        rows.append(cells)
    return table_lines(rows)


def _starts_a_line(text: str) -> bool:
    return bool(match_field(text) or question_re().match(text) or match_identity(text)) or bool(
        numbered_re().match(text)
    )


def _wraps(before: _Line, line: _Line, right: float) -> bool:
    """Did `before` wrap into `line` (one paragraph), by their places on the page?"""
    if _starts_a_line(line.text):
        return False
    latin = not _cjk(before.text[-1]) and not _cjk(line.text[0])
    space = before.space if latin else 0.0
    if before.x1 + space + line.first_word <= right - 0.2 * line.size:
        return False  # the word would have fitted (with room to spare): the writer broke the line
    if line.x0 > before.x0 + 0.5 * line.size:
        return False  # indented: a new paragraph
    if abs(line.size - before.size) > 0.2 * max(line.size, before.size):
        return False
    same_page = line.top > before.top
    return not same_page or line.top - before.bottom <= 1.2 * max(line.size, before.size)


def _joint(before: _Line, line: _Line) -> str:
    """What stands between a wrapped line and the next: nothing between Chinese, a
    space between Latin words, nothing after a hyphen."""
    if _cjk(before.text[-1]) or _cjk(line.text[0]):
        return ""
    return "" if before.text.endswith("-") and line.text[0].isalpha() else " "


def _add(out: list[str], last: _Line | None, line: _Line, right: float) -> None:
    """Add `line` to the paragraphs `out`: onto the last one when `last` wrapped into it."""
    if last is not None and out and _wraps(last, line, right):
        out[-1] += _joint(last, line) + line.text
    else:
        out.append(line.text)


def _join(lines: list[_Line], right: float) -> list[str]:
    out: list[str] = []
    last: _Line | None = None
    for line in lines:
        _add(out, last, line, right)
        last = line
    return out
