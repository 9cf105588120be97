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
    from store import fulltext, rows
    from store.sqlite.search import indexed_questions

    with store.tx() as tx:
        if store.engine.name == "sqlite":
            found = tx.execute(
                "SELECT rid, position, intro, summary, verdict, name, interviewers FROM candidates"
            ).fetchall()
            for rid, p, i, s, v, name, who in found:
                questions = indexed_questions(tx.execute, rid)
                now = fulltext.doc_text(p, i or "", s or "", questions, v, name, rows.names(who))
                old = fulltext.doc_text(p, i or "", s or "", questions, v)
                for table, column, text in (
                    ("candidates_fts", "text", now),
                    ("candidates_bigrams", "bigrams", fulltext.bigrams(now)),
                ):
                    tx.execute(
                        f"INSERT INTO {table} ({table}, rowid, {column}) VALUES ('delete', ?, ?)",
                        [rid, text],
                    )
                tx.execute("INSERT INTO candidates_fts (rowid, text) VALUES (?, ?)", [rid, old])
                tx.execute(
                    "INSERT INTO candidates_bigrams (rowid, bigrams) VALUES (?, ?)",
                    [rid, fulltext.bigrams(old)],
                )
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
