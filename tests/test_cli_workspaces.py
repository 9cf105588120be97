"""The command line with the data of many workspaces (issue 26): `--workspace T…|E…` on
each command that reads or writes candidates, required once the database holds another
workspace's data (fail closed); `forget --workspace` erasing a whole workspace's data;
`migrate-workspace` giving the single-workspace mode's data its workspace. Through
click's CliRunner, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import shutil
import string
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from bot.cli import cli
from store.factory import Backend, open_store
from store.workspace_models import Installation

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
FIRST = "000_9e6b3ecb0732fcf3"  # a seed's id, the same in every space it is indexed in
EXTRA = "面试日期：2020-01-02\n岗位：量子计算工程师 从业年限：2年\n简介：简介\n问题1：问题\n考察目标：目标\n回答：回答\n点评：好\n"
ENGLISH = ("questions", "unanswered", "indexed", "candidates", "never", "data", "Error")


def debrief(db: str, *args: str, locale: str = "en", input: str | None = None) -> Result:
    return CliRunner().invoke(cli, [*args, "--db", db], env={"DEBRIEF_LOCALE": locale}, input=input)


def out_json(result: Result) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def install(db: str, team: str) -> int:
    store = open_store(db)
    try:
        return store.save_installation(  # type: ignore[attr-defined,no-any-return]
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


def uninstall(db: str, team: str, days: float = 30) -> None:
    store = open_store(db)
    try:
        when = (datetime.now(UTC) + timedelta(days=days)).isoformat()
        assert store.uninstall(team, when)  # type: ignore[attr-defined]
    finally:
        store.close()


def opened(db: str) -> Backend:
    return open_store(db, create=False)


@pytest.fixture
def seeded(db_target: str) -> str:
    """The seeds indexed as the single-workspace mode indexes them: into space 0."""
    assert debrief(db_target, "index", str(SEEDS)).exit_code == 0
    return db_target


def test_a_database_of_one_workspace_needs_no_workspace_named(seeded: str) -> None:
    assert len(out_json(debrief(seeded, "list", "--json"))) == 4
    unknown = debrief(seeded, "list", "--workspace", "T0404")
    assert unknown.exit_code == 2
    assert "no data of workspace T0404" in unknown.output and "Traceback" not in unknown.output
    bad = debrief(seeded, "list", "--workspace", "general")
    assert bad.exit_code == 2 and "general is not a workspace key" in bad.output


COMMANDS = [
    ["index", str(SEEDS)],
    ["show", "000"],
    ["search", "分布式"],
    ["list"],
    ["stats"],
    ["audit"],
    ["export"],
    ["forget", FIRST, "--yes"],
    ["forget", FIRST, "--restore"],
    ["retention", "--dry-run", "--days", "1"],
    ["ask", "/candidate 列表"],
    ["digest", "--dry-run"],
    ["remind", "--dry-run"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: "-".join(a[:2]))
def test_with_installed_workspaces_a_command_must_name_one(seeded: str, args: list[str]) -> None:
    """Fail closed: once another workspace has data here, no command guesses which."""
    install(seeded, "T0002")
    refused = debrief(seeded, *args)
    assert refused.exit_code == 2, refused.output
    assert "say which with --workspace" in refused.output and "T0002" in refused.output
    zh = debrief(seeded, *args, locale="zh")
    assert zh.exit_code == 2 and "--workspace" in zh.output
    assert not [w for w in ENGLISH if w in zh.output], zh.output
    assert len(out_json(debrief(seeded, "list", "--json", "--workspace", "T0002"))) == 0


def test_each_command_works_in_the_workspace_it_names(seeded: str, tmp_path: Path) -> None:
    assert out_json(debrief(seeded, "migrate-workspace", "T0001", "--json"))["changed"]
    two = install(seeded, "T0002")
    assert two != 0
    one_ids = [r["id"] for r in out_json(debrief(seeded, "list", "--json", "--workspace", "T0001"))]
    # index into T0002: the seeds, and a transcript only T0002 has
    folder = tmp_path / "two"
    shutil.copytree(SEEDS, folder)
    (folder / "quantum.txt").write_text(EXTRA, "utf-8")
    indexed = out_json(debrief(seeded, "index", str(folder), "--workspace", "T0002", "--json"))
    assert set(indexed) == {
        "indexed",
        "unchanged",
        "removed",
        "failed",
        "skipped",
        "forgotten",
        "warnings",
    }
    assert len(indexed["indexed"]) == 5
    two_ids = [r["id"] for r in out_json(debrief(seeded, "list", "--json", "--workspace", "T0002"))]
    assert len(two_ids) == 5 and FIRST in two_ids and "quantum" in two_ids
    assert [
        r["id"] for r in out_json(debrief(seeded, "list", "--json", "--workspace", "T0001"))
    ] == (one_ids)
    hits = out_json(debrief(seeded, "search", "量子计算", "--json", "--workspace", "T0002"))
    assert [h["id"] for h in hits] == ["quantum"]
    assert out_json(debrief(seeded, "search", "量子计算", "--json", "--workspace", "T0001")) == []
    shown = out_json(debrief(seeded, "show", "quantum", "--json", "--workspace", "T0002"))
    assert shown["position"] == "量子计算工程师"
    assert debrief(seeded, "show", "quantum", "--workspace", "T0001").exit_code == 1
    stats_two = out_json(debrief(seeded, "stats", "--json", "--workspace", "T0002"))
    stats_one = out_json(debrief(seeded, "stats", "--json", "--workspace", "T0001"))
    assert (stats_two["candidates"], stats_one["candidates"]) == (5, 4)
    assert stats_two["last_index_run"]["indexed"] == 5  # each space its own last run
    assert stats_one["last_index_run"]["indexed"] == 4
    # forget in T0002: T0001's twin stays
    forgot = out_json(debrief(seeded, "forget", FIRST, "--yes", "--json", "--workspace", "T0002"))
    assert forgot["forgotten"] == FIRST
    assert debrief(seeded, "show", FIRST, "--workspace", "T0002").exit_code == 1
    assert out_json(debrief(seeded, "show", FIRST, "--json", "--workspace", "T0001"))["id"] == FIRST
    audit_two = out_json(debrief(seeded, "audit", "--json", "--workspace", "T0002"))
    assert [e["what"] for e in audit_two][-1] == "forget"
    assert "forget" not in [
        e["what"] for e in out_json(debrief(seeded, "audit", "--json", "--workspace", "T0001"))
    ]
    restored = out_json(
        debrief(seeded, "forget", FIRST, "--restore", "--json", "--workspace", "T0002")
    )
    assert restored["restored"] == FIRST and restored["indexed"] == [FIRST]
    exported = debrief(seeded, "export", "--format", "json", "--workspace", "T0002")
    assert exported.exit_code == 0 and {r["id"] for r in json.loads(exported.stdout)} == set(
        two_ids
    )
    asked = debrief(seeded, "ask", "/candidate 总结 quantum", "--workspace", "T0002")
    assert asked.exit_code == 0 and "量子计算工程师" in asked.output
    assert debrief(seeded, "ask", "/candidate 总结 quantum", "--workspace", "T0001").exit_code == 1
    for key, due in (("T0002", ["quantum"]), ("T0001", [])):  # interviewed in 2020: T0002's
        would = out_json(
            debrief(seeded, "retention", "--dry-run", "--days", "9", "--json", "--workspace", key)
        )
        assert [e["id"] for e in would["would_forget"]] == due
    assert debrief(seeded, "digest", "--dry-run", "--workspace", "T0002").exit_code == 0
    assert debrief(seeded, "remind", "--dry-run", "--workspace", "T0002").exit_code == 0


def test_forget_a_whole_workspace(
    seeded: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    two = install(seeded, "T0002")
    assert debrief(seeded, "index", str(SEEDS), "--workspace", "T0002").exit_code == 0
    installed = debrief(seeded, "forget", "--workspace", "T0002", "--yes")
    assert installed.exit_code == 1 and "still has Debrief installed" in installed.output
    unknown = debrief(seeded, "forget", "--workspace", "T0404", "--yes")
    assert unknown.exit_code == 2 and "no data of workspace T0404" in unknown.output
    neither = debrief(seeded, "forget")
    assert neither.exit_code == 2 and "forget whom?" in neither.output
    uninstall(seeded, "T0002")  # its grace runs 30 days: erased now, on request
    # asked first at a terminal: "no" keeps everything
    monkeypatch.setattr("bot.ops._terminal", lambda: True)
    kept = debrief(seeded, "forget", "--workspace", "T0002", input="n\n")
    assert kept.exit_code == 1
    assert "Erase all data of workspace T0002 for good (4 candidates" in kept.output
    assert "the data of workspace T0002 is kept" in kept.output
    assert len(out_json(debrief(seeded, "list", "--json", "--workspace", "T0002"))) == 4
    zh = debrief(seeded, "forget", "--workspace", "T0002", locale="zh", input="y\n")
    assert zh.exit_code == 0, zh.output
    assert "已抹去工作区 T0002 的数据：候选人 4 位" in zh.output
    assert not [w for w in ENGLISH if w in zh.output], zh.output
    # gone, its key free; the database holds one workspace's data again
    gone = debrief(seeded, "list", "--workspace", "T0002")
    assert gone.exit_code == 2 and "no data of workspace T0002" in gone.output
    assert len(out_json(debrief(seeded, "list", "--json"))) == 4
    store = opened(seeded)
    try:
        erased = [w for w in store.workspaces() if w.ws == two]
        assert erased[0].erased_at is not None and erased[0].slack_key is None
        assert store.in_workspace(two).audit_log()[-1].what == "forget:workspace"
    finally:
        store.close()


def test_forget_a_whole_workspace_as_json_and_space_zero_only_once_uninstalled(
    seeded: str,
) -> None:
    assert debrief(seeded, "migrate-workspace", "T0001").exit_code == 0
    zero = debrief(seeded, "forget", "--workspace", "T0001", "--yes")
    assert zero.exit_code == 1 and "never uninstalled Debrief" in zero.output
    assert install(seeded, "T0001") == 0  # its install takes space 0 over
    uninstall(seeded, "T0001", days=-1)
    done = out_json(debrief(seeded, "forget", "--workspace", "T0001", "--yes", "--json"))
    # rows: the four `forgotten` marks the erasure of each candidate leaves, then deletes
    assert done == {"workspace": "T0001", "erased": True, "candidates": 4, "files": 0, "rows": 4}
    assert out_json(debrief(seeded, "list", "--json")) == []


def test_migrate_workspace_names_space_zero_once_and_refuses_what_is_not_its(
    seeded: str,
) -> None:
    store = opened(seeded)
    try:
        rids = store._all("SELECT rid, id FROM candidates ORDER BY rid")  # type: ignore[attr-defined]
    finally:
        store.close()
    named = debrief(seeded, "migrate-workspace", "T0001")
    assert named.exit_code == 0 and "now belongs to workspace T0001" in named.output
    again = debrief(seeded, "migrate-workspace", "T0001", "--json")
    assert out_json(again) == {"workspace": "T0001", "space": 0, "changed": False}
    other = debrief(seeded, "migrate-workspace", "T0002")
    assert other.exit_code == 1 and "belongs to workspace T0001 already" in other.output
    assert debrief(seeded, "migrate-workspace", "t0001").exit_code == 2
    # nothing rewritten, and the workspace's install takes space 0 with all of it
    assert install(seeded, "T0001") == 0
    store = opened(seeded)
    try:
        assert store._all("SELECT rid, id FROM candidates ORDER BY rid") == rids  # type: ignore[attr-defined]
        assert [(w.ws, w.slack_key) for w in store.workspaces()] == [(0, "T0001")]
    finally:
        store.close()
    assert len(out_json(debrief(seeded, "list", "--json", "--workspace", "T0001"))) == 4


def test_migrate_workspace_refuses_a_key_another_space_has(seeded: str) -> None:
    three = install(seeded, "T0003")
    taken = debrief(seeded, "migrate-workspace", "T0003")
    assert taken.exit_code == 1
    assert f"workspace T0003 has a data space of its own already (space {three})" in taken.output
    zh = debrief(seeded, "migrate-workspace", "T0003", locale="zh")
    assert zh.exit_code == 1 and not [w for w in ENGLISH if w in zh.output]


def test_migrate_workspace_wants_force_for_another_team_than_it_served(seeded: str) -> None:
    store = opened(seeded)
    try:
        store.remember_workspace("T0001", "Acme")  # what single-workspace `serve` recorded
    finally:
        store.close()
    refused = debrief(seeded, "migrate-workspace", "T0009")
    assert refused.exit_code == 1
    assert "served Acme (T0001), not T0009" in refused.output and "--force" in refused.output
    forced = debrief(seeded, "migrate-workspace", "T0009", "--force")
    assert forced.exit_code == 0, forced.output
    store = opened(seeded)
    try:
        assert store.workspaces()[0].slack_key == "T0009"
    finally:
        store.close()
    served = debrief(seeded, "migrate-workspace", "E0001")  # an organisation's key is one too
    assert served.exit_code == 1 and "belongs to workspace T0009 already" in served.output


def test_the_command_lines_own_words_have_both_languages() -> None:
    from bot.words.workspaces import WORDS as _WORDS

    def fields(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    for key, words in _WORDS.items():
        assert set(words) == {"zh", "en"}, key
        assert fields(words["zh"]) == fields(words["en"]), key
        said = "".join(part for part, _, _, _ in string.Formatter().parse(words["zh"]))
        assert not [w for w in ENGLISH if w in said], key
