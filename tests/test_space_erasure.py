"""Erasing a whole data space (issue 26): a workspace that uninstalled Debrief loses its
data once its grace has passed (the daily retention job) or at once; every candidate as
`forget` erases one, then every other row of the space, in short transactions that go
on where they stopped. SQLite and PostgreSQL."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.erasure import RetentionJob, erase_space
from bot.settings import load_settings
from store.indexer import index_paths
from store.schema.tables import in_spaces
from store.sqlite.store import Store
from store.workspace_models import Installation, Workspace

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


def iso(**delta: float) -> str:
    return (datetime.now(UTC) + timedelta(**delta)).isoformat(timespec="microseconds")


def installed(team: str) -> Installation:
    return Installation(
        enterprise_id=None,
        team_id=team,
        team_name=f"team {team}",
        bot_id=f"B{team}",
        bot_user_id=f"U{team}",
        bot_token_enc=f"ciphertext of {team}'s token",
    )


def space(store: Store, key: str) -> Workspace:
    found = store.workspace_of(key)
    assert found is not None
    return found


def rows_of(store: Store, ws: int) -> dict[str, int]:
    """How many rows of space `ws` each table of data holds (questions by rid range)."""
    counts = {
        table: int(store._scalar(f"SELECT count(*) FROM {table} WHERE ws = ?", [ws]))
        for table in (t.name for t in in_spaces())
    }
    low, high = store.in_workspace(ws).rid_range
    counts["questions"] = int(
        store._scalar(
            "SELECT count(*) FROM questions WHERE candidate_rid BETWEEN ? AND ?", [low, high]
        )
    )
    return counts


def fill(store: Store, ws: int, uploads: Path) -> list[str]:
    """Space `ws` given the seeds and something in every table: threads, decisions,
    requests, reminders, a digest, an upload (with its file), a forgotten candidate, a
    retired id, audit lines; returns the ids indexed."""
    view = store.in_workspace(ws)
    result = index_paths(view, [SEEDS])
    assert not result.failed
    ids = view.ids()
    first, second, third = ids[0], ids[1], ids[2]
    view.record_post("C1", "100.1", first, "verdict")
    view.record_reply("C1", "200.1", "100.1", first, "U1", "通过：扎实")
    view.record_reply("C1", "200.2", "100.1", first, "U1", "待定")
    assert view.delete_reply("C1", "200.2") is not None  # remembered as deleted
    assert view.record_decision("C1", "1.0", "100.1", first, "U2", "no_hire", "x", claim="k1")
    view.record_requests(first, ["U3"], "UA", iso(days=-1), "C1", "100.1")
    view.record_outcome(first, "hire", "good", "UA", webhook=True)
    assert view.claim_reminder("U3", "2026-12-02", "me", 60)
    assert view.claim_digest("2026-12-02", "C1", "me", 60)
    view.finish_digest("2026-12-02", "me", "9.9")
    uploads.mkdir(parents=True, exist_ok=True)
    saved = uploads / f"{ws}-transcript.txt"
    saved.write_text("保存的文字稿", "utf-8")
    assert view.claim_upload(f"F{ws}:C1:1.1", "F1", "C1", "1.1", "U1")
    view.finish_upload(f"F{ws}:C1:1.1", "indexed", second, str(saved))
    view.audit("U1", "show", first, "C1")
    view.audit("U1", "show", "looked_up_once", "C1")  # named by the audit alone
    view.audit("U1", "show", "000", "C1")  # and one before every other id
    view.record_post("C1", "300.1", third, "summary")
    assert view.remove(third)  # retired: a post still names it
    assert view.forget(ids[3]) is not None
    view.flush_audit()
    return ids


def test_erasing_a_space_leaves_the_other_untouched_and_keeps_its_audit(
    store: Store, tmp_path: Path
) -> None:
    """The same files indexed in space 0 and in an installed workspace's space; the
    workspace uninstalls and its grace passes: everything of its space goes but its
    audit (pseudonymized), and space 0 is as it was."""
    fill(store, 0, tmp_path / "uploads")
    ws = store.save_installation(installed("T0001"))
    ids = fill(store, ws, tmp_path / "uploads" / "T0001")
    assert store.in_workspace(ws).search("TensorFlow")
    before_zero = rows_of(store, 0)
    audit_zero = store.audit_log()
    filled = ("candidates", "posts", "uploads", "retired", "deleted_replies")
    assert all(rows_of(store, ws)[t] for t in filled)
    assert store.space_erasure_refusal(ws) == "installed"
    assert store.spaces_to_erase() == []

    assert store.uninstall("T0001", iso(seconds=-1))
    [due] = store.spaces_to_erase()
    assert due.ws == ws and due.slack_key == "T0001"
    lines_before = len(store.in_workspace(ws).audit_log())
    done = erase_space(store, due, "debrief")
    assert done.finished and done.refused is None
    assert done.candidates >= len(ids) and done.files == 1

    left = rows_of(store, ws)
    assert {t: n for t, n in left.items() if n and t != "audit"} == {}
    assert not (tmp_path / "uploads" / "T0001" / f"{ws}-transcript.txt").exists()
    view = store.in_workspace(ws)
    assert view.ids() == [] and view.search("TensorFlow") == []
    assert view.resolve(ids[0]).matches == []
    # the audit stays, every line of it, with no id of the space in it; and says so
    lines = view.audit_log()
    assert len(lines) == lines_before + 1
    assert lines[-1].what == "forget:workspace" and lines[-1].who == "debrief"
    named = {line.candidate for line in lines if line.candidate}
    assert named and all(n.startswith("erased-") for n in named)
    assert not named & {*ids, "looked_up_once", "000"}
    # marked erased, its key free: installing again starts afresh
    erased = store.workspaces()[-1]
    assert erased.ws == ws and erased.erased_at is not None and erased.slack_key is None
    assert store.workspace_of("T0001") is None and store.spaces_to_erase() == []
    again = store.save_installation(installed("T0001"))
    assert again not in (0, ws) and store.in_workspace(again).ids() == []
    # space 0 untouched
    assert rows_of(store, 0) == before_zero
    assert store.audit_log() == audit_zero
    assert (tmp_path / "uploads" / "0-transcript.txt").exists()
    assert store.search("TensorFlow")


def test_an_erasure_goes_in_short_steps_and_on_where_it_stopped(
    store: Store, tmp_path: Path
) -> None:
    ws = store.save_installation(installed("T0002"))
    ids = fill(store, ws, tmp_path / "uploads")
    assert store.uninstall("T0002", iso(days=30))  # not due yet: erased now, on request
    assert store.begin_space_erasure(ws) is None
    assert [w.ws for w in store.spaces_to_erase()] == [ws]  # due from now on
    one = store.erase_space_step(ws, limit=1)
    assert (one.candidates, one.done, one.files) == (1, False, [])
    assert store.in_workspace(ws).count() == len(ids) - 3  # one removed, one forgotten before
    two = store.erase_space_step(ws, one.after, limit=1)
    assert two.candidates == 1 and store.in_workspace(ws).count() == 0
    assert not store.finish_space_erasure(ws)  # rows are left: not marked
    # the run stops here (a restart, a deploy); the next one goes on
    done = erase_space(store, space(store, "T0002"), "debrief")
    assert done.finished and done.files == 1
    assert {t: n for t, n in rows_of(store, ws).items() if n and t != "audit"} == {}
    again = store.erase_space_step(ws)
    assert again.stopped == "erased"


def test_a_space_installed_again_is_not_erased(store: Store, tmp_path: Path) -> None:
    ws = store.save_installation(installed("T0003"))
    ids = fill(store, ws, tmp_path / "uploads")
    assert store.uninstall("T0003", iso(seconds=-1))
    step = store.erase_space_step(ws, limit=1)
    assert step.candidates == 1
    assert store.save_installation(installed("T0003")) == ws  # back before it was done
    assert store.spaces_to_erase() == []
    stopped = store.erase_space_step(ws)
    assert stopped.stopped == "installed" and stopped.candidates == 0
    done = erase_space(store, space(store, "T0003"), "debrief")
    assert done.refused == "installed" and not done.finished
    assert not store.finish_space_erasure(ws)
    assert len(store.in_workspace(ws).ids()) == len(ids) - 3  # only the first step's went
    assert space(store, "T0003").erased_at is None


def test_space_zero_is_erased_only_once_installed_and_then_uninstalled(
    store: Store, tmp_path: Path
) -> None:
    fill(store, 0, tmp_path / "uploads")
    assert store.space_erasure_refusal(0) == "unadopted"  # the single-workspace mode's
    zero = store.workspaces()[0]
    assert erase_space(store, zero, "cli").refused == "unadopted"
    assert store.ids()
    store.remember_workspace("T0001", "Acme")
    assert store.save_installation(installed("T0001")) == 0  # adopted
    assert store.space_erasure_refusal(0) == "installed"
    assert store.uninstall("T0001", iso(seconds=-1))
    [due] = store.spaces_to_erase()
    assert due.ws == 0
    assert erase_space(store, due, "debrief").finished
    assert store.ids() == [] and store.workspace_of("T0001") is None
    assert store.save_installation(installed("T0001")) != 0  # an erased space is not adopted


def test_the_spaces_due_are_those_past_their_date_with_no_installation(store: Store) -> None:
    late = store.save_installation(installed("T0004"))
    early = store.save_installation(installed("T0005"))
    staying = store.save_installation(installed("T0006"))
    assert store.uninstall("T0004", iso(days=-2))
    assert store.uninstall("T0005", iso(days=-1))
    assert store.uninstall("T0006", iso(days=5))
    assert [w.ws for w in store.spaces_to_erase()] == [late, early]  # oldest first
    assert [w.ws for w in store.spaces_to_erase(iso(days=6))] == [late, early, staying]
    assert staying in {w.ws for w in store.live_spaces()}
    assert {w.ws for w in store.installed_spaces()} == set()
    store.save_installation(installed("T0005"))
    assert [w.ws for w in store.installed_spaces()] == [early]
    assert [w.ws for w in store.spaces_to_erase()] == [late]


def test_the_daily_job_erases_the_spaces_whose_grace_passed(
    store: Store, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    gone = store.save_installation(installed("T0007"))
    kept = store.save_installation(installed("T0008"))
    fill(store, gone, tmp_path / "gone")
    fill(store, kept, tmp_path / "kept")
    grace = load_settings(uninstall_grace_days="30").uninstall_grace_days
    now = datetime.now(UTC)
    assert store.uninstall("T0007", (now - timedelta(days=grace + 1)).isoformat())
    assert store.uninstall("T0008", (now + timedelta(days=grace - 1)).isoformat())
    job = RetentionJob(load_settings(db_path=str(store.path)), store)
    assert job.days is None  # no retention policy: the job still erases spaces
    with caplog.at_level(logging.INFO, logger="debrief.retention"):
        run = job.run(now)
    assert run is not None and run.forgot == []
    assert [(s.ws, s.finished) for s in run.spaces] == [(gone, True)]
    said = [r.getMessage() for r in caplog.records if "T0007" in r.getMessage()]
    assert len(said) == 1 and "erased workspace T0007" in said[0]
    assert store.in_workspace(gone).ids() == []
    assert store.in_workspace(kept).ids()
    assert job.run(now) is None  # once a day, whichever replica asks first
    later = RetentionJob(load_settings(), store).run(now + timedelta(days=grace))
    assert later is not None and [s.ws for s in later.spaces] == [kept]
    assert store.in_workspace(kept).ids() == []


def test_the_retention_policy_applies_in_every_space(store: Store, tmp_path: Path) -> None:
    ws = store.save_installation(installed("T0009"))
    fill(store, 0, tmp_path / "zero")
    fill(store, ws, tmp_path / "nine")
    # the seeds were interviewed in 2026 or earlier: a policy of one day forgets them all
    settings = load_settings(retention_days="1")
    run = RetentionJob(settings, store).run(datetime(2099, 1, 1, tzinfo=UTC))
    assert run is not None and run.spaces == []
    assert store.ids() == [] and store.in_workspace(ws).ids() == []
    # in each space two indexed and one removed whose post remains (one was forgotten)
    assert len(run.forgot) == 3 * 2


def test_every_table_of_a_space_is_emptied_by_some_step() -> None:
    """A table of data added later must say how erasing a space empties it (else a
    space could never be marked erased): tests/test_schema_tables.py checks that every
    table with a `ws` column is declared with one."""
    from store.spaces import SPACE_ROWS

    assert all(t.emptied is not None for t in in_spaces())
    assert {t for t, _key in SPACE_ROWS} == {t.name for t in in_spaces()} - {
        "candidates",  # erased as forget erases each
        "audit",  # kept, pseudonymized
        "erased",  # goes with the mark
    }
