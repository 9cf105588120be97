"""Transcripts shared in Slack: a file shared in a channel the bot is in, or sent to it
in a DM, is downloaded, saved under DEBRIEF_UPLOADS, parsed and indexed by the same
code as the folder, and answered in the file's thread.

The event is the `message` with `subtype: file_share` (`message.channels`,
`message.groups`, `message.im`): it names the channel, the message ts (the thread to
answer in) and the files, and the access middleware judges it like any message. Its
listener is handlers/listeners/file_share.py; `serve` finishes what a dead process
left (`resume_uploads`), `forget` erases the saved files (`erase_files`).

- The file is described by `files.info` and fetched from its `url_private_download`
  with the bot token, which is sent only to Slack's file host (or the API's host),
  never after a redirect elsewhere; at most the parser's size limit is read (a text
  file 5 MB, a Word file or a PDF 20 MB). Pictures, sound, video and zip archives are
  refused before they are fetched; anything else (a .docx, a PDF, an old .doc, a
  spreadsheet) goes to the parser, which reads it or says why not and what to do.
- A file from another organisation (Slack Connect: the message's or the file's
  `user_team` is not ours) is never downloaded.
- Each shared file is claimed in the store (channel, ts, file id) before it is
  fetched: an event Slack delivers twice is indexed once.
- The file is read in a process of its own, stopped past its time or memory
  (store/transcripts/bounded.py): an upload built to take minutes delays nothing, and
  is answered as stopped (and its claim finished: a restart does not read it again).
- The answer: the candidate's summary card (posted, as a summary posted on purpose
  is), or "already indexed as X" for the same content, or the parse error with its
  line, or "not a transcript" with the reason. The audit says who uploaded what.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from store.indexer import index_paths
from store.private import private_dir
from store.transcripts import reader
from store.transcripts.bounded import run_bounded
from store.transcripts.errors import NotATranscript, ParseError, Unreadable
from store.transcripts.files import source_path
from store.transcripts.formats import byte_limit, too_large_error
from store.transcripts.parser import content_hash

from .audit import AuditEvent, record
from .blocks import Message, fit, section
from .deps import Deps
from .downloads import DownloadError, download, refused_unread, size_limit
from .i18n import reason_text, t
from .shared import answer_privately, may_post, refusal_key
from .views.alike import alike_blocks
from .views.cards import summary_view
from .views.common import notice

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    """What became of one shared file: the reply, and the line for the audit."""

    kind: str  # indexed, duplicate, forgotten, not_transcript, parse_error, failed, foreign
    candidate_id: str | None = None
    reply: Message | None = None
    path: str | None = None  # the saved file, when it became a candidate
    # a file of several interviews (issue 46): every one indexed, in file order (the
    # card is the first's, `candidate_id`; the reply names them all)
    interviews: tuple[str, ...] = ()


def safe_name(name: str, file_id: str) -> str:
    """A file name that is safe on any file system: letters (Chinese included), digits,
    `-`, `_` and `.`; no path, no leading dot; `.txt` unless it has a short extension."""
    base = os.path.basename(unicodedata.normalize("NFKC", name).replace("\\", "/"))
    stem, ext = os.path.splitext(base)
    stem = re.sub(r"[^\w\-.]+", "_", stem).strip("._-")[:80] or re.sub(r"\W", "", file_id)
    ext = ext if re.fullmatch(r"\.[A-Za-z0-9]{1,8}", ext) else ".txt"
    return f"{stem}{ext}"


def _too_large(size: int, limit: int) -> ParseError:
    return too_large_error(size, limit)


def _parse_reply(exc: ParseError, deps: Deps) -> Outcome:
    """What to answer about a file that gave no transcript: why, and what to do, in the
    team's language (the reason's code said through the catalogue)."""
    reason, _ = fit(reason_text(deps.locale, exc.reason, exc.code, exc.params), 500)
    if isinstance(exc, Unreadable):  # perhaps a transcript, kept as no text: what to do
        return Outcome(
            "not_transcript", reply=notice(t(deps.locale, "upload_unreadable", reason=reason))
        )
    if isinstance(exc, NotATranscript):
        return Outcome(
            "not_transcript", reply=notice(t(deps.locale, "upload_not_transcript", reason=reason))
        )
    if exc.line is not None:
        text = t(deps.locale, "upload_parse_error_line", line=exc.line, reason=reason)
    else:
        text = t(deps.locale, "upload_parse_error", reason=reason)
    return Outcome("parse_error", reply=notice(text))


def _names(name: str, file_id: str) -> Iterator[str]:
    """The names an upload may be saved under, in order: its own name, then the name with
    the Slack file id, then with a counter (file ids are unique, so rarely needed)."""
    first = safe_name(name, file_id)
    yield first
    stem, ext = os.path.splitext(first)
    tag = re.sub(r"[^A-Za-z0-9]", "", file_id) or "upload"
    yield f"{stem}_{tag}{ext}"
    for n in range(2, 1000):
        yield f"{stem}_{tag}_{n}{ext}"


def _save(folder: Path, name: str, file_id: str, data: bytes) -> Path:
    """Write the file whole under a name nobody else has, atomically: the bytes go to a
    temporary file of this upload's own (never shared with another upload), which is
    then linked under the first free name (a link never replaces a file, so two uploads
    of the same name at the same moment get two names) and removed."""
    private_dir(folder)  # new folders 0700, whatever the umask (mkstemp's file is 0600)
    fd, part_name = tempfile.mkstemp(dir=folder, prefix=".upload-", suffix=".part")
    part = Path(part_name)
    try:
        with open(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        for candidate in _names(name, file_id):
            target = folder / candidate
            try:
                os.link(part, target)
            except FileExistsError:
                continue
            return target
        raise OSError(f"no free file name for {safe_name(name, file_id)} in {folder}")
    finally:
        part.unlink(missing_ok=True)


def take_file(
    info: dict[str, Any],
    data: bytes,
    deps: Deps,
    on_saved: Callable[[str], None] | None = None,
    folder: Path | None = None,
) -> Outcome:
    """Parse, save and index one downloaded file (`info`: its name, id, and `size` when
    more was declared than `data` holds); what to answer. `on_saved`: told the
    saved file's path (as the index names its source) before it is indexed; `folder`:
    where to save it (DEBRIEF_UPLOADS by default)."""
    locale, store = deps.locale, deps.store
    name = str(info.get("name") or info.get("title") or info.get("id") or "upload")
    if len(data) > byte_limit(data, name):  # its size: what was read, or more if declared
        size = max(len(data), int(info.get("size") or 0))
        return _parse_reply(_too_large(size, byte_limit(data, name)), deps)
    digest = content_hash(data)
    known = store.candidate_with_hash(digest)
    if known is not None:
        text = t(locale, "upload_already", id=fit(known, 200)[0])
        return Outcome("duplicate", known, notice(text))
    if any(h == digest for h, _source in store.forgotten().values()):
        return Outcome("forgotten", reply=notice(t(locale, "upload_forgotten")))
    try:
        # the same parser as the folder, in a process of its own (bounded in time and
        # memory: never in the process that answers Slack): say what is wrong first
        run_bounded(reader.read_interviews, data, name)
    except ParseError as exc:
        return _parse_reply(exc, deps)
    folder = folder or Path(deps.uploads or "uploads")
    path = _save(folder, name, str(info.get("id") or ""), data)
    try:
        if on_saved is not None:
            on_saved(source_path(os.path.abspath(path)))
        result = index_paths(store, [path], stopped={}, webhook=deps.webhook)
    except BaseException:
        path.unlink(missing_ok=True)  # nothing was indexed from it: not kept
        raise
    if result.indexed:
        return Outcome("indexed", result.indexed[0], path=str(path), interviews=(*result.indexed,))
    path.unlink(missing_ok=True)  # not kept: it became no candidate
    if result.failed:
        failure = result.failed[0]
        said = ParseError(failure.error, failure.line, code=failure.code, params=failure.params)
        return _parse_reply(said, deps)
    if result.skipped:
        return _parse_reply(NotATranscript(result.skipped[0].reason), deps)
    return Outcome("forgotten", reply=notice(t(locale, "upload_forgotten")))


def _foreign(team: object, own_team: str | None) -> bool:
    return bool(team) and bool(own_team) and team != own_team


def handle_file(
    file: dict[str, Any],
    event: dict[str, Any],
    deps: Deps,
    client: WebClient,
    own_team: str | None,
) -> Outcome | None:
    """One shared file: claimed, fetched, taken. None when this event was seen before."""
    channel, ts, user = str(event["channel"]), str(event["ts"]), str(event.get("user") or "?")
    file_id = str(file.get("id") or "")
    if not file_id:
        return None
    if _foreign(event.get("user_team"), own_team) or _foreign(file.get("user_team"), own_team):
        logger.warning("a file from another organisation was shared in %s: not downloaded", channel)
        return Outcome("foreign")
    key = f"{channel}:{ts}:{file_id}"
    if not deps.store.claim_upload(key, file_id, channel, ts, user):
        return None  # the same event again: handled the first time
    try:
        info = client.files_info(file=file_id).get("file") or {}
        if _foreign(info.get("user_team"), own_team):
            deps.store.finish_upload(key, "foreign")
            return Outcome("foreign")
        mimetype = str(info.get("mimetype") or "")
        refused = refused_unread(mimetype)
        size, limit = int(info.get("size") or 0), size_limit(mimetype)
        if refused is not None:
            outcome = _parse_reply(refused, deps)
        elif size > limit:
            outcome = _parse_reply(_too_large(size, limit), deps)
        else:
            url = str(info.get("url_private_download") or info.get("url_private") or "")
            data = download(url, client.token or "", client.base_url, limit)
            outcome = take_file(info, data, deps)
        deps.store.finish_upload(key, outcome.kind, outcome.candidate_id, outcome.path)
    except (SlackApiError, DownloadError) as exc:
        _release(deps, key)
        logger.warning("could not fetch a shared file: %s", exc)
        return Outcome("failed", reply=notice(t(deps.locale, "upload_failed")))
    except Exception:
        # whatever broke (the disk, the database, a bug): the claim is given back, so the
        # file is not left half-handled for ever, and the uploader is told
        _release(deps, key)
        logger.exception("could not take a shared file")
        return Outcome("failed", reply=notice(t(deps.locale, "upload_broke")))
    return outcome


def _release(deps: Deps, key: str) -> None:
    """Give a claim back (sharing the file again, or Slack's retry, then works)."""
    try:
        deps.store.release_upload(key)
    except Exception:
        logger.exception("could not release the claim on a shared file")


def indexed_message(outcome: Outcome, deps: Deps, posted_by: str) -> Message | None:
    """The card of what a file became (`outcome.kind` "indexed"): the first interview's
    summary, with the people it may be (issue 45) and, for a file of several, all of
    their ids (issue 46); None when it is gone meanwhile."""
    if outcome.candidate_id is None:
        return None
    candidate = deps.store.get_candidate(outcome.candidate_id)
    if candidate is None:
        return None
    message = summary_view(candidate, deps.locale, posted_by)
    alike = deps.store.people_alike(candidate.id)  # issue 45: whose it is, to pick
    if alike is not None:
        said = alike_blocks(candidate.id, candidate.name or candidate.id, alike, deps.locale, True)
        message.blocks[2:2] = [b.to_dict() for b in said]
    if len(outcome.interviews) > 1:  # issue 46: a file of several, each indexed
        ids = t(deps.locale, "name_separator").join(fit(i, 100)[0] for i in outcome.interviews[:20])
        several = t(deps.locale, "upload_several", count=len(outcome.interviews), ids=ids)
        message.blocks[0:0] = [section(several).to_dict()]  # above the card
        message.text = f"{several}\n{message.text}"
    return message


def _answer(
    outcome: Outcome, event: dict[str, Any], deps: Deps, client: WebClient, shared: bool = False
) -> None:
    """Answer in the file's thread: the summary card, or what went wrong; only to the
    uploader in a channel shared with another organisation (`shared`: the event says so)."""
    channel, ts, user = str(event["channel"]), str(event["ts"]), str(event.get("user") or "")
    message = outcome.reply
    kind = ""
    if outcome.kind == "indexed" and outcome.candidate_id:
        message, kind = indexed_message(outcome, deps, user or "?"), "summary"
    if message is None:
        return
    thread = str(event.get("thread_ts") or ts)
    refused = refusal_key(may_post(channel, client, deps, hint=shared))
    if refused is not None:
        why = f"{t(deps.locale, refused)}\n{t(deps.locale, 'shared_only_you')}"
        answer_privately(client, channel, user, thread, why, message.text, message.blocks)
        refusal = AuditEvent(user or "?", "refused:shared", outcome.candidate_id, channel)
        record(deps.store, [refusal])
        return
    try:
        response = client.chat_postMessage(
            channel=channel,
            thread_ts=thread,
            text=message.text,
            blocks=message.blocks,
            unfurl_links=False,
            unfurl_media=False,
        )
    except SlackApiError as exc:
        logger.warning("could not answer an upload: %s", exc.response.get("error"))
        return
    posted = str(response.get("ts") or "")
    if kind and posted and outcome.candidate_id:
        deps.store.record_post(channel, posted, outcome.candidate_id, kind)
        record(deps.store, [AuditEvent(user or "?", f"post:{kind}", outcome.candidate_id, channel)])


_AUDIT = {
    "indexed": "upload",
    "duplicate": "upload:duplicate",
    "forgotten": "upload:forgotten",
    "not_transcript": "upload:rejected",
    "parse_error": "upload:rejected",
    "failed": "upload:failed",
    "foreign": "refused:upload",
}


def handle_file_share(
    event: dict[str, Any],
    deps: Deps,
    client: WebClient,
    own_team: str | None,
    shared: bool = False,
) -> list[Outcome]:
    """Every file of a `file_share` message: taken, answered, audited (`shared`: the event
    says its channel is shared with another organisation)."""
    outcomes: list[Outcome] = []
    if not event.get("channel") or not event.get("ts"):
        return outcomes
    for file in (event.get("files") or [])[:10]:
        if not isinstance(file, dict):
            continue
        outcome = handle_file(file, event, deps, client, own_team)
        if outcome is None:
            continue
        _finish(outcome, event, deps, client, shared)
        outcomes.append(outcome)
    return outcomes


def _finish(
    outcome: Outcome, event: dict[str, Any], deps: Deps, client: WebClient, shared: bool = False
) -> None:
    user = str(event.get("user") or "?")
    record(
        deps.store,
        [AuditEvent(user, _AUDIT[outcome.kind], outcome.candidate_id, str(event["channel"]))],
    )
    _answer(outcome, event, deps, client, shared)


def resume_uploads(deps: Deps, client: WebClient, own_team: str | None) -> list[Outcome]:
    """Finish the shared files whose handling was claimed and never finished (the process
    that took them died): each is fetched, taken and answered as if shared just now.
    `serve` runs this once at start; a claim still within its lease is left alone."""
    outcomes: list[Outcome] = []
    for pending in deps.store.stale_uploads():
        event = {"channel": pending.channel, "ts": pending.ts, "user": pending.user}
        outcome = handle_file({"id": pending.file_id}, event, deps, client, own_team)
        if outcome is None:
            continue  # another replica took it meanwhile
        logger.info("finished a shared file left unanswered in %s", pending.channel)
        _finish(outcome, event, deps, client)
        outcomes.append(outcome)
    return outcomes


def erase_files(paths: list[str]) -> int:
    """Overwrite and delete saved uploads (`forget`); how many were there."""
    erased = 0
    for path in paths:
        try:
            size = os.path.getsize(path)
            with open(path, "r+b") as fh:
                fh.write(b"\0" * size)
                fh.flush()
                os.fsync(fh.fileno())
            os.remove(path)
        except FileNotFoundError:
            continue
        erased += 1
    return erased
