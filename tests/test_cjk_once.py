"""Each CJK character is tokenized once: Chinese terms of 3+ characters are phrases of
bigrams, the trigram table holds the rest of the text. What a search finds is what it
found before; a phrase never matches across two runs of Chinese; an upgraded database
is rebuilt and finds what a new one finds, on both backends."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_search import CORPUS, _transcript

from store import fulltext
from store.factory import open_store
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
SEP = fulltext.SEPARATOR

APART = ("c20_apart", "了解分布。布式系统没做过。", ["熟悉。"])  # 分布, 布式: never 分布式
TOGETHER = ("c21_together", "做过分布式系统。", ["熟悉。"])

QUERIES = [
    "分布式",
    "分布",
    "布式",
    "分布式训练调优",
    "TensorFlow 分布式",
    "负载均衡",
    "TensorFlow",
    "AI",
    "模型",
    "布",
    "C++",
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("分布式", "分布 布式"),
        ("分布。布式", f"分布 {SEP} 布式"),  # the second run begins where the first ended
        ("分布。式样", "分布 式样"),  # no phrase of bigrams can cross here
        ("分布。的。布式", f"分布 {SEP} 布式"),  # a 1-character run holds no bigram
        ("AI平台 and Go", "平台 ai go"),
        ("哈哈，哈哈", f"哈哈 {SEP} 哈哈"),
    ],
)
def test_bigrams_keep_runs_apart_only_where_a_phrase_could_cross(text: str, expected: str) -> None:
    assert fulltext.bigrams(text).split() == expected.split()


def test_the_trigram_text_keeps_its_length_without_chinese() -> None:
    text = "用TensorFlow做过分布式训练，C++ 也会。"
    blank = fulltext.blank_cjk(text)
    assert len(blank) == len(text)
    assert not re.search(f"[{fulltext.CJK_RANGES}]", blank)
    assert "TensorFlow" in blank and "C++" in blank


def _filled(db_target: str) -> Any:
    store: Any = open_store(db_target)
    for cid, summary, answers in [*CORPUS, APART, TOGETHER]:
        store.save(_transcript(cid, summary, answers))
    assert not index_paths(store, [SEEDS]).failed
    return store


def _found(store: Any) -> dict[str, list[str]]:
    return {q: [h.id for h in store.search(q, limit=50)] for q in QUERIES}


def test_a_phrase_never_matches_across_two_runs(db_target: str) -> None:
    store = _filled(db_target)
    try:
        phrase = [h.id for h in store.search("分布式", limit=50)]
        assert "c21_together" in phrase and "c20_apart" not in phrase
        assert "c20_apart" in [h.id for h in store.search("布式", limit=50)]
        assert "c20_apart" in [h.id for h in store.search("分布", limit=50)]
    finally:
        store.close()


def _old_bigrams(text: str) -> str:
    """What the bigram table held before: every bigram, no separator."""
    folded = text.casefold()
    pairs = re.findall(f"(?=([{fulltext.CJK_RANGES}]{{2}}))", folded)
    return " ".join(pairs) + " " + " ".join(fulltext._SHORT_RE.findall(folded))


def _as_before(store: Any) -> None:
    """The database as the release before left it: CJK in the trigram table, no
    separators in the bigram table (and on PostgreSQL in the lengths)."""
    from store.sqlite.search import indexed_text

    with store.tx() as tx:
        if store.engine.name == "sqlite":
            rids = [r[0] for r in tx.execute("SELECT rid FROM candidates").fetchall()]
            tx.execute("INSERT INTO candidates_fts (candidates_fts) VALUES ('delete-all')")
            tx.execute("INSERT INTO candidates_bigrams (candidates_bigrams) VALUES ('delete-all')")
            for rid in rids:
                text = indexed_text(tx.execute, rid)
                tx.execute("INSERT INTO candidates_fts (rowid, text) VALUES (?, ?)", [rid, text])
                tx.execute(
                    "INSERT INTO candidates_bigrams (rowid, bigrams) VALUES (?, ?)",
                    [rid, _old_bigrams(text or "")],
                )
            tx.execute("DELETE FROM _migrations WHERE name = 'm017_cjk_tokenized_once'")
        else:
            rows = tx.execute("SELECT rid, fts FROM candidates").fetchall()
            for rid, fts in rows:
                length = len(_old_bigrams(fts).split())
                tx.execute("UPDATE candidates SET terms_len = ? WHERE rid = ?", [length, rid])
                tx.execute("UPDATE postings SET dl = ? WHERE rid = ?", [length, rid])
            tx.execute("DROP INDEX candidates_terms_length")
            tx.execute("DELETE FROM _migrations WHERE name = 'pg015_cjk_tokenized_once'")


def _fts(store: Any) -> str:
    with store.tx() as tx:
        return str(tx.execute("SELECT fts FROM candidates WHERE id = 'c20_apart'").fetchone()[0])


def _lengths(store: Any) -> tuple[int, int, int]:
    """c20_apart's bigram-side length, and the least and greatest of its postings' dl."""
    with store.tx() as tx:
        found = tx.execute(
            "SELECT c.terms_len, min(p.dl), max(p.dl) FROM candidates c"
            " JOIN postings p ON p.rid = c.rid WHERE c.id = 'c20_apart' GROUP BY c.terms_len"
        ).fetchone()
    return int(found[0]), int(found[1]), int(found[2])


def test_an_upgraded_database_finds_what_a_new_one_finds(db_target: str) -> None:
    store = _filled(db_target)
    expected = _found(store)
    assert expected["分布式"] and expected["TensorFlow"] and expected["C++"]
    _as_before(store)
    if store.engine.name == "postgresql":
        assert _lengths(store) == (len(_old_bigrams(_fts(store)).split()),) * 3
    store.close()

    upgraded: Any = open_store(db_target)
    try:
        assert _found(upgraded) == expected
        if upgraded.engine.name == "postgresql":  # the separator counts, as FTS5 counts it
            assert _lengths(upgraded) == (len(fulltext.bigrams(_fts(upgraded)).split()),) * 3
            assert SEP in fulltext.bigrams(_fts(upgraded)).split()
        # what was indexed the new way is deleted the new way: nothing of it stays
        assert upgraded.remove("c21_together")
        assert "c21_together" not in [h.id for h in upgraded.search("分布式", limit=50)]
    finally:
        upgraded.close()
