"""The full-text part of a save on PostgreSQL: a candidate's `fts` columns and its
frequency rows (postings.py), written with the save or with its batch, last; the rows
go with an update or a delete by trigger (store/schema/pg_search.py).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..base import Tx
from .connection import PgConnection
from .postings import Rows, text_array


class Counted:
    """A candidate's bigram-side tokens, split and counted once for both the candidate's
    columns and its frequency rows."""

    __slots__ = ("counts", "tokens")

    def __init__(self, bigrams: str) -> None:
        tokens = bigrams.split()
        self.counts = Counter(tokens)
        self.tokens = len(tokens)


def counted_text(text: str, bigrams: str) -> tuple[str, Counted]:
    """A candidate's `fts` (its indexed text, case-folded) and its counted tokens."""
    return text.casefold().replace("\x00", ""), Counted(bigrams)


class Indexing(PgConnection):
    """The full-text columns and frequency rows of every save."""

    def _index_columns(self, indexed: tuple[str, str]) -> tuple[dict[str, Any], Any]:
        fts, counted = counted_text(*indexed)
        # `terms` in no order: the trigger only asks whether a key is among them
        columns = {
            "fts": fts,
            "fts_len": len(fts),
            "terms": text_array(list(counted.counts)),
            "terms_len": counted.tokens,
        }
        return columns, (fts, counted)

    def _reindexing(self, tx: Tx, candidate_id: str) -> None:
        """Nothing to do: the old frequency rows go with the update (triggers, see
        store/schema/pg_search.py)."""

    def _index(self, tx: Tx, rid: int, prepared: Any) -> None:
        """The new frequency rows are written now, or with the batch, last: a save that
        failed before leaves none behind."""
        fts, counted = prepared
        batch = self.batch_rows()
        pending = Rows() if batch is None else batch
        pending.add(rid, counted.counts, counted.tokens, fts)
        if batch is None:
            pending.write(tx.conn)

    def _unindex(self, tx: Tx, rid: int) -> None:
        """The written rows go with the delete (triggers); those saved earlier in this
        batch are not written at all."""
        batch = self.batch_rows()
        if batch is not None:
            batch.drop(rid)

    def _space_erased(self, tx: Tx, ws: int) -> None:
        """Nothing to do: the frequency rows went with the space's candidates (triggers),
        and bm25's figures are counted per space at search time."""
