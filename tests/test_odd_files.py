"""One odd transcript never ends an index run, on SQLite or on PostgreSQL.

The odd files: an answer holding a 3,000-letter word (a pasted key), one holding a
3,200-character run with punctuation (`k0+k1+…`), a transcript at the end of a path of
~2,800 bytes (nested folders). Each is indexed, and searching for the long word or the
long run finds it, with the same hits on both backends. And a file the database refuses
when its batch commits (a constraint the test adds) fails alone: the rest of its batch
is kept, and the run's report says which file and why.

Every index run here is `debrief index` (the CLI in-process), except the store-level batch
tests.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path

import psycopg
import pytest
from support.cli import Ran
from support.cli import debrief as run_debrief
from support.pg_fixtures import fresh_pg_url

from bot.watcher import FolderWatcher
from store.factory import Backend, open_store
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

# A 3,000-letter word: hex digits, so all of it is one run of letters and digits.
LONG_WORD = "".join(hashlib.sha256(f"key{i}".encode()).hexdigest() for i in range(47))[:3000]
LONG_RUN = "+".join(f"k{i}" for i in range(700))  # 3,200+ characters, with punctuation
REFUSED_WORD = "zzrefusedzz"
NORMAL = 24


def transcript(answer: str) -> str:
    return (
        "岗位：后端工程师 从业年限：3年\n简介：做过后端。\n问题1：你做过什么？\n"
        f"考察目标：经验\n回答：{answer}\n点评：不错\n"
    )


def normal_files(folder: Path) -> set[str]:
    """n00…n23: every third one says kubernetes."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(NORMAL):
        answer = "做过 kubernetes 运维。" if i % 3 == 0 else "做过分布式系统。"
        (folder / f"n{i:02d}.txt").write_text(transcript(answer), "utf-8")
    return {f"n{i:02d}" for i in range(NORMAL)}


def deep_path(folder: Path) -> Path:
    """A file whose path is ~2,800 bytes long (each folder name within NAME_MAX)."""
    where = folder
    for level in range(14):
        where = where / (f"d{level:02d}" + "x" * 197)
    where.mkdir(parents=True)
    path = where / "deep.txt"
    assert len(os.fsencode(path)) > 2800
    return path


def odd_folder(folder: Path) -> set[str]:
    """The normal files and the odd ones; returns every id."""
    ids = normal_files(folder)
    (folder / "key.txt").write_text(transcript(f"密钥是 {LONG_WORD} ，也用 kubernetes。"), "utf-8")
    (folder / "plus.txt").write_text(transcript(f"表达式 {LONG_RUN} 就这样。"), "utf-8")
    deep_path(folder).write_text(transcript("做过 kubernetes 和分布式。"), "utf-8")
    return ids | {"key", "plus", "deep"}


QUERIES = {
    "kubernetes": {f"n{i:02d}" for i in range(0, NORMAL, 3)} | {"key", "deep"},
    LONG_WORD[:500]: {"key"},  # (a query of more than 512 characters is refused)
    LONG_WORD[1500:1540]: {"key"},
    LONG_RUN[:500]: {"plus"},
    "k300+k301": {"plus"},
    "分布式": {f"n{i:02d}" for i in range(NORMAL) if i % 3} | {"deep"},
}


# PostgreSQL indexes words (a lexeme under 2 KB), not substrings (store/pg/lexemes.py):
# the long word is not in its index, so neither its start nor a piece of it finds it
# there, and `k300+k301` is the words `k300+` and `k301` (a `+` ends a word, as in c++)
# where the text holds `k301+`.
PG_UNINDEXED = {LONG_WORD[:500], LONG_WORD[1500:1540], "k300+k301"}


def debrief(*args: str) -> Ran:
    return run_debrief(*args)


def index_json(folder: Path, db: str) -> tuple[int, dict[str, list[object]]]:
    done = debrief("index", str(folder), "--db", db, "--json")
    assert done.stdout, done.stderr  # the report is printed even when a file failed
    return done.returncode, json.loads(done.stdout)


def search_ids(db: str, query: str) -> list[str]:
    done = debrief("search", query, "--db", db, "--json", "--limit", "50")
    assert done.returncode == 0, done.stderr
    return [hit["id"] for hit in json.loads(done.stdout)]


def stored(store: Backend) -> list[str]:
    return sorted(c.id for c in store.list_candidates())


def test_odd_files_are_indexed_with_the_rest(db_target: str, tmp_path: Path) -> None:
    folder = tmp_path / "transcripts"
    ids = odd_folder(folder)
    code, report = index_json(folder, db_target)
    assert report["failed"] == []
    assert sorted(report["indexed"]) == sorted(ids)  # type: ignore[type-var]
    assert code == 0
    for query, expected in QUERIES.items():
        if db_target.startswith("postgresql://") and query in PG_UNINDEXED:
            expected = set()  # words, not substrings, on PostgreSQL (PG_UNINDEXED)
        assert set(search_ids(db_target, query)) == expected, query[:40]
    code, again = index_json(folder, db_target)  # nothing left to redo
    assert (code, again["indexed"], again["failed"]) == (0, [], [])
    assert sorted(again["unchanged"]) == sorted(ids)  # type: ignore[type-var]


def test_odd_files_give_the_same_hits_on_both_backends(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    folder = tmp_path / "transcripts"
    odd_folder(folder)
    targets = [str(tmp_path / "debrief.db"), fresh_pg_url(request)]
    for db in targets:
        code, report = index_json(folder, db)
        assert code == 0 and report["failed"] == [], report["failed"]
    for query in QUERIES.keys() - PG_UNINDEXED:
        sqlite_hits, pg_hits = (set(search_ids(db, query)) for db in targets)
        assert sqlite_hits == pg_hits, query[:40]  # each backend ranks them its own way


# -- a file the database refuses when its batch commits ------------------------------------


def refuse_at_commit(db: str) -> None:
    """Make the database refuse one file's data when the transaction holding it commits:
    on PostgreSQL a deferred constraint trigger on its candidate's row, on SQLite a
    deferred foreign key its candidate's row breaks."""
    open_store(db, create=True).close()  # the schema, migrated
    if db.startswith("postgresql://"):
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute(
                "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                " RAISE check_violation USING MESSAGE = 'refused'; END $$"
            )
            conn.execute(
                "CREATE CONSTRAINT TRIGGER refuse AFTER INSERT ON candidates"
                " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.id = 'poison')"
                " EXECUTE FUNCTION refuse()"
            )
        return
    conn = sqlite3.connect(db)
    conn.executescript(
        """
        CREATE TABLE refused_parent (id TEXT PRIMARY KEY);
        CREATE TABLE refused (id TEXT REFERENCES refused_parent(id) DEFERRABLE INITIALLY DEFERRED);
        CREATE TRIGGER refuse AFTER INSERT ON candidates WHEN NEW.id = 'poison'
        BEGIN INSERT INTO refused VALUES ('missing'); END;
        """
    )
    conn.close()


def refused_folder(folder: Path) -> tuple[set[str], Path]:
    ids = normal_files(folder)
    poison = folder / "poison.txt"
    poison.write_text(transcript(f"说了一个怪词 {REFUSED_WORD} 。"), "utf-8")
    return ids, poison


def test_a_file_refused_at_commit_fails_alone(db_target: str, tmp_path: Path) -> None:
    refuse_at_commit(db_target)
    ids, poison = refused_folder(tmp_path / "transcripts")
    code, report = index_json(tmp_path / "transcripts", db_target)
    assert code == 1  # something failed: the exit code says so
    failed = report["failed"]
    assert [f["path"] for f in failed] == [str(poison)]  # type: ignore[index]
    assert failed[0]["error"].startswith("cannot be stored: ")  # type: ignore[index]
    assert sorted(report["indexed"]) == sorted(ids)  # type: ignore[type-var]
    listed = json.loads(debrief("list", "--db", db_target, "--json").stdout)
    assert sorted(r["id"] for r in listed) == sorted(ids)


@pytest.mark.parametrize("batch_seconds", [60.0, 0.0])
def test_a_batch_refused_at_commit_keeps_the_others(
    db_target: str, tmp_path: Path, batch_seconds: float
) -> None:
    """One batch for every file (the commit at its end refuses one of them), or a commit
    after every file (the refusal comes at a commit inside the batch, after earlier ones
    landed): either way the others are kept and each is reported once."""
    refuse_at_commit(db_target)
    ids, poison = refused_folder(tmp_path / "transcripts")
    store = open_store(db_target)
    try:
        result = index_paths(store, [tmp_path / "transcripts"], batch_seconds=batch_seconds)
        assert [f.path for f in result.failed] == [str(poison)]
        assert sorted(result.indexed) == sorted(ids)
        assert (result.unchanged, result.skipped, result.removed) == ([], [], [])
        assert stored(store) == sorted(ids)
        again = index_paths(store, [tmp_path / "transcripts"], batch_seconds=batch_seconds)
        assert [f.path for f in again.failed] == [str(poison)]
        assert again.indexed == [] and sorted(again.unchanged) == sorted(ids)
    finally:
        store.close()


def test_the_watcher_indexes_the_rest_and_does_not_loop(db_target: str, tmp_path: Path) -> None:
    """The watcher's first rescan finishes (a run that raised used to end it, to be
    tried again from the same place) with every other file indexed."""
    refuse_at_commit(db_target)
    folder = tmp_path / "transcripts"
    ids = odd_folder(folder)
    (folder / "poison.txt").write_text(transcript(f"怪词 {REFUSED_WORD}"), "utf-8")
    store: Backend = open_store(db_target)
    watcher = FolderWatcher(store, str(folder), interval=60, mode="poll").start()
    try:
        assert watcher.ready.wait(60)
        assert watcher.runs == 1  # the rescan ran to its end and reported
        assert stored(store) == sorted(ids)
    finally:
        watcher.stop()
        store.close()
