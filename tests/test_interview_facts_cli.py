"""Who and when through the `debrief` command line (in-process): files in every format (plain
text, Markdown, Word, PDF), written here with every name of every header label and a
file with none of them, indexed, shown, listed in order, looked up by name and searched,
on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.cli import Ran
from support.cli import debrief as run_debrief
from test_formats import docx_paragraphs, docx_table, pdf_file

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

ROOT = Path(__file__).resolve().parent.parent

# every name of every label (store/transcripts/labels.py), each used by some file below
NAME_LABELS = ["姓名", "候选人", "候选人姓名", "应聘者", "Name", "Candidate", "candidate name"]
INTERVIEWER_LABELS = ["面试官", "面试人", "Interviewer", "Interviewers", "Interviewer(s)"]
DATE_LABELS = ["面试日期", "面试时间", "日期", "Date"]
ROUND_LABELS = ["轮次", "面试轮次", "Round"]

BODY = [
    "岗位：数据工程师",
    "从业年限：3年",
    "简介：写 Go 和 Flink 的人",
    "问题1：讲讲 Kafka 的分区？",
    "考察目标：消息队列",
    "回答：分区是并行的单位。",
    "问题2：Flink 的 checkpoint 怎么做？",
    "考察目标：流处理",
    "回答：",
    "点评：基础扎实，建议通过",
]


def colon(label: str) -> str:
    return f"{label}: " if label.isascii() else f"{label}："


def markdown(lines: list[str]) -> bytes:
    """The title as a heading, header lines as a Markdown list with bold labels, the rest
    as written."""
    out = [f"# {lines[0]}", ""]
    for line in lines[1:]:
        label, sep, value = line.partition("：" if "：" in line else ": ")
        is_header = sep and any(
            label in labels for labels in (NAME_LABELS, INTERVIEWER_LABELS, DATE_LABELS)
        )
        out.append(f"- **{label}{sep.strip()}** {value}" if is_header else line)
    return ("\n".join(out) + "\n").encode()


WRITERS: dict[str, Callable[[list[str]], bytes]] = {
    "txt": lambda lines: ("\n".join(lines) + "\n").encode(),
    "md": markdown,
    "docx": docx_paragraphs,
    "pdf": pdf_file,
}
FORMATS = list(WRITERS)


def table_docx(lines: list[str]) -> bytes:
    """A Word file kept as a two-column table of label -> value."""
    return docx_table(["数据工程师面试记录", *(line.replace(": ", "：", 1) for line in lines)])


# One file per row: (id, format, name, interviewers, date as written, ISO date, round).
# Together the rows use every label name and every format; dates in 2001-2009, so every
# file without a date (indexed today) lists before them.
PEOPLE: list[tuple[str, str, str, list[str], str, str, str]] = [
    ("p0", "txt", "张三", ["李四", "王五"], "2009年3月1日 14:30", "2009-03-01T14:30", "二面"),
    ("p1", "md", "韩梅梅", ["李雷"], "2008-07-15", "2008-07-15", "终面"),
    ("p2", "docx", "赵六", ["Alice", "Bob"], "2007/01/02", "2007-01-02", "一面"),
    ("p3", "pdf", "钱七", ["孙八"], "2006.05.06 09:00", "2006-05-06T09:00", "HR面"),
    ("p4", "txt", "Alice Wang", ["Carol"], "Nov 28, 2005", "2005-11-28", "1st round"),
    ("p5", "docx", "Bob Li", ["Dave", "Erin"], "2004-02-03", "2004-02-03", "二面"),
    ("p6", "pdf", "周九", ["吴十"], "2003年12月24日", "2003-12-24", "三面"),
]


def header(i: int, name: str, interviewers: list[str], date: str, round_: str) -> list[str]:
    sep = ", " if all(n.isascii() for n in interviewers) else "、"
    return [
        colon(NAME_LABELS[i % len(NAME_LABELS)]) + name,
        colon(INTERVIEWER_LABELS[i % len(INTERVIEWER_LABELS)]) + sep.join(interviewers),
        colon(DATE_LABELS[i % len(DATE_LABELS)]) + date,
        colon(ROUND_LABELS[i % len(ROUND_LABELS)]) + round_,
    ]


def expected(row: tuple[str, str, str, list[str], str, str, str]) -> dict[str, Any]:
    _cid, _fmt, name, interviewers, date, iso, round_ = row
    return {
        "name": name,
        "interviewers": interviewers,
        "interviewed_at": iso,
        "interviewed_at_text": date,
        "round": round_,
    }


NOBODY = {
    "name": None,
    "interviewers": [],
    "interviewed_at": None,
    "interviewed_at_text": "",
    "round": None,
}
FACTS = list(NOBODY)


def write_folder(folder: Path) -> None:
    """Every row of PEOPLE in its format, one Word table, and a file with none of the
    header labels in each format."""
    folder.mkdir(parents=True, exist_ok=True)
    for i, (cid, fmt, name, interviewers, date, _iso, round_) in enumerate(PEOPLE):
        lines = ["数据工程师面试记录", *header(i, name, interviewers, date, round_), *BODY]
        (folder / f"{cid}.{fmt}").write_bytes(WRITERS[fmt](lines))
    table = header(7, "孔乙己", ["鲁迅"], "2002-02-02 10:00", "终面")
    (folder / "p7.docx").write_bytes(table_docx([*table, *BODY]))
    for fmt in FORMATS:
        (folder / f"none_{fmt}.{fmt}").write_bytes(WRITERS[fmt](["数据工程师面试记录", *BODY]))


def debrief(db: str, *args: str, **env: str) -> Ran:
    return run_debrief(*args, env={"DEBRIEF_DB": db} | env, cwd=ROOT)


def as_json(db: str, *args: str) -> Any:
    done = debrief(db, *args, "--json")
    assert "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def indexed(db_target: str, tmp_path: Path) -> str:
    write_folder(tmp_path / "t")
    out = as_json(db_target, "index", str(tmp_path / "t"))
    assert (out["failed"], out["skipped"]) == ([], [])
    assert len(out["indexed"]) == len(PEOPLE) + 1 + len(FORMATS)
    return db_target


def test_every_format_and_label_name_gives_the_facts_to_show_json(indexed: str) -> None:
    for row in PEOPLE:
        shown = as_json(indexed, "show", row[0])
        assert {k: shown[k] for k in FACTS} == expected(row), row
        assert (shown["position"], shown["years"], shown["verdict"]) == (
            "数据工程师",
            3,
            "基础扎实，建议通过",
        )
        assert shown["summary"] == ""  # the header lines are not left in the summary
    table = as_json(indexed, "show", "p7")
    assert {k: table[k] for k in FACTS} == {
        "name": "孔乙己",
        "interviewers": ["鲁迅"],
        "interviewed_at": "2002-02-02T10:00",
        "interviewed_at_text": "2002-02-02 10:00",
        "round": "终面",
    }
    for fmt in FORMATS:
        none = as_json(indexed, "show", f"none_{fmt}")
        assert {k: none[k] for k in FACTS} == NOBODY, fmt
        assert none["position"] == "数据工程师"


def test_show_json_keeps_its_keys_and_gains_only_the_named_ones(indexed: str) -> None:
    shown = as_json(indexed, "show", "p0")
    assert set(shown) == {
        "id",
        "position",
        "years",
        "years_text",
        "intro",
        "summary",
        "questions",
        "verdict",
        "kind",  # notes, or a meeting transcript (issue 36)
        "warnings",  # what the file lacks: no_questions, no_summary, no_verdict (issue 36)
        "unsupported",  # claims of answers never given (issue 37)
        "source",
        "decisions",
        "followups",
        "indexed_at",
        "outcome",  # the hiring decision, null before one is recorded
        "candidate_key",  # who the candidate is: their interviews' one key (issue 38)
        "title",  # a meeting's topic, where a meeting tool brought it (issue 48): null here
        "origin",  # that meeting ({"kind": "zoom", …}): null for a file somebody brought
        *FACTS,
    }
    assert shown["title"] is None and shown["origin"] is None
    listed = as_json(indexed, "list")
    assert all(
        set(r)
        == {
            "id",
            "position",
            "years",
            "years_text",
            "questions",
            "unanswered",
            "has_verdict",
            "candidate_key",  # issue 38
            *FACTS,
        }
        for r in listed
    )


def test_list_is_newest_interview_first_with_name_and_date(indexed: str) -> None:
    listed = as_json(indexed, "list")
    ids = [r["id"] for r in listed]
    undated = {f"none_{fmt}" for fmt in FORMATS}
    assert set(ids[: len(undated)]) == undated  # indexed today: after every date here
    assert ids[len(undated) :] == ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"]
    by_id = {r["id"]: r for r in listed}
    assert {k: by_id["p1"][k] for k in FACTS} == expected(PEOPLE[1])

    text = debrief(indexed, "list").stdout.splitlines()
    p0 = next(line for line in text if line.startswith("p0 "))
    assert "张三" in p0 and "2009-03-01 14:30" in p0 and "数据工程师" in p0
    none = next(line for line in text if line.startswith("none_txt "))
    assert "2009" not in none and "None" not in none


def test_show_text_names_the_round_date_and_interviewers(indexed: str) -> None:
    zh = debrief(indexed, "show", "p0").stdout
    assert zh.splitlines()[0] == "p0  张三  数据工程师  3 年经验"
    assert "轮次：二面  面试日期：2009-03-01 14:30  面试官：李四、王五" in zh
    en = debrief(indexed, "show", "p2", DEBRIEF_LOCALE="en").stdout
    assert "Round: 一面  Date: 2007-01-02  Interviewers: Alice, Bob" in en
    plain = debrief(indexed, "show", "none_md").stdout
    assert "面试官" not in plain and "轮次" not in plain


def test_a_name_resolves_exactly_or_by_a_unique_prefix(indexed: str, tmp_path: Path) -> None:
    assert as_json(indexed, "show", "韩梅梅")["id"] == "p1"  # exact
    assert as_json(indexed, "show", "韩")["id"] == "p1"  # a unique prefix
    assert as_json(indexed, "show", "Alice Wang")["id"] == "p4"  # a name of two words
    assert as_json(indexed, "show", "Alice")["id"] == "p4"
    # a second interview of 张三: the name now names two, and the pick list tells them apart
    again = tmp_path / "again"
    again.mkdir()
    lines = ["姓名：张三", "面试官：赵钱", "面试日期：2009-04-01", "轮次：终面", *BODY]
    (again / "p0_final.txt").write_text("\n".join(lines) + "\n", "utf-8")
    assert as_json(indexed, "index", str(again))["indexed"] == ["p0_final"]
    picked = debrief(indexed, "show", "张三")
    assert picked.returncode == 1
    assert picked.stderr.splitlines()[1:] == [
        "  p0_final  张三 · 数据工程师 · 终面 · 2009-04-01 · 面试官：赵钱",
        "  p0  张三 · 数据工程师 · 二面 · 2009-03-01 14:30 · 面试官：李四、王五",
    ]
    ambiguous = as_json(indexed, "show", "张")
    assert ambiguous["error"] == "ambiguous" and ambiguous["matches"] == ["p0_final", "p0"]
    # search finds names and interviewers too
    assert [h["id"] for h in as_json(indexed, "search", "韩梅梅")] == ["p1"]
    assert [h["id"] for h in as_json(indexed, "search", "孙八")] == ["p3"]
