"""What the ATS receives (issue 34, items 3 and 4): every event and every export row
says whose candidate it is (`team_id`/`team_name`, `enterprise_id`/`enterprise_name`);
a workspace's admins may send their workspace's decisions to their own URL, signed with
their own secret (kept encrypted, never shown back), set in App Home; one candidate's
events arrive in the order they were recorded, each with `outcome_at` and a
per-candidate `sequence`, also with the ATS down and back up, and across two replicas.
Over the real HTTP server against the strict fake Slack, a receiver on loopback, and
the real CLI in-process, on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from support.fake_oauth import Installer
from support.fake_slack import FakeSlack
from support.installed import install, start_installed_bot
from support.servers import free_port
from support.settings_ui import click_settings, submit_settings
from support.slackbot import Bot
from support.waiting import wait_until
from test_webhook import (
    CANDIDATES,
    CID,
    HOOK_SECRET,
    QUICK,
    Receiver,
    all_delivered,
    signed_by,
)

from bot.cli import cli
from bot.webhook import Deliverer
from handlers.views.settings import DECIDERS
from store.factory import Backend, open_store
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
ALPHA, BETA = "T0002", "T0003"
ALPHA_SECRET = "alpha-own-secret-5e4d3c2b1a"
# the settings modal's webhook fields (handlers/views/webhook.py)
HOOK_URL, SECRET_BLOCK, HOOK_CLEAR = "s_hook_url", "s_hook_secret", "s_hook_clear"


# -- two workspaces, one file -------------------------------------------------------------


@pytest.fixture
def two(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[tuple[Bot, Receiver]]:
    """Alpha and Beta installed, the seeds indexed in each; DEBRIEF_WEBHOOK_URL is a
    receiver of the deployment's own."""
    fake_slack.member_channels |= {"CALPHA", "CBETA"}
    fake_slack.admins.add("UADMIN")
    fake_slack.users.update({"ULEAD": "Lead Li"})
    with Receiver() as env_ats:
        bot = start_installed_bot(
            fake_slack,
            db_target,
            uploads=str(tmp_path / "uploads"),
            remind_time="off",
            deciders_raw="ULEAD",
            webhook_url=env_ats.url,
            webhook_secret=HOOK_SECRET,
        )
        try:
            install(bot, Installer(team_id=ALPHA, team_name="Alpha", user="UADMIN"))
            install(bot, Installer(team_id=BETA, team_name="Beta", user="UADMIN"))
            for key in (ALPHA, BETA):
                assert not index_paths(bot.store.in_workspace(space(bot, key)), [SEEDS]).failed
            yield bot, env_ats
        finally:
            bot.stop()


def space(bot: Bot, key: str) -> int:
    found = bot.store.find_installation(key)
    assert found is not None
    return found.ws


def submit_webhook(
    bot: Bot, team: str, url: str = "", secret: str = "", clear: bool = False
) -> dict[str, Any]:
    """An admin saves the settings modal with these webhook fields (the lead decides,
    the rest empty)."""
    values = {
        DECIDERS: {"v": {"type": "multi_users_select", "selected_users": ["ULEAD"]}},
        HOOK_URL: {"v": {"type": "plain_text_input", "value": url}},
        SECRET_BLOCK: {"v": {"type": "plain_text_input", "value": secret}},
        HOOK_CLEAR: {
            "v": {"type": "checkboxes", "selected_options": [{"value": "clear"}] if clear else []}
        },
    }
    return submit_settings(bot, "UADMIN", team, values)


def open_settings(bot: Bot, team: str) -> dict[str, Any]:
    return click_settings(bot, "UADMIN", team)


def decide(bot: Bot, team: str, channel: str, words: str) -> None:
    """The verdict posted in `team`'s channel, then the lead's `/candidate 结论`."""
    before = len(bot.fake.calls("chat.postMessage"))
    tag = f"{team}-{len(bot.fake.calls('chat.postMessage'))}"
    bot.command("点评 000", name=f"v-{tag}", team_id=team, channel_id=channel)
    bot.fake.wait_for("chat.postMessage", count=before + 1)
    store = bot.store.in_workspace(space(bot, team))
    wait_until("the verdict post", lambda: store.verdict_post(CID, channel))
    bot.command(
        f"结论 000 {words}",
        name=f"d-{tag}",
        team_id=team,
        user_id="ULEAD",
        channel_id=channel,
    )
    bot.idle()
    try:
        bot.fake.wait_for("chat.postMessage", count=before + 2)
    except TimeoutError:
        raise AssertionError(bot.fake.responses(f"d-{tag}")) from None


def test_each_workspace_s_event_says_whose_it_is_and_goes_to_its_own_ats(
    two: tuple[Bot, Receiver], delivering: list[Deliverer], db_target: str
) -> None:
    bot, env_ats = two
    with Receiver() as alpha_ats:
        # Alpha's admin gives Alpha its own webhook in App Home
        assert submit_webhook(bot, ALPHA, url=alpha_ats.url, secret=ALPHA_SECRET) == {}
        saved = bot.store.workspace_settings(space(bot, ALPHA))
        assert saved.webhook_url == alpha_ats.url
        assert saved.webhook_secret_enc and ALPHA_SECRET not in saved.webhook_secret_enc
        raw = bot.store._all("SELECT settings FROM workspaces")
        assert ALPHA_SECRET not in json.dumps(raw)  # encrypted at rest
        modal = json.dumps(open_settings(bot, ALPHA), ensure_ascii=False)
        assert alpha_ats.url in modal and ALPHA_SECRET not in modal  # never shown back
        assert "已设置" in modal
        assert "未设置" in json.dumps(open_settings(bot, BETA), ensure_ascii=False)

        decide(bot, ALPHA, "CALPHA", "录用")
        decide(bot, BETA, "CBETA", "录用")
        delivering.append(Deliverer.from_settings(bot.settings, bot.store, **QUICK).start())
        (to_alpha,) = alpha_ats.got(1)
        (to_env,) = env_ats.got(1)
        wait_until("both delivered", lambda: all_delivered(bot.store))
    # each to its own receiver, signed with its own secret
    assert signed_by(to_alpha, ALPHA_SECRET) and not signed_by(to_alpha, HOOK_SECRET)
    assert signed_by(to_env, HOOK_SECRET)
    alpha, beta = to_alpha.event(), to_env.event()
    assert alpha["id"] == beta["id"] == CID  # the same id: told apart by whose it is
    assert alpha["event_id"] != beta["event_id"]
    assert (alpha["team_id"], alpha["team_name"]) == (ALPHA, "Alpha")
    assert (beta["team_id"], beta["team_name"]) == (BETA, "Beta")
    assert alpha["enterprise_id"] is None and alpha["enterprise_name"] is None
    assert alpha["sequence"] == beta["sequence"] == 1 and alpha["outcome_at"]
    assert len(env_ats.requests) == 1 and len(alpha_ats.requests) == 1

    # the export says whose rows they are, in CSV and JSON
    for key, name in ((ALPHA, "Alpha"), (BETA, "Beta")):
        args = ["export", "--workspace", key, "--db", db_target]
        done = CliRunner().invoke(cli, [*args, "--format", "json"], env={"DEBRIEF_LOCALE": "en"})
        assert done.exit_code == 0, done.output
        rows = json.loads(done.stdout)
        assert {(r["team_id"], r["team_name"], r["enterprise_id"]) for r in rows} == {
            (key, name, None)
        }
        done = CliRunner().invoke(cli, args, env={"DEBRIEF_LOCALE": "en"})
        assert done.exit_code == 0, done.output
        table = list(csv.DictReader(io.StringIO(done.stdout_bytes.decode("utf-8-sig"))))
        assert {(r["team_id"], r["team_name"], r["enterprise_name"]) for r in table} == {
            (key, name, "")
        }


def test_the_webhook_settings_are_checked_and_can_be_cleared(
    two: tuple[Bot, Receiver], delivering: list[Deliverer]
) -> None:
    bot, env_ats = two
    ws = space(bot, ALPHA)
    refused = submit_webhook(bot, ALPHA, url="ftp://ats.example.com/in", secret="s")
    assert refused["response_action"] == "errors" and set(refused["errors"]) == {HOOK_URL}
    no_secret = submit_webhook(bot, ALPHA, url="https://ats.example.com/in")
    assert set(no_secret["errors"]) == {SECRET_BLOCK}
    assert bot.store.workspace_settings(ws).version == 0  # nothing kept
    assert submit_webhook(bot, ALPHA, url="https://ats.example.com/in", secret="s1") == {}
    first = bot.store.workspace_settings(ws).webhook_secret_enc
    # saved again with the secret left empty: the secret is kept
    assert submit_webhook(bot, ALPHA, url="https://ats.example.com/v2") == {}
    kept = bot.store.workspace_settings(ws)
    assert kept.webhook_url == "https://ats.example.com/v2" and kept.webhook_secret_enc == first
    # cleared: the environment's URL again
    assert submit_webhook(bot, ALPHA, url="https://ats.example.com/v2", clear=True) == {}
    cleared = bot.store.workspace_settings(ws)
    assert cleared.webhook_url is None and cleared.webhook_secret_enc is None
    decide(bot, ALPHA, "CALPHA", "不录用")
    delivering.append(Deliverer.from_settings(bot.settings, bot.store, **QUICK).start())
    (got,) = env_ats.got(1)
    assert signed_by(got) and got.event()["team_id"] == ALPHA


# -- one candidate's events in order ------------------------------------------------------


def test_with_the_ats_down_an_older_decision_never_arrives_after_a_newer(
    seeded_store: Backend,
) -> None:
    """The issue's case: `hire` fails (the ATS is down) and waits 30 s; `reject` is
    recorded; the ATS comes back: `reject` alone arrives, and `hire` never after it."""
    seeded_store.remember_workspace("T0SOLO", "Solo")  # the single-workspace mode's team
    port = free_port()
    url = f"http://127.0.0.1:{port}/hooks"
    d = Deliverer(seeded_store, url, HOOK_SECRET, schedule=(30.0,), jitter=0.0, poll_s=0.02)
    seeded_store.record_outcome(CID, "hire", "", "ULEAD", webhook=True)
    tried = d.deliver_one()
    assert tried is not None and not tried.delivered  # connection refused: in 30 s
    hire = seeded_store.oldest_undelivered_webhook()
    assert hire is not None and hire.sequence == 1
    seeded_store.record_outcome(CID, "reject", "", "ULEAD", webhook=True)
    with Receiver(port=port) as ats:
        d.deliver_due()
        (got,) = ats.got(1)
        event = got.event()
        assert (event["outcome"], event["sequence"]) == ("reject", 2)
        assert event["outcome_at"] and (event["team_id"], event["team_name"]) == ("T0SOLO", "Solo")
        assert all_delivered(seeded_store)
        later = datetime.now(UTC) + timedelta(hours=1)  # long after hire's retry was due
        assert seeded_store.claim_webhook_events("later", 60, now=later) == []
        assert d.deliver_one() is None and len(ats.requests) == 1
    stored = seeded_store.webhook_event(hire.event_id)
    assert stored is not None and stored.attempts == 1  # kept, never sent again


def test_a_newer_event_waits_while_an_older_one_is_in_flight_on_another_replica(
    seeded_store: Backend,
) -> None:
    with Receiver() as ats:
        one = Deliverer(seeded_store, ats.url, HOOK_SECRET, **QUICK, timeout_s=5, lease_s=30)
        two = Deliverer(seeded_store, ats.url, HOOK_SECRET, **QUICK, timeout_s=5, lease_s=30)
        seeded_store.record_outcome(CID, "hire", "", "ULEAD", webhook=True)
        seeded_store.record_outcome(CANDIDATES[1], "hold", "", "ULEAD", webhook=True)
        held = threading.Event()
        ats.hold = held  # the first POST stays unanswered until `held` is set
        sending = threading.Thread(target=one.deliver_one)
        sending.start()
        try:
            (in_flight,) = ats.got(1)
            assert in_flight.event()["id"] == CID
            seeded_store.record_outcome(CID, "reject", "", "ULEAD", webhook=True)
            # the other replica: CID's reject waits for the hire in flight; the other
            # candidate's event does not
            tried = two.deliver_one()
            assert tried is not None and tried.delivered
            assert ats.requests[-1].event()["id"] == CANDIDATES[1]
            assert two.deliver_one() is None
        finally:
            held.set()
            sending.join(15)
        two.deliver_due()  # the hire failed (no answer): superseded, the reject goes
        wait_until("all delivered", lambda: all_delivered(seeded_store))
        assert one.deliver_one() is None and two.deliver_one() is None
        mine = [r.event() for r in ats.requests if r.event()["id"] == CID]
    assert [(e["outcome"], e["sequence"]) for e in mine] == [("hire", 1), ("reject", 2)]


@pytest.mark.pg_empty
def test_an_event_waiting_from_the_release_before_is_superseded_by_a_newer_decision(
    db_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database of the release before step m023/pg024, with a decision and its event
    not yet delivered: upgraded, a newer decision supersedes it and counts on."""
    from store.schema import steps

    step = next(s for s in steps.STEPS if s.sqlite == "m023_webhook_order")
    assert step.pg == "pg024_webhook_order"
    # every other step run (so this release's code can index): the release before, as far
    # as the events' order is concerned; m023/pg024 then runs on top of it
    before = [s for s in steps.STEPS if s is not step]
    with monkeypatch.context() as m:
        m.setattr(steps, "STEPS", before)
        old = open_store(db_target)
        assert not index_paths(old, [SEEDS]).failed
        with old.tx() as tx:  # as that release's record_outcome wrote them
            tx.execute(
                "INSERT INTO outcomes (ws, candidate_id, decision, note, decided_by, decided_at)"
                " VALUES (0, ?, 'hire', '', 'ULEAD', '2026-01-01T00:00:00+00:00')",
                [CID],
            )
            tx.execute(
                "INSERT INTO webhook_events (ws, event_id, candidate_id, body, created_at,"
                " next_at) VALUES (0, 'old1', ?, '{}', '2026-01-01T00:00:00+00:00',"
                " '2026-01-01T00:00:00+00:00')",
                [CID],
            )
        old.close()
    new = open_store(db_target)
    try:
        assert new.undelivered_webhooks()[0] == 1  # still waits, after the upgrade
        new.record_outcome(CID, "reject", "", "ULEAD", webhook=True)
        with Receiver() as ats:
            d = Deliverer(new, ats.url, HOOK_SECRET, **QUICK)
            d.deliver_due()
            (got,) = ats.got(1)
            assert (got.event()["outcome"], got.event()["sequence"]) == ("reject", 1)
            assert all_delivered(new) and d.deliver_one() is None and len(ats.requests) == 1
    finally:
        new.close()


@pytest.fixture
def delivering() -> Iterator[list[Deliverer]]:
    started: list[Deliverer] = []
    yield started
    for d in started:
        d.stop()


def test_an_organisation_s_rows_name_the_organisation(db_target: str) -> None:
    """An org-wide install's space is the organisation's (`enterprise_id` alone); a
    workspace of an Enterprise Grid installed on its own names both."""
    from store.workspace_models import Installation

    store = open_store(db_target)
    try:
        for key, org, grid in (("E0ORG", True, "E0ORG"), ("T0GRID", False, "E0GRID")):
            ws = store.save_installation(  # type: ignore[attr-defined]
                Installation(
                    enterprise_id=grid,
                    team_id=None if org else key,
                    is_enterprise_install=org,
                    enterprise_name=f"Org {grid}",
                    team_name=None if org else "Grid team",
                    bot_id="B1",
                    bot_user_id="U1",
                    bot_token_enc="ciphertext",
                )
            )
            assert not index_paths(store.in_workspace(ws), [SEEDS]).failed
    finally:
        store.close()
    whose = {}
    for key in ("E0ORG", "T0GRID"):
        args = ["export", "--workspace", key, "--format", "json", "--db", db_target]
        done = CliRunner().invoke(cli, args, env={"DEBRIEF_LOCALE": "en"})
        assert done.exit_code == 0, done.output
        rows = json.loads(done.stdout)
        fields = ("team_id", "team_name", "enterprise_id", "enterprise_name")
        (whose[key],) = {tuple(r[f] for f in fields) for r in rows}
    assert whose == {
        "E0ORG": (None, None, "E0ORG", "Org E0ORG"),
        "T0GRID": ("T0GRID", "Grid team", "E0GRID", "Org E0GRID"),
    }
