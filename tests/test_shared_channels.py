"""Candidate data is never posted in a channel shared with another organisation (Slack
Connect, issue 34 item 8): a verdict, a hiring decision, a decision from the modal, an
upload's summary card and the digest are refused there with the reason (told to the
person who asked, privately), unless the workspace allows it (its admins in App Home;
one workspace: DEBRIEF_ALLOW_SHARED_CHANNELS). Private answers stay as they are;
`doctor` warns about a digest channel that is shared. Signed HTTP requests against the
strict fake Slack, the real CLI in-process; SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from support.fake_slack import FakeSlack
from support.signed import event_body, post_signed
from support.slackbot import SECRET, Bot, all_text, start_bot
from support.waiting import wait_until
from support.web_api import FakeFile
from test_decide import click_decision, opened_modal, submit
from test_uploads import share, transcript
from test_workspace_settings import ask, beta, click_settings, state, ws
from test_workspace_settings import submit as submit_settings

from bot.cli import cli
from handlers.i18n import t
from handlers.views.decide import DECIDE, Target
from handlers.views.shared import SHARED
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends

__all__ = ["beta"]  # a fixture, from test_workspace_settings

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
REFUSED = t("zh", "shared_channel_refused")
POST_THREAD = "1700000000.000100"  # a verdict posted before the channel was shared


def shown(replies: list[dict[str, Any]]) -> str:
    return "".join(all_text(r) for r in replies)


def posts(bot: Bot, channel: str = "C123") -> list[Any]:
    return [c for c in bot.fake.calls("chat.postMessage") if c.params.get("channel") == channel]


def candidate(bot: Bot) -> str:
    found = bot.store.resolve("000").unique
    assert found is not None
    return found.id


@pytest.fixture
def deciding(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[Bot]:
    bot = start_bot(fake_slack, db_target, uploads=str(tmp_path / "uploads"), deciders_raw="U123")
    assert not index_paths(bot.store, [SEEDS]).failed
    try:
        yield bot
    finally:
        bot.stop()


def test_a_verdict_in_a_shared_channel_is_refused_and_nothing_posted(bot: Bot) -> None:
    bot.fake.shared_channels.add("C123")
    bot.command("点评 000")
    text = shown(bot.replies())
    assert REFUSED in text and "点评 000_9e6b3ecb0732fcf3 全文" in text  # what can be done
    bot.idle()
    assert not bot.fake.calls("chat.postMessage")
    assert bot.store.verdict_post(candidate(bot), "C123") is None
    refused = [e for e in bot.store.audit_log() if e.what == "refused:shared"]
    assert [(e.who, e.channel) for e in refused] == [("U123", "C123")]


def test_an_invitation_pending_counts_as_shared_and_private_answers_stay(bot: Bot) -> None:
    bot.fake.pending_shared.add("C123")
    bot.command("总结 000", name="summary")
    [summary] = bot.replies("summary")  # privately, to one of the workspace's own: as before
    assert "视频开发工程师" in all_text(summary) and REFUSED not in all_text(summary)
    bot.click(summary, "post_in_channel", name="post")
    [told] = bot.replies("post")
    assert REFUSED in all_text(told)
    bot.idle()
    assert not bot.fake.calls("chat.postMessage")


@pytest.mark.slack_refusals_expected
def test_when_slack_cannot_tell_nothing_is_posted(bot: Bot) -> None:
    bot.fake.fail_next("conversations.info", status=200, error="internal_error")
    bot.command("点评 000")
    assert t("zh", "shared_channel_unknown") in shown(bot.replies())
    bot.idle()
    assert not bot.fake.calls("chat.postMessage")


def test_this_organisation_s_channel_is_posted_in_as_before(bot: Bot) -> None:
    bot.command("点评 000")
    bot.fake.wait_for("chat.postMessage")
    bot.idle()
    assert len(posts(bot)) == 1 and bot.fake.calls("conversations.info")


def test_the_environment_allows_shared_channels_in_one_workspace(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEBRIEF_ALLOW_SHARED_CHANNELS", "true")
    fake_slack.shared_channels.add("C123")
    bot = start_bot(fake_slack, db_target, uploads=str(tmp_path / "uploads"))
    try:
        assert not index_paths(bot.store, [SEEDS]).failed
        bot.command("点评 000")
        bot.fake.wait_for("chat.postMessage")
        bot.idle()
        assert len(posts(bot)) == 1
    finally:
        bot.stop()


def test_a_hiring_decision_in_a_shared_channel_is_refused_and_not_recorded(
    deciding: Bot,
) -> None:
    bot = deciding
    cid = candidate(bot)
    bot.store.record_post("C123", POST_THREAD, cid, "verdict")
    bot.fake.shared_channels.add("C123")
    bot.command("结论 000 录用")
    assert REFUSED in shown(bot.replies())
    bot.idle()
    assert bot.store.outcome(cid) is None
    assert not bot.fake.calls("chat.postMessage")


def test_a_decision_from_the_modal_is_kept_but_not_posted_in_a_shared_channel(
    bot: Bot,
) -> None:
    cid = candidate(bot)
    bot.store.record_post("C123", POST_THREAD, cid, "verdict")
    bot.fake.shared_channels.add("C123")
    view = {
        "id": "VDECIDE",
        "callback_id": DECIDE,
        "private_metadata": Target(cid, "C123", POST_THREAD).metadata(),
        "hash": "h1",
        "blocks": [],
    }
    status, answer = submit(bot, view, "hire", user="U777")  # Slack not asked yet
    assert status == 200 and answer == {}
    bot.idle()
    assert not bot.fake.calls("chat.postMessage")
    [told] = bot.fake.calls("chat.postEphemeral")
    assert told.params["user"] == "U777" and REFUSED in str(told.params["text"])
    decided = bot.store.get_candidate(cid)
    assert decided is not None and [d.reviewer for d in decided.decisions] == ["U777"]
    # the button: the modal says why instead of asking for a decision
    click_decision(bot, POST_THREAD, "decide:hold", "hold", user="U888")
    modal = opened_modal(bot)
    assert REFUSED in json.dumps(modal, ensure_ascii=False) and "decision" not in modal["blocks"]
    # its submission, known shared now: said in the modal, nothing kept
    status, answer = submit(bot, view, "no_hire", user="U888")
    assert answer["response_action"] == "errors"
    assert REFUSED in json.dumps(answer, ensure_ascii=False)
    assert not bot.fake.calls("chat.postMessage")


def test_an_upload_s_summary_goes_to_the_uploader_alone_in_a_shared_channel(bot: Bot) -> None:
    bot.fake.shared_channels.add("C123")
    share(bot, FakeFile("F1", "王五.txt", transcript()))
    told = wait_until(
        "the uploader told privately", lambda: bot.fake.calls("chat.postEphemeral")[1:]
    )
    bot.idle()
    calls = bot.fake.calls("chat.postEphemeral")
    assert [c.params["user"] for c in calls] == ["U123", "U123"] and told
    assert REFUSED in str(calls[0].params["text"])
    assert not bot.fake.calls("chat.postMessage")
    assert bot.store.get_candidate("王五") is not None  # indexed all the same


def test_an_event_that_says_its_channel_is_shared_is_believed(bot: Bot) -> None:
    def event_in_shared_channel(
        event: dict[str, Any], event_id: str | None = None, headers: Any = None
    ) -> int:
        body = json.loads(event_body(event, event_id=event_id))
        body["is_ext_shared_channel"] = True  # as Slack says of a Slack Connect channel
        status, _h, _b = post_signed(bot.events_url, json.dumps(body).encode(), SECRET)
        return status

    bot.event = event_in_shared_channel  # type: ignore[method-assign]
    share(bot, FakeFile("F2", "赵六.txt", transcript()))
    wait_until("the uploader told privately", lambda: bot.fake.calls("chat.postEphemeral")[1:])
    bot.idle()
    assert not bot.fake.calls("chat.postMessage")


def test_the_digest_skips_a_shared_channel(
    bot: Bot, fake_slack: FakeSlack, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_slack.shared_channels.add("CHIRE")
    env = {
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_API_URL": fake_slack.base_url,
        "DEBRIEF_DIGEST_CHANNEL": "CHIRE",
        "DEBRIEF_LOCALE": "en",
    }
    db = bot.settings.db_path
    skipped = CliRunner().invoke(cli, ["digest", "--post", "--db", db], env=env)
    assert skipped.exit_code == 0, skipped.output
    assert "shared with another organisation" in skipped.output
    assert not fake_slack.calls("chat.postMessage")
    allowed = env | {"DEBRIEF_ALLOW_SHARED_CHANNELS": "true"}
    sent = CliRunner().invoke(cli, ["digest", "--post", "--db", db], env=allowed)
    assert sent.exit_code == 0, sent.output
    assert [c.params["channel"] for c in fake_slack.calls("chat.postMessage")] == ["CHIRE"]


@pytest.mark.sqlite_only  # doctor's own check; the database is only opened
def test_doctor_warns_about_a_shared_digest_channel(bot: Bot, fake_slack: FakeSlack) -> None:
    fake_slack.shared_channels.add("CHIRE")
    env = {
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_SIGNING_SECRET": "0123456789abcdef0123456789abcdef",
        "SLACK_API_URL": fake_slack.base_url,
        "DEBRIEF_DB": bot.settings.db_path,
        "DEBRIEF_DIGEST_CHANNEL": "CHIRE",
        "DEBRIEF_ALLOWED_CHANNELS": "CHIRE,C123",
    }
    done = CliRunner().invoke(cli, ["doctor", "--json"], env=env)
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    digest = checks["channel CHIRE (digest)"]
    assert digest["status"] == "warn", digest
    assert "#chire is shared with another organisation" in digest["detail"]
    assert checks["channel C123"]["status"] == "ok"  # not the digest's: no word
    zh = CliRunner().invoke(cli, ["doctor"], env=env | {"DEBRIEF_LOCALE": "zh"})
    assert "#chire 与其他组织共享" in zh.stdout
    fake_slack.shared_channels.clear()
    done = CliRunner().invoke(cli, ["doctor", "--json"], env=env)
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    assert checks["channel CHIRE (digest)"]["status"] == "ok"


def test_a_workspace_s_admins_allow_shared_channels_in_app_home(beta: Bot) -> None:
    from bot.workspace_jobs import WorkspaceJobs

    beta.fake.shared_channels.add("CHIRE")
    assert REFUSED in ask(beta, "点评 000", "U777", "CHIRE", "before")
    assert not beta.fake.calls("chat.postMessage")
    submit_settings(beta, "UADMIN", state(digest="CHIRE", digest_at="00:00", off=True))
    jobs = WorkspaceJobs(beta.settings, beta.store, beta.app)  # type: ignore[arg-type]
    jobs.tick()  # the digest is due: skipped, the channel is shared
    assert not beta.fake.calls("chat.postMessage")
    modal = click_settings(beta, "UADMIN")
    [block] = [b for b in modal["blocks"] if b.get("block_id") == SHARED]
    assert "initial_options" not in block["element"]  # off by default
    ticked = {"v": {"type": "checkboxes", "selected_options": [{"value": "allow"}]}}
    values = state(digest="CHIRE", digest_at="00:00", off=True) | {SHARED: ticked}
    assert submit_settings(beta, "UADMIN", values) == {}
    assert beta.store.workspace_settings(ws(beta)).allow_shared_channels is True
    ask(beta, "点评 000", "U777", "CHIRE", "after")
    [verdict] = beta.fake.calls("chat.postMessage")
    assert "视频开发工程师" in all_text(verdict.params)
    jobs.tick()
    assert [c.params["channel"] for c in beta.fake.calls("chat.postMessage")] == ["CHIRE"] * 2
    modal = click_settings(beta, "UADMIN")  # the modal opens at what is saved
    [block] = [b for b in modal["blocks"] if b.get("block_id") == SHARED]
    assert block["element"]["initial_options"][0]["value"] == "allow"
