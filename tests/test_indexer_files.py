"""What an index run does with the files it finds: not transcripts, special files,
.debriefignore, and one id per file. Input folder -> expected index result."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from support.cli import Ran
from support.cli import debrief as run_debrief

from store.indexer import index_paths
from store.models import IndexResult
from store.sqlite.store import Store

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
SEED = (SEEDS / "000_9e6b3ecb0732fcf3.txt").read_text("utf-8")


def small(position: str) -> str:
    return f"岗位：{position} 从业年限：3年\n问题1：你好？\n考察目标：礼貌\n回答：好\n点评：不错\n"


def run(store: Store, *paths: Path) -> IndexResult:
    return index_paths(store, list(paths))


def skipped_reasons(result: IndexResult) -> dict[str, str]:
    return {Path(s.path).name: s.reason for s in result.skipped}


# -- not a transcript is not a failure ----------------------------------------------------------

NOT_TRANSCRIPTS = {
    "README.md": "# Transcripts\n\nPut one interview per file here.\n",
    "notes.txt": "周一面了三个人，明天继续。\n记得订会议室。\n",
    "todo.txt": "Experience: to be collected\n",
}


def test_files_with_no_label_are_skipped_with_a_reason(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    for name, text in NOT_TRANSCRIPTS.items():
        (folder / name).write_text(text, "utf-8")
    result = run(store, folder)
    assert len(result.indexed) == 4
    assert result.failed == []
    reasons = skipped_reasons(result)
    assert set(reasons) == set(NOT_TRANSCRIPTS)
    assert all("not a transcript" in r for r in reasons.values())
    again = run(store, folder)
    assert again.failed == [] and set(skipped_reasons(again)) == set(NOT_TRANSCRIPTS)


def test_a_transcript_that_cannot_be_parsed_still_fails(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "half.txt").write_text("简介：写 Go 的人\n点评：不错\n", "utf-8")
    (folder / "bigq.txt").write_text("岗位：x\n问题99999999：q\n回答：a\n", "utf-8")
    result = run(store, folder)
    assert result.skipped == []
    assert sorted(Path(f.path).name for f in result.failed) == ["bigq.txt", "half.txt"]


def _index_cli(*args: str) -> Ran:
    return run_debrief("index", *args, cwd=ROOT)


def test_index_json_lists_skipped_files_and_exits_0(tmp_path: Path) -> None:
    import json

    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    (folder / "README.md").write_text(NOT_TRANSCRIPTS["README.md"], "utf-8")
    done = _index_cli(str(folder), "--db", str(tmp_path / "x.db"), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["failed"] == []
    assert [s["path"] for s in out["skipped"]] == [str(folder / "README.md")]
    assert set(out["skipped"][0]) == {"path", "reason"}


# -- special files are never opened -------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_skipped_from_stat_and_never_opened(tmp_path: Path) -> None:
    import json

    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    os.mkfifo(folder / "pipe.txt")
    os.symlink("pipe.txt", folder / "link-to-pipe.txt")
    # Opening a FIFO with no writer blocks: a run that opened it would never end.
    done = _index_cli(str(folder), "--db", str(tmp_path / "x.db"), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert len(out["indexed"]) == 4 and out["failed"] == []
    reasons = {Path(s["path"]).name: s["reason"] for s in out["skipped"]}
    assert set(reasons) == {"pipe.txt", "link-to-pipe.txt"}
    assert all("FIFO" in r for r in reasons.values())


# -- .debriefignore ----------------------------------------------------------------------------


def test_debriefignore_leaves_files_out(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    (folder / "drafts").mkdir(parents=True)
    (folder / "sub").mkdir()
    (folder / "a.txt").write_text(small("A"), "utf-8")
    (folder / "b.tmp").write_text(small("B"), "utf-8")
    (folder / "drafts" / "c.txt").write_text(small("C"), "utf-8")
    (folder / "sub" / "d.txt").write_text(small("D"), "utf-8")
    (folder / "sub" / "e.txt").write_text(small("E"), "utf-8")
    first = run(store, folder)
    assert sorted(first.indexed) == ["a", "b", "c", "d", "e"]

    (folder / ".debriefignore").write_text("# not these\n*.tmp\ndrafts/\n", "utf-8")
    (folder / "sub" / ".debriefignore").write_text("*.txt\n!e.txt\n", "utf-8")
    second = run(store, folder)
    assert sorted(second.removed) == ["b", "c", "d"]
    assert sorted(second.unchanged) == ["a", "e"]
    assert second.failed == [] and second.skipped == []
    assert sorted(r.id for r in store.list_candidates()) == ["a", "e"]


# -- one file, one id ---------------------------------------------------------------------------


def _ids_by_position(store: Store) -> dict[str, str]:
    return {r.position or "": r.id for r in store.list_candidates()}


def test_the_same_name_in_two_folders_gets_two_stable_ids(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    (folder / "a").mkdir(parents=True)
    (folder / "b").mkdir()
    (folder / "a" / "x.txt").write_text(small("A"), "utf-8")
    (folder / "b" / "x.txt").write_text(small("B"), "utf-8")
    store = Store(str(tmp_path / "one.db"))
    first = run(store, folder)
    assert first.failed == [] and len(set(first.indexed)) == 2
    ids = _ids_by_position(store)
    assert ids["A"] == "x" and ids["B"].startswith("x_") and len(ids["B"]) == len("x_") + 8

    # Both files change, several runs: each keeps its id.
    for n in range(3):
        (folder / "a" / "x.txt").write_text(small("A") + f"\n{n}", "utf-8")
        (folder / "b" / "x.txt").write_text(small("B") + f"\n{n}", "utf-8")
        again = run(store, folder)
        assert sorted(again.indexed) == sorted(ids.values()), again
        assert _ids_by_position(store) == ids
        b = store.get_candidate(ids["B"])
        assert b is not None and b.position == "B"

    # A fresh database gives the same ids.
    fresh = Store(str(tmp_path / "two.db"))
    run(fresh, folder)
    assert _ids_by_position(fresh) == ids


def test_names_that_differ_only_in_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    for byte, position in ((b"\xff", "FF"), (b"\xfe", "FE")):
        with open(os.fsencode(folder) + b"/bad" + byte + b".txt", "wb") as fh:
            fh.write(small(position).encode())
    store = Store(str(tmp_path / "x.db"))
    first = run(store, folder)
    assert first.failed == [] and len(set(first.indexed)) == 2
    ids = _ids_by_position(store)
    assert len(set(ids.values())) == 2
    assert all(i.startswith("bad\ufffd") for i in ids.values())
    assert run(store, folder).unchanged and _ids_by_position(store) == ids
    sources = {c.source for i in ids.values() if (c := store.get_candidate(i))}
    assert len(sources) == 2  # each file is its own source


def test_a_moved_file_keeps_its_id_and_is_not_removed(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    (folder / "old").mkdir(parents=True)
    (folder / "new").mkdir()
    (folder / "old" / "x.txt").write_text(SEED, "utf-8")
    assert run(store, folder).indexed == ["x"]
    (folder / "old" / "x.txt").rename(folder / "new" / "x.txt")
    moved = run(store, folder)
    assert moved.indexed == ["x"] and moved.removed == []
    c = store.get_candidate("x")
    assert c is not None and c.source == str(folder / "new" / "x.txt")


# -- a database from before the new facts ----------------------------------------------------


def test_upgrade_fills_the_new_facts_from_the_files(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    path = tmp_path / "old.db"
    store = Store(path)
    run(store, folder)
    before = store.get_candidate("000_9e6b3ecb0732fcf3")
    assert before is not None
    # The database as it was before m008: no years_text, no unanswered_reason.
    store.db.execute("ALTER TABLE candidates DROP COLUMN years_text")
    store.db.execute("ALTER TABLE questions DROP COLUMN unanswered_reason")
    store.db.execute("DELETE FROM _migrations WHERE name = 'm009_transcript_facts'")
    store.db.conn.commit()

    upgraded = Store(path)
    c = upgraded.get_candidate("000_9e6b3ecb0732fcf3")
    assert c is not None and c.years_text == ""  # the file has not been read again yet
    assert [q.unanswered_reason for q in c.questions] == [None, "empty", "empty", None, None]

    again = run(upgraded, folder)  # unchanged files, parsed again once
    assert sorted(again.indexed) == sorted(p.stem for p in SEEDS.glob("*.txt"))
    c = upgraded.get_candidate("000_9e6b3ecb0732fcf3")
    assert c is not None and (c.years, c.years_text) == (3, "3年")
    assert c.indexed_at == before.indexed_at  # still the first time it was indexed
    third = run(upgraded, folder)
    assert third.indexed == [] and len(third.unchanged) == 4


def test_years_and_reasons_are_stored_and_read_back(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "x.txt").write_text(
        "岗位：SRE\n从业年限：\n1年半\n问题1：a？\n回答：不知道\n问题2：b？\n回答：跳过\n"
        "问题3：c？\n回答：\n问题4：d？\n回答：会\n",
        "utf-8",
    )
    run(store, folder)
    c = store.get_candidate("x")
    assert c is not None
    assert (c.years, c.years_text) == (1.5, "1年半")
    assert [q.unanswered_reason for q in c.questions] == ["dont_know", "skipped", "empty", None]
    assert [r.years for r in store.list_candidates()] == [1.5]
    assert store.list_candidates()[0].model_dump()["years_text"] == "1年半"
