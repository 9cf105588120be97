"""An OpenDocument text's (.odt, LibreOffice's own format) text, from its content.xml:
paragraphs, headings, lists and sections in document order, a table as `tables.py`
reads it, a heading or a title that is no label dropped (a title is layout), notes,
annotations, frames and tracked deletions left out.

Read with lxml: no network, no entities expanded, no huge trees; the zip's entries were
inflated with their size and tags bounded (unzip.py).

Pure: the zip's entries in, text out."""

from __future__ import annotations

from typing import Any

from .errors import DAMAGED_ODT, ENCRYPTED, NO_ODT_TEXT, ParseError, Unreadable
from .layout import heading
from .tables import table_lines

_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"


def _t(tag: str) -> str:
    return f"{{{_TEXT}}}{tag}"


def _tb(tag: str) -> str:
    return f"{{{_TABLE}}}{tag}"


_P, _H, _LIST, _ITEM, _HEADER = _t("p"), _t("h"), _t("list"), _t("list-item"), _t("list-header")
_SECTION, _S, _TAB, _BREAK = _t("section"), _t("s"), _t("tab"), _t("line-break")
_STYLE_NAME = _t("style-name")
_TBL, _ROW, _CELL, _COVERED = (
    _tb("table"),
    _tb("table-row"),
    _tb("table-cell"),
    _tb("covered-table-cell"),
)
_ROW_GROUPS = frozenset({_tb("table-header-rows"), _tb("table-rows"), _tb("table-row-group")})
_REPEAT_COLUMNS, _REPEAT_ROWS = _tb("number-columns-repeated"), _tb("number-rows-repeated")
# not the text: footnotes, comments, frames (pictures, text boxes), deleted text, indexes
_NOT_TEXT = frozenset(
    {
        _t("note"),
        _t("tracked-changes"),
        _t("table-of-content"),
        _t("alphabetical-index"),
        _t("sequence-decls"),
        _t("variable-decls"),
        f"{{{_OFFICE}}}annotation",
        f"{{{_OFFICE}}}forms",
        "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}frame",
        "{urn:oasis:names:tc:opendocument:xmlns:drawing:1.0}custom-shape",
    }
)
_REPEAT_MAX = 50  # a repeated empty cell or row stands for the rest of the sheet


def odt_text(entries: dict[str, bytes]) -> str:
    """The text of an .odt from its zip's entries (inflated with their size bounded:
    unzip.py)."""
    from lxml import etree

    manifest = entries.get("META-INF/manifest.xml", b"")
    if b"encryption-data" in manifest:
        raise Unreadable(ENCRYPTED)
    content = entries.get("content.xml")
    if content is None:
        raise ParseError(DAMAGED_ODT)
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False
    )
    try:
        root = etree.fromstring(content, parser=parser)
    except Exception as exc:  # broken XML
        raise ParseError(DAMAGED_ODT) from exc
    body = root.find(f"{{{_OFFICE}}}body/{{{_OFFICE}}}text")
    try:
        lines = list(_blocks(body, _heading_styles(root))) if body is not None else []
    except RecursionError as exc:
        raise ParseError(DAMAGED_ODT) from exc
    text = "\n".join(lines)
    if not text.strip():
        raise Unreadable(NO_ODT_TEXT)
    return text


def _heading_styles(root: Any) -> set[str]:
    """The automatic paragraph styles that are a title or a heading (`P1` whose parent
    is `Title`), and those names themselves."""
    named = {"Title", "Subtitle"}
    found = set(named)
    for style in root.iter(f"{{{_STYLE}}}style"):
        parent = style.get(f"{{{_STYLE}}}parent-style-name") or ""
        if parent in named or parent.startswith("Heading"):
            found.add(style.get(f"{{{_STYLE}}}name") or "")
    return found


def _blocks(container: Any, headings: set[str]) -> Any:
    for child in container:
        tag = child.tag
        if tag == _P:
            text = _inline(child)
            style = child.get(_STYLE_NAME) or ""
            if style in headings or style.startswith("Heading"):
                text = heading(text) or ""
            yield text
        elif tag == _H:
            said = heading(_inline(child))
            if said is not None:
                yield said
        elif tag == _TBL:
            yield from table_lines(_rows(child, headings))
        elif tag in (_LIST, _ITEM, _HEADER, _SECTION):
            yield from _blocks(child, headings)


def _inline(element: Any) -> str:
    out: list[str] = [element.text or ""]
    for child in element:
        tag = child.tag
        if tag == _S:
            count = child.get(_t("c")) or "1"
            out.append(" " * min(int(count) if count.isascii() and count.isdigit() else 1, 100))
        elif tag == _TAB:
            out.append("\t")
        elif tag == _BREAK:
            out.append("\n")
        elif tag not in _NOT_TEXT and isinstance(tag, str):
            out.append(_inline(child))  # spans, links, fields, bookmarks
        out.append(child.tail or "")
    return "".join(out)


def _repeat(element: Any, attribute: str, empty: bool) -> int:
    value = element.get(attribute) or "1"
    plain = value.isascii() and value.isdigit()  # (`²` is a digit to str.isdigit)
    return 1 if empty or not plain else min(int(value), _REPEAT_MAX)


def _rows(table: Any, headings: set[str]) -> list[list[str]]:
    rows: list[list[str]] = []
    for child in table:
        if child.tag in _ROW_GROUPS:
            rows.extend(_rows(child, headings))
        elif child.tag == _ROW:
            cells: list[str] = []
            for cell in child:
                if cell.tag not in (_CELL, _COVERED):
                    continue
                text = "\n".join(_blocks(cell, headings)).strip("\n")
                cells.extend([text] * _repeat(cell, _REPEAT_COLUMNS, not text))
            rows.extend([cells] * _repeat(child, _REPEAT_ROWS, not any(cells)))
    return rows
