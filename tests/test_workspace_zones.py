"""Each workspace's own time zone (issue 34, item 12), set by its admins in App Home (an
IANA name; empty: DEBRIEF_TIMEZONE's): its digest goes out at its own local time, a
deadline ends its own day, and a zone that is not one is said under the field. Over
HTTP against the strict fake Slack, the jobs and the bot on an injected clock, on
SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import time_machine
from click.testing import CliRunner
from support.fake_oauth import Installer
from support.fake_slack import FakeSlack
from support.installed import install, start_installed_bot
from support.signed import command_body, post_signed
from support.slackbot import SECRET, Bot
from test_requests import Clock
from test_settings_guarded import click_settings, space, submit

from bot.cli import cli
from bot.erasure import RetentionJob
from bot.workspace_jobs import WorkspaceJobs
from handlers.i18n import t
from handlers.views.settings import CHANNELS, DIGEST_CHANNEL, DIGEST_TIME, TIMEZONE
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
ALPHA, BETA = "T0002", "T0003"  # Alpha keeps DEBRIEF_TIMEZONE (Shanghai), Beta: New York


def zone(name: str) -> dict[str, Any]:
    return {TIMEZONE: {"v": {"type": "plain_text_input", "value": name}}}


def digest(channel: str, at: str) -> dict[str, Any]:
    return {
        CHANNELS: {"v": {"type": "multi_conversations_select", "selected_conversations": []}},
        DIGEST_CHANNEL: {"v": {"type": "conversations_select", "selected_conversation": channel}},
        DIGEST_TIME: {"v": {"type": "timepicker", "selected_time": at}},
    }


@pytest.fixture
def two(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[Bot]:
    fake_slack.member_channels |= {"CALPHA", "CBETA"}
    fake_slack.admins.add("UADMIN")
    bot = start_installed_bot(
        fake_slack,
        db_target,
        uploads=str(tmp_path / "uploads"),
        remind_time="off",
        timezone="Asia/Shanghai",
        clock=Clock(utc(2, 0)),  # Tuesday 10:00 in Shanghai, Monday 22:00 in New York
    )
    try:
        install(bot, Installer(team_id=ALPHA, team_name="Alpha", user="UADMIN"))
        install(bot, Installer(team_id=BETA, team_name="Beta", user="UADMIN"))
        yield bot
    finally:
        bot.stop()


def utc(hour: int, minute: int) -> datetime:
    return datetime(2026, 6, 2, hour, minute, tzinfo=UTC)  # New York: UTC-4 (EDT)


def ask_today(bot: Bot, team: str, channel: str) -> None:
    """`/candidate 邀请 000 @UANN 截止 今天` in `team`'s `channel`."""
    body = command_body(
        "邀请 000 <@UANN> 截止 今天",
        team_id=team,
        user_id="UADMIN",
        channel_id=channel,
        response_url=bot.fake.response_url(f"ask-{team}"),
    )
    status, _h, _b = post_signed(bot.events_url, body, SECRET)
    assert status == 200
    bot.idle()


def posted(bot: Bot) -> list[str]:
    return [str(c.params["channel"]) for c in bot.fake.calls("chat.postMessage") if c.ok]


def test_each_workspace_gets_its_digest_at_its_own_local_time(two: Bot) -> None:
    bot = two
    alpha = click_settings(bot, "UADMIN", ALPHA)
    assert submit(bot, "UADMIN", alpha, digest("CALPHA", "09:00"), ALPHA) == {}
    beta = click_settings(bot, "UADMIN", BETA)
    changes = digest("CBETA", "09:00") | zone("America/New_York")
    assert submit(bot, "UADMIN", beta, changes, BETA) == {}
    assert bot.store.workspace_settings(space(bot, BETA)).timezone == "America/New_York"
    assert bot.store.workspace_settings(space(bot, ALPHA)).timezone == "Asia/Shanghai"
    assert "America/New_York" in str(click_settings(bot, "UADMIN", BETA))  # shown as saved
    with time_machine.travel(utc(4, 0), tick=False):  # a transcript each, that morning
        for key in (ALPHA, BETA):
            assert not index_paths(bot.store.in_workspace(space(bot, key)), [SEEDS]).failed

    jobs = WorkspaceJobs(bot.settings, bot.store, bot.app)  # type: ignore[arg-type]
    jobs.tick(utc(5, 0))  # Shanghai 13:00, New York 01:00
    assert posted(bot) == ["CALPHA"]
    jobs.tick(utc(12, 50))  # New York 08:50: not yet
    assert posted(bot) == ["CALPHA"]
    jobs.tick(utc(13, 5))  # New York 09:05
    assert posted(bot) == ["CALPHA", "CBETA"]
    jobs.tick(utc(16, 0))  # once a day each
    assert posted(bot) == ["CALPHA", "CBETA"]


def test_a_time_zone_that_is_not_one_is_said_under_its_field(two: Bot) -> None:
    bot = two
    modal = click_settings(bot, "UADMIN", BETA)
    for wrong in ("Mars/Olympus", "../etc/passwd", "New York"):
        answer = submit(bot, "UADMIN", modal, zone(wrong), BETA)
        assert answer.get("response_action") == "errors", answer
        assert set(answer["errors"]) == {TIMEZONE}
        assert answer["errors"][TIMEZONE] == t("zh", "settings_bad_timezone")
    assert bot.store.workspace_settings(space(bot, BETA)).version == 0
    # empty: the environment's
    assert submit(bot, "UADMIN", modal, zone(""), BETA) == {}
    saved = bot.store.workspace_settings(space(bot, BETA))
    assert saved.version == 1 and saved.timezone is None


def test_a_deadline_ends_the_day_of_the_workspace_s_own_time_zone(two: Bot) -> None:
    bot = two
    beta = click_settings(bot, "UADMIN", BETA)
    assert submit(bot, "UADMIN", beta, zone("America/New_York"), BETA) == {}
    for key, channel in ((ALPHA, "CALPHA"), (BETA, "CBETA")):
        assert not index_paths(bot.store.in_workspace(space(bot, key)), [SEEDS]).failed
        ask_today(bot, key, channel)
    due = {
        key: [
            r[0]
            for r in bot.store._all("SELECT due_at FROM requests WHERE ws = ?", [space(bot, key)])
        ]
        for key in (ALPHA, BETA)
    }
    # "today": Tuesday ends at 16:00 UTC in Shanghai, Monday at 04:00 UTC in New York
    assert due[ALPHA] == ["2026-06-02T15:59:59.999999+00:00"], due
    assert due[BETA] == ["2026-06-02T03:59:59.999999+00:00"], due


def test_the_retention_day_is_the_workspace_s_own(two: Bot, tmp_path: Path) -> None:
    """A policy of 30 days, run at 02:00 UTC on 2 June: in Shanghai it is 2 June, so an
    interview on 2 May is older than 30 days; in New York it is still 1 June: it is not."""
    bot = two
    beta = click_settings(bot, "UADMIN", BETA)
    assert submit(bot, "UADMIN", beta, zone("America/New_York"), BETA) == {}
    folder = tmp_path / "dated"
    folder.mkdir()
    seed = (SEEDS / "000_9e6b3ecb0732fcf3.txt").read_text("utf-8")
    (folder / "000_9e6b3ecb0732fcf3.txt").write_text("面试日期：2026年5月2日\n" + seed, "utf-8")
    for key in (ALPHA, BETA):
        assert not index_paths(bot.store.in_workspace(space(bot, key)), [folder]).failed
    # `debrief retention --workspace` counts the days as the daily job does
    for key, before in ((ALPHA, "2026-05-03"), (BETA, "2026-05-02")):
        args = ["retention", "--dry-run", "--days", "30", "--json", "--workspace", key]
        with time_machine.travel(utc(2, 0), tick=False):
            done = CliRunner().invoke(cli, [*args, "--db", bot.settings.db_path])
        assert done.exit_code == 0, done.output
        assert json.loads(done.stdout)["before"] == before
    policy = bot.settings.model_copy(update={"retention_days": 30})
    run = RetentionJob(policy, bot.store).run(utc(2, 0))
    assert run is not None
    assert bot.store.in_workspace(space(bot, ALPHA)).ids() == []
    assert bot.store.in_workspace(space(bot, BETA)).ids() != []
