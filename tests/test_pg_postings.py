"""PostgreSQL's `postings` (bm25 frequencies of the bigram-side tokens, see
store/pg/migrations.py pg004): what a save writes, what a re-save or a delete leaves, and
that the migration builds the same rows for a database saved before it existed.

Skipped, loudly, where no PostgreSQL server can be started (see tests/pg_fixtures.py)."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from pg_fixtures import fresh_pg_url
from test_search import CORPUS, _transcript

from store import fulltext
from store.models import Transcript
from store.pg import PgStore

Rows = set[tuple[str, int, int, int]]


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> str:
    return fresh_pg_url(request)


def _postings(store: PgStore) -> Rows:
    return {
        (str(r[0]), int(r[1]), int(r[2]), int(r[3]))
        for r in store.db.execute("SELECT term, rid, tf, dl FROM postings")
    }


def _expected(store: PgStore) -> Rows:
    """The rows each candidate's own indexed text calls for."""
    found: Rows = set()
    for rid, cid in store.db.execute("SELECT rid, id FROM candidates"):
        t = next(t for t in _corpus() if t.id == cid)
        tokens = fulltext.indexed(t)[1].split()
        found |= {(term, int(rid), tf, len(tokens)) for term, tf in Counter(tokens).items()}
    return found


def _words(store: PgStore) -> Rows:
    return {
        (str(r[0]), int(r[1]), int(r[2]), int(r[3]))
        for r in store.db.execute("SELECT word, rid, tf, dl FROM words")
    }


def _expected_words(store: PgStore) -> Rows:
    found: Rows = set()
    for rid, fts in store.db.execute("SELECT rid, fts FROM candidates"):
        counts = Counter(re.findall("[0-9a-z]{3,}", fts))
        found |= {(word, int(rid), tf, len(fts)) for word, tf in counts.items()}
    return found


def _corpus() -> list[Transcript]:
    return [_transcript(cid, summary, answers) for cid, summary, answers in CORPUS]


def test_a_save_writes_each_token_once_with_its_count_and_a_resave_or_delete_replaces_them(
    pg_url: str,
) -> None:
    store = PgStore(pg_url)
    for t in _corpus():
        store.save(t)
    rows = _postings(store)
    assert rows and rows == _expected(store)
    assert any(tf > 1 for _, _, tf, _ in rows)  # frequencies, not just presence
    words = _words(store)
    assert words and words == _expected_words(store)

    first = _corpus()[0]
    row = store.db.execute("SELECT rid FROM candidates WHERE id = %s", [first.id]).fetchone()
    assert row is not None
    rid = int(row[0])
    changed = _transcript(first.id, "并行并行 go 模型 Kubernetes kubernetes", ["数据"])
    store.save(changed)
    tokens = fulltext.indexed(changed)[1].split()
    mine = {r for r in _postings(store) if r[1] == rid}
    assert mine == {(term, rid, tf, len(tokens)) for term, tf in Counter(tokens).items()}
    assert ("并行", rid, 2, len(tokens)) in mine
    assert {(w, tf) for w, r, tf, _ in _words(store) if r == rid} == {("kubernetes", 2)}
    assert _words(store) == _expected_words(store)

    assert store.remove(first.id)
    assert not {r for r in _postings(store) if r[1] == rid}
    assert not {r for r in _words(store) if r[1] == rid}
    assert len(_postings(store)) > 0
    store.close()


def test_the_migration_builds_the_postings_of_candidates_saved_before_it(pg_url: str) -> None:
    store = PgStore(pg_url)
    for t in _corpus():
        store.save(t)
    saved, saved_words = _postings(store), _words(store)
    before = store.search("并行", limit=50)
    before_words = store.search("tensorflow", limit=50)
    assert before_words
    with store.tx() as conn:  # back to the schema before pg004, candidates kept
        conn.execute("DROP TRIGGER candidates_words ON candidates")
        conn.execute("DROP FUNCTION candidates_drop_words()")
        conn.execute("DROP TABLE words, vocabulary")
        conn.execute("DELETE FROM _migrations WHERE name = 'pg005_words'")
        conn.execute("DROP TRIGGER candidates_postings ON candidates")
        conn.execute("DROP FUNCTION candidates_drop_postings()")
        conn.execute("DROP TABLE postings")
        conn.execute("DELETE FROM _migrations WHERE name = 'pg004_postings'")
    store.close()

    again = PgStore(pg_url)
    assert _postings(again) == saved
    assert _words(again) == saved_words
    assert [h.id for h in again.search("并行", limit=50)] == [h.id for h in before]
    assert [h.id for h in again.search("tensorflow", limit=50)] == [h.id for h in before_words]
    again.close()


def test_ranking_by_bound_gives_the_exact_top_across_many_chunks(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CJK term of 3+ characters is scored exactly only for the candidates whose
    bigram bound can still reach the top; the answer must be the full exact query's."""
    store = PgStore(pg_url)
    with store.batch():
        for i in range(450):
            # 260 decoys first: their bigrams often apart (a high bound), the phrase once;
            # then candidates with the phrase several times (a lower bound, the real top)
            if i < 260:
                text = "分布 布式 " * (20 + i % 3) + "分布式" + "训练" * (i % 2)
            else:
                text = "分布式" * (2 + i % 5) + "训练" * (i % 3) + "填充" * (i % 11)
            store.save(_transcript(f"b{i:03}", text, ["TensorFlow"]))
    queries = ["分布式", "分布式 训练", "tensorflow 分布式"]
    limits = [1, 5, 10, 60, 300]
    bounded = {
        (q, n): [(h.id, h.score) for h in store.search(q, limit=n)] for q in queries for n in limits
    }
    assert len(bounded[("分布式", 300)]) == 300
    from store.pg import search as pg_search

    monkeypatch.setattr(pg_search, "_bigrams_of", lambda term: [])  # the plain exact query
    for (q, n), found in bounded.items():
        assert [(h.id, h.score) for h in store.search(q, limit=n)] == found, (q, n)
    store.close()
