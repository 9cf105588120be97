"""What the fork server of the reading processes (bounded.py) loads once, so that each
file read costs a fork and not half a second of imports and compiling: the readers,
the libraries they use, and the transcript grammar compiled by reading a short file.
Imported by that fork server alone (by name), never by the bot."""

from __future__ import annotations

import contextlib

import docx  # noqa: F401  (python-docx)
import lxml.html  # noqa: F401
import pdfplumber  # noqa: F401
import pypdf  # noqa: F401

from .. import fulltext
from .errors import ParseError
from .files import prepare  # noqa: F401
from .parser import parse_transcript

_SAMPLE = (
    "# 面试记录\n姓名：张三 面试官：李四、王五 面试日期：2026-11-28 周六 14:00\n"
    "**岗位**：SRE 从业年限：约3年半\n| 问题 | 回答 |\n|---|---|\n"
    "问题1：为什么？\n考察目标：x\n回答：不知道\n点评：通过\n"
)

with contextlib.suppress(ParseError):
    fulltext.indexed(parse_transcript(_SAMPLE.encode(), "sample.md"))
