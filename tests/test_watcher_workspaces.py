"""The transcripts folder installed in many workspaces (issue 26): `DEBRIEF_TRANSCRIPTS/
<slack key>/` indexed into that workspace's data space, files elsewhere left alone with
one log line, a workspace installed meanwhile picked up at the next rescan. Polling and
file-system events, on SQLite and PostgreSQL."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.waiting import wait_until

from bot.watcher import FolderWatcher, WatchMode, WorkspacesWatcher, folder_watcher
from store.sqlite.store import Store
from store.workspace_models import Installation

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
TEXT = "岗位：{pos} 从业年限：3年\n简介：简介\n问题1：问题\n考察目标：目标\n回答：回答\n点评：好\n"


def install(store: Store, team: str) -> int:
    return store.save_installation(
        Installation(
            enterprise_id=None,
            team_id=team,
            team_name=f"team {team}",
            bot_id=f"B{team}",
            bot_user_id=f"U{team}",
            bot_token_enc="ciphertext",
        )
    )


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """T0001/ with the seeds, T0002/ with one transcript of its own, T0404/ (nobody's),
    and a file at the top."""
    path = tmp_path / "transcripts"
    shutil.copytree(SEEDS, path / "T0001")
    (path / "T0002").mkdir()
    (path / "T0002" / "two.txt").write_text(TEXT.format(pos="二号工程师"), "utf-8")
    (path / "T0404").mkdir()
    (path / "T0404" / "lost.txt").write_text(TEXT.format(pos="无主工程师"), "utf-8")
    (path / "stray.txt").write_text(TEXT.format(pos="顶层工程师"), "utf-8")
    return path


def watching(store: Store, root: Path, mode: WatchMode) -> Iterator[WorkspacesWatcher]:
    watcher = WorkspacesWatcher(store, str(root), interval=0.2, mode=mode, spaces_every=0.2)
    watcher.start()
    try:
        assert watcher.ready.wait(30)
        yield watcher
    finally:
        watcher.stop()
        assert not watcher._thread.is_alive()


def said(caplog: pytest.LogCaptureFixture, word: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if word in r.getMessage()]


@pytest.mark.parametrize("mode", ["poll", "auto"])
def test_each_installed_workspace_folder_goes_to_its_data_space(
    store: Store, root: Path, mode: WatchMode, caplog: pytest.LogCaptureFixture
) -> None:
    one, two = install(store, "T0001"), install(store, "T0002")
    seeds = sorted(p.stem for p in SEEDS.glob("*.txt"))
    with caplog.at_level(logging.INFO, logger="debrief.watcher"):
        for watcher in watching(store, root, mode):
            assert watcher.using == ("poll" if mode == "poll" else "events")
            assert store.in_workspace(one).ids() == seeds
            assert store.in_workspace(two).ids() == ["two"]
            assert store.ids() == []  # nothing at the top goes to space 0
            left = said(caplog, "left alone")
            assert len(left) == 1 and "T0404" in left[0] and "stray.txt" in left[0]
            # a new file in a workspace's folder: into that space only
            (root / "T0002" / "new.txt").write_text(TEXT.format(pos="新来工程师"), "utf-8")
            wait_until(
                "new.txt in T0002's space",
                lambda: "new" in store.in_workspace(two).ids(),
                timeout=20,
            )
            assert "new" not in store.in_workspace(one).ids() and store.ids() == []
            # a file removed: from its space only
            (root / "T0001" / f"{seeds[0]}.txt").unlink()
            wait_until(
                "the removed seed gone from T0001's space",
                lambda: seeds[0] not in store.in_workspace(one).ids(),
                timeout=20,
            )
            # nobody's folder changing is left alone too, and said once
            (root / "T0404" / "more.txt").write_text(TEXT.format(pos="还是无主"), "utf-8")
            # a workspace installed meanwhile: its folder indexed at the next rescan
            lost = store.in_workspace(install(store, "T0404"))
            wait_until(
                "T0404's folder indexed once installed",
                lambda: set(lost.ids()) == {"lost", "more"},  # noqa: B023  (waited on here)
                timeout=20,
            )
            assert len(said(caplog, "left alone")) <= 2  # not a line a poll
            assert store.ids() == [] and "lost" not in store.in_workspace(two).ids()
            assert lost.ws not in (0, one, two)


def test_an_uninstalled_workspace_folder_is_left_alone(store: Store, root: Path) -> None:
    install(store, "T0001")
    two = install(store, "T0002")
    assert store.uninstall("T0002", "2999-01-01T00:00:00+00:00")
    for _watcher in watching(store, root, "poll"):
        assert store.in_workspace(two).ids() == []


def test_a_workspace_uninstalled_since_the_last_look_is_left_alone_at_once(
    store: Store, root: Path
) -> None:
    """Issue 34: a file changed in the folder of a workspace that uninstalled after the
    watcher last looked (every SPACES_EVERY_S) is not indexed into its data space."""
    one, two = install(store, "T0001"), install(store, "T0002")
    watcher = WorkspacesWatcher(store, str(root), interval=0.2, mode="poll", spaces_every=3600)
    assert set(watcher.installed()) == {"T0001", "T0002"}  # the last look
    assert store.uninstall("T0002", "2999-01-01T00:00:00+00:00")
    seed = sorted(SEEDS.glob("*.txt"))[0]
    watcher.index_changed([str(root / "T0002" / "two.txt"), str(root / "T0001" / seed.name)])
    assert store.in_workspace(two).ids() == []
    assert store.in_workspace(one).ids() == [seed.stem]


def test_the_factory_picks_the_watcher_of_the_mode(store: Store, root: Path) -> None:
    single = folder_watcher(store, str(root), mode="poll")
    assert type(single) is FolderWatcher
    many = folder_watcher(store, str(root), mode="poll", many_workspaces=True)
    assert isinstance(many, WorkspacesWatcher) and many.mode == "poll"
