"""Searches ranked in worker processes (bot/search_pool.py): the same answers as ranking in
the serving process, on SQLite and PostgreSQL; a full pool answers "busy" at once; a
worker that dies is replaced; `/candidate search` through the real wire says "busy"
kindly. (That the ack then never waits for ranking is measured by bench/, not here.)"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support import pool_tasks
from support.fake_slack import FakeSlack
from support.slackbot import Bot, all_text, start_bot
from support.waiting import wait_until

from bot.search_pool import SearchPool
from store.errors import SearchBusyError, StoreError
from store.factory import Backend
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
QUERIES = ["分布式", "模型训练", "TensorFlow", "Kafka 分区", "分布式训练调优", "没有这个词"]


@pytest.fixture
def pool(seeded_store: Backend, db_target: str) -> Iterator[SearchPool]:
    started = SearchPool(db_target, workers=2).start()
    try:
        yield started
    finally:
        started.stop()


def test_workers_answer_as_the_serving_process_does(
    seeded_store: Backend, pool: SearchPool
) -> None:
    assert len(set(pool.pids)) == 2  # both workers started before start() returned
    for query in QUERIES:
        for sort in ("relevance", "newest"):
            here = seeded_store.search(query, 10, True, sort)  # type: ignore[arg-type]
            there = pool.search(query, 10, True, sort)  # type: ignore[arg-type]
            assert [h.model_dump() for h in there] == [h.model_dump() for h in here], query
    seeded_store.use_search_pool(pool)
    try:  # resolve's full-text part goes through the pool too
        assert seeded_store.resolve("分布式").matches
    finally:
        seeded_store.use_search_pool(None)


def held(pool: SearchPool, tmp_path: Path) -> tuple[threading.Thread, Path, list[Any]]:
    """One task holding a worker (and a slot) until `release` exists."""
    started, release = tmp_path / "started", tmp_path / "release"
    result: list[Any] = []

    def run() -> None:
        try:
            result.append(pool.run(pool_tasks.hold, str(started), str(release)))
        except Exception as exc:
            result.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    wait_until("the held task started in a worker", started.exists, timeout=60)
    return thread, release, result


def test_a_full_pool_says_busy_at_once_and_serves_again_after(
    seeded_store: Backend, db_target: str, tmp_path: Path
) -> None:
    pool = SearchPool(db_target, workers=1, capacity=1).start()
    try:
        thread, release, result = held(pool, tmp_path)
        with pytest.raises(SearchBusyError):
            pool.search("分布式", 10, True, "relevance")
        release.touch()
        thread.join(timeout=60)
        assert result == pool.pids
        assert pool.search("分布式", 10, True, "relevance")
    finally:
        pool.stop()


def test_a_search_that_takes_too_long_is_given_up(
    seeded_store: Backend, db_target: str, tmp_path: Path
) -> None:
    pool = SearchPool(db_target, workers=1, capacity=2, timeout=0.2).start()
    try:
        thread, release, result = held(pool, tmp_path)
        thread.join(timeout=60)  # the holder itself gives up after `timeout`
        assert len(result) == 1 and isinstance(result[0], SearchBusyError)
        release.touch()
    finally:
        pool.stop()


def test_a_worker_that_dies_is_replaced(seeded_store: Backend, db_target: str) -> None:
    pool = SearchPool(db_target, workers=1).start()
    try:
        before = pool.pids
        with pytest.raises(StoreError):
            pool.run(pool_tasks.die)
        assert pool.search("分布式", 10, True, "relevance")
        assert pool.pids != before
    finally:
        pool.stop()


@pytest.fixture
def pooled_bot(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[Bot]:
    bot = start_bot(fake_slack, db_target)
    assert not index_paths(bot.store, [SEEDS]).failed
    pool = SearchPool(db_target, workers=1, capacity=1).start()
    bot.store.use_search_pool(pool)
    try:
        yield bot
    finally:
        pool.stop()
        bot.server.stop()
        if bot.work is not None:
            bot.work.shutdown(wait=False)
        bot.store.close()


def test_search_over_the_wire_is_ranked_in_a_worker_and_busy_is_said_kindly(
    pooled_bot: Bot, tmp_path: Path
) -> None:
    bot = pooled_bot
    pool = bot.store.search_pool
    assert bot.command("搜索 分布式", name="ok")[0] == 200
    [reply] = bot.replies("ok")
    assert "分布式" in all_text(reply) and "Traceback" not in all_text(reply)
    thread, release, _ = held(pool, tmp_path)
    try:
        assert bot.command("搜索 模型", name="busy")[0] == 200
        [busy] = bot.replies("busy")
        assert "稍后再试" in all_text(busy)
        assert bot.command("王磊", name="who")[0] == 200  # a lookup by words waits too
        wait_until("an answer to the lookup", lambda: bot.fake.responses("who"))
    finally:
        release.touch()
        thread.join(timeout=60)


def test_workers_end_when_the_serving_process_is_killed(
    seeded_store: Backend, db_target: str
) -> None:
    """SIGKILL leaves no worker behind holding the database (or the process's output)."""
    code = (
        "import sys\n"
        "from bot.search_pool import SearchPool\n"
        "pool = SearchPool(sys.argv[1], workers=2).start()\n"
        "print(*pool.pids, flush=True)\n"
        "sys.stdin.read()\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, db_target],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        pids = [int(p) for p in proc.stdout.readline().split()]
        assert len(pids) == 2 and all(alive(p) for p in pids)
        proc.kill()
        proc.wait(timeout=30)
        wait_until("the workers ended", lambda: not any(alive(p) for p in pids), timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False
