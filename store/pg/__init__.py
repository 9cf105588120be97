"""The PostgreSQL backend: `PgStore` (store.py) and what is PostgreSQL's own."""

from __future__ import annotations

from .connection import display_url
from .store import PgStore

__all__ = ["PgStore", "display_url"]
