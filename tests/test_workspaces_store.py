"""The workspaces Debrief is installed in, as the store keeps them (issue 26): data
spaces, installations, OAuth states. SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from store.sqlite.store import Store
from store.workspace_models import Installation

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS_ONE = sorted((Path(__file__).resolve().parent.parent / "seeds").glob("*.txt"))[0]


def iso(**delta: float) -> str:
    return (datetime.now(UTC) + timedelta(**delta)).isoformat(timespec="microseconds")


def installed(team: str = "T0001", **values: object) -> Installation:
    return Installation(
        **{
            "enterprise_id": None,
            "team_id": team,
            "team_name": f"team {team}",
            "bot_id": f"B{team}",
            "bot_user_id": f"U{team}",
            "bot_scopes": "commands,chat:write",
            "bot_token_enc": f"ciphertext of {team}'s token",
            "installer_user_id": "UADMIN",
            "token_type": "bot",
        }
        | values
    )


def test_a_new_database_has_space_zero_with_no_key_and_nothing_installed(store: Store) -> None:
    [zero] = store.workspaces()
    assert (zero.ws, zero.slack_key, zero.kind, zero.uninstalled_at) == (0, None, "team", None)
    assert store.find_installation("T0001") is None
    assert store.installation_of(0) is None


def test_installs_get_a_space_each_and_installing_again_keeps_it(store: Store) -> None:
    first = store.save_installation(installed("T0001"))
    second = store.save_installation(installed("T0002"))
    assert first != second and 0 not in (first, second)  # space 0 was never served: kept apart
    again = store.save_installation(
        installed("T0001", bot_token_enc="a newer ciphertext", team_name="renamed")
    )
    assert again == first
    found = store.find_installation("T0001")
    assert found is not None and found.ws == first
    assert found.bot_token_enc == "a newer ciphertext" and found.bot_user_id == "UT0001"
    assert found.is_enterprise_install is False and found.bot_scopes == "commands,chat:write"
    assert "ciphertext" not in repr(found)  # not even the ciphertext goes to a log line
    spaces = {w.slack_key: w for w in store.workspaces()}
    assert spaces["T0001"].name == "renamed" and spaces["T0002"].ws == second
    assert store.installation_of(second) == store.find_installation("T0002")


def test_an_org_wide_install_is_one_space_keyed_by_the_organisation(store: Store) -> None:
    org = installed(
        enterprise_id="E0001",
        team_id=None,
        is_enterprise_install=True,
        enterprise_name="Acme",
        team_name=None,
    )
    ws = store.save_installation(org)
    space = store.workspace_of("E0001")
    assert space is not None and (space.ws, space.kind, space.name) == (ws, "enterprise", "Acme")
    found = store.find_installation("E0001")
    assert found is not None and found.is_enterprise_install and found.team_id is None
    # a workspace of that organisation installing on its own is a space of its own
    inside = store.save_installation(installed("T0009", enterprise_id="E0001"))
    assert inside != ws
    with pytest.raises(ValueError):
        installed(team_id=None).slack_key  # noqa: B018  (names neither: refused)


def test_the_workspace_single_mode_served_is_adopted_as_space_zero(store: Store) -> None:
    store.remember_workspace("T0001", "Acme")  # what `serve` with a bot token recorded
    other = store.save_installation(installed("T0002"))
    assert other != 0  # another workspace does not get the first one's data
    assert store.save_installation(installed("T0001")) == 0
    zero = store.workspace_of("T0001")
    assert zero is not None and zero.ws == 0 and zero.name == "team T0001"
    assert store.save_installation(installed("T0001")) == 0  # and keeps it


def test_an_uninstall_takes_the_token_now_and_keeps_the_data_until_its_date(store: Store) -> None:
    ws = store.save_installation(installed("T0001"))
    erase_at = iso(days=30)
    assert store.uninstall("T0001", erase_at) is True
    assert store.find_installation("T0001") is None and store.installation_of(ws) is None
    space = store.workspace_of("T0001")
    assert space is not None and space.ws == ws
    assert space.uninstalled_at is not None and space.erase_after == erase_at
    assert store.uninstall("T0001", iso(days=60)) is False  # the event delivered twice
    assert store.workspace_of("T0001").erase_after == erase_at  # type: ignore[union-attr]
    assert store.uninstall("T0404", erase_at) is False  # never installed
    # installed again within the grace: the same space, nothing left to erase
    assert store.save_installation(installed("T0001")) == ws
    space = store.workspace_of("T0001")
    assert space is not None and space.uninstalled_at is None and space.erase_after is None


def epoch(**delta: float) -> int:
    return int((datetime.now(UTC) + timedelta(**delta)).timestamp())


def test_an_uninstall_event_is_handled_once_and_only_when_newer_than_the_install(
    store: Store,
) -> None:
    later = iso(days=30)
    # an event for a team not installed (yet): handled, so it is never handled again
    assert store.uninstall("T0001", later, event_id="Ev1", event_time=epoch(hours=1)) is False
    ws = store.save_installation(installed("T0001", installed_at=iso(minutes=-10)))
    assert store.uninstall("T0001", later, event_id="Ev1", event_time=epoch(hours=1)) is False
    # older than the install (installed again since: its time is the newest install's)
    store.save_installation(installed("T0001", installed_at=iso(minutes=-2)))
    assert store.uninstall("T0001", later, event_id="Ev2", event_time=epoch(minutes=-5)) is False
    # another bot's token revoked
    assert store.uninstall("T0001", later, event_id="Ev3", bot_users=["UOTHER"]) is False
    assert store.uninstall("T0001", later, event_id="Ev4", bot_users=[]) is False
    assert store.installation_of(ws) is not None
    # in the very second of the install: the install may have come first, so it goes
    now = epoch()
    assert store.uninstall("T0001", later, event_id="Ev5", event_time=now, bot_users=["UT0001"])
    assert store.installation_of(ws) is None
    # installed again in that same second: an event of that second is the uninstall's
    # (or older), and the new install stays; a newer one still uninstalls
    store.save_installation(installed("T0001"))
    assert store.uninstall("T0001", later, event_id="Ev6", event_time=now) is False
    assert store.uninstall("T0001", later, event_id="Ev7", event_time=max(now + 1, epoch()))
    assert store.workspace_of("T0001").erase_after == later  # type: ignore[union-attr]


def test_two_replicas_given_one_uninstall_event_handle_it_once(db_target: str) -> None:
    from store.factory import open_store

    stores = [open_store(db_target), open_store(db_target)]
    try:
        teams = [f"T1{n:03d}" for n in range(10)]
        for team in teams:
            stores[0].save_installation(installed(team, installed_at=iso(minutes=-1)))
        handled: list[bool] = []
        start = threading.Barrier(2)

        def deliver(replica: int) -> None:
            start.wait(30)
            for n, team in enumerate(teams):
                handled.append(
                    stores[replica].uninstall(
                        team, iso(days=30), event_id=f"Ev{n}", event_time=epoch()
                    )
                )

        threads = [threading.Thread(target=deliver, args=(r,)) for r in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert len(handled) == 20 and sum(handled) == 10
        handled_ids = stores[1]._all("SELECT event_id, removed FROM uninstall_events")
        assert sorted(handled_ids) == sorted((f"Ev{n}", 1) for n in range(10))
    finally:
        for s in stores:
            s.close()


@pytest.mark.pg_empty
def test_a_database_of_the_release_before_keeps_its_installs_and_handles_events(
    db_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """m022 / pg023 on a database the release before wrote: installs kept, the states it
    had handed out gone (a state is signed now), uninstall events handled once."""
    from store.factory import open_store
    from store.schema import steps

    step = next(s for s in steps.STEPS if s.sqlite == "m022_uninstall_events")
    assert step.pg == "pg023_uninstall_events"
    before = steps.STEPS[: steps.STEPS.index(step)]
    with monkeypatch.context() as m:
        m.setattr(steps, "STEPS", before)
        old = open_store(db_target)
        ws = old.save_installation(installed("T0001", installed_at=iso(minutes=-5)))
        with old.tx() as tx:
            tx.execute(
                "INSERT INTO oauth_states (state, expires_at) VALUES (?, ?)",
                ["handed-out.signature", iso(minutes=5)],
            )
        old.close()
    new = open_store(db_target)
    try:
        assert new.installation_of(ws) is not None
        assert new._scalar("SELECT count(*) FROM oauth_states") == 0
        assert new.uninstall("T0001", iso(days=30), event_id="Ev1", event_time=epoch())
        assert not new.uninstall("T0001", iso(days=30), event_id="Ev1", event_time=epoch())
        assert new.use_oauth_state("nonce", iso(minutes=5))
    finally:
        new.close()


def test_an_oauth_state_is_good_once_and_not_after_it_ran_out(store: Store) -> None:
    assert store.use_oauth_state("fresh", iso(minutes=10)) is True
    assert store.use_oauth_state("fresh", iso(minutes=10)) is False  # replayed
    assert store.use_oauth_state("stale", iso(seconds=-1)) is True
    # the states that ran out are forgotten (their signature refuses them: bot/oauth_state.py)
    store.use_oauth_state("another", iso(minutes=10))
    assert sorted(r[0] for r in store._all("SELECT state FROM oauth_states")) == [
        "another",
        "fresh",
    ]


def test_two_replicas_given_one_state_accept_it_once(db_target: str) -> None:
    from store.factory import open_store

    stores = [open_store(db_target), open_store(db_target)]
    try:
        accepted: list[bool] = []
        start = threading.Barrier(2)

        def consume(replica: int) -> None:
            start.wait(30)
            for n in range(20):
                accepted.append(stores[replica].use_oauth_state(f"s{n}", iso(minutes=10)))

        threads = [threading.Thread(target=consume, args=(r,)) for r in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert len(accepted) == 40 and sum(accepted) == 20
    finally:
        for s in stores:
            s.close()


def test_a_token_rotation_is_claimed_once_and_saved_only_by_its_claimer(store: Store) -> None:
    expiry = int(datetime.now(UTC).timestamp()) + 3600
    ws = store.save_installation(
        installed("T0001", bot_refresh_token_enc="refresh ciphertext", bot_token_expires_at=expiry)
    )
    read = "ciphertext of T0001's token"
    assert store.claim_token_rotation(ws, read, "replica-a", iso(seconds=30)) is True
    assert store.claim_token_rotation(ws, read, "replica-b", iso(seconds=30)) is False
    assert not store.save_rotated_token(ws, "replica-b", "b's token", "b's refresh", expiry + 1)
    assert store.save_rotated_token(ws, "replica-a", "new token", "new refresh", expiry + 43200)
    found = store.installation_of(ws)
    assert found is not None and found.bot_token_enc == "new token"
    assert (found.bot_refresh_token_enc, found.bot_token_expires_at) == (
        "new refresh",
        expiry + 43200,
    )
    # a replica that read the old token claims nothing, whatever the expiries
    assert store.claim_token_rotation(ws, read, "replica-b", iso(seconds=30)) is False
    # a claim whose holder died runs out, and another replica may take it
    assert store.claim_token_rotation(ws, "new token", "replica-a", iso(seconds=-1))
    assert store.claim_token_rotation(ws, "new token", "replica-b", iso(seconds=30))
    assert store.save_rotated_token(ws, "replica-a", "late", None, expiry) is False


def test_every_row_of_data_belongs_to_space_zero_until_spaces_are_used(
    seeded_store: Store,
) -> None:
    from store.schema.tables import in_spaces

    seeded_store.record_post("C1", "100.1", seeded_store.ids()[0], "verdict")
    seeded_store.audit("U1", "show", seeded_store.ids()[0], "C1")
    seeded_store.flush_audit()
    for table in (t.name for t in in_spaces()):
        spaces = seeded_store._all(f"SELECT DISTINCT ws FROM {table}")
        assert spaces in ([], [(0,)]), table
    assert seeded_store._scalar("SELECT count(*) FROM candidates WHERE ws = 0") == len(
        seeded_store.ids()
    )


def test_a_workspace_view_shares_the_store_and_sets_nothing_on_itself(
    seeded_store: Store,
) -> None:
    root = seeded_store
    view = root.in_workspace(7)
    assert (view.ws, root.ws) == (7, 0) and view._shared is root._shared
    with pytest.raises(AttributeError, match="Shared"):
        view.anything = 1  # type: ignore[attr-defined]
    root.anything = 1  # type: ignore[attr-defined]  # the store itself is not a view
    # one audit writer for the store and its views: a view's line is flushed by the store
    first = root.ids()[0]
    view.audit("U1", "show", first, "C1")
    assert root.flush_audit()
    assert [(e.who, e.candidate) for e in view.audit_log()] == [("U1", first)]  # in space 7
    # one answer cache, keyed by space: a view's search is not served another's ranking
    root.clear_search_cache()
    assert root.search("TensorFlow") and view.search("TensorFlow") == []  # space 7 is empty
    cache = root._shared.rank_cache
    assert cache is not None and {k[0] for k in cache._entries} == {0, 7}


def test_a_space_sees_its_own_candidates_by_every_way_in(seeded_store: Store) -> None:
    """Step 5 of the plan: candidates, their lookups and their full text are scoped to
    the store's data space; space 7 holds one transcript, space 0 the seeds."""
    from store.base import SPACE_BITS
    from store.transcripts.parser import parse_transcript

    zero, seven = seeded_store, seeded_store.in_workspace(7)
    seeds = zero.ids()
    mine = parse_transcript(
        SEEDS_ONE.read_bytes(), "transcript.txt", source="/spaces/7/transcript.txt"
    ).model_copy(update={"id": "700_only_in_seven", "name": "七号候选人"})
    seven.save(mine)
    assert seven.ids() == ["700_only_in_seven"] and "700_only_in_seven" not in zero.ids()
    assert zero.ids() == seeds
    assert (seven.count(), zero.count()) == (1, len(seeds))
    assert seven.get_candidate(seeds[0]) is None and zero.get_candidate(mine.id) is None
    assert seven.get_candidate(mine.id) is not None
    assert [c.id for c in seven.list_candidates()] == [mine.id]
    assert mine.id not in [c.id for c in zero.list_candidates()]
    assert seven.resolve(seeds[0][:3]).matches == []  # no id prefix of another space
    assert zero.resolve("七号候选人").matches == []  # nor a name
    assert [m.id for m in seven.resolve("七号候选人").matches] == [mine.id]
    word = "TensorFlow"
    assert [h.id for h in seven.search(word)] == [mine.id]
    assert mine.id not in [h.id for h in zero.search(word, limit=100)]
    assert [h.id for h in seven.search(word, sort="newest")] == [mine.id]
    for query in ("分布式训练", "模型 C++", "并行"):  # each way the backends rank
        assert {h.id for h in seven.search(query, limit=100)} <= {mine.id}, query
        assert mine.id not in {h.id for h in zero.search(query, limit=100)}, query
    assert set(seven.file_state()) == {"/spaces/7/transcript.txt"}
    rid = seven._scalar("SELECT rid FROM candidates WHERE id = ?", [mine.id])
    assert 7 << SPACE_BITS <= rid < 8 << SPACE_BITS  # its space's range of rids
    assert seven.remove(mine.id) and not zero.remove(mine.id)
    assert zero.ids() == seeds


def test_threads_and_decisions_stay_in_their_space(seeded_store: Store) -> None:
    """Step 6: posts, replies, button decisions and their submission keys."""
    zero, seven = seeded_store, seeded_store.in_workspace(7)
    first = zero.ids()[0]
    seven.save(zero.get_candidate(first).model_copy(update={"id": "7_" + first}))  # type: ignore[union-attr]
    mine = "7_" + first
    seven.record_post("C7", "100.1", mine, "verdict")
    assert (
        seven.post_candidate("C7", "100.1") == mine and zero.post_candidate("C7", "100.1") is None
    )
    assert seven.record_reply("C7", "200.1", "100.1", mine, "U1", "通过：扎实").recorded
    assert seven.current_decision(mine, "U1") == "hire"
    assert zero.current_decision(mine, "U1") is None and zero.tally(mine) == {}
    assert seven.tally(mine) == {"hire": 1}
    card = seven.get_candidate(mine)
    assert card is not None and [d.reviewer for d in card.decisions] == ["U1"]
    assert not zero.delete_reply("C7", "200.1")  # another space's reply is not there
    assert seven.record_decision("C7", "1.0", "100.1", mine, "U2", "no_hire", "x", claim="k1")
    assert not seven.record_decision("C7", "1.1", "100.1", mine, "U2", "no_hire", "x", claim="k1")
    assert not zero.record_decision("C7", "1.2", "100.1", mine, "U2", "no_hire", "x", claim="k2")
    assert zero.current_decision(mine, "U2") is None
    assert seven.settle_decision("C7", "1.0", "300.1") and not zero.settle_decision(
        "C7", "300.1", "4"
    )
    assert seven.delete_reply("C7", "200.1") and seven.current_decision(mine, "U1") is None


def test_hiring_decisions_requests_and_reminders_stay_in_their_space(
    seeded_store: Store,
) -> None:
    """Step 7: outcomes (and the ATS's events), requests, reminders."""
    zero, seven = seeded_store, seeded_store.in_workspace(7)
    first = zero.ids()[0]
    mine = "7_" + first
    seven.save(zero.get_candidate(first).model_copy(update={"id": mine}))  # type: ignore[union-attr]
    assert not zero.record_requests(mine, ["U1"], "UA", iso(days=-1), "C7", "100.1")
    assert seven.record_requests(mine, ["U1", "U2"], "UA", iso(days=-1), "C7", "100.1")
    assert [r.reviewer for r in seven.requests_for(mine)] == ["U1", "U2"]
    assert zero.requests_for(mine) == [] and zero.overdue_requests(iso()) == []
    assert [r.candidate_id for r in seven.overdue_requests(iso())] == [mine, mine]
    assert zero.asked_of("U1", 10) == ([], 0) and seven.asked_of("U1", 10)[1] == 1
    assert zero.overdue_lines(iso(), 10) == ([], 0)
    assert [line.id for line, _r in seven.overdue_lines(iso(), 10)[0]] == [mine]
    assert zero.record_outcome(mine, "hire", "", "UA") == (False, None)
    assert seven.record_outcome(mine, "hire", "good", "UA", webhook=True)[0]
    assert zero.outcome(mine) is None and seven.outcome(mine) is not None
    assert seven.requests_for(mine)[0].closed_by == "outcome"  # closed in its own space
    assert [r.id for r in seven.export_rows()] == [mine]
    assert mine not in [r.id for r in zero.export_rows()]
    [event] = seven.claim_webhook_events("me", 30)  # one deliverer for every space
    assert event.candidate_id == mine
    assert seven._scalar("SELECT ws FROM webhook_events") == 7
    seven.record_post("C7", "100.1", mine, "verdict")
    assert seven.verdict_post(mine, "C7") == "100.1" and zero.verdict_post(mine, "C7") is None
    assert seven.claim_reminder("U1", "2026-12-02", "me", 60)
    assert zero.reminder_status("U1", "2026-12-02") is None
    seven.finish_reminder("U1", "2026-12-02", "me", "1.1")
    assert seven.reminder_status("U1", "2026-12-02") == "sent"
    assert zero.claim_reminder("U1", "2026-12-02", "me", 60)  # each space's own reminder
    assert zero.reminder_status("U1", "2026-12-02") == "posting"
    assert seven.reminder_status("U1", "2026-12-02") == "sent"
    zero.release_reminder("U1", "2026-12-02", "me")
    assert zero.reminder_status("U1", "2026-12-02") is None


def test_uploads_home_digest_audit_and_erasure_stay_in_their_space(
    seeded_store: Store,
) -> None:
    """Step 8: uploads, the Home tab's queues, the digest and its claim, the audit, and
    forgetting a candidate (the forgotten list, the pseudonyms, retention)."""
    zero, seven = seeded_store, seeded_store.in_workspace(7)
    first = zero.ids()[0]
    mine = "7_" + first
    original = zero.get_candidate(first)
    assert original is not None
    seven.save(original.model_copy(update={"id": mine}))
    # uploads
    assert seven.claim_upload("F1:C7:1.1", "F1", "C7", "1.1", "U1")
    seven.finish_upload("F1:C7:1.1", "indexed", mine, "/uploads/7/f1.txt")
    assert seven.uploaded_files(mine) == ["/uploads/7/f1.txt"] and zero.uploaded_files(mine) == []
    assert seven.candidate_with_hash(original.hash) == mine
    assert zero.candidate_with_hash(original.hash) == first
    # the Home tab and the digest
    seven.record_post("C7", "100.1", mine, "verdict")
    assert seven.verdict_channels() == ["C7"] and "C7" not in zero.verdict_channels()
    assert [line.id for line in seven.waiting_for(["C7"], "U9", 10)[0]] == [mine]
    assert zero.waiting_for(["C7"], "U9", 10) == ([], 0)
    seven.record_reply("C7", "200.1", "100.1", mine, "U1", "通过")
    assert [line.id for line, _d in seven.recent_decisions("U1", 10)[0]] == [mine]
    assert zero.recent_decisions("U1", 10) == ([], 0)
    new = {line.id for line in seven.digest_lines("new", "", 100)[0]}
    assert new == {mine} and mine not in {line.id for line in zero.digest_lines("new", "", 100)[0]}
    assert seven.claim_digest("2026-12-02", "C7", "me", 60)
    assert zero.digest_status("2026-12-02") is None
    seven.finish_digest("2026-12-02", "me", "9.9")
    assert seven.last_digest_sent_at() is not None and zero.last_digest_sent_at() is None
    # the audit, then forgetting the candidate of space 7
    seven.audit("U1", "show", mine, "C7")
    zero.audit("U1", "show", first, "C1")
    assert [e.candidate for e in seven.audit_log()] == [mine]
    assert mine not in [e.candidate for e in zero.audit_log()]
    assert zero.forget(mine) is None and zero.erasure_state(mine) is None  # not zero's
    assert seven.erasure_state(mine) == "indexed"
    assert seven.forget(mine) is not None
    assert seven.ids() == [] and mine in seven.forgotten() and mine not in zero.forgotten()
    [line] = seven.audit_log()
    assert line.candidate == seven.pseudonym(mine) != zero.pseudonym(mine)
    assert zero.get_candidate(first) is not None  # space 0's twin is untouched
    assert seven.restore(mine) == original.source and mine not in seven.forgotten()
    assert seven.expired("9999-12-31", iso(days=1)) == []  # nothing of zero's expires here
    assert {e.id for e in zero.expired("9999-12-31", iso(days=1))} == set(zero.ids())


@pytest.mark.pg_empty
def test_the_keys_move_into_spaces_and_every_row_comes_along(
    db_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Step 9 (m019 / pg020) on a database written before it (its rows written as that
    release's SQL did): every row of every rekeyed table is there after, whole, and the
    same keys may then exist in two spaces."""
    from store.factory import open_store
    from store.indexer import index_paths
    from store.schema import steps

    step = next(s for s in steps.STEPS if s.sqlite == "m019_keys_in_a_space")
    assert step.pg == "pg020_keys_in_a_space"
    before = steps.STEPS[: steps.STEPS.index(step)]
    rows = {
        "posts (channel, ts, candidate_id, kind, posted_at)": ["C1", "100.1", "c1", "verdict", "t"],
        "replies (channel, ts, thread_ts, candidate_id, reviewer, text, decision, recorded_at)": [
            "C1",
            "200.1",
            "100.1",
            "c1",
            "U1",
            "通过",
            "hire",
            "t",
        ],
        "requests (candidate_id, reviewer, asked_by, asked_at, due_at, channel, thread_ts)": [
            "c1",
            "U2",
            "UA",
            "t",
            "t",
            "C1",
            "100.1",
        ],
        "outcomes (candidate_id, decision, note, decided_by, decided_at)": [
            "c1",
            "hire",
            "",
            "UA",
            "t",
        ],
        "digests (day, channel, status, claimed_by, claimed_at)": [
            "2026-12-02",
            "C1",
            "sent",
            "me",
            "t",
        ],
        "reminders (reviewer, day, status, claimer, claimed_at)": [
            "U2",
            "2026-12-02",
            "sent",
            "me",
            "t",
        ],
        'uploads (key, file_id, channel, ts, "user", outcome, at)': [
            "F1",
            "F1",
            "C1",
            "1.1",
            "U1",
            "indexed",
            "t",
        ],
        "forgotten (id, hash, source, forgotten_at)": ["c2", "h", "/x", "t"],
        "retired (id, hash, source, at)": ["c3", "h", "/y", "t"],
        "submissions (key, at)": ["k1", "t"],
        "forgotten_threads (channel, ts)": ["C1", "100.9"],
    }
    with monkeypatch.context() as m:  # the release before step 9
        m.setattr(steps, "STEPS", before)
        old = open_store(db_target)
        with old.tx() as tx:
            for table, values in rows.items():
                marks = ", ".join("?" for _ in values)
                tx.execute(f"INSERT INTO {table} VALUES ({marks})", values)
        written = {t.split()[0]: old._all(f"SELECT * FROM {t.split()[0]}") for t in rows}
        old.close()
    new = open_store(db_target)  # this release: the step runs
    try:
        for table, found in written.items():
            now = new._all(f"SELECT * FROM {table}")
            # the columns it had then (a later step may add its own after them)
            assert sorted(r[: len(found[0])] for r in now) == sorted(found), table
        # the same reply, digest day, reminder and candidate id in another space: their own
        index_paths(new, [SEEDS_ONE.parent])
        first = new.ids()[0]
        card = new.get_candidate(first)
        assert card is not None
        seven = new.in_workspace(7)
        seven.save(card.model_copy(update={"source": "/spaces/7/" + first}))
        seven.record_post("C1", "100.1", first, "verdict")
        assert seven.record_reply("C1", "200.1", "100.1", first, "U1", "不通过").recorded
        assert seven.claim_digest("2026-12-02", "C1", "me", 60)
        assert seven.claim_reminder("U2", "2026-12-02", "me", 60)
        assert seven.current_decision(first, "U1") == "no_hire"
        assert new.current_decision(first, "U1") is None  # space 0's c1 reply is another id
        assert [h.id for h in seven.search("TensorFlow")] == [first]
        assert new.get_candidate(first) == card  # space 0's candidate is untouched
        assert seven.forget(first) is not None and new.get_candidate(first) == card
    finally:
        new.close()
