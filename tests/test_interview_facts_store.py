"""Who and when, kept by the store: the candidate's name, the interviewers, the date and
the round, on both backends: saved, read back, listed newest interview first, looked up
by name, searched, carried by migrate-db, and filled in for rows from before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from store.indexer import index_paths
from store.sqlite.store import Store

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

FACTS = ("name", "interviewers", "interviewed_at", "interviewed_at_text", "round")

BODY = "岗位：{pos}\n从业年限：3年\n简介：写 Go 的人\n问题1：讲讲 Kafka？\n考察目标：消息队列\n回答：分区。\n"


def transcript(header: str = "", pos: str = "数据工程师") -> str:
    return header + BODY.format(pos=pos)


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, "utf-8")
    return path


def facts(found: Any) -> dict[str, Any]:
    return {key: getattr(found, key) for key in FACTS}


ZHANG = "姓名：张三\n面试官：李四、王五\n面试日期：2026年11月28日 14:30\n轮次：二面\n"
ZHANG_FACTS = {
    "name": "张三",
    "interviewers": ["李四", "王五"],
    "interviewed_at": "2026-11-28T14:30",
    "interviewed_at_text": "2026年11月28日 14:30",
    "round": "二面",
}
NOBODY = {
    "name": None,
    "interviewers": [],
    "interviewed_at": None,
    "interviewed_at_text": "",
    "round": None,
}


def test_the_facts_are_saved_and_read_back(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    write(folder, "zhang.txt", transcript(ZHANG))
    write(folder, "plain.txt", transcript())
    assert sorted(index_paths(store, [folder]).indexed) == ["plain", "zhang"]

    zhang = store.get_candidate("zhang")
    assert zhang is not None and facts(zhang) == ZHANG_FACTS
    plain = store.get_candidate("plain")
    assert plain is not None and facts(plain) == NOBODY
    listed = {s.id: facts(s) for s in store.list_candidates()}
    assert listed == {"zhang": ZHANG_FACTS, "plain": NOBODY}

    # the file changes: the facts follow it
    write(folder, "zhang.txt", transcript("姓名：张三\n面试官：赵六\n"))
    index_paths(store, [folder])
    zhang = store.get_candidate("zhang")
    assert zhang is not None
    assert facts(zhang) == NOBODY | {"name": "张三", "interviewers": ["赵六"]}


def _as_before_the_facts(store: Store) -> None:
    """The database as a release that did not keep the facts left it: no such columns,
    no such migration, and (SQLite) the full-text rows indexed without the names."""
    from store import fulltext
    from store.sqlite import space_index

    with store.tx() as tx:
        if store.engine.name == "sqlite":
            found = tx.execute(
                "SELECT rid, position, intro, summary, verdict FROM candidates"
            ).fetchall()
            for rid, p, i, s, v in found:
                questions = space_index.indexed_questions(tx.execute, rid)
                old = fulltext.doc_text(p, i or "", s or "", questions, v)
                space_index.delete(tx.execute, rid)
                space_index.insert(tx.conn, 0, [(rid, (old, fulltext.bigrams(old)))])
        tx.execute("DROP INDEX candidates_name")
        tx.execute("DROP INDEX candidates_newest")
        for column in FACTS:
            tx.execute(f"ALTER TABLE candidates DROP COLUMN {column}")
        tx.execute(
            "DELETE FROM _migrations WHERE name IN ('m014_interview_facts',"
            " 'pg012_interview_facts')"
        )


def test_an_upgrade_reads_the_facts_from_the_files_again(db_target: str, tmp_path: Path) -> None:
    from store.factory import open_store

    folder = tmp_path / "t"
    write(folder, "zhang.txt", transcript(ZHANG))
    write(folder, "plain.txt", transcript())
    store: Any = open_store(db_target)
    index_paths(store, [folder])
    first = store.get_candidate("zhang").indexed_at
    _as_before_the_facts(store)
    store.close()

    upgraded: Any = open_store(db_target)
    try:
        assert facts(upgraded.get_candidate("zhang")) == NOBODY  # not read again yet
        again = index_paths(upgraded, [folder])  # unchanged files, parsed once more
        assert sorted(again.indexed) == ["plain", "zhang"]
        zhang = upgraded.get_candidate("zhang")
        assert facts(zhang) == ZHANG_FACTS
        assert zhang.indexed_at == first  # still when it was first indexed
        assert [h.id for h in upgraded.search("王五")] == ["zhang"]
        assert sorted(h.id for h in upgraded.search("Kafka")) == ["plain", "zhang"]
        third = index_paths(upgraded, [folder])
        assert third.indexed == [] and sorted(third.unchanged) == ["plain", "zhang"]
        # the rows indexed without the names are deleted as they were indexed
        (folder / "zhang.txt").unlink()
        assert index_paths(upgraded, [folder]).removed == ["zhang"]
        assert upgraded.search("王五") == [] and upgraded.search("二面") == []
        assert [h.id for h in upgraded.search("Kafka")] == ["plain"]
    finally:
        upgraded.close()


# -- lists: the newest interview first ------------------------------------------------------


def test_lists_are_newest_interview_first_else_newest_indexed(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    order = [
        ("old_undated", ""),
        ("nov20", "姓名：王二\n面试日期：2001-11-20\n"),
        ("nov28", "姓名：张三\n面试日期：2001-11-28 14:30\n"),
        ("nov28_morning", "姓名：李四\n面试时间：2001年11月28日 9:00\n"),
        ("in_2099", "姓名：赵六\n面试日期：2099-01-02\n"),
    ]
    for cid, header in order:  # one index run each: first indexed in this order
        write(folder, f"{cid}.txt", transcript(header))
        index_paths(store, [folder / f"{cid}.txt"])
    # indexed last, no date: it sorts by when it was indexed (now), after 2099's interview
    write(folder, "new_undated.txt", transcript())
    index_paths(store, [folder / "new_undated.txt"])
    expected = ["in_2099", "new_undated", "old_undated", "nov28", "nov28_morning", "nov20"]
    listed = [s.id for s in store.list_candidates()]
    # the undated ones were indexed today: after every interview date but 2099's
    assert listed == expected
    assert [s.id for s in store.list_candidates(limit=2, offset=1)] == expected[1:3]
    assert [s.id for s in store.resolve("数据").matches] == expected  # words: same order
    new, total = store.digest_lines("new", "2000-01-01", 10)
    assert [line.id for line in new] == expected and total == 6
    assert {line.id: (line.name, line.interviewed_at) for line in new}["nov28"] == (
        "张三",
        "2001-11-28T14:30",
    )
    waiting, _ = store.digest_lines("waiting", "2000-01-01", 10)
    assert [line.id for line in waiting] == expected[::-1]  # the longest waiting first


# -- lookup by name --------------------------------------------------------------------------


def test_a_name_resolves_exactly_or_by_a_unique_prefix(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    write(folder, "000_9e6b3ecb0732fcf3.txt", transcript("姓名：张三\n面试日期：2026-11-20\n"))
    write(
        folder,
        "001_zhang_final.txt",
        transcript("候选人：张三\n轮次：终面\n面试日期：2026-11-28\n"),
    )
    write(folder, "002_li.txt", transcript("应聘者：李四\n"))
    write(folder, "003_zsf.txt", transcript("姓名：张三丰\n"))
    write(folder, "004_en.txt", transcript("Name: Zhang San\n"))
    index_paths(store, [folder])

    def found(text: str) -> list[str]:
        return [m.id for m in store.resolve(text).matches]

    assert found("李四") == ["002_li"]  # exact
    assert found("李") == ["002_li"]  # a unique prefix
    assert found("张三丰") == ["003_zsf"]
    # two interviews of one name: both, the newest first, with what tells them apart
    assert found("张三") == ["001_zhang_final", "000_9e6b3ecb0732fcf3"]
    two = store.resolve("张三").matches
    assert [(m.name, m.round, m.interviewed_at) for m in two] == [
        ("张三", "终面", "2026-11-28"),
        ("张三", None, "2026-11-20"),
    ]
    assert sorted(found("张")) == ["000_9e6b3ecb0732fcf3", "001_zhang_final", "003_zsf"]
    assert found("Zhang San") == ["004_en"] and found("Zhang") == ["004_en"]
    assert found("  Zhang   San ") == ["004_en"]  # spaces as typed do not matter
    # ids first: an exact id, then an id prefix, before any name
    assert found("000_9e6b3ecb0732fcf3") == ["000_9e6b3ecb0732fcf3"]
    assert len(found("00")) == 5
    # a name that is no one's falls through to the words and to search
    assert found("王五") == []
    # search finds names, and interviewers
    assert [h.id for h in store.search("李四")] == ["002_li"]
    assert [h.name for h in store.search("张三丰")] == ["张三丰"]


def test_migrate_db_carries_the_facts(
    request: pytest.FixtureRequest, backend: str, tmp_path: Path
) -> None:
    if backend != "sqlite":
        pytest.skip("migrate-db copies a SQLite database into PostgreSQL")
    from click.testing import CliRunner
    from support.pg_fixtures import fresh_pg_url

    from bot.cli import cli
    from store.pg import PgStore

    url = fresh_pg_url(request)
    folder = tmp_path / "t"
    write(folder, "zhang.txt", transcript(ZHANG))
    write(folder, "plain.txt", transcript())
    lite = Store(tmp_path / "old.db")
    index_paths(lite, [folder])
    before = {cid: lite.get_candidate(cid) for cid in ("zhang", "plain")}
    lite.close()
    done = CliRunner().invoke(cli, ["migrate-db", "--db", str(tmp_path / "old.db"), "--to", url])
    assert done.exit_code == 0, done.output
    pg = PgStore(url)
    try:
        assert {cid: pg.get_candidate(cid) for cid in ("zhang", "plain")} == before
        assert facts(pg.get_candidate("zhang")) == ZHANG_FACTS
        assert [h.id for h in pg.search("王五")] == ["zhang"]
        assert [m.id for m in pg.resolve("张").matches] == ["zhang"]
        # the copied row is re-saved (its text deleted as it was indexed) without a trace
        index_paths(pg, [folder])
        (folder / "zhang.txt").unlink()
        index_paths(pg, [folder])
        assert pg.search("王五") == []
    finally:
        pg.close()
