"""Shared fixtures: the bundled seeds, a store on a temp file, and an indexed copy."""

from __future__ import annotations

from pathlib import Path

import pytest

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
