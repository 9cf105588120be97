"""The reader pipeline (issue 46): structure, kind, several interviews, facts, and
`read_interviews` that joins them. Every text here is written for the test, one per
layout people keep; each is checked field by field.

The written families' readers (question_lists.py `read_question_list`, qa.py `read_qa`)
are another part of the issue: where a test needs questions read, it hands the reader a
small family of its own through `reader._written_readers`, the one seam the dispatch
goes through."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from store.models import Question, Transcript
from store.transcripts import reader
from store.transcripts.document import Block, document, plain
from store.transcripts.errors import NotATranscript, ParseError, code_of
from store.transcripts.kinds import Family, kind_of
from store.transcripts.parser import parse_transcript
from store.transcripts.reader import read_interviews
from store.transcripts.sections import round_named


def read(text: str, name: str = "rec.md") -> list[Transcript]:
    return read_interviews(text.encode("utf-8"), name)


def refused(text: str, name: str = "rec.md") -> str:
    """The code of the reason a file is refused for."""
    with pytest.raises(NotATranscript) as info:
        read(text, name)
    return info.value.code


def no_families(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if no written family could read any question."""
    monkeypatch.setattr(reader, "_written_readers", lambda family: [])


def item_family(monkeypatch: pytest.MonkeyPatch) -> list[Sequence[Block]]:
    """A family that reads each top-level item as a question not recorded; returns the
    block lists it was handed."""
    seen: list[Sequence[Block]] = []

    def items(blocks: Sequence[Block]) -> list[Question] | None:
        seen.append(blocks)
        asked = [b for b in blocks if b.kind == "item" and b.level == 0]
        return [
            Question(number=n, question=b.text, answer_recorded=False)
            for n, b in enumerate(asked, start=1)
        ] or None

    def readers(family: Family) -> list[reader.FamilyReader]:
        return [items]

    monkeypatch.setattr(reader, "_written_readers", readers)
    return seen


# -- 1. structure --------------------------------------------------------------------------------

MARKDOWN = """---
createTime: 2024-03-01
tags: 面经
---
# 字节后端一面

面试官：王五

1. 讲讲 **HashMap** 的原理
   - 追问：扩容
2. [Redis](https://redis.io) 持久化？ ***没答上来***

| 姓名 | 张三 |
|---|---|
| 日期 | 2024-03-01 |

> 引用一句

```
code here
```

---
"""


def test_markdown_blocks_are_read_by_commonmark_with_front_matter_set_aside() -> None:
    doc = document(MARKDOWN, markdown=True)
    assert doc.front_matter == "createTime: 2024-03-01\ntags: 面经"
    assert doc.text.startswith("# 字节后端一面\n")
    assert "createTime" not in doc.text
    assert [(b.kind, b.text, b.level, b.line) for b in doc.blocks] == [
        ("heading", "字节后端一面", 1, 5),
        ("paragraph", "面试官：王五", 0, 7),
        ("item", "讲讲 HashMap 的原理", 0, 9),
        ("item", "追问：扩容", 1, 10),
        ("item", "Redis 持久化？ 没答上来", 0, 11),
        ("table", "姓名 | 张三\n日期 | 2024-03-01", 0, 13),
        ("quote", "引用一句", 0, 17),
        ("code", "code here", 0, 19),
        ("rule", "", 0, 23),
    ]
    first, nested, marked = doc.blocks[2], doc.blocks[3], doc.blocks[4]
    assert (first.ordered, first.number, first.marks) == (True, 1, ("HashMap",))
    assert (nested.ordered, nested.number) == (False, None)
    assert (marked.ordered, marked.number, marked.marks) == (True, 2, ("没答上来",))
    assert doc.blocks[5].rows == (("姓名", "张三"), ("日期", "2024-03-01"))


def test_admonitions_hold_blocks_as_any_other_part_of_the_file() -> None:
    doc = document('??? question "问题整理"\n\n    1. 自我介绍\n\n    2. 你的规划？\n', True)
    assert [(b.kind, b.text, b.number) for b in doc.blocks] == [
        ("paragraph", "问题整理", None),
        ("item", "自我介绍", 1),
        ("item", "你的规划？", 2),
    ]


def test_plain_text_is_split_by_lines() -> None:
    text = (
        "# 面经\n"
        "8.17 字节一面\n"
        "\n"
        "1、自我介绍\n"
        "2. 讲讲 TCP\n"
        "    - 三次握手\n"
        "        - 为什么三次\n"
        "    - 四次挥手\n"
        "（3）手写快排\n"
        "**不是强调**\n"
        "> 引用\n"
        "第一行\n"
        "第二行\n"
    )
    doc = document(text, markdown=False)
    assert [(b.kind, b.text, b.level, b.ordered, b.number, b.line) for b in doc.blocks] == [
        ("heading", "面经", 1, False, None, 1),
        ("paragraph", "8.17 字节一面", 0, False, None, 2),
        ("item", "自我介绍", 0, True, 1, 4),
        ("item", "讲讲 TCP", 0, True, 2, 5),
        ("item", "三次握手", 1, False, None, 6),
        ("item", "为什么三次", 2, False, None, 7),
        ("item", "四次挥手", 1, False, None, 8),
        ("item", "手写快排", 0, True, 3, 9),
        ("paragraph", "**不是强调**", 0, False, None, 10),
        ("quote", "引用", 0, False, None, 11),
        ("paragraph", "第一行", 0, False, None, 12),
        ("paragraph", "第二行", 0, False, None, 13),
    ]
    assert doc.text == text and doc.front_matter == ""


def test_plain_renders_blocks_as_a_person_reads_them() -> None:
    doc = document("# 一面\n\n- 问 **A**\n  - 追问\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", True)
    assert plain(doc.blocks) == "一面\n\n- 问 A\n  - 追问\n\na | b\n1 | 2"


# -- 2. kind -------------------------------------------------------------------------------------


def test_a_question_bank_with_reference_answers_is_refused_by_name() -> None:
    bank = (
        "# 简历面试题\n\n"
        "1. **问题：** 请介绍你在项目中遇到的一个挑战？\n\n"
        "**参考答案：** 我首先做了性能分析……\n\n"
        "2. **问题：** 你如何保证高并发下的服务质量？\n\n"
        "**参考答案：** 负载均衡、限流和降级……\n"
    )
    assert refused(bank) == "question_bank"


def test_a_collection_of_questions_to_learn_written_as_q_and_a_is_a_bank() -> None:
    """`# 前端高频面试题 Q&A` over `Q:`/`A:` pairs: the answers are the writer's, to
    learn, not a candidate's; with a round named, a Q/A record is read as ever."""
    bank = (
        "# 前端高频面试题 Q&A\n\n"
        "Q: 什么是闭包？\nA: 闭包是指有权访问另一个函数作用域中变量的函数。\n\n"
        "Q: let 和 var 有什么区别？\nA: let 有块级作用域，var 是函数作用域。\n\n"
        "Q: 什么是事件冒泡？\nA: 事件从最具体的元素开始逐级向上传播。\n"
    )
    assert refused(bank) == "question_bank"
    record = bank.replace("# 前端高频面试题 Q&A", "# 字节前端一面")
    (t,) = read(record, "zj.md")
    assert (t.id, t.round, t.name, t.summary, t.verdict, t.questions_read) == (
        "zj",
        "一面",
        None,
        "",
        None,
        True,
    )
    assert [(q.number, q.question, q.answered) for q in t.questions] == [
        (1, "什么是闭包？", True),
        (2, "let 和 var 有什么区别？", True),
        (3, "什么是事件冒泡？", True),
    ]


def test_study_notes_that_explain_each_question_are_refused() -> None:
    explanation = "它是一种独占所有权的智能指针，离开作用域时释放对象，不能拷贝只能移动。" * 5
    notes = "# C++ 面经\n\n" + "".join(
        f"### {n}、{topic}？\n\n{explanation}\n\n```c++\nint x = {n};\n```\n\n"
        for n, topic in enumerate(("unique_ptr 的用法", "虚函数表在哪里", "右值引用的用法"), 1)
    )
    assert refused(notes) == "study_notes"


def test_a_list_of_dates_and_companies_is_refused() -> None:
    dates = "8.17 字节一面\n\n8.27 网易二面\n\n9.1 微信一面\n\n9.6 微信二面\n\n9.26 字节意向书\n"
    assert refused(dates) == "dates_list"
    assert refused(dates, "dates.txt") == "dates_list"


def test_speech_to_text_with_no_questions_is_refused() -> None:
    speech = "".join(
        f"然后那个我觉得呃这个方向{n}就是还是要做的，对对，就是说我们先把这个东西做出来。\n"
        for n in range(12)
    )
    assert refused(speech, "talk.txt") == "speech_to_text"


def test_preparation_notes_are_refused() -> None:
    prep = (
        "# 面试准备\n\n"
        "## 自我介绍\n\n"
        "面试官您好，我叫张三，毕业于某大学，做过三年后端开发。\n\n"
        "## 知识点\n\n"
        "- 闭包\n- 原型链\n- 事件循环\n- 浏览器缓存\n- HTTP 缓存\n"
    )
    assert refused(prep) == "own_notes"


def test_topics_to_review_are_notes_unless_rounds_are_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    no_families(monkeypatch)
    topics = "# 复习清单\n\n- HashMap原理\n- TCP和UDP的区别\n- 什么是MVCC\n"
    assert refused(topics) == "own_notes"
    told = "## 面试准备\n\n刷了两周题。\n\n## 一面\n\n- HashMap原理\n- TCP和UDP的区别\n"
    (one,) = read(told, "told.md")
    assert (one.round, one.questions_read) == ("一面", False)


def test_a_record_that_says_it_prepared_is_still_a_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    no_families(monkeypatch)
    text = (
        "# 美团一面\n\n面试准备得不够，复习也没做完。\n\n"
        + "".join(f"第{n}段：聊得还算顺利，面试官人很好。\n\n" for n in range(10))
        + "- 自我介绍\n- 讲讲Redis\n- 为什么用Kafka？\n"
    )
    (one,) = read(text, "mt.md")
    assert (one.round, one.questions_read) == ("一面", False)


def test_a_blog_post_with_no_questions_is_refused_as_an_article() -> None:
    post = (
        "---\ncreateTime: 2023-10-01\ntags: 面经\n---\n"
        "# 秋招总结\n\n今年秋招投了很多家，最后去了[某厂](https://example.com)。\n"
    )
    assert refused(post) == "article"


def test_a_faq_is_not_an_interview() -> None:
    assert refused("# FAQ\nQ: How do I install it?\nA: pip install.\nQ: Where?\nA: Here.\n") == (
        "faq"
    )


def test_every_new_reason_has_a_code_and_words() -> None:
    from store.transcripts.words import WORDS

    for code in ("question_bank", "study_notes", "dates_list", "speech_to_text", "own_notes"):
        english = next(e for e, c in _codes().items() if c == code)
        assert code_of(english) == code
        assert set(WORDS[f"why_{code}"]) == {"zh", "en"}
    for code in ("faq", "article"):
        assert set(WORDS[f"why_{code}"]) == {"zh", "en"}


def _codes() -> dict[str, str]:
    from store.transcripts import errors

    return dict(errors._CODES)


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("岗位：SRE\n问题1：怎么排障？\n回答：先看日志。\n", "labelled"),
        ("**面试官**：介绍一下你的项目？\n**候选人**：我做过推荐系统。\n", "dialogue"),
        ("Q: 讲讲 TCP？\nA: 不知道\nQ: 讲讲 UDP？\nA: 无连接\n", "dialogue"),
        ("【问】为什么离职？\n【答】想换方向。\n", "dialogue"),
        (
            "# Interview\nInterviewer: Ann Lee\n\n### Question 1\n**Why this team?**\n\n"
            "**Interviewee:**  \nI like the product.\n",
            "dialogue",
        ),
        ("**AI:** Q1. What is a cell?\n\n**User:** I don't know.\n", "dialogue"),
        (
            "# 一面\n- 自我介绍\n- Linux 的任务调度原理 ***确实不会***\n- 介绍`http`\n",
            "question_list",
        ),
    ],
)
def test_interview_records_are_known_with_their_family(text: str, family: str) -> None:
    markdown = "**" in text or "#" in text
    assert kind_of(document(text, markdown), markdown).family == family


def test_css_in_study_notes_is_no_label() -> None:
    notes = "\n".join(["布局方面", "  position: absolute;", "  top: 0;"] * 20)
    assert refused(notes, "notes.txt") in ("own_notes", "no_labels")


# -- 3. several interviews -----------------------------------------------------------------------

ROUNDS = """# 滴滴后端面经

姓名：张三

## 一面

- 自我介绍
- 介绍JVM运行时内存结构
- 堆中的空间怎么分配的

## 二面

- 介绍下Spring
- ArrayList和LinkedList有什么区别

## HR面

- 为什么选择我们？
- 期望薪资是多少？

## 总结

整体感觉不错。
"""


def test_round_headings_give_one_interview_each(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = item_family(monkeypatch)
    found = read(ROUNDS, "didi.md")
    assert [t.id for t in found] == ["didi", "didi-2", "didi-3"]
    assert [t.round for t in found] == ["一面", "二面", "HR面"]
    assert [[q.question for q in t.questions] for t in found] == [
        ["自我介绍", "介绍JVM运行时内存结构", "堆中的空间怎么分配的"],
        ["介绍下Spring", "ArrayList和LinkedList有什么区别"],
        ["为什么选择我们？", "期望薪资是多少？"],
    ]
    assert all(t.questions_read for t in found)
    assert [t.name for t in found] == ["张三", "张三", "张三"]  # the file's header: who
    assert found[0].body == "一面\n\n- 自我介绍\n- 介绍JVM运行时内存结构\n- 堆中的空间怎么分配的"
    assert found[2].body == "HR面\n\n- 为什么选择我们？\n- 期望薪资是多少？"
    assert all(t.summary == "" and t.verdict is None for t in found)
    assert all(t.source == "didi.md" and t.hash == found[0].hash for t in found)
    assert len(seen) == 3 and all(b.kind == "item" for b in seen[1])


def test_companies_holding_rounds_and_questions(monkeypatch: pytest.MonkeyPatch) -> None:
    item_family(monkeypatch)
    text = (
        "## 美团\n\n- 介绍http\n- 进程和线程的区别\n\n"
        "## 滴滴\n\n### 一面\n\n- 介绍JVM\n- 什么是AQS\n\n### 二面\n\n- 介绍Spring\n\n"
        "## 顺丰\n\n1. 线程池的优势\n2. 了解的设计模式\n"
    )
    found = read(text, "offers.md")
    assert [(t.id, t.round, len(t.questions)) for t in found] == [
        ("offers", None, 2),
        ("offers-2", "一面", 2),
        ("offers-3", "二面", 1),
        ("offers-4", None, 2),
    ]


def test_one_round_heading_is_one_interview_with_its_round(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    no_families(monkeypatch)
    text = "# 库犸科技\n\n## 一面\n- 自我介绍\n- 简述一下SPI通讯\n## 总结\n面得还可以。\n"
    (one,) = read(text, "kuma.md")
    assert (one.id, one.round) == ("kuma", "一面")
    assert one.summary == "面得还可以。"


def test_question_headings_and_topic_headings_do_not_split(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    no_families(monkeypatch)
    headed = "# Interview\n\n### Question 1\n**Why this job?**\n\n### Question 2\n**Why now?**\n"
    assert len(read(headed)) == 1
    topics = "# 字节一面\n\n## Java\n- 介绍JVM\n- 什么是GC\n\n## 数据库\n- 什么是MVCC\n- 介绍索引\n"
    (one,) = read(topics, "bd.md")
    assert (one.id, one.round) == ("bd", "一面")


def test_a_heading_that_holds_no_questions_is_not_an_interview(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    item_family(monkeypatch)
    text = "## 一面\n- 介绍项目\n- 讲讲Redis\n\n## 二面\n\n没什么印象了。\n\n## 三面\n- 为什么换工作？\n"
    found = read(text, "r.md")
    assert [(t.id, t.round) for t in found] == [("r", "一面"), ("r-2", "三面")]


def test_labelled_interviews_under_round_headings_are_read_as_labelled() -> None:
    text = (
        "# 张三\n\n"
        "## 一面\n岗位：SRE\n问题1：怎么排障？\n回答：先看日志。\n点评：基础扎实。\n\n"
        "## 二面\n岗位：SRE\n问题1：讲讲 K8s？\n回答：\n点评：一般。\n"
    )
    first, second = read(text, "zs.md")
    assert (first.id, first.round, first.position, first.verdict) == (
        "zs",
        "一面",
        "SRE",
        "基础扎实。",
    )
    assert [(q.question, q.answer, q.answered) for q in first.questions] == [
        ("怎么排障？", "先看日志。", True)
    ]
    assert (second.id, second.round, second.verdict) == ("zs-2", "二面", "一般。")
    assert [(q.question, q.answered) for q in second.questions] == [("讲讲 K8s？", False)]
    assert first.hash == second.hash and first.body.startswith("一面\n\n岗位：SRE")


def test_rounds_set_apart_by_a_line_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    item_family(monkeypatch)
    text = "**一面**\n\n- 自我介绍\n- 讲讲TCP\n\n**二面**\n\n- 为什么离职？\n\n二面挂了。\n"
    found = read(text, "b.md")
    assert [(t.id, t.round, len(t.questions)) for t in found] == [
        ("b", "一面", 2),
        ("b-2", "二面", 1),
    ]
    in_word = "一面\n1. 自我介绍\n2. 讲讲TCP\n二面\n1. 为什么离职？\n"
    found = read(in_word, "w.txt")
    assert [(t.id, t.round, len(t.questions)) for t in found] == [
        ("w", "一面", 2),
        ("w-2", "二面", 1),
    ]
    assert found[1].body == "二面\n\n1. 为什么离职？"


def test_one_of_several_that_fails_the_layout_is_kept_unread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    no_families(monkeypatch)
    text = (
        "## 一面\n岗位：SRE\n问题1：怎么排障？\n回答：看日志。\n\n"
        "## 二面\n岗位：SRE\n问题99999999：讲讲 K8s？\n回答：不会\n"
    )
    first, second = read(text, "f.md")
    assert (first.round, first.questions_read, len(first.questions)) == ("一面", True, 1)
    assert (second.round, second.questions_read, second.questions) == ("二面", False, [])
    assert second.body.startswith("二面\n\n岗位：SRE")
    with pytest.raises(ParseError) as info:  # the whole file fails as it always did
        read("岗位：SRE\n问题99999999：讲讲 K8s？\n回答：不会\n", "g.txt")
    assert info.value.code == "question_number"


def test_round_names_as_written() -> None:
    assert round_named("1、一面") == "一面"
    assert round_named("阿里云游戏(电面)") == "电面"
    assert round_named("Transcript 2 – Mixed Answers") == "Transcript 2"
    assert round_named("Round 3: system design") == "Round 3"
    assert round_named("第二轮 技术面") == "第二轮"
    assert round_named("张三面试记录") is None


# -- 4. facts, and saying less -------------------------------------------------------------------


def test_front_matter_is_never_the_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    no_families(monkeypatch)
    post = "---\ncreateTime: 2023-10-01\ntags: 面经\n---\n# 字节一面\n\n- 自我介绍\n- 讲讲TCP\n"
    (one,) = read(post, "post.md")
    assert one.summary == "" and "createTime" not in one.body
    assert (one.round, one.questions_read, one.questions) == ("一面", False, [])
    assert one.body == "字节一面\n\n- 自我介绍\n- 讲讲TCP"


def test_front_matter_never_reaches_the_labelled_summary() -> None:
    text = (
        "---\ncreateTime: 2023-10-01\ntags: 面经\n---\n岗位：SRE\n问题1：怎么排障？\n回答：看日志\n"
    )
    (one,) = read(text, "fm.md")
    assert one.summary == "" and one.position == "SRE"
    assert [q.answer for q in one.questions] == ["看日志"]


def test_a_first_paragraph_that_asks_or_lists_is_no_summary(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    no_families(monkeypatch)
    asked = "你为什么想来我们公司？\n\n- 介绍项目\n- 讲讲缓存一致性\n"
    assert read(asked, "a.md")[0].summary == ""
    listed = "- 自我介绍\n- 讲讲缓存一致性\n\n不足：\n1. 准备不够\n"
    assert read(listed, "b.md")[0].summary == ""


def test_facts_only_as_the_file_states_them(monkeypatch: pytest.MonkeyPatch) -> None:
    no_families(monkeypatch)
    text = (
        "# 后端一面\n\n"
        "姓名：李雷\n面试官：王五、赵六\n面试日期：2026-11-28\n\n"
        "- 介绍项目\n- 讲讲缓存一致性\n- 反问\n  - 面试评价：整体还行\n\n"
        "## 总结\n\n问得很细。\n\n"
        "## Feedback\n\n基础扎实，建议进入二面。\n"
    )
    (one,) = read(text, "li.md")
    assert (one.name, one.interviewers, one.interviewed_at, one.interviewed_at_text) == (
        "李雷",
        ["王五", "赵六"],
        "2026-11-28",
        "2026-11-28",
    )
    assert (one.position, one.round, one.summary) == (None, "一面", "问得很细。")
    assert one.verdict == "基础扎实，建议进入二面。"  # never the `- 面试评价：` item
    assert (one.questions_read, one.questions, one.kind) == (False, [], "notes")


def test_an_item_with_a_verdict_label_is_no_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    no_families(monkeypatch)
    text = "# 一面\n\n- 介绍项目\n- 讲讲缓存一致性\n- 反问\n  - 面试评价：整体还行\n"
    (one,) = read(text, "li.md")
    assert (one.verdict, one.summary, one.questions_read) == (None, "", False)


def test_an_interview_no_family_reads_says_less(monkeypatch: pytest.MonkeyPatch) -> None:
    no_families(monkeypatch)
    (one,) = read("# 一面\n- 自我介绍\n- 讲讲TCP ***没答上来***\n", "x.md")
    assert one.questions_read is False and one.questions == [] and one.unanswered == []
    assert one.body == "一面\n\n- 自我介绍\n- 讲讲TCP 没答上来"


def test_a_dialogue_goes_to_the_dialogue_family_first(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[str] = []

    def qa(blocks: Sequence[Block]) -> list[Question] | None:
        called.append("qa")
        return [Question(number=1, question="为什么离职？", answer="想换方向。", answered=True)]

    def lists(blocks: Sequence[Block]) -> list[Question] | None:
        called.append("lists")
        return None

    monkeypatch.setattr(
        reader,
        "_written_readers",
        lambda family: [qa, lists] if family == "dialogue" else [lists, qa],
    )
    (one,) = read("【问】为什么离职？\n【答】想换方向。\n", "d.txt")
    assert called == ["qa"] and one.questions_read and one.questions[0].answered


def test_one_labelled_file_reads_as_it_always_did() -> None:
    data = "张三的面试\n岗位：SRE 从业年限：3年\n问题1：怎么排障？\n回答：先看日志。\n点评：不错\n".encode()
    (one,) = read_interviews(data, "000_x.txt", "folder/000_x.txt")
    before = parse_transcript(data, "000_x.txt", "folder/000_x.txt")
    assert one.model_copy(update={"body": ""}) == before
    assert one.id == "000_x" and one.body.startswith("张三的面试\n岗位：SRE")


PARTICIPANTS = """# User Interview Transcript – Participant 1
Interviewer: Mia Chen

### Question 1
**What does a typical workday look like?**

**Interviewee:**
Mostly code review and a stand-up.

### Question 2
**What slows you down?**

**Interviewee:**
Switching between tools.

# User Interview Transcript – Participant 2

### Question 1
**What does a typical workday look like?**

**Interviewee:**
Meetings in the morning, writing in the afternoon.

### Question 2
**What slows you down?**

**Interviewee:**
I don't know.
"""


def test_questions_that_start_again_at_1_are_another_interview() -> None:
    """Two people's answers to the same questions are two interviews, never one person's
    four answers (the real (en01) file reads three participants this way)."""
    found = read_interviews(PARTICIPANTS.encode(), "users.md")
    assert [t.id for t in found] == ["users", "users-2"]
    assert [t.round for t in found] == [None, None]
    assert [[(q.number, q.question, q.answer, q.answered) for q in t.questions] for t in found] == [
        [
            (
                1,
                "What does a typical workday look like?",
                "Mostly code review and a stand-up.",
                True,
            ),
            (2, "What slows you down?", "Switching between tools.", True),
        ],
        [
            (
                1,
                "What does a typical workday look like?",
                "Meetings in the morning, writing in the afternoon.",
                True,
            ),
            (2, "What slows you down?", "I don't know.", False),
        ],
    ]
    assert found[0].interviewers == ["Mia Chen"] and found[1].interviewers == []


def test_one_interview_under_a_title_is_not_split_by_its_question_headings() -> None:
    one = PARTICIPANTS.split("# User Interview Transcript – Participant 2")[0]
    found = read_interviews(one.encode(), "users.md")
    assert [t.id for t in found] == ["users"]
    assert [q.number for q in found[0].questions] == [1, 2]


def test_a_position_label_over_a_question_list_is_read_as_the_list() -> None:
    """`岗位：` alone makes the labelled layout's kind, but with no `问题N` it reads no
    question: its 简介 was the whole list. The list is the questions; the position is
    still the file's; the 反问 and 结果 sections are no question, summary or verdict."""
    text = (
        "# 百度 凤巢 一面\n\n岗位：后端开发\n\n## 面试过程\n\n"
        "1. 自我介绍\n2. Go的GMP模型是什么？\n   - 讲了G、M、P的关系和调度过程\n"
        "3. channel底层怎么实现的？ 不会\n\n"
        "## 反问\n\n- 部门技术栈？Go和C++\n- 您觉得我哪里需要加强？面试官说基础还行，深度不够\n\n"
        "## 结果\n\n两天后收到二面通知。\n"
    )
    (t,) = read(text, "bd.md")
    assert (t.id, t.position, t.round, t.name, t.interviewers, t.interviewed_at) == (
        "bd",
        "后端开发",
        "一面",
        None,
        [],
        None,
    )
    assert (t.intro, t.summary, t.verdict, t.years, t.questions_read) == (
        "",
        "",
        None,
        None,
        True,
    )
    assert t.questions == [
        Question(number=1, question="自我介绍", answer_recorded=False),
        Question(
            number=2,
            question="Go的GMP模型是什么？",
            answer="- 讲了G、M、P的关系和调度过程",
            answered=True,
        ),
        Question(
            number=3,
            question="channel底层怎么实现的？",
            answer="不会",
            answered=False,
            unanswered_reason="dont_know",
        ),
    ]


def test_an_interviewers_notes_under_numbered_questions() -> None:
    """An interviewer's notes as text: `没写出来。` says the candidate did not answer,
    and the closing `结论：` line is a remark on the whole, never the last answer."""
    text = (
        "面试反馈\n\n候选人：周杰\n岗位：算法工程师\n面试官：李娜\n\n"
        "1. 讲一下XGBoost和LightGBM的区别\n候选人回答了直方图算法，比较清楚。\n"
        "2. 手写AUC计算\n没写出来。\n\n"
        "结论：不推荐进入下一轮。\n"
    )
    (t,) = read(text, "fb.txt")
    assert (t.id, t.name, t.position, t.interviewers, t.round, t.interviewed_at) == (
        "fb",
        "周杰",
        "算法工程师",
        ["李娜"],
        None,
        None,
    )
    assert (t.summary, t.years, t.questions_read) == ("", None, True)
    assert t.questions == [
        Question(
            number=1,
            question="讲一下XGBoost和LightGBM的区别",
            answer="候选人回答了直方图算法，比较清楚。",
            answered=True,
        ),
        Question(
            number=2,
            question="手写AUC计算",
            answer="没写出来。",
            answered=False,
            unanswered_reason="dont_know",
        ),
    ]


def test_a_count_of_interviewers_is_no_interviewer() -> None:
    """`面试官：两位` says how many, not who: no interviewer is named."""
    text = (
        "# 携程 测试开发 一面\n\n面试官：两位\n\n## 技术问题\n\n"
        "**1. 说说你对测试金字塔的理解**\n\n单元测试最多，UI测试最少。\n\n"
        "**2. Python装饰器的原理？**\n\n这个我没答上来。\n\n"
        "## 反问\n\n我问了团队的测试框架，面试官说是自研的。\n"
    )
    (t,) = read(text, "xc.md")
    assert (t.id, t.round, t.name, t.interviewers, t.position, t.interviewed_at) == (
        "xc",
        "一面",
        None,
        [],
        None,
        None,
    )
    assert (t.summary, t.verdict, t.questions_read) == ("", None, True)
    assert t.questions == [
        Question(
            number=1,
            question="说说你对测试金字塔的理解",
            answer="单元测试最多，UI测试最少。",
            answered=True,
        ),
        Question(
            number=2,
            question="Python装饰器的原理？",
            answer="这个我没答上来。",
            answered=False,
            unanswered_reason="dont_know",
        ),
    ]
