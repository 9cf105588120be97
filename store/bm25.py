"""FTS5's bm25, computed outside FTS5 to the last bit (pure: numbers in, numbers out).

SQLite's `bm25()` (ext/fts5/fts5_aux.c) scores a row, for each phrase i of the query in
the order the MATCH expression gives them:

    idf_i = log((N - n_i + 0.5) / (n_i + 0.5)), or 1e-6 when that is not above 0
    score += idf_i * (f_i * (k1 + 1.0)) / (f_i + k1 * (1 - b + b * D / avgdl))

and returns -1.0 * score; N is the table's row count, n_i the rows matching phrase i,
f_i its instances in the row, D the row's size in tokens, avgdl the table's total
size over N, k1 = 1.2 and b = 0.75. The functions here do the same operations in the
same order on IEEE doubles (numpy's element-wise arithmetic rounds each operation as C
does), so a score computed here is equal, not close, to FTS5's: the order of two rows,
ties included, is FTS5's order. `invert` goes the other way, from FTS5's score of a
one-phrase query to the phrase's instances in the row.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

K1 = 1.2
B = 0.75

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def idf(rows: int, hits: int) -> float:
    """A phrase's idf in a table of `rows` rows, `hits` of which match it."""
    value = math.log((rows - hits + 0.5) / (hits + 0.5))
    return 1e-6 if value <= 0.0 else value


def average_size(rows: int, tokens: int) -> float:
    """avgdl: the table's total size in tokens over its rows."""
    return float(tokens) / float(rows)


def _norm(sizes: Floats, avgdl: float) -> Floats:
    """k1 * (1 - b + b * D / avgdl), element by element, in FTS5's order."""
    result: Floats = K1 * ((1 - B) + (B * sizes) / avgdl)
    return result


def phrase_part(weight: float, freqs: Floats, sizes: Floats, avgdl: float) -> Floats:
    """One phrase's term of the sum, for rows whose instances are `freqs` and sizes
    `sizes`."""
    result: Floats = weight * ((freqs * (K1 + 1.0)) / (freqs + _norm(sizes, avgdl)))
    return result


def table_score(parts: Sequence[Floats]) -> Floats:
    """FTS5's bm25() of rows from their phrases' parts (in the query's phrase order):
    the sum from 0.0, then negated (lower is better, as FTS5 returns it)."""
    score: Floats = np.zeros(len(parts[0]), dtype=np.float64)
    for part in parts:
        score = score + part
    negated: Floats = -1.0 * score
    return negated


def invert(bm25: Floats, sizes: Floats, avgdl: float, weight: float) -> Ints:
    """The phrase instances behind FTS5's bm25() of a one-phrase query (exact after
    rounding: the score is a ratio of small integers' functions, far from ambiguity)."""
    score = -bm25
    freqs = score * _norm(sizes, avgdl) / (weight * (K1 + 1.0) - score)
    found: Ints = np.rint(freqs).astype(np.int64)
    return found


def best(rids: Ints, scores: Floats, k: int) -> list[tuple[int, float]]:
    """The `k` best rows: lowest score first, the newest (highest rid) first among
    equals; as (rid, -score), the store's "higher is better"."""
    if len(rids) == 0 or k <= 0:
        return []
    if len(rids) > k:
        kth = np.partition(scores, k - 1)[k - 1]
        keep = scores <= kth  # ties at the boundary stay: the newest of them win
        rids, scores = rids[keep], scores[keep]
    order = np.lexsort((-rids, scores))[:k]
    return [(int(rids[i]), -float(scores[i])) for i in order]
