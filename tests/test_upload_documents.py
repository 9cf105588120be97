"""Word files and PDFs shared in Slack, and dropped in the watched folder, are read by the
same parser as `debrief index`: signed `file_share` events against the strict fake Slack,
on SQLite and PostgreSQL. What cannot be read is answered with what to do; pictures,
sound, video and zip archives are never fetched; a document may be larger than a text
file (20 MB, its text still bounded), a text file still 5 MB."""

from __future__ import annotations

import io
import json
import os
import shutil
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.slackbot import Bot
from support.waiting import wait_until
from support.web_api import FakeFile
from test_card import head
from test_formats import XLSX, docx_paragraphs, ole2, pdf_file, scanned_pdf
from test_uploads import audit, reply_to, share

from bot.watcher import FolderWatcher
from store.sqlite.store import Store

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
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
    "回答：",
    "点评：基础扎实，建议通过",
]
MB = 1024 * 1024


def lines_for(name: str) -> list[str]:
    return [line.replace("张三", name) for line in LINES]


def with_filler(docx: bytes, size: int) -> bytes:
    """A Word file made `size` bytes larger by a picture-like part it does not read."""
    out = io.BytesIO(docx)
    with zipfile.ZipFile(out, "a", compression=zipfile.ZIP_STORED) as zf:
        zf.writestr("word/media/image1.bin", os.urandom(size))
    return out.getvalue()


def card_header(bot: Bot, ts: str) -> str:
    reply = reply_to(bot, ts)
    header, _context = head({"blocks": reply["blocks"]})
    return header


def test_a_word_file_and_a_pdf_are_read_indexed_and_answered_with_the_card(bot: Bot) -> None:
    ts = share(bot, FakeFile("D1", "张三.docx", docx_paragraphs(LINES), mimetype=DOCX_TYPE))
    assert card_header(bot, ts) == "张三 · 数据工程师 · 二面 · 2026-11-28 14:30"
    assert (bot.settings.uploads_dir / "张三.docx").exists()
    c = bot.store.get_candidate("张三")
    assert c is not None and c.interviewers == ["李四", "王五"]

    pdf = FakeFile("D2", "钱七.pdf", pdf_file(lines_for("钱七")), mimetype="application/pdf")
    ts = share(bot, pdf)
    assert card_header(bot, ts) == "钱七 · 数据工程师 · 二面 · 2026-11-28 14:30"
    assert [cid for _who, cid, _ch in audit(bot, "upload")] == ["张三", "钱七"]
    assert [h.id for h in bot.store.search("分区是并行的单位")][:2] != []


def test_a_word_file_larger_than_a_text_file_may_be_is_read(bot: Bot) -> None:
    big = with_filler(docx_paragraphs(lines_for("赵六")), 8 * MB)
    assert 5 * MB < len(big) < 20 * MB
    ts = share(bot, FakeFile("D3", "big.docx", big, mimetype=DOCX_TYPE))
    assert card_header(bot, ts) == "赵六 · 数据工程师 · 二面 · 2026-11-28 14:30"
    # a text file of that size is still too large, and is not fetched
    text = "\n".join(lines_for("钱七")).encode() + b"\n" + b"x" * (8 * MB)
    ts = share(bot, FakeFile("D3t", "big.txt", text))
    assert "（上限 5 MB）" in reply_to(bot, ts)["text"]
    assert bot.fake.calls("files/T0001-D3t") == []


@pytest.mark.parametrize(
    ("name", "content", "mimetype", "limit"),
    [
        ("huge.pdf", b"%PDF-1.7\n" + bytes(21 * MB), "application/pdf", "20 MB"),
        ("huge.docx", b"PK\x03\x04" + bytes(21 * MB), DOCX_TYPE, "20 MB"),
    ],
    ids=["pdf", "docx"],
)
def test_too_large_is_refused_before_it_is_fetched(
    bot: Bot, name: str, content: bytes, mimetype: str, limit: str
) -> None:
    ts = share(bot, FakeFile("D4", name, content, mimetype=mimetype))
    text = reply_to(bot, ts)["text"]
    assert text.startswith("无法读取这份面试记录：文件太大，不像一份面试记录")
    assert f"（上限 {limit}）" in text
    assert bot.fake.calls("files/T0001-D4") == []  # never downloaded


@pytest.mark.parametrize(
    ("name", "content", "mimetype", "reason"),
    [
        (
            "old.doc",
            ole2("Root Entry", "WordDocument", "1Table"),
            "application/msword",
            "旧版 Word 文件（.doc）：请另存为 .docx",
        ),
        (
            "sheet.xlsx",
            XLSX,
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "这是电子表格，不是面试记录",
        ),
        (
            "scan.pdf",
            scanned_pdf(),
            "application/pdf",
            "PDF 没有文字层（是扫描件吗？）：请导出带文字的 PDF，或另存为 .docx",
        ),
    ],
    ids=["doc", "xlsx", "scanned pdf"],
)
def test_what_cannot_be_read_is_fetched_and_answered_with_what_to_do(
    bot: Bot, name: str, content: bytes, mimetype: str, reason: str
) -> None:
    ts = share(bot, FakeFile("D5", name, content, mimetype=mimetype))
    text = reply_to(bot, ts)["text"]
    assert text.startswith("无法读取这个文件：") and reason in text, text
    [download] = bot.fake.calls("files/T0001-D5")
    assert download.ok  # the parser, not the mimetype, said why
    assert not bot.settings.uploads_dir.exists()  # nothing kept
    assert audit(bot, "upload:rejected") == [("U123", None, "C123")]


def test_a_zip_and_a_picture_are_never_fetched(bot: Bot) -> None:
    archive = FakeFile("D6", "all.zip", b"PK\x03\x04" + bytes(100), mimetype="application/zip")
    text = reply_to(bot, share(bot, archive))["text"]
    assert text == "无法读取这个文件：这是 zip 压缩包，不是面试记录：请解压，再收录里面的文件"
    picture = FakeFile("D7", "scan.jpg", b"\xff\xd8\xff" + bytes(100), mimetype="image/jpeg")
    text = reply_to(bot, share(bot, picture))["text"]
    assert text == (
        "这不是面试记录：不是文字文件（image/jpeg）：请把面试记录存为 .docx、.txt 或 .md 再分享"
    )
    assert bot.fake.calls("files/T0001-D6") == [] and bot.fake.calls("files/T0001-D7") == []


@pytest.fixture
def watched(store: Store, tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "watched"
    folder.mkdir()
    watcher = FolderWatcher(store, str(folder), interval=0.2, mode="auto").start()
    try:
        assert watcher.ready.wait(15)
        yield folder
    finally:
        watcher.stop()


def test_the_folder_watcher_reads_word_files_and_pdfs(
    store: Store, watched: Path, tmp_path: Path
) -> None:
    for name, data in (
        ("word.docx", docx_paragraphs(lines_for("孙八"))),
        ("paper.pdf", pdf_file(lines_for("吴十"))),
    ):
        (tmp_path / name).write_bytes(data)
        shutil.move(tmp_path / name, watched / name)  # whole, as a finished writer leaves it
    names = wait_until(
        "both indexed",
        lambda: (
            {c: getattr(store.get_candidate(c), "name", None) for c in ("word", "paper")}
            if all(store.get_candidate(c) for c in ("word", "paper"))
            else None
        ),
        timeout=30,
    )
    assert names == {"word": "孙八", "paper": "吴十"}
    (watched / "scan.pdf").write_bytes(scanned_pdf())
    (watched / "after.docx").write_bytes(docx_paragraphs(lines_for("郑十一")))
    wait_until('store.get_candidate("after")', lambda: store.get_candidate("after"), timeout=30)
    assert store.get_candidate("scan") is None  # skipped: no text layer
    assert (
        json.dumps(
            store.get_candidate("after").model_dump(exclude={"body"}), ensure_ascii=False
        ).count(  # type: ignore[union-attr]
            "郑十一"
        )
        == 1
    )
