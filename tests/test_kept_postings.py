"""Postings kept for the terms a space searches (issue 39, store/sqlite/kept.py): the top
10 read from them is FTS5's exact bm25 top 10, before and after every kind of write;
the counts a save writes are FTS5's own; a search never waits for a writer to keep a
term; a space keeps at most `MAX_KEPT` terms; an erased space keeps none.

The exact answer is bench/oracle.py's: FTS5's bm25 of every match, read without a
LIMIT, apart from the store's ranking."""

from __future__ import annotations

import json
import shutil
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from bot.cli import cli
from bot.erasure import erase_space
from store import bm25, fulltext, kept_postings, rows, term_counts
from store.factory import open_store
from store.indexer import index_paths
from store.sqlite import kept, space_index
from store.sqlite.driver import sqlite3
from store.sqlite.store import Store
from store.workspace_models import Installation

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import corpus  # noqa: E402  (bench/corpus.py: the benchmark's transcripts)
import oracle  # noqa: E402  (bench/oracle.py: FTS5's exact bm25)
from run import QUERIES  # noqa: E402  (bench/run.py: the benchmark's query mixes)

# Transcripts written for what the bench's corpus never holds: short Latin words, a
# prefix, terms that overlap themselves, letters FTS5 folds to ASCII, both scripts.
SPECIAL = {
    "special-1.txt": "AI 平台和 ai 工具，会用 C# 与 go，也写 c++。哈哈哈哈，aaaa。模",
    "special-2.txt": "\u212aubernetes 与 Kubernetes；\u0130nfra 与 infra，\u017fession 团队。分佈式訓練和分布式训练都做过。",
    "special-3.txt": "TensorFlowLite 和 tensorflow，TensorFlow TensorFlow。Go 语言，AI 平台。模型模型模",
    "special-4.txt": "café 与 cafe；哈哈哈 aaa aa。c# C# c#。平台 平台 平台。",
    # FTS5's trigram tokenizer skips a NUL: the letters either side of it meet
    "special-5.txt": "Tensor\x00Flow 与 TensorFlow，分布式训练。",
}
SPECIAL_QUERIES = [
    "ai",
    "c#",
    "go",
    "模",
    "哈哈哈",
    "aaa",
    "kubernetes",
    "infra",
    "session",
    "分布式训练",
    "tensorflow",
    "平台",
    "café",
    "模型 c++",
    "ai 平台",
]
ALL_QUERIES = [q for qs in QUERIES.values() for q in qs] + SPECIAL_QUERIES


def transcript(body: str) -> str:
    return (
        f"摘要：{body}\n岗位：工程师 从业年限：3年\n简介：{body}\n"
        f"问题1：{body}\n考察目标：了解。\n回答：{body}\n点评：{body}\n"
    )


def write_corpus(folder: Path, n: int, seed: int) -> None:
    corpus.generate(n, folder, seed=seed, workers=1)
    for name, body in SPECIAL.items():
        # a NUL gets in through UTF-16 only (a UTF-8 file with one is refused as binary)
        encoding = "utf-16" if "\x00" in body else "utf-8"
        (folder / name).write_text(transcript(body), encoding=encoding)


def debrief(*args: str) -> Any:
    result = CliRunner().invoke(cli, list(args), env={"DEBRIEF_LOCALE": "en"})
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout) if "--json" in args else result.output


def exact(db: str, query: str) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        id_of = dict(conn.execute("SELECT rid, id FROM candidates").fetchall())
        return [id_of[r] for r in oracle.exact_top(conn, query)]
    finally:
        conn.close()


def searched(db: str, query: str) -> list[str]:
    hits = debrief("search", *query.split(), "--db", db, "--json")
    return [h["id"] for h in hits if not h["partial"]]


def test_kept_terms_give_the_exact_top_10_before_and_after_every_write(
    db_target: str, tmp_path: Path
) -> None:
    folder = tmp_path / "corpus"
    write_corpus(folder, 120, seed=0)
    reference = db_target
    dbs = [db_target]
    for db in dbs:
        debrief("index", str(folder), "--db", db, "--json")
    for query in ALL_QUERIES:
        top = exact(reference, query)
        assert searched(db_target, query) == top, query  # ranked by FTS5, then kept
        assert searched(db_target, query) == top, query  # ranked from the kept postings
    opened = open_store(db_target)
    try:  # the second search of each query was answered from kept postings
        assert int(opened._scalar("SELECT count(*) FROM search_terms")) > 20
    finally:
        opened.close()
    # new files, changed files, a forgotten candidate: every kind of write
    write_corpus(tmp_path / "more", 40, seed=1)
    for path in sorted((tmp_path / "more").iterdir())[:40]:
        shutil.copy(path, folder / f"more-{path.name}")
    for path in sorted(folder.glob("*.txt"))[:6]:
        text = path.read_text(encoding="utf-8")
        path.write_text(text + "\nTensorFlow TensorFlow 模型 ai 平台 哈哈哈哈\n", encoding="utf-8")
    for db in dbs:
        debrief("index", str(folder), "--db", db, "--json")
        found = debrief("list", "--db", db, "--json")
        victim = sorted(c["id"] for c in found)[7]  # ids follow the files: the same in both
        debrief("forget", victim, "--yes", "--db", db)
    for query in ALL_QUERIES:
        assert searched(db_target, query) == exact(reference, query), query


# -- SQLite's own: the kept postings themselves ------------------------------------------


@pytest.fixture
def indexed(tmp_path: Path) -> Iterator[Store]:
    folder = tmp_path / "corpus"
    write_corpus(folder, 60, seed=2)
    store = Store(tmp_path / "kept.db")
    assert not index_paths(store, [folder]).failed
    yield store
    store.close()


def fts5_counts(store: Store, term: fulltext.Term) -> dict[int, tuple[int, int]]:
    """{rid: (instances, size)} of a term as FTS5 sees it, from its own bm25."""
    built = kept.build(store.db.conn.execute, 0, term, store.rid_range)
    assert built is not None
    _term, rids, freqs, sizes = built
    return {int(r): (int(f), int(s)) for r, f, s in zip(rids, freqs, sizes, strict=True)}


def test_the_counts_a_save_writes_are_fts5s_own(indexed: Store) -> None:
    texts = {}
    for row in indexed.db.execute(
        "SELECT rid, position, intro, summary, verdict, name, interviewers FROM candidates"
    ).fetchall():
        questions = space_index.indexed_questions(indexed.db.execute, row[0])
        text = fulltext.doc_text(
            row[1], row[2], row[3], questions, row[4], row[5], rows.names(row[6])
        )
        texts[row[0]] = (text, fulltext.bigrams(text))
    terms = {t for q in ALL_QUERIES for t in fulltext.terms(q) if term_counts.keepable(t)}
    assert {term_counts.kind_of(t) for t in terms} == {"trigram", "bigram", "prefix", "short"}
    listed = [(i, term_counts.kind_of(t), t.text) for i, t in enumerate(sorted(terms, key=str))]
    counted = {rid: term_counts.count(text, row, listed) for rid, (text, row) in texts.items()}
    for rid, (text, row) in texts.items():  # PostgreSQL's save gives the tokens counted
        assert term_counts.count(text, Counter(row.split()), listed) == counted[rid]
    for i, _kind, _text in listed:
        term = sorted(terms, key=str)[i]
        ours = {
            rid: (c.found[i], c.trigram_size if term.kind == "trigram" else c.bigram_size)
            for rid, c in counted.items()
            if i in c.found
        }
        assert ours == fts5_counts(indexed, term), term


def test_a_term_outside_ascii_and_cjk_is_ranked_by_fts5(indexed: Store) -> None:
    assert not term_counts.keepable(fulltext.terms("café")[0])
    assert [h.id for h in indexed.search("café")]
    assert indexed.db.execute("SELECT count(*) FROM search_terms").fetchone()[0] == 0


@contextmanager
def writer_at_work(db: str) -> Iterator[None]:
    """Another process in the middle of a save: SQLite's write lock."""
    other = sqlite3.connect(db)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def kept_count(store: Any) -> int:
    return int(store._scalar("SELECT count(*) FROM search_terms"))


def test_a_search_never_waits_for_a_writer_to_keep_a_term(db_target: str, tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    write_corpus(folder, 30, seed=4)
    store = open_store(db_target)
    try:
        assert not index_paths(store, [folder]).failed
        with writer_at_work(db_target):
            first = [h.id for h in store.search("TensorFlow")]
            assert kept_count(store) == 0
        store.clear_search_cache()
        assert [h.id for h in store.search("TensorFlow")] == first  # and now kept
        assert kept_count(store) == 1
        store.clear_search_cache()
        assert [h.id for h in store.search("TensorFlow")] == first  # from the kept postings
    finally:
        store.close()


def test_postings_read_before_a_write_are_not_kept(
    db_target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A term's postings are read in the search's snapshot, then written: if a save
    reached the index in between, they would miss it, so they are not kept."""
    folder, extra = tmp_path / "corpus", tmp_path / "extra"
    write_corpus(folder, 30, seed=5)
    extra.mkdir()
    (extra / "late.txt").write_text(transcript("TensorFlow TensorFlow TensorFlow"), "utf-8")
    store, other = open_store(db_target), open_store(db_target)
    module: Any = kept
    real = module.build

    def build_then_a_save(*args: Any) -> Any:
        built = real(*args)
        assert not index_paths(other, [extra]).failed  # another process's save
        return built

    try:
        assert not index_paths(store, [folder]).failed
        monkeypatch.setattr(module, "build", build_then_a_save)
        store.search("TensorFlow")
        assert kept_count(store) == 0
        monkeypatch.setattr(module, "build", real)
        store.clear_search_cache()
        fresh = [h.id for h in store.search("TensorFlow")]  # kept now, the late one in it
        assert kept_count(store) == 1
        store.clear_search_cache()
        assert [h.id for h in store.search("TensorFlow")] == fresh
        assert "late" in {h.id for h in store.search("TensorFlow", limit=1000)}
    finally:
        store.close()
        other.close()


def test_the_oldest_kept_terms_make_room(indexed: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kept_postings, "MAX_KEPT", 3)
    for query in ("模型", "数据", "优化", "框架", "并行"):
        indexed.search(query)
    left = [r[0] for r in indexed.db.execute("SELECT term FROM search_terms ORDER BY id")]
    assert left == ["优化", "框架", "并行"]
    ids = {r[0] for r in indexed.db.execute("SELECT id FROM search_terms")}
    held = {r[0] for r in indexed.db.execute("SELECT DISTINCT term_id FROM search_postings")}
    assert held == ids


def iso(**delta: float) -> str:
    return (datetime.now(UTC) + timedelta(**delta)).isoformat(timespec="microseconds")


def test_an_erased_space_keeps_no_term(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    write_corpus(folder, 20, seed=3)
    store = Store(tmp_path / "spaces.db")
    try:
        ws = store.save_installation(
            Installation(
                enterprise_id=None,
                team_id="T0009",
                team_name="t",
                bot_id="B9",
                bot_user_id="U9",
                bot_token_enc="x",
            )
        )
        view = store.in_workspace(ws)
        assert not index_paths(view, [folder]).failed
        assert view.search("TensorFlow") and view.search("模型")
        assert (
            store.db.execute("SELECT count(*) FROM search_terms WHERE ws = ?", [ws]).fetchone()[0]
            == 2
        )
        assert store.uninstall("T0009", iso(seconds=-1))
        workspace = store.workspace_of("T0009")
        assert workspace is not None
        assert erase_space(store, workspace, "debrief").finished
        assert store.db.execute("SELECT count(*) FROM search_terms").fetchone()[0] == 0
        assert store.db.execute("SELECT count(*) FROM search_postings").fetchone()[0] == 0
    finally:
        store.close()


def test_a_forgotten_candidate_s_own_terms_are_not_kept_after_them(indexed: Store) -> None:
    rid_of = {r[1]: r[0] for r in indexed.db.execute("SELECT rid, id FROM candidates")}
    assert [h.id for h in indexed.search("infra")] == ["special-2"]
    assert indexed.search("TensorFlow")
    assert indexed.db.execute("SELECT count(*) FROM search_terms").fetchone()[0] == 2
    assert indexed.forget("special-2")
    assert [r[0] for r in indexed.db.execute("SELECT term FROM search_terms")] == ["tensorflow"]
    indexed.clear_search_cache()
    assert indexed.search("infra") == []
    hits = indexed.search("TensorFlow", snippets=False)
    assert [rid_of[h.id] for h in hits] == oracle.exact_top(indexed.db, "TensorFlow")


def test_equal_scores_rank_the_newest_first() -> None:
    rids = np.array([5, 9, 7, 3, 8], dtype=np.int64)
    scores = np.array([-1.0, -2.0, -2.0, -2.0, -0.5])
    assert [r for r, _s in bm25.best(rids, scores, 2)] == [9, 7]
    assert [r for r, _s in bm25.best(rids, scores, 4)] == [9, 7, 3, 5]
    assert bm25.best(rids, scores, 0) == []
