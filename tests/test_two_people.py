"""Telling two people apart (issue 45, items 7 and 8), through `debrief` in-process on
SQLite and PostgreSQL: a split records that two people share a name and a position, so
a later interview matching both joins neither until `debrief link` picks (and the pick
lists tell them apart by rounds, dates and interviewers); an explicit key differing
only in case joins two interviews only when the names do not contradict."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_loops_cli import debrief, keys, ok, transcript

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL


def zhang(date: str, round_: str, interviewer: str, extra: str = "") -> str:
    text = transcript("张伟", "后端工程师", date, round_, [("讲讲 JVM？", "堆和栈")], extra)
    return text.replace("面试官：李四", f"面试官：{interviewer}")


def index(db: str, folder: Path, files: dict[str, str]) -> list[str]:
    folder.mkdir(exist_ok=True)
    for name, content in files.items():
        (folder / f"{name}.txt").write_text(content, encoding="utf-8")
    return sorted(json.loads(ok(db, "index", str(folder), "--json"))["indexed"])


@pytest.fixture
def split(db_target: str, tmp_path: Path) -> tuple[str, Path]:
    """张伟 A (zw_a) and 张伟 B (zw_b): grouped by name and position, then `unlink zw_b`."""
    folder = tmp_path / "t"
    index(
        db_target,
        folder,
        {"zw_a": zhang("2026-11-01", "一面", "李四"), "zw_b": zhang("2026-11-03", "一面", "王五")},
    )
    k = keys(db_target)
    assert k["zw_a"] == k["zw_b"]  # one name, one position: grouped as one
    ok(db_target, "unlink", "zw_b")
    return db_target, folder


def test_after_a_split_the_next_interview_of_that_name_joins_neither_until_linked(
    split: tuple[str, Path],
) -> None:
    db, folder = split
    before = keys(db)
    assert index(db, folder, {"zw_b2": zhang("2026-11-10", "二面", "王五")}) == ["zw_b2"]
    k = keys(db)
    assert k["zw_b2"] not in (k["zw_a"], k["zw_b"]), "joined one of two people silently"
    # indexed again, still no one's
    (folder / "zw_b2.txt").write_text(zhang("2026-11-10", "二面", "王五") + "\n", "utf-8")
    index(db, folder, {})
    assert keys(db)["zw_b2"] == k["zw_b2"]
    # A's own interviews stay A's when read again
    (folder / "zw_a.txt").write_text(zhang("2026-11-01", "一面", "李四") + "\n", "utf-8")
    index(db, folder, {})
    assert keys(db)["zw_a"] == before["zw_a"]
    # `debrief loop` says it waits, and how to pick
    said = ok(db, "loop", "zw_b2")
    assert "counts as none of them yet" in said and "debrief link <key> zw_b2" in said
    assert k["zw_a"] in said and k["zw_b"] in said
    # the command line picks: B
    ok(db, "link", "zw_b", "zw_b2")
    k = keys(db)
    assert k["zw_b2"] == k["zw_b"] != k["zw_a"]
    said = [(e["what"], e["candidate"]) for e in json.loads(ok(db, "audit", "--json"))]
    assert (f"link:{k['zw_b']}", "zw_b2") in said
    # and the pick is kept over a re-index
    (folder / "zw_b2.txt").write_text(zhang("2026-11-10", "二面", "王五") + "\n\n", "utf-8")
    index(db, folder, {})
    assert keys(db)["zw_b2"] == k["zw_b"]


def test_two_people_of_one_name_and_position_are_told_apart_on_the_pick_list(
    split: tuple[str, Path],
) -> None:
    db, _folder = split
    done = debrief(db, "loop", "张伟", locale="zh")
    assert done.returncode == 2
    lines = [line for line in done.stderr.splitlines() if "张伟 · 后端工程师" in line]
    assert len(lines) == 2
    a, b = sorted(lines, key=lambda line: "李四" in line, reverse=True)
    assert "一面 2026-11-01" in a and "李四" in a and "王五" not in a
    assert "一面 2026-11-03" in b and "王五" in b and "李四" not in b
    # the lines without their keys differ too
    assert a.split("  ", 1)[1] != b.split("  ", 1)[1]


def test_a_key_differing_only_in_case_with_another_name_does_not_join(
    db_target: str, tmp_path: Path
) -> None:
    folder = tmp_path / "t"
    files = {
        "k_zhang": transcript(
            "张伟", "后端工程师", "2026-11-01", "一面", [("讲讲 JVM？", "堆")], "候选人编号：c-1042"
        ),
        "k_li": transcript(
            "李娜", "数据分析师", "2026-11-02", "一面", [("讲讲 SQL？", "会")], "候选人编号：C-1042"
        ),
    }
    index(db_target, folder, files)
    k = keys(db_target)
    assert k["k_zhang"] != k["k_li"], "a key with two names made them one candidate"
    # each name's later interviews with that key join that name's candidate
    later = {
        "k_li2": transcript(
            "李娜", "数据分析师", "2026-11-09", "二面", [("讲讲 SQL？", "会")], "候选人编号：C-1042"
        ),
        "k_zhang2": transcript(
            "张 伟", "后端工程师", "2026-11-08", "二面", [("讲讲 GC？", "会")], "候选人编号：C-1042"
        ),
    }
    index(db_target, folder, later)
    k = keys(db_target)
    assert k["k_li2"] == k["k_li"] and k["k_zhang2"] == k["k_zhang"] != k["k_li"]
    # read again in another order: the same people
    for name in (*files, *later):
        (folder / f"{name}.txt").write_text((folder / f"{name}.txt").read_text("utf-8") + "\n")
    index(db_target, folder, {})
    assert keys(db_target) == k
    said = ok(db_target, "loop", "k_li")
    assert "C-1042 is also on interviews" in said and "后端工程师" in said
    stats = json.loads(ok(db_target, "stats", "--json"))
    assert (stats["candidates"], stats["interviews"]) == (2, 4)


def test_forgetting_the_person_split_off_leaves_one_person_of_that_name(
    split: tuple[str, Path],
) -> None:
    db, folder = split
    index(db, folder, {"zw_c": zhang("2026-11-10", "二面", "王五")})
    k = keys(db)
    assert k["zw_c"] not in (k["zw_a"], k["zw_b"])  # two people alike: neither
    ok(db, "forget", "zw_b", "--yes")
    ok(db, "forget", "zw_c", "--yes")
    # what the split recorded went with the interview: one 张伟 is left, and the next joins
    index(db, folder, {"zw_d": zhang("2026-11-12", "二面", "李四")})
    k = keys(db)
    assert k["zw_d"] == k["zw_a"]


def test_a_key_with_two_names_merged_by_hand_takes_both_names_later(
    db_target: str, tmp_path: Path
) -> None:
    folder = tmp_path / "t"

    def keyed(name: str, date: str) -> str:
        return transcript(
            name, "后端工程师", date, "一面", [("讲讲 JVM？", "堆")], "Candidate ID: c-7"
        )

    index(
        db_target,
        folder,
        {"n1": keyed("Zhang Wei", "2026-11-01"), "n2": keyed("Wei Zhang", "2026-11-02")},
    )
    index(db_target, folder, {"n3": keyed("Zhao Lei", "2026-11-03")})
    k = keys(db_target)
    assert k["n1"] == k["n2"] != k["n3"]  # Latin words in any order; another name apart
    ok(db_target, "link", "n1", "n3")  # the recruiter says they are one person
    index(
        db_target,
        folder,
        {"n4": keyed("zhao lei", "2026-11-04"), "n5": keyed("ZHANG WEI", "2026-11-05")},
    )
    k = keys(db_target)
    assert k["n4"] == k["n5"] == k["n1"] == k["n3"]


def test_forgetting_one_interview_of_a_person_split_off_keeps_the_two_apart(
    split: tuple[str, Path],
) -> None:
    db, folder = split
    index(db, folder, {"zw_b2": zhang("2026-11-10", "二面", "王五")})
    ok(db, "link", "zw_b", "zw_b2")  # picked: B's second interview
    ok(db, "forget", "zw_b", "--yes")
    index(db, folder, {"zw_e": zhang("2026-11-14", "三面", "王五")})
    k = keys(db)
    assert k["zw_b2"] != k["zw_a"]
    assert k["zw_e"] not in (k["zw_a"], k["zw_b2"]), "joined one of two people silently"
    said = ok(db, "loop", "zw_e")
    assert "counts as none of them yet" in said and k["zw_a"] in said and k["zw_b2"] in said
