"""Erasure that erases: `debrief forget` (the CLI in-process, its own connections) against a bot serving on loopback.

Whether or not the file is still there, the candidate, their reviews, posts and threads go
in one transaction; later replies in their threads are not recorded; `--restore` brings
back the transcript only; the bytes are gone from the database files; the audit holds a
pseudonym instead of the id."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.cli import Ran
from support.cli import debrief as run_debrief
from support.fake_slack import FakeSlack
from support.slackbot import Bot, start_bot
from support.waiting import wait_until

from store.indexer import index_paths
from store.sqlite.store import Store

CID = "zebra_candidate"
SECRET_TEXT = "ZEBRAFISH量子纠缠实验"  # in the transcript
REPLY_TEXT = "PELICAN暗号七七七"  # in a reviewer's reply
TRANSCRIPT = (
    "岗位：后端工程师 从业年限：5年\n"
    f"简介：{SECRET_TEXT}，做过分布式系统。\n"
    "问题1：讲讲一致性\n考察目标：基础\n回答：Raft\n"
    "问题2：讲讲缓存\n考察目标：经验\n回答：\n"
    "点评：可以\n"
)


def debrief(*args: str) -> Ran:
    return run_debrief(*args)


def debrief_json(*args: str) -> Any:
    done = debrief(*args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def count(store: Store, table: str) -> int:
    return int(store.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "transcripts"
    path.mkdir()
    (path / f"{CID}.txt").write_text(TRANSCRIPT, "utf-8")
    return path


@pytest.fixture
def served(fake_slack: FakeSlack, tmp_path: Path, folder: Path) -> Iterator[Bot]:
    bot = start_bot(fake_slack, str(tmp_path / "erase.db"))
    assert index_paths(bot.store, [folder]).indexed == [CID]
    try:
        yield bot
    finally:
        bot.server.stop()


def reply(bot: Bot, parent: str, ts: str, text: str) -> None:
    event = {"type": "message", "channel": "C123", "user": "UREV", "text": text, "ts": ts}
    assert bot.event(event | {"thread_ts": parent}) == 200


def reviewed(bot: Bot) -> str:
    """Post the verdict in the channel and reply to it twice: a decision and a follow-up."""
    bot.command(f"点评 {CID}", name="v")
    bot.fake.wait_for("chat.postMessage")
    wait_until('count(bot.store, "posts") == 1', lambda: count(bot.store, "posts") == 1)
    parent = str(bot.store.db.execute("SELECT ts FROM posts").fetchone()[0])
    reply(bot, parent, "1800000000.1", f"hire {REPLY_TEXT}")
    reply(bot, parent, "1800000000.2", "问题2：补充了缓存的答案")
    wait_until('count(bot.store, "replies") == 2', lambda: count(bot.store, "replies") == 2)
    bot.fake.wait_for("reactions.add")
    settled(bot)
    return parent


def settled(bot: Bot) -> None:
    """The bot finished with every request it took, and wrote their audit lines: what
    `debrief` reads or erases next (in-process, with no start-up to wait out) sees them."""
    bot.idle()
    assert bot.store.flush_audit()


def database_bytes(db_path: str) -> bytes:
    return b"".join(
        Path(db_path + suffix).read_bytes()
        for suffix in ("", "-wal")
        if Path(db_path + suffix).exists()
    )


def test_forget_after_the_file_was_removed(served: Bot, folder: Path) -> None:
    bot = served
    parent = reviewed(bot)
    (folder / f"{CID}.txt").unlink()
    assert index_paths(bot.store, [folder]).removed == [CID]
    assert count(bot.store, "replies") == 2  # the reviews outlive the file until forget

    out = debrief_json("forget", CID, "--db", bot.store.path)
    assert out["removed"] | {"questions": 0, "fulltext_rows": 0} == {
        "questions": 0,
        "decisions": 1,
        "followups": 1,
        "replies": 2,
        "posts": 1,
        "fulltext_rows": 0,
    }
    assert count(bot.store, "replies") == 0 and count(bot.store, "posts") == 0

    # A reply arriving later in their thread is not recorded (nor acknowledged with a reaction).
    reply(bot, parent, "1800000000.3", "no hire")
    reply(bot, parent, "1800000000.3", "no hire")  # Slack's retry: the same event again
    settled(bot)
    assert count(bot.store, "replies") == 0
    assert len(bot.fake.calls("reactions.add")) == 1

    entries = debrief_json("audit", "--db", bot.store.path)
    subjects = {e["candidate"] for e in entries}
    assert CID not in json.dumps(entries)
    assert subjects == {bot.store.pseudonym(CID)}
    assert {e["what"] for e in entries} >= {"lookup:verdict", "decision:hire", "forget"}


def test_a_reply_racing_forget_is_not_recorded(served: Bot) -> None:
    """The handler found the thread's candidate, then forget ran, then the reply is written:
    the write sees the tombstone in its own transaction."""
    bot = served
    parent = reviewed(bot)
    candidate = bot.store.post_candidate("C123", parent)
    assert candidate == CID
    assert bot.store.forget(CID) is not None
    outcome = bot.store.record_reply("C123", "1800000000.9", parent, CID, "UREV", "strong hire")
    assert not outcome.recorded and not outcome.react
    assert count(bot.store, "replies") == 0


def test_restore_brings_back_the_transcript_only(served: Bot, folder: Path) -> None:
    bot = served
    parent = reviewed(bot)
    debrief_json("forget", CID, "--db", bot.store.path)
    assert debrief("show", CID, "--db", bot.store.path).returncode == 1
    restored = debrief_json("forget", CID, "--restore", "--db", bot.store.path)
    assert restored["indexed"] == [CID]
    shown = debrief_json("show", CID, "--db", bot.store.path)
    assert SECRET_TEXT in shown["intro"]
    assert shown["decisions"] == [] and shown["followups"] == []
    # its old thread stays forgotten
    reply(bot, parent, "1800000000.4", "hire")
    settled(bot)
    assert count(bot.store, "replies") == 0
    assert bot.store.post_candidate("C123", parent) is None
    # the audit keeps the pseudonym for every event about them, the restore included
    entries = debrief_json("audit", "--db", bot.store.path)
    assert CID not in json.dumps(entries)
    assert [e["what"] for e in entries][-2:] == ["forget", "restore"]


def test_the_bytes_are_gone(served: Bot) -> None:
    bot = served
    reviewed(bot)
    before = database_bytes(bot.store.path)
    assert SECRET_TEXT.encode() in before and REPLY_TEXT.encode() in before
    assert CID.encode() in before

    debrief_json("forget", CID, "--db", bot.store.path)

    after = database_bytes(bot.store.path)
    assert SECRET_TEXT.encode() not in after
    assert "量子纠缠实验".encode() not in after
    assert REPLY_TEXT.encode() not in after
    assert "补充了缓存的答案".encode() not in after


def test_forget_takes_the_replies_deleted_in_their_threads_too(served: Bot) -> None:
    """A reply deleted in a candidate's thread is remembered (a late delivery of it stays
    deleted, store/threads.py); forget takes that record with the rest."""
    bot = served
    parent = reviewed(bot)
    gone = {"type": "message", "subtype": "message_deleted", "channel": "C123", "hidden": True}
    gone |= {"deleted_ts": "1800000000.2", "ts": "1800000000.5", "event_ts": "1800000000.5"}
    gone["previous_message"] = {"user": "UREV", "ts": "1800000000.2", "thread_ts": parent}
    assert bot.event(gone) == 200
    wait_until("the reply gone", lambda: count(bot.store, "replies") == 1)
    settled(bot)
    assert count(bot.store, "deleted_replies") == 1

    debrief_json("forget", CID, "--db", bot.store.path)

    assert count(bot.store, "deleted_replies") == 0
    reply(bot, parent, "1800000000.2", "问题2：补充了缓存的答案")  # its late delivery
    settled(bot)
    assert count(bot.store, "replies") == 0


def test_forget_unknown_is_still_an_error(served: Bot) -> None:
    done = debrief("forget", "nobody_at_all", "--db", served.store.path)
    assert done.returncode == 2 and "nobody_at_all" in done.stderr
