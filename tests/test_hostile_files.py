"""Hostile files (issue 46): a file built to make the reader spend its time or memory,
or to break it, costs a bounded time and memory and is skipped with a reason; the run
goes on. Each file is built here, small.

The regular expressions of the transcript grammar never backtrack over a run of white
space or punctuation: a line of a word and 16,000 or 32,000 spaces is read in a moment
(a pattern trying each split of the run took 62 s for 16,000)."""

from __future__ import annotations

import functools
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import time
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from support.cli import debrief as run_debrief
from support.fake_slack import FakeSlack
from support.serve import ServeProcess
from support.signed import command_body, post_signed
from support.waiting import wait_until
from support.web_api import FakeFile

from bot.watcher import FolderWatcher
from handlers.i18n import reason_text
from store.factory import open_store
from store.indexer import index_paths
from store.transcripts import files, reader
from store.transcripts.bounded import Stopped, run_bounded
from store.transcripts.errors import (
    LINK_OUTSIDE,
    LINK_TO_FOLDER,
    READER_FAILED,
    NotATranscript,
)
from store.transcripts.parser import parse_transcript
from store.transcripts.pdf import pdf_text

ROOT = Path(__file__).resolve().parent.parent

# Each line: a file's text with `{run}` standing for a long run; each is parsed with a
# run of 16,000 and of 32,000 characters, and the slowest parse is printed.
_RUNS = """
import json, sys, time
from store.transcripts.parser import parse_transcript
from store.transcripts.errors import ParseError
cases = json.loads(sys.stdin.read())
for text, _fill in cases:  # the grammar compiled first: only the runs are timed
    try:
        parse_transcript(text.replace("{run}", "").encode(), "x.txt")
    except ParseError:
        pass
slowest = {}
for text, fill in cases:
    for n in (16000, 32000):
        body = text.replace("{run}", fill * (n // len(fill)))
        started = time.perf_counter()
        try:
            parse_transcript(body.encode(), "x.txt")
        except ParseError:
            pass
        took = time.perf_counter() - started
        key = repr(text[:30]) + " " + repr(fill)
        slowest[key] = max(slowest.get(key, 0.0), took)
print(json.dumps(slowest))
"""

CASES = [
    ("面试记录{run}", " "),  # the meeting reader's speaker line: 8,000 spaces took 15.5 s
    ("面试记录{run}x", " "),
    ("面试记录{run}", "\u3000"),
    ("- 张三{run}", "\t"),
    ("|{run}|\n|---|---|\n", " "),  # a table's rule
    ("00:01 {run}", " "),  # a time first, then the speaker
    ("[00:01]{run}张三", " "),
    ("2024年{run}", " "),
    ("岗位：后端\n从业年限：5{run}年\n问题1：为什么？\n回答：因为\n", " "),  # years
    ("岗位：后端\n从业年限：约{run}x\n问题1：为什么？\n回答：因为\n", " "),
    ("岗位：后端\n面试日期：2024-01-01 ({run}x\n问题1：为什么？\n回答：因为\n", " "),  # weekday
    ("岗位：后端\n面试日期：2024-01-01 14:00{run}x\n问题1：为什么？\n回答：因为\n", " "),
    ("岗位：后端\n面试官：张三{run}x\n问题1：为什么？\n回答：因为\n", " "),  # names
    ("岗位{run}x\n", " "),  # a label, then no colon
    ("**岗位**{run}x\n", " "),
    ("问题1{run}x\n", " "),
    ("- {run}x\n", " "),
    ("1\n{run}x", "\n"),  # an SRT's start
    ("1{run}\n00:00:01,000 --> x", " "),
    ("岗位：a\n问题1：{run}\n回答：b\n", "-"),  # runs of punctuation
    ("岗位：a\n问题1：{run}\n回答：b\n", "。"),
    ("面试官：{run}", "，"),
    ("|{run}", "-"),
    ("张三{run}", "*"),
    ("# 面试记录\n{run}", "**a "),  # bold that never closes: each opening read to the end
    ("# 面试记录\n{run}", "__a "),
    ("WEBVTT\n\n00:00.000 --> 00:01.000\n{run}", "<v "),  # voice tags that never close
    ("WEBVTT\n\n00:00.000 --> 00:01.000\n{run}", "<b"),
    # srt's own pattern: cubic on a malformed time and digits, quadratic on spaces
    ("1\n00:00:01,000 --> 00:00:02,000\n面试官：你好？\n\n2\n00:0005,000 -{run}", "1"),
    ("1\n00:00:01,000 --> 00:00:02,000\n面试官：你好？\n\n2\n{run}00:00:05,000 -", " "),
    ("1\n00:00:01,000 --> 00:00:02,000\n面试官：你好？\n{run}\n2\n00:00:05,000 -", "\n "),
]


def test_long_runs_of_spaces_and_punctuation_are_read_in_a_moment() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _RUNS],
        cwd=ROOT,
        input=json.dumps(CASES),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,  # a pattern that backtracks takes minutes: it fails here
    )
    assert done.returncode == 0, done.stderr
    slowest = json.loads(done.stdout)
    assert len(slowest) == len(CASES)
    slow = {case: took for case, took in slowest.items() if took > 2.0}
    assert not slow  # (each takes a few milliseconds; one that backtracks, minutes)


# -- memory and time: each file read in a process of its own, measured ------------------

_MEASURE = """
import json, sys, time
from store.transcripts.files import prepare
started = time.perf_counter()
out = prepare(sys.argv[1])
print(json.dumps({
    "seconds": time.perf_counter() - started,
    # (VmHWM: this program's peak; ru_maxrss keeps the peak of the process it was forked from)
    "mb": int(open("/proc/self/status").read().split("VmHWM:")[1].split()[0]) / 1024,
    "indexed": out.transcript is not None,
    "skipped": out.skipped,
    "failed": out.failure.code if out.failure else None,
}))
"""


def measured(path: Path) -> dict[str, Any]:
    """Read `path` as an index run does, in a fresh process: how long, how much memory
    at most (MB), and what came of it."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,  # only turns a hang into a failure
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _deflated(pieces: Iterator[bytes]) -> tuple[bytes, int, int]:
    """(the raw deflate stream, CRC-32, size) of what `pieces` give, built a piece at a
    time (the test never holds the inflated bytes)."""
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    out, crc, size = [], 0, 0
    for piece in pieces:
        crc, size = zlib.crc32(piece, crc), size + len(piece)
        out.append(squeeze.compress(piece))
    out.append(squeeze.flush())
    return b"".join(out), crc, size


@functools.cache
def _deflated_spaces() -> tuple[bytes, int, int]:
    """600 MB of spaces deflated: made once, for every bomb of the run (seconds each)."""
    return _deflated(_spaces(600 << 20))


def lying_zip(
    entries: dict[str, bytes], big: str, deflated: tuple[bytes, int, int], says: int
) -> bytes:
    """A zip of `entries` and the entry `big` (`deflated`: its stream, CRC and size, from
    `_deflated`), whose headers say it inflates to `says` bytes (a lie when `says` is
    less)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in entries.items():
            zf.writestr(name, content)
    data, crc, _size = deflated
    head = out.getvalue()
    # append `big` by hand: its local header, its data, and a central directory again
    with zipfile.ZipFile(io.BytesIO(head)) as zf:
        infos = zf.infolist()
    body_end = min((i.header_offset for i in infos), default=0)
    end = head.index(b"PK\x01\x02")  # where the central directory starts
    body = head[body_end:end]
    name = big.encode()
    local = struct.pack(
        "<4s5H3L2H", b"PK\x03\x04", 20, 0, 8, 0, 0, crc, len(data), says, len(name), 0
    )
    offset = len(body)
    central = head[end : head.index(b"PK\x05\x06")]
    central += struct.pack(
        "<4s6H3L5H2L",
        b"PK\x01\x02",
        20,
        20,
        0,
        8,
        0,
        0,
        crc,
        len(data),
        says,
        len(name),
        0,
        0,
        0,
        0,
        0,
        offset,
    )
    central += name
    files = body + local + name + data
    count = len(infos) + 1
    eocd = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count, count, len(central), len(files), 0)
    return files + central + eocd


def _spaces(total: int) -> Iterator[bytes]:
    piece = b" " * (1 << 20)
    for _ in range(total >> 20):
        yield piece


_DOCX_PARTS = {
    "[Content_Types].xml": (
        b'<?xml version="1.0" encoding="UTF-8"?>'
        b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        b'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        b'<Default Extension="xml" ContentType="application/xml"/>'
        b'<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
        b"</Types>"
    ),
    "_rels/.rels": (
        b'<?xml version="1.0" encoding="UTF-8"?>'
        b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>'
        b"</Relationships>"
    ),
}
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _empty_paragraphs(count: int) -> Iterator[bytes]:
    yield f'<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="{_W}"><w:body>'.encode()
    piece = b"<w:p/>" * 100_000
    for _ in range(count // 100_000):
        yield piece
    yield "<w:p><w:r><w:t>岗位：后端</w:t></w:r></w:p></w:body></w:document>".encode()


def test_a_word_file_whose_zip_lies_about_its_sizes_is_refused_in_bounded_memory(
    tmp_path: Path,
) -> None:
    # 600 MB of spaces in word/document.xml, said to be 1 KB
    bomb = lying_zip(_DOCX_PARTS, "word/document.xml", _deflated_spaces(), 1024)
    assert len(bomb) < 2 << 20
    path = tmp_path / "bomb.docx"
    path.write_bytes(bomb)
    out = measured(path)
    assert out["mb"] < 300 and out["seconds"] < 5, out
    assert not out["indexed"] and (out["failed"] or out["skipped"]), out


def test_a_word_file_of_millions_of_empty_paragraphs_is_refused_fast(tmp_path: Path) -> None:
    path = tmp_path / "paragraphs.docx"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in _DOCX_PARTS.items():
            zf.writestr(name, content)
        with zf.open("word/document.xml", "w", force_zip64=True) as fh:
            for piece in _empty_paragraphs(3_000_000):
                fh.write(piece)
    assert path.stat().st_size < 1 << 20
    out = measured(path)
    assert out["mb"] < 300 and out["seconds"] < 5, out
    assert out["failed"] == "word_unzips_too_large", out


@pytest.mark.parametrize("big", ["META-INF/manifest.xml", "content.xml", "mimetype"])
def test_an_opendocument_file_whose_zip_lies_is_refused_in_bounded_memory(
    tmp_path: Path, big: str
) -> None:
    parts = {
        "mimetype": b"application/vnd.oasis.opendocument.text",
        "content.xml": b"<office:document-content/>",
    }
    parts.pop(big, None)
    bomb = lying_zip(parts, big, _deflated_spaces(), 1024)
    path = tmp_path / "bomb.odt"
    path.write_bytes(bomb)
    out = measured(path)
    assert out["mb"] < 300 and out["seconds"] < 5, out
    assert not out["indexed"], out


# -- one bad file never stops the run ----------------------------------------------------

SEEDS = ROOT / "seeds"


def _odt(content: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        zf.writestr("content.xml", content)
    return out.getvalue()


_ODT_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
    ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
)
# each broke its reader with a traceback, and the run with it
BREAKERS: dict[str, bytes] = {
    "undefined.html": '<html><head><meta charset="undefined"></head><body><p>岗位：SRE</p>'
    "<p>问题1：为什么？</p><p>回答：因为</p></body></html>".encode(),
    "punycode.html": b'<html><head><meta charset="punycode"></head><body><p>a-</p></body></html>',
    "hours.srt": (
        "1\n00:00:01,000 --> 00:00:02,000\n面试官：你好？\n\n"
        "2\n11111111111111:00:05,000 --> 11111111111111:00:06,000\n候选人：你好\n"
    ).encode(),
    "spaces.odt": _odt(
        f"<office:document-content {_ODT_NS}><office:body><office:text>"
        '<text:p>岗位：SRE<text:s text:c="²"/></text:p><text:p>问题1：为什么？</text:p>'
        "<text:p>回答：因为</text:p></office:text></office:body></office:document-content>"
    ),
}


def _index(folder: Path, db: Path) -> tuple[int, dict[str, Any]]:
    done = run_debrief("index", str(folder), "--db", str(db), "--json", cwd=ROOT)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    return done.returncode, out


@pytest.mark.parametrize("name", sorted(BREAKERS))
def test_a_file_that_broke_its_reader_leaves_the_run_going(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    db = tmp_path / "x.db"
    code, first = _index(folder, db)
    assert code == 0 and len(first["indexed"]) == 4
    # then: one removed, one added, and the file that broke the reader beside them
    (folder / "000_9e6b3ecb0732fcf3.txt").unlink()
    (folder / "new.txt").write_text(
        "岗位：SRE 从业年限：3年\n问题1：你好？\n回答：好\n点评：不错\n", "utf-8"
    )
    (folder / name).write_bytes(BREAKERS[name])
    code, out = _index(folder, db)
    assert out["removed"] == ["000_9e6b3ecb0732fcf3"]
    assert "new" in out["indexed"]
    said = [*out["skipped"], *out["failed"]]
    assert Path(name).stem in out["indexed"] or [Path(s["path"]).name for s in said] == [name]
    assert code == (1 if out["failed"] else 0)


def test_whatever_a_reader_raises_skips_the_file_with_a_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = reader.read_interviews

    def breaking(data: bytes, name: str, source: str | None = None) -> Any:
        if name == "odd.txt":
            raise RecursionError("a library gave up")
        return real(data, name, source)

    monkeypatch.setattr(reader, "read_interviews", breaking)
    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    (folder / "odd.txt").write_text("岗位：SRE\n问题1：为什么？\n回答：因为\n", "utf-8")
    code, out = _index(folder, tmp_path / "x.db")
    assert code == 0 and len(out["indexed"]) == 4
    assert out["skipped"] == [
        {"path": str(folder / "odd.txt"), "reason": READER_FAILED},
    ]
    assert reason_text("zh", READER_FAILED).startswith("读不出这个文件")


# -- symbolic links ------------------------------------------------------------------------


def test_links_out_of_the_folder_and_to_folders_are_skipped_and_said(tmp_path: Path) -> None:
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("岗位：机密 从业年限：3年\n问题1：密码？\n回答：hunter2\n", "utf-8")
    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    (folder / "leak.txt").symlink_to(secret)
    (folder / "elsewhere").symlink_to(secret.parent, target_is_directory=True)
    (folder / "same.txt").symlink_to(folder / "002_72ee0a76eea41e0e.txt")  # inside: read
    db = tmp_path / "x.db"
    code, out = _index(folder, db)
    assert code == 0
    assert sorted(out["indexed"]) == sorted([*(p.stem for p in SEEDS.iterdir()), "same"])
    reasons = {Path(s["path"]).name: s["reason"] for s in out["skipped"]}
    assert reasons == {"leak.txt": LINK_OUTSIDE, "elsewhere": LINK_TO_FOLDER}
    found = run_debrief("search", "hunter2", "--db", str(db), cwd=ROOT)
    assert "hunter2" not in found.stdout and "机密" not in found.stdout


def test_the_watcher_never_follows_a_link_out_of_its_folder(tmp_path: Path) -> None:
    secret = tmp_path / "outside.txt"
    secret.write_text("岗位：机密 从业年限：3年\n问题1：密码？\n回答：hunter2\n", "utf-8")
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "leak.txt").symlink_to(secret)
    store = open_store(str(tmp_path / "x.db"))
    try:
        watcher = FolderWatcher(store, str(folder))
        watcher.index_changed([str(folder / "leak.txt")])
        assert store.file_state() == {}
    finally:
        store.close()


# -- PDFs: pages, glyphs and streams bounded before they are parsed ------------------------


def _pdf(pages: int, content: bytes, more: Iterable[bytes] = ()) -> bytes:
    """A PDF of `pages` pages, each showing `content` and then what `more` gives in
    Helvetica (one stream, shared, compressed a piece at a time)."""
    squeeze = zlib.compressobj(9)
    stream = squeeze.compress(content) + b"".join(map(squeeze.compress, more)) + squeeze.flush()
    flate = b"/Filter /FlateDecode "
    kids = b" ".join(b"%d 0 R" % (5 + n) for n in range(pages))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % pages,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d " % len(stream) + flate + b">>\nstream\n" + stream + b"\nendstream",
    ]
    objects += [
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842]"
        b" /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>"
    ] * pages
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % at for at in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def test_a_pdf_page_of_a_million_glyphs_is_stopped_as_it_is_laid_out(tmp_path: Path) -> None:
    data = _pdf(1, b"BT /F1 1 Tf 10 800 Td (" + b"a" * 1_000_000 + b") Tj ET")
    assert len(data) < 8 * 1024
    path = tmp_path / "glyphs.pdf"
    path.write_bytes(data)
    out = measured(path)
    assert out["mb"] < 300 and out["seconds"] < 5, out
    assert out["failed"] == "pdf_too_much_text", out


def test_a_pdf_stream_that_inflates_to_gigabytes_is_refused_before_it_is_parsed(
    tmp_path: Path,
) -> None:
    data = _pdf(1, b"BT /F1 12 Tf 10 800 Td (hello) Tj ET", _spaces(600 << 20))
    assert len(data) < 1 << 20
    path = tmp_path / "spaces.pdf"
    path.write_bytes(data)
    out = measured(path)
    assert out["mb"] < 300 and out["seconds"] < 5, out
    assert out["failed"] == "pdf_unpacks_too_large", out


def test_a_pdf_of_thousands_of_pages_is_refused_before_they_are_read(tmp_path: Path) -> None:
    data = _pdf(10_000, b"BT /F1 12 Tf 10 800 Td (hello) Tj ET")
    path = tmp_path / "pages.pdf"
    path.write_bytes(data)
    out = measured(path)
    assert out["mb"] < 300 and out["seconds"] < 5, out
    assert out["failed"] == "pdf_too_many_pages", out


def test_a_pdf_within_the_bounds_is_read() -> None:
    text = pdf_text(_pdf(2, b"BT /F1 12 Tf 10 800 Td (Position: SRE) Tj ET"), 10_000)
    assert text.count("Position: SRE") == 2


# -- what serve reads: in a process of its own, stopped, and not read again -------------


def test_a_reading_past_its_time_or_memory_is_stopped_and_the_caller_goes_on() -> None:
    started = time.monotonic()
    with pytest.raises(Stopped):
        run_bounded(time.sleep, 30, seconds=1)
    assert time.monotonic() - started < 10  # stopped, not waited for
    with pytest.raises(Stopped):
        run_bounded(bytearray, 4 << 30)  # four gigabytes: past its memory
    with pytest.raises(NotATranscript) as said:  # what the reading raised, raised here
        run_bounded(parse_transcript, b"hello", "x.txt")
    assert said.value.code == "no_labels"
    read = run_bounded(parse_transcript, (SEEDS / "000_9e6b3ecb0732fcf3.txt").read_bytes(), "a")
    assert read.questions


def test_the_watcher_reads_a_file_stopped_once_again_only_when_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    reads: list[str] = []
    real = files.run_bounded

    def counted(fn: Any, path: str, **kw: Any) -> Any:
        reads.append(Path(path).name)
        if Path(path).name == "slow.txt":
            return real(time.sleep, 60, seconds=1)  # as a file that takes a minute would
        return real(fn, path, **kw)

    monkeypatch.setattr(files, "run_bounded", counted)
    slow = folder / "slow.txt"
    slow.write_text("岗位：SRE\n问题1：为什么？\n回答：因为\n", "utf-8")
    store = open_store(str(tmp_path / "x.db"))
    try:
        watcher = FolderWatcher(store, str(folder))
        watcher.run_once()
        assert reads.count("slow.txt") == 1 and len(reads) == 5
        assert len(store.file_state()) == 4  # the others indexed
        assert set(watcher.stopped) == {str(slow)}
        for _ in range(3):  # the rescans every few seconds: it is not read again
            watcher.run_once()
        assert reads.count("slow.txt") == 1
        slow.write_text("岗位：SRE\n问题1：为什么？\n回答：所以\n", "utf-8")
        os.utime(slow, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
        watcher.run_once()  # changed: read once more
        assert reads.count("slow.txt") == 2
    finally:
        store.close()


def test_index_runs_of_serve_read_in_processes_of_their_own(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    store = open_store(str(tmp_path / "x.db"))
    try:
        stopped: dict[str, tuple[int, int]] = {}
        result = index_paths(store, [folder], stopped=stopped)
        assert len(result.indexed) == 4 and not stopped
    finally:
        store.close()


@pytest.mark.both_backends
def test_serve_answers_at_once_while_a_hostile_upload_is_read_and_after_a_restart(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> None:
    """An upload that froze `serve` (its reading held the interpreter for minutes), left
    claimed by a process that died: the restarted `serve` reads it without delaying a
    health check or a command, answers it, and a second restart does not read it again."""
    hostile = ("# 面试记录\n" + "**a " * 50_000).encode()
    fake_slack.add_file(FakeFile("FH1", "hostile.md", hostile))
    fake_slack.member_channels.add("C123")
    store = open_store(db_target)
    ts = "1800000003.000001"
    store.claim_upload(f"C123:{ts}:FH1", "FH1", "C123", ts, "U123")
    store.db.execute("UPDATE uploads SET at = ?", ["2026-01-01T00:00:00.000000+00:00"])
    store.close()
    env = {
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_SIGNING_SECRET": "secret",
        "SLACK_API_URL": fake_slack.base_url,
        "DEBRIEF_DB": db_target,
        "DEBRIEF_UPLOADS": str(tmp_path / "uploads"),
    }
    serve = ServeProcess(env)
    try:
        wait_until("serve is up", lambda: (serve.healthz() or (0, ""))[0] == 200, timeout=60)
        for n in range(3):  # while the upload is read (and after): at once, each
            started = time.monotonic()
            assert (serve.healthz() or (0, ""))[0] == 200
            body = command_body("帮助", response_url=fake_slack.response_url(f"help{n}"))
            status, _headers, _body = post_signed(
                serve.url + "/slack/events", body, "secret", timeout=5
            )
            assert status == 200 and time.monotonic() - started < 1.0
        [answer] = fake_slack.wait_for("chat.postMessage", timeout=60)
        assert answer.params["thread_ts"] == ts
    finally:
        assert serve.terminate() == 0
    assert "Traceback" not in serve.log
    again = ServeProcess(env)
    try:
        wait_until("serve is up", lambda: (again.healthz() or (0, ""))[0] == 200, timeout=60)
        store = open_store(db_target)
        try:
            assert store.stale_uploads() == []  # answered: nothing left to resume
        finally:
            store.close()
    finally:
        again.terminate()
    assert len(fake_slack.calls("chat.postMessage")) == 1


def test_the_watchers_rescan_goes_on_past_files_that_broke_their_readers(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    for name, data in BREAKERS.items():
        (folder / name).write_bytes(data)
    store = open_store(str(tmp_path / "x.db"))
    try:
        watcher = FolderWatcher(store, str(folder), mode="poll")
        watcher.run_once()  # the rescan at start (and every poll): no traceback
        assert {p.name for p in SEEDS.iterdir()} <= {
            Path(source).name for source in store.file_state()
        }
        (folder / "000_9e6b3ecb0732fcf3.txt").unlink()
        watcher.run_once()  # removals go on beside them
        assert "000_9e6b3ecb0732fcf3" not in {cid for cid, *_ in store.file_state().values()}
    finally:
        store.close()
