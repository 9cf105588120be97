"""A Word document's (.docx, from Word, WPS, LibreOffice or pandoc) text: its
paragraphs and tables in document order, what content controls and custom XML hold.
A table reads as `tables.py` says (a table of questions a question a row, a table of
label and value `label：value`); a heading or a title that is no label is layout.

Pure: bytes in, lines out. python-docx is imported when a file needs it."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

from .errors import DAMAGED_WORD, NO_WORD_TEXT, NOT_A_DOCUMENT, ParseError, Unreadable
from .layout import heading
from .tables import table_lines


def docx_text(data: bytes) -> str:
    """The text of a .docx whose zip was checked (not encrypted, not too large)."""
    import docx  # python-docx: Word and WPS documents

    try:
        document = docx.Document(io.BytesIO(data))
        headings = {
            style.style_id
            for style in document.styles
            if (style.name or "").lower().startswith(("heading", "title", "subtitle"))
        }
    except ValueError as exc:  # a template, a macro-enabled document: not a document
        raise Unreadable(NOT_A_DOCUMENT) from exc
    except Exception as exc:  # a damaged package: missing parts, broken XML
        raise ParseError(DAMAGED_WORD) from exc
    text = "\n".join(_blocks(document.element.body, headings))
    if not text.strip():
        raise Unreadable(NO_WORD_TEXT)
    return text


def _w(tag: str) -> str:
    return "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}" + tag


_P, _TBL, _TR, _TC = _w("p"), _w("tbl"), _w("tr"), _w("tc")
_SDT, _SDT_CONTENT, _CUSTOM_XML = _w("sdt"), _w("sdtContent"), _w("customXml")
_T, _TAB, _BR, _CR = _w("t"), _w("tab"), _w("br"), _w("cr")
_PPR, _PSTYLE, _VAL = _w("pPr"), _w("pStyle"), _w("val")
# Not the paragraph's text: deleted runs, drawings and text boxes (kept twice, as the
# drawing and its fallback), properties.
_NOT_TEXT = frozenset(
    {
        _w("del"),
        _w("moveFrom"),
        _w("drawing"),
        _w("pict"),
        _w("pPr"),
        _w("rPr"),
        "{http://schemas.openxmlformats.org/markup-compatibility/2006}AlternateContent",
    }
)


def _blocks(container: Any, headings: set[str]) -> Iterator[str]:
    """The lines of a body or a table cell: paragraphs and tables in document order,
    and what content controls (`w:sdt`) and custom XML hold."""
    for child in container:
        if child.tag == _P:
            text = _paragraph_text(child)
            if _style(child) in headings:
                text = heading(text) or ""  # a title is layout, a label heading a label
            yield text
        elif child.tag == _TBL:
            yield from _table_lines(child, headings)
        elif child.tag == _SDT:
            content = child.find(_SDT_CONTENT)
            if content is not None:
                yield from _blocks(content, headings)
        elif child.tag == _CUSTOM_XML:
            yield from _blocks(child, headings)


def _style(p: Any) -> str | None:
    ppr = p.find(_PPR)
    style = ppr.find(_PSTYLE) if ppr is not None else None
    return style.get(_VAL) if style is not None else None


def _paragraph_text(p: Any) -> str:
    out: list[str] = []

    def walk(element: Any) -> None:
        for child in element:
            tag = child.tag
            if tag == _T:
                out.append(child.text or "")
            elif tag == _TAB:
                out.append("\t")
            elif tag in (_BR, _CR):
                out.append("\n")
            elif tag not in _NOT_TEXT:
                walk(child)  # runs, hyperlinks, inserted text, fields, smart tags

    walk(p)
    return "".join(out)


def _table_lines(tbl: Any, headings: set[str]) -> list[str]:
    rows = [
        ["\n".join(_blocks(tc, headings)) for tc in tr.iterchildren(_TC)]
        for tr in tbl.iterchildren(_TR)
    ]
    return table_lines(rows)
