"""Shared fixtures: the bundled seeds, a store on a temp file, an indexed copy, the strict
fake Slack and the bot wired to it.

A test that uses the fake Slack fails when the bot broke one of Slack's rules on the wire
(an unknown method, a missing argument, a message over Block Kit's limits, a spent
response_url), even if the bot coped with the refusal: real Slack would have refused it.
A test that provokes such a refusal on purpose says so with
``@pytest.mark.slack_refusals_expected``."""

from __future__ import annotations

import os
import shutil
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from support import bot_server
from support.fake_slack import FakeClock, FakeSlack
from support.fake_zoom import FakeZoom
from support.pg_fixtures import (  # noqa: F401  (a fixture and a hook)
    fresh_pg_url,
    migrated_pg_url,
    pg_server,
    pytest_report_header,
)
from support.slackbot import TEST_POST_INTERVAL, Bot, start_bot

from handlers.sending.pacing import POST_INTERVAL
from store.factory import is_pg_url
from store.indexer import index_paths
from store.sqlite.store import Store

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"


@pytest.fixture
def seeds_dir() -> Path:
    return SEEDS


@pytest.fixture
def seed_files() -> list[Path]:
    return sorted(SEEDS.glob("*.txt"))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Tests marked `both_backends` (the store, command, thread and digest modules) run
    against SQLite and PostgreSQL (a throwaway server, see support/pg_fixtures.py), through
    `db_target`; those also marked `sqlite_only` on SQLite alone."""
    definition = metafunc.definition
    if definition.get_closest_marker("both_backends") and "db_target" in metafunc.fixturenames:
        sqlite_only = definition.get_closest_marker("sqlite_only") is not None
        backends = ["sqlite"] if sqlite_only else ["sqlite", "postgresql"]
        metafunc.parametrize("backend", backends, scope="function")


@pytest.fixture
def backend() -> str:
    return "sqlite"  # elsewhere: SQLite alone


@pytest.fixture
def db_target(request: pytest.FixtureRequest, backend: str, tmp_path: Path) -> str:
    """Where the test's database lives: a SQLite file, or a PostgreSQL database of its own
    with every schema step run (an empty schema for a test marked `pg_empty`)."""
    if backend == "postgresql":
        if request.node.get_closest_marker("pg_empty") is not None:
            return str(fresh_pg_url(request))
        return str(migrated_pg_url(request))
    return str(tmp_path / "debrief.db")


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database the store made and migrated once in this run (of one xdist
    worker), as PostgreSQL's template is (support/pg_fixtures.py)."""
    from store.factory import open_store

    path = tmp_path_factory.mktemp("sqlite-template") / "migrated.db"
    open_store(str(path)).close()  # closed: its WAL checkpointed into the file, and gone
    assert not Path(f"{path}-wal").exists()
    return path


def _migrated(request: pytest.FixtureRequest, db_target: str) -> str:
    """`db_target`, on SQLite a copy of the run's migrated database when it does not exist
    yet: what opening it would make, in a tenth of the time (no migration to run, no
    fsync of each step). The copy is the store's own file, readable by its owner alone as
    the store makes it (store/private.py). Not for a test that writes its own schema."""
    if is_pg_url(db_target) or request.node.get_closest_marker("pg_empty") is not None:
        return db_target
    target = Path(db_target)
    if not target.exists():
        template: Path = request.getfixturevalue("sqlite_template")
        shutil.copyfile(template, target)
        os.chmod(target, template.stat().st_mode & 0o777)
    return db_target


@pytest.fixture
def store(request: pytest.FixtureRequest, db_target: str) -> Iterator[Store]:
    from store.factory import open_store

    opened = open_store(_migrated(request, db_target))
    yield opened  # type: ignore[misc]
    opened.close()


@pytest.fixture
def seeded_store(store: Store) -> Store:
    result = index_paths(store, [SEEDS])
    assert not result.failed
    return store


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slack_refusals_expected: the test makes the fake Slack refuse calls on purpose"
    )
    config.addinivalue_line(
        "markers", "sqlite_only: the test looks at SQLite itself (never run on PostgreSQL)"
    )
    config.addinivalue_line(
        "markers", "both_backends: the test's db_target is SQLite, then PostgreSQL"
    )
    config.addinivalue_line(
        "markers",
        "slack_pacing: the test looks at how the bot spaces its posts: its `bot` posts to a"
        " channel a second apart, as Slack takes them (elsewhere a short while apart)",
    )
    config.addinivalue_line(
        "markers",
        "pg_empty: the test writes its own schema (a release before): on PostgreSQL its"
        " db_target starts empty, not cloned from the migrated template",
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """After the test body, in its call phase (so `xfail` applies): no call broke Slack's rules."""
    result = yield
    fake = getattr(item, "funcargs", {}).get("fake_slack")
    if isinstance(fake, FakeSlack) and item.get_closest_marker("slack_refusals_expected") is None:
        refused = [f"{c.method} -> {c.error}" for c in fake.refusals()]
        assert not refused, f"real Slack would have refused: {refused}"
    return result


@pytest.fixture
def clock() -> FakeClock:
    """The fake Slack's clock (response_url expiry): move it with `clock.advance(seconds)`."""
    return FakeClock()


@pytest.fixture(scope="session")
def slack_server() -> Iterator[FakeSlack]:
    """The fake Slack of the whole run (of one xdist worker): `fake_slack` resets it."""
    with FakeSlack(name="fake-slack-shared") as fake:
        yield fake


@pytest.fixture(scope="session", autouse=True)
def _bot_server() -> Iterator[None]:
    """The bot's HTTP server of the run (support/bot_server.py) stops at its end."""
    yield
    bot_server.stop_shared()


@pytest.fixture(autouse=True)
def _bot_server_vacated(_bot_server: None) -> Iterator[None]:
    """A test's bot is out of the run's server at the test's end, even one never stopped."""
    yield
    bot_server.vacate()


@pytest.fixture(scope="session")
def zoom_server() -> Iterator[FakeZoom]:
    """The fake Zoom of the whole run (of one xdist worker): `zoom` resets it."""
    with FakeZoom(name="fake-zoom-shared") as fake:
        yield fake


@pytest.fixture
def zoom(zoom_server: FakeZoom) -> FakeZoom:
    """The run's fake Zoom, as a new one would be (its wall clock: `zoom.clock = ...`)."""
    zoom_server.reset()
    return zoom_server


@pytest.fixture
def fake_slack(slack_server: FakeSlack, clock: FakeClock) -> Iterator[FakeSlack]:
    """The run's fake Slack, as a new one (`FakeSlack(clock=clock)`) would be: nothing of
    the test before, whose requests it now refuses (FakeSlack.reset)."""
    slack_server.reset(clock=clock)
    yield slack_server
    # Listeners still at work (a status edit, a DM) finish while Slack is still
    # there: after it, they would log a refused connection into a later test.
    for started in slack_server.bots:
        started.close()


@pytest.fixture
def bot(
    request: pytest.FixtureRequest, fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> Iterator[Bot]:
    # uploads beside the database, on either backend (never in the working directory);
    # posts to a channel a second apart, as Slack takes them, in a test marked
    # `slack_pacing`, a short while apart elsewhere (support/slackbot.py)
    paced = request.node.get_closest_marker("slack_pacing") is not None
    running = start_bot(
        fake_slack,
        _migrated(request, db_target),
        uploads=str(tmp_path / "uploads"),
        post_interval=POST_INTERVAL if paced else TEST_POST_INTERVAL,
    )
    assert not index_paths(running.store, [SEEDS]).failed
    try:
        yield running
    finally:
        running.stop()
