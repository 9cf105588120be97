"""A zip's entries (a .docx, an .odt), inflated with a cap on the bytes actually
inflated, never on the sizes the archive declares: a 3 MB file whose entries lie about
their size would otherwise inflate to gigabytes (`zipfile.read` inflates an entry whole
before it cuts it to its declared size). Each entry is read in small pieces, the total
counted as it comes, and so are the XML tags of the entries a reader will parse (ten
million empty paragraphs are 60 MB of XML, and gigabytes once parsed).

What comes out is the entries' bytes, or an archive built again from them with no
compression (`repacked`): a library that reads a zip whole (python-docx) then reads no
more than was counted.

Pure: bytes in, bytes out."""

from __future__ import annotations

import io
import zipfile

from .errors import ParseError

MAX_ENTRIES = 5_000
"""Entries in a Word or OpenDocument file at most (a real one has a few dozen)."""
MAX_TAGS = 600_000
"""XML tags in the entries a reader parses, at most: a transcript of a hundred pages
has tens of thousands."""
_PIECE = 64 * 1024


def _xml(name: str) -> bool:
    return name.endswith((".xml", ".rels"))


def unzipped(data: bytes, limit: int, too_large: str, damaged: str) -> dict[str, bytes]:
    """Every entry of the zip `data`, by name, with at most `limit` bytes inflated in all
    and `MAX_TAGS` tags in its XML; else ParseError(`too_large`). An entry compressed
    otherwise than Word and LibreOffice do (bzip2 and LZMA inflate without a bound on
    what one piece gives) or that cannot be inflated is ParseError(`damaged`)."""
    try:
        return _unzipped(data, limit, too_large)
    except ParseError:
        raise
    except Exception as exc:  # BadZipFile, a CRC error, zlib's error, an unknown method…
        raise ParseError(damaged) from exc


def _unzipped(data: bytes, limit: int, too_large: str) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    left = limit
    tags = 0
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        infos = zf.infolist()
        if len(infos) > MAX_ENTRIES:
            raise ParseError(too_large)
        for info in infos:
            if info.is_dir():
                continue
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise ValueError(f"compression {info.compress_type}")
            pieces: list[bytes] = []
            with zf.open(info) as fh:
                while True:
                    piece = fh.read(min(_PIECE, left + 1))
                    if not piece:
                        break
                    left -= len(piece)
                    if left < 0:
                        raise ParseError(too_large)
                    if _xml(info.filename):
                        tags += piece.count(b"<")
                        if tags > MAX_TAGS:
                            raise ParseError(too_large)
                    pieces.append(piece)
            out[info.filename] = b"".join(pieces)
    return out


def repacked(entries: dict[str, bytes]) -> bytes:
    """A zip of `entries`, stored without compression: its sizes are the true ones."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as zf:
        for name, content in entries.items():
            zf.writestr(name, content)
    return buffer.getvalue()
