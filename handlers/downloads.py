"""A file shared in Slack, fetched (handlers/uploads.py takes it from there).

It is fetched from its `url_private_download` with the bot token, which is sent only to
Slack's file host (or the API's host), never after a redirect elsewhere; at most the
parser's size limit is read (a text file 5 MB, a Word file or a PDF 20 MB). Pictures,
sound, video and zip archives are refused before they are fetched.
"""

from __future__ import annotations

import http.client
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from store.transcripts.errors import ZIP, NotATranscript, ParseError, Unreadable
from store.transcripts.formats import MAX_BYTES, MAX_DOCUMENT_BYTES

SLACK_FILE_HOSTS = frozenset({"files.slack.com"})


_MEDIA_TYPES = ("image/", "video/", "audio/")


_ZIP_TYPES = ("application/zip", "application/x-zip-compressed")


class DownloadError(Exception):
    """The file could not be fetched from Slack (said in the reply, nothing indexed)."""


def refused_unread(mimetype: str) -> ParseError | None:
    """Why a file of this type is answered without fetching it: a picture, a sound, a
    video (never a transcript) or a zip (the parser's own words); None to fetch it."""
    if mimetype.startswith(_MEDIA_TYPES):
        return NotATranscript(
            f"not a text file ({mimetype})", code="media", params={"mimetype": mimetype}
        )
    if mimetype in _ZIP_TYPES:
        return Unreadable(ZIP)
    return None


def size_limit(mimetype: str) -> int:
    """The most bytes to fetch: a text file's limit for text, a document's for the rest
    (the parser then holds each format to its own, from the bytes)."""
    return MAX_BYTES if mimetype.startswith("text/") else MAX_DOCUMENT_BYTES


Origin = tuple[str, str, int]


def _origin(url: str) -> Origin:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    return scheme, (parts.hostname or "").lower(), port or (443 if scheme == "https" else 80)


def token_origins(api_url: str) -> frozenset[Origin]:
    """Where the bot token may be sent: Slack's file host over https, and the Web API
    itself exactly as configured (scheme, host and port: a test's loopback fake)."""
    return frozenset({("https", host, 443) for host in SLACK_FILE_HOSTS} | {_origin(api_url)})


class _SameOriginsOnly(urllib.request.HTTPRedirectHandler):
    """Follow a redirect only to where the token may go: the same scheme, host and port
    on every hop (never https -> http, never another port of the same host)."""

    def __init__(self, origins: frozenset[Origin]) -> None:
        self.origins = origins

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: Any,
        code: int,
        msg: str,
        headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:
        if _origin(newurl) not in self.origins:
            raise DownloadError("Slack redirected the download elsewhere")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def download(url: str, token: str, api_url: str, limit: int = MAX_BYTES) -> bytes:
    """The file's bytes, fetched with the bot token; DownloadError when that fails."""
    origins = token_origins(api_url)
    if _origin(url) not in origins:
        raise DownloadError("not a Slack file address")
    opener = urllib.request.build_opener(_SameOriginsOnly(origins))
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    try:
        with opener.open(request, timeout=30) as response:
            if _origin(response.geturl()) not in origins:  # where the last hop ended
                raise DownloadError("Slack redirected the download elsewhere")
            if response.headers.get("Content-Type", "").startswith("text/html"):
                raise DownloadError("Slack answered with its sign-in page")
            data: bytes = response.read(limit + 1)
    except (OSError, http.client.HTTPException, ValueError) as exc:  # URLError is an OSError
        raise DownloadError(str(exc)) from exc
    return data
