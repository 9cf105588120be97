"""Independent review per workspace (issue 38): installed in many workspaces, its admins
turn it off (or on again) in App Home's settings modal; DEBRIEF_INDEPENDENT_REVIEW is
the default until they do. Over HTTP against the strict fake Slack, on SQLite and
PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.fake_oauth import Installer
from support.fake_slack import FakeSlack
from support.installed import install, start_installed_bot
from test_workspace_settings import BETA, ask, click_settings, state, submit, ws

from handlers.views.independent import INDEPENDENT
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
CID = "000_9e6b3ecb0732fcf3"
NOTE = "基础扎实推荐录用"
THREAD = "1700000000.000100"


def started(fake: FakeSlack, db: str, tmp_path: Path, **settings: str) -> Iterator[Any]:
    fake.member_channels |= {"CHIRE"}
    fake.admins.add("UADMIN")
    bot = start_installed_bot(
        fake, db, uploads=str(tmp_path / "uploads"), remind_time="off", **settings
    )
    install(bot, Installer(team_id=BETA, team_name="Beta", user="UADMIN"))
    space = bot.store.in_workspace(ws(bot))
    assert not index_paths(space, [SEEDS]).failed
    # UANN and UBOB asked about 000 in CHIRE; UBOB replied with a decision
    space.record_post("CHIRE", THREAD, CID, "verdict")
    assert space.record_requests(
        CID, ["UANN", "UBOB"], "U123", "2099-01-01T00:00:00+00:00", "CHIRE", THREAD
    )
    space.record_reply("CHIRE", "1700000000.000200", THREAD, CID, "UBOB", f"通过 {NOTE}")
    assert [r.reviewer for r in space.requests_for(CID) if r.open] == ["UANN"]
    try:
        yield bot
    finally:
        bot.stop()


@pytest.fixture
def beta(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[Any]:
    yield from started(fake_slack, db_target, tmp_path)


@pytest.fixture
def beta_off(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[Any]:
    yield from started(fake_slack, db_target, tmp_path, independent_review="off")


def ticked(on: bool) -> dict[str, Any]:
    chosen = [{"value": "on"}] if on else []
    return {INDEPENDENT: {"v": {"type": "checkboxes", "selected_options": chosen}}}


def checkbox(modal: dict[str, Any]) -> dict[str, Any]:
    [block] = [b for b in modal["blocks"] if b.get("block_id") == INDEPENDENT]
    return dict(block["element"])


def test_a_workspace_s_admins_turn_independent_review_off_and_on(beta: Any) -> None:
    sealed = ask(beta, "总结 000", "UANN", "CHIRE", "sealed")
    assert NOTE not in sealed and "独立评审" in sealed
    assert NOTE in ask(beta, "总结 000", "U123", "CHIRE", "recruiter")

    assert checkbox(click_settings(beta, "UADMIN")).get("initial_options")  # on: the default
    assert submit(beta, "UADMIN", state() | ticked(False)) == {}
    assert beta.store.workspace_settings(ws(beta)).independent_review is False
    assert NOTE in ask(beta, "总结 000", "UANN", "CHIRE", "off")
    assert not checkbox(click_settings(beta, "UADMIN")).get("initial_options")

    assert submit(beta, "UADMIN", state() | ticked(True)) == {}
    assert beta.store.workspace_settings(ws(beta)).independent_review is True
    assert NOTE not in ask(beta, "总结 000", "UANN", "CHIRE", "on again")


def test_the_environment_s_off_is_the_default_a_workspace_may_turn_on(beta_off: Any) -> None:
    assert NOTE in ask(beta_off, "总结 000", "UANN", "CHIRE", "off")
    modal = click_settings(beta_off, "UADMIN")
    assert not checkbox(modal).get("initial_options")
    assert "独立评审" in json.dumps(modal, ensure_ascii=False)
    assert submit(beta_off, "UADMIN", state() | ticked(True)) == {}
    assert NOTE not in ask(beta_off, "总结 000", "UANN", "CHIRE", "on")
