"""Any written file as one document model: its blocks (headings with their level,
paragraphs, list items with their depth, tables, quotes, code, rules), emphasis set
aside, front matter set aside. The first step of the reader (reader.py): what a file
is (kinds.py), how many interviews it holds and what they ask are all read from this.

Markdown goes through markdown-it-py (CommonMark, with its tables) and the plugins of
mdit-py-plugins for YAML front matter and admonitions (`!!! note`, `??? question`, whose
contents read as the blocks they are). Plain text, and the text other formats give
(formats.py: a Word file, an OpenDocument text, a web page or a PDF give a line per
paragraph), is split into the same blocks by lines:

- a blank line separates; every other line is its own block, since a line is how typed
  notes and extracted documents put one thing (a paragraph in a .docx is one line);
- `# …` to `###### …` is a heading of that level;
- `- `, `* `, `+ `, `• ` start an item; `1. `, `1、`, `1)`, `（1）` an item of an ordered
  list with its number (`8.17 字节一面` is no item: a digit follows the dot); the item's
  depth is how many indentation steps it is in from the items before it;
- `> ` a quote, a fence of three backticks or tildes a code block, `---` a rule.

Plain text keeps its characters as written: `**` in a .txt is text (a .txt that reads as
Markdown is handed here as Markdown by the reader).

Pure: text in, a `Document` out. No regular expression here: lines are read with
string methods, so no run of spaces or punctuation makes anything slow."""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

BlockKind = Literal["heading", "paragraph", "item", "table", "quote", "code", "rule"]


@dataclass(frozen=True)
class Block:
    kind: BlockKind
    text: str  # plain text: emphasis markers removed, inline links as their text
    level: int = 0  # heading: 1-6; item: list depth (0 = top level); else 0
    marks: tuple[str, ...] = ()  # emphasised runs (bold, italic) as they read
    rows: tuple[tuple[str, ...], ...] = ()  # table: its rows of cells (first = header)
    ordered: bool = False  # an item of an ordered list
    number: int | None = None  # an ordered item's number as written
    line: int = 0  # 1-based line in the source text where the block starts


@dataclass(frozen=True)
class Document:
    blocks: tuple[Block, ...]
    front_matter: str = ""  # YAML front matter, set aside as written (never a summary)
    text: str = ""  # the whole text as written (minus front matter)


def document(text: str, markdown: bool) -> Document:
    """`text` as blocks: read as Markdown when `markdown`, else line by line."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    return _markdown_document(text) if markdown else _text_document(text)


def plain(blocks: Sequence[Block]) -> str:
    """Blocks as plain text, as a person reads them: a heading or paragraph a line, an
    item indented by its depth under `- ` (or its number), a table a row a line with
    ` | ` between cells; a blank line between blocks, but between items and between
    paragraphs on lines next to each other in the source (a plain text's lines)."""
    out: list[str] = []
    previous: Block | None = None
    for b in blocks:
        adjacent = previous is not None and (
            (b.kind == "item" and previous.kind == "item")
            or (
                b.kind == previous.kind == "paragraph"
                and b.line == previous.line + previous.text.count("\n") + 1
            )
        )
        if previous is not None and not adjacent:
            out.append("")
        if b.kind == "item":
            marker = f"{b.number}." if b.ordered and b.number is not None else "-"
            lines = b.text.split("\n")
            pad = "  " * b.level
            out.append(f"{pad}{marker} {lines[0]}")
            out.extend(f"{pad}  {rest}" for rest in lines[1:])
        elif b.kind == "table":
            out.extend(" | ".join(row) for row in b.rows)
        elif b.kind == "rule":
            out.append("---")
        else:
            out.append(b.text)
        previous = b
    return "\n".join(out).strip("\n")


# -- Markdown ------------------------------------------------------------------------------------


@cache
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.admon import admon_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    return MarkdownIt("commonmark").enable("table").use(front_matter_plugin).use(admon_plugin)


def _inline(token: Token) -> tuple[str, tuple[str, ...]]:
    """An inline token's text without its markers, and its emphasised runs."""
    parts: list[str] = []
    marks: list[str] = []
    depth = 0  # inside how many emphasis openings
    run: list[str] = []
    for child in token.children or []:
        kind = child.type
        if kind in ("strong_open", "em_open"):
            if depth == 0:
                run = []
            depth += 1
            continue
        if kind in ("strong_close", "em_close"):
            depth = max(0, depth - 1)
            if depth == 0 and "".join(run).strip():
                marks.append("".join(run).strip())
            continue
        if kind in ("softbreak", "hardbreak"):
            piece = "\n"
        elif kind in ("text", "code_inline"):
            piece = child.content
        elif kind == "image":
            piece = child.content  # its alt text
        elif kind == "html_inline":
            piece = "\n" if child.content.lower().startswith("<br") else ""
        else:  # link_open, link_close, …: the link's text is in its children
            piece = ""
        parts.append(piece)
        if depth:
            run.append(piece)
    return "".join(parts).strip(), tuple(marks)


def _html_text(source: str) -> str:
    """An HTML block's text: its tags dropped, its entities read (`&nbsp;` a space)."""
    out: list[str] = []
    inside = False
    for ch in source:
        if ch == "<":
            inside = True
        elif ch == ">" and inside:
            inside = False
        elif not inside:
            out.append(ch)
    return html.unescape("".join(out)).replace("\xa0", " ").strip()


def _markdown_document(text: str) -> Document:
    tokens = _parser().parse(text)
    blocks: list[Block] = []
    front = ""
    skip = 0
    lists: list[tuple[bool, int]] = []  # the open lists: (ordered, items so far)
    item_open: list[bool] = []  # each open item: has its first paragraph been taken?
    openers: list[Token] = []  # each open item's list_item_open token
    quote = 0
    at = 0
    while at < len(tokens):
        t = tokens[at]
        line = t.map[0] + 1 if t.map else 0
        kind = t.type
        if kind == "front_matter":
            front = t.content
            skip = t.map[1] if t.map else 0
        elif kind == "heading_open":
            words, marks = _inline(tokens[at + 1])
            blocks.append(Block("heading", words, int(t.tag[1:]), marks, line=line))
            at += 2
        elif kind in ("bullet_list_open", "ordered_list_open"):
            lists.append((kind == "ordered_list_open", 0))
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif kind == "list_item_open":
            item_open.append(False)
            openers.append(t)
            ordered, count = lists[-1]
            lists[-1] = (ordered, count + 1)
            if tokens[at + 1].type != "paragraph_open":  # an empty item, or one of a list
                number = int(t.info) if ordered and t.info.isdigit() else None
                blocks.append(Block("item", "", len(lists) - 1, (), (), ordered, number, line))
                item_open[-1] = True
        elif kind == "list_item_close":
            item_open.pop()
            openers.pop()
        elif kind in ("blockquote_open", "admonition_open"):
            quote += kind == "blockquote_open"
        elif kind == "blockquote_close":
            quote -= 1
        elif kind in ("paragraph_open", "admonition_title_open"):
            words, marks = _inline(tokens[at + 1])
            if item_open and not item_open[-1]:
                ordered, _count = lists[-1]
                opener = openers[-1]
                number = int(opener.info) if ordered and opener.info.isdigit() else None
                blocks.append(
                    Block("item", words, len(lists) - 1, marks, (), ordered, number, line)
                )
                item_open[-1] = True
            elif words:
                blocks.append(Block("quote" if quote else "paragraph", words, 0, marks, line=line))
            at += 2
        elif kind == "table_open":
            rows: list[tuple[str, ...]] = []
            cells: list[str] = []
            marks_seen: list[str] = []
            while tokens[at].type != "table_close":
                tok = tokens[at]
                if tok.type == "inline":
                    words, marks = _inline(tok)
                    cells.append(words)
                    marks_seen.extend(marks)
                elif tok.type == "tr_close":
                    rows.append(tuple(cells))
                    cells = []
                at += 1
            blocks.append(
                Block(
                    "table",
                    "\n".join(" | ".join(r) for r in rows),
                    0,
                    tuple(marks_seen),
                    tuple(rows),
                    line=line,
                )
            )
        elif kind in ("fence", "code_block"):
            blocks.append(Block("code", t.content.rstrip("\n"), line=line))
        elif kind == "hr":
            blocks.append(Block("rule", "", line=line))
        elif kind == "html_block":
            words = _html_text(t.content)
            if words:
                blocks.append(Block("paragraph", words, line=line))
        at += 1
    body = "\n".join(text.split("\n")[skip:]) if skip else text
    return Document(tuple(blocks), front, body)


# -- plain text ----------------------------------------------------------------------------------

_BULLETS = "-*+•·●▪"
_ORDERED_ENDS = ".、)）．"


def _indent(line: str) -> int:
    width = 0
    for ch in line:
        if ch == " ":
            width += 1
        elif ch == "\t":
            width += 4
        elif ch == "\u3000":
            width += 2
        else:
            break
    return width


def _heading(stripped: str) -> tuple[int, str] | None:
    hashes = len(stripped) - len(stripped.lstrip("#"))
    if 1 <= hashes <= 6 and stripped[hashes : hashes + 1] in (" ", "\t"):
        return hashes, stripped[hashes:].strip().rstrip("#").strip()
    return None


def _item(stripped: str) -> tuple[bool, int | None, str] | None:
    """A list item's (ordered, number, text), or None."""
    if len(stripped) > 1 and stripped[0] in _BULLETS and stripped[1] in " \t":
        return False, None, stripped[2:].strip()
    if stripped.startswith(("(", "（")):
        close = ")" if stripped[0] == "(" else "）"
        end = stripped.find(close, 1, 6)
        if end > 1 and stripped[1:end].strip().isdigit():
            return True, int(stripped[1:end].strip()), stripped[end + 1 :].strip()
        return None
    digits = len(stripped) - len(stripped.lstrip("0123456789"))
    if 1 <= digits <= 3 and stripped[digits : digits + 1] in tuple(_ORDERED_ENDS):
        rest = stripped[digits + 1 :]
        if rest[:1].isdigit() or not rest.strip():  # `8.17 字节一面`, `12.`: no item
            return None
        return True, int(stripped[:digits]), rest.strip()
    return None


def _rule(stripped: str) -> bool:
    compacted = stripped.replace(" ", "")
    return (
        len(compacted) >= 3
        and compacted[0] in "-*_="
        and compacted == compacted[0] * len(compacted)
    )


def _text_document(text: str) -> Document:
    lines = text.split("\n")
    blocks: list[Block] = []
    indents: list[int] = []  # the indentation of the items open above
    fence = ""
    code: list[str] = []
    code_line = 0
    for number, line in enumerate(lines, start=1):
        stripped = line.strip(" \t\u3000\u00a0")
        if fence:
            if stripped.startswith(fence):
                blocks.append(Block("code", "\n".join(code), line=code_line))
                fence, code = "", []
            else:
                code.append(line)
            continue
        if stripped.startswith(("```", "~~~")):
            fence, code_line = stripped[:3], number
            continue
        if not stripped:
            continue
        heading = _heading(stripped)
        if heading is not None:
            indents = []
            blocks.append(Block("heading", heading[1], heading[0], line=number))
            continue
        if _rule(stripped):
            indents = []
            blocks.append(Block("rule", "", line=number))
            continue
        item = _item(stripped)
        if item is not None:
            width = _indent(line)
            while indents and indents[-1] > width:
                indents.pop()
            if not indents or indents[-1] < width:
                indents.append(width)
            ordered, ordinal, words = item
            blocks.append(Block("item", words, len(indents) - 1, (), (), ordered, ordinal, number))
            continue
        if stripped.startswith((">", "＞")):
            blocks.append(Block("quote", stripped[1:].strip(), line=number))
            continue
        if _indent(line) == 0:
            indents = []
        blocks.append(Block("paragraph", stripped, line=number))
    if fence:
        blocks.append(Block("code", "\n".join(code), line=code_line))
    return Document(tuple(blocks), "", text)
