"""The full-text part of a save on PostgreSQL: a candidate's `fts` columns and its
frequency rows (postings.py), written with the save or with its batch, last; the rows
go with an update or a delete by trigger (store/schema/pg_search.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from .. import kept_postings
from ..base import SPACE_BITS, Tx
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
        store/schema/pg_search.py); its kept postings go in `_index`."""

    def _index(self, tx: Tx, rid: int, prepared: Any) -> None:
        """The new frequency rows (and kept postings) are written now, or with the batch,
        last: a save that failed before leaves none behind. The candidate's row is
        written: its transaction holds `fts_version` (pg008), so a search keeping a term
        cannot come between the old kept postings taken out here and the new ones."""
        fts, counted = prepared
        kept_postings.remove_row(tx.execute, rid)  # (a candidate saved again)
        batch = self.batch_rows()
        pending = Rows() if batch is None else batch
        pending.add(rid, counted.counts, counted.tokens, fts)
        if batch is None:
            self._keep_rows(tx.execute, pending.take_texts())
            pending.write(tx.conn)

    def _batch_written(self, conn: Any, rows: Rows) -> None:
        """A batch's rows are about to be written: their kept postings too."""

        def execute(sql: str, params: Any = ()) -> Any:
            return conn.execute(self.engine.convert(sql), params)

        self._keep_rows(execute, rows.take_texts())

    def _keep_rows(self, execute: Any, found: dict[int, tuple[str, dict[str, int]]]) -> None:
        """The kept postings of rows just written (their rids, `fts` and tokens)."""
        by_space: dict[int, list[tuple[int, str, str | Mapping[str, int]]]] = {}
        for rid, (fts, counts) in found.items():
            by_space.setdefault(rid >> SPACE_BITS, []).append((rid, fts, counts))
        for ws, rows in by_space.items():
            kept_postings.add_rows(execute, ws, rows)

    def _unindex(self, tx: Tx, rid: int) -> None:
        """The written rows go with the delete (triggers); those saved earlier in this
        batch are not written at all. The kept postings are taken out here, once this
        transaction holds `fts_version` as the delete's trigger would take it (pg008):
        a search keeping a term must not come between."""
        batch = self.batch_rows()
        if batch is not None:
            batch.drop(rid)
        tx.execute(
            "UPDATE fts_version SET version = version + 1"
            " WHERE current_setting('debrief.fts_bumped', true) IS DISTINCT FROM 'on'"
        )
        tx.execute("SELECT set_config('debrief.fts_bumped', 'on', true)")
        kept_postings.remove_row(tx.execute, rid)

    def _space_erased(self, tx: Tx, ws: int) -> None:
        """The frequency rows went with the space's candidates (triggers), and bm25's
        figures are counted per space at search time; its kept terms go here."""
        kept_postings.drop_space(tx.execute, ws)
