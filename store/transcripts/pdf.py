"""A PDF's text as it was written, from its layout (pdfplumber, on pdfminer.six): the
lines of each page and its ruled tables, top to bottom. A line break that only wraps a
paragraph is taken out (Chinese joined with no space, Latin words with one); a
paragraph break stays; a label line, a list item and the line after the end of a
sentence always start a line. A table reads as `tables.py` says, each cell's wrapped
lines joined the same way; so does a table printed without its rules, a line of cells
far apart (`姓名   张三   面试官   李四`, or a row of labels over a row of values) whose
labels are the transcript's.

A line wraps into the next when the line does not end a sentence, the next line's first
word (a Chinese character, a Latin word) would not have fitted at the end of it before
the right edge of the text, the next line is no heading (of another size), is not
indented far (a hanging indent is a wrap: `回答：` and its value under it), and no
wider gap than the document's lines have parts them (Word's 1.5 or double spacing, a
fixed line pitch). The right edge is where the document's full lines end (two lines at
least reach it, beyond 60 % of the page), else the page's right margin taken as wide as
its left one; a cell's is its own.

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
from .labels import list_item_re, match_field, match_identity, numbered_re, question_re
from .tables import is_label, table_lines

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
    cells: tuple[tuple[float, str], ...] = ()  # its runs far apart: (x0, text) each


@dataclass
class _Flow:
    """What the lines of the whole document say of its layout: the right edge of its
    text (None: take each page's margins) and the widest gap between two lines of one
    paragraph, as a share of the font's size."""

    right: float | None = None
    gap: float = 1.2


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
            pages: list[tuple[list[_Line | list[str]], float, float]] = []
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
                pages.append((blocks, right, float(page.width)))
                page.close()  # its layout let go: one page's at a time (its lines kept)
        finally:
            pdf._pages = []  # (else closing it lays out every page it has, to close them)
            pdf.close()
    except ParseError:
        raise
    except Exception as exc:  # pdfminer raises many kinds of error on a damaged file
        raise ParseError(DAMAGED_PDF) from exc
    pages = _without_furniture(pages)
    flow = _flow(pages)
    out: list[str] = []
    last: _Line | None = None  # the line read last, across pages
    for blocks, margin, _width in pages:
        right = flow.right if flow.right is not None else margin
        for block in blocks:
            if isinstance(block, list):  # a table's lines
                out.extend(block)
                last = None
            else:
                _add(out, last, block, right, flow.gap)
                last = block
    return "\n".join(out)


_page_number_re = cache(
    lambda: re.compile(
        r"^(?:第 ?\d{1,4} ?页(?: ?[,，/]? ?共 ?\d{1,4} ?页)?|[-–—]? ?\d{1,4} ?[-–—]?"
        r"|\d{1,4} ?/ ?\d{1,4}|page \d{1,4}(?: (?:of|/) \d{1,4})?)$",
        re.IGNORECASE,
    )
)
_digits_re = cache(lambda: re.compile(r"\d+"))
FURNITURE_LINES = 2
"""Lines at the top and at the bottom of a page that may be its header or footer."""


def _without_furniture(
    pages: list[tuple[list[_Line | list[str]], float, float]],
) -> list[tuple[list[_Line | list[str]], float, float]]:
    """The pages without their headers and footers: a page number alone (`第 2 页`,
    `- 2 -`, `Page 2 of 3`) at the top or bottom of a page, and a line at the top or
    bottom that comes back at the same height on other pages (the same but for its
    numbers: `某某科技 面试记录`, `第 2 页 共 3 页`), on half the pages at least. They
    would cut a paragraph that runs on to the next page, or end up in the verdict."""

    def edges(blocks: list[_Line | list[str]]) -> list[_Line]:
        lines = [b for b in blocks if isinstance(b, _Line)]
        return lines[:FURNITURE_LINES] + lines[FURNITURE_LINES:][-FURNITURE_LINES:]

    def key(line: _Line) -> tuple[str, int]:
        return _digits_re().sub("#", line.text), round(line.top)

    seen: dict[tuple[str, int], int] = {}
    for blocks, _r, _w in pages:
        for k in {key(line) for line in edges(blocks)}:
            seen[k] = seen.get(k, 0) + 1
    running = {k for k, n in seen.items() if n >= 2 and 2 * n >= len(pages)}
    kept: list[tuple[list[_Line | list[str]], float, float]] = []
    for blocks, right, width in pages:
        lines = [b for b in blocks if isinstance(b, _Line)]
        ends = {id(line) for line in lines[:1] + lines[-1:]}
        drop = {
            id(line)
            for line in edges(blocks)
            if key(line) in running or (id(line) in ends and _page_number_re().match(line.text))
        }
        if len(drop) == len(lines):
            drop = set()  # (a page of nothing else: what it says is its text)
        kept.append(([b for b in blocks if id(b) not in drop], right, width))
    return kept


FULL_LINE_SHARE = 0.6
"""A line that ends beyond this share of the page's width may be a full one."""


def _flow(pages: list[tuple[list[_Line | list[str]], float, float]]) -> _Flow:
    """The right edge of the document's text and its widest gap between wrapped lines."""
    # (a line of cells far apart is no full line: a table's row ends where its last cell does)
    lines = [b for blocks, _r, _w in pages for b in blocks if isinstance(b, _Line) and not b.cells]
    width = min((w for _b, _r, w in pages), default=0.0)
    flow = _Flow()
    if lines:
        edge = max(ln.x1 for ln in lines)
        reach = sum(1 for ln in lines if ln.x1 >= edge - ln.size)
        if reach >= 2 and edge >= FULL_LINE_SHARE * width:
            flow.right = edge
    flow.gap = _usual_gap([[b for b in blocks if isinstance(b, _Line)] for blocks, _r, _w in pages])
    return flow


def _usual_gap(runs: list[list[_Line]]) -> float:
    """The widest gap between two lines of a paragraph, in font sizes: 1.2, or the usual
    gap between two lines of these runs (the median), and a quarter more."""
    gaps: list[float] = []
    for run in runs:
        for before, line in itertools.pairwise(run):
            size = max(line.size, before.size)
            gap = (line.top - before.bottom) / size if size else 0.0
            if abs(line.size - before.size) <= 0.2 * size and 0 < gap < 3:
                gaps.append(gap)
    if not gaps:
        return 1.2
    gaps.sort()
    return max(1.2, gaps[len(gaps) // 2] + 0.25)


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
        cells: list[tuple[float, str]] = []
        for at, ch in enumerate(chars):
            far = at and ch["x0"] - chars[at - 1]["x1"] > CELL_GAP * float(ch.get("size") or 10)
            if not at or far:
                cells.append((float(ch["x0"]), ch["text"]))
            else:
                near = ch["x0"] - chars[at - 1]["x1"] > 0.15 * float(ch.get("size") or 10)
                cells[-1] = (cells[-1][0], cells[-1][1] + (" " if near else "") + ch["text"])
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
                cells=tuple(cells) if len(cells) > 1 else (),
            )
        )
    return found


CELL_GAP = 1.0
"""Runs of a line further apart than this many times the font's size are a table's
cells printed without rules (justified text stretches a space far less)."""


def _unruled(lines: list[_Line]) -> list[tuple[float, _Line | list[str]]]:
    """`lines`, where a line of cells whose labels are the transcript's, or a row of
    such labels over a row of as many values below them, is that table's lines."""
    out: list[tuple[float, _Line | list[str]]] = []
    at = 0
    while at < len(lines):
        line = lines[at]
        texts = [text for _x, text in line.cells]
        below = lines[at + 1] if at + 1 < len(lines) else None
        if (
            texts
            and all(is_label(t) for t in texts)
            and below is not None
            and _aligned(line, below)
        ):
            out.append((line.top, table_lines([texts, [text for _x, text in below.cells]])))
            at += 2
            continue
        if texts and len(texts) % 2 == 0 and all(is_label(t) for t in texts[::2]):
            out.append((line.top, table_lines([texts])))
        else:
            out.append((line.top, line))
        at += 1
    return out


def _aligned(labels: _Line, values: _Line) -> bool:
    """Does each of `values`' cells start under one of `labels`' (a row of values)?"""
    if len(values.cells) != len(labels.cells):
        return False
    return all(
        abs(a - b) <= 2 * labels.size
        for (a, _t), (b, _u) in zip(labels.cells, values.cells, strict=True)
    )


def _page(page: Any) -> tuple[list[_Line | list[str]], float]:
    """The page's lines and tables (a table as its lines), top to bottom, and the right
    edge of its text: the page's width less its left margin (the leftmost line's start)."""
    tables = page.find_tables()
    outside = page
    for table in tables:
        outside = outside.outside_bbox(table.bbox, strict=False)
    lines = _lines(outside)
    blocks = _unruled(lines)
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
    return bool(
        match_field(text)
        or question_re().match(text)
        or match_identity(text)
        or numbered_re().match(text)
        or list_item_re().match(text)
    )


_SENTENCE_END = frozenset("。！？!?…．.")
_CLOSING = "”’\"'）)」』】]》"


def _ends_a_sentence(text: str) -> bool:
    """`…建议通过。`, `…again today.`, `…吗？”`: the next line starts a new one."""
    kept = text.rstrip(_CLOSING + " ")
    return bool(kept) and kept[-1] in _SENTENCE_END


HANGING_INDENT = 4
"""A line indented up to this many times the font's size under the one before may be
its wrap (a hanging indent: `回答：` and its value under it); further, it is not."""


def _wraps(before: _Line, line: _Line, right: float, gap: float = 1.2) -> bool:
    """Did `before` wrap into `line` (one paragraph), by their text and places on the
    page? `gap`: the widest gap between two lines of a paragraph, in font sizes."""
    if _starts_a_line(line.text) or _ends_a_sentence(before.text):
        return False
    latin = not _cjk(before.text[-1]) and not _cjk(line.text[0])
    space = before.space if latin else 0.0
    if before.x1 + space + line.first_word <= right - 0.2 * line.size:
        return False  # the word would have fitted (with room to spare): the writer broke the line
    if line.x0 > before.x0 + HANGING_INDENT * line.size:
        return False  # indented far: a new paragraph, a signature
    if abs(line.size - before.size) > 0.2 * max(line.size, before.size):
        return False
    same_page = line.top > before.top
    return not same_page or line.top - before.bottom <= gap * max(line.size, before.size)


def _joint(before: _Line, line: _Line) -> str:
    """What stands between a wrapped line and the next: nothing between Chinese, a
    space between Latin words, nothing after a hyphen; between Chinese and a Latin word
    (`和` / `exactly-once`), a space when the writer puts one there elsewhere in these
    lines (`讲 checkpoint 和`), else nothing."""
    last, first = before.text[-1], line.text[0]
    if _cjk(last) and _cjk(first):
        return ""
    if _cjk(last) or _cjk(first):
        latin = first if _cjk(last) else last
        spaced = latin.isalnum() and _spaced_scripts(before.text + " " + line.text)
        return " " if spaced else ""
    return "" if before.text.endswith("-") and line.text[0].isalpha() else " "


def _spaced_scripts(text: str) -> bool:
    """Does `text` put a space between Chinese and a Latin word or number, and never
    join them?"""
    spaced = joined = 0
    for a, b, c in zip(text, text[1:], text[2:], strict=False):
        if b == " " and a.isascii() != c.isascii() and (_cjk(a) or _cjk(c)):
            spaced += (a.isalnum() or _cjk(a)) and (c.isalnum() or _cjk(c))
    for a, b in itertools.pairwise(text):
        if (_cjk(a) and b.isascii() and b.isalnum()) or (a.isascii() and a.isalnum() and _cjk(b)):
            joined += 1
    return spaced > joined


def _add(out: list[str], last: _Line | None, line: _Line, right: float, gap: float = 1.2) -> None:
    """Add `line` to the paragraphs `out`: onto the last one when `last` wrapped into it."""
    if last is not None and out and _wraps(last, line, right, gap):
        out[-1] += _joint(last, line) + line.text
    else:
        out.append(line.text)


def _join(lines: list[_Line], right: float) -> list[str]:
    """A table cell's lines, its wraps joined (its own line spacing: `_usual_gap`)."""
    out: list[str] = []
    last: _Line | None = None
    gap = _usual_gap([lines])
    for line in lines:
        _add(out, last, line, right, gap)
        last = line
    return out
