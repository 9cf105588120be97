"""The document model every format is read into before any fact is read from it: a
file's blocks (headings with their level, paragraphs, list items with their depth,
tables, quotes, code, rules), emphasis and front matter set aside (issue 46).

This module holds the model only; the builder (`document(text, markdown)`) is the
structure step's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

BlockKind = Literal["heading", "paragraph", "item", "table", "quote", "code", "rule"]


@dataclass(frozen=True)
class Block:
    kind: BlockKind
    text: str  # plain text, emphasis markers (** * __ ` etc.) removed, inline links as text
    level: int = 0  # heading: 1-6; item: list depth (0 = top level); else 0
    marks: tuple[str, ...] = ()  # emphasised runs (bold/italic/strong) as they read
    rows: tuple[tuple[str, ...], ...] = ()  # table: its rows of cells (first = header)
    ordered: bool = False  # item of an ordered list
    number: int | None = None  # item's ordinal in an ordered list
    line: int = 0  # 1-based line in the source text where the block starts


@dataclass(frozen=True)
class Document:
    blocks: tuple[Block, ...]
    front_matter: str = ""  # YAML front matter, set aside as written (never a summary)
    text: str = ""  # the whole text as written (minus front matter)
