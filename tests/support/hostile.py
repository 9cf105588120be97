"""The hostile files of issue 46, each built here, small, from text written for it: a
file built to make a reader spend its time or memory, or to break it. The tests
(tests/test_hostile_files.py) and the bench (bench/hostile.py) build them from here;
nothing big is ever committed.

`HOSTILE` names each file (its name says its format) and the function that builds its
bytes. `prepare_slowly` is a reader for the tests, importable in a reading process."""

from __future__ import annotations

import functools
import io
import os
import struct
import time
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from store.transcripts import reader
from store.transcripts.files import Prepared, prepare


def spaces(total: int) -> Iterator[bytes]:
    piece = b" " * (1 << 20)
    for _ in range(total >> 20):
        yield piece


def deflated(pieces: Iterable[bytes]) -> tuple[bytes, int, int]:
    """(the raw deflate stream, CRC-32, size) of what `pieces` give, built a piece at a
    time (nothing here holds the inflated bytes)."""
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    out, crc, size = [], 0, 0
    for piece in pieces:
        crc, size = zlib.crc32(piece, crc), size + len(piece)
        out.append(squeeze.compress(piece))
    out.append(squeeze.flush())
    return b"".join(out), crc, size


@functools.cache
def deflated_spaces() -> tuple[bytes, int, int]:
    """600 MB of spaces deflated: made once, for every bomb of the run (seconds each)."""
    return deflated(spaces(600 << 20))


def lying_zip(
    entries: dict[str, bytes], big: str, stream: tuple[bytes, int, int], says: int
) -> bytes:
    """A zip of `entries` and the entry `big` (`stream`: its deflate stream, CRC and size,
    from `deflated`), whose headers say it inflates to `says` bytes (a lie when `says` is
    less)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in entries.items():
            zf.writestr(name, content)
    data, crc, _size = stream
    head = out.getvalue()
    # append `big` by hand: its local header, its data, and a central directory again
    with zipfile.ZipFile(io.BytesIO(head)) as zf:
        infos = zf.infolist()
    body_start = min((i.header_offset for i in infos), default=0)
    end = head.index(b"PK\x01\x02")  # where the central directory starts
    body = head[body_start:end]
    name = big.encode()
    local = struct.pack(
        "<4s5H3L2H", b"PK\x03\x04", 20, 0, 8, 0, 0, crc, len(data), says, len(name), 0
    )
    offset = len(body)
    central = head[end : head.index(b"PK\x05\x06")]
    central += struct.pack(
        "<4s6H3L5H2L",
        *(b"PK\x01\x02", 20, 20, 0, 8, 0, 0, crc, len(data), says, len(name)),
        *(0, 0, 0, 0, 0, offset),
    )
    central += name
    files = body + local + name + data
    count = len(infos) + 1
    eocd = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count, count, len(central), len(files), 0)
    return files + central + eocd


DOCX_PARTS = {
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


def empty_paragraphs_docx(count: int) -> bytes:
    """A .docx of `count` empty paragraphs (10 million: 88 KB, 60 MB of XML)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, content in DOCX_PARTS.items():
            zf.writestr(name, content)
        with zf.open("word/document.xml", "w", force_zip64=True) as fh:
            for piece in _empty_paragraphs(count):
                fh.write(piece)
    return out.getvalue()


def odt(content: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        zf.writestr("content.xml", content)
    return out.getvalue()


ODT_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
    ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
)


def pdf(pages: int, content: bytes, more: Iterable[bytes] = ()) -> bytes:
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


# each broke its reader with a traceback, and the run with it
BREAKERS: dict[str, bytes] = {
    "undefined.html": '<html><head><meta charset="undefined"></head><body><p>岗位：SRE</p>'
    "<p>问题1：为什么？</p><p>回答：因为</p></body></html>".encode(),
    "punycode.html": b'<html><head><meta charset="punycode"></head><body><p>a-</p></body></html>',
    "hours.srt": (
        "1\n00:00:01,000 --> 00:00:02,000\n面试官：你好？\n\n"
        "2\n11111111111111:00:05,000 --> 11111111111111:00:06,000\n候选人：你好\n"
    ).encode(),
    "spaces.odt": odt(
        f"<office:document-content {ODT_NS}><office:body><office:text>"
        '<text:p>岗位：SRE<text:s text:c="²"/></text:p><text:p>问题1：为什么？</text:p>'
        "<text:p>回答：因为</text:p></office:text></office:body></office:document-content>"
    ),
}

_SRT_START = "1\n00:00:01,000 --> 00:00:02,000\n面试官：你好？\n\n2\n"


def _fixed(data: bytes) -> Callable[[], bytes]:
    return lambda: data


HOSTILE: dict[str, Callable[[], bytes]] = {
    # a quadratic pattern of the meeting reader: 62 s of CPU
    "spaces.txt": lambda: ("面试记录" + " " * 16_000).encode(),
    # srt's pattern, cubic on a malformed time followed by digits: past 300 s
    "malformed.srt": lambda: (_SRT_START + "00:0005,000 -" + "1" * 3_000).encode(),
    # zip entries that lie about their size: 600 MB of spaces said to be 1 KB
    "lying.docx": lambda: lying_zip(DOCX_PARTS, "word/document.xml", deflated_spaces(), 1024),
    "lying.odt": lambda: lying_zip(
        {"mimetype": b"application/vnd.oasis.opendocument.text"},
        "content.xml",
        deflated_spaces(),
        1024,
    ),
    # a million glyphs on one page (4 KB)
    "glyphs.pdf": lambda: pdf(1, b"BT /F1 1 Tf 10 800 Td (" + b"a" * 1_000_000 + b") Tj ET"),
    # a compressed stream of 600 MB of spaces
    "stream.pdf": lambda: pdf(1, b"BT /F1 12 Tf 10 800 Td (hello) Tj ET", spaces(600 << 20)),
    # 50,000 pages (8 MB)
    "pages.pdf": lambda: pdf(50_000, b"BT /F1 12 Tf 10 800 Td (hello) Tj ET"),
    # 10 million empty paragraphs (88 KB)
    "paragraphs.docx": lambda: empty_paragraphs_docx(10_000_000),
    **{name: _fixed(data) for name, data in BREAKERS.items()},
}


def prepare_slowly(path: str) -> Prepared:
    """`prepare`, but a file named `slow*` takes a minute (as one built to would), and
    each file read says which process read it in `read-by` beside its folder (a line:
    the process id, the file's name)."""
    with open(Path(path).parent.parent / "read-by", "a", encoding="utf-8") as fh:
        fh.write(f"{os.getpid()} {os.path.basename(path)}\n")
    if os.path.basename(path).startswith("slow"):
        time.sleep(60)
    return prepare(path)


def prepare_breaking(path: str) -> Prepared:
    """`prepare`, with a reader that gives up (a RecursionError from a library) on a file
    named `odd.txt`."""
    real = reader.read_interviews

    def breaking(data: bytes, name: str, source: str | None = None) -> Any:
        if name == "odd.txt":
            raise RecursionError("a library gave up")
        return real(data, name, source)

    reader.read_interviews = breaking
    try:
        return prepare(path)
    finally:
        reader.read_interviews = real
