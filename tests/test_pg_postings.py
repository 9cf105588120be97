"""PostgreSQL's `postings` (bm25 frequencies of the bigram-side tokens, see
store/pg/migrations.py pg004): what a save writes, what a re-save or a delete leaves, and
that the migration builds the same rows for a database saved before it existed.

Skipped, loudly, where no PostgreSQL server can be started (see tests/pg_fixtures.py)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from support.pg_fixtures import fresh_pg_url
from test_search import CORPUS, _transcript

from store import fulltext
from store.models import Transcript
from store.pg import PgStore
from store.sqlite.store import Store

Rows = set[tuple[str, int, int, int]]


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> str:
    return fresh_pg_url(request)


def _table(store: PgStore, table: str) -> Rows:
    """A frequency table's rows as (key, rid, tf, dl)."""
    key = {"postings": "term", "words": "word", "runs": "run"}[table]
    return {
        (str(r[0]), int(r[1]), int(r[2]), int(r[3]))
        for r in store.db.execute(f"SELECT {key}, rid, tf, dl FROM {table}")
    }


def _postings(store: PgStore) -> Rows:
    return _table(store, "postings")


def _expected(store: PgStore, saved: list[Transcript] | None = None) -> Rows:
    """The rows each candidate's own indexed text calls for (the last of `saved` with
    its id; the corpus by default)."""
    found: Rows = set()
    by_id = {t.id: t for t in (saved or _corpus())}
    for rid, cid in store.db.execute("SELECT rid, id FROM candidates"):
        t = by_id[cid]
        tokens = fulltext.indexed(t)[1].split()
        found |= {(term, int(rid), tf, len(tokens)) for term, tf in Counter(tokens).items()}
    return found


def _words(store: PgStore) -> Rows:
    return _table(store, "words")


def _expected_words(store: PgStore) -> Rows:
    found: Rows = set()
    for rid, fts in store.db.execute("SELECT rid, fts FROM candidates"):
        counts = Counter(re.findall("[0-9a-z]{3,}", fts))
        found |= {(word, int(rid), tf, len(fts)) for word, tf in counts.items()}
    return found


def _runs(store: PgStore) -> Rows:
    return _table(store, "runs")


def _expected_runs(store: PgStore) -> Rows:
    """Maximal runs of neither CJK nor whitespace that are not letters and digits only."""
    found: Rows = set()
    for rid, fts in store.db.execute("SELECT rid, fts FROM candidates"):
        pieces = re.findall("[^\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\\s]+", fts)
        counts = Counter(p for p in pieces if not re.fullmatch("[0-9a-z]+", p))
        found |= {(run, int(rid), tf, len(fts)) for run, tf in counts.items()}
    return found


def _all_rows(store: PgStore) -> tuple[Rows, Rows, Rows]:
    return _postings(store), _words(store), _runs(store)


def _all_expected(store: PgStore, saved: list[Transcript] | None = None) -> tuple[Rows, Rows, Rows]:
    return _expected(store, saved), _expected_words(store), _expected_runs(store)


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
    runs = _runs(store)
    assert runs and runs == _expected_runs(store)
    assert "c#" in {r[0] for r in runs}

    first = _corpus()[0]
    row = store.db.execute("SELECT rid FROM candidates WHERE id = %s", [first.id]).fetchone()
    assert row is not None
    rid = int(row[0])
    changed = _transcript(first.id, "并行并行 go 模型 Kubernetes kubernetes C++，c++", ["数据"])
    store.save(changed)
    tokens = fulltext.indexed(changed)[1].split()
    mine = {r for r in _postings(store) if r[1] == rid}
    assert mine == {(term, rid, tf, len(tokens)) for term, tf in Counter(tokens).items()}
    assert ("并行", rid, 2, len(tokens)) in mine
    assert {(w, tf) for w, r, tf, _ in _words(store) if r == rid} == {("kubernetes", 2)}
    assert _words(store) == _expected_words(store)
    # indexed in its search form: the full-width comma is a comma (scripts.search_form)
    assert {(w, tf) for w, r, tf, _ in _runs(store) if r == rid} >= {("c++,c++", 1)}
    assert _runs(store) == _expected_runs(store)

    assert store.remove(first.id)
    assert not {r for r in _postings(store) if r[1] == rid}
    assert not {r for r in _words(store) if r[1] == rid}
    assert not {r for r in _runs(store) if r[1] == rid}
    assert len(_postings(store)) > 0
    store.close()


def test_the_migration_builds_the_postings_of_candidates_saved_before_it(pg_url: str) -> None:
    """pg004-pg006 write a row per key and candidate for what was saved before them, and
    pg015 turns those rows into blocks: the same frequencies, the same answers."""
    store = PgStore(pg_url)
    for t in [*_corpus(), _transcript("cpp", "熟悉 C++ 与 client/server", ["有"])]:
        store.save(t)
    saved, saved_words = _postings(store), _words(store)
    before = store.search("并行", limit=50)
    before_words = store.search("tensorflow", limit=50)
    assert before_words
    saved_runs = _runs(store)
    before_runs = store.search("c++", limit=50)
    assert before_runs
    with store.tx() as conn:  # back to the schema before pg004, candidates kept
        conn.execute("DROP TRIGGER candidates_blocks ON candidates")
        conn.execute("DROP FUNCTION candidates_drop_blocks()")
        conn.execute("DROP VIEW postings, words, runs")
        conn.execute("DROP TABLE b_postings, b_words, b_runs, block_lengths")
        conn.execute("DROP TABLE run_vocabulary, vocabulary")
        conn.execute(
            "DELETE FROM _migrations WHERE name IN"
            " ('pg004_postings', 'pg005_words', 'pg006_runs', 'pg015_blocks')"
        )
    store.close()

    again = PgStore(pg_url)
    assert _postings(again) == saved
    assert _words(again) == saved_words
    assert _runs(again) == saved_runs
    assert [h.id for h in again.search("c++", limit=50)] == [h.id for h in before_runs]
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

    monkeypatch.setattr(pg_search, "bigrams_of", lambda term: [])  # the plain exact query
    for (q, n), found in bounded.items():
        assert [(h.id, h.score) for h in store.search(q, limit=n)] == found, (q, n)
    store.close()


def test_saves_in_a_batch_write_the_same_rows_at_its_commit(pg_url: str) -> None:
    """An index run's batch writes the frequency rows at its commit, in key order: the
    same rows as saves one by one, a save repeated in the batch counted once, a candidate
    saved and removed in the batch leaving none."""
    store = PgStore(pg_url)
    saved = _corpus()
    with store.batch(max_seconds=0) as tick:
        for t in saved:
            store.save(t)
            assert not _postings(store) and not _runs(store)  # written at the commit
        # a backslash and quotes, as COPY's text format and an array literal must escape
        saved.append(_transcript(saved[0].id, r'改过 C++/Go 一次 C:\new\table "q"', ["数据"]))
        saved.append(_transcript("gone", "很快被删 c++", ["没有"]))
        for t in saved[-2:]:
            store.save(t)
        assert store.remove("gone")
    assert _all_rows(store) == _all_expected(store, saved)
    assert {("c++/go", 1), ("c:\\new\\table", 1)} <= {(r[0], r[2]) for r in _runs(store)}
    assert {r[1] for r in _postings(store)} == {
        int(r[0]) for r in store.db.execute("SELECT rid FROM candidates")
    }
    with store.batch(max_seconds=0) as tick:  # a tick commits: the rows go with it
        saved.append(_transcript("late", "后来的 c++ 候选人", ["有"]))
        store.save(saved[-1])
        tick()
        assert ("c++", 1) in {(r[0], r[2]) for r in _runs(store)}
    assert _all_rows(store) == _all_expected(store, saved)
    store.close()


def test_a_failed_batch_leaves_no_rows_behind(pg_url: str) -> None:
    store = PgStore(pg_url)
    with pytest.raises(RuntimeError), store.batch():
        store.save(_transcript("lost", "c++ 并行 tensorflow", ["数据"]))
        raise RuntimeError("the run stops")
    assert store.ids() == []
    assert _all_rows(store) == (set(), set(), set())
    lost = _transcript("lost", "c++ 并行 tensorflow", ["数据"])
    store.save(lost)  # and saving again works
    assert _all_rows(store) == _all_expected(store, [lost])
    store.close()


PUNCTUATED = [
    "C++ 工程师，熟悉 c++/python 与 (C++)。",
    "做过 client/server 架构；Client/Server 与 c++c++c++。",
    "node.js 和 Node.JS，50%_off，a.b.c",
    "只写 Python，没有别的。",
    "C++、C++、C++ 性能优化",
]


def test_a_term_with_punctuation_is_scored_from_runs_exactly_as_from_the_text(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = PgStore(pg_url)
    for i, text in enumerate(PUNCTUATED * 3):
        store.save(_transcript(f"p{i:02}", text * (1 + i % 4), ["模型 " * (i % 3)]))
    queries = ["c++", "C++", "client/server", "node.js", "50%_off", "c++ 模型", "a.b", "+c", "++c"]
    from_runs = {q: [(h.id, h.score) for h in store.search(q, limit=50)] for q in queries}
    assert len(from_runs["c++"]) == 9 and from_runs["c++"] == from_runs["C++"]
    assert from_runs["++c"] and from_runs["client/server"] and from_runs["50%_off"]
    from store.pg import search as pg_search

    real = pg_search.indexed_source
    monkeypatch.setattr(  # the text path: the matches' text is read
        pg_search,
        "indexed_source",
        lambda term: None if term.kind == "trigram" and "runs" in str(real(term)) else real(term),
    )
    assert all(pg_search.indexed_source(t) is None for t in fulltext.terms("c++ node.js"))
    for q, found in from_runs.items():
        assert [(h.id, h.score) for h in store.search(q, limit=50)] == found, q
    store.close()


def _block_rows(store: PgStore) -> list[tuple[str, str, list[int], list[int]]]:
    found = []
    for table in ("b_postings", "b_words", "b_runs"):
        for r in store.db.execute(f"SELECT * FROM {table}"):
            found.append((table, str(r[0]), list(r[2]), list(r[3])))
    return found


def test_blocks_hold_each_candidate_once_through_saves_resaves_removals_and_forgetting(
    pg_url: str,
) -> None:
    """Candidates over several blocks of 128 rids, saved one by one and in batches,
    re-saved with other text, removed and forgotten: the views list exactly what each
    remaining candidate's text calls for, no block row is left empty or with arrays of
    different lengths, and no word of a removed candidate stays in a vocabulary."""
    store = PgStore(pg_url)
    saved: dict[str, Transcript] = {}

    def save(t: Transcript) -> None:
        saved[t.id] = t
        store.save(t)

    for i in range(150):
        save(_transcript(f"c{i:03}", f"共享 模型 uniq{i}word 分布式 c++/x{i % 3}", ["并行"]))
    with store.batch(max_seconds=0) as tick:
        for i in range(150, 330):
            save(_transcript(f"c{i:03}", f"批量 模型 uniq{i}word TensorFlow {i % 7}x", ["有"]))
            if i % 40 == 0:
                tick()
    for i in range(0, 330, 5):  # re-saved: other words, other counts
        save(_transcript(f"c{i:03}", f"改过 改过 newer{i}term 模型", ["c#/y"]))
    removed = [f"c{i:03}" for i in range(3, 330, 7)]
    for cid in removed:
        assert store.remove(cid)
        del saved[cid]
    forgotten = "c011"
    assert store.forget(forgotten) is not None
    del saved[forgotten]

    assert _all_rows(store) == _all_expected(store, list(saved.values()))
    blocks = _block_rows(store)
    assert {r[0] for r in blocks} == {"b_postings", "b_words", "b_runs"}
    assert all(offs and len(offs) == len(tfs) == len(set(offs)) for _, _, offs, tfs in blocks)
    assert store.db.execute("SELECT count(DISTINCT block) FROM b_postings").fetchone()[0] == 3
    vocabulary = {r[0] for r in store.db.execute("SELECT word FROM vocabulary")}
    assert vocabulary == {w for w, _, _, _ in _words(store)}
    assert "uniq3word" not in vocabulary and "uniq11word" not in vocabulary
    assert "uniq5word" not in vocabulary and "newer5term" in vocabulary
    run_vocabulary = {r[0] for r in store.db.execute("SELECT run FROM run_vocabulary")}
    assert run_vocabulary == {r for r, _, _, _ in _runs(store)}
    indexes = {r[0] for r in store.db.execute("SELECT indexname FROM pg_indexes")}
    assert "candidates_fts" not in indexes  # pg016: phrases are found by their bigrams
    hits = store.search("uniq12word", limit=5)
    assert [h.id for h in hits] == ["c012"]
    assert not store.search("uniq11word", limit=5)
    assert len(store.search("模型", limit=400)) == len(saved)
    store.close()


def test_newest_first_pages_through_candidates_holding_a_phrase_s_bigrams_apart(
    pg_url: str, tmp_path: Path
) -> None:
    """Newest first, a CJK phrase is looked for in the text of the candidates holding all
    its bigrams, a page at a time: when hundreds of newer ones hold them only apart, the
    answer is still the newest that hold the phrase, as on SQLite."""
    lite, pg = Store(tmp_path / "s.db"), PgStore(pg_url)
    for store in (lite, pg):
        with store.batch():
            for i in range(30):
                store.save(_transcript(f"a{i:03}", f"分布式 训练 TensorFlow 第{i}个", ["有"]))
            for i in range(520):
                store.save(_transcript(f"d{i:03}", f"分布 与 布式 TensorFlow 第{i}个", ["有"]))
            store.save(_transcript("z000", "最新的 分布式 没有别的", ["有"]))
    for query in ["分布式", "分布式 tensorflow", "分布式 训练", "布式训"]:
        for limit in (1, 10, 31, 50):
            ours = [h.id for h in pg.search(query, limit=limit, sort="newest")]
            theirs = [h.id for h in lite.search(query, limit=limit, sort="newest")]
            assert ours == theirs, (query, limit)
    assert [h.id for h in pg.search("分布式", limit=3, sort="newest")] == ["z000", "a029", "a028"]
    assert len(pg.search("分布式", limit=50, sort="newest")) == 31
    lite.close()
    pg.close()


def test_the_text_version_moves_once_a_transaction_and_a_rolled_back_savepoint_undoes_it(
    pg_url: str,
) -> None:
    """pg017: the search cache's `fts_version` moves once per transaction that writes
    candidates (it moved once per statement, twice a save), also when a savepoint that
    moved it is rolled back; and new text is compressed with lz4 (or, on a server
    without lz4, `terms` is kept uncompressed)."""
    import psycopg

    store = PgStore(pg_url)

    def version() -> int:
        return int(store.db.execute("SELECT version FROM fts_version").fetchone()[0])

    start = version()
    store.save(_transcript("v000", "模型 一", ["有"]))
    assert version() == start + 1
    with store.batch(max_seconds=3600):
        for i in range(1, 30):
            store.save(_transcript(f"v{i:03}", f"模型 {i}", ["有"]))
    assert version() == start + 2
    assert store.remove("v001")
    assert version() == start + 3

    with psycopg.connect(pg_url) as conn:
        touch = "UPDATE candidates SET fts = fts || ' ' WHERE id = 'v002'"
        with conn.transaction():
            with conn.transaction():  # a savepoint: its move is undone with it
                conn.execute(touch)
                raise psycopg.Rollback()
            conn.execute(touch)  # so this one moves it again
            conn.execute(touch)
        with conn.transaction(), conn.transaction():
            conn.execute(touch)
            raise psycopg.Rollback()
    assert version() == start + 4

    compression = dict(
        store.db.execute(
            "SELECT attname, attcompression::text || attstorage::text FROM pg_attribute"
            " WHERE attrelid = 'candidates'::regclass AND attname IN ('fts', 'terms')"
        ).fetchall()
    )
    assert compression in ({"fts": "lx", "terms": "lx"}, {"fts": "x", "terms": "e"})
    assert [h.id for h in store.search("模型 7", limit=1)] == ["v007"]
    store.close()
