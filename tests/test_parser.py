"""The parser, as tables: input -> expected fields, over the seeds and variants of them."""

from __future__ import annotations

import codecs
import re
from pathlib import Path
from typing import Any

import pytest

from store.transcripts.answers import is_placeholder, unanswered_reason
from store.transcripts.errors import NotATranscript, ParseError
from store.transcripts.parser import parse_transcript
from store.transcripts.years import parse_years

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
    "utf16-le without BOM": lambda s: s.encode("utf-16-le"),  # was refused as binary
    "utf16-be without BOM": lambda s: s.replace("\n", "\r\n").encode("utf-16-be"),
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
    # answer, why it is unanswered (None: answered)
    ("", "empty"),
    ("没答上来", "dont_know"),
    ("候选人没能回答出来", "dont_know"),
    ("忘了", "dont_know"),
    ("用过 Redis，忘了细节，但 RDB 是快照", None),
    ("无", "empty"),
    ("暂无", "empty"),
    ("未作答", "empty"),
    ("未回答", "empty"),
    ("没有回答", "empty"),
    ("N/A", "empty"),
    ("n/a", "empty"),
    ("-", "empty"),
    ("（未作答）", "empty"),
    ("【无】", "empty"),
    ("待补充", "empty"),
    ("跳过", "skipped"),
    ("（跳过）", "skipped"),
    ("略", "skipped"),
    ("Skipped.", "skipped"),
    ("不知道", "dont_know"),
    ("不知道。", "dont_know"),
    ("不清楚", "dont_know"),
    ("不会", "dont_know"),
    ("没接触过", "dont_know"),
    ("I don't know", "dont_know"),
    ("I don’t know.", "dont_know"),
    ("不太清楚", "dont_know"),
    ("不了解", "dont_know"),
    ("这个不太了解。", "dont_know"),
    ("候选人表示不清楚", "dont_know"),
    ("不清楚，没接触过", "dont_know"),
    ("答不上来", "dont_know"),
    # said in more words: these were shown as answered
    ("没答", "empty"),
    ("候选人没有回答", "empty"),
    ("他没回答", "empty"),
    ("未作答（时间不够）", "empty"),
    ("空白", "empty"),
    ("Candidate did not answer.", "empty"),
    ("No response", "empty"),
    ("跳过了", "skipped"),
    ("候选人跳过了", "skipped"),
    ("略过", "skipped"),
    ("此题略", "skipped"),
    ("时间不够，未问", "skipped"),
    ("Skipped (time)", "skipped"),
    ("Not asked", "skipped"),
    ("无法回答", "dont_know"),
    ("一点都不知道", "dont_know"),
    ("基本不了解", "dont_know"),
    ("嗯，不知道", "dont_know"),
    ("没听过", "dont_know"),
    ("略懂", None),
    ("基本了解", None),
    ("没答好，但提到了锁", None),
    ("跳过，后面补充了：用 Redis", None),
    ("时间不够", None),  # not said whether it was asked: an answer as written
    ("因为并发模型简单。", None),
    ("无锁队列是关键。", None),
    ("-1 是哨兵值", None),
    ("不知道具体数字，但大概是用一致性哈希分片的。", None),
    ("不会，因为 Go 的调度器会处理。", None),
    ("知道一点：GMP 模型。", None),
    ("略懂，用过 goroutine。", None),
]


@pytest.mark.parametrize(("answer", "reason"), ANSWER_TABLE)
def test_unanswered_and_why(answer: str, reason: str | None) -> None:
    q = parse(SMALL.format(years="3年", answer=answer)).questions[0]
    assert (q.answered, q.unanswered_reason) == (reason is None, reason)
    assert unanswered_reason(answer) == reason
    assert is_placeholder(answer) is (reason in ("empty", "skipped"))


def test_a_long_answer_that_mentions_not_knowing_is_an_answer() -> None:
    answer = "我不知道这个库的内部实现，" + "但我读过它的文档并在项目里用它做了分布式锁。" * 3
    q = parse(SMALL.format(years="3年", answer=answer)).questions[0]
    assert (q.answered, q.unanswered_reason) == (True, None)


YEARS_TABLE = [
    ("3年", 3),
    ("5", 5),
    ("五年", 5),
    ("两年", 2),
    ("十二年", 12),
    ("３年", 3),
    ("3-5年", 3),
    ("3~5年", 3),
    ("三到五年", 3),
    ("约8年", 8),
    ("1年半", 1.5),
    ("一年半", 1.5),
    ("两年半", 2.5),
    ("半年", 0.5),
    ("3.5年", 3.5),
    ("3年6个月", 3.5),
    ("18个月", 1.5),
    ("6 months", 0.5),
    ("十年以上", 10),
    ("10年+", 10),
    ("5+ years", 5),
    ("3 years", 3),
    ("应届", 0),
    ("应届生", 0),
    ("2024届应届生", 0),
    ("在校", 0),
    ("在校生", 0),
    ("fresh graduate", 0),
    ("不详", None),
    ("未知", None),
    ("不到1年", None),  # no lower bound worth showing: years_text says it
    ("1年以内", None),  # an upper bound, like 不到1年: was shown as 1
    ("1年以下", None),
    ("3年内", None),
    ("2年不到", None),
    ("3年内部转岗", 3),
    ("5年以上", 5),
    ("近3年", 3),
    ("3年+", 3),
    ("八年", 8),
    ("10+", 10),
    ("1.5年", 1.5),
    ("十余年", 10),  # was unknown
    ("10余年", 10),
    ("十几年", 10),
    ("3年多", 3),
    ("工作3年", 3),
    (">5年", 5),
    ("≥3年", 3),
    ("至少3年", 3),
    ("at least 3 years", 3),
    ("two years", 2),
    ("Three years", 3),
    ("3 years 6 months", 3.5),  # was 3
    ("1 year, 6 months", 1.5),
    ("3y6m", 3.5),
    ("less than a year", None),
    ("毕业3年", None),  # years since graduating, not of experience: unknown
    ("2018年至今", None),  # depends on today: unknown
    ("99999999999999999999年", None),
    ("200年", None),
    ("", None),
]


@pytest.mark.parametrize(("text", "years"), YEARS_TABLE)
def test_years(text: str, years: float | None) -> None:
    assert parse_years(text) == years
    t = parse(SMALL.format(years=text, answer="是"))
    assert (t.years, t.years_text) == (years, text)


def test_years_keep_one_decimal_at_most() -> None:
    assert parse_years("3年4个月") == 3.3
    assert parse_years("1.25年") == 1.2


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
    ("只是一段普通的文字，没有任何标签。\n第二行。".encode(), "not a transcript", None),
    ("简介：写 Go 的人\n点评：不错\n".encode(), "no 岗位", None),
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


def test_not_a_transcript_is_its_own_error() -> None:
    """No label at all: NotATranscript (skipped by the indexer). Labels but no 岗位 and
    no 问题: a plain ParseError (a transcript that fails)."""
    for text in (
        "# README\n\nHow to use this folder.\n",
        "Notes\nExperience: plenty\n",
        "# FAQ\nQ: How do I install it?\nA: pip install.\nQ: Where?\nA: Here.\n",
    ):
        with pytest.raises(NotATranscript):
            parse(text)
    with pytest.raises(ParseError) as info:
        parse("简介：写 Go 的人\n点评：不错\n")
    assert not isinstance(info.value, NotATranscript)


# -- layouts recruiters use: text -> the facts -------------------------------------------------

# A full small transcript in the format's own words; each layout below must give these facts.
FACTS: dict[str, Any] = {
    "position": "运维工程师",
    "years": 4,
    "years_text": "4年",
    "intro": "熟悉 Linux 和 K8s",
    "verdict": "基础扎实，建议通过",
    "questions": [
        (1, "如何排查线上故障？", "排障思路", "先看监控，再看日志。", None),
        (2, "讲讲 K8s 调度？", "原理", "", "empty"),
    ],
}

PLAIN = """运维面试笔记
候选人沟通顺畅。
岗位：运维工程师 从业年限：4年
简介：熟悉 Linux 和 K8s
问题1：如何排查线上故障？
考察目标：排障思路
回答：先看监控，再看日志。
问题2：讲讲 K8s 调度？
考察目标：原理
回答：
点评：基础扎实，建议通过
"""

LAYOUTS = {
    "values on the next line": """候选人沟通顺畅。
岗位：
运维工程师
从业年限：
4年
简介：
熟悉 Linux 和 K8s
问题1：
如何排查线上故障？
考察目标：
排障思路
回答：
先看监控，再看日志。
问题2：讲讲 K8s 调度？
考察目标：
原理
回答：
点评：
基础扎实，建议通过
""",
    "next-line values after blank lines": PLAIN.replace(
        "岗位：运维工程师 从业年限：4年", "岗位：\n\n运维工程师\n从业年限：\n\n4年"
    ),
    "应聘职位 工作经验 个人介绍 面试官点评": PLAIN.replace("岗位：", "应聘职位：")
    .replace("从业年限：", "工作经验：")
    .replace("简介：", "个人介绍：")
    .replace("点评：", "面试官点评："),
    "职位 经验 候选人简介 评语": PLAIN.replace("岗位：", "职位：")
    .replace("从业年限：", "经验：")
    .replace("简介：", "候选人简介：")
    .replace("点评：", "评语："),
    "岗位名称 工作年限 on two lines, 综合评价": PLAIN.replace(
        "岗位：运维工程师 从业年限：4年", "岗位名称：运维工程师\n工作年限：4年"
    ).replace("点评：", "综合评价："),
    "面试评价": PLAIN.replace("点评：", "面试评价："),
    "总体评价": PLAIN.replace("点评：", "总体评价："),
    "面试结论": PLAIN.replace("点评：", "面试结论："),
    "问题（一）": PLAIN.replace("问题1：", "问题（一）").replace("问题2：", "问题（二）："),
    "第一题": PLAIN.replace("问题1：", "第一题：").replace("问题2：", "第二题 "),
    "Q1": PLAIN.replace("问题1：", "Q1: ").replace("问题2：", "Q2."),
    "Question 1": PLAIN.replace("问题1：", "Question 1: ").replace("问题2：", "Question 2 "),
    "问题1、": PLAIN.replace("问题1：", "问题1、").replace("问题2：", "问题2、"),
    "问题1.": PLAIN.replace("问题1：", "问题1. ").replace("问题2：", "问题２．"),
    "markdown bold labels": PLAIN.replace("问题1：", "**问题1：**").replace("点评：", "**点评**："),
    "English labels": """Interview notes
候选人沟通顺畅。
Position: 运维工程师
Years of experience: 4年
Profile: 熟悉 Linux 和 K8s
Q1: 如何排查线上故障？
Goal: 排障思路
Answer: 先看监控，再看日志。
Question 2: 讲讲 K8s 调度？
Goal: 原理
Answer:
Verdict: 基础扎实，建议通过
""",
    "English Summary after Position is the profile": """候选人沟通顺畅。
POSITION: 运维工程师 Years of experience: 4年
Summary: 熟悉 Linux 和 K8s
Q1) 如何排查线上故障？
Goal：排障思路
Answer：先看监控，再看日志。
Q2: 讲讲 K8s 调度？
Goal: 原理
Answer:
Feedback: 基础扎实，建议通过
""",
    "答 as the answer label": PLAIN.replace("回答：", "答："),
    "考察点 and 候选人回答": PLAIN.replace("考察目标：", "考察点：").replace(
        "回答：", "候选人回答："
    ),
    "short labels 年限 目标 答案 评价, ASCII colons": PLAIN.replace("从业年限：", "年限:")
    .replace("考察目标：", "目标:")
    .replace("回答：", "答案:")
    .replace("点评：", "评价:"),
    "面试官意见": PLAIN.replace("点评：", "面试官意见："),
    "question, goal and answer on one line": PLAIN.replace(
        "问题1：如何排查线上故障？\n考察目标：排障思路\n回答：先看监控，再看日志。",
        "问题1：如何排查线上故障？ 考察目标：排障思路 回答：先看监控，再看日志。",
    ).replace("考察目标：原理\n回答：", "考察目标：原理  回答："),
    "【】 labels with no colon": re.sub(
        r"(?m)^(岗位|从业年限|简介|问题\d|考察目标|回答|点评)：", r"【\1】", PLAIN
    ).replace(" 【从业年限】", "\n【从业年限】"),
    "[] labels": re.sub(r"(?m)^(问题\d|考察目标|回答|点评)：", r"[\1] ", PLAIN),
    "**bold** labels with no colon": re.sub(
        r"(?m)^(简介|考察目标|回答|点评)：", r"**\1** ", PLAIN
    ).replace("回答** \n", "回答**\n"),
    "# headings and bare labels, values below": """候选人沟通顺畅。
## 岗位
运维工程师
## 从业年限
4年
## 简介
熟悉 Linux 和 K8s
## 问题1
如何排查线上故障？
### 考察目标
排障思路
### 回答
先看监控，再看日志。
## 问题2
讲讲 K8s 调度？
考察目标
原理
回答

点评
基础扎实，建议通过
""",
    "a markdown table for the header": PLAIN.replace(
        "岗位：运维工程师 从业年限：4年",
        "| 岗位 | 运维工程师 |\n|---|---|\n| 从业年限 | 4年 |\n| **简介** | 熟悉 Linux 和 K8s |",
    ).replace("简介：熟悉 Linux 和 K8s\n", ""),
    "spaces inside every label": PLAIN.replace("岗位", "岗 位")
    .replace("问题", "问 题 ")
    .replace("考察目标", "考 察 目 标")
    .replace("回答", "回　答")
    .replace("点评", "点 评"),
}


NUMBERED = {
    "1. 2.": ("1. ", "2. "),
    "一、二、": ("一、", "二、"),
    "(1) (2)": ("(1) ", "（2）"),
    "1） 2）": ("1）", "2）"),
    "## 1. as headings": ("## 1. ", "## 2. "),
}


@pytest.mark.parametrize("name", sorted(NUMBERED))
def test_a_numbered_list_used_for_the_questions(name: str) -> None:
    """With no 问题N label in the file, `1.` followed by 考察目标/回答 is question 1
    (before, every question and answer ended up in the profile)."""
    first, second = NUMBERED[name]
    text = PLAIN.replace("问题1：", first).replace("问题2：", second)
    t = parse(text)
    got = [(q.number, q.question, q.goal, q.answer, q.unanswered_reason) for q in t.questions]
    assert (got, t.intro, t.verdict) == (FACTS["questions"], FACTS["intro"], FACTS["verdict"])


def test_numbered_lists_inside_answers_stay_answer_text() -> None:
    t = parse(
        "岗位：SRE\n1. 怎么排障？\n考察目标：思路\n回答：\n1. 看监控\n2. 看日志\n"
        "2. 怎么扩容？\n考察目标：\n1) 容量\n2) 成本\n回答：加机器\n点评：好\n"
    )
    got = [(q.number, q.question, q.goal, q.answer) for q in t.questions]
    assert got == [
        (1, "怎么排障？", "思路", "1. 看监控\n2. 看日志"),
        (2, "怎么扩容？", "1) 容量\n2) 成本", "加机器"),
    ]
    assert t.verdict == "好"
    # with 问题N labels in the file, a numbered line is never a question
    t = parse("岗位：SRE\n问题1：怎么排障？\n回答：\n1. 看监控\n2. 看日志\n3. 其他\n考察目标：x\n")
    assert [q.number for q in t.questions] == [1]
    assert t.questions[0].answer == "1. 看监控\n2. 看日志\n3. 其他\n考察目标：x"


Q_AND_A = {
    # a file with no 问题N label: `Q:`/`A:` or `问：`/`答：` pairs are its questions
    "Q: A:": PLAIN.replace("问题1：", "Q: ").replace("问题2：", "Q: ").replace("回答：", "A: "),
    "Q1: A:": PLAIN.replace("问题1：", "Q1: ").replace("问题2：", "Q2：").replace("回答：", "A："),
    "问：答：": PLAIN.replace("问题1：", "问：")
    .replace("问题2：", "问：")
    .replace("回答：", "答："),
}


@pytest.mark.parametrize("name", sorted(Q_AND_A))
def test_question_and_answer_pairs(name: str) -> None:
    t = parse(Q_AND_A[name])
    got = [(q.number, q.question, q.goal, q.answer, q.unanswered_reason) for q in t.questions]
    assert (got, t.intro, t.verdict) == (FACTS["questions"], FACTS["intro"], FACTS["verdict"])


def test_what_the_candidate_said_is_the_answer() -> None:
    t = parse("岗位：SRE\n问题1：讲讲 K8s？\n面试官：追问调度器？\n候选人：不知道\n点评：一般\n")
    q = t.questions[0]
    assert (q.question, q.answer, q.unanswered_reason) == (
        "讲讲 K8s？\n面试官：追问调度器？",
        "不知道",
        "dont_know",
    )


def test_a_closing_interview_summary_is_the_verdict() -> None:
    """`面试总结：` after the questions was glued to the last answer."""
    t = parse("面试总结：沟通好\n岗位：SRE\n问题1：你好？\n回答：好\n面试总结：建议通过\n")
    assert (t.summary, t.questions[0].answer, t.verdict) == ("沟通好", "好", "建议通过")


def test_an_answer_label_glued_inside_a_question_stays_question_text() -> None:
    t = parse(PLAIN.replace("问题1：如何排查线上故障？", "问题1：你会怎么回答：为什么要排查？"))
    assert t.questions[0].question == "你会怎么回答：为什么要排查？"
    assert t.questions[0].answer == "先看监控，再看日志。"


def test_answer_label_inside_an_answer_is_answer_text() -> None:
    t = parse(PLAIN.replace("回答：先看监控，再看日志。", "回答：先看监控。 回答：再看日志。"))
    assert t.questions[0].answer == "先看监控。 回答：再看日志。"


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_layout_gives_the_same_facts(name: str) -> None:
    t = parse(LAYOUTS[name])
    assert t.position == FACTS["position"]
    assert (t.years, t.years_text) == (FACTS["years"], FACTS["years_text"])
    assert t.intro == FACTS["intro"]
    assert t.verdict == FACTS["verdict"]
    got = [(q.number, q.question, q.goal, q.answer, q.unanswered_reason) for q in t.questions]
    assert got == FACTS["questions"]
    assert t.summary == "候选人沟通顺畅。"


def test_plain_layout_is_the_reference() -> None:
    t = parse(PLAIN)
    assert (t.position, t.years, t.intro) == ("运维工程师", 4, "熟悉 Linux 和 K8s")


def test_english_summary_before_the_header_is_the_opening_summary() -> None:
    t = parse(
        "Summary: 沟通顺畅，基础扎实。\nPosition: SRE\nProfile: 写 Go\nQ1: 你好？\nAnswer: 好\n"
    )
    assert (t.summary, t.intro, t.position) == ("沟通顺畅，基础扎实。", "写 Go", "SRE")


def test_chinese_summary_label_after_the_header_stays_the_summary() -> None:
    t = parse("岗位：SRE\n简介：写 Go\n总结：面试者表现良好\n问题1：你好？\n回答：好\n")
    assert (t.summary, t.intro) == ("面试者表现良好", "写 Go")


def test_summary_label_line_is_never_taken_for_a_title() -> None:
    t = parse("总结：面试者表现良好\n第二句\n岗位：SRE\n问题1：你好？\n回答：好\n")
    assert t.summary == "面试者表现良好\n第二句"


def test_verdict_at_the_top_ends_where_the_header_goes_on() -> None:
    t = parse("面试结论：通过\n岗位：SRE 经验：两年\n问题1：你好？\n回答：好\n点评：沟通好\n")
    assert (t.position, t.years, t.verdict) == ("SRE", 2, "通过\n\n沟通好")
    assert [q.number for q in t.questions] == [1]


# -- labels that must not count --------------------------------------------------------------

NOT_LABELS = [
    # (answer text inside question 1, what the answer must stay)
    ("我的点评：这个方案不错", "我的点评：这个方案不错"),
    ("经验：我做过三年运维", "经验：我做过三年运维"),
    (
        "先说结论。\n经验：我做过三年运维\n职位：组长",
        "先说结论。\n经验：我做过三年运维\n职位：组长",
    ),
    ("简介：这是个工具\nGoal: 降低延迟", "简介：这是个工具\nGoal: 降低延迟"),
    ("Q3 我们完成了迁移", "Q3 我们完成了迁移"),
    ("问题在于锁竞争：很严重", "问题在于锁竞争：很严重"),
    ("问题十分复杂：要拆开看", "问题十分复杂：要拆开看"),
    ("第一题我答得不好", "第一题我答得不好"),
    ("回答：其实还有一点", "回答：其实还有一点"),
    ("Answer: 42", "Answer: 42"),
    ("总结：先拆分再优化", "总结：先拆分再优化"),
    ("经验丰富：是的", "经验丰富：是的"),
]


@pytest.mark.parametrize(("answer", "kept"), NOT_LABELS)
def test_label_words_inside_an_answer_are_answer_text(answer: str, kept: str) -> None:
    t = parse(SMALL.format(years="3年", answer=answer))
    assert [q.number for q in t.questions] == [1]
    assert t.questions[0].answer == kept
    assert (t.position, t.years, t.intro, t.verdict) == ("后端工程师", 3, "写 Go 的人", "不错")


def test_verdict_label_mid_line_is_not_a_verdict() -> None:
    t = parse(
        SMALL.format(years="3年", answer="面试官点评：不算，这在行中间").replace(
            "回答：", "回答：答 "
        )
    )
    assert t.verdict == "不错"
    t = parse("岗位：SRE\n问题1：你好？\n回答：他说点评：很好\n")
    assert t.verdict is None and t.questions[0].answer == "他说点评：很好"


def test_a_verdict_label_at_the_start_of_a_line_ends_the_answer() -> None:
    t = parse("岗位：SRE\n问题1：你好？\n回答：好\n面试官点评：沟通好\n")
    assert (t.questions[0].answer, t.verdict) == ("好", "沟通好")


def test_next_line_value_is_not_taken_from_a_long_paragraph() -> None:
    long_line = "这是一段很长的介绍文字，" * 8
    t = parse(f"岗位：\n{long_line}\n问题1：你好？\n回答：好\n点评：好\n")
    assert t.position is None and t.intro == long_line


QUESTION_NUMBERS = [
    ("问题1：", 1),
    ("问题 12：", 12),
    ("问题１２：", 12),
    ("问题十二：", 12),
    ("问题（三）", 3),
    ("问题(4)：", 4),
    ("第五题：", 5),
    ("第 6 题 ", 6),
    ("第七问：", 7),
    ("Q8:", 8),
    ("q9.", 9),
    ("Question 10:", 10),
    ("问题11、", 11),
    ("问题13.", 13),
    ("问题八十一：", 81),
]


@pytest.mark.parametrize(("label", "number"), QUESTION_NUMBERS)
def test_question_labels(label: str, number: int) -> None:
    t = parse(f"岗位：SRE\n{label}你好？\n回答：好\n")
    assert [(q.number, q.question) for q in t.questions] == [(number, "你好？")]


# -- what the file does not state as a fact (issue 46) --------------------------------------

REVERSE_LIST = """# 字节前端一面

岗位：前端工程师

问题1：讲讲闭包
回答：函数和它的词法环境。

问题2：事件循环
回答：宏任务和微任务。

{opener}
- 部门做什么业务？
- 面试评价：整体还行，基础可以再加强
"""


@pytest.mark.parametrize(
    "opener", ["反问：", "## 反问", "**反问环节**", "Questions for the interviewer:"]
)
@pytest.mark.parametrize("name", ["x.md", "x.txt"])
def test_a_verdict_label_in_the_candidates_questions_is_no_verdict(opener: str, name: str) -> None:
    t = parse(REVERSE_LIST.format(opener=opener), name)
    assert t.position == "前端工程师"
    assert [(q.number, q.question, q.answer, q.answered) for q in t.questions] == [
        (1, "讲讲闭包", "函数和它的词法环境。", True),
        (2, "事件循环", "宏任务和微任务。", True),  # the 反问 is no part of the answer
    ]
    assert t.verdict is None  # the candidate asked how it went: no verdict of the file's
    assert t.summary == ""


def test_a_verdict_list_item_is_the_verdict_only_outside_the_candidates_questions() -> None:
    body = "岗位：前端工程师\n\n问题1：讲讲闭包\n回答：函数和它的词法环境。\n\n"
    alone = parse(body + "- 点评：基础扎实，建议通过\n", "x.md")
    assert alone.verdict == "基础扎实，建议通过"  # the only verdict-like line after the questions
    after = parse(body + "点评：基础扎实\n\n## 反问\n- 团队多大？\n- 评价：还行\n", "x.md")
    assert after.verdict == "基础扎实"  # the 反问 after it is none of it
    assert after.questions[0].answer == "函数和它的词法环境。"
    remarks = parse(body + "备注\n- 候选人迟到十分钟\n\n点评：可以\n", "x.txt")
    assert remarks.questions[0].answer == "函数和它的词法环境。"
    assert remarks.verdict == "可以"


def test_a_question_list_with_a_verdict_bullet_in_its_reverse_questions_is_no_labelled_file() -> (
    None
):
    """The 面经 of the issue: a list of questions, then `反问` with `- 面试评价：…`. Not the
    labelled layout (no 岗位, no 问题N, no verdict of its own): NotATranscript, so the
    other readers may read it, never a ParseError that fails the run."""
    text = (
        "# 字节前端一面\n\n1. 自我介绍\n2. 讲讲闭包 ***没答上来***\n3. 事件循环\n\n"
        "反问：\n- 部门做什么业务？\n- 面试评价：整体还行，基础可以再加强\n"
    )
    for name in ("x.md", "x.txt"):
        with pytest.raises(NotATranscript):
            parse(text, name)
    # a bullet `- 点评：` alone is no evidence of the layout either
    with pytest.raises(NotATranscript):
        parse("1. 自我介绍\n2. 讲讲闭包\n\n- 点评：还行\n", "x.md")


HEADER_AND_ONE_QUESTION = (
    "岗位：前端工程师\n问题1：讲讲闭包\n回答：函数和它的词法环境。\n点评：可以\n"
)


@pytest.mark.parametrize(
    "top",
    [
        # YAML front matter, fenced: set aside, never the summary nor the date
        "---\ncreateTime: 2023-04-01 10:00:00\ntags: 面经\ndate: 2023-04-01\n---\n",
        "---\ntitle: 字节一面\ntags:\n  - 面经\n  - 前端\n---\n\n",
        # the same without its fences, as a paragraph of metadata
        "createTime: 2023-04-01 10:00:00\ntags: 面经\n\n",
        # a question is no summary
        "你如何确保在高并发下保持服务质量？\n\n",
        "# 字节一面\n\n中文：请描述你在项目中遇到的一个技术挑战，并说明你是如何解决的？\n\n",
        # a table's rows, cells apart by tabs (a Word form as text), are no summary
        "候选人面试评估表\n\n候选人\t刘强\n面试官\t孙丽\n面试时间\t2025年4月2日\n\n",
        # a list is no summary
        "- 自我介绍\n- 项目介绍\n\n",
        "# 题目\n\n1. 问题：\n   - 中文：请描述一个技术挑战。\n\n",
    ],
)
@pytest.mark.parametrize("name", ["x.md", "x.txt"])
def test_what_comes_before_the_header_is_a_summary_only_when_it_reads_as_one(
    top: str, name: str
) -> None:
    t = parse(top + HEADER_AND_ONE_QUESTION, name)
    assert (t.summary, t.interviewed_at, t.interviewed_at_text) == ("", None, "")
    assert (t.position, t.verdict, len(t.questions)) == ("前端工程师", "可以", 1)


def test_a_summary_that_reads_as_one_is_kept() -> None:
    for top in (
        "候选人基础扎实，沟通顺畅。\n\n",
        "# 字节一面\n\n候选人基础扎实，沟通顺畅。\n",
        "---\ntags: 面经\n---\n候选人基础扎实，沟通顺畅。\n\n",  # after the front matter
    ):
        t = parse(top + HEADER_AND_ONE_QUESTION, "x.md")
        assert t.summary == "候选人基础扎实，沟通顺畅。"
    labelled = parse("总结：你会怎么评价他？值得再聊一次。\n" + HEADER_AND_ONE_QUESTION)
    assert labelled.summary == "你会怎么评价他？值得再聊一次。"  # stated as the summary


def test_question_headings_with_the_interviewees_answers_under_them() -> None:
    """`### Question N`, the question in bold, then `**Interviewee:**` and the answer:
    before, every answer was read into its question and the card said 0 answered."""
    text = (
        "# Interview Transcript\nInterviewer: Dana Smith\n\n"
        "### Question 1\n**Can you describe a typical workday?**\n\n"
        "**Interviewee:**  \nMostly reviewing pull requests.\n\nThen planning with the team.\n\n"
        "### Question 2\n**What slows you down most?**\n\n"
        "**Candidate:** I don't know.\n\n"
        "### Question 3\n**Which tool would you drop first?**\n\n"
        "**Interviewee:** The wiki, it is never up to date.\n"
    )
    t = parse(text, "x.md")
    assert t.interviewers == ["Dana Smith"] and t.name is None
    assert [(q.number, q.question, q.answer, q.unanswered_reason) for q in t.questions] == [
        (
            1,
            "Can you describe a typical workday?",
            "Mostly reviewing pull requests.\n\nThen planning with the team.",
            None,
        ),
        (2, "What slows you down most?", "I don't know.", "dont_know"),
        (3, "Which tool would you drop first?", "The wiki, it is never up to date.", None),
    ]
    assert (t.summary, t.verdict) == ("", None)


# -- real files, when ../shared/realworld/ is there (never copied here) -----------------------

from support.realworld import REALWORLD  # noqa: E402


@pytest.mark.skipif(not REALWORLD.is_dir(), reason="../shared/realworld/ is not here")
def test_real_files_give_no_fact_they_do_not_state() -> None:
    heads = parse((REALWORLD / "en01_grinnell_user_interview.md").read_bytes(), "en01.md")
    assert heads.interviewers == ["Tiffany Tang"] and heads.questions
    assert all(q.answered and q.answer for q in heads.questions)  # before: 0 answered of 14
    assert (heads.summary, heads.verdict) == ("", None)
    bank = parse((REALWORLD / "cn16_wangxiaopeng_prep.md").read_bytes(), "cn16.md")
    assert (bank.summary, bank.verdict) == ("", None)  # before: its first question as summary


def test_a_word_forms_identity_rows_are_no_summary() -> None:
    """A Word evaluation form saved as text: its identity table's rows come out as
    `候选人\t刘强`. They are not read as labels, and never as the summary."""
    text = (
        "候选人面试评估表\n\n"
        "候选人\t刘强\n应聘岗位\t产品经理\n面试官\t孙丽\n面试时间\t2025年4月2日\n\n"
        "一、请介绍一下你主导过的一个产品\n答：我负责过一个社区团购小程序。\n"
        "二、你最大的缺点是什么？\n答：（沉默）\n\n"
        "综合评价：逻辑清晰，推荐录用。\n"
    )
    t = parse(text, "form.txt")
    assert (t.summary, t.name, t.position, t.interviewers, t.interviewed_at) == (
        "",
        None,
        None,
        [],
        None,
    )
    assert (t.round, t.years, t.intro, t.verdict) == (None, None, "", "逻辑清晰，推荐录用。")
    assert [
        (q.number, q.question, q.answer, q.answered, q.unanswered_reason) for q in t.questions
    ] == [
        (1, "请介绍一下你主导过的一个产品", "我负责过一个社区团购小程序。", True, None),
        (2, "你最大的缺点是什么？", "（沉默）", False, "empty"),
    ]
