"""A PDF's text as it was written: the soft wraps of its paragraphs are not in the text
(even inside a word: `优\\n缺点`, `具备潜\\n力`), its paragraph breaks are, and a table
(an identity table, a table of questions) reads as the same table in Word. Every PDF
is written by the test with reportlab and its built-in Chinese CID font: Paragraphs in
a frame wrap where the line is full, Tables are ruled."""

from __future__ import annotations

import io
from typing import Any

import pytest
from reportlab.lib import colors
from reportlab.lib.enums import TA_JUSTIFY
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas
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


def tables_pdf(cell: ParagraphStyle = CELL) -> bytes:
    """What Word or LibreOffice print of a file with an identity table and a table of
    questions: the cells' text wraps inside the cells (`cell`: their style)."""
    identity = Table([("项目", "内容"), *IDENTITY], colWidths=[80, 200])
    identity.setStyle(GRID)
    qa = Table(
        [
            ("序号", "问题", "考察目标", "回答"),
            *[(n, Paragraph(q, cell), g, Paragraph(a, cell)) for n, q, g, a in ROWS],
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


# -- as Word prints them (issue 46) ---------------------------------------------------------


def word_like_pdf(left: float = 72, right: float = 72, **style: Any) -> bytes:
    """`PLAIN` a paragraph a line, set as Word sets a document: its line spacing, its
    indents, its margins (`style`: reportlab's names for them)."""
    body = ParagraphStyle("word", fontName=_FONT, fontSize=10.5, wordWrap="CJK", **style)
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=A4, leftMargin=left, rightMargin=right).build(
        [Paragraph(line, body) for line in PLAIN.split("\n")]
    )
    return out.getvalue()


WORD_SETTINGS: dict[str, dict[str, Any]] = {
    "single": {"leading": 14},
    "1.5 lines": {"leading": 21},
    "double": {"leading": 28},
    "fixed 28 pt": {"leading": 28, "spaceAfter": 0},
    "first-line indent": {"leading": 14, "firstLineIndent": 21},
    "hanging indent": {"leading": 14, "leftIndent": 31.5, "firstLineIndent": -31.5},
    "justified": {"leading": 14, "alignment": TA_JUSTIFY},
    "right margin wider than the left": {"leading": 14, "right": 150},
    "left margin wider than the right": {"leading": 14, "left": 150},
}


@pytest.mark.parametrize("setting", sorted(WORD_SETTINGS))
def test_soft_wraps_go_whatever_the_line_spacing_indents_and_margins(setting: str) -> None:
    """Before: at 1.5 or double spacing, under a hanging indent or a right margin wider
    than the left one, every wrap stayed in the text."""
    kw = dict(WORD_SETTINGS[setting])
    margins = {side: kw.pop(side) for side in ("left", "right") if side in kw}
    data = word_like_pdf(**margins, **kw)
    text = extract_text(data, "x.pdf")
    assert text.split("\n")[-1] == f"点评：{VERDICT}"
    assert f"简介：{INTRO}\n" in text and f"回答：{LONG_ANSWER}\n" in text
    same_interview(parse_transcript(data, "x.pdf"), EXPECTED)


def test_a_full_line_that_ends_a_sentence_ends_its_paragraph() -> None:
    """Two paragraphs, the first one's last line as full as a line can be: the line
    after a sentence's end starts a new one, a line broken mid-sentence joins."""
    full = (
        "候选人在上一家公司负责实时数仓的建设，从零搭起了流处理平台，日均十亿条消息，并主导迁移。"
    )
    cut = "候选人在上一家公司负责实时数仓的建设，从零搭起了流处理平台，日均十亿条消息，并在迁移期间"
    size = (595 - 2 * 50) / len(full)  # each line exactly as wide as the page's text
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4)
    page.setFont(_FONT, size)
    for y, line in ((800, full), (800 - 1.4 * size, "第二段从这里开始。"), (700, cut)):
        page.drawString(50, y, line)
    page.drawString(50, 700 - 1.4 * size, "没有丢失数据。")
    page.showPage()
    page.save()
    text = extract_text(out.getvalue(), "x.pdf")
    assert text.split("\n") == [full, "第二段从这里开始。", cut + "没有丢失数据。"]


def test_headers_footers_and_page_numbers_are_not_in_the_text() -> None:
    """A running header and a page number on every page: before, they cut the answer
    that runs on over the pages, and the last page's number ended the verdict."""
    answer = "，".join([INTRO.rstrip("。")] * 12) + "。"

    def furniture(c: canvas.Canvas, doc: Any) -> None:
        c.setFont(_FONT, 9)
        c.drawString(72, A4[1] - 40, "某某科技 面试记录（内部）")
        c.drawCentredString(A4[0] / 2, 30, f"第 {doc.page} 页 共 3 页")

    lines = [
        "岗位：数据工程师",
        "问题1：讲讲你做过的系统？",
        f"回答：{answer}",
        f"点评：{VERDICT}",
    ]
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=A4).build(
        [
            Paragraph(line, ParagraphStyle("big", parent=BODY, fontSize=16, leading=40))
            for line in lines
        ],
        onFirstPage=furniture,
        onLaterPages=furniture,
    )
    data = out.getvalue()
    from pypdf import PdfReader

    assert len(PdfReader(io.BytesIO(data)).pages) >= 2  # (the test's own check)
    assert extract_text(data, "x.pdf").split("\n") == lines
    t = parse_transcript(data, "x.pdf")
    assert (t.summary, t.questions[0].answer, t.verdict) == ("", answer, VERDICT)


# An identity table as Word prints it when its borders are off or only around it, and one
# with the labels in a row over their values.
IDENTITY_GRIDS: dict[str, tuple[list[tuple[str, ...]], list[Any]]] = {
    "two pairs a row, no borders": (
        [
            ("候选人", "张三", "面试官", "李四、王五"),
            ("面试日期", "2026年11月28日 14:30", "轮次", "二面"),
        ],
        [],
    ),
    "two pairs a row, a box around": (
        [
            ("候选人", "张三", "面试官", "李四、王五"),
            ("面试日期", "2026年11月28日 14:30", "轮次", "二面"),
        ],
        [("BOX", (0, 0), (-1, -1), 0.5, colors.black)],
    ),
    "labels over values, ruled": (
        [
            ("姓名", "面试官", "面试日期", "轮次"),
            ("张三", "李四、王五", "2026年11月28日 14:30", "二面"),
        ],
        [("GRID", (0, 0), (-1, -1), 0.5, colors.black)],
    ),
    "labels over values, no borders": (
        [
            ("姓名", "面试官", "面试日期", "轮次"),
            ("张三", "李四、王五", "2026年11月28日 14:30", "二面"),
        ],
        [],
    ),
}


@pytest.mark.parametrize("layout", sorted(IDENTITY_GRIDS))
def test_an_identity_table_printed_from_word_keeps_who_and_when(layout: str) -> None:
    rows, style = IDENTITY_GRIDS[layout]
    over = rows[0][1] == "面试官"  # labels over their values
    table = Table(rows, colWidths=[60, 100, 170, 60] if over else [70, 130, 70, 170])
    table.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), _FONT), *style]))
    rest = [
        line
        for line in PLAIN.split("\n")
        if not line.startswith(("姓名", "面试官", "面试日期", "轮次"))
    ]
    data = pdf(
        [
            Paragraph(TITLE, HEADING),
            Paragraph(rest[0], BODY),
            table,
            *(Paragraph(x, BODY) for x in rest[1:]),
        ]
    )
    t = parse_transcript(data, "x.pdf")
    assert (t.name, t.interviewers, t.interviewed_at_text, t.round) == (
        "张三",
        ["李四", "王五"],
        "2026年11月28日 14:30",
        "二面",
    )
    same_interview(t, EXPECTED)


def test_wraps_inside_a_table_cell_at_double_spacing() -> None:
    """A cell's lines at Word's double spacing: its own usual gap, not a fixed one."""
    double = ParagraphStyle("double", parent=CELL, leading=28)
    t = parse_transcript(tables_pdf(double), "x.pdf")
    assert t.questions[0].answer == LONG_ANSWER
    same_interview(t, EXPECTED)
