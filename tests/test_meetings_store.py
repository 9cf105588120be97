"""A meeting's times and kind kept by the store (issue 36, schema step m026_meeting_times /
pg026_meeting_times): a database the release before wrote upgrades, its typed dialogue
indexed with no question is read again into a meeting with questions, a meeting indexed
after keeps each question's `started_at`; migrate-db carries both to PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.cli import debrief as run_debrief
from test_meetings import EXPECTED, TYPED, ZOOM

from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

ROOT = Path(__file__).resolve().parent.parent

NOTES = """岗位：数据工程师
从业年限：3年
问题1：讲讲 Kafka 的分区？
考察目标：消息队列
回答：分区是并行的单位。
点评：基础扎实
"""


def show(db: str, cid: str) -> Any:
    done = run_debrief("show", cid, "--json", env={"DEBRIEF_DB": db}, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _as_the_release_before(store: Any) -> None:
    """The schema as the release before left it: no `started_at`, no `kind`, no step."""
    with store.tx() as tx:
        tx.execute("ALTER TABLE questions DROP COLUMN started_at")
        tx.execute("ALTER TABLE candidates DROP COLUMN kind")
        tx.execute(
            "DELETE FROM _migrations WHERE name IN ('m026_meeting_times', 'pg026_meeting_times')"
        )


def test_a_database_of_the_release_before_upgrades(
    db_target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import store.transcripts.parser as parser
    import store.transcripts.reader as reader
    from store.factory import open_store

    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "typed.txt").write_text(TYPED, encoding="utf-8")
    (folder / "notes.txt").write_text(NOTES, encoding="utf-8")
    with monkeypatch.context() as before:  # the release before read no dialogue
        before.setattr(parser, "meeting_transcript", lambda *args: None)
        before.setattr(  # nor any layout but the labelled one (issue 46)
            reader,
            "read_interviews",
            lambda data, name, source=None: [parser.parse_transcript(data, name, source)],
        )
        old: Any = open_store(db_target)
        index_paths(old, [folder])
    assert old.get_candidate("typed").questions == []  # what it made of the dialogue
    notes_before = old.get_candidate("notes")
    _as_the_release_before(old)
    old.close()

    upgraded: Any = open_store(db_target)
    try:
        assert upgraded.get_candidate("notes") == notes_before  # unchanged by the step
        assert upgraded.get_candidate("typed").kind == "notes"  # not read again yet
        again = index_paths(upgraded, [folder])
        assert again.indexed == ["typed"] and again.unchanged == ["notes"]
        (folder / "zoom.vtt").write_text(ZOOM, encoding="utf-8")
        assert index_paths(upgraded, [folder]).indexed == ["zoom"]
    finally:
        upgraded.close()
    for cid in ("typed", "zoom"):
        shown = show(db_target, cid)
        assert (shown["kind"], shown["questions"]) == ("meeting", EXPECTED[cid]["questions"])
    notes = show(db_target, "notes")
    assert notes["kind"] == "notes"
    assert [q["started_at"] for q in notes["questions"]] == [None]


@pytest.fixture(params=["sqlite", "postgresql"])
def release_before(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database the release before really wrote (tests/data/, see test_release_before),
    of each kind."""
    from support.release_before import release_before as copied

    return copied(request.param, request, tmp_path)


def test_the_release_before_s_database_takes_meetings(release_before: str, tmp_path: Path) -> None:
    from test_release_before import SEED_000

    from store.factory import open_store

    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "zoom.vtt").write_text(ZOOM, encoding="utf-8")
    upgraded: Any = open_store(release_before)
    try:
        assert index_paths(upgraded, [folder]).indexed == ["zoom"]
    finally:
        upgraded.close()
    zoom = show(release_before, "zoom")
    assert (zoom["kind"], zoom["questions"]) == ("meeting", EXPECTED["zoom"]["questions"])
    seed = show(release_before, SEED_000)
    assert seed["kind"] == "notes"
    assert [q["started_at"] for q in seed["questions"]] == [None] * 5


def test_migrate_db_carries_the_times_and_the_kind(
    request: pytest.FixtureRequest, backend: str, tmp_path: Path
) -> None:
    if backend != "sqlite":
        pytest.skip("migrate-db copies a SQLite database into PostgreSQL")
    from support.pg_fixtures import fresh_pg_url

    from store.pg import PgStore
    from store.sqlite.store import Store

    url = str(fresh_pg_url(request))
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "zoom.vtt").write_text(ZOOM, encoding="utf-8")
    (folder / "notes.txt").write_text(NOTES, encoding="utf-8")
    lite = Store(tmp_path / "old.db")
    index_paths(lite, [folder])
    before = {cid: lite.get_candidate(cid) for cid in ("zoom", "notes")}
    lite.close()
    done = run_debrief("migrate-db", "--db", str(tmp_path / "old.db"), "--to", url, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    pg = PgStore(url)
    try:
        after = {cid: pg.get_candidate(cid) for cid in ("zoom", "notes")}
    finally:
        pg.close()
    assert after == before
    zoom = after["zoom"]
    assert zoom is not None and zoom.kind == "meeting"
    assert [q.started_at for q in zoom.questions] == ["00:03:15", "00:05:00"]
