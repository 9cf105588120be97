"""A text cut into its sentences, each as written (stripped of the spaces around it)."""

from __future__ import annotations

import re

_END = re.compile(r"(?<=[。！？!?；;])|(?<=[.])(?=\s)|\n+")


def sentences(text: str) -> list[str]:
    """The sentences of `text` in order: cut after 。！？!?； (and `.` before a space) and
    at line ends; empty pieces dropped."""
    return [s.strip() for s in _END.split(text or "") if s and s.strip(" \t\r\n。.；;")]
