"""A workspace's own settings (issue 26), set by its admins in App Home: who and where
may see candidates, who decides, the digest and the reminders; the environment's
until then. Over HTTP against the strict fake Slack, on SQLite and PostgreSQL."""

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
from support.signed import command_body, event_body, post_signed
from support.slackbot import SECRET, Bot, all_text

from handlers.i18n import t
from handlers.views.settings import (
    CHANNELS,
    DIGEST_CHANNEL,
    DIGEST_TIME,
    GROUPS,
    REMIND_OFF,
    SETTINGS,
    USERS,
)
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
BETA = "T0002"


@pytest.fixture
def beta(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[Bot]:
    fake_slack.member_channels |= {"CHIRE", "COTHER"}
    fake_slack.admins.add("UADMIN")
    bot = start_installed_bot(
        fake_slack, db_target, uploads=str(tmp_path / "uploads"), remind_time="off"
    )
    install(bot, Installer(team_id=BETA, team_name="Beta", user="UADMIN"))
    assert not index_paths(bot.store.in_workspace(ws(bot)), [SEEDS]).failed
    try:
        yield bot
    finally:
        bot.stop()


def ws(bot: Bot) -> int:
    found = bot.store.find_installation(BETA)
    assert found is not None
    return found.ws


def home_of(bot: Bot, user: str) -> dict[str, Any]:
    before = len(bot.fake.calls("views.publish"))
    home = {"type": "app_home_opened", "user": user, "channel": f"D{user}", "tab": "home"}
    home["event_ts"] = f"{time.time():.6f}"
    status, _h, _b = post_signed(bot.events_url, event_body(home, team_id=BETA), SECRET)
    assert status == 200
    bot.idle()
    call = bot.fake.wait_for("views.publish", count=before + 1)[before]
    view = call.json_param("view")
    assert isinstance(view, dict)
    return view


def has_settings_button(view: dict[str, Any]) -> bool:
    return SETTINGS in json.dumps(view)


def click_settings(bot: Bot, user: str) -> dict[str, Any]:
    return clicked(bot, user, BETA)


def submit(bot: Bot, user: str, values: dict[str, Any]) -> dict[str, Any]:
    return submit_settings(bot, user, BETA, values)


def state(
    users: list[str] | None = None,
    groups: str = "",
    channels: list[str] | None = None,
    digest: str | None = None,
    digest_at: str | None = None,
    off: bool = False,
) -> dict[str, Any]:
    return {
        USERS: {"v": {"type": "multi_users_select", "selected_users": users or []}},
        GROUPS: {"v": {"type": "plain_text_input", "value": groups}},
        CHANNELS: {
            "v": {"type": "multi_conversations_select", "selected_conversations": channels or []}
        },
        DIGEST_CHANNEL: {"v": {"type": "conversations_select", "selected_conversation": digest}},
        DIGEST_TIME: {"v": {"type": "timepicker", "selected_time": digest_at}},
        REMIND_OFF: {
            "v": {
                "type": "checkboxes",
                "selected_options": [{"value": "off"}] if off else [],
            }
        },
    }


def ask(bot: Bot, text: str, user: str, channel: str, name: str) -> str:
    body = command_body(
        text,
        team_id=BETA,
        user_id=user,
        channel_id=channel,
        response_url=bot.fake.response_url(name),
    )
    status, _h, answer = post_signed(bot.events_url, body, SECRET)
    assert status == 200
    bot.idle()
    return answer.decode() + "".join(all_text(r) for r in bot.fake.responses(name))


def test_only_the_workspace_s_admins_see_and_open_its_settings(beta: Bot) -> None:
    assert has_settings_button(home_of(beta, "UADMIN"))
    assert not has_settings_button(home_of(beta, "U777"))
    modal = click_settings(beta, "UADMIN")
    assert modal["callback_id"] == SETTINGS
    assert {b.get("block_id") for b in modal["blocks"]} >= {USERS, CHANNELS, DIGEST_CHANNEL}
    refused = click_settings(beta, "U777")  # a button is only a button: asked again
    assert refused.get("callback_id") != SETTINGS
    assert t("zh", "settings_not_admin") in json.dumps(refused, ensure_ascii=False)


def test_saved_settings_apply_to_that_workspace_at_once(beta: Bot) -> None:
    assert "000" in ask(beta, "000", "U777", "COTHER", "before")  # the environment: open
    answer = submit(beta, "UADMIN", state(users=["U888"], channels=["CHIRE"], digest="CHIRE"))
    assert answer == {}  # closed
    saved = beta.store.workspace_settings(ws(beta))
    assert saved.version == 1 and saved.saved_by == "UADMIN"
    assert saved.allowed_users == ["U888"] and saved.allowed_channels == ["CHIRE"]
    assert saved.digest_channel == "CHIRE" and saved.remind_time is None
    refused = ask(beta, "000", "U777", "CHIRE", "u777")
    assert t("zh", "refused") in refused and "视频开发工程师" not in refused
    assert t("zh", "refused_channel") in ask(beta, "000", "U888", "COTHER", "other")
    assert "视频开发工程师" in ask(beta, "000", "U888", "CHIRE", "u888")
    # the modal opens at what is saved
    modal = json.dumps(click_settings(beta, "UADMIN"))
    assert "U888" in modal and "CHIRE" in modal
    audit = beta.store.in_workspace(ws(beta)).audit_log()
    assert any(line.what == "settings" and line.who == "UADMIN" for line in audit)
    assert not any(line.what == "settings" for line in beta.store.audit_log())  # space 0


def test_a_submission_with_mistakes_says_where_and_keeps_nothing(beta: Bot) -> None:
    answer = submit(beta, "UADMIN", state(groups="bob, S0123", channels=["CHIRE"], digest="COTHER"))
    assert answer["response_action"] == "errors"
    assert set(answer["errors"]) == {GROUPS, DIGEST_CHANNEL}
    assert "bob" in answer["errors"][GROUPS]
    assert beta.store.workspace_settings(ws(beta)).version == 0


def test_someone_not_an_admin_keeps_nothing_even_submitting_the_modal(beta: Bot) -> None:
    assert submit(beta, "U777", state(users=["U777"])) == {}
    assert beta.store.workspace_settings(ws(beta)).version == 0
    assert "000" in ask(beta, "000", "U555", "COTHER", "still-open")


def test_the_digest_goes_where_the_workspace_said(beta: Bot) -> None:
    from bot.workspace_jobs import WorkspaceJobs

    submit(beta, "UADMIN", state(digest="CHIRE", digest_at="00:00", off=True))
    jobs = WorkspaceJobs(beta.settings, beta.store, beta.app)  # type: ignore[arg-type]
    jobs.tick()
    [posted] = beta.fake.calls("chat.postMessage")
    assert posted.params["channel"] == "CHIRE"
    assert beta.store.workspace_settings(ws(beta)).remind_time == "off"


def test_an_admin_who_left_themselves_out_can_still_change_the_settings(beta: Bot) -> None:
    submit(beta, "UADMIN", state(users=["U888"]))
    home = home_of(beta, "UADMIN")  # may not see candidates: told so, with the button
    text = json.dumps(home, ensure_ascii=False)
    assert t("zh", "refused") in text and has_settings_button(home) and "000" not in text
    assert not has_settings_button(home_of(beta, "U777"))
    assert click_settings(beta, "UADMIN")["callback_id"] == SETTINGS
    submit(beta, "UADMIN", state(users=["U888", "UADMIN"]))
    assert beta.store.workspace_settings(ws(beta)).version == 2
    assert "视频开发工程师" in ask(beta, "000", "UADMIN", "CHIRE", "back")


def test_a_submission_reads_the_workspace_s_settings_once(
    beta: Bot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a submission is checked and kept over is read once (issue 35): with the
    request's workspace (handlers/deps.py), not again by its acknowledgement, nor by its
    lazy listener; the save stays a compare-and-set over that version."""
    space = ws(beta)
    kind = type(beta.store.in_workspace(space))
    read = kind.workspace_settings
    reads: list[int] = []

    def counted(self: Any, ws: int) -> Any:
        reads.append(ws)
        return read(self, ws)

    monkeypatch.setattr(kind, "workspace_settings", counted)
    assert submit(beta, "UADMIN", state(users=["U888"])) == {}
    assert reads == [space]
    monkeypatch.undo()
    saved = beta.store.workspace_settings(space)
    assert saved.version == 1 and saved.allowed_users == ["U888"]
