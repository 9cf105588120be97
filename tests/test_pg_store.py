"""The PostgreSQL store on its own: its migrations, search parity with SQLite, and what
several replicas (several stores on one database) may do at once.

Skipped, loudly, where no PostgreSQL server can be started (see tests/pg_fixtures.py)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from support.pg_fixtures import fresh_pg_url, in_database
from test_search import CORPUS, _transcript

from bot.leader import LeaderGate
from store.errors import NoDatabaseError, StoreError
from store.factory import open_store
from store.fulltext import Sort
from store.indexer import index_paths
from store.pg import PgStore
from store.pg import migrations as pg_migrations
from store.schema import steps
from store.schema.steps import known
from store.sqlite.store import Store

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> str:
    return fresh_pg_url(request)


@pytest.fixture
def replicas(pg_url: str) -> Iterator[tuple[PgStore, PgStore]]:
    """Two stores on one database, as two `serve` processes would hold them."""
    a, b = PgStore(pg_url), PgStore(pg_url)
    index_paths(a, [SEEDS])
    yield a, b
    a.close()
    b.close()


def test_the_factory_picks_the_backend(pg_url: str, tmp_path: Path) -> None:
    assert isinstance(open_store(pg_url), PgStore)
    assert isinstance(open_store(tmp_path / "x.db"), Store)


def test_migrations_run_once_in_order_and_a_newer_schema_is_refused(pg_url: str) -> None:
    store = PgStore(pg_url)
    names = [r[0] for r in store.db.execute("SELECT name FROM _migrations ORDER BY applied_at")]
    assert names == known("pg")
    with psycopg.connect(store.url, autocommit=True) as conn:
        assert pg_migrations.migrate(conn) == []  # a second start has nothing to do
        conn.execute("INSERT INTO _migrations VALUES ('pg999_from_the_future', 'x')")
    with pytest.raises(StoreError, match="newer Debrief"):
        PgStore(pg_url)
    assert store.health().schema_current


def test_replicas_starting_at_once_migrate_once(pg_url: str) -> None:
    opened: list[PgStore] = []
    threads = [threading.Thread(target=lambda: opened.append(PgStore(pg_url))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(opened) == 4
    (count,) = opened[0].db.execute("SELECT count(*) FROM _migrations").fetchone()
    assert count == len(known("pg"))


def test_reading_never_creates(pg_url: str) -> None:
    with pytest.raises(NoDatabaseError):
        PgStore(pg_url, create=False)
    PgStore(pg_url)
    assert PgStore(pg_url, create=False).count() == 0


QUERIES = [
    "TensorFlow分布式",
    "TensorFlow 分布式",
    "分布式训练调优",
    "AI",
    "ai平台",
    "ML",
    "Go",
    "C#",
    "UI",
    "c# ui",
    "负载均衡",
    "训练",
    "Golang",
    "trAIning",
    "区块链",
    "分",
    "good",
    '"OR" NOT *',
    "50%_off",
]


def test_search_finds_the_same_candidates_as_sqlite(pg_url: str, tmp_path: Path) -> None:
    lite, pg = Store(tmp_path / "s.db"), PgStore(pg_url)
    for store in (lite, pg):
        for cid, summary, answers in CORPUS:
            store.save(_transcript(cid, summary, answers))
        index_paths(store, [SEEDS])
    for query in [*QUERIES, "TensorFlow", "C++", "蛋糕", "剪枝 量化", "嵌入式 Kubernetes"]:
        # each backend ranks with its own engine (issue 47): the same matches, each
        # with the same snippet; newest first, the same order
        ours = {(h.id, h.snippet, h.question) for h in pg.search(query, limit=100)}
        theirs = {(h.id, h.snippet, h.question) for h in lite.search(query, limit=100)}
        assert ours == theirs, query
        ours_newest = [h.id for h in pg.search(query, sort="newest")]
        assert ours_newest == [h.id for h in lite.search(query, sort="newest")], query


def test_a_search_is_planned_for_its_own_query_never_prepared(pg_url: str) -> None:
    """psycopg prepares a statement it has run five times, and PostgreSQL may then keep
    one generic plan for every query, which reads RUM's matches without their order (ten
    times slower): searches are never prepared, however many run on one connection."""
    store = PgStore(pg_url)
    try:
        for cid, summary, answers in CORPUS:
            store.save(_transcript(cid, summary, answers))
        for query in [*QUERIES, *QUERIES]:
            for sort in ("relevance", "newest"):
                store.clear_search_cache()
                store.search(query, sort=sort)  # type: ignore[arg-type]
        prepared = store._all("SELECT statement FROM pg_prepared_statements")
        assert not [r for r in prepared if "tsv" in str(r[0])]
    finally:
        store.close()


def test_a_duplicated_reply_is_recorded_once_whichever_replica_gets_it(
    replicas: tuple[PgStore, PgStore],
) -> None:
    a, b = replicas
    cid = a.ids()[0]
    a.record_post("C1", "100.1", cid, "verdict")
    barrier = threading.Barrier(2)
    outcomes = []

    def deliver(store: PgStore) -> None:
        barrier.wait()
        outcomes.append(store.record_reply("C1", "200.1", "100.1", cid, "U1", "通过：基础扎实"))

    threads = [threading.Thread(target=deliver, args=(s,)) for s in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(o.recorded for o in outcomes) == [False, True]
    assert sorted(o.react for o in outcomes) == [False, True]  # one ✅, not two
    (count,) = b.db.execute("SELECT count(*) FROM replies").fetchone()
    assert count == 1
    assert [d.decision for d in b.get_candidate(cid).decisions] == ["hire"]  # type: ignore[union-attr]


def test_the_digest_is_claimed_by_one_replica(replicas: tuple[PgStore, PgStore]) -> None:
    a, b = replicas
    barrier = threading.Barrier(2)
    won: list[bool] = []

    def claim(store: PgStore, who: str) -> None:
        barrier.wait()
        won.append(store.claim_digest("2026-12-02", "CHIRE", who, stale_after_s=600))

    threads = [threading.Thread(target=claim, args=(s, w)) for s, w in ((a, "A"), (b, "B"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(won) == [False, True]
    a.mark_digest_unknown("2026-12-02", "A")
    a.mark_digest_unknown("2026-12-02", "B")
    # an unknown outcome may be taken over at once; a sent one never
    assert b.claim_digest("2026-12-02", "CHIRE", "B2", stale_after_s=600)
    b.finish_digest("2026-12-02", "B2", "123.4")
    assert not a.claim_digest("2026-12-02", "CHIRE", "A2", stale_after_s=0)
    assert a.digest_status("2026-12-02") == "sent"


def test_forget_on_one_replica_is_final_for_all(replicas: tuple[PgStore, PgStore]) -> None:
    a, b = replicas
    cid = a.ids()[0]
    b.record_post("C1", "100.1", cid, "verdict")
    b.record_reply("C1", "200.1", "100.1", cid, "U1", "通过")
    b.audit("U1", "show", cid, "C1")
    counts = a.forget(cid)
    assert counts is not None and counts["replies"] == 1
    assert b.get_candidate(cid) is None
    assert b.search(cid) == []
    late = b.record_reply("C1", "300.1", "100.1", cid, "U2", "不通过")
    assert not late.recorded
    assert all(e.candidate != cid for e in b.audit_log())
    b.audit("U1", "show", cid, "C1")  # a later line about them holds the pseudonym too
    assert b.audit_log()[-1].candidate == a.pseudonym(cid)
    assert cid in b.forgotten()
    assert b.restore(cid) is not None and cid not in a.forgotten()


class _Watcher:
    def __init__(self) -> None:
        self.stopped = threading.Event()

    def stop(self, timeout: float = 10) -> None:
        self.stopped.set()


def test_one_leader_and_another_takes_over_when_it_dies(pg_url: str) -> None:
    a, b = PgStore(pg_url), PgStore(pg_url)
    started: list[tuple[str, _Watcher]] = []

    def starter(name: str) -> _Watcher:
        watcher = _Watcher()
        started.append((name, watcher))
        return watcher

    gate_a = LeaderGate(a, lambda: starter("a"), interval=0.05).start()
    assert gate_a.leading.wait(10)
    gate_b = LeaderGate(b, lambda: starter("b"), interval=0.05).start()
    try:
        assert not gate_b.leading.wait(0.5)  # a holds the lock: b stands by
        a.close()  # replica a's sessions end, as when its process dies
        assert gate_b.leading.wait(10)
        assert started[0][0] == "a" and started[-1][0] == "b"
        assert started[0][1].stopped.wait(10)  # a, finding its session gone, stops watching
    finally:
        gate_a.stop()
        gate_b.stop()
    assert all(w.stopped.is_set() for _n, w in started)


def test_a_failed_write_in_a_batch_keeps_the_rest(pg_url: str) -> None:
    store = PgStore(pg_url)
    good = _transcript("ok", "fine", ["an answer"])
    with store.batch() as _tick:
        store.save(good)
        with pytest.raises(StoreError):
            store._write(lambda c: c.execute("INSERT INTO nowhere VALUES (1)"))
        store.save(_transcript("ok2", "fine", ["another"]))
    assert store.ids() == ["ok", "ok2"]


def test_stats_health_and_backup_say_postgresql(pg_url: str, tmp_path: Path) -> None:
    store = PgStore(pg_url)
    index_paths(store, [SEEDS])
    stats = store.stats()
    assert stats.candidates == 4 and stats.database_bytes > 0
    assert stats.schema_version == known("pg")[-1]
    health = store.health()
    assert health.writable and health.quick_check == "ok"
    try:
        size = store.backup(tmp_path / "b.dump")
    except StoreError as exc:
        assert "pg_dump" in str(exc)
    else:
        assert size > 0


def test_a_search_is_cached_until_any_replica_changes_the_index(
    replicas: tuple[PgStore, PgStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = replicas
    computed: list[str] = []
    real = PgStore._ranked

    def counting(self: PgStore, terms: list, limit: int, sort: Sort) -> list:  # type: ignore[type-arg]
        computed.append(" ".join(t.text for t in terms))
        return real(self, terms, limit, sort)

    monkeypatch.setattr(PgStore, "_ranked", counting)
    first = [h.id for h in a.search("模型")]
    assert first and [h.id for h in a.search("模型")] == first
    assert computed == ["模型"]  # the second answer came from the cache

    # another replica saves a transcript that matches too: the next search sees it
    b.save(_transcript("zz_new", "模型模型模型模型", ["模型"]))
    again = [h.id for h in a.search("模型")]
    assert set(again) == {*first, "zz_new"} and computed == ["模型", "模型"]
    assert b.remove("zz_new")
    assert [h.id for h in a.search("模型")] == first and len(computed) == 3

    # a touch (same text, new file time) leaves the cached answer valid
    b.touch_file(first[0], 1, 2)
    assert [h.id for h in a.search("模型")] == first and len(computed) == 3

    with a.batch():  # inside this thread's transaction nothing is cached
        a.search("模型")
        a.search("模型")
    assert len(computed) == 5


def test_a_process_ranks_at_most_two_searches_at_once(
    replicas: tuple[PgStore, PgStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """More wait for a slot, so acknowledgements are not left without a CPU."""
    from store.pg import search as pg_search

    a, _b = replicas
    lock = threading.Lock()
    inside: list[int] = [0, 0]  # now, most
    go = threading.Event()
    real = PgStore._ranked  # what a slot is held for

    def slow(self: PgStore, terms: list, *args: Any) -> list:  # type: ignore[type-arg]
        with lock:
            inside[0] += 1
            inside[1] = max(inside[1], inside[0])
        go.wait(10)
        try:
            return real(self, terms, *args)
        finally:
            with lock:
                inside[0] -= 1

    monkeypatch.setattr(PgStore, "_ranked", slow)
    queries = ["模型", "数据", "训练", "系统", "框架"]
    threads = [threading.Thread(target=a.search, args=(q,)) for q in queries]
    for t in threads:
        t.start()
    waited = threading.Event()
    try:
        for _ in range(100):  # until two are ranking
            with lock:
                if inside[0] == pg_search.SEARCH_SLOTS:
                    break
            waited.wait(0.05)
        waited.wait(0.5)  # a third would be inside by now were it not held back
        assert inside[1] == pg_search.SEARCH_SLOTS == 2
    finally:
        go.set()
        for t in threads:
            t.join(10)
    assert not any(t.is_alive() for t in threads) and inside == [0, 2]


def test_a_server_without_the_rum_extension_is_refused_with_its_package(
    request: pytest.FixtureRequest,
) -> None:
    """A role that may not create the extension (RUM is not a trusted extension), on a
    database of its own: the store says what to install or ask for, and leaves the
    database without a half-made schema."""
    base: str = request.getfixturevalue("pg_server")
    role = f"plain_{os.getpid()}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f"CREATE DATABASE {role} OWNER {role}")
    try:
        url = in_database(base, role)
        url += ("&" if "?" in url else "?") + f"user={role}"
        with pytest.raises(StoreError) as refused:
            PgStore(url)
        assert "postgresql-15-rum" in str(refused.value)
        assert "CREATE EXTENSION rum" in str(refused.value)
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT to_regclass('_migrations')").fetchone() == (None,)
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {role} WITH (FORCE)")
            conn.execute(f"DROP ROLE IF EXISTS {role}")


def test_a_database_at_the_schema_before_pg035_is_searched_by_its_engine_after_it(
    pg_url: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Saved at pg034 (the hand-made index's columns and tables there, this release's
    `tsv` not yet): after pg035 every candidate is found, in the order a database made
    by this release gives, and nothing of the hand-made index is left."""
    with monkeypatch.context() as before:
        before.setattr(steps, "STEPS", [s for s in steps.STEPS if s.pg != "pg035_text_search"])
        # this release writes `tsv` with a save: at pg034 the row is saved with its text
        before.setattr(PgStore, "_index_columns", lambda self, indexed: ({}, None))
        old = PgStore(pg_url)
        for cid, summary, answers in CORPUS:
            old.save(_transcript(cid, summary, answers))
        with old.tx() as tx:  # what the release before's steps (pg004-pg029) left
            tx.execute("CREATE TABLE b_postings (term TEXT, block BIGINT)")
            tx.execute("CREATE VIEW postings AS SELECT term FROM b_postings")
            tx.execute("CREATE TABLE words (word TEXT, rid BIGINT)")  # a table before pg015
            tx.execute("CREATE TABLE search_figures (ws BIGINT PRIMARY KEY)")
            tx.execute(
                "CREATE FUNCTION candidates_drop_blocks() RETURNS trigger LANGUAGE plpgsql"
                " AS $$ BEGIN RETURN OLD; END $$"
            )
            tx.execute(
                "CREATE TRIGGER candidates_blocks BEFORE DELETE ON candidates"
                " FOR EACH ROW EXECUTE FUNCTION candidates_drop_blocks()"
            )
        assert old.count() == len(CORPUS)
        old.close()
    upgraded = PgStore(pg_url)
    try:
        assert "pg035_text_search" in {r[0] for r in upgraded._all("SELECT name FROM _migrations")}
        for gone in ("b_postings", "postings", "words", "search_figures"):
            assert upgraded._scalar(f"SELECT to_regclass('{gone}')") is None, gone
        assert not upgraded._scalar(
            "SELECT count(*) FROM pg_trigger WHERE tgname = 'candidates_blocks'"
        )
        fresh = PgStore(fresh_pg_url(request))
        try:
            for cid, summary, answers in CORPUS:
                fresh.save(_transcript(cid, summary, answers))
            for query in [*QUERIES, "分布式", "TensorFlow"]:
                sorts: tuple[Sort, ...] = ("relevance", "newest")
                for sort in sorts:
                    ours = [(h.id, h.score) for h in upgraded.search(query, sort=sort)]
                    assert ours == [(h.id, h.score) for h in fresh.search(query, sort=sort)]
            assert upgraded.search("分布式")
        finally:
            fresh.close()
    finally:
        upgraded.close()
