"""Cached rankings are never stale: after any write that changes the full-text indexes,
a search gives what a search with an empty cache gives (issue 12: ranking stays exact)."""

from __future__ import annotations

import threading
from pathlib import Path

from store.models import Question, Transcript
from store.sqlite.store import Store


def _transcript(cid: str, answer: str, summary: str = "面试过程顺利。") -> Transcript:
    return Transcript(
        id=cid,
        position="后端工程师",
        years=3,
        summary=summary,
        questions=[Question(number=1, question="第1个问题", answer=answer, answered=True)],
        verdict="通过",
    )


def _ids(store: Store, query: str, **kw: object) -> list[str]:
    return [h.id for h in store.search(query, **kw)]  # type: ignore[arg-type]


def _fresh(path: Path, query: str) -> list[str]:
    """The same search by a store that never cached anything."""
    other = Store(path)
    try:
        return _ids(other, query)
    finally:
        other.close()


def test_a_cached_ranking_follows_every_write(tmp_path: Path) -> None:
    path = tmp_path / "debrief.db"
    store = Store(path)
    for n in range(12):
        store.save(_transcript(f"c{n:02d}", "了解负载均衡。" + "沟通清楚。" * (n + 1)))
    first = _ids(store, "负载均衡")
    assert first == _ids(store, "负载均衡") == _fresh(path, "负载均衡")
    assert len(first) == 10

    # a new candidate that ranks first: the cached list must not hide it
    store.save(_transcript("best", "负载均衡负载均衡负载均衡"))
    after_insert = _ids(store, "负载均衡")
    assert after_insert[0] == "best"
    assert after_insert == _fresh(path, "负载均衡")

    # the same candidate changed so it no longer matches
    store.save(_transcript("best", "做过缓存。"))
    after_update = _ids(store, "负载均衡")
    assert "best" not in after_update
    assert after_update == first == _fresh(path, "负载均衡")

    # removed: gone from the cached query's answer too
    assert store.remove(first[0])
    after_remove = _ids(store, "负载均衡")
    assert first[0] not in after_remove
    assert after_remove == _fresh(path, "负载均衡")
    store.close()


def test_a_write_by_another_process_or_store_is_seen(tmp_path: Path) -> None:
    """The state is read from the database, not kept per store: another writer's commit
    (another process in production, another Store here) empties the cache."""
    path = tmp_path / "debrief.db"
    reader, writer = Store(path), Store(path)
    for n in range(5):
        writer.save(_transcript(f"c{n}", "熟悉分布式训练。" + "沟通清楚。" * n))
    before = _ids(reader, "分布式训练")
    writer.save(_transcript("new", "分布式训练分布式训练分布式训练"))
    assert _ids(reader, "分布式训练") == ["new", *before]
    reader.close()
    writer.close()


def test_threads_share_the_cache_and_agree(tmp_path: Path) -> None:
    path = tmp_path / "debrief.db"
    store = Store(path)
    for n in range(20):
        store.save(_transcript(f"c{n:02d}", "模型调优。" * (1 + n % 4) + "沟通清楚。" * n))
    expected = _fresh(path, "模型调优")
    got: list[list[str]] = []

    def run() -> None:
        got.append(_ids(store, "模型调优"))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [expected] * 4
    store.clear_search_cache()
    assert _ids(store, "模型调优") == expected
    store.close()


def test_newest_and_relevance_are_cached_apart(tmp_path: Path) -> None:
    path = tmp_path / "debrief.db"
    store = Store(path)
    store.save(_transcript("old_strong", "负载均衡" * 5))
    store.save(_transcript("new_weak", "了解负载均衡。" + "沟通清楚。" * 10))
    assert _ids(store, "负载均衡") == ["old_strong", "new_weak"]
    assert _ids(store, "负载均衡", sort="newest") == ["new_weak", "old_strong"]
    assert _ids(store, "负载均衡") == ["old_strong", "new_weak"]
    store.close()
