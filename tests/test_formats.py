"""The files people keep: .txt, .md, .docx (Word, WPS), .pdf with a text layer, each read
by the same parser; and what cannot be read (a scanned PDF, an old .doc, an encrypted
file, a spreadsheet) skipped with what to do about it. Every file here is written by
the test itself: the .docx with python-docx, the PDFs with reportlab's built-in Chinese
font (no font file), the Office headers byte by byte."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docx
import pytest
from docx.document import Document
from pypdf import PdfReader, PdfWriter
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas
from support.cli import Ran
from support.cli import debrief as run_debrief
from test_identity import IDENTITY, LABELS, NOBODY

from store.transcripts.errors import NotATranscript, ParseError, Unreadable
from store.transcripts.files import prepare
from store.transcripts.formats import extract_text
from store.transcripts.parser import parse_transcript

ROOT = Path(__file__).resolve().parent.parent

# One transcript, as plain lines: every format below must give the same facts.
LINES = [
    "数据工程师面试记录",
    "姓名：张三",
    "面试官：李四、王五",
    "面试日期：2026年11月28日 14:30",
    "轮次：二面",
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
PLAIN = "\n".join(LINES) + "\n"


def facts(t: Any) -> dict[str, Any]:
    return t.model_dump(exclude={"hash", "source", "id"})


EXPECTED = facts(parse_transcript(PLAIN.encode(), "plain.txt"))


def test_the_reference_has_every_fact() -> None:
    assert EXPECTED["name"] == "张三" and EXPECTED["interviewers"] == ["李四", "王五"]
    assert EXPECTED["interviewed_at"] == "2026-11-28T14:30" and EXPECTED["round"] == "二面"
    assert (EXPECTED["position"], EXPECTED["years"]) == ("数据工程师", 3)
    assert [q["unanswered_reason"] for q in EXPECTED["questions"]] == [None, "empty"]
    assert EXPECTED["summary"] == "" and EXPECTED["verdict"] == "基础扎实，建议通过"


# -- writers ------------------------------------------------------------------------------------


def docx_file(build: Callable[[Document], None]) -> bytes:
    document = docx.Document()
    build(document)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def docx_paragraphs(lines: list[str]) -> bytes:
    def build(document: Document) -> None:
        for line in lines:
            document.add_paragraph(line)

    return docx_file(build)


def docx_table(lines: list[str]) -> bytes:
    """The transcript as a two-column table of label -> value, a title paragraph above."""

    def build(document: Document) -> None:
        document.add_heading(lines[0], level=1)
        table = document.add_table(rows=0, cols=2)
        for line in lines[1:]:
            label, value = line.split("：", 1)
            cells = table.add_row().cells
            cells[0].text = label
            cells[1].text = value

    return docx_file(build)


_FONT = "STSong-Light"
pdfmetrics.registerFont(UnicodeCIDFont(_FONT))


def pdf_file(lines: list[str], per_page: int = 40) -> bytes:
    """A PDF whose text layer is `lines`, in a built-in Chinese CID font."""
    out = io.BytesIO()
    pdf = canvas.Canvas(out)
    for start in range(0, max(len(lines), 1), per_page):
        pdf.setFont(_FONT, 11)
        y = 800
        for line in lines[start : start + per_page]:
            pdf.drawString(50, y, line)
            y -= 16
        pdf.showPage()
    pdf.save()
    return out.getvalue()


def scanned_pdf() -> bytes:
    """A page that is only a picture of text: no text layer."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (400, 200), "white")
    ImageDraw.Draw(image).text((10, 10), "Position: SRE", fill="black")
    out = io.BytesIO()
    pdf = canvas.Canvas(out)
    pdf.drawImage(ImageReader(image), 50, 500, width=400, height=200)
    pdf.showPage()
    pdf.save()
    return out.getvalue()


def locked_pdf(user_password: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_file(LINES))))
    writer.encrypt(user_password, owner_password="owner-secret", algorithm="AES-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def ole2(*streams: str) -> bytes:
    """The start of an OLE2 compound file (what .doc, .xls and encrypted .docx are): its
    signature, then a directory naming its streams in UTF-16."""
    header = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504)
    directory = b"".join(s.encode("utf-16-le").ljust(64, b"\x00") + bytes(64) for s in streams)
    return header + directory + bytes(1024)


def zipped(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    return out.getvalue()


XLSX = zipped(
    {
        "[Content_Types].xml": "<Types/>",
        "xl/workbook.xml": "<workbook/>",
        "xl/worksheets/sheet1.xml": "<worksheet/>",
    }
)
PPTX = zipped({"[Content_Types].xml": "<Types/>", "ppt/presentation.xml": "<p/>"})
ODT = zipped({"mimetype": "application/vnd.oasis.opendocument.text", "content.xml": "<x/>"})


def damaged_docx() -> bytes:
    good = docx_paragraphs(LINES)
    with zipfile.ZipFile(io.BytesIO(good)) as zf:
        files = {n: zf.read(n).decode("utf-8", "replace") for n in zf.namelist()}
    files["word/document.xml"] = "<w:document"  # cut short
    return zipped(files)


# -- each format gives the same facts ------------------------------------------------------------

MARKDOWN = f"""# {LINES[0]}

- **姓名：** 张三
- 面试官：李四、王五
- 面试日期：2026年11月28日 14:30
- 轮次：二面

| 岗位 | 数据工程师 |
|---|---|
| 从业年限 | 3年 |

**简介**：写 Go 和 Flink 的人

## 问题1
讲讲 Kafka 的分区？
- 考察目标：消息队列
- 回答：分区是并行的单位。

**问题2：** Flink 的 checkpoint 怎么做？
- 考察目标：流处理
- 回答：

## 点评
基础扎实，建议通过
"""

FORMATS: dict[str, Callable[[], bytes]] = {
    "plain.txt": lambda: PLAIN.encode(),
    "gb18030.txt": lambda: PLAIN.encode("gb18030"),
    "notes.md": lambda: MARKDOWN.encode(),
    "paragraphs.docx": lambda: docx_paragraphs(LINES),
    "table.docx": lambda: docx_table(LINES),
    "text-layer.pdf": lambda: pdf_file(LINES),
    "two-pages.pdf": lambda: pdf_file(LINES, per_page=8),
    "locked-against-editing.pdf": lambda: locked_pdf(""),
    "word-saved-as.txt": lambda: docx_paragraphs(LINES),  # the bytes say what it is
}


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_every_format_gives_the_same_facts(name: str) -> None:
    assert facts(parse_transcript(FORMATS[name](), name)) == EXPECTED


def test_the_pdf_text_layer_is_chinese() -> None:
    text = extract_text(pdf_file(LINES), "x.pdf")
    assert "面试官：李四、王五" in text and "回答：分区是并行的单位。" in text


def test_a_word_table_with_two_pairs_a_row_and_merged_cells() -> None:
    def build(document: Document) -> None:
        header = document.add_table(rows=2, cols=4)
        for cell, text in zip(
            header.rows[0].cells, ["姓名", "张三", "岗位", "数据工程师"], strict=True
        ):
            cell.text = text
        for cell, text in zip(
            header.rows[1].cells, ["面试官", "李四", "轮次", "终面"], strict=True
        ):
            cell.text = text
        document.add_paragraph("问题1：讲讲 Kafka？")
        answer = document.add_table(rows=3, cols=2)
        answer.cell(0, 0).text = "考察目标"
        answer.cell(0, 1).text = "消息队列"
        label = answer.cell(1, 0).merge(answer.cell(2, 0))  # one label over two rows
        label.text = "回答"
        answer.cell(1, 1).text = "分区。"
        answer.cell(2, 1).text = "还有副本。"
        document.add_paragraph("点评：好")

    t = parse_transcript(docx_file(build), "grid.docx")
    assert (t.name, t.position, t.interviewers, t.round) == ("张三", "数据工程师", ["李四"], "终面")
    q = t.questions[0]
    assert (q.question, q.goal, q.answer) == ("讲讲 Kafka？", "消息队列", "分区。\n还有副本。")
    assert t.verdict == "好"


def test_word_line_breaks_tabs_and_a_label_cell_with_its_colon() -> None:
    def build(document: Document) -> None:
        table = document.add_table(rows=1, cols=2)
        table.cell(0, 0).text = "岗位："
        table.cell(0, 1).text = "SRE"
        document.add_paragraph("问题1：怎么排障？")
        p = document.add_paragraph("回答：先看监控")
        p.add_run().add_break()
        p.add_run("再看日志\t完")

    t = parse_transcript(docx_file(build), "x.docx")
    assert t.position == "SRE"
    assert t.questions[0].answer == "先看监控\n再看日志\t完"


# -- every label name, in each format ------------------------------------------------------------

BODY_LINES = [
    "岗位：数据工程师",
    "从业年限：3年",
    "问题1：讲讲 Kafka？",
    "考察目标：消息队列",
    "回答：分区和副本。",
    "点评：基础扎实",
]
WRITERS: dict[str, Callable[[list[str]], bytes]] = {
    "txt": lambda lines: "\n".join(lines).encode(),
    "md": lambda lines: "\n".join(f"- {line}" for line in lines).encode(),
    "docx": docx_paragraphs,
    "docx-table": lambda lines: docx_table(["面试记录", *lines]),
    "pdf": pdf_file,
}


@pytest.mark.parametrize("writer", sorted(WRITERS))
@pytest.mark.parametrize(("line", "expected"), LABELS, ids=[line for line, _ in LABELS])
def test_every_label_name_in_every_format(writer: str, line: str, expected: dict[str, Any]) -> None:
    line = line.replace(": ", "：", 1) if writer == "docx-table" else line
    data = WRITERS[writer]([line, *BODY_LINES])
    t = parse_transcript(data, f"x.{writer.split('-')[0]}")
    assert {key: getattr(t, key) for key in IDENTITY} == expected
    assert (t.position, t.years, t.summary) == ("数据工程师", 3, "")


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_file_with_none_of_them_in_every_format(writer: str) -> None:
    t = parse_transcript(WRITERS[writer](BODY_LINES), f"x.{writer.split('-')[0]}")
    assert {key: getattr(t, key) for key in IDENTITY} == NOBODY
    assert t.position == "数据工程师"


# -- what cannot be read: skipped, saying what to do --------------------------------------------

UNREADABLE: dict[str, tuple[Callable[[], bytes], str]] = {
    "scanned.pdf": (scanned_pdf, "no text layer: export it with text, or save it as .docx"),
    "locked.pdf": (lambda: locked_pdf("secret"), "encrypted"),
    "old.doc": (lambda: ole2("Root Entry", "WordDocument", "1Table"), "save it as .docx"),
    "locked.docx": (
        lambda: ole2("Root Entry", "EncryptionInfo", "EncryptedPackage"),
        "encrypted",
    ),
    "sheet.xlsx": (lambda: XLSX, "a spreadsheet"),
    "sheet.xls": (lambda: ole2("Root Entry", "Workbook"), "a spreadsheet"),
    "deck.pptx": (lambda: PPTX, "a presentation"),
    "letter.odt": (lambda: ODT, "save it as .docx"),
    "bundle.zip": (lambda: zipped({"a.txt": "岗位：SRE"}), "unzip it"),
    "pictures.docx": (
        lambda: docx_file(lambda d: d.add_paragraph("")),
        "no text in the document",
    ),
    "old.rtf": (lambda: b"{\\rtf1\\ansi \\'b8\\'da\\'ce\\'bb}", "save it as .docx"),
}


@pytest.mark.parametrize("name", sorted(UNREADABLE))
def test_what_cannot_be_read_is_unreadable_with_what_to_do(name: str) -> None:
    make, reason = UNREADABLE[name]
    with pytest.raises(Unreadable) as info:
        parse_transcript(make(), name)
    assert reason in info.value.reason
    assert isinstance(info.value, NotATranscript)  # skipped, never failed


def test_a_damaged_word_file_fails_without_a_traceback() -> None:
    with pytest.raises(ParseError) as info:
        parse_transcript(damaged_docx(), "broken.docx")
    assert not isinstance(info.value, NotATranscript)
    assert "damaged Word file" in info.value.reason


def zip_of_an_unknown_version() -> bytes:
    data = bytearray(docx_paragraphs(LINES))
    central = data.index(b"PK\x01\x02")
    data[central + 6 : central + 8] = (85).to_bytes(2, "little")  # needs zip 8.5
    return bytes(data)


@pytest.mark.parametrize(
    "data",
    [
        b"%PDF-1.7\n" + bytes(range(256)) * 4,
        b"PK\x03\x04" + bytes(200),
        zip_of_an_unknown_version(),
    ],
    ids=["pdf", "zip", "zip version"],
)
def test_damaged_pdf_and_zip_fail_as_parse_errors(data: bytes) -> None:
    with pytest.raises(ParseError) as info:
        parse_transcript(data, "broken")
    assert "damaged" in info.value.reason


def test_prepare_skips_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "scan.pdf").write_bytes(scanned_pdf())
    (tmp_path / "word.docx").write_bytes(docx_table(LINES))
    skipped = prepare(str(tmp_path / "scan.pdf"))
    assert (skipped.skipped, skipped.failure, skipped.transcript) == (
        "no text layer: export it with text, or save it as .docx",
        None,
        None,
    )
    read = prepare(str(tmp_path / "word.docx"))
    assert read.transcript is not None and read.transcript.position == "数据工程师"
    assert "分区是并行的单位" in read.indexed[0][0]  # searchable


# -- debrief index over a folder of all of them --------------------------------------------------


def run_cli(*args: str) -> Ran:
    return run_debrief(*args, cwd=ROOT)


def test_index_a_folder_of_every_format(tmp_path: Path) -> None:
    folder = tmp_path / "transcripts"
    folder.mkdir()
    readable = {
        "plain.txt": PLAIN.encode(),
        "notes.md": MARKDOWN.encode(),
        "word.docx": docx_table(LINES),
        "paper.pdf": pdf_file(LINES),
    }
    for name, data in readable.items():
        (folder / name).write_bytes(data)
    for name, (make, _reason) in UNREADABLE.items():
        (folder / name).write_bytes(make())
    (folder / "README.md").write_text("# Transcripts\n\nOne interview per file.\n", "utf-8")
    (folder / "broken.docx").write_bytes(damaged_docx())
    db = str(tmp_path / "x.db")

    done = run_cli("index", str(folder), "--db", db, "--json")
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    out = json.loads(done.stdout)
    assert sorted(out["indexed"]) == ["notes", "paper", "plain", "word"]
    reasons = {Path(s["path"]).name: s["reason"] for s in out["skipped"]}
    assert set(reasons) == {*UNREADABLE, "README.md"}
    for name, (_make, reason) in UNREADABLE.items():
        assert reason in reasons[name], (name, reasons[name])
    assert [Path(f["path"]).name for f in out["failed"]] == ["broken.docx"]
    assert done.returncode == 0  # the damaged file fails, alone: reported, the run goes on

    for cid in ("notes", "paper", "word"):
        shown = run_cli("show", cid, "--db", db, "--json")
        assert shown.returncode == 0, shown.stderr
        got = json.loads(shown.stdout)
        assert (got["position"], got["years"], got["verdict"]) == (
            "数据工程师",
            3,
            "基础扎实，建议通过",
        ), cid
        assert [q["answer"] for q in got["questions"]] == ["分区是并行的单位。", ""], cid

    again = run_cli("index", str(folder), "--db", db, "--json")
    out = json.loads(again.stdout)
    assert sorted(out["unchanged"]) == ["notes", "paper", "plain", "word"]
