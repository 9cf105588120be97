"""The exact top 10 (issue 39): every query of the benchmark's mixes (bench/run.py
QUERIES), over transcripts of the benchmark's own corpus maker at small N, is answered
with the top 10 of FTS5's exact bm25 over every match (bench/oracle.py, computed apart
from the store's ranking SQL on a SQLite database holding the same files), in order:
on SQLite (PostgreSQL ranks with its own engine since issue 47). Through the real CLI
(`debrief index`, `debrief search --json`).

A guard for making search faster (block bounds, word tokens): whatever ranks fewer
matches must still give this answer."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from bot.cli import cli
from store.sqlite.driver import sqlite3

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import corpus  # noqa: E402  (bench/corpus.py: the benchmark's transcripts)
import oracle  # noqa: E402  (bench/oracle.py: FTS5's exact bm25)
from run import QUERIES  # noqa: E402  (bench/run.py: the benchmark's query mixes)

N = 300


def debrief(*args: str) -> Any:
    result = CliRunner().invoke(cli, list(args), env={"DEBRIEF_LOCALE": "en"})
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_every_bench_query_gets_the_exact_bm25_top_10(db_target: str, tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    corpus.generate(N, folder, seed=0, workers=1)
    reference = db_target
    assert len(debrief("index", str(folder), "--db", db_target, "--json")["indexed"]) == N
    conn = sqlite3.connect(reference)
    try:
        id_of = dict(conn.execute("SELECT rid, id FROM candidates").fetchall())
        expected = {
            q: [id_of[r] for r in oracle.exact_top(conn, q)]
            for queries in QUERIES.values()
            for q in queries
        }
    finally:
        conn.close()
    # every query has ten matches or more, and bm25 is not the newest first
    assert all(len(top) == 10 for top in expected.values())
    assert all(top != sorted(top, reverse=True) for top in expected.values())
    for query, top in expected.items():
        hits = debrief("search", *query.split(), "--db", db_target, "--json")
        exact = [h["id"] for h in hits if not h["partial"]]
        assert exact == top, query
        assert all(h["partial"] for h in hits[len(exact) :]), query
