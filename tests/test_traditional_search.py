"""繁體 and 简体 alike in search (issue 36): a query in simplified characters finds a
transcript written in traditional ones and the other way round, on SQLite and
PostgreSQL, through `debrief search` (in-process) and `/candidate 搜索` on the wire; bm25
ranks a traditional transcript exactly as its simplified twin; what is shown stays as
written; and a database of the release before, whose index holds traditional text as
written, is indexed again in one script by its upgrade (m027 / pg027)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import opencc
import pytest
from support.cli import debrief as run_debrief
from support.release_before import release_before
from support.slackbot import Bot, all_text
from test_ranking_spaces import A, B, insert_keeping_no_text, install

from store import fulltext
from store.factory import open_store
from store.indexer import index_paths
from store.pg import PgStore
from store.schema import steps
from store.sqlite import space_index

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
T2S = opencc.OpenCC("t2s").convert
S2T = opencc.OpenCC("s2t").convert

# Simplified labels and traditional text: a file the release before indexed as written.
MIXED = """\
候选人：陳大文
岗位：後端工程師 从业年限：3年
简介：熟悉分散式系統與訊息佇列，負責過支付系統的資料庫遷移。
问题1：講講資料庫的索引？
考察目标：資料庫
回答：索引是排好序的資料結構，B+ 樹最常見，資料庫索引要看查詢條件。
问题2：講講負載平衡？
回答：四層負載平衡與七層負載平衡。
点评：資料庫基礎紮實，建議通過。
"""


def write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / f"{name}.txt").write_text(text, "utf-8")
    return folder


def index(db: str, *folders: Path) -> None:
    store = open_store(db)
    try:
        assert not index_paths(store, list(folders)).failed
    finally:
        store.close()


def search(db: str, *query: str) -> list[dict[str, Any]]:
    done = run_debrief("search", *query, "--json", env={"DEBRIEF_DB": db}, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def scores(db: str, query: str, *workspace: str) -> dict[str, float]:
    return {h["id"]: h["score"] for h in search(db, *query.split(), *workspace)}


def test_each_script_finds_the_other_through_debrief_search(db_target: str, tmp_path: Path) -> None:
    twin = T2S(MIXED)
    folder = write(tmp_path / "files", {"chan": S2T(MIXED), "twin": twin})
    env = {"DEBRIEF_DB": db_target}
    assert run_debrief("index", str(folder), env=env, cwd=ROOT).returncode == 0
    for query in ("陈大文", "陳大文", "资料库索引", "資料庫索引", "负载平衡", "負載平衡"):
        hits = search(db_target, query)
        assert {h["id"] for h in hits} == {"chan", "twin"}, query
        # bm25 reads both as the same text: the same score, to the last digit
        assert hits[0]["score"] == hits[1]["score"], query
    [chan] = [h for h in search(db_target, "陈大文") if h["id"] == "chan"]
    assert "陳大文" in chan["snippet"] and "陈大文" not in chan["snippet"]  # as written
    # seed 000 is written in 简体: a traditional query finds it
    assert run_debrief("index", str(SEEDS), env=env, cwd=ROOT).returncode == 0
    assert "000_9e6b3ecb0732fcf3" in {h["id"] for h in search(db_target, "視頻開發工程師")}


def test_bm25_ranks_traditional_transcripts_as_their_simplified_twins(
    db_target: str, tmp_path: Path
) -> None:
    """The same corpus, in 简体 in one workspace and with half of it in 繁體 in another
    (each space's bm25 figures are its own): every query, in either script, gives the
    same candidates with the same scores in both."""
    plain = {p.stem: p.read_text("utf-8") for p in SEEDS.glob("*.txt")} | {"mixed": T2S(MIXED)}
    half = {k: S2T(v) if i % 2 == 0 else v for i, (k, v) in enumerate(sorted(plain.items()))}
    for team, files in ((A, plain), (B, half)):
        install(db_target, team)
        folder = write(tmp_path / team, files)
        done = run_debrief(
            "index", str(folder), "--workspace", team, env={"DEBRIEF_DB": db_target}, cwd=ROOT
        )
        assert done.returncode == 0, done.stderr
    found = 0
    for query in ("分布式", "分散式", "资料库", "資料庫", "训练", "訓練", "模型 训练", "AI", "图"):
        expected = scores(db_target, query, "--workspace", A)
        found += len(expected)
        assert scores(db_target, query, "--workspace", B) == expected, query
        assert scores(db_target, S2T(query), "--workspace", B) == expected, query
    assert found >= 10


def test_candidate_search_on_the_wire_finds_the_other_script(bot: Bot, tmp_path: Path) -> None:
    folder = write(tmp_path / "trad", {"chan": S2T(MIXED)})
    assert not index_paths(bot.store, [folder]).failed
    bot.command("搜索 陈大文", name="s1")
    [reply] = bot.replies("s1")
    body = all_text(reply)
    assert "chan" in body and "陳大文" in body
    bot.command("搜索 視頻開發工程師", name="s2")
    [reply] = bot.replies("s2")
    assert "000_9e6b" in all_text(reply)


# -- a database of the release before ------------------------------------------------------


def test_the_upgrade_indexes_the_release_before_s_traditional_text_in_one_script(
    backend: str,
    db_target: str,
    request: pytest.FixtureRequest,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    upgraded = release_before(backend, request, tmp_path)
    folder = write(tmp_path / "files", {"chan": MIXED})
    # The release before: every step but this one, and the text indexed as written. On
    # PostgreSQL also before pg035, which indexes every candidate's stored text again
    # (this release's code writes none of the columns the release before wrote, nor
    # searches them: the row is saved with its text alone).
    with monkeypatch.context() as before:
        later = {"m027_one_script_index", "m035_deletable_index", "pg035_text_search"}
        kept = [s for s in steps.STEPS if s.sqlite not in later and s.pg not in later]
        before.setattr(steps, "STEPS", kept)
        before.setattr(fulltext, "search_form", lambda text: text)
        before.setattr(space_index, "insert", insert_keeping_no_text)
        if backend == "postgresql":
            before.setattr(PgStore, "_index_columns", lambda self, indexed: ({}, None))
        old = open_store(upgraded)
        assert not index_paths(old, [folder]).failed
        if backend == "sqlite":
            assert [h.id for h in old.search("陳大文")] == ["chan"]
            assert old.search("陈大文") == []  # as the release before found it
        old.close()

    store = open_store(upgraded)  # this release: m027 / pg027 (and pg035) run
    try:
        assert [h.id for h in store.search("陈大文")] == ["chan"]
        assert [h.id for h in store.search("陳大文")] == ["chan"]
        assert "000_9e6b3ecb0732fcf3" in {h.id for h in store.search("分布式")}
    finally:
        store.close()
    # bm25 exactly as a database indexed by this release from the start
    index(db_target, SEEDS, folder)
    for query in ("陈大文", "資料庫", "负载平衡", "分布式", "训练", "AI"):
        assert scores(upgraded, query) == scores(db_target, query), query
    # and a row indexed in one script by the upgrade is taken out as it was put in
    (folder / "chan.txt").write_text(MIXED.replace("陳大文", "陳小文"), "utf-8")
    for target in (upgraded, db_target):
        index(target, folder)
        assert search(target, "陈大文") == []
    for query in ("陈小文", "資料庫", "负载平衡", "分布式"):
        assert scores(upgraded, query) == scores(db_target, query), query
