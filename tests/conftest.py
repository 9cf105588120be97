"""Shared fixtures: the bundled seeds, a store on a temp file, and an indexed copy."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fakes import FakeSlack
from slackbot import Bot, start_bot

from store.db import Store
from store.indexer import index_paths

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
SHARED = ROOT.parent / "shared"


@pytest.fixture
def seeds_dir() -> Path:
    return SEEDS


@pytest.fixture
def seed_files() -> list[Path]:
    return sorted(SEEDS.glob("*.txt"))


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "debrief.db")


@pytest.fixture
def seeded_store(store: Store) -> Store:
    result = index_paths(store, [SEEDS])
    assert not result.failed
    return store


@pytest.fixture
def fake_slack() -> Iterator[FakeSlack]:
    with FakeSlack() as fake:
        yield fake


@pytest.fixture
def bot(fake_slack: FakeSlack, tmp_path: Path) -> Iterator[Bot]:
    running = start_bot(fake_slack, str(tmp_path / "bot.db"))
    assert not index_paths(running.store, [SEEDS]).failed
    try:
        yield running
    finally:
        running.server.stop()
