"""Issue 45, items 3-8, attacked after the fixes were merged (review 2): sequences of
decide, merge, split, forget and re-index through `debrief` in-process, on SQLite and
PostgreSQL, each holding what a recruiter relies on: the hiring decision stays with the
person it was recorded about, each change of it reaches the ATS once, and two people
alike are told apart while one person written two ways is still one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_person_decision import HOOK, decide, keys, ok, outcome_of, sent, transcript

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL


def index(db: str, folder: Path, files: dict[str, str]) -> list[str]:
    folder.mkdir(exist_ok=True)
    for name, content in files.items():
        (folder / f"{name}.txt").write_text(content, encoding="utf-8")
    return sorted(json.loads(ok(db, "index", str(folder), "--json"))["indexed"])


def decision_of(db: str, interview: str) -> str | None:
    found = outcome_of(db, interview)
    return None if found is None else str(found["decision"])


def keyed(ref: str, name: str, position: str, date: str) -> str:
    return transcript(name, position, date, "一面", "可以。").replace(
        "轮次：", f"候选人编号：{ref}\n轮次：", 1
    )


# -- forget after a merge: the decision stays with the person it was recorded about ------


def test_forget_after_a_merge_keeps_the_decision_on_its_own_persons_side(
    db_target: str, tmp_path: Path
) -> None:
    """李雷 (li1, li2) is decided through li1, wrongly merged into 王小明 (wang1); li1 is
    forgotten; then 王小明 is split back off. 李雷's decision is still 李雷's (li2),
    never handed to wang1, the other person's interview that happened to sort first."""
    db = db_target
    index(
        db,
        tmp_path / "t",
        {
            "a_wang1": transcript("王小明", "后端工程师", "2026-11-02", "一面", "可以。"),
            "li1": transcript("李雷", "数据工程师", "2026-11-03", "一面", "可以。"),
            "li2": transcript("李雷", "数据工程师", "2026-11-09", "二面", "可以。"),
        },
    )
    decide(db, "li1", "hire", "李雷很优秀")
    ok(db, "link", "a_wang1", "li1")
    ok(db, "forget", "li1", "--yes")
    assert decision_of(db, "li2") == "hire"
    ok(db, "unlink", "a_wang1")
    assert keys(db)["a_wang1"] != keys(db)["li2"]
    assert decision_of(db, "li2") == "hire", "李雷's decision went with the other person"
    assert decision_of(db, "a_wang1") is None


# -- webhook events: a merge or split that changes nothing sends nothing -----------------


def test_merges_and_splits_that_change_no_decision_send_nothing(
    db_target: str, tmp_path: Path
) -> None:
    db = db_target
    index(
        db,
        tmp_path / "t",
        {
            "wang1": transcript("王小明", "后端工程师", "2026-11-02", "一面", "可以。"),
            "wang2": transcript("王小明", "后端工程师", "2026-11-09", "二面", "可以。"),
            "li1": transcript("李雷", "数据工程师", "2026-11-03", "一面", "可以。"),
            "han1": transcript("韩梅梅", "前端工程师", "2026-11-04", "一面", "可以。"),
        },
    )
    ok(db, "link", "wang1", "wang2", **HOOK)  # one person already
    ok(db, "link", "li1", "han1", **HOOK)  # neither decided
    ok(db, "unlink", "han1", **HOOK)
    assert sent(db) == []
    decide(db, "wang1", "hire")
    assert [(e["id"], e["outcome"]) for e in sent(db)] == [("wang1", "hire")]
    ok(db, "link", "wang2", "wang1", **HOOK)  # one person already, either way round
    ok(db, "unlink", "li1", **HOOK)  # alone already: nothing to split
    assert sent(db) == []


# -- one person written two ways: a key in another case or width, 繁體 and 简体 -------------


def test_a_key_in_another_case_or_width_with_the_name_in_another_script_is_one_person(
    db_target: str, tmp_path: Path
) -> None:
    db = db_target
    index(
        db,
        tmp_path / "t",
        {
            "k1": keyed("c-1042", "张伟", "后端工程师", "2026-11-02"),
            "k2": keyed("C-1042", "張偉", "後端工程師", "2026-11-09"),
            "k3": keyed("Ｃ－１０４２", "张 伟", "后端工程师", "2026-11-12"),
            "k4": keyed("C-1042", "李娜", "产品经理", "2026-11-13"),
        },
    )
    k = keys(db)
    assert k["k1"] == k["k2"] == k["k3"] != k["k4"]
    decide(db, "k2", "hire")
    assert [decision_of(db, i) for i in ("k1", "k3", "k4")] == ["hire", "hire", None]


# -- three people alike ---------------------------------------------------------------------


def zhang(date: str, round_: str, interviewer: str) -> str:
    text = transcript("张伟", "后端工程师", date, round_, "可以。")
    return text.replace("面试官：李四", f"面试官：{interviewer}")


def test_a_third_person_of_one_name_is_kept_apart_and_a_fourth_interview_waits(
    db_target: str, tmp_path: Path
) -> None:
    db, folder = db_target, tmp_path / "t"
    index(db, folder, {"zw_a": zhang("2026-11-01", "一面", "李四")})
    index(db, folder, {"zw_b": zhang("2026-11-03", "一面", "王五")})
    ok(db, "unlink", "zw_b")
    index(db, folder, {"zw_c": zhang("2026-11-05", "一面", "赵六")})
    k = keys(db)
    assert k["zw_c"] not in (k["zw_a"], k["zw_b"])
    ok(db, "unlink", "zw_c")  # someone else: a third 张伟
    decide(db, "zw_c", "reject")
    index(db, folder, {"zw_x": zhang("2026-11-09", "二面", "王五")})
    k = keys(db)
    assert k["zw_x"] not in (k["zw_a"], k["zw_b"], k["zw_c"])
    said = ok(db, "loop", "zw_x")
    assert all(k[i] in said for i in ("zw_a", "zw_b", "zw_c"))
    ok(db, "link", "zw_c", "zw_x")
    assert decision_of(db, "zw_x") == "reject"
    assert decision_of(db, "zw_a") is None and decision_of(db, "zw_b") is None


# -- a file renamed and edited: a new interview, the old one removed ----------------------


@pytest.mark.xfail(
    strict=True,
    reason="the split is pinned to the old interview's id: the new file waits for a pick,"
    " then the old one is removed as its person's last interview and its decision goes",
)
def test_a_split_off_persons_file_renamed_and_edited_keeps_their_decision(
    db_target: str, tmp_path: Path
) -> None:
    """张伟 B was split off 张伟 A and decided; B's file is then renamed and corrected (a
    new file to the index: a new interview, the old one removed). B's decision is not
    lost, and it does not go to A."""
    db, folder = db_target, tmp_path / "t"
    index(
        db,
        folder,
        {"zw_a": zhang("2026-11-01", "一面", "李四"), "zw_b": zhang("2026-11-03", "一面", "王五")},
    )
    ok(db, "unlink", "zw_b")
    decide(db, "zw_b", "hire", "张伟B很优秀")
    (folder / "zw_b.txt").unlink()
    index(db, folder, {"zw_b_final": zhang("2026-11-03", "一面", "王五") + "补充：沟通顺畅。\n"})
    assert decision_of(db, "zw_a") is None
    found = [r for r in json.loads(ok(db, "export", "--format", "json")) if r["outcome"]]
    assert [(r["id"], r["outcome"]) for r in found] == [("zw_b_final", "hire")]


# -- a key with two names: one person's decision is not the other's -----------------------


def test_a_key_with_two_names_keeps_the_decision_and_requests_apart(
    db_target: str, tmp_path: Path
) -> None:
    db, folder = db_target, tmp_path / "t"
    index(db, folder, {"k1": keyed("c-1042", "张伟", "后端工程师", "2026-11-02")})
    decide(db, "k1", "hire")
    index(db, folder, {"k2": keyed("C-1042", "李娜", "产品经理", "2026-11-09")})
    assert keys(db)["k1"] != keys(db)["k2"]
    assert decision_of(db, "k2") is None and decision_of(db, "k1") == "hire"
    # re-read, both stay as they are
    (folder / "k1.txt").write_text(keyed("c-1042", "张伟", "后端工程师", "2026-11-02") + "\n")
    (folder / "k2.txt").write_text(keyed("C-1042", "李娜", "产品经理", "2026-11-09") + "\n")
    index(db, folder, {})
    assert keys(db)["k1"] != keys(db)["k2"]
    assert decision_of(db, "k2") is None and decision_of(db, "k1") == "hire"
    # a second 李娜 interview under the key joins 李娜, a second 张伟 one joins 张伟
    index(
        db,
        folder,
        {
            "k3": keyed("c-1042", "李娜", "产品经理", "2026-11-12"),
            "k4": keyed("C-1042", "张伟", "后端工程师", "2026-11-13"),
        },
    )
    k = keys(db)
    assert k["k3"] == k["k2"] and k["k4"] == k["k1"]
    assert decision_of(db, "k4") == "hire" and decision_of(db, "k3") is None
