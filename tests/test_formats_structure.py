"""Tables are structure, layout is not text: one interview, kept as recruiting teams keep
it (a Word file with an identity table and a table of questions, the same in Markdown,
LibreOffice's and pandoc's HTML, LibreOffice's .odt), gives every fact the plain text
of the same interview gives, field by field. Every file is written by the test itself:
python-docx, odfpy, Markdown and HTML strings as pandoc and LibreOffice write them."""

from __future__ import annotations

import html
import io
import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docx
import pytest
from docx.document import Document
from odf.opendocument import OpenDocumentText
from odf.table import Table, TableCell, TableColumn, TableHeaderRows, TableRow
from odf.text import H, P, Span
from support.cli import debrief as run_debrief

from store.models import Transcript
from store.transcripts.errors import NotATranscript, ParseError, Unreadable
from store.transcripts.parser import parse_transcript

ROOT = Path(__file__).resolve().parent.parent

TITLE = "张三面试记录"
SUMMARY = "候选人基础扎实，沟通顺畅。"
IDENTITY = [
    ("姓名", "张三"),
    ("面试官", "李四、王五"),
    ("面试日期", "2026年11月28日 14:30"),
    ("轮次", "二面"),
    ("岗位", "数据工程师"),
    ("从业年限", "3年"),
]
INTRO = "写 Go 和 Flink 的人，做过三年实时数仓。"
# (number, question, goal, answer): 3 answered, 2 not
QUESTIONS = [
    ("1", "讲讲 Kafka 的分区？", "消息队列", "分区是并行的单位。"),
    ("2", "Flink 的 checkpoint 怎么做？", "流处理", ""),
    ("3", "数据倾斜怎么处理？", "调优", "加盐打散，再两阶段聚合。"),
    ("4", "讲讲 exactly-once？", "语义", ""),
    ("5", "你做过最难的项目？", "项目经验", "实时数仓的迁移，停机不超过五分钟。"),
]
VERDICT = "基础扎实，建议通过。"

PLAIN = "\n".join(
    [
        SUMMARY,
        *(f"{label}：{value}" for label, value in IDENTITY),
        f"简介：{INTRO}",
        *(
            line
            for n, q, g, a in QUESTIONS
            for line in (f"问题{n}：{q}", f"考察目标：{g}", f"回答：{a}")
        ),
        f"点评：{VERDICT}",
    ]
)

FIELDS = (
    "name",
    "interviewers",
    "interviewed_at",
    "interviewed_at_text",
    "round",
    "position",
    "years",
    "years_text",
    "intro",
    "summary",
    "verdict",
)


def same_interview(got: Transcript, expected: Transcript) -> None:
    """Every fact of `got` is the fact of `expected`, field by field, question by question."""
    for field in FIELDS:
        assert getattr(got, field) == getattr(expected, field), field
    assert len(got.questions) == len(expected.questions)
    for mine, theirs in zip(got.questions, expected.questions, strict=True):
        for field in ("number", "question", "goal", "answer", "answered", "unanswered_reason"):
            assert getattr(mine, field) == getattr(theirs, field), (mine.number, field)


EXPECTED = parse_transcript(PLAIN.encode(), "plain.txt")


def test_the_reference_has_every_fact() -> None:
    assert (EXPECTED.name, EXPECTED.interviewers, EXPECTED.round) == (
        "张三",
        ["李四", "王五"],
        "二面",
    )
    assert (EXPECTED.interviewed_at, EXPECTED.position, EXPECTED.years) == (
        "2026-11-28T14:30",
        "数据工程师",
        3,
    )
    assert (EXPECTED.intro, EXPECTED.summary, EXPECTED.verdict) == (INTRO, SUMMARY, VERDICT)
    assert [q.answered for q in EXPECTED.questions] == [True, False, True, False, True]


# -- writers ------------------------------------------------------------------------------------


def docx_bytes(build: Callable[[Document], None]) -> bytes:
    document = docx.Document()
    build(document)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def word_tables() -> bytes:
    """As Word or pandoc make it: a title, the summary, an identity table with its header
    row `项目 | 内容`, the profile, a table of questions with its header row, a heading
    `面试总结` and the verdict under it."""

    def build(document: Document) -> None:
        document.add_heading(TITLE, level=0)
        document.add_paragraph(SUMMARY)
        document.add_heading("基本信息", level=2)
        table = document.add_table(rows=1, cols=2)
        table.rows[0].cells[0].text, table.rows[0].cells[1].text = "项目", "内容"
        for label, value in IDENTITY:
            cells = table.add_row().cells
            cells[0].text, cells[1].text = label, value
        document.add_paragraph(f"简介：{INTRO}")
        document.add_heading("问答", level=2)
        qa = document.add_table(rows=1, cols=4)
        for cell, head in zip(qa.rows[0].cells, ("序号", "问题", "考察目标", "回答"), strict=True):
            cell.text = head
        for row in QUESTIONS:
            for cell, value in zip(qa.add_row().cells, row, strict=True):
                cell.text = value
        document.add_heading("面试总结", level=2)
        document.add_paragraph(VERDICT)

    return docx_bytes(build)


def markdown_rows(rows: list[tuple[str, ...]]) -> list[str]:
    return [f"| {' | '.join(rows[0])} |", "|" + "---|" * len(rows[0])] + [
        f"| {' | '.join(row)} |" for row in rows[1:]
    ]


# the columns in another order, and the answers in bold: layout
MARKDOWN = "\n".join(
    [
        f"# {TITLE}",
        "",
        SUMMARY,
        "",
        "## 基本信息",
        "",
        *markdown_rows([("项目", "内容"), *IDENTITY]),
        "",
        f"**简介**：{INTRO}",
        "",
        "## 问答",
        "",
        *markdown_rows(
            [("问题", "回答", "考察目标", "序号")]
            + [(q, f"**{a}**" if a else "", g, n) for n, q, g, a in QUESTIONS]
        ),
        "",
        "## 面试总结",
        "",
        f"__{VERDICT}__",
        "",
    ]
)


def html_table(rows: list[tuple[str, ...]], pandoc: bool) -> str:
    def cell(tag: str, text: str) -> str:
        inner = html.escape(text)
        return (
            f"<{tag}>{inner}</{tag}>" if pandoc else f'<{tag} valign="top"><p>{inner}</p></{tag}>'
        )

    head = "".join(cell("th", c) for c in rows[0])
    body = "\n".join(
        f'<tr class="{"odd" if i % 2 else "even"}">' + "".join(cell("td", c) for c in row) + "</tr>"
        for i, row in enumerate(rows[1:], 1)
    )
    if pandoc:
        return f'<table>\n<thead>\n<tr class="header">{head}</tr>\n</thead>\n<tbody>\n{body}\n</tbody>\n</table>'
    return f'<table width="100%" cellpadding="4" cellspacing="0">\n<col width="128*"/><col width="128*"/>\n<tr>{head}</tr>\n{body}\n</table>'


def pandoc_html() -> bytes:
    """As `pandoc -s -t html5` writes it: a title block, `<strong>` labels, tables with
    `<thead>`, a style sheet in the head."""
    qa = [("序号", "问题", "考察目标", "回答"), *QUESTIONS]
    page = f"""<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="zh" xml:lang="zh">
<head>
  <meta charset="utf-8" />
  <meta name="generator" content="pandoc" />
  <title>{TITLE}</title>
  <style>
    body {{ margin: 0 auto; }} p:before {{ content: "岗位：假的"; }}
  </style>
  <script>var note = "点评：不是这个";</script>
</head>
<body>
<header id="title-block-header">
<h1 class="title">{TITLE}</h1>
</header>
<p>{SUMMARY}</p>
<h2 id="基本信息">基本信息</h2>
{html_table([("项目", "内容"), *IDENTITY], pandoc=True)}
<p><strong>简介</strong>：{INTRO}</p>
<h2 id="问答">问答</h2>
{html_table(qa, pandoc=True)}
<h2 id="面试总结">面试总结</h2>
<p>{VERDICT}</p>
</body>
</html>
"""
    return page.encode("utf-8")


def libreoffice_html() -> bytes:
    """As LibreOffice Writer saves a page: HTML 4 with the charset in a meta tag (here
    GB2312), a `<p class="western">` a label line, long paragraphs wrapped in the
    source, entities, `<font>` and `<br/>`, a table of questions with `<col>`s."""
    lines = [
        f'<p class="western" style="margin-bottom: 0in; line-height: 100%">{label}：{value}</p>'
        for label, value in IDENTITY
    ]
    qa = [("序号", "问题", "考察目标", "回答"), *QUESTIONS]
    page = f"""<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.0 Transitional//EN">
<html>
<head>
	<meta http-equiv="content-type" content="text/html; charset=gb2312"/>
	<title></title>
	<meta name="generator" content="LibreOffice 7.3.7.2 (Linux)"/>
	<style type="text/css">
		@page {{ size: 8.27in 11.69in; margin: 0.79in }}
		p {{ margin-bottom: 0.1in; line-height: 115%; background: transparent }}
	</style>
</head>
<body lang="zh-CN" link="#000080" vlink="#800000" dir="ltr"><p class="western" style="margin-bottom: 0in; line-height: 100%">
<font face="Noto Sans CJK SC">候选人基础扎实，
沟通顺畅。</font></p>
{chr(10).join(lines)}
<p class="western" style="margin-bottom: 0in">简介：写&nbsp;Go 和 Flink 的人，做过三年实时数仓。</p>
{html_table(qa, pandoc=False)}
<p class="western"><br/>
</p>
<p class="western">点评：基础扎实，<b>建议通过</b>。</p>
</body>
</html>
"""
    return page.replace("写&nbsp;Go", "写 Go").encode("gb18030")


def odt_bytes(build: Callable[[OpenDocumentText], None]) -> bytes:
    document = OpenDocumentText()
    build(document)
    out = io.BytesIO()
    document.write(out)
    return out.getvalue()


def odt_table(name: str, rows: list[tuple[str, ...]]) -> Table:
    table = Table(name=name)
    table.addElement(TableColumn(numbercolumnsrepeated=len(rows[0])))
    header = TableHeaderRows()
    table.addElement(header)
    for at, row in enumerate(rows):
        tr = TableRow()
        for value in row:
            cell = TableCell(valuetype="string")
            cell.addElement(P(text=value))
            tr.addElement(cell)
        (header if at == 0 else table).addElement(tr)
    return table


def libreoffice_odt() -> bytes:
    """LibreOffice's own format: a heading for the title, paragraphs, tables with a
    header row, a span inside a paragraph."""

    def build(document: OpenDocumentText) -> None:
        body = document.text
        body.addElement(H(outlinelevel=1, text=TITLE))
        body.addElement(P(text=SUMMARY))
        body.addElement(H(outlinelevel=2, text="基本信息"))
        body.addElement(odt_table("identity", [("项目", "内容"), *IDENTITY]))
        intro = P(text="简介：")
        intro.addElement(Span(text=INTRO))
        body.addElement(intro)
        body.addElement(odt_table("qa", [("序号", "问题", "考察目标", "回答"), *QUESTIONS]))
        body.addElement(H(outlinelevel=2, text="面试总结"))
        body.addElement(P(text=VERDICT))

    return odt_bytes(build)


def word_paragraphs() -> bytes:
    def build(document: Document) -> None:
        for line in PLAIN.split("\n"):
            document.add_paragraph(line)

    return docx_bytes(build)


WRITERS: dict[str, Callable[[], bytes]] = {
    "word-tables.docx": word_tables,
    "word-paragraphs.docx": word_paragraphs,
    "notes.md": lambda: MARKDOWN.encode(),
    "pandoc.html": pandoc_html,
    "libreoffice.htm": libreoffice_html,
    "writer.odt": libreoffice_odt,
    "page-saved-as.txt": pandoc_html,  # the bytes say what it is
}


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_every_layout_gives_the_facts_of_the_plain_text(name: str) -> None:
    same_interview(parse_transcript(WRITERS[name](), name), EXPECTED)


def test_a_word_table_of_questions_is_a_question_a_row() -> None:
    """Before: 5 questions whose text held question, goal and answer run together, and
    `已回答 0 题，未回答 5 题` (the truth is 3 and 2)."""
    t = parse_transcript(word_tables(), "x.docx")
    assert [(q.number, q.question, q.goal) for q in t.questions] == [
        (int(n), q, g) for n, q, g, _a in QUESTIONS
    ]
    assert sum(q.answered for q in t.questions) == 3


def test_a_table_of_questions_without_numbers_counts_its_rows() -> None:
    text = "岗位：SRE\n\n| Question | Answer | Goal |\n|---|---|---|\n| 怎么排障？ | 看监控 | 思路 |\n| 怎么扩容？ |  | 容量 |\n"
    t = parse_transcript(text.encode(), "x.md")
    got = [(q.number, q.question, q.goal, q.answer, q.answered) for q in t.questions]
    assert got == [(1, "怎么排障？", "思路", "看监控", True), (2, "怎么扩容？", "容量", "", False)]


def test_traditional_column_names() -> None:
    rows = [("序號", "問題", "考察目標", "答案"), ("1", "怎麼排障？", "思路", "看監控")]
    text = "岗位：SRE\n" + "\n".join(markdown_rows(rows))
    t = parse_transcript(text.encode(), "x.md")
    assert [(q.question, q.goal, q.answer) for q in t.questions] == [
        ("怎麼排障？", "思路", "看監控")
    ]


def test_layout_is_never_text_of_a_field() -> None:
    """The header row of an identity table, a heading, a title: before, they ended up in
    面试总结."""
    md = f"# {TITLE}\n\n## 基本信息\n\n| 项目 | 内容 |\n|---|---|\n| 岗位 | 数据工程师 |\n\n## 面试总结\n\n{VERDICT}\n"
    t = parse_transcript(md.encode(), "x.md")
    assert (t.position, t.summary) == ("数据工程师", VERDICT)
    for name in ("word-tables.docx", "notes.md", "pandoc.html", "writer.odt"):
        t = parse_transcript(WRITERS[name](), name)
        text = " ".join([t.summary, t.intro, t.verdict or "", *(q.answer for q in t.questions)])
        for layout in ("项目", "内容", "基本信息", "问答", TITLE, "**", "__", "|", "#"):
            assert layout not in text, (name, layout)


def test_plain_text_keeps_what_only_looks_like_markdown() -> None:
    text = "岗位：SRE\n问题1：Python 的入口？\n考察目标：基础\n回答：写在 __init__.py 里，2**10 是 1024。\n- 先看文档\n"
    t = parse_transcript(text.encode(), "x.txt")
    assert t.questions[0].answer == "写在 __init__.py 里，2**10 是 1024。\n- 先看文档"


def test_html_only_when_it_clearly_is() -> None:
    """A .txt or .md with a `<br>` in it is text; a .txt that starts as a web page is one."""
    text = "岗位：SRE\n问题1：换行怎么写？\n考察目标：HTML\n回答：用 <p> 和 <br> 标签。\n"
    t = parse_transcript(text.encode(), "x.txt")
    assert t.questions[0].answer == "用 <p> 和 <br> 标签。"
    page = b"\xef\xbb\xbf  <html><body><p>\xe5\xb2\x97\xe4\xbd\x8d\xef\xbc\x9aSRE</p></body></html>"
    assert parse_transcript(page, "x.txt").position == "SRE"


def test_html_drops_scripts_and_styles_and_reads_entities() -> None:
    page = (
        "<html><head><script>岗位：假的</script><style>p{}</style></head><body>"
        "<p>岗位：SRE &amp; DBA</p><p>问题1：怎么&lt;排障&gt;？</p><p>考察目标：思路</p>"
        "<p>回答：先看<br>监控</p><noscript>点评：没有</noscript></body></html>"
    )
    t = parse_transcript(page.encode(), "x.html")
    assert (t.position, t.questions[0].question) == ("SRE & DBA", "怎么<排障>？")
    assert (t.questions[0].answer, t.verdict) == ("先看\n监控", None)


# -- what stays refused ---------------------------------------------------------------------------


def zipped(files: dict[str, str | bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return out.getvalue()


def with_member(data: bytes, name: str, value: str) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        files: dict[str, str | bytes] = {n: zf.read(n) for n in zf.namelist()}
    files[name] = value
    return zipped(files)


REFUSED: dict[str, tuple[Callable[[], bytes], str]] = {
    "sheet.ods": (
        lambda: zipped({"mimetype": "application/vnd.oasis.opendocument.spreadsheet"}),
        "a spreadsheet",
    ),
    "deck.odp": (
        lambda: zipped({"mimetype": "application/vnd.oasis.opendocument.presentation"}),
        "a presentation",
    ),
    "locked.odt": (
        lambda: with_member(
            libreoffice_odt(),
            "META-INF/manifest.xml",
            '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
            "<manifest:file-entry><manifest:encryption-data/></manifest:file-entry>"
            "</manifest:manifest>",
        ),
        "encrypted",
    ),
    "pictures.odt": (
        lambda: odt_bytes(lambda d: d.text.addElement(P(text=""))),
        "save it as .docx",
    ),
    "old.rtf": (lambda: b"{\\rtf1\\ansi hello}", "save it as .docx"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_what_stays_refused_says_why(name: str) -> None:
    make, reason = REFUSED[name]
    with pytest.raises(Unreadable) as info:
        parse_transcript(make(), name)
    assert reason in info.value.reason


def test_a_damaged_odt_fails_and_entities_are_never_expanded() -> None:
    broken = with_member(libreoffice_odt(), "content.xml", "<office:document-content")
    with pytest.raises(ParseError) as info:
        parse_transcript(broken, "broken.odt")
    assert not isinstance(info.value, NotATranscript) and "damaged" in info.value.reason
    secret = Path(__file__)
    entity = with_member(
        libreoffice_odt(),
        "content.xml",
        f'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file://{secret}">]>'
        '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
        ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:text>'
        "<text:p>岗位：&x;</text:p></office:text></office:body></office:document-content>",
    )
    try:
        t = parse_transcript(entity, "entity.odt")
    except ParseError:
        return
    assert "Tables are structure" not in (t.position or "")


# -- debrief index, both backends -----------------------------------------------------------------


@pytest.mark.both_backends
def test_index_one_of_each_through_the_cli(db_target: str, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "plain.txt").write_text(PLAIN, "utf-8")
    for name, make in WRITERS.items():
        (folder / name).write_bytes(make())

    def run(*args: str) -> Any:
        done = run_debrief(*args, "--json", env={"DEBRIEF_DB": db_target}, cwd=ROOT)
        assert "Traceback" not in done.stderr, done.stderr
        return json.loads(done.stdout)

    out = run("index", str(folder))
    assert (out["failed"], out["skipped"]) == ([], [])
    ids = [*sorted(Path(n).stem for n in WRITERS), "plain"]
    assert sorted(out["indexed"]) == sorted(ids)
    reference = run("show", "plain")
    keys = [
        "name",
        "interviewers",
        "interviewed_at",
        "round",
        "position",
        "years",
        "intro",
        "summary",
        "verdict",
    ]
    for cid in ids:
        shown = run("show", cid)
        assert {k: shown[k] for k in keys} == {k: reference[k] for k in keys}, cid
        got = [(q["question"], q["goal"], q["answer"], q["answered"]) for q in shown["questions"]]
        want = [
            (q["question"], q["goal"], q["answer"], q["answered"]) for q in reference["questions"]
        ]
        assert got == want, cid


def test_a_table_of_labels_over_their_values_reads_a_column_at_a_time() -> None:
    """`姓名 | 面试官 | 面试日期 | 轮次` over the values, in Word and in Markdown: before,
    the first row paired its own labels (`姓名：面试官`, the name 面试官)."""
    labels = ("姓名", "面试官", "面试日期", "轮次")
    values = ("张三", "李四、王五", "2026年11月28日 14:30", "二面")
    rest = [line for line in PLAIN.split("\n") if not line.startswith(labels)]

    def build(document: Document) -> None:
        document.add_paragraph(rest[0])
        table = document.add_table(rows=2, cols=4)
        for row, cells in zip(table.rows, (labels, values), strict=True):
            for cell, text in zip(row.cells, cells, strict=True):
                cell.text = text
        for line in rest[1:]:
            document.add_paragraph(line)

    markdown = "\n".join([rest[0], "", *markdown_rows([labels, values]), "", *rest[1:]])
    for name, data in (("x.docx", docx_bytes(build)), ("x.md", markdown.encode())):
        t = parse_transcript(data, name)
        assert (t.name, t.interviewers, t.interviewed_at_text, t.round) == (
            "张三",
            ["李四", "王五"],
            "2026年11月28日 14:30",
            "二面",
        ), name
        same_interview(t, EXPECTED)
