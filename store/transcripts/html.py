"""A web page's text (a saved page, LibreOffice's or pandoc's HTML export): a line for
each paragraph, heading, list item and `<br>`, a table as `tables.py` reads it, a
heading that is no label dropped (a title is layout), scripts and styles dropped,
entities decoded. The charset comes from the BOM or the meta tag, else UTF-8 or
GB18030 as for plain text.

Read with lxml's HTML parser: no network, no entities expanded, no huge trees.

Pure: bytes in, text out. lxml is imported when a file needs it."""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from functools import cache
from typing import Any

from .layout import heading
from .tables import table_lines

_BLOCKS = frozenset(
    [
        "p",
        "div",
        "li",
        "ul",
        "ol",
        "dl",
        "dt",
        "dd",
        "blockquote",
        "pre",
        "section",
        "article",
        "header",
        "footer",
        "main",
        "aside",
        "nav",
        "figure",
        "figcaption",
        "address",
        "center",
        "body",
        "form",
        "fieldset",
        "hr",
        "details",
        "summary",
        "caption",
    ]
)
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_SKIP = frozenset(
    [
        "script",
        "style",
        "head",
        "title",
        "noscript",
        "template",
        "iframe",
        "object",
        "embed",
        "svg",
        "math",
        "select",
        "button",
        "textarea",
    ]
)
_CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef"

_strong_re = cache(
    lambda: re.compile(
        r"^\ufeff?\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html[\s>])",
        re.I | re.S,
    )
)
_tag_re = cache(lambda: re.compile(r"<(?:p|table|div|br|h[1-6]|body)[\s/>]", re.I))
_charset_re = cache(
    lambda: re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.I)
)
_cjk_break_re = cache(lambda: re.compile(rf"(?<=[{_CJK}])[ \t]*[\r\n]+[ \t]*(?=[{_CJK}])"))
_space_re = cache(lambda: re.compile(r"[ \t\r\n\f]+"))
# Python's codecs that no web page is written in: `undefined` always raises, punycode and
# idna are for host names (punycode's decoding is quadratic), the escapes are not text.
_NOT_A_CHARSET = frozenset(
    {"undefined", "punycode", "idna", "unicode-escape", "raw-unicode-escape", "utf-7"}
)


def is_html(text: str, name: str = "") -> bool:
    """Is the file a web page? It starts with `<!DOCTYPE html` or `<html` (after a BOM,
    white space, an XML declaration, comments), or it is named .html/.htm/.xhtml and
    has paragraph or table tags. Text holding a few tags (`<br>` in Markdown) is not."""
    if _strong_re().match(text[:4096]):
        return True
    named = name.lower().endswith((".html", ".htm", ".xhtml"))
    return named and bool(_tag_re().search(text[:65536]))


def _decoded(data: bytes, decode: Callable[[bytes], str]) -> str:
    for bom, codec in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if data.startswith(bom):
            return data.decode(codec, "replace")
    m = _charset_re().search(data[:4096])
    if m is not None:
        name = m.group(1).decode("ascii").lower()
        if name in ("gb2312", "gbk", "x-gbk", "gb_2312-80"):
            name = "gb18030"
        try:
            if codecs.lookup(name).name not in _NOT_A_CHARSET:
                return data.decode(name)
        except Exception:  # unknown, or the bytes are not in it
            pass
    return decode(data)


def html_text(data: bytes, decode: Callable[[bytes], str]) -> str:
    """The text of a web page; `decode` reads bytes with no charset given as plain text."""
    import lxml.etree
    import lxml.html

    text = _decoded(data, decode)
    parser = lxml.html.HTMLParser(
        encoding="utf-8",
        remove_comments=True,
        remove_pis=True,
        no_network=True,
        huge_tree=False,
    )
    try:
        root = lxml.html.document_fromstring(text.encode("utf-8", "replace"), parser=parser)
        return "\n".join(_Lines().read(root))
    except (lxml.etree.ParserError, ValueError, RecursionError):
        return ""  # nothing in it ("Document is empty"): no transcript either


class _Lines:
    """An element tree as lines: inline text gathered, a line ended at each block."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.current: list[str] = []

    def read(self, element: Any) -> list[str]:
        self.walk(element, pre=False)
        self.flush()
        return self.lines

    def flush(self, block: bool = False) -> None:
        """End the line: a block's own line even when empty (`<p></p>`), white space
        between blocks none. A `<br>` that ends a block adds no line."""
        joined = "".join(self.current)
        self.current = []
        if not block and not joined.strip(" "):
            return
        joined = joined[:-1] if joined.endswith("\n") else joined
        for line in joined.split("\n"):
            self.lines.append(line.strip(" "))

    def text(self, value: str | None, pre: bool) -> None:
        if not value:
            return
        if not pre:
            value = _space_re().sub(" ", _cjk_break_re().sub("", value))
        self.current.append(value)

    def walk(self, element: Any, pre: bool) -> None:
        for child in element:
            tag = child.tag.lower() if isinstance(child.tag, str) else ""
            tag = tag.rpartition("}")[2]  # (XHTML's namespace)
            if tag in _SKIP or not tag:
                pass
            elif tag == "br":
                self.current.append("\n")
            elif tag == "table":
                self.flush()
                self.lines.extend(table_lines(_rows(child)))
            elif tag in _HEADINGS:
                self.flush()
                said = heading(" ".join(_cell(child).split("\n")))
                if said is not None:
                    self.lines.append(said)
            elif tag in _BLOCKS:
                self.flush()
                before = len(self.lines)
                self.text(child.text, pre or tag == "pre")
                self.walk(child, pre or tag == "pre")
                self.flush(block=len(self.lines) == before)  # `<p></p>`: an empty line
            else:
                self.text(child.text, pre)
                self.walk(child, pre)
            self.text(child.tail, pre)


def _cell(element: Any) -> str:
    reader = _Lines()
    reader.text(element.text, False)
    return "\n".join(reader.read(element)).strip("\n")


def _rows(table: Any) -> list[list[str]]:
    rows: list[list[str]] = []
    for child in table:
        tag = child.tag.lower() if isinstance(child.tag, str) else ""
        if tag in ("thead", "tbody", "tfoot"):
            rows.extend(_rows(child))
        elif tag == "tr":
            rows.append(
                [
                    _cell(c)
                    for c in child
                    if isinstance(c.tag, str) and c.tag.lower() in ("td", "th")
                ]
            )
    return rows
