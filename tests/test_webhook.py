"""Hiring decisions handed to the ATS (DEBRIEF_WEBHOOK_URL): POSTed to a receiver the test
starts on loopback, signed as Slack signs its requests, at least once: a decision made
through the real HTTP bot arrives with the export row's keys and a valid signature; a
receiver that answers 500 twice gets it a third time, once; a redirect, a timeout and a
refused connection are tried again; a `serve` restarted between the decision and its
delivery delivers it; two replicas deliver each event once; `debrief doctor` reports
what waits; logs never carry the secret, a signature or the URL's path and query; the
receiver docs/ats-webhook.md shows accepts real deliveries and refuses forged or stale ones. On SQLite
and PostgreSQL."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from support.cli import debrief
from support.fake_slack import FakeSlack
from support.serve import ServeProcess
from support.servers import HttpServer, free_port
from support.signed import command_body, post_signed
from support.slackbot import SECRET, Bot, start_bot
from support.waiting import wait_until

from bot.settings import SettingsError, load_settings
from bot.webhook import Deliverer, signed_headers
from store.export_models import ExportRow
from store.factory import Backend, open_store
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
CID = "000_9e6b3ecb0732fcf3"
CANDIDATES = [
    "000_9e6b3ecb0732fcf3",
    "002_72ee0a76eea41e0e",
    "003_20561f43447eea49",
    "004_b1dde04b6d7437d5",
]
CHANNEL = "C123"
HOOK_SECRET = "whsec-0f1e2d3c4b5a69788796a5b4c3d2e1f0"
TOKEN = "tok-in-the-query-9f8e7d"  # a receiver URL may carry a token: never logged
KEYS = set(ExportRow.model_fields) | {"event_id", "sequence"}
QUICK: dict[str, Any] = {"schedule": (0.0,), "jitter": 0.0, "poll_s": 0.02}  # no waiting


# -- a receiver ---------------------------------------------------------------------------


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    def event(self) -> dict[str, Any]:
        found = json.loads(self.body.decode("utf-8"))
        assert isinstance(found, dict)
        return found


def signed_by(received: Received, secret: str = HOOK_SECRET) -> bool:
    """The check a receiver makes: Slack's v0 scheme under the webhook secret."""
    ts = received.headers["X-Debrief-Timestamp"]
    base = b"v0:" + ts.encode() + b":" + received.body
    mac = "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
    return hmac.compare_digest(mac, received.headers["X-Debrief-Signature"])


class Receiver:
    """An ATS on loopback: records every POST and answers the statuses of `script` in
    turn, then 200. `hold` makes it keep the first request unanswered until it is set."""

    def __init__(self, script: list[int] | None = None, port: int = 0) -> None:
        self.script = list(script or [])
        self.requests: list[Received] = []
        self.hold: threading.Event | None = None
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                with outer._lock:
                    outer.requests.append(Received(self.path, dict(self.headers), body))
                    hold, outer.hold = outer.hold, None
                    status = 200 if hold or not outer.script else outer.script.pop(0)
                if hold is not None:
                    hold.wait(30)
                    return  # the client gave up long ago: no answer
                self.send_response(status)
                if 300 <= status < 400:
                    self.send_header("Location", "/elsewhere")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = HttpServer(Handler, name="ats", port=port)

    def __enter__(self) -> Receiver:
        self.server.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.stop()

    @property
    def url(self) -> str:
        return f"{self.server.url}/hooks/debrief?token={TOKEN}"

    def got(self, n: int) -> list[Received]:
        return wait_until(f"{n} request(s) at the receiver", lambda: self._at_least(n), 30)

    def _at_least(self, n: int) -> list[Received]:
        with self._lock:
            return list(self.requests) if len(self.requests) >= n else []


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with Receiver() as r:
        yield r


@pytest.fixture
def delivering() -> Iterator[list[Deliverer]]:
    """Deliverers a test starts, stopped at its end."""
    started: list[Deliverer] = []
    yield started
    for d in started:
        d.stop()


def deliverer(store: Backend, url: str, started: list[Deliverer], **kw: Any) -> Deliverer:
    d = Deliverer(store, url, HOOK_SECRET, **(QUICK | kw)).start()
    started.append(d)
    return d


def all_delivered(store: Backend) -> bool:
    return store.undelivered_webhooks()[0] == 0


def webhook_audit(store: Backend) -> list[tuple[str, str | None]]:
    store.flush_audit()
    return [(e.what, e.candidate) for e in store.audit_log() if e.what.startswith("webhook:")]


# -- the settings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "variable"),
    [
        ({"webhook_url": "ftp://ats.example.com/in"}, "DEBRIEF_WEBHOOK_URL"),
        ({"webhook_url": "ats.example.com/in"}, "DEBRIEF_WEBHOOK_URL"),
        ({"webhook_url": "https://"}, "DEBRIEF_WEBHOOK_URL"),
        (
            {"webhook_url": "https://ats.example.com/in", "webhook_secret": None},
            "DEBRIEF_WEBHOOK_SECRET",
        ),
        (
            {"webhook_url": "https://ats.example.com/in", "webhook_secret": " "},
            "DEBRIEF_WEBHOOK_SECRET",
        ),
    ],
)
def test_a_bad_webhook_setting_is_one_line_naming_it(
    values: dict[str, str | None], variable: str
) -> None:
    with pytest.raises(SettingsError) as raised:
        load_settings(**({"webhook_secret": HOOK_SECRET} | values))
    for said in (str(raised.value), raised.value.said("zh")):
        assert said.startswith(variable) and "\n" not in said and HOOK_SECRET not in said
    good = load_settings(webhook_url=" https://ats.example.com/in ", webhook_secret="s")
    assert (good.webhook_url, good.webhook_secret) == ("https://ats.example.com/in", "s")
    assert load_settings().webhook_url is None  # unset: nothing is handed over


# -- through the real HTTP bot ------------------------------------------------------------


def bot_with(fake: FakeSlack, db: str, tmp_path: Path, **settings: Any) -> Bot:
    fake.users.update({"ULEAD": "Lead Li"})
    bot = start_bot(fake, db, uploads=str(tmp_path / "uploads"), deciders_raw="ULEAD", **settings)
    assert not index_paths(bot.store, [SEEDS]).failed
    return bot


def decide_through_slack(bot: Bot, words: str = "录用 沟通 <好> & 稳") -> None:
    """The verdict posted in the channel first, then the lead's `/candidate 结论`."""
    before = len(bot.fake.calls("chat.postMessage"))
    bot.command("点评 000", name="verdict", user_id="U777", channel_id=CHANNEL)
    bot.fake.wait_for("chat.postMessage", count=before + 1)
    wait_until("the verdict post", lambda: bot.store.verdict_post(CID, CHANNEL))
    bot.command(f"结论 000 {words}", name="decide", user_id="ULEAD", channel_id=CHANNEL)
    bot.idle()
    bot.fake.wait_for("chat.postMessage", count=before + 2)


def test_a_decision_made_in_slack_reaches_the_ats_signed(
    fake_slack: FakeSlack,
    db_target: str,
    tmp_path: Path,
    receiver: Receiver,
    delivering: list[Deliverer],
) -> None:
    hook = {"webhook_url": receiver.url, "webhook_secret": HOOK_SECRET}
    bot = bot_with(fake_slack, db_target, tmp_path, **hook)
    try:
        delivering.append(Deliverer.from_settings(bot.settings, bot.store).start())
        bot.store.record_reply("C123", "1700000002.1", "1700000000.1", CID, "UREV", "通过 很稳")
        decide_through_slack(bot)
        (got,) = receiver.got(1)
        wait_until("marked delivered", lambda: all_delivered(bot.store))
        assert got.path == f"/hooks/debrief?token={TOKEN}"
        assert got.headers["Content-Type"] == "application/json; charset=utf-8"
        assert signed_by(got)
        assert not signed_by(got, "another secret")
        assert abs(time.time() - int(got.headers["X-Debrief-Timestamp"])) < 600
        event = got.event()
        assert set(event) == KEYS
        assert (event["id"], event["outcome"], event["outcome_by"]) == (CID, "hire", "ULEAD")
        assert event["reviews"] == [{"reviewer": "UREV", "decision": "hire", "note": "通过 很稳"}]
        stored = bot.store.webhook_event(event["event_id"])
        assert stored is not None and got.body == stored.body.encode("utf-8")  # byte for byte
        assert stored.attempts == 1
        (row,) = [r for r in bot.store.export_rows() if r.id == CID]
        event_only = ("event_id", "sequence")
        assert {k: v for k, v in event.items() if k not in event_only} == row.model_dump()
        assert webhook_audit(bot.store) == [("webhook:delivered", CID)]
    finally:
        bot.server.stop()
        bot.store.close()


def test_without_a_webhook_url_a_decision_writes_no_event(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> None:
    bot = bot_with(fake_slack, db_target, tmp_path)
    try:
        decide_through_slack(bot)
        outcome = bot.store.outcome(CID)
        assert outcome is not None and outcome.decision == "hire"
        assert bot.store.undelivered_webhooks() == (0, None)
    finally:
        bot.server.stop()
        bot.store.close()


# -- retries ------------------------------------------------------------------------------


def test_500_twice_then_200_is_delivered_once_after_three_attempts(
    seeded_store: Backend, delivering: list[Deliverer], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with Receiver([500, 500]) as ats:
        seeded_store.record_outcome(CID, "hire", "", "ULEAD", webhook=True)
        deliverer(seeded_store, ats.url, delivering)
        first, second, third = ats.got(3)
        wait_until("marked delivered", lambda: all_delivered(seeded_store))
        assert len(ats.requests) == 3  # and no more: it was delivered
    assert first.body == second.body == third.body
    assert all(signed_by(r) for r in (first, second, third))
    (event_id,) = {r.event()["event_id"] for r in (first, second, third)}
    stored = seeded_store.webhook_event(event_id)
    assert stored is not None and stored.attempts == 3 and stored.last_error is None
    assert webhook_audit(seeded_store) == [
        ("webhook:failed", CID),
        ("webhook:failed", CID),
        ("webhook:delivered", CID),
    ]
    failed = [r for r in caplog.records if r.name == "debrief.webhook" and "not delivered" in r.msg]
    assert [r.levelno for r in failed] == [logging.WARNING] * 2
    said = [r.getMessage() for r in failed]
    assert "HTTP 500" in said[0] and "attempt 1" in said[0] and "attempt 2" in said[1]
    assert "trying again in" in said[0]
    assert not any(r.exc_info for r in caplog.records)  # an expected failure: no traceback


def test_a_redirect_a_timeout_and_a_refused_connection_are_tried_again(
    seeded_store: Backend, delivering: list[Deliverer], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    # nothing listens on the port yet: refused, until the receiver comes up there
    port = free_port()
    ats = Receiver([302], port=port)
    ats.hold = threading.Event()  # then the first request it gets is never answered
    url = f"http://127.0.0.1:{port}/hooks/debrief?token={TOKEN}"
    seeded_store.record_outcome(CID, "reject", "", "ULEAD", webhook=True)
    d = deliverer(seeded_store, url, delivering, timeout_s=2, lease_s=30)
    wait_until("a refused attempt", lambda: _errors(seeded_store) == ["connection refused"])
    hold = ats.hold
    with ats:
        try:
            held, redirected, delivered = ats.got(3)
        finally:
            hold.set()  # the held request's thread ends
        wait_until("marked delivered", lambda: all_delivered(seeded_store))
    assert held.body == redirected.body == delivered.body
    assert all(signed_by(r) for r in (held, redirected, delivered))
    said = " | ".join(r.getMessage() for r in caplog.records if r.name == "debrief.webhook")
    assert "connection refused" in said and "timed out" in said
    assert "HTTP 302: redirects are not followed" in said
    assert "/elsewhere" not in said
    stored = seeded_store.webhook_event(held.event()["event_id"])
    assert stored is not None and stored.attempts >= 4
    assert d.pause(1) == 0.0  # the test's schedule: no waiting


def _errors(store: Backend) -> list[str]:
    oldest = store.oldest_undelivered_webhook()
    return [oldest.last_error] if oldest is not None and oldest.last_error else []


def test_the_pauses_grow_to_half_an_hour_with_a_little_jitter(seeded_store: Backend) -> None:
    d = Deliverer(seeded_store, "https://ats.example.com/in", HOOK_SECRET)
    pauses = [d.pause(n) for n in range(1, 12)]
    bases = [1, 5, 30, 120, 600] + [1800] * 6
    for pause, base in zip(pauses, bases, strict=True):
        assert base * 0.9 <= pause <= base * 1.1
    assert max(pauses) <= 1800 * 1.1
    assert d.lease_s > d.timeout_s == 10


def test_no_secret_signature_or_token_in_the_logs(
    seeded_store: Backend, delivering: list[Deliverer], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    with Receiver([500, 401, 302]) as ats:
        seeded_store.record_outcome(CID, "hire", "", "ULEAD", webhook=True)
        deliverer(seeded_store, ats.url, delivering).wake()
        sent = ats.got(4)
        wait_until("marked delivered", lambda: all_delivered(seeded_store))
        port = ats.server.port
    logged = caplog.text + "".join(str(r.args) for r in caplog.records)
    assert HOOK_SECRET not in logged and TOKEN not in logged and "/hooks/debrief" not in logged
    for r in sent:
        signature = r.headers["X-Debrief-Signature"]
        assert signature.removeprefix("v0=") not in logged
    assert f"127.0.0.1:{port}" in logged  # the receiver is named by its host
    seeded_store.flush_audit()
    audited = json.dumps([e.model_dump() for e in seeded_store.audit_log()])
    assert HOOK_SECRET not in audited and TOKEN not in audited


# -- replicas and restarts ----------------------------------------------------------------


def test_two_replicas_deliver_each_event_once(
    seeded_store: Backend, db_target: str, delivering: list[Deliverer]
) -> None:
    replica = open_store(db_target)
    try:
        with Receiver([500] * 3) as ats:
            for cid in CANDIDATES:
                seeded_store.record_outcome(cid, "hire", "", "ULEAD", webhook=True)
            deliverer(seeded_store, ats.url, delivering, claimer="replica-a")
            deliverer(replica, ats.url, delivering, claimer="replica-b")
            wait_until("all delivered", lambda: all_delivered(replica), 30)
            received = list(ats.requests)
        assert len(received) == 3 + len(CANDIDATES)
        succeeded = Counter(r.event()["event_id"] for r in received[3:])
        ids = {r.event()["event_id"] for r in received}
        assert len(ids) == len(CANDIDATES)
        assert sorted(succeeded.values()) == [1] * len(CANDIDATES)  # once each, after the 500s
        delivered = [c for what, c in webhook_audit(seeded_store) if what == "webhook:delivered"]
        assert sorted(c or "" for c in delivered) == CANDIDATES
    finally:
        replica.close()


class Serve(ServeProcess):
    """The real `debrief serve` in HTTP mode, ready once it returns."""

    def __init__(self, fake: FakeSlack, db: str, **env: str) -> None:
        super().__init__(
            {
                "SLACK_BOT_TOKEN": "xoxb-test",
                "SLACK_SIGNING_SECRET": SECRET,
                "SLACK_API_URL": fake.base_url,
                "DEBRIEF_DB": db,
                "DEBRIEF_DECIDERS": "ULEAD",
                "DEBRIEF_LOG_LEVEL": "debug",
            }
            | env
        )
        wait_until("/healthz says ok", self._ready, 60)

    def _ready(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(self.log)
        answer = self.healthz()
        return answer is not None and answer[0] == 200

    def command(self, fake: FakeSlack, text: str, name: str, user: str) -> None:
        body = command_body(
            text, response_url=fake.response_url(name), user_id=user, channel_id=CHANNEL
        )
        status, _h, _b = post_signed(f"{self.url}/slack/events", body, SECRET)
        assert status == 200

    def stop(self) -> str:
        assert self.terminate() == 0, self.log
        return self.log


def test_a_restart_between_the_decision_and_its_delivery_delivers_it_once(
    fake_slack: FakeSlack, db_target: str
) -> None:
    fake_slack.users.update({"ULEAD": "Lead Li"})
    store = open_store(db_target)
    try:
        assert not index_paths(store, [SEEDS]).failed
    finally:
        store.close()
    port = free_port()  # where the ATS will be: nothing listens there yet
    url = f"http://127.0.0.1:{port}/hooks/debrief?token={TOKEN}"
    hook = {"DEBRIEF_WEBHOOK_URL": url, "DEBRIEF_WEBHOOK_SECRET": HOOK_SECRET}

    first = Serve(fake_slack, db_target, **hook)
    try:
        # a real process on a loaded machine, posts paced a second apart in a channel:
        # its posts are waited for as long as the log line below (5 s was missed twice)
        first.command(fake_slack, "点评 000", "verdict", "U777")
        fake_slack.wait_for("chat.postMessage", timeout=60)
        # the post reached Slack; the decision needs it recorded too (a thread to go in)
        watching = open_store(db_target)
        try:
            wait_until("the verdict post", lambda: watching.verdict_post(CID, CHANNEL), 60)
        finally:
            watching.close()
        first.command(fake_slack, "结论 000 录用 稳", "decide", "ULEAD")
        fake_slack.wait_for("chat.postMessage", count=2, timeout=60)
        wait_until("a failed attempt", lambda: "connection refused" in first.log, 60)
    finally:
        log = first.stop()
        print(log)  # shown when the test fails: what the process did
    assert re.search(r"not delivered to http://127\.0\.0\.1:\d+ \(connection refused\)", log)
    store = open_store(db_target)
    try:
        assert store.undelivered_webhooks()[0] == 1  # in the database, not in the process
        with Receiver(port=port) as ats:
            second = Serve(fake_slack, db_target, **hook)
            try:
                (got,) = ats.got(1)
                wait_until("marked delivered", lambda: all_delivered(store), 60)
                assert len(ats.requests) == 1
                audit = wait_until(
                    "the delivery audited",
                    lambda: [a for a in webhook_audit(store) if a[0] == "webhook:delivered"],
                )
                assert audit == [("webhook:delivered", CID)]
                assert ("webhook:failed", CID) in webhook_audit(store)
            finally:
                log += "\n" + second.stop()
    finally:
        store.close()
    assert signed_by(got)
    assert got.event()["id"] == CID and got.event()["outcome"] == "hire"
    assert "Traceback" not in log
    assert HOOK_SECRET not in log and TOKEN not in log and "/hooks/debrief" not in log


# -- doctor -------------------------------------------------------------------------------


def doctor(db: str, **env: str) -> dict[str, Any]:
    done = debrief("doctor", "--json", env={"DEBRIEF_DB": db} | env)
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    found = checks["webhook"]
    assert isinstance(found, dict)
    return found


def test_doctor_reports_the_events_that_wait(
    seeded_store: Backend, db_target: str, delivering: list[Deliverer]
) -> None:
    assert doctor(db_target)["status"] == "skip"  # not configured
    dead = free_port()
    url = f"http://127.0.0.1:{dead}/hooks/debrief?token={TOKEN}"
    hook = {"DEBRIEF_WEBHOOK_URL": url, "DEBRIEF_WEBHOOK_SECRET": HOOK_SECRET}
    assert doctor(db_target, **hook)["status"] == "ok"  # nothing waits

    seeded_store.record_outcome(CID, "hire", "", "ULEAD", webhook=True)
    seeded_store.record_outcome(CANDIDATES[1], "hold", "", "ULEAD", webhook=True)
    report = doctor(db_target, **hook)
    assert report["status"] == "warn" and "2 hiring decision(s)" in report["detail"]
    assert "not tried yet" in report["detail"] and re.search(r"waited \d+ min", report["detail"])

    d = Deliverer(seeded_store, url, HOOK_SECRET, **QUICK)
    assert d.deliver_one() is not None  # the oldest, tried once: refused
    report = doctor(db_target, **hook)
    assert report["status"] == "warn" and "2 hiring decision(s)" in report["detail"]
    assert "1 attempt(s)" in report["detail"] and "connection refused" in report["detail"]
    assert TOKEN not in report["detail"] and f"http://127.0.0.1:{dead}" in report["detail"]

    with Receiver(port=dead):
        deliverer(seeded_store, url, delivering)
        wait_until("all delivered", lambda: all_delivered(seeded_store))
    assert doctor(db_target, **hook)["status"] == "ok"


# -- the README's receiver ----------------------------------------------------------------


def readme_receiver() -> str:
    """The receiver docs/ats-webhook.md shows (the README links there): its one Python block."""
    page = (ROOT / "docs" / "ats-webhook.md").read_text(encoding="utf-8")
    assert page.startswith("# Hand decisions to your ATS\n")
    (code,) = re.findall(r"```python\n(.*?)```", page, re.S)
    return str(code)


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def test_the_readme_receiver_takes_real_deliveries_and_refuses_forgeries(
    seeded_store: Backend, tmp_path: Path, delivering: list[Deliverer]
) -> None:
    code = readme_receiver()
    assert "compare_digest" in code and len(code.strip().splitlines()) <= 30
    script = tmp_path / "receiver.py"
    script.write_text(code, encoding="utf-8")
    port = free_port()
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DEBRIEF_"))}
    proc = subprocess.Popen(
        [sys.executable, str(script)],
        env=kept | {"DEBRIEF_WEBHOOK_SECRET": HOOK_SECRET, "PORT": str(port)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until("the receiver listens", lambda: proc.poll() is not None or listening(port))
        assert proc.poll() is None
        seeded_store.record_outcome(CID, "hire", "好", "ULEAD", webhook=True)
        seeded_store.record_outcome(CANDIDATES[1], "reject", "", "ULEAD", webhook=True)
        deliverer(seeded_store, url, delivering)
        wait_until("both delivered", lambda: all_delivered(seeded_store))
        hire = [e for e in _bodies(seeded_store) if e["id"] == CID]
        seeded_store.record_outcome(CID, "reject", "", "ULEAD", webhook=True)
        wait_until("the newer delivered", lambda: all_delivered(seeded_store))
        # the older decision arriving again (at least once): acknowledged, not kept
        (older,) = hire
        replay = json.dumps(older, ensure_ascii=False).encode("utf-8")
        assert _post(url, replay, signed_headers(HOOK_SECRET, replay)) == 204
        # the same id from another team is another candidate: kept
        other = json.dumps(older | {"team_id": "T0OTHER", "event_id": "other"}).encode()
        assert _post(url, other, signed_headers(HOOK_SECRET, other)) == 204

        body = b'{"event_id":"forged","id":"x","outcome":"hire"}'
        forged = signed_headers("not the secret", body)
        stale = signed_headers(HOOK_SECRET, body, now=time.time() - 6 * 60)
        unsigned = {"Content-Type": "application/json; charset=utf-8"}
        for headers in (forged, stale, unsigned):
            assert _post(url, body, headers) == 401
        assert _post(url, body, signed_headers(HOOK_SECRET, body)) == 204
    finally:
        proc.terminate()
        out, _err = proc.communicate(timeout=10)
    printed = out.splitlines()
    assert [line.split()[1:] for line in printed[:3]] == [
        [CID, "hire"],
        [CANDIDATES[1], "reject"],
        [CID, "reject"],
    ]
    assert printed[3:] == ["other " + CID + " hire", "forged x hire"]  # signed, fresh


def _bodies(store: Backend) -> list[dict[str, Any]]:
    """Every event's body as stored (and as POSTed)."""
    found = store._all("SELECT body FROM webhook_events")
    return [json.loads(r[0]) for r in found]


def _post(url: str, body: bytes, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as exc:
        exc.close()
        return int(exc.code)
