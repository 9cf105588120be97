"""PostgreSQL's words for what store/engine.py lists. psycopg takes `%s` parameters,
so a literal `%` in a query is doubled; a list is one array parameter."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..engine import Clause


@lru_cache(maxsize=512)
def _convert(sql: str) -> str:
    return sql.replace("%", "%%").replace("?", "%s")


class PostgresEngine:
    name = "postgresql"
    no_limit: int | None = None  # LIMIT NULL: every row
    bytewise = 'COLLATE "C"'
    lock_rows = " FOR UPDATE"  # replicas write at once: a row is locked, not the database

    def storable(self, text: str | None) -> str | None:
        return text.replace("\x00", "") if text else text  # its text cannot hold NUL

    def convert(self, sql: str) -> str:
        return _convert(sql)

    def in_list(self, column: str, values: Sequence[Any]) -> Clause:
        return f"{column} = ANY(?)", [list(values)]

    def contains(self, text: str, part: str) -> str:
        return f"strpos({text}, {part}) > 0"

    def starts_with(self, column: str, prefix: str) -> Clause:
        return f"starts_with({column}, ?)", [prefix]


ENGINE = PostgresEngine()
