"""Forget leaves nothing of a candidate in the full-text index (issue 47), whatever
changed since they were indexed: the index is told which row to drop, never asked to
drop a text computed again (a changed folding table once left 249 trigrams of a
forgotten candidate readable through fts5vocab).

The check is what anyone with the database file can read of the index: every term with
its document and instance counts (fts5vocab on SQLite, every table of each space), which
must be what a database that never held the forgotten candidate holds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bot.cli import cli
from store import scripts
from store.factory import open_store

pytestmark = pytest.mark.sqlite_only

KEPT = (
    "岗位：数据工程师 从业年限：4年\n简介：负责数据平台\n"
    "问题1：谈谈数据仓库\n考察目标：经验\n回答：我们用 Hive 和 Spark 搭建了数据仓库\n点评：扎实\n"
)
# traditional characters (the folding table's part), a rare character and Latin words
FORGOTTEN = (
    "崗位：機器學習工程師 從業年限：3年\n簡介：龘龘獨有的經歷 zyxwvut\n"
    "問題1：談談模型訓練\n考察目標：經驗\n回答：我們用 Kubernetes 訓練過龘龘模型 qjz\n點評：紮實\n"
)


def debrief(db: str, *args: str) -> Any:
    result = CliRunner().invoke(cli, [*args, "--db", db, "--json"], env={"DEBRIEF_LOCALE": "en"})
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def vocabulary(db: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every FTS5 table's terms, with their document and instance counts."""
    store = open_store(db)
    try:
        con = store.db  # type: ignore[attr-defined]
        tables = [
            r[0]
            for r in con.execute(
                "SELECT name FROM sqlite_master WHERE sql LIKE '%USING fts5(%' ORDER BY name"
            )
        ]
        found = {}
        for table in tables:
            con.execute(
                f"CREATE VIRTUAL TABLE temp.v_{table} USING fts5vocab(main, {table}, 'row')"
            )
            found[table] = con.execute(f"SELECT * FROM temp.v_{table} ORDER BY term").fetchall()
        return found
    finally:
        store.close()


def test_forget_leaves_none_of_a_candidate_s_terms_even_after_the_folding_table_changed(
    db_target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = tmp_path / "t"
    files.mkdir()
    (files / "kept.txt").write_text(KEPT, encoding="utf-8")
    (files / "gone.txt").write_text(FORGOTTEN, encoding="utf-8")
    debrief(db_target, "index", str(files))
    held = vocabulary(db_target)
    assert any(t[0] == "龘龘" for t in held["candidates_bigrams"])
    assert any(t[0] == "习工程" for t in held["candidates_fts"])  # folded: 學 -> 学

    # a dependency upgrade changes how 學 folds: the text rebuilt today is not the text
    # indexed then
    bmp, beyond = scripts._search_tables()
    changed = list(bmp)
    changed[ord("學")] = ord("斈")
    monkeypatch.setattr(scripts, "_search_tables", lambda: (changed, beyond))
    assert scripts.search_form("機器學習") == "机器斈习"
    debrief(db_target, "forget", "gone")

    alone = tmp_path / "alone.db"
    only = tmp_path / "only"
    only.mkdir()
    (only / "kept.txt").write_text(KEPT, encoding="utf-8")
    debrief(str(alone), "index", str(only))
    assert vocabulary(db_target) == vocabulary(str(alone))
