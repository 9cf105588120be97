"""Search ranking statistics per data space (issue 34, item 6): bm25's figures (number of
documents, average length, document frequency) are each workspace's own, so another
workspace indexing transcripts with the same words changes neither the order nor the
scores of a workspace's results. Through the real CLI (`debrief index --workspace`,
`debrief search --workspace --json`), on SQLite and PostgreSQL; within a space, SQLite's
scores are FTS5's own bm25 over that space's transcripts alone; a database written
before the schema step keeps its transcripts searchable, with each space's own figures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bot.cli import cli
from store import fulltext
from store.factory import is_pg_url, open_store
from store.sqlite.driver import sqlite3
from store.transcripts.parser import parse_transcript
from store.workspace_models import Installation

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

A, B = "T00AAAA", "T00BBBB"
# a Latin word (the trigram side), a Chinese word (the bigram side), and both at once
QUERIES = ("kubernetes", "并行", "kubernetes 并行")


def transcript(n: int, body: str) -> str:
    return (
        f"面试日期：2024-01-{n % 28 + 1:02d}\n岗位：工程师 从业年限：2年\n简介：{body}\n"
        "问题1：请介绍一个项目\n考察目标：经验\n"
        f"回答：{body}\n点评：好\n"
    )


def folder(root: Path, name: str, bodies: list[str]) -> Path:
    where = root / name
    where.mkdir()
    for n, body in enumerate(bodies):
        (where / f"{name}_{n:03d}.txt").write_text(transcript(n, body), encoding="utf-8")
    return where


# B: one transcript says kubernetes often and 并行 once, another the other way round, a
# third kubernetes only, five neither: which comes first depends on each word's idf.
B_BODIES = [
    "kubernetes kubernetes kubernetes kubernetes kubernetes 并行 部署经验",
    "kubernetes 并行 并行 并行 并行 并行 训练经验",
    "kubernetes 运维经验",
    *(f"候选人表现稳定 第{i}位 沟通清楚" for i in range(5)),
]
# A: many transcripts with 并行 (none with kubernetes), longer than B's
A_BODIES = [f"并行 并行 并行 计算 第{i}号 " + "分布式系统设计与调优 " * 20 for i in range(40)]


def debrief(db: str, *args: str) -> Any:
    result = CliRunner().invoke(cli, [*args, "--db", db], env={"DEBRIEF_LOCALE": "en"})
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def install(db: str, team: str) -> None:
    store = open_store(db)
    try:
        store.save_installation(  # type: ignore[attr-defined]
            Installation(
                enterprise_id=None,
                team_id=team,
                team_name=f"team {team}",
                bot_id=f"B{team}",
                bot_user_id=f"U{team}",
                bot_token_enc="ciphertext",
            )
        )
    finally:
        store.close()


def results(db: str, team: str) -> dict[str, list[tuple[str, float]]]:
    """Each query's hits in `team`'s workspace, best first, with their scores."""
    found = {}
    for query in QUERIES:
        hits = debrief(db, "search", *query.split(), "--workspace", team, "--json")
        found[query] = [(h["id"], h["score"]) for h in hits]
    return found


def test_another_workspace_indexing_the_same_words_changes_nothing_of_a_workspace_s_ranking(
    db_target: str, tmp_path: Path
) -> None:
    install(db_target, A)
    install(db_target, B)
    debrief(db_target, "index", str(folder(tmp_path, "b", B_BODIES)), "--workspace", B, "--json")
    alone = results(db_target, B)
    assert [len(alone[q]) for q in QUERIES] == [3, 2, 2]
    # B's own figures: 并行 is rarer than kubernetes in B, so the transcript saying
    # 并行 five times comes first for both words together
    assert alone["kubernetes 并行"][0][0] == "b_001"

    debrief(db_target, "index", str(folder(tmp_path, "a", A_BODIES)), "--workspace", A, "--json")
    assert results(db_target, B) == alone  # the same order, the same scores
    # and A's own search sees its own transcripts, ranked by its own figures
    assert len(debrief(db_target, "search", "并行", "--workspace", A, "--json")) == 10

    # A's transcripts gone (forgotten one by one), B's ranking is still its own
    for n in range(0, 40, 3):
        debrief(db_target, "forget", f"a_{n:03d}", "--workspace", A, "--yes", "--json")
    assert results(db_target, B) == alone


@pytest.mark.sqlite_only
def test_within_a_space_the_scores_are_fts5_s_bm25_over_that_space_alone(
    db_target: str, tmp_path: Path
) -> None:
    """The relevance the store gives a space is FTS5's own bm25 on a table holding that
    space's transcripts and nothing else (the other space's words notwithstanding)."""
    install(db_target, A)
    install(db_target, B)
    debrief(db_target, "index", str(folder(tmp_path, "a", A_BODIES)), "--workspace", A, "--json")
    b = folder(tmp_path, "b", B_BODIES)
    debrief(db_target, "index", str(b), "--workspace", B, "--json")

    bare = sqlite3.connect(":memory:")
    bare.execute("CREATE VIRTUAL TABLE tri USING fts5(text, tokenize='trigram', content='')")
    bare.execute(
        "CREATE VIRTUAL TABLE bi USING fts5(bigrams, tokenize=\"unicode61 tokenchars '#+'\","
        " content='')"
    )
    ids = {}
    for rowid, path in enumerate(sorted(b.iterdir()), start=1):
        text, grams = fulltext.indexed(parse_transcript(path.read_bytes(), path.name))
        bare.execute("INSERT INTO tri (rowid, text) VALUES (?, ?)", [rowid, text])
        bare.execute("INSERT INTO bi (rowid, bigrams) VALUES (?, ?)", [rowid, grams])
        ids[rowid] = path.stem
    expected = {
        "kubernetes": bare.execute(
            "SELECT rowid, -bm25(tri) FROM tri WHERE tri MATCH '\"kubernetes\"'"
        ).fetchall(),
        "并行": bare.execute(
            "SELECT rowid, -bm25(bi) FROM bi WHERE bi MATCH '\"并行\"'"
        ).fetchall(),
    }
    ours = results(db_target, B)
    for query, scored in expected.items():
        want = sorted(((ids[r], s) for r, s in scored), key=lambda h: -h[1])
        assert [h[0] for h in ours[query]] == [h[0] for h in want], query
        assert [h[1] for h in ours[query]] == pytest.approx(
            [h[1] for h in want], abs=2e-6
        )  # printed to 6 places


def insert_keeping_no_text(conn: Any, ws: int, found: list[tuple[int, tuple[str, str]]]) -> None:
    """The release before issue 47's save: its FTS5 rows, and no text kept beside them."""
    from store.sqlite import space_index

    space_index.create(conn.execute, ws)
    tri, bi = space_index.tables(ws)
    conn.executemany(
        f"INSERT INTO {tri} (rowid, text) VALUES (?, ?)", [(r, i[0]) for r, i in found]
    )
    conn.executemany(
        f"INSERT INTO {bi} (rowid, bigrams) VALUES (?, ?)", [(r, i[1]) for r, i in found]
    )


@pytest.mark.sqlite_only
def test_a_database_written_before_is_indexed_again_with_the_texts_to_delete_and_each_space_s_figures(
    db_target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Schema step m035 on a database the release before wrote (FTS5 rows that forget
    could only take out by computing their text again): after it, each space finds what a
    database indexed by this release finds, and every row's text is kept to delete it
    with (FTS5's integrity check passes)."""
    from store.schema import steps
    from store.sqlite import space_index

    assert not is_pg_url(db_target)
    before = [s for s in steps.STEPS if s.sqlite != "m035_deletable_index"]
    assert len(before) == len(steps.STEPS) - 1
    b = folder(tmp_path, "b", B_BODIES)

    with monkeypatch.context() as m:
        m.setattr(steps, "STEPS", before)
        m.setattr(space_index, "insert", insert_keeping_no_text)
        debrief(db_target, "index", str(folder(tmp_path, "zero", B_BODIES[:3])), "--json")
        install(db_target, A)
        install(db_target, B)
        debrief(
            db_target, "index", str(folder(tmp_path, "a", A_BODIES)), "--workspace", A, "--json"
        )
        debrief(db_target, "index", str(b), "--workspace", B, "--json")

    after = results(db_target, B)  # this release: the step runs
    own = tmp_path / "own.db"
    install(str(own), B)
    debrief(str(own), "index", str(b), "--workspace", B, "--json")
    assert after == results(str(own), B)
    store = open_store(db_target)
    try:
        con = store.db  # type: ignore[attr-defined]
        kept = con.execute("SELECT count(*) FROM search_texts").fetchone()[0]
        assert kept == con.execute("SELECT count(*) FROM candidates").fetchone()[0] == 51
        assert con.execute("SELECT 1 FROM pragma_table_list('search_postings')").fetchone() is None
        for table in ("candidates_fts", "candidates_bigrams"):
            con.execute(f"INSERT INTO {table} ({table}, rank) VALUES ('integrity-check', 0)")
        assert con.execute("SELECT count(*) FROM candidates_fts_docsize").fetchone()[0] == 3
        assert len(store.search("并行", limit=100)) == 2
        view = store.in_workspace(store.workspace_of(A).ws)  # type: ignore[attr-defined]
        assert len(view.search("并行", limit=100)) == 40
    finally:
        store.close()


@pytest.mark.sqlite_only
def test_a_workspace_s_erasure_drops_its_own_index_and_leaves_the_other_s_ranking(
    db_target: str, tmp_path: Path
) -> None:
    """`debrief forget --workspace` (the erasure of a whole space) drops the space's own
    FTS5 tables; the other workspace keeps its own, and its ranking."""
    install(db_target, A)
    install(db_target, B)
    debrief(db_target, "index", str(folder(tmp_path, "a", A_BODIES)), "--workspace", A, "--json")
    debrief(db_target, "index", str(folder(tmp_path, "b", B_BODIES)), "--workspace", B, "--json")
    alone = results(db_target, B)
    store = open_store(db_target)
    try:
        space = store.workspace_of(A)  # type: ignore[attr-defined]
        assert space is not None
        assert store.uninstall(A, "2099-01-01T00:00:00+00:00")  # type: ignore[attr-defined]
        own = f"SELECT count(*) FROM sqlite_master WHERE name GLOB 'candidates_*_ws{space.ws}'"
        assert store._scalar(own) == 2  # the space's two tables, made by its first save
    finally:
        store.close()
    debrief(db_target, "forget", "--workspace", A, "--yes", "--json")
    store = open_store(db_target)
    try:
        assert store._scalar(own) == 0
    finally:
        store.close()
    assert results(db_target, B) == alone
