"""The full-text part of a save on PostgreSQL: the candidate's `tsv` column
(store/pg/lexemes.py), written with its row, in the save's statement.

Nothing of a candidate's text is kept anywhere else: `forget`, retention and `remove`
delete the row, and its `tsv` with it. The RUM index still lists the row until VACUUM
(`_erase_for_good` runs it, connection.py) takes its entries out of the index's
posting lists; a lexeme no other candidate holds may keep an empty entry in the
index's key pages (GIN's and RUM's vacuum never deletes keys): no query finds it,
nor the candidate, and REINDEX would rewrite those pages without it.
"""

from __future__ import annotations

from typing import Any

from ..base import Tx
from .connection import PgConnection
from .lexemes import document


class Indexing(PgConnection):
    """The `tsv` column of every save."""

    def _index_columns(self, indexed: tuple[str, str]) -> tuple[dict[str, Any], Any]:
        return {"tsv": document(indexed[0])}, None

    def _reindexing(self, tx: Tx, candidate_id: str) -> None:
        """Nothing to do: the save's upsert replaces `tsv`."""

    def _index(self, tx: Tx, rid: int, prepared: Any) -> None:
        """Nothing to do: `tsv` was written with the row."""

    def _unindex(self, tx: Tx, rid: int) -> None:
        """Nothing to do: `tsv` goes with the row (and `fts_version` moves by trigger)."""

    def _space_erased(self, tx: Tx, ws: int) -> None:
        """Nothing to do: PostgreSQL keeps nothing per space."""
