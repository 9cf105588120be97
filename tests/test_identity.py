"""Who and when, from a transcript's header: the candidate's name, the interviewers, the
date and the round. Tables: header text -> the fields. Never guessed: absent is null,
a date that cannot be read is kept as text with a null date."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from store.transcripts.dates import parse_interview_date
from store.transcripts.names import split_names
from store.transcripts.parser import parse_transcript

SEEDS = Path(__file__).resolve().parent.parent / "seeds"

BODY = """岗位：数据工程师 从业年限：3年
简介：写 Go 的人
问题1：讲讲 Kafka？
考察目标：消息队列
回答：分区和副本。
点评：基础扎实
"""

IDENTITY = ("name", "interviewers", "interviewed_at", "interviewed_at_text", "round")
NOBODY: dict[str, Any] = {
    "name": None,
    "interviewers": [],
    "interviewed_at": None,
    "interviewed_at_text": "",
    "round": None,
}


def parse(text: str) -> Any:
    return parse_transcript(text.encode("utf-8"), "x.txt")


def identity(text: str) -> dict[str, Any]:
    t = parse(text)
    return {key: getattr(t, key) for key in IDENTITY}


def expect(**fields: Any) -> dict[str, Any]:
    return {**NOBODY, **fields}


# -- every label, each of its names ------------------------------------------------------------

LABELS = [
    # label line -> what it gives
    ("姓名：张三", expect(name="张三")),
    ("候选人：张三", expect(name="张三")),
    ("候选人姓名：张三", expect(name="张三")),
    ("应聘者：张三", expect(name="张三")),
    ("Name: Zhang San", expect(name="Zhang San")),
    ("Candidate: Zhang San", expect(name="Zhang San")),
    ("candidate name: Zhang San", expect(name="Zhang San")),
    ("面试官：李四", expect(interviewers=["李四"])),
    ("面试人：李四", expect(interviewers=["李四"])),
    ("Interviewer: Alice", expect(interviewers=["Alice"])),
    ("Interviewers: Alice, Bob", expect(interviewers=["Alice", "Bob"])),
    ("Interviewer(s): Alice and Bob", expect(interviewers=["Alice", "Bob"])),
    (
        "面试日期：2026-11-28",
        expect(interviewed_at="2026-11-28", interviewed_at_text="2026-11-28"),
    ),
    (
        "面试时间：2026-11-28 14:30",
        expect(interviewed_at="2026-11-28T14:30", interviewed_at_text="2026-11-28 14:30"),
    ),
    ("日期：2026/11/28", expect(interviewed_at="2026-11-28", interviewed_at_text="2026/11/28")),
    ("Date: 2026.11.28", expect(interviewed_at="2026-11-28", interviewed_at_text="2026.11.28")),
    ("轮次：二面", expect(round="二面")),
    ("面试轮次：终面", expect(round="终面")),
    ("Round: 1st round", expect(round="1st round")),
]


@pytest.mark.parametrize(("line", "expected"), LABELS, ids=[line for line, _ in LABELS])
def test_every_label_name(line: str, expected: dict[str, Any]) -> None:
    t = parse(f"{line}\n{BODY}")
    assert {key: getattr(t, key) for key in IDENTITY} == expected
    assert t.summary == ""  # the line is taken, not left in the summary
    assert (t.position, t.years, len(t.questions)) == ("数据工程师", 3, 1)


def test_a_file_with_none_of_them_has_nulls() -> None:
    assert identity(BODY) == NOBODY
    for seed in sorted(SEEDS.glob("*.txt")):
        t = parse_transcript(seed.read_bytes(), seed.name)
        assert {key: getattr(t, key) for key in IDENTITY} == NOBODY, seed.name


# -- dates: read, never guessed ----------------------------------------------------------------

DATES = [
    ("2026-11-28", "2026-11-28"),
    ("2026/11/28", "2026-11-28"),
    ("2026.11.28", "2026-11-28"),
    ("2026年11月28日", "2026-11-28"),
    ("2026年11月28日 14:30", "2026-11-28T14:30"),
    ("2026-11-28 14:30", "2026-11-28T14:30"),
    ("2026-11-28T14:30", "2026-11-28T14:30"),
    ("2026-11-28 14:30:15", "2026-11-28T14:30:15"),
    ("2026-1-5", "2026-01-05"),
    ("２０２６年１１月２８日　１４：３０", "2026-11-28T14:30"),
    ("2026年11月28日14点30分", "2026-11-28T14:30"),
    ("2026年11月28日 下午2点半", "2026-11-28T14:30"),
    ("2026-11-28 下午14:30", "2026-11-28T14:30"),
    ("2026-11-28 14:00-15:00", "2026-11-28T14:00"),
    ("2026-11-28（周六）", "2026-11-28"),
    ("2026-11-28 星期六 10:00", "2026-11-28T10:00"),
    ("Nov 28, 2026", "2026-11-28"),
    ("28 November 2026 2:30 pm", "2026-11-28T14:30"),
    # not read: kept as text, the date null
    ("下周二", None),
    ("明天下午", None),
    ("11月28日", None),  # no year
    ("26-11-28", None),  # a two-digit year
    ("11/28/2026", None),  # which is the month?
    ("28/11/2026", None),
    ("2026-02-30", None),
    ("2026-13-01", None),
    ("2026-11-28 25:00", None),
    ("2026-11-28 14:60", None),
    ("2026-11-28 上午15点", None),
    ("2026-11-28 晚上12点", None),  # noon or midnight?
    ("2026-11-28（周五）", None),  # 2026-11-28 is a Saturday
    ("2026-11-28 改期", None),
    ("2026-11", None),
    ("", None),
]


@pytest.mark.parametrize(("text", "iso"), DATES, ids=[text or "empty" for text, _ in DATES])
def test_interview_dates(text: str, iso: str | None) -> None:
    assert parse_interview_date(text) == iso


@pytest.mark.parametrize("text", ["下周二", "2026-02-30", "11月28日", "2026-11-28 25:00"], ids=str)
def test_a_date_that_cannot_be_read_is_kept_as_text(text: str) -> None:
    t = parse(f"面试日期：{text}\n{BODY}")
    assert (t.interviewed_at, t.interviewed_at_text) == (None, text)
    assert t.summary == "" and t.position == "数据工程师"


@given(st.text(max_size=60))
def test_a_date_is_valid_iso_or_none(text: str) -> None:
    iso = parse_interview_date(text)
    if iso is not None:
        parsed = datetime.fromisoformat(iso) if "T" in iso else date.fromisoformat(iso)
        assert parsed.isoformat().startswith(iso[:10])


# -- rounds: as written --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value", ["一面", "二面", "三面", "终面", "HR面", "技术面", "1st round", "交叉面（加面）"]
)
def test_rounds_are_kept_as_written(value: str) -> None:
    assert identity(f"轮次：{value}\n{BODY}") == expect(round=value)


# -- interviewers: several names ---------------------------------------------------------------

NAMES = [
    ("李四", ["李四"]),
    ("李四、王五", ["李四", "王五"]),
    ("李四，王五", ["李四", "王五"]),
    ("李四,王五", ["李四", "王五"]),
    ("李四 / 王五", ["李四", "王五"]),
    ("李四和王五", ["李四", "王五"]),
    ("李四 和 王五", ["李四", "王五"]),
    ("Alice and Bob", ["Alice", "Bob"]),
    ("Alice, Bob, and Carol", ["Alice", "Bob", "Carol"]),
    ("李四、王五、李四", ["李四", "王五"]),
    ("欧阳娜娜、王五（HR）", ["欧阳娜娜", "王五（HR）"]),
    # 和 inside a name is no separator: split only where each piece is a 2-4 character name
    ("和平", ["和平"]),
    ("王和平", ["王和平"]),
    ("王和平、李四", ["王和平", "李四"]),
    ("王和平 和 李四", ["王和平", "李四"]),
    ("Andrew Anderson", ["Andrew Anderson"]),
]


@pytest.mark.parametrize(("value", "names"), NAMES, ids=[v for v, _ in NAMES])
def test_interviewers(value: str, names: list[str]) -> None:
    assert split_names(value) == names
    assert identity(f"面试官：{value}\n{BODY}") == expect(interviewers=names)


def test_interviewer_lines_add_up() -> None:
    text = f"面试官：李四\n面试官：王五、李四\n{BODY}"
    assert identity(text)["interviewers"] == ["李四", "王五"]


def test_placeholders_say_nobody() -> None:
    text = f"姓名：无\n面试官：-\n轮次：N/A\n面试日期：待定\n{BODY}"
    assert identity(text) == expect(interviewed_at_text="待定")
    assert parse(text).summary == ""


# -- several on one line, any order --------------------------------------------------------------


def test_several_on_one_line() -> None:
    t = parse(
        "姓名：张三 岗位：数据工程师 从业年限：3年\n"
        "面试官：李四、王五 面试日期：2026年11月28日 14:30 轮次：二面\n"
        "问题1：讲讲 Kafka？\n回答：分区。\n"
    )
    assert (t.position, t.years, t.years_text) == ("数据工程师", 3, "3年")
    assert {key: getattr(t, key) for key in IDENTITY} == expect(
        name="张三",
        interviewers=["李四", "王五"],
        interviewed_at="2026-11-28T14:30",
        interviewed_at_text="2026年11月28日 14:30",
        round="二面",
    )


def test_in_any_order_and_after_the_position() -> None:
    t = parse(
        "岗位：数据工程师，候选人：张三\n轮次：终面 Date: 2026-11-28\n"
        "从业年限：3年\n简介：写 Go 的人\nInterviewer: Alice\n问题1：q？\n回答：a\n"
    )
    assert (t.position, t.years, t.intro) == ("数据工程师", 3, "写 Go 的人")
    assert identity_of(t) == expect(
        name="张三",
        interviewers=["Alice"],
        interviewed_at="2026-11-28",
        interviewed_at_text="2026-11-28",
        round="终面",
    )


def identity_of(t: Any) -> dict[str, Any]:
    return {key: getattr(t, key) for key in IDENTITY}


def test_values_on_the_next_line() -> None:
    t = parse("姓名：\n张三\n面试官：\n\n李四/王五\n日期：\n2026-11-28\n" + BODY)
    assert identity_of(t) == expect(
        name="张三",
        interviewers=["李四", "王五"],
        interviewed_at="2026-11-28",
        interviewed_at_text="2026-11-28",
    )
    assert t.summary == ""


# -- layouts: Markdown, brackets, tables ---------------------------------------------------------

LAYOUTS = {
    "markdown list": "- 姓名：张三\n- 面试官：李四\n- 轮次：二面\n",
    "bold": "**姓名：** 张三\n**面试官**：李四\n**轮次** 二面\n",
    "headings": "## 姓名\n张三\n## 面试官\n李四\n### 轮次\n二面\n",
    "brackets": "【姓名】张三\n[面试官] 李四\n【轮次】二面\n",
    "a markdown table": "| 姓名 | 张三 |\n|---|---|\n| 面试官 | 李四 |\n| **轮次** | 二面 |\n",
}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_layouts(name: str) -> None:
    t = parse(LAYOUTS[name] + BODY)
    assert identity_of(t) == expect(name="张三", interviewers=["李四"], round="二面")
    assert t.summary == ""


# -- what stays as it was -------------------------------------------------------------------------


def test_identity_lines_leave_the_summary() -> None:
    t = parse(
        "数据工程师面试记录\n姓名：张三\n面试官：李四\n"
        "这位候选人基础扎实，沟通顺畅。\n日期：2026-11-28\n" + BODY
    )
    assert t.summary == "这位候选人基础扎实，沟通顺畅。"
    assert identity_of(t) == expect(
        name="张三",
        interviewers=["李四"],
        interviewed_at="2026-11-28",
        interviewed_at_text="2026-11-28",
    )


def test_dialogue_inside_a_question_keeps_its_meaning() -> None:
    """`面试官：…` / `候选人：…` after the first question are the question and its answer."""
    t = parse("岗位：SRE\n问题1：讲讲 K8s？\n面试官：追问调度器？\n候选人：不知道\n点评：一般\n")
    q = t.questions[0]
    assert (q.question, q.answer, q.unanswered_reason) == (
        "讲讲 K8s？\n面试官：追问调度器？",
        "不知道",
        "dont_know",
    )
    assert identity_of(t) == NOBODY
    # and the same labels inside an answer, or after it, are answer text
    t = parse("岗位：SRE\n问题1：q？\n回答：好\n姓名：张三\n日期：2026-11-28\n")
    assert t.questions[0].answer == "好\n姓名：张三\n日期：2026-11-28"
    assert identity_of(t) == NOBODY


@pytest.mark.parametrize(
    "line",
    [
        "候选人：男，28岁，本科",  # a description, not a name
        "候选人：这位候选人基础扎实。",
        "面试官：追问调度器？",
        "姓名：" + "张" * 40,
        "面试官：李四，负责后端的同学，来自北京。",
    ],
)
def test_a_value_that_is_no_name_stays_text(line: str) -> None:
    t = parse(f"{line}\n{BODY}")
    assert identity_of(t) == NOBODY
    # text, where it was: the summary, unless a question (a question is no summary)
    assert t.summary == ("" if line.endswith("？") else line)


def test_an_unknown_label_stays_text_where_it_is() -> None:
    t = parse("这位候选人基础扎实。\n面试地点：3号会议室\n姓名：张三\n" + BODY)
    assert t.summary == "这位候选人基础扎实。\n面试地点：3号会议室"
    assert t.name == "张三"


def test_inside_the_position_a_value_that_is_no_name_stays_the_position() -> None:
    t = parse("岗位：SRE 候选人：男，28岁\n问题1：q？\n回答：a\n")
    assert (t.position, t.name) == ("SRE 候选人：男，28岁", None)


def test_identity_alone_is_not_a_transcript() -> None:
    from store.transcripts.errors import NotATranscript

    with pytest.raises(NotATranscript):
        parse("Name: Alice\nDate: 2026-11-28\n")
    with pytest.raises(NotATranscript):
        parse("姓名：张三\n面试官：李四\n")


def test_a_verdict_at_the_top_ends_at_an_identity_line() -> None:
    t = parse("面试结论：通过\n姓名：张三\n" + BODY.replace("点评：基础扎实\n", ""))
    assert (t.verdict, t.name) == ("通过", "张三")
