"""Markdown's layout taken away, its structure kept: a pipe table reads as `tables.py`
says (a table of questions a question a row, a table of label and value
`label：value`, the header row of `| 项目 | 内容 |` and the rule rows dropped), a heading
that is no label is dropped (`# 张三面试记录`, `## 基本信息`), a label heading reads as
its label (`## 点评`), and emphasis (`**`, `__`) goes. List markers (`- `, `1. `) stay
as written: a list item is no summary, and a label in a list of the candidate's
questions (`反问：` then `- 面试评价：…`) is no verdict (parser.py).

YAML front matter (`---`, `createTime: …`, `tags: 面经`, `---` at the top of any text
file) is set aside, its lines left blank: it is the page's metadata, never the
interview's date, summary or title.

Only text that is Markdown is changed otherwise (it has a pipe table with its rule row,
an ATX heading, or bold): a plain text file keeps its `__init__` as written.

Pure: text in, text out."""

from __future__ import annotations

import re
from functools import cache

from .labels import (
    front_matter_line_re,
    match_field,
    match_identity,
    question_re,
    table_rule_re,
)
from .layout import heading
from .tables import table_lines

_rule_re = table_rule_re
_heading_re = cache(lambda: re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$"))
# `**粗体**`, `__粗体__`; never `2**10`, `__init__.py`
_bold_re = cache(
    lambda: re.compile(
        # (the words never cross another `**`/`__`: each opening looks only as far as the
        # next one, not to the end of the line, or a line of `**a ` is quadratic)
        r"(?<![A-Za-z0-9*_\\])(?:\*\*(?=\S)(?P<a>(?:(?!\*\*).)+?)(?<=\S)\*\*(?![A-Za-z0-9*])"
        r"|__(?=\S)(?P<b>(?:(?!__).)+?)(?<=\S)__(?![A-Za-z0-9_.]))"
    )
)
_break_re = cache(lambda: re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$"))
_cell_break_re = cache(lambda: re.compile(r"<br\s*/?>", re.I))


def is_markdown(text: str) -> bool:
    """Does `text` use Markdown's layout: a pipe table with its rule row, an ATX
    heading (`# …`), bold (`**…**`)?"""
    lines = text.split("\n")
    return any(_rule_re().match(line) and "|" in line for line in lines) or any(
        _heading_re().match(line) or _bold_re().search(line) for line in lines
    )


def _cells(line: str) -> list[str]:
    row = line.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    cells = re.split(r"(?<!\\)\|", row)
    return [_inline(_cell_break_re().sub("\n", c)).replace("\\|", "|").strip() for c in cells]


def _inline(text: str) -> str:
    for _ in range(3):  # `**__x__**`; (a run of thousands of `*` is not thousands of passes)
        before, text = text, _bold_re().sub(lambda m: m.group("a") or m.group("b"), text)
        if text == before:
            break
    return text


def _unbold(line: str) -> str:
    """A line without emphasis, but for a label's own (`**简介** 熟悉 Linux`: the bold
    says where the label ends, the parser reads it)."""
    m = match_field(line) or match_identity(line) or question_re().match(line)
    if m is None or m.groupdict().get("rest") is None:
        return _inline(line)
    return line[: m.start("rest")] + _inline(line[m.start("rest") :])


def _table_row(line: str) -> bool:
    return line.lstrip().startswith("|")


FRONT_MATTER_MAX = 60
"""Lines of YAML front matter at most, its fences included."""


def front_matter(lines: list[str]) -> int:
    """How many of `lines` are front matter: `---`, `key: value` lines (and YAML's
    lists and continuations), then `---` or `...`; 0 when they do not start so."""
    if not lines or lines[0].lstrip("\ufeff").rstrip() != "---":
        return 0
    for at in range(1, min(len(lines), FRONT_MATTER_MAX)):
        line = lines[at].rstrip()
        if line in ("---", "..."):
            return at + 1 if at > 1 else 0
        if not front_matter_line_re().match(line):
            return 0
    return 0


def markdown_text(text: str) -> str:
    """`text` without Markdown's layout, when it is Markdown; else `text` as it is.
    Front matter is set aside either way."""
    lines = text.split("\n")
    fenced = front_matter(lines)
    if fenced:
        lines[:fenced] = [""] * fenced
        text = "\n".join(lines)
    if not is_markdown(text):
        return text
    out: list[str] = []
    at = 0
    while at < len(lines):
        line = lines[at]
        ruled = at + 1 < len(lines) and "|" in line and bool(_rule_re().match(lines[at + 1]))
        if _table_row(line) or ruled:
            rows: list[list[str]] = []
            while at < len(lines) and (
                _table_row(lines[at]) or (ruled and "|" in lines[at] and lines[at].strip())
            ):
                if not _rule_re().match(lines[at]):
                    rows.append(_cells(lines[at]))
                at += 1
            out.extend(table_lines(rows))
            continue
        at += 1
        m = _heading_re().match(line)
        if m is not None:  # `## 点评`, `## 1. 怎么排障？` as the parser reads them; else none
            out.append(line if heading(line) else "")
            continue
        if _break_re().match(line):
            out.append("")
            continue
        out.append(_unbold(line))
    return "\n".join(out)
