"""SQLite's words for what store/engine.py lists: the driver takes `?` as written."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import Clause


class SqliteEngine:
    name = "sqlite"
    no_limit: int | None = -1
    bytewise = "COLLATE BINARY"  # SQLite's default: said for the reader
    lock_rows = ""  # a write transaction (BEGIN IMMEDIATE) already excludes every writer

    def storable(self, text: str | None) -> str | None:
        return text

    def convert(self, sql: str) -> str:
        return sql

    def in_list(self, column: str, values: Sequence[Any]) -> Clause:
        return f"{column} IN ({', '.join('?' for _ in values)})", list(values)

    def contains(self, text: str, part: str) -> str:
        return f"instr({text}, {part}) > 0"

    def starts_with(self, column: str, prefix: str) -> Clause:
        # a range the column's index serves (LIKE would not: it ignores ASCII case)
        return f"{column} >= ? AND {column} < ?", [prefix, prefix + "\U0010ffff"]


ENGINE = SqliteEngine()
