"""An index run's batch writes its full-text rows at its commit (all of them in one
statement, so FTS5 writes one segment), on SQLite; what a batch does stays exactly what
its saves and removals say, on both backends: a file saved twice, a file saved and
removed, a write that fails half-way (the others are redone, searchable)."""

from __future__ import annotations

from pathlib import Path

import pytest

from store.factory import Backend
from store.transcripts.parser import parse_transcript

pytestmark = pytest.mark.both_backends

SEEDS = sorted((Path(__file__).resolve().parent.parent / "seeds").glob("*.txt"))


def transcript(seed: Path, extra: str = "", cid: str | None = None):  # type: ignore[no-untyped-def]
    data = seed.read_bytes()
    if extra:
        data = data.replace("点评：".encode(), f"点评：{extra}。".encode(), 1)
    name = f"{cid}.txt" if cid else seed.name
    return parse_transcript(data, name, source=str(seed))


def ids(store: Backend, query: str) -> list[str]:
    return sorted(h.id for h in store.search(query, limit=20))


def test_saved_twice_and_saved_then_removed_in_one_batch(store: Backend) -> None:
    first = transcript(SEEDS[0], "旧词甲乙丙", cid="c_twice")
    second = transcript(SEEDS[0], "新词丁戊己", cid="c_twice")
    gone = transcript(SEEDS[1], "消失庚辛壬", cid="c_gone")
    with store.batch(3600):
        store.save(first)
        store.save(gone)
        store.save(second)
        assert store.remove("c_gone")
    assert ids(store, "新词丁戊己") == ["c_twice"]
    assert ids(store, "旧词甲乙丙") == [] and ids(store, "消失庚辛壬") == []
    # and what is in the index can still be deleted exactly: saved again, then removed
    store.save(transcript(SEEDS[0], "第三次癸子丑", cid="c_twice"))
    assert ids(store, "新词丁戊己") == [] and ids(store, "第三次癸子丑") == ["c_twice"]
    assert store.remove("c_twice")
    assert ids(store, "第三次癸子丑") == []
    if store.path.endswith(".db"):
        for table in ("candidates_fts", "candidates_bigrams"):
            store.db.execute(f"INSERT INTO {table} ({table}) VALUES ('integrity-check')")  # type: ignore[attr-defined]


def test_a_write_that_fails_leaves_the_batchs_other_saves_searchable(store: Backend) -> None:
    def broken(tx):  # type: ignore[no-untyped-def]
        raise RuntimeError("a write that fails half-way")

    with store.batch(3600):
        store.save(transcript(SEEDS[0], "批次之一甲", cid="c_one"))
        with pytest.raises(RuntimeError):
            store._write(broken)  # type: ignore[attr-defined]
        store.save(transcript(SEEDS[1], "批次之二乙", cid="c_two"))
    assert ids(store, "批次之一甲") == ["c_one"]
    assert ids(store, "批次之二乙") == ["c_two"]
