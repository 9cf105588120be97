"""Who may save a workspace's settings, and over what (issue 34, items 5 and 9): a save
made from a modal opened before another admin's save is refused, with a kind word, and
keeps nothing (the store's save is a compare-and-set on the version, on both backends);
an org-wide install's settings are changed by the organisation's admins and owners
alone, not by the admin of one of its workspaces. Over HTTP against the strict fake
Slack, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.fake_oauth import Installer
from support.fake_slack import FakeSlack
from support.installed import install, start_installed_bot
from support.settings_ui import click_settings as clicked
from support.settings_ui import submit_settings
from support.signed import event_payload, post_signed
from support.slackbot import SECRET, Bot, all_text
from support.waiting import wait_until
from support.web_api import METHODS, Call

from handlers.i18n import t
from handlers.views.home import HOME_SEARCH
from handlers.views.settings import DIGEST_TIME, SETTINGS, USERS
from store.indexer import index_paths
from store.workspace_models import WorkspaceSettings

pytestmark = pytest.mark.both_backends

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
BETA = "T0002"
ORG, ORG_TEAM = "E0001", "T0101"


# -- talking to the bot as Slack does ------------------------------------------------------


def click_settings(bot: Bot, user: str, team: str = BETA, org: bool = False) -> dict[str, Any]:
    """`user` clicks the Home tab's settings button; the modal (or notice) opened."""
    return clicked(bot, user, team, ORG if org else None)


def as_shown(modal: dict[str, Any]) -> dict[str, Any]:
    """What a submission of `modal` says when nothing was touched: each input at its
    initial value, as Slack reports it (whatever fields the modal has)."""
    values: dict[str, Any] = {}
    for block in modal["blocks"]:
        element = block.get("element")
        if block.get("type") != "input" or not isinstance(element, dict):
            continue
        kind = element["type"]
        state: dict[str, Any] = {"type": kind}
        if kind == "multi_users_select":
            state["selected_users"] = element.get("initial_users", [])
        elif kind == "multi_conversations_select":
            state["selected_conversations"] = element.get("initial_conversations", [])
        elif kind == "conversations_select":
            state["selected_conversation"] = element.get("initial_conversation")
        elif kind == "timepicker":
            state["selected_time"] = element.get("initial_time")
        elif kind == "checkboxes":
            state["selected_options"] = element.get("initial_options", [])
        elif kind == "static_select":
            state["selected_option"] = element.get("initial_option")
        else:
            state["value"] = element.get("initial_value")
        values[block["block_id"]] = {element.get("action_id", "v"): state}
    return values


def submit(
    bot: Bot,
    user: str,
    modal: dict[str, Any],
    changes: dict[str, Any] | None = None,
    team: str = BETA,
    org: bool = False,
) -> dict[str, Any]:
    """`user` saves `modal` (opened earlier) with `changes` made to what it showed."""
    values = as_shown(modal) | (changes or {})
    return submit_settings(bot, user, team, values, ORG if org else None, modal)


def users(*ids: str) -> dict[str, Any]:
    return {USERS: {"v": {"type": "multi_users_select", "selected_users": list(ids)}}}


def digest_at(at: str) -> dict[str, Any]:
    return {DIGEST_TIME: {"v": {"type": "timepicker", "selected_time": at}}}


def space(bot: Bot, key: str) -> int:
    found = bot.store.find_installation(key)
    assert found is not None
    return found.ws


# -- item 5: a save from an older view --------------------------------------------------


@pytest.fixture
def beta(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[Bot]:
    fake_slack.admins |= {"UADMIN", "UADMIN2"}
    bot = start_installed_bot(
        fake_slack, db_target, uploads=str(tmp_path / "uploads"), remind_time="off"
    )
    install(bot, Installer(team_id=BETA, team_name="Beta", user="UADMIN"))
    try:
        yield bot
    finally:
        bot.stop()


def test_a_save_from_a_modal_opened_before_another_admin_s_save_is_refused(beta: Bot) -> None:
    first = click_settings(beta, "UADMIN")
    assert submit(beta, "UADMIN", first, users("U888", "U999")) == {}
    ws = space(beta, BETA)
    assert beta.store.workspace_settings(ws).allowed_users == ["U888", "U999"]

    older = click_settings(beta, "UADMIN2")  # admin 2 opens the settings, and waits
    newer = click_settings(beta, "UADMIN")  # admin 1 removes U999
    assert submit(beta, "UADMIN", newer, users("U888")) == {}
    assert beta.store.workspace_settings(ws).allowed_users == ["U888"]

    # admin 2 changes the digest time only, in the modal opened before: refused, kindly
    answer = submit(beta, "UADMIN2", older, digest_at("08:15"))
    assert answer.get("response_action") == "errors", answer
    said = " ".join(answer["errors"].values())
    assert t("zh", "settings_stale") in said
    kept = beta.store.workspace_settings(ws)
    assert kept.allowed_users == ["U888"] and kept.version == 2  # U999 is not back
    assert kept.digest_time != "08:15" and kept.saved_by == "UADMIN"

    # opened again, the same change is kept
    again = click_settings(beta, "UADMIN2")
    assert submit(beta, "UADMIN2", again, digest_at("08:15")) == {}
    kept = beta.store.workspace_settings(ws)
    assert kept.allowed_users == ["U888"] and kept.digest_time == "08:15" and kept.version == 3


def test_a_save_that_loses_the_race_after_its_ack_keeps_nothing_and_says_so(beta: Bot) -> None:
    """Both admins' saves pass the check before the acknowledgement; admin 1's lands
    while admin 2's is being kept (Slack asked whether admin 2 is an admin): admin 2's
    keeps nothing, and admin 2 is told in a message, the modal being closed."""
    ws = space(beta, BETA)
    modal = click_settings(beta, "UADMIN2")
    users_info = METHODS["users.info"]

    def meanwhile(call: Call) -> dict[str, Any]:
        if call.params.get("user") == "UADMIN2" and not beta.store.workspace_settings(ws).version:
            beta.store.save_workspace_settings(ws, WorkspaceSettings(allowed_users=["U888"]), "U1")
        return users_info(beta.fake, call)

    beta.fake.set_result("users.info", meanwhile)
    assert submit(beta, "UADMIN2", modal, users("U888", "U999")) == {}
    kept = beta.store.workspace_settings(ws)
    assert kept.allowed_users == ["U888"] and kept.version == 1 and kept.saved_by == "U1"
    dm = beta.fake.dm_channel("UADMIN2")
    wait_until("admin 2 told", lambda: bool(beta.fake.messages(dm)))
    assert t("zh", "settings_stale") in all_text(beta.fake.messages(dm)[-1])


def test_the_store_saves_only_over_the_version_it_was_given(beta: Bot) -> None:
    store, ws = beta.store, space(beta, BETA)
    assert store.save_workspace_settings(ws, WorkspaceSettings(deciders=["U1"]), "U1", 0) == 1
    assert store.save_workspace_settings(ws, WorkspaceSettings(deciders=["U2"]), "U2", 0) is None
    assert store.workspace_settings(ws).deciders == ["U1"]
    assert store.save_workspace_settings(ws, WorkspaceSettings(deciders=["U2"]), "U2", 1) == 2
    assert store.workspace_settings(ws).deciders == ["U2"]


# -- item 9: an organisation's settings ----------------------------------------------------


@pytest.fixture
def org(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[Bot]:
    """Installed org-wide in E0001 (granted T0101); UWSADMIN is an admin of the workspace
    T0101 alone, UORGADMIN an admin of the organisation, UORGOWNER its owner."""
    fake_slack.admins |= {"UWSADMIN"}
    fake_slack.org_admins |= {"UORGADMIN"}
    fake_slack.org_owners |= {"UORGOWNER"}
    for user in ("UWSADMIN", "UORGADMIN", "UORGOWNER", "U777"):
        fake_slack.user_teams[user] = ORG_TEAM  # members of the workspace T0101
    bot = start_installed_bot(
        fake_slack, db_target, uploads=str(tmp_path / "uploads"), remind_time="off"
    )
    grid = Installer(
        team_id=None,
        team_name=None,
        enterprise_id=ORG,
        enterprise_name="Org",
        org_wide=True,
        user="UORGADMIN",
        teams=(ORG_TEAM,),
    )
    install(bot, grid)
    assert not index_paths(bot.store.in_workspace(space(bot, ORG)), [SEEDS]).failed
    try:
        yield bot
    finally:
        bot.stop()


def org_home(bot: Bot, user: str) -> dict[str, Any]:
    """`user` opens the Home tab in T0101; the view published."""
    before = len(bot.fake.calls("views.publish"))
    event = {"type": "app_home_opened", "user": user, "channel": f"D{user}", "tab": "home"}
    event["event_ts"] = f"{time.time():.6f}"
    payload = event_payload(event, team_id=ORG_TEAM)
    payload["enterprise_id"] = ORG
    payload["authorizations"] = [
        {
            "enterprise_id": ORG,
            "team_id": None,
            "user_id": "UBOT",
            "is_bot": True,
            "is_enterprise_install": True,
        }
    ]
    status, _h, _b = post_signed(bot.events_url, json.dumps(payload).encode(), SECRET)
    assert status == 200
    bot.idle()
    call = bot.fake.wait_for("views.publish", count=before + 1)[before]
    view = call.json_param("view")
    assert isinstance(view, dict)
    return view


def action_ids(view: dict[str, Any]) -> set[str]:
    return {
        str(e.get("action_id"))
        for b in view.get("blocks", [])
        for e in [*b.get("elements", []), b.get("accessory") or {}]
        if isinstance(e, dict) and e.get("action_id")
    }


def test_an_org_wide_install_s_settings_are_the_organisation_admins_alone(org: Bot) -> None:
    ws = space(org, ORG)
    wait_until(  # the organisation's workspaces read: its Home tab, with the button
        "the organisation's admin's Home tab",
        lambda: {HOME_SEARCH, SETTINGS} <= action_ids(org_home(org, "UORGADMIN")),
        15,
    )
    # the admin of one workspace of the organisation: no button, no modal, nothing kept
    home = action_ids(org_home(org, "UWSADMIN"))
    assert HOME_SEARCH in home and SETTINGS not in home
    refused = click_settings(org, "UWSADMIN", ORG_TEAM, org=True)
    assert refused.get("callback_id") != SETTINGS
    assert t("zh", "settings_not_org_admin") in json.dumps(refused, ensure_ascii=False)
    modal = click_settings(org, "UORGADMIN", ORG_TEAM, org=True)
    assert modal["callback_id"] == SETTINGS
    assert submit(org, "UWSADMIN", modal, users("UWSADMIN"), ORG_TEAM, org=True) == {}
    assert org.store.workspace_settings(ws).version == 0
    # the organisation's admin and its owner may
    assert submit(org, "UORGADMIN", modal, users("U888"), ORG_TEAM, org=True) == {}
    saved = org.store.workspace_settings(ws)
    assert saved.version == 1 and saved.allowed_users == ["U888"]
    owners = click_settings(org, "UORGOWNER", ORG_TEAM, org=True)
    assert submit(org, "UORGOWNER", owners, users("U888", "U777"), ORG_TEAM, org=True) == {}
    assert org.store.workspace_settings(ws).allowed_users == ["U888", "U777"]
