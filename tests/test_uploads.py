"""Transcripts shared in Slack: `message` events with `subtype: file_share`, signed, over
HTTP; the strict fake serves the file's bytes only to a request with the bot token."""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner
from support.fake_slack import FakeSlack
from support.servers import HttpServer
from support.signed import command_body, post_signed
from support.slackbot import SECRET, Bot, start_bot
from support.waiting import wait_until
from support.web_api import FakeFile

from bot.cli import cli
from handlers.downloads import DownloadError, _SameOriginsOnly, token_origins
from handlers.uploads import safe_name
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
SEED = (SEEDS / "000_9e6b3ecb0732fcf3.txt").read_bytes()


_ts = iter(range(1, 10_000))


def share(
    bot: Bot,
    file: FakeFile,
    channel: str = "C123",
    user: str = "U123",
    ts: str | None = None,
    event_id: str | None = None,
    headers: dict[str, str] | None = None,
) -> str:
    """Share `file` in `channel` as Slack sends it: a file_share message event."""
    bot.fake.add_file(file)
    ts = ts or f"1800000000.{next(_ts):06d}"
    event = {
        "type": "message",
        "subtype": "file_share",
        "text": "",
        "user": user,
        "team": "T0001",
        "user_team": "T0001",
        "source_team": "T0001",
        "channel": channel,
        "channel_type": "im" if channel.startswith("D") else "channel",
        "ts": ts,
        "event_ts": ts,
        "upload": True,
        "display_as_bot": False,
        "files": [
            {
                "id": file.id,
                "name": file.name,
                "title": file.name,
                "mimetype": file.mimetype,
                "filetype": file.filetype,
                "user": file.user,
                "user_team": file.user_team,
                "size": len(file.content),
                "mode": "hosted",
            }
        ],
    }
    assert bot.event(event, event_id=event_id, headers=headers) == 200
    return ts


def thread_replies(bot: Bot, ts: str) -> list[dict[str, Any]]:
    return [
        {"text": c.params.get("text"), "blocks": c.json_param("blocks")}
        for c in bot.fake.calls("chat.postMessage")
        if c.ok and c.params.get("thread_ts") == ts
    ]


def reply_to(bot: Bot, ts: str) -> dict[str, Any]:
    replies: list[dict[str, Any]] = wait_until(
        "thread_replies(bot, ts)", lambda: thread_replies(bot, ts)
    )
    assert len(replies) == 1, replies
    return replies[0]


def transcript(extra: str = "") -> bytes:
    """A seed transcript with different bytes (so it is not already indexed)."""
    return SEED + f"\n{extra or time.monotonic_ns()}\n".encode()


def audit(bot: Bot, what: str) -> list[tuple[str, str | None, str | None]]:
    return [(e.who, e.candidate, e.channel) for e in bot.store.audit_log() if e.what == what]


def test_a_shared_transcript_is_downloaded_with_the_token_saved_indexed_and_answered(
    bot: Bot,
) -> None:
    ts = share(bot, FakeFile("F1", "王五 面试/记录.txt", transcript()))
    reply = reply_to(bot, ts)
    [download] = bot.fake.calls("files/T0001-F1")
    assert download.ok and download.token == "xoxb-test"
    [saved] = bot.settings.uploads_dir.iterdir()
    assert saved.name == "记录.txt"  # only the name, never a path from the file
    cid = "记录"
    candidate = bot.store.get_candidate(cid)
    assert candidate is not None and candidate.source == str(saved)
    assert cid in json.dumps(reply["blocks"], ensure_ascii=False)  # the summary card
    assert wait_until('audit(bot, "upload")', lambda: audit(bot, "upload")) == [
        ("U123", cid, "C123")
    ]
    # the card was posted on purpose: replies in its thread count for the candidate
    bot.idle()  # the post is recorded after Slack took it, once the listener is done
    posted = [c for c in bot.fake.calls("chat.postMessage") if c.params.get("thread_ts") == ts]
    row = bot.store.db.execute("SELECT candidate_id, kind FROM posts").fetchall()
    assert len(posted) == 1 and [tuple(r) for r in row] == [(cid, "summary")]


def test_a_retried_event_is_indexed_once(bot: Bot) -> None:
    file = FakeFile("F2", "retry.txt", transcript())
    ts = share(bot, file, event_id="EvA")
    reply_to(bot, ts)
    share(bot, file, ts=ts, event_id="EvA", headers={"X-Slack-Retry-Num": "1"})
    share(bot, file, ts=ts, event_id="EvA", headers={"X-Slack-Retry-Num": "2"})
    # a later upload answered: the retries, delivered before it, were handled by then
    reply_to(bot, share(bot, FakeFile("F2b", "later.txt", transcript())))
    bot.idle()  # every delivery handled (the listener pool does not keep their order)
    assert len(audit(bot, "upload")) == 2
    assert len(bot.fake.calls("files.info")) == 2
    assert len(thread_replies(bot, ts)) == 1
    assert bot.store.get_candidate("retry") is not None


def test_the_same_content_again_is_already_indexed(bot: Bot) -> None:
    ts = share(bot, FakeFile("F3", "seed-again.txt", SEED))
    reply = reply_to(bot, ts)
    assert reply["text"] == "这份记录已经收录过了：000_9e6b3ecb0732fcf3"
    assert not bot.settings.uploads_dir.exists()
    assert audit(bot, "upload:duplicate") == [("U123", "000_9e6b3ecb0732fcf3", "C123")]


def test_a_parse_error_says_its_line(bot: Bot) -> None:
    ts = share(bot, FakeFile("F4", "broken.txt", "岗位：后端\n问题1：x\n\x00回答".encode()))
    assert reply_to(bot, ts)["text"] == (
        "无法读取这份面试记录（第 3 行）：二进制文件，不是文本（含 NUL 字节）："
        "如果它是面试记录，请另存为 .docx、.txt 或 .md"
    )
    assert bot.store.get_candidate("broken") is None


def test_not_a_transcript_says_why(bot: Bot) -> None:
    ts = share(bot, FakeFile("F5", "README.md", b"# Notes\nnothing to see here\n"))
    assert reply_to(bot, ts)["text"].startswith("这不是面试记录：")
    ts = share(bot, FakeFile("F6", "photo.png", b"\x89PNG....", mimetype="image/png"))
    assert reply_to(bot, ts)["text"] == (
        "这不是面试记录：不是文字文件（image/png）：请把面试记录存为 .docx、.txt 或 .md 再分享"
    )
    assert bot.fake.calls("files/T0001-F6") == []  # never downloaded
    assert not bot.settings.uploads_dir.exists()


def test_a_file_from_another_organisation_is_never_downloaded(bot: Bot) -> None:
    ts = share(bot, FakeFile("F7", "connect.txt", transcript(), user_team="T9999"))
    wait_until('audit(bot, "refused:upload")', lambda: audit(bot, "refused:upload"))
    assert bot.fake.calls("files.info") == [] and bot.fake.calls("files/T0001-F7") == []
    assert thread_replies(bot, ts) == []
    assert bot.store.get_candidate("connect") is None


def test_a_transcript_sent_in_a_dm_is_answered_there(bot: Bot) -> None:
    bot.fake.member_channels.add("D123")
    ts = share(bot, FakeFile("F8", "私信.txt", transcript()), channel="D123")
    reply = reply_to(bot, ts)
    assert "私信" in json.dumps(reply["blocks"], ensure_ascii=False)


def test_forget_deletes_the_uploaded_file(bot: Bot) -> None:
    ts = share(bot, FakeFile("F9", "erase-me.txt", transcript()))
    reply_to(bot, ts)
    saved = bot.settings.uploads_dir / "erase-me.txt"
    assert saved.exists()
    result = CliRunner().invoke(cli, ["forget", "erase-me", "--db", bot.settings.db_path])
    assert result.exit_code == 0, result.output
    assert not saved.exists()
    assert bot.store.uploaded_files("erase-me") == []


def test_the_fake_serves_files_only_with_the_bot_token(fake_slack: FakeSlack) -> None:
    fake_slack.add_file(FakeFile("F10", "a.txt", b"secret"))
    url = f"{fake_slack.url}files-pri/T0001-F10/download/a.txt"
    with urllib.request.urlopen(url, timeout=5) as response:
        assert response.headers["Content-Type"].startswith("text/html")
        assert b"secret" not in response.read()
    request = urllib.request.Request(url, headers={"Authorization": "Bearer xoxb-test"})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.read() == b"secret"
    # the refusal is a broken rule, as a bot that forgot its token would be told
    assert [c.error for c in fake_slack.refusals()] == ["not_authed"]
    fake_slack.reset()


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("../../etc/passwd", "passwd.txt"),
        ("张三 面试.TXT", "张三_面试.TXT"),
        (".hidden.txt", "hidden.txt"),
        ("a\\b\\c.txt", "c.txt"),
        ("", "F1.txt"),
        ("x.exe;rm -rf", "x.txt"),
    ],
)
def test_safe_names(name: str, expected: str) -> None:
    assert safe_name(name, "F1") == expected


@pytest.fixture
def restricted_bot(fake_slack: FakeSlack, tmp_path: Path) -> Iterator[Bot]:
    running = start_bot(
        fake_slack,
        str(tmp_path / "bot.db"),
        allowed_users_raw="U123",
        allowed_channels_raw="C123",
        uploads=str(tmp_path / "shared-in-slack"),
    )
    assert not index_paths(running.store, [SEEDS]).failed
    try:
        yield running
    finally:
        running.server.stop()


def test_access_rules_apply_to_uploads(restricted_bot: Bot, tmp_path: Path) -> None:
    bot = restricted_bot
    bot.fake.member_channels.add("CRANDOM")  # Slack sends the bot only its channels' messages
    share(bot, FakeFile("F11", "outsider.txt", transcript()), user="U999")
    share(bot, FakeFile("F12", "elsewhere.txt", transcript()), channel="CRANDOM")
    refused = wait_until(
        '[e for e in bot.store.audit_log() if e.what.startswith("refused")]',
        lambda: [e for e in bot.store.audit_log() if e.what.startswith("refused")],
    )
    assert len(refused) == 2
    assert bot.fake.calls("files.info") == []
    ts = share(bot, FakeFile("F13", "inside.txt", transcript()))
    reply_to(bot, ts)
    assert (tmp_path / "shared-in-slack" / "inside.txt").exists()  # DEBRIEF_UPLOADS


def ephemerals(bot: Bot, channel: str) -> list[tuple[str, str]]:
    return [
        (str(c.params.get("user")), str(c.params.get("text")))
        for c in bot.fake.calls("chat.postEphemeral")
        if c.ok and c.params.get("channel") == channel
    ]


def test_a_refused_upload_is_told_in_the_words_of_a_refused_command(
    restricted_bot: Bot,
) -> None:
    """With DEBRIEF_ALLOWED_CHANNELS set, a DM with the bot is not one of them: an upload
    there is refused as `/candidate` typed there is, with the same words, to the uploader."""
    bot = restricted_bot
    bot.fake.member_channels.add("D123")
    body = command_body("总结 000", channel_id="D123", channel_name="directmessage")
    status, _headers, answer = post_signed(bot.events_url, body, SECRET)
    assert status == 200
    refused_command = json.loads(answer)
    assert refused_command["text"] == "这个频道不能显示候选人信息。请在招聘频道里使用。"
    ts = share(bot, FakeFile("F14", "私信.txt", transcript()), channel="D123")
    told = wait_until('ephemerals(bot, "D123")', lambda: ephemerals(bot, "D123"))
    assert told == [("U123", refused_command["text"])]
    bot.idle()
    assert bot.fake.calls("files.info") == [] and thread_replies(bot, ts) == []
    assert bot.store.get_candidate("私信") is None


def test_eight_uploads_of_one_name_at_once_become_eight_candidates(bot: Bot) -> None:
    """Two recruiters sharing `面试记录.txt` at the same moment, eight times over: each
    file becomes its own candidate, holding its own text, and each gets its answer."""
    files = [FakeFile(f"FS{i}", "面试记录.txt", transcript(f"标记{i}号")) for i in range(8)]
    with ThreadPoolExecutor(len(files)) as pool:
        stamps = list(pool.map(lambda f: share(bot, f), files))
    for ts in stamps:
        reply_to(bot, ts)
    bot.idle()
    rows = bot.store.db.execute(
        "SELECT file_id, candidate_id, outcome, path FROM uploads WHERE file_id LIKE ?", ["FS%"]
    ).fetchall()
    assert sorted(r[2] for r in rows) == ["indexed"] * 8
    by_file = {r[0]: (r[1], r[3]) for r in rows}
    assert len({cid for cid, _ in by_file.values()}) == 8
    for i, f in enumerate(files):
        cid, path = by_file[f.id]
        assert Path(path).read_bytes() == f.content
        candidate = bot.store.get_candidate(cid)
        assert candidate is not None and candidate.source == path
        text = candidate.model_dump_json()
        assert f"标记{i}号" in text
        assert not any(f"标记{j}号" in text for j in range(8) if j != i)
    saved = sorted(p.name for p in Path(by_file["FS0"][1]).parent.iterdir())
    assert len(saved) == 8 and not [n for n in saved if n.endswith(".part")]
    assert "面试记录.txt" in saved
    assert Path(by_file["FS0"][1]).parent == bot.settings.uploads_dir


@pytest.mark.slack_refusals_expected
def test_a_failure_while_saving_gives_the_claim_back_and_tells_the_uploader(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> None:
    """Anything that breaks half-way (here the uploads folder cannot be made) leaves no
    claim behind: the uploader is told, and the same event delivered again is taken."""
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the uploads folder should be")
    bot = start_bot(fake_slack, db_target, uploads=str(blocker / "uploads"))
    try:
        file = FakeFile("FX1", "broken-disk.txt", transcript())
        ts = share(bot, file, event_id="EvX")
        assert reply_to(bot, ts)["text"] == (
            "抱歉，保存这个文件时出了问题，它没有被收录。请稍后再分享一次。"
        )
        bot.idle()
        assert bot.store.db.execute("SELECT count(*) FROM uploads").fetchone()[0] == 0
        blocker.unlink()
        share(bot, file, ts=ts, event_id="EvX", headers={"X-Slack-Retry-Num": "1"})
        bot.fake.wait_for("chat.postMessage", count=2)
        bot.idle()
        assert bot.store.get_candidate("broken-disk") is not None
        assert (blocker / "uploads" / "broken-disk.txt").exists()
    finally:
        bot.server.stop()
        bot.store.close()


def test_a_retry_takes_over_a_claim_left_by_a_process_that_died(bot: Bot) -> None:
    file = FakeFile("FC1", "crashed.txt", transcript())
    bot.fake.add_file(file)
    ts = "1800000001.000001"
    key = f"C123:{ts}:FC1"
    assert bot.store.claim_upload(key, "FC1", "C123", ts, "U123")  # then the process died
    # within the lease the claim holds: the first process may still be at work
    share(bot, file, ts=ts, event_id="EvC", headers={"X-Slack-Retry-Num": "1"})
    bot.idle()
    assert thread_replies(bot, ts) == [] and bot.fake.calls("files.info") == []
    bot.store.db.execute(
        "UPDATE uploads SET at = ? WHERE key = ?", ["2026-01-01T00:00:00.000000+00:00", key]
    )
    share(bot, file, ts=ts, event_id="EvC", headers={"X-Slack-Retry-Num": "2"})
    assert "crashed" in json.dumps(reply_to(bot, ts)["blocks"], ensure_ascii=False)
    assert bot.store.get_candidate("crashed") is not None
    [(outcome,)] = bot.store.db.execute("SELECT outcome FROM uploads WHERE key = ?", [key])
    assert outcome == "indexed"


def test_serve_answers_an_upload_a_dead_process_left_claimed(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> None:
    """`debrief serve`, started again after a crash, finishes what was claimed and never
    answered (Slack will not send an event again once it was acknowledged)."""
    from store.factory import open_store

    file = FakeFile("FR1", "left-behind.txt", transcript())
    fake_slack.add_file(file)
    fake_slack.member_channels.add("C123")
    store = open_store(db_target)
    ts = "1800000002.000001"
    store.claim_upload(f"C123:{ts}:FR1", "FR1", "C123", ts, "U123")
    store.db.execute("UPDATE uploads SET at = ?", ["2026-01-01T00:00:00.000000+00:00"])
    store.close()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))}
    env |= {
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_SIGNING_SECRET": "secret",
        "SLACK_API_URL": fake_slack.base_url,
        "DEBRIEF_DB": db_target,
        "DEBRIEF_UPLOADS": str(tmp_path / "uploads"),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "serve", "--port", "0", "--host", "127.0.0.1"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        [post] = fake_slack.wait_for("chat.postMessage", timeout=30)
        assert post.params["thread_ts"] == ts and post.params["channel"] == "C123"
        assert "left-behind" in json.dumps(post.json_param("blocks"), ensure_ascii=False)
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=15)
    assert "Traceback" not in out.decode("utf-8", "replace")
    store = open_store(db_target)
    try:
        assert store.get_candidate("left-behind") is not None
        assert (tmp_path / "uploads" / "left-behind.txt").exists()
    finally:
        store.close()


class _Elsewhere(http.server.BaseHTTPRequestHandler):
    """A server the token must never reach: it records every request."""

    seen: ClassVar[list[dict[str, str]]] = []

    def do_GET(self) -> None:
        self.seen.append(dict(self.headers))
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        self.wfile.write(SEED)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def elsewhere() -> Iterator[str]:
    _Elsewhere.seen = []
    with HttpServer(_Elsewhere) as server:
        yield server.url


def test_a_redirect_to_another_port_of_the_same_host_is_not_followed(
    bot: Bot, elsewhere: str
) -> None:
    """The fake Web API and this server share a host (127.0.0.1); only the port differs.
    The token goes to exactly the origin it is for, on every hop."""
    target = f"{elsewhere}/steal/redirected.txt"
    ts = share(bot, FakeFile("FR2", "redirected.txt", transcript(), redirect=target))
    assert reply_to(bot, ts)["text"] == "无法从 Slack 下载这个文件，请重新分享一次。"
    assert _Elsewhere.seen == []
    assert bot.store.get_candidate("redirected") is None


@pytest.mark.parametrize(
    ("api", "url", "allowed"),
    [
        ("https://slack.com/api/", "https://files.slack.com/files-pri/T-F/x.txt", True),
        ("https://slack.com/api/", "http://files.slack.com/files-pri/T-F/x.txt", False),
        ("https://slack.com/api/", "https://files.slack.com:8443/files-pri/T-F/x.txt", False),
        ("https://slack.com/api/", "https://slack.com/api/files/x", True),
        ("https://slack.com/api/", "http://slack.com/api/files/x", False),
        ("https://slack.com/api/", "https://files.slack.com.evil.example/x", False),
        ("https://slack.com/api/", "https://evil.example/?files.slack.com", False),
        ("http://127.0.0.1:8000/api/", "http://127.0.0.1:8000/files-pri/x", True),
        ("http://127.0.0.1:8000/api/", "http://127.0.0.1:8001/files-pri/x", False),
        ("http://127.0.0.1:8000/api/", "https://127.0.0.1:8000/files-pri/x", False),
    ],
)
def test_where_the_token_may_go(api: str, url: str, allowed: bool) -> None:
    """Every hop of a download, the first included: Slack's file host over https, or the
    Web API exactly as configured (scheme, host and port)."""
    handler = _SameOriginsOnly(token_origins(api))
    request = urllib.request.Request(api, headers={"Authorization": "Bearer xoxb-test"})
    if allowed:
        followed = handler.redirect_request(request, None, 302, "Found", {}, url)
        assert followed is not None and followed.full_url == url
    else:
        with pytest.raises(DownloadError):
            handler.redirect_request(request, None, 302, "Found", {}, url)


@pytest.mark.parametrize("indexed_since", [True, False], ids=["removed", "deleted-not-yet-removed"])
def test_an_upload_named_like_a_removed_file_never_inherits_its_reviews(
    bot: Bot, tmp_path: Path, indexed_since: bool
) -> None:
    """A folder file `面试记录.txt` was reviewed, then deleted; a recruiter shares another
    person's `面试记录.txt`. The new candidate gets an id of its own, with no reviews;
    the first file, coming back, finds its id and its reviews again."""
    folder = tmp_path / "transcripts"
    folder.mkdir()
    first = folder / "面试记录.txt"
    first.write_bytes(transcript("第一位候选人"))
    assert index_paths(bot.store, [folder]).indexed == ["面试记录"]
    bot.store.record_post("C123", "100.1", "面试记录", "verdict")
    bot.store.record_reply("C123", "100.2", "100.1", "面试记录", "U777", "通过，基础扎实")
    first_bytes = first.read_bytes()
    first.unlink()
    if indexed_since:
        assert index_paths(bot.store, [folder]).removed == ["面试记录"]

    ts = share(bot, FakeFile("FN1", "面试记录.txt", transcript("第二位候选人")))
    card = json.dumps(reply_to(bot, ts)["blocks"], ensure_ascii=False)
    bot.idle()
    [(cid,)] = bot.store.db.execute("SELECT candidate_id FROM uploads WHERE file_id = 'FN1'")
    assert cid != "面试记录" and cid.startswith("面试记录")
    new = bot.store.get_candidate(cid)
    assert new is not None and new.decisions == [] and "第二位候选人" in new.model_dump_json()
    assert "基础扎实" not in card and "U777" not in card

    first.write_bytes(first_bytes)  # the reviewed file is back, as it was
    again = index_paths(bot.store, [folder])
    assert again.indexed + again.unchanged == ["面试记录"] and again.removed == []
    back = bot.store.get_candidate("面试记录")
    assert back is not None and "第一位候选人" in back.model_dump_json()
    assert [d.reviewer for d in back.decisions] == ["U777"]
