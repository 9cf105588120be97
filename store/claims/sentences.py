"""A text cut into its sentences, each as written (stripped of the spaces around it); a
reviewer's note without the lines it quotes."""

from __future__ import annotations

import re

_END = re.compile(r"(?<=[。！？!?；;])|(?<=[.])(?=\s)|\n+")


def sentences(text: str) -> list[str]:
    """The sentences of `text` in order: cut after 。！？!?； (and `.` before a space) and
    at line ends; empty pieces dropped."""
    return [s.strip() for s in _END.split(text or "") if s and s.strip(" \t\r\n。.；;")]


_QUOTED = re.compile(r"^\s*(?:>|&gt;|＞)")


def unquoted(text: str) -> str:
    """`text` without the lines it quotes (`> …`, as Slack sends it `&gt; …`): a reply
    quoting another reviewer's words does not say them."""
    return "\n".join(line for line in (text or "").split("\n") if not _QUOTED.match(line))
