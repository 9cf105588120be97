"""A file of several interviews (一面, 二面, HR面: issue 46) is indexed as one interview
each, with ids of their own (`stem` for a file of one, `stem-1`, `stem-2`, … for a file
of several), kept while the file is unchanged; a file read again with fewer interviews
loses the ones past its last, a file removed all of them (by an index run and by the
watcher), ids taken by another file are never shared, and forget erases one interview
of a file, not the others. The reader is the one contract the reader's helpers build
(store/transcripts/reader.py `read_interviews`); these tests give it a stand-in that
reads `=====`-separated labelled interviews, so that the store's side is tested on its
own, on SQLite and PostgreSQL, through `index_paths`, the watcher and the CLI in-process."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from support.cli import debrief as run_debrief
from support.slackbot import Bot
from support.web_api import FakeFile
from test_card import visible
from test_uploads import reply_to, share

from bot import cli
from bot.watcher import FolderWatcher
from handlers import uploads
from store.indexer import index_paths
from store.models import Transcript
from store.sqlite.store import Store
from store.transcripts import reader
from store.transcripts.parser import parse_transcript, transcript_id

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEPARATOR = "\n=====\n"


def several(data: bytes, name: str, source: str | None = None) -> list[Transcript]:
    """A reader of several interviews a file: each `=====`-separated part is a labelled
    interview; ids as the contract gives them."""
    parts = data.decode("utf-8").split(SEPARATOR)
    read = [parse_transcript(p.encode(), name, source) for p in parts]
    if len(read) == 1:
        return read
    stem = transcript_id(name)
    return [t.model_copy(update={"id": f"{stem}-{k}"}) for k, t in enumerate(read, 1)]


@pytest.fixture(autouse=True)
def _several_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "read_interviews", several)
    # `debrief index` reads in bounded worker processes, where the stand-in reader is not
    # the one used: here the command reads in this process (what is read is not the point)
    monkeypatch.setattr(cli, "default_workers", lambda: 0)


def interview(round_: str, topic: str, verdict: str = "建议通过。") -> str:
    return (
        f"姓名：王芳\n岗位：后端工程师\n轮次：{round_}\n从业年限：4年\n"
        f"问题1：讲讲{topic}？\n回答：{topic}是我做过最久的部分。\n点评：{verdict}\n"
    )


ROUNDS = [interview("一面", "Kafka 分区"), interview("二面", "调度器"), interview("HR面", "期望")]


def write(path: Path, parts: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SEPARATOR.join(parts), "utf-8")
    # a new time each write: the run never takes a rewrite for the same file unchanged
    stamp = path.stat().st_mtime_ns + 10**9 * (1 + len(parts))
    os.utime(path, ns=(stamp, stamp))


def test_each_interview_of_a_file_is_indexed_with_its_own_id(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    write(folder / "wangfang.md", ROUNDS)
    done = index_paths(store, [folder])
    assert done.indexed == ["wangfang", "wangfang-2", "wangfang-3"]
    assert not done.failed and not done.skipped and not done.removed
    rounds = [store.get_candidate(f"wangfang{k}") for k in ("", "-2", "-3")]
    assert [c.round for c in rounds if c] == ["一面", "二面", "HR面"]
    assert [c.questions[0].question for c in rounds if c] == [
        "讲讲Kafka 分区？",
        "讲讲调度器？",
        "讲讲期望？",
    ]
    assert {c.source for c in rounds if c} == {str(folder / "wangfang.md")}
    assert store.file_interviews() == {
        str(folder / "wangfang.md"): [("wangfang", 1), ("wangfang-2", 2), ("wangfang-3", 3)]
    }
    # each is found by what it says, alone
    assert [h.id for h in store.search("调度器")] == ["wangfang-2"]
    again = index_paths(store, [folder])  # unchanged: nothing read, nothing written
    assert again.unchanged == ["wangfang", "wangfang-2", "wangfang-3"]
    assert not again.indexed and not again.removed


def test_a_file_with_fewer_interviews_loses_the_rest(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    path = folder / "wangfang.md"
    write(path, ROUNDS)
    index_paths(store, [folder])
    write(path, ROUNDS[:2])
    done = index_paths(store, [folder])
    assert done.indexed == ["wangfang", "wangfang-2"] and done.removed == ["wangfang-3"]
    assert store.get_candidate("wangfang-3") is None
    assert store.search("期望") == []
    write(path, ROUNDS[:1])  # one interview: the first keeps the file's own id
    done = index_paths(store, [folder])
    assert done.indexed == ["wangfang"]
    assert done.removed == ["wangfang-2"]
    assert store.ids() == ["wangfang"]
    write(path, ROUNDS)  # several again: the first interview is still "wangfang"
    done = index_paths(store, [folder])
    assert done.indexed == ["wangfang", "wangfang-2", "wangfang-3"]
    assert done.removed == []
    path.unlink()  # gone: every interview goes
    done = index_paths(store, [folder])
    assert sorted(done.removed) == ["wangfang", "wangfang-2", "wangfang-3"]
    assert store.ids() == [] and store.file_interviews() == {}


def test_ids_another_file_has_are_never_shared(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    write(folder / "wangfang-2.md", [interview("一面", "网络")])  # a file of that name
    write(folder / "wangfang.md", ROUNDS[:2])
    done = index_paths(store, [folder])
    assert not done.failed
    ids = store.file_interviews()
    assert ids[str(folder / "wangfang-2.md")] == [("wangfang-2", 0)]
    theirs = [cid for cid, _part in ids[str(folder / "wangfang.md")]]
    assert len(theirs) == 2 and theirs[1] == theirs[0] + "-2"
    assert theirs[0].startswith("wangfang_") and theirs[1] != "wangfang-2"
    c = store.get_candidate("wangfang-2")
    assert c is not None and c.questions[0].question == "讲讲网络？"
    # the same ids on the next run (a known file keeps its id)
    (folder / "wangfang.md").write_text(SEPARATOR.join(ROUNDS), "utf-8")
    again = index_paths(store, [folder])
    assert again.indexed == [*theirs, theirs[0] + "-3"]


def test_the_watcher_removes_every_interview_of_a_file_gone(store: Store, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    write(folder / "wangfang.md", ROUNDS)
    write(folder / "lilei.md", [interview("一面", "网络")])
    index_paths(store, [folder])  # (the watcher reads in a process of its own: its reader)
    watcher = FolderWatcher(store, str(folder))
    assert sorted(store.ids()) == ["lilei", "wangfang", "wangfang-2", "wangfang-3"]
    (folder / "wangfang.md").unlink()
    watcher.index_changed([str(folder / "wangfang.md")])
    assert store.ids() == ["lilei"]


def test_forget_erases_one_interview_of_a_file(db_target: str, tmp_path: Path) -> None:
    folder = tmp_path / "t"
    path = folder / "wangfang.md"
    write(path, ROUNDS)

    def debrief(*args: str) -> Any:
        ran = run_debrief(*args, "--db", db_target, "--json")
        assert ran.returncode == 0, ran.stderr
        return json.loads(ran.stdout)

    assert debrief("index", str(folder))["indexed"] == ["wangfang", "wangfang-2", "wangfang-3"]
    debrief("forget", "wangfang-2", "--yes")
    assert debrief("index", str(folder))["forgotten"] == []  # unchanged: not read at all
    listed = [r["id"] for r in debrief("list")]
    assert sorted(listed) == ["wangfang", "wangfang-3"]
    stamp = path.stat().st_mtime_ns + 5 * 10**9
    os.utime(path, ns=(stamp, stamp))  # touched, the same content: still erased
    again = debrief("index", str(folder))
    assert again["indexed"] == [] and again["forgotten"] == []
    assert sorted(again["unchanged"]) == ["wangfang", "wangfang-3"]
    # the file changed: as for a file of one, the erasure lasts until the file changes
    write(path, [*ROUNDS, interview("三面", "架构")])
    read = debrief("index", str(folder))
    assert read["forgotten"] == []
    assert read["indexed"] == ["wangfang", "wangfang-2", "wangfang-3", "wangfang-4"]


def test_an_upload_of_several_interviews_indexes_and_names_each(
    bot: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shared in Slack: every interview indexed, the reply names them all over the first's
    card. (`serve` reads an upload in a process of its own, whose reader is the real one:
    here the run reads in this process, so that the stand-in reader is the one used.)"""

    def in_this_process(store: Any, paths: list[str], **kw: Any) -> Any:
        kw.pop("stopped", None)
        return index_paths(store, paths, **kw)

    monkeypatch.setattr(uploads, "index_paths", in_this_process)
    ts = share(bot, FakeFile("F46", "王芳.md", SEPARATOR.join(ROUNDS).encode()))
    reply = reply_to(bot, ts)
    said = "\n".join(visible(reply))
    assert "这个文件里有 3 场面试，都已收录：王芳、王芳-2、王芳-3。" in said
    assert said.startswith("这个文件里有 3 场面试")  # above the first's card
    assert "王芳 · 后端工程师 · 一面\n4 年经验 · 王芳" in said
    assert [bot.store.get_candidate(f"王芳{k}") is not None for k in ("", "-2", "-3")] == [True] * 3
    assert "3 场面试" in str(reply["text"])
    # forget the second: the saved file, which holds its text, is erased with it
    [saved] = bot.settings.uploads_dir.iterdir()
    ran = run_debrief("forget", "王芳-2", "--yes", "--db", bot.settings.db_path)
    assert ran.returncode == 0, ran.stderr
    assert not saved.exists()
