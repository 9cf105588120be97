"""The serve watcher: a full rescan at start, then file-system events (or polling), and a
file counted once its writer has finished."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.waiting import wait_until

from bot.settings import load_settings
from bot.watcher import FolderWatcher, WatchMode
from store.sqlite.store import Store

TEXT = "岗位：{pos} 从业年限：3年\n简介：简介\n问题1：问题\n考察目标：目标\n回答：回答\n点评：{verdict}\n"


def position(store: Store, cid: str) -> str | None:
    c = store.get_candidate(cid)
    return c.position if c else None


@pytest.fixture
def folder(tmp_path: Path, seeds_dir: Path) -> Path:
    path = tmp_path / "transcripts"
    shutil.copytree(seeds_dir, path)
    return path


def watching(store: Store, folder: Path, mode: WatchMode) -> Iterator[FolderWatcher]:
    watcher = FolderWatcher(store, str(folder), interval=0.2, mode=mode).start()
    try:
        assert watcher.ready.wait(15)
        yield watcher
    finally:
        watcher.stop()
        assert not watcher._thread.is_alive()


@pytest.fixture
def events(store: Store, folder: Path) -> Iterator[FolderWatcher]:
    yield from watching(store, folder, "auto")


def test_events_index_new_changed_and_removed_files(
    events: FolderWatcher, store: Store, folder: Path
) -> None:
    assert events.using == "events"
    assert store.count() == 4  # the full rescan at start

    (folder / "new.txt").write_text(TEXT.format(pos="测试工程师", verdict="好"), "utf-8")
    wait_until(
        'position(store, "new") == "测试工程师"',
        lambda: position(store, "new") == "测试工程师",
        timeout=15,
    )

    (folder / "new.txt").write_text(TEXT.format(pos="运维工程师", verdict="好"), "utf-8")
    wait_until(
        'position(store, "new") == "运维工程师"',
        lambda: position(store, "new") == "运维工程师",
        timeout=15,
    )

    (folder / "new.txt").unlink()
    wait_until(
        'store.get_candidate("new") is None', lambda: store.get_candidate("new") is None, timeout=15
    )

    sub = folder / "sub"
    sub.mkdir()
    (sub / "deep.txt").write_text(TEXT.format(pos="深层工程师", verdict="好"), "utf-8")
    wait_until(
        'position(store, "deep") == "深层工程师"',
        lambda: position(store, "deep") == "深层工程师",
        timeout=15,
    )
    shutil.rmtree(sub)
    wait_until(
        'store.get_candidate("deep") is None',
        lambda: store.get_candidate("deep") is None,
        timeout=15,
    )

    (folder / ".hidden.txt").write_text(TEXT.format(pos="隐藏", verdict="好"), "utf-8")
    (folder / "after.txt").write_text(TEXT.format(pos="之后", verdict="好"), "utf-8")
    wait_until(
        'position(store, "after") == "之后"', lambda: position(store, "after") == "之后", timeout=15
    )
    assert store.get_candidate(".hidden") is None and store.count() == 5


def test_a_file_counts_once_its_writer_has_finished(
    events: FolderWatcher, store: Store, folder: Path
) -> None:
    runs = events.runs
    first, rest = TEXT.format(pos="慢写工程师", verdict="写完了").split("问题1")
    path = folder / "slow.txt"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(first)  # half a transcript: a writer that has not finished
        fh.flush()
        wait_until(
            "str(path) in events.pending", lambda: str(path) in events.pending, timeout=15
        )  # seen, waiting for quiet
        fh.write("问题1" + rest)
    wait_until(
        'store.get_candidate("slow") is not None',
        lambda: store.get_candidate("slow") is not None,
        timeout=15,
    )
    c = store.get_candidate("slow")
    assert c is not None and c.verdict == "写完了" and len(c.questions) == 1
    assert events.runs == runs + 1  # read once, whole


def test_poll_mode(store: Store, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEBRIEF_WATCH", "POLL")
    mode = load_settings(db_path=store.path).watch
    assert mode == "poll"
    for watcher in watching(store, folder, mode):
        assert watcher.using == "poll" and store.count() == 4
        (folder / "polled.txt").write_text(TEXT.format(pos="轮询", verdict="好"), "utf-8")
        wait_until(
            'position(store, "polled") == "轮询"',
            lambda: position(store, "polled") == "轮询",
            timeout=15,
        )


def test_events_that_cannot_be_set_up_fall_back_to_polling(
    store: Store, folder: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import watchfiles

    def no_events(*_args: object, **_kwargs: object) -> Iterator[set[tuple[object, str]]]:
        raise OSError(28, "inotify watch limit reached")
        yield set()

    monkeypatch.setattr(watchfiles, "watch", no_events)
    with caplog.at_level(logging.WARNING, logger="debrief.watcher"):
        for watcher in watching(store, folder, "auto"):
            assert watcher.using == "poll" and store.count() == 4
            (folder / "fallback.txt").write_text(TEXT.format(pos="回退", verdict="好"), "utf-8")
            wait_until(
                'position(store, "fallback") == "回退"',
                lambda: position(store, "fallback") == "回退",
                timeout=15,
            )
    assert "polling" in caplog.text and "inotify watch limit" in caplog.text


def test_bad_watch_setting() -> None:
    from bot.settings import SettingsError

    with pytest.raises(SettingsError, match="DEBRIEF_WATCH"):
        load_settings(watch="sometimes")
