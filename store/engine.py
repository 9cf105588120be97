"""What differs between SQLite and PostgreSQL in the SQL both run (after the storage
engines of element-hq/synapse): every shared query is written once, with `?`
parameters, and the engine of the store it runs on says the few things each dialect
says its own way.

Both dialects take the rest as written: `INSERT ... ON CONFLICT ... DO NOTHING / DO
UPDATE` (SQLite 3.35+), `RETURNING`, `count(*) FROM (...) AS name`, a quoted `"user"`.
The engines are `store/sqlite/engine.py` and `store/pg/engine.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

Clause = tuple[str, list[Any]]
"""A piece of SQL and the parameters its `?` take, in order."""


class Engine(Protocol):
    name: str
    """`sqlite` or `postgresql`."""

    no_limit: int | None
    """What `LIMIT ?` takes for "every row"."""

    bytewise: str
    """A COLLATE clause after a text expression that makes it compare byte by byte."""

    lock_rows: str
    """Appended to a SELECT inside a write transaction: what makes the rows it reads wait
    for (and then hold off) another writer. Empty where a write transaction already
    excludes every other writer."""

    def storable(self, text: str | None) -> str | None:
        """`text` as this database can hold it."""
        ...

    def convert(self, sql: str) -> str:
        """`sql`, written with `?` parameters, in the driver's parameter style."""
        ...

    def in_list(self, column: str, values: Sequence[Any]) -> Clause:
        """`column` is one of `values`."""
        ...

    def contains(self, text: str, part: str) -> str:
        """SQL that is true when the SQL expression `part` occurs in `text`."""
        ...

    def starts_with(self, column: str, prefix: str) -> Clause:
        """`column` starts with `prefix`, in a way its index can serve."""
        ...


__all__ = ["Clause", "Engine"]
