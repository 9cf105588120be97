"""`debrief migrate-db --to postgresql://...`: a SQLite database with candidates, reviews,
posts, a digest, audit lines and a forgotten candidate, copied and counted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from support.pg_fixtures import fresh_pg_url

from bot.cli import cli
from store.indexer import index_paths
from store.pg import PgStore
from store.sqlite.store import Store
from store.workspace_models import Installation

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


def test_migrate_db_copies_everything_and_counts(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = fresh_pg_url(request)
    lite = Store(tmp_path / "old.db")
    index_paths(lite, [SEEDS])
    first, second, *_rest = lite.ids()
    lite.record_post("C1", "100.1", first, "verdict")
    lite.record_reply("C1", "200.1", "100.1", first, "U1", "通过：基础扎实")
    lite.record_reply("C1", "200.2", "100.1", first, "U2", "问题1：补充一下")
    lite.claim_digest("2026-12-02", "CHIRE", "me", 600)
    lite.finish_digest("2026-12-02", "me", "300.1")
    lite.audit("U1", "show", first, "C1")
    lite.record_post("C1", "100.2", second, "verdict")
    assert lite.forget(second) is not None
    before = lite.get_candidate(first)
    newest = [h.id for h in lite.search("TensorFlow", sort="newest")]
    installed = Installation(
        enterprise_id=None,
        team_id="T0002",
        bot_id="B2",
        bot_user_id="U2BOT",
        bot_token_enc="ciphertext",
    )
    second_space = lite.save_installation(installed)
    lite.close()

    runner = CliRunner()
    done = runner.invoke(
        cli, ["migrate-db", "--db", str(tmp_path / "old.db"), "--to", url, "--json"]
    )
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report["ok"] is True
    tables = report["tables"]
    for table in ("candidates", "questions", "replies", "posts", "digests", "audit", "forgotten"):
        assert tables[table]["sqlite"] == tables[table]["postgresql"] > 0, table

    pg = PgStore(url)
    assert pg.get_candidate(first) == before
    assert pg.get_candidate(second) is None and second in pg.forgotten()
    assert [h.id for h in pg.search("TensorFlow", sort="newest")] == newest
    assert pg.last_digest_sent_at() is not None
    assert [e.candidate for e in pg.audit_log()][-1] == first
    # replies in the forgotten candidate's thread stay unrecorded after the move
    assert not pg.record_reply("C1", "200.9", "100.2", second, "U1", "通过").recorded
    pg.save(pg.get_candidate(first).model_copy(update={"id": "new"}))  # type: ignore[union-attr]
    assert pg.search("TensorFlow", sort="newest")[0].id == "new"  # ids go on after the copy

    # the installs and their spaces come along; spaces made after go on from the last
    assert [(w.ws, w.slack_key) for w in pg.workspaces()] == [(0, None), (second_space, "T0002")]
    assert pg.find_installation("T0002") == lite_installation(tmp_path, "T0002")
    assert pg.save_installation(installed.model_copy(update={"team_id": "T0003"})) > second_space

    again = runner.invoke(cli, ["migrate-db", "--db", str(tmp_path / "old.db"), "--to", url])
    assert again.exit_code == 1 and "already holds" in again.output


def lite_installation(tmp_path: Path, key: str) -> Installation | None:
    lite = Store(tmp_path / "old.db")
    try:
        return lite.find_installation(key)
    finally:
        lite.close()


def test_migrate_db_says_what_it_needs(tmp_path: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(cli, ["migrate-db", "--db", str(tmp_path / "x.db"), "--to", "other.db"])
    assert done.exit_code == 2 and "postgresql://" in done.output
