"""A PDF's text as it was written: the soft wraps of its paragraphs are not in the text
(even inside a word: `优\\n缺点`, `具备潜\\n力`), its paragraph breaks are, and a table
(an identity table, a table of questions) reads as the same table in Word. Every PDF
is written by the test with reportlab and its built-in Chinese CID font: Paragraphs in
a frame wrap where the line is full, Tables are ruled."""

from __future__ import annotations

import io

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Table, TableStyle
from test_formats_structure import (
    IDENTITY,
    QUESTIONS,
    SUMMARY,
    TITLE,
    same_interview,
)

from store.transcripts.formats import extract_text
from store.transcripts.parser import parse_transcript

_FONT = "STSong-Light"
pdfmetrics.registerFont(UnicodeCIDFont(_FONT))
BODY = ParagraphStyle("body", fontName=_FONT, fontSize=11, leading=16, wordWrap="CJK")
LATIN = ParagraphStyle("latin", fontName=_FONT, fontSize=11, leading=16)
CELL = ParagraphStyle("cell", fontName=_FONT, fontSize=10, leading=14, wordWrap="CJK")
HEADING = ParagraphStyle("heading", fontName=_FONT, fontSize=18, leading=26)

# long enough to wrap, and to wrap inside a word (`优缺点`, `具备潜力`)
INTRO = (
    "写 Go 和 Flink 的人，做过三年实时数仓，熟悉 Kafka 与 Flink 的优缺点，"
    "能把一个数据平台从零搭起来，也能带新人，是一位具备潜力的候选人，"
    "沟通清楚，回答问题时先讲结论再讲细节，对自己做过的系统的优缺点讲得很透。"
)
LONG_ANSWER = (
    "The partition is the unit of parallelism and of ordering in Kafka: consumers in one "
    "group split the partitions between them, so throughput grows with the partitions."
)
VERDICT = (
    "基础扎实，建议通过。对流处理的语义理解到位，讲 checkpoint 和 exactly-once 的优缺点"
    "时条理清楚，具备潜力；项目经验真实，迁移方案考虑了回滚，建议进入下一轮面试。"
)
ROWS = [(n, q, g, LONG_ANSWER if n == "1" else a) for n, q, g, a in QUESTIONS]

PLAIN = "\n".join(
    [
        SUMMARY,
        *(f"{label}：{value}" for label, value in IDENTITY),
        f"简介：{INTRO}",
        *(
            line
            for n, q, g, a in ROWS
            for line in (f"问题{n}：{q}", f"考察目标：{g}", f"回答：{a}")
        ),
        f"点评：{VERDICT}",
    ]
)
EXPECTED = parse_transcript(PLAIN.encode(), "plain.txt")

GRID = TableStyle(
    [
        ("FONTNAME", (0, 0), (-1, -1), _FONT),
        ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
)


def pdf(story: list[Flowable]) -> bytes:
    out = io.BytesIO()
    SimpleDocTemplate(out).build(story)
    return out.getvalue()


def paragraphs_pdf() -> bytes:
    """Each label line a paragraph in a frame: the long ones wrap where the line is full."""
    story: list[Flowable] = [Paragraph(TITLE, HEADING)]
    for line in PLAIN.split("\n"):
        story.append(Paragraph(line, LATIN if LONG_ANSWER in line else BODY))
    return pdf(story)


def tables_pdf() -> bytes:
    """What Word or LibreOffice print of a file with an identity table and a table of
    questions: the cells' text wraps inside the cells."""
    identity = Table([("项目", "内容"), *IDENTITY], colWidths=[80, 200])
    identity.setStyle(GRID)
    qa = Table(
        [
            ("序号", "问题", "考察目标", "回答"),
            *[(n, Paragraph(q, CELL), g, Paragraph(a, CELL)) for n, q, g, a in ROWS],
        ],
        colWidths=[36, 120, 70, 220],
    )
    qa.setStyle(GRID)
    return pdf(
        [
            Paragraph(TITLE, HEADING),
            Paragraph(SUMMARY, BODY),
            identity,
            Paragraph(f"简介：{INTRO}", BODY),
            qa,
            Paragraph("面试总结", HEADING),
            Paragraph(VERDICT, BODY),
        ]
    )


def test_the_paragraphs_really_wrap_inside_words() -> None:
    """(the test's own check: the writer wraps where the words say it must not)"""
    from pypdf import PdfReader

    raw = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(paragraphs_pdf())).pages)
    assert INTRO not in raw and VERDICT not in raw and LONG_ANSWER not in raw


def test_soft_wraps_are_not_in_the_text() -> None:
    text = extract_text(paragraphs_pdf(), "x.pdf")
    assert f"简介：{INTRO}\n问题1：" in text
    assert f"回答：{LONG_ANSWER}\n" in text
    assert text.endswith(f"点评：{VERDICT}")


def test_a_pdf_of_paragraphs_gives_the_facts_of_the_plain_text() -> None:
    same_interview(parse_transcript(paragraphs_pdf(), "x.pdf"), EXPECTED)


def test_a_pdf_of_tables_gives_the_facts_of_the_plain_text() -> None:
    """Before: the identity table's rows became the summary; name, interviewers, date
    and round were lost, and the table of questions gave no question."""
    t = parse_transcript(tables_pdf(), "x.pdf")
    assert (t.name, t.interviewers, t.round) == ("张三", ["李四", "王五"], "二面")
    same_interview(t, EXPECTED)


def test_paragraph_breaks_stay() -> None:
    """Short lines, each its own paragraph, and a paragraph that ends short of the
    margin: no line is joined to the next."""
    lines = ["这是第一段。", "这是第二段，", "没有写完就换了行。", "Latin words", "on two lines"]
    text = extract_text(pdf([Paragraph(line, BODY) for line in lines]), "x.pdf")
    assert text.split("\n") == lines
