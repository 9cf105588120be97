"""Access control, audit and erasure, over the real wire."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from support.fake_slack import FakeSlack
from support.signed import command_body, post_signed
from support.slackbot import SECRET, Bot, all_text, start_bot
from support.waiting import wait_until

from bot.cli import cli
from store.indexer import index_paths


def restricted(fake: FakeSlack, tmp_path: Path, seeds_dir: Path, **settings: str) -> Bot:
    bot = start_bot(fake, str(tmp_path / "acl.db"), **settings)
    index_paths(bot.store, [seeds_dir])
    return bot


def command(bot: Bot, text: str, name: str, **kw: str) -> tuple[int, bytes]:
    body = command_body(text, response_url=bot.fake.response_url(name), **kw)
    status, _h, raw = post_signed(bot.events_url, body, SECRET)
    return status, raw


def test_only_allowed_users_and_group_members(
    fake_slack: FakeSlack, tmp_path: Path, seeds_dir: Path
) -> None:
    fake_slack.set_result("usergroups.users.list", {"ok": True, "users": ["UMEMBER"]})
    bot = restricted(fake_slack, tmp_path, seeds_dir, allowed_users_raw="UBOSS, S0001")
    try:
        status, raw = command(bot, "总结 000", "stranger", user_id="USTRANGER")
        assert status == 200
        refusal = json.loads(raw)
        assert (
            refusal["response_type"] == "ephemeral"
            and "没有查看候选人信息的权限" in refusal["text"]
        )
        assert "视频开发工程师" not in raw.decode()
        for user, name in (("UBOSS", "boss"), ("UMEMBER", "member")):
            assert command(bot, "总结 000", name, user_id=user)[0] == 200
            [reply] = bot.replies(name)
            assert "视频开发工程师" in all_text(reply)
        # The refusal is the acknowledgement itself: no listener ran, nothing is pending.
        assert bot.fake.responses("stranger") == []

        def audited() -> list[str]:
            return [e.what for e in bot.store.audit_log()]

        wait_until("both lookups audited", lambda: audited().count("lookup:summary") == 2)
        whats = audited()
        assert "refused:command" in whats and whats.count("lookup:summary") == 2
    finally:
        bot.server.stop()


def test_only_allowed_channels(fake_slack: FakeSlack, tmp_path: Path, seeds_dir: Path) -> None:
    bot = restricted(fake_slack, tmp_path, seeds_dir, allowed_channels_raw="CHIRE")
    try:
        _status, raw = command(bot, "点评 000", "elsewhere", channel_id="CRANDOM")
        assert "招聘频道" in json.loads(raw)["text"]
        assert command(bot, "总结 000", "hire", channel_id="CHIRE")[0] == 200
        [reply] = bot.replies("hire")
        message = {"blocks": reply["blocks"]}
        assert (
            bot.click(message, "post_in_channel", name="click-elsewhere", channel="CRANDOM") == 200
        )
        [refused] = bot.replies("click-elsewhere")
        assert "招聘频道" in all_text(refused) and "视频开发工程师" not in all_text(refused)
        # The refusal was sent by the guard, which ends the request: no listener ran.
        assert bot.fake.calls("chat.postMessage") == []
    finally:
        bot.server.stop()


def test_another_workspace_is_refused(bot: Bot) -> None:
    status, raw = command(bot, "总结 000", "other", team_id="T9999")
    assert status == 200 and "视频开发工程师" not in raw.decode()
    # Refused in the acknowledgement (no listener runs); the audit line is the last thing
    # the refusal does, so once it is written the request is over.
    wait_until(
        "the refusal in the audit",
        lambda: any(e.what == "refused:command" for e in bot.store.audit_log()),
    )
    assert bot.fake.responses("other") == []


def cli_json(*args: str) -> Any:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_audit_records_lookups_posts_and_decisions(bot: Bot) -> None:
    bot.command("总结 002", name="a")
    bot.replies("a")
    bot.command("点评 002", name="b")
    [post] = bot.fake.wait_for("chat.postMessage")
    parent = wait_until(
        "the verdict post recorded", lambda: bot.store.db.execute("SELECT ts FROM posts").fetchone()
    )[0]
    bot.event(
        {
            "type": "message",
            "channel": "C123",
            "user": "UREV",
            "text": "通过",
            "ts": "1800000000.1",
            "thread_ts": parent,
        }
    )
    bot.fake.wait_for("reactions.add")
    # The audit is written off the reply path by the bot's writer thread; the decision's
    # line is queued before the reaction, so flushing now writes every line the test expects.
    assert bot.store.flush_audit(timeout=10)
    entries = cli_json("audit", "--db", bot.store.path, "--json")
    seen = {(e["who"], e["what"], e["candidate"], e["channel"]) for e in entries}
    assert ("U123", "lookup:summary", "002_72ee0a76eea41e0e", "C123") in seen
    assert ("U123", "post:verdict", "002_72ee0a76eea41e0e", "C123") in seen
    assert ("UREV", "decision:hire", "002_72ee0a76eea41e0e", "C123") in seen
    assert all(set(e) == {"when", "who", "what", "candidate", "channel"} for e in entries)
    assert cli_json("audit", "--since", "2999-01-01", "--db", bot.store.path, "--json") == []
    assert post is not None


def test_forget_erases_everything_and_stays_forgotten(
    fake_slack: FakeSlack, tmp_path: Path, seeds_dir: Path
) -> None:
    folder = tmp_path / "folder"
    shutil.copytree(seeds_dir, folder)
    bot = restricted(fake_slack, tmp_path, folder)
    try:
        forget_flow(bot, folder)
    finally:
        bot.server.stop()


def forget_flow(bot: Bot, folder: Path) -> None:
    db = bot.store.path
    bot.command("点评 000", name="v")
    bot.fake.wait_for("chat.postMessage")
    parent = wait_until(
        "the verdict post recorded", lambda: bot.store.db.execute("SELECT ts FROM posts").fetchone()
    )[0]
    bot.event(
        {
            "type": "message",
            "channel": "C123",
            "user": "UREV",
            "text": "hire",
            "ts": "1800000000.2",
            "thread_ts": parent,
        }
    )
    bot.event(
        {
            "type": "message",
            "channel": "C123",
            "user": "UREV",
            "text": "问题2：补充",
            "ts": "1800000000.3",
            "thread_ts": parent,
        }
    )
    bot.fake.wait_for("reactions.add")
    wait_until(
        "both replies recorded",
        lambda: bot.store.db.execute("SELECT count(*) FROM replies").fetchone()[0] == 2,
    )
    assert bot.store.flush_audit(timeout=10)

    out = cli_json("forget", "000_9e6b3ecb0732fcf3", "--db", db, "--json")
    assert out["removed"] == {
        "questions": 5,
        "decisions": 1,
        "followups": 1,
        "replies": 2,
        "posts": 1,
        "fulltext_rows": 1,
    }
    assert CliRunner().invoke(cli, ["show", "000_9e6b3ecb0732fcf3", "--db", db]).exit_code == 1
    assert "000_9e6b3ecb0732fcf3" not in json.dumps(
        cli_json("search", "Replicated", "--db", db, "--json")
    )
    for table in ("replies", "posts"):
        assert bot.store.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0
    audited = {e.candidate for e in bot.store.audit_log()}
    assert "000_9e6b3ecb0732fcf3" not in audited  # a pseudonym stands for the id
    assert bot.store.pseudonym("000_9e6b3ecb0732fcf3") in audited

    again = cli_json("index", str(folder), "--db", db, "--json")
    assert (
        again["forgotten"] == ["000_9e6b3ecb0732fcf3"]
        and "000_9e6b3ecb0732fcf3" not in again["indexed"]
    )
    restored = cli_json("forget", "000_9e6b3ecb0732fcf3", "--restore", "--db", db, "--json")
    assert restored["indexed"] == ["000_9e6b3ecb0732fcf3"]
    cli_json("forget", "000_9e6b3ecb0732fcf3", "--db", db, "--json")
    path = folder / "000_9e6b3ecb0732fcf3.txt"
    path.write_text(path.read_text("utf-8") + "\n补充说明。", "utf-8")
    changed = cli_json("index", str(folder), "--db", db, "--json")
    assert changed["indexed"] == ["000_9e6b3ecb0732fcf3"]  # the file changed: it is back


def test_forget_unknown(bot: Bot) -> None:
    result = CliRunner().invoke(
        cli, ["forget", "nobody", "--db", bot.store.path], env={"DEBRIEF_LOCALE": "en"}
    )
    assert result.exit_code == 2 and "no candidate" in result.output


def open_home(bot: Bot, user: str, **extra: str) -> dict[str, Any]:
    """Open the Home tab as Slack says it; the view then published for `user`."""
    before = len(bot.fake.calls("views.publish"))
    event = {
        "type": "app_home_opened",
        "user": user,
        "channel": f"D{user}",
        "tab": "home",
        "event_ts": "1800000000.000100",
    } | extra
    assert bot.event(event) == 200
    call = bot.fake.wait_for("views.publish", count=before + 1)[before]
    assert call.ok and call.params["user_id"] == user, call.error
    view = call.json_param("view")
    assert isinstance(view, dict)
    return view


CANDIDATE_DATA = ("000_9e6b3ecb0732fcf3", "视频开发工程师", "测试工程师")


def test_a_revoked_user_s_home_tab_is_replaced_by_no_access(
    fake_slack: FakeSlack, tmp_path: Path, seeds_dir: Path
) -> None:
    """Slack keeps showing a Home tab's last published view: when a user loses access,
    opening the tab again must publish a view without candidate data, not nothing."""
    bot = restricted(fake_slack, tmp_path, seeds_dir, allowed_users_raw="U123")
    try:
        shown = all_text(open_home(bot, "U123"))
        assert any(text in shown for text in CANDIDATE_DATA)
    finally:
        bot.server.stop()
        bot.store.close()
    bot = restricted(fake_slack, tmp_path, seeds_dir, allowed_users_raw="UBOSS")  # revoked
    try:
        shown = all_text(open_home(bot, "U123"))
        assert "没有查看候选人信息的权限" in shown
        assert not any(text in shown for text in CANDIDATE_DATA)
        assert all_text(bot.fake.homes["U123"]).count("视频开发工程师") == 0
        wait_until(
            "the refusal in the audit",
            lambda: (
                ("U123", "refused:event_callback")
                in {(e.who, e.what) for e in bot.store.audit_log()}
            ),
        )
    finally:
        bot.server.stop()
        bot.store.close()


def test_a_slack_connect_user_without_user_team_sees_no_candidates_at_home(bot: Bot) -> None:
    """`app_home_opened` names no `user_team`: on an open bot, a user of another
    organisation must not pass for one of ours because the event is silent."""
    bot.fake.user_teams["UEXT1"] = "T9999"
    shown = all_text(open_home(bot, "UEXT1"))
    assert "没有查看候选人信息的权限" in shown
    assert not any(text in shown for text in CANDIDATE_DATA)
    wait_until(
        "the refusal in the audit",
        lambda: (
            ("UEXT1", "refused:event_callback") in {(e.who, e.what) for e in bot.store.audit_log()}
        ),
    )
    # one of ours, on the same open bot, sees the queues
    assert any(text in all_text(open_home(bot, "U123")) for text in CANDIDATE_DATA)
    # a user Slack cannot tell us about is not taken for one of ours either
    bot.fake.unknown_users.add("UGONE")
    assert "没有查看候选人信息的权限" in all_text(open_home(bot, "UGONE"))
