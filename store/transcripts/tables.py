"""A table's rows (each a list of its cells' text) as the lines a transcript says, the
same whatever the table came from (Word, Markdown, HTML, OpenDocument, a PDF's layout).

- A table whose header row names its columns (问题/题目/Question, 考察目标/考察点/Goal,
  回答/答案/Answer, 序号/No./#, in any order, in either script) gives one question a
  row: `问题N：…`, `考察目标：…`, `回答：…`, N the row's 序号 when it has one, else its
  order. An empty answer cell is an empty 回答 (unanswered).
- The header row of an identity table (`项目 | 内容`, `字段 | 值`, `Field | Value`) is
  layout: it is dropped, and the rows below read as label and value.
- A row of label and value cells (`岗位 | 数据工程师`, or two pairs a row) reads as
  `岗位：数据工程师`, a pair a line; any other row reads as its cells, a line each.
- A table of two rows whose first row is all labels (`姓名 | 面试官 | 日期 | 轮次`) and
  whose second row holds their values reads a column at a time: `姓名：张三`, … A cell
  that is itself a label is never another label's value (`姓名 | 面试官` is no name).

Pure: cells in, lines out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Literal

from .labels import match_field, match_identity, question_re
from .numerals import parse_question_number

Column = Literal["number", "question", "goal", "answer"]

_COLUMNS: dict[Column, frozenset[str]] = {
    "number": frozenset({"序号", "序號", "编号", "編號", "题号", "題號", "no", "no.", "#", "nr"}),
    "question": frozenset(
        {"问题", "問題", "题目", "題目", "面试问题", "面試問題", "question", "questions"}
    ),
    "goal": frozenset(
        {
            "考察目标",
            "考察目標",
            "考察点",
            "考察點",
            "考察要点",
            "考察要點",
            "goal",
            "goals",
            "assesses",
        }
    ),
    "answer": frozenset(
        {"回答", "答案", "候选人回答", "候選人回答", "answer", "answers", "response"}
    ),
}
_LINE_LABEL: dict[Column, str] = {"goal": "考察目标", "answer": "回答"}

# The header row of a table of label and value: layout, never text.
_IDENTITY_HEADS = (
    frozenset({"项目", "項目", "字段", "欄位", "栏位", "项", "項", "名称", "名稱", "类别", "類別"}),
    frozenset({"内容", "內容", "值", "信息", "資訊", "详情", "詳情", "说明", "說明"}),
)
_ENGLISH_IDENTITY_HEADS = (
    frozenset({"field", "item", "key", "name", "label"}),
    frozenset({"value", "content", "details", "information", "info"}),
)

# A table cell that reads as a label in front of its value: one short line.
LABEL_CELL_MAX = 20
_COLONS = (":", "：")
_SPACE = " \t\u3000\u00a0"


def _head(cell: str) -> str:
    """A header cell as a word: no emphasis, colon or spaces, lower case."""
    word = re.sub(r"[*_`]", "", cell).strip(_SPACE + ":：")
    return re.sub(r"\s+", " ", word).lower()


def _columns(header: Sequence[str]) -> dict[Column, int] | None:
    """Which column holds what, when `header` names the columns of a table of questions
    (a question column, and a goal or an answer column); else None."""
    found: dict[Column, int] = {}
    for at, cell in enumerate(header):
        word = _head(cell)
        for column, words in _COLUMNS.items():
            if word in words and column not in found:
                found[column] = at
    if "question" in found and ("goal" in found or "answer" in found):
        return found
    return None


def identity_header(row: Sequence[str]) -> bool:
    """`项目 | 内容`, `字段 | 值`, `Field | Value`: the header row of a table of labels."""
    cells = [_head(c) for c in row if c.strip(_SPACE)]
    if len(cells) != 2:
        return False
    first, second = cells
    return any(first in a and second in b for a, b in (_IDENTITY_HEADS, _ENGLISH_IDENTITY_HEADS))


def _number(cell: str) -> int | None:
    """The number in a 序号 cell: `3`, `３`, `三`, `Q3`, `问题3`, `(3)`."""
    token = re.sub(r"^(?:问题|問題|第|q|no\.?|#)\s*|[题題]$|[.、)）(（\s]", "", cell, flags=re.I)
    return parse_question_number(token) if token else None


def _question_rows(rows: Sequence[Sequence[str]], columns: dict[Column, int]) -> Iterator[str]:
    order = 0
    used = set(columns.values())
    for row in rows:
        if not any(c.strip(_SPACE) for c in row):
            continue

        def cell(column: Column, row: Sequence[str] = row) -> str:
            at = columns.get(column)
            return row[at].strip(_SPACE) if at is not None and at < len(row) else ""

        order += 1
        number = _number(cell("number")) or order
        question = cell("question")
        labelled = question_re().match(question)  # `问题1：…` in the cell: its label once
        if labelled is not None and labelled.group("rest") is not None:
            question = labelled.group("rest")
        yield f"问题{number}：{question}"
        # other columns (a score, a note) stay with the question, never in its answer
        for at, value in enumerate(row):
            if at not in used and value.strip(_SPACE):
                yield value.strip(_SPACE)
        for column in ("goal", "answer"):
            if column in columns:
                yield f"{_LINE_LABEL[column]}：{cell(column)}"


def _label_cell(text: str) -> bool:
    return bool(text) and "\n" not in text and len(text) <= LABEL_CELL_MAX


def is_label(cell: str) -> bool:
    """Is `cell` a label word and nothing else: `姓名`, `面试官：`, `Round`, `岗位`?"""
    word = _head(cell)
    if not word or len(word) > LABEL_CELL_MAX:
        return False
    m = match_identity(f"{word}：-") or match_field(f"{word}：-")
    return m is not None and m.groupdict().get("rest") == "-"


def _label_columns(rows: Sequence[Sequence[str]]) -> Iterator[str] | None:
    """`姓名 | 面试官 | 日期` over `张三 | 李四 | 2026-11-28`: a label a column, its value
    below it; None for any other table."""
    if len(rows) != 2:
        return None
    labels, values = rows
    cells = [c for c in labels if c.strip(_SPACE)]
    if len(cells) < 2 or not all(is_label(c) for c in cells) or len(values) != len(labels):
        return None
    if any(is_label(v) for v in values if v.strip(_SPACE)):
        return None  # (a row of labels and values, twice: read row by row)
    return (
        f"{label}{'' if label.endswith(_COLONS) else '：'}{value}"
        for label, value in zip(labels, values, strict=True)
        if label.strip(_SPACE)
    )


def _plain_rows(rows: Sequence[Sequence[str]]) -> Iterator[str]:
    for row in rows:
        cells = list(row)
        while cells and not cells[-1] and len(cells) % 2:
            cells.pop()  # a trailing empty column
        pairs = (
            len(cells) % 2 == 0
            and all(_label_cell(c) for c in cells[::2])
            and not any(is_label(c) for c in cells[1::2] if c)  # `姓名 | 面试官`: no name
        )
        if not pairs:
            yield from (c for c in cells if c)
            continue
        for label, value in zip(cells[::2], cells[1::2], strict=True):
            sep = "" if label.endswith(_COLONS) else "："
            yield f"{label}{sep}{value}"


def table_lines(rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines a table says, its rows top to bottom (each row its cells' text). A cell
    merged with the one above it is empty: what it holds was read with the row above."""
    rows = [[c.strip("\n" + _SPACE) for c in row] for row in rows]
    rows = [row for row in rows if any(row)]
    if not rows:
        return []
    columns = _columns(rows[0])
    if columns is not None:
        return list(_question_rows(rows[1:], columns))
    if identity_header(rows[0]):
        rows = rows[1:]
    by_column = _label_columns(rows)
    if by_column is not None:
        return list(by_column)
    return list(_plain_rows(rows))
