"""What a document's layout says that is not its text: a heading or a title is layout
unless it is a label itself (`## 问题1`, `<h2>点评</h2>`), a numbered line (`1. 怎么排障？`,
a question in a file with no question label) or the opening of the candidate's questions
or the remarks (`## 反问`, `## 备注`: what follows is no answer), which reads as its line."""

from __future__ import annotations

from .labels import match_field, match_identity, numbered_re, question_re, remarks_re


def heading(text: str) -> str | None:
    """A heading's line when it is a label (`问题1`, `点评`, `岗位：数据工程师`), else None:
    a title or a section's name (`张三面试记录`, `基本信息`, `问答`) is no field's text."""
    line = text.strip(" \t\u3000\u00a0\n")
    if not line:
        return None
    if numbered_re().match(line) or remarks_re().match(line):
        return line
    for form in (line, line if line.startswith("#") else f"# {line}"):
        if match_field(form) or question_re().match(form) or match_identity(form):
            return form  # (`# Verdict`: an English word is a label as a heading)
    return None
