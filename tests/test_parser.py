"""The parser, as tables: input -> expected fields, over the seeds and variants of them."""

from __future__ import annotations

import codecs
import re
from pathlib import Path
from typing import Any

import pytest

from store.parser import ParseError, is_placeholder, parse_transcript, parse_years

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
SEED_000 = (SEEDS / "000_9e6b3ecb0732fcf3.txt").read_text("utf-8")
SEED_002 = (SEEDS / "002_72ee0a76eea41e0e.txt").read_text("utf-8")


def parse(text: str | bytes, name: str = "x.txt") -> Any:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return parse_transcript(data, name)


def fields(t: Any) -> dict[str, Any]:
    return t.model_dump(exclude={"hash", "source", "id"})


# -- the seeds ---------------------------------------------------------------------------

SEED_TABLE = [
    # id, position, years, questions, unanswered numbers, summary start, verdict start
    (
        "000_9e6b3ecb0732fcf3",
        "视频开发工程师",
        3,
        5,
        [2, 3],
        "这位面试者是一位有着3年",
        "这位候选人对于低级",
    ),
    (
        "002_72ee0a76eea41e0e",
        "神经网络模型设计师",
        5,
        7,
        [4],
        "这位面试者是一位拥有五年",
        "这位被面试者在神经网络",
    ),
    (
        "003_20561f43447eea49",
        "大数据开发工程师",
        5,
        10,
        [],
        "本文分享了大数据开发工程师",
        "面试者对问题1的回答",
    ),
    (
        "004_b1dde04b6d7437d5",
        "视频开发工程师",
        3,
        6,
        [5],
        "这位面试者是一位有着三年",
        "这位面试者在视频开发",
    ),
]


@pytest.mark.parametrize(
    ("cid", "position", "years", "count", "open_", "summary", "verdict"), SEED_TABLE
)
def test_seed(
    cid: str, position: str, years: int, count: int, open_: list[int], summary: str, verdict: str
) -> None:
    path = SEEDS / f"{cid}.txt"
    t = parse_transcript(path.read_bytes(), path.name, source=str(path))
    assert t.id == cid
    assert t.source == str(path)
    assert (t.position, t.years) == (position, years)
    assert [q.number for q in t.questions] == list(range(1, count + 1))
    assert [q.number for q in t.questions if not q.answered] == open_
    assert t.summary.startswith(summary) and "岗位" not in t.summary
    assert t.verdict is not None and t.verdict.startswith(verdict)
    assert t.intro and "\n" not in t.intro
    for q in t.questions:
        assert q.question and q.goal, q
        assert not q.question.startswith(("问题", "：")) and not q.goal.startswith("考察目标")
        assert q.answered == bool(q.answer)
    assert len(t.hash) == 64


def test_multiline_answer_keeps_its_lines_and_may_start_on_the_next_line() -> None:
    t = parse(SEED_002)
    q5 = t.questions[4]
    assert q5.answer.startswith("首先，我对模型进行了优化")
    assert "\ntf.keras.layers.Dense\n层和\n" in q5.answer
    q1 = parse(SEED_000).questions[0]
    assert q1.answer.count("\n") == 2  # three paragraphs, line breaks kept


# -- variants of a seed that must parse exactly like it -------------------------------------

BASE = fields(parse(SEED_000))


def _gb18030(text: str) -> bytes:
    return text.encode("gb18030")


SAME_AS_SEED = {
    "crlf": lambda s: s.replace("\n", "\r\n").encode(),
    "cr": lambda s: s.replace("\n", "\r").encode(),
    "bom": lambda s: codecs.BOM_UTF8 + s.encode(),
    "bom+crlf": lambda s: codecs.BOM_UTF8 + s.replace("\n", "\r\n").encode(),
    "gb18030": _gb18030,
    "utf16": lambda s: s.encode("utf-16"),
    "ascii colons": lambda s: s.replace("：", ":").encode(),
    "spaces around colons": lambda s: s.replace("：", " ： ").encode(),
    "ideographic and nbsp spaces": lambda s: re.sub(
        r"(?m)^(问题\d+|岗位|简介|考察目标|回答|点评)：", "\u3000\\1\u00a0:\u3000", s
    ).encode(),
    "问题 1": lambda s: s.replace("问题1", "问题 1").replace("问题2", "问题  2").encode(),
    "full-width digits": lambda s: s.replace("问题1", "问题１").replace("问题5", "问题５").encode(),
    "chinese numerals": lambda s: (
        s.replace("问题1", "问题一").replace("问题2", "问题二").replace("问题5", "问题五").encode()
    ),
    "岗位 and 从业年限 on two lines": lambda s: s.replace(" 从业年限：", "\n从业年限：").encode(),
    "comma between 岗位 and 从业年限": lambda s: s.replace(
        "工程师 从业年限", "工程师，从业年限"
    ).encode(),
    "blank lines between sections": lambda s: (
        s.replace("\n问题", "\n\n\n问题")
        .replace("\n考察目标", "\n\n考察目标")
        .replace("\n点评", "\n\n点评")
        .replace("\n岗位", "\n\n岗位")
        .encode()
    ),
    "title line": lambda s: ("视频开发工程师面试笔记\n\n" + s).encode(),
    "markdown title": lambda s: ("# 面试记录 2024-05-01\n" + s).encode(),
    "spaced labels": lambda s: (
        s.replace("考察目标：", "考察目标 ：").replace("岗位：", "岗 位：").encode()
    ),
    "trailing spaces and no final newline": lambda s: s.replace("\n", "  \n").rstrip().encode(),
    "truncated inside the last character": lambda s: (s + "。").encode()[:-1],
}


@pytest.mark.parametrize("name", sorted(SAME_AS_SEED))
def test_variant_parses_like_the_seed(name: str) -> None:
    data = SAME_AS_SEED[name](SEED_000)
    assert fields(parse_transcript(data, "000_9e6b3ecb0732fcf3.txt")) == BASE


# -- small documents, as a table: text -> expected fields -------------------------------------

SMALL = """岗位：后端工程师 从业年限：{years}
简介：写 Go 的人
问题1：为什么用 Go？
考察目标：语言取舍
回答：{answer}
点评：不错
"""

ANSWER_TABLE = [
    ("", False),
    ("无", False),
    ("暂无", False),
    ("未作答", False),
    ("未回答", False),
    ("没有回答", False),
    ("N/A", False),
    ("n/a", False),
    ("-", False),
    ("（未作答）", False),
    ("【无】", False),
    ("待补充", False),
    ("因为并发模型简单。", True),
    ("无锁队列是关键。", True),
    ("-1 是哨兵值", True),
]


@pytest.mark.parametrize(("answer", "answered"), ANSWER_TABLE)
def test_placeholder_answers(answer: str, answered: bool) -> None:
    t = parse(SMALL.format(years="3年", answer=answer))
    assert t.questions[0].answered is answered
    assert is_placeholder(answer) is (not answered)


YEARS_TABLE = [
    ("3年", 3),
    ("5", 5),
    ("五年", 5),
    ("十二年", 12),
    ("３年", 3),
    ("3-5年", 3),
    ("约8年", 8),
    ("不详", None),
    ("", None),
]


@pytest.mark.parametrize(("text", "years"), YEARS_TABLE)
def test_years(text: str, years: int | None) -> None:
    assert parse_years(text) == years
    assert parse(SMALL.format(years=text, answer="是")).years == years


def test_labels_count_only_at_the_start_of_a_line() -> None:
    t = parse(
        SMALL.format(
            years="3年", answer="这个问题2：其实很难\n关于回答：待补充 这件事\n  问题3：缩进的也算"
        )
    )
    assert [q.number for q in t.questions] == [1, 3]
    assert t.questions[0].answer == "这个问题2：其实很难\n关于回答：待补充 这件事"
    assert t.questions[1].question == "缩进的也算"


def test_verdict_runs_to_the_end_of_the_file() -> None:
    t = parse(
        SMALL.format(years="3年", answer="是") + "\n问题9：这不是问题\n回答：是点评的一部分\n"
    )
    assert [q.number for q in t.questions] == [1]
    assert t.verdict == "不错\n\n问题9：这不是问题\n回答：是点评的一部分"


def test_missing_verdict_and_years_are_null() -> None:
    t = parse("岗位：测试工程师\n问题1：你好\n考察目标：礼貌\n回答：\n")
    assert (t.position, t.years, t.verdict, t.intro, t.summary) == (
        "测试工程师",
        None,
        None,
        "",
        "",
    )
    assert t.questions[0].answered is False


def test_answer_with_paragraphs_and_blank_lines() -> None:
    t = parse(SMALL.format(years="1年", answer="\n\n第一段。\n\n第二段，\n还在第二段。\n\n"))
    assert t.questions[0].answer == "第一段。\n\n第二段，\n还在第二段。"


def test_summary_without_title_keeps_every_paragraph() -> None:
    t = parse(
        "面试者表现良好，沟通清楚。\n\n第二段总结。\n" + SMALL.format(years="1年", answer="是")
    )
    assert t.summary == "面试者表现良好，沟通清楚。\n\n第二段总结。"


def test_id_is_the_file_name_without_extension() -> None:
    assert parse(SMALL.format(years="1", answer="是"), "dir/张三 面试.txt").id == "张三 面试"
    assert parse(SMALL.format(years="1", answer="是"), "noext").id == "noext"


NOT_TRANSCRIPTS = [
    (b"", "empty file", None),
    (b"  \r\n\n ", "empty file", None),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary", 3),
    ("第一行\n第二行\x00坏了".encode(), "binary", 2),
    ("只是一段普通的文字，没有任何标签。\n第二行。".encode(), "no 岗位", None),
    (b"ok\n\x80\xff\xff\n\x81\x30", "not text", 2),
    ("岗位：x\n".encode() * 10 + bytes(range(1, 31)) * 3, "control characters", None),
]


@pytest.mark.parametrize(("data", "reason", "line"), NOT_TRANSCRIPTS)
def test_not_a_transcript(data: bytes, reason: str, line: int | None) -> None:
    with pytest.raises(ParseError) as info:
        parse_transcript(data, "bad.txt")
    assert reason in info.value.reason
    assert info.value.line == line


def test_enormous_file_is_refused_with_its_size() -> None:
    with pytest.raises(ParseError, match="too large"):
        parse_transcript(b"x" * (6 * 1024 * 1024), "big.txt")


ALIASES = {
    "应聘岗位 and 工作年限": lambda s: (
        s.replace("岗位：", "应聘岗位：").replace("从业年限：", "工作年限：").encode()
    ),
    "职位, 工作经验, 个人简介": lambda s: (
        s.replace("岗位：", "职位：")
        .replace("从业年限：", "工作经验：")
        .replace("简介：", "个人简介：")
        .encode()
    ),
    "考察点, 候选人回答, 综合点评": lambda s: (
        s.replace("考察目标：", "考察点：")
        .replace("回答：", "候选人回答：")
        .replace("点评：", "综合点评：")
        .encode()
    ),
}


@pytest.mark.parametrize("name", sorted(ALIASES))
def test_other_names_for_the_labels(name: str) -> None:
    data = ALIASES[name](SEED_000)
    assert fields(parse_transcript(data, "000_9e6b3ecb0732fcf3.txt")) == BASE
