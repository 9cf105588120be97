"""Transcripts shared in Slack: `message` events with `subtype: file_share`, signed, over
HTTP; the strict fake serves the file's bytes only to a request with the bot token."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fakes import FakeFile, FakeSlack
from slackbot import Bot, start_bot
from waiting import wait_until

from bot.cli import cli
from handlers.uploads import safe_name
from store.indexer import index_paths

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
    [saved] = (Path(bot.store.path).parent / "uploads").iterdir()
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
    assert not (Path(bot.store.path).parent / "uploads").exists()
    assert audit(bot, "upload:duplicate") == [("U123", "000_9e6b3ecb0732fcf3", "C123")]


def test_a_parse_error_says_its_line(bot: Bot) -> None:
    ts = share(bot, FakeFile("F4", "broken.txt", "岗位：后端\n问题1：x\n\x00回答".encode()))
    assert reply_to(bot, ts)["text"] == (
        "无法读取这份面试记录（第 3 行）：binary file, not text (NUL byte)"
    )
    assert bot.store.get_candidate("broken") is None


def test_not_a_transcript_says_why(bot: Bot) -> None:
    ts = share(bot, FakeFile("F5", "README.md", b"# Notes\nnothing to see here\n"))
    assert reply_to(bot, ts)["text"].startswith("这不是面试记录：")
    ts = share(bot, FakeFile("F6", "photo.png", b"\x89PNG....", mimetype="image/png"))
    assert reply_to(bot, ts)["text"] == "这不是面试记录：not a text file (image/png)"
    assert bot.fake.calls("files/T0001-F6") == []  # never downloaded
    assert not (Path(bot.store.path).parent / "uploads").exists()


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
    saved = Path(bot.store.path).parent / "uploads" / "erase-me.txt"
    assert saved.exists()
    result = CliRunner().invoke(cli, ["forget", "erase-me", "--db", bot.store.path])
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
