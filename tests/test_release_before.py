"""Databases written by the release before, of both kinds, open with this release and
keep everything they held: the files in tests/data/ were written by the code of commit
d14694f (tests/data/make_release_before.py says how), not built here by leaving steps out.

Each is opened as an operator would after upgrading: the store runs this release's new
schema steps on it; then every candidate, thread, decision, request and hiring decision
it held is there, search finds the seeds, and new writes work."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest
from support.release_before import DATA, release_before

from store.factory import open_store
from store.indexer import index_paths
from store.schema.steps import known

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
SEED_000 = "000_9e6b3ecb0732fcf3"


@pytest.fixture(params=["sqlite", "postgresql"])
def upgraded(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return release_before(request.param, request, tmp_path)


def _recorded_steps(target: str) -> list[str]:
    store = open_store(target)
    try:
        return [r[0] for r in store._all("SELECT name FROM _migrations")]  # type: ignore[attr-defined]
    finally:
        store.close()


def test_the_release_before_wrote_the_files_and_this_release_has_newer_steps() -> None:
    """The files really are of an older release: a step of this release is missing in
    them (else the test below would upgrade nothing)."""
    import sqlite3

    # read-only: a missing file is an error here, never an empty database made in its place
    with sqlite3.connect(f"file:{DATA / 'release_before.db'}?mode=ro", uri=True) as conn:
        recorded = {r[0] for r in conn.execute("SELECT name FROM _migrations")}
    assert recorded < set(known("sqlite"))
    dump = (DATA / "release_before_pg.sql").read_text("utf-8")
    assert "pg025_ask_limits" in dump
    assert any(f"'{name}'" not in dump for name in known("pg"))


def test_a_database_of_the_release_before_upgrades_and_keeps_everything(upgraded: str) -> None:
    backend = "pg" if upgraded.startswith("postgresql") else "sqlite"
    store = open_store(upgraded)
    try:
        assert sorted(_recorded_steps(upgraded)) == sorted(known(backend))
        ids = sorted(c.id for c in store.list_candidates())
        assert ids == sorted(p.stem for p in SEEDS.glob("*.txt"))
        first, second = ids[0], ids[1]
        assert first == SEED_000

        candidate = store.get_candidate(first)
        assert candidate is not None
        assert len(candidate.questions) == 5
        assert [q.number for q in candidate.unanswered] == [2, 3]
        [decision] = candidate.decisions
        assert (decision.reviewer, decision.decision) == ("U0REVIEW", "hire")
        [followup] = candidate.followups
        assert followup.number == 2
        assert candidate.outcome is not None and candidate.outcome.decision == "hire"
        assert store.post_candidate("C0VERDICT", "1700000000.000100") == first
        assert store.undelivered_webhooks()[0] == 1
        [asked] = store.requests_for(second)
        assert asked.reviewer == "U0ASKED"

        hits = store.search("分布式")
        assert first in {h.id for h in hits}

        # and it takes new writes: a transcript indexed again, a new decision
        assert not index_paths(store, [SEEDS]).failed
        assert store.record_decision(
            "C0VERDICT",
            "1700000009.000100",
            "1700000000.000100",
            first,
            "U0OTHER",
            "no_hire",
            "再看看",
        )
        again = store.get_candidate(first)
        assert again is not None and len(again.decisions) == 2
    finally:
        store.close()


SEED_004 = "004_b1dde04b6d7437d5"  # the same position as SEED_000


def _as_one_person(target: str) -> None:
    """In the database of the release before: seeds 000 and 004 (one position) name one
    person, and each interview has a hiring decision, 004's the newer."""
    named = "UPDATE candidates SET name = '王小明' WHERE id IN ({0}, {0})"
    newer = (
        "INSERT INTO outcomes (ws, candidate_id, decision, note, decided_by, decided_at,"
        " sequence) VALUES (0, {0}, 'reject', 'later', 'ULEAD', '2099-01-01T00:00:00+00:00', 3)"
    )
    if target.startswith("postgresql"):
        with psycopg.connect(target, autocommit=True) as conn:
            conn.execute(named.format("%s").encode(), [SEED_000, SEED_004])  # type: ignore[call-overload]
            conn.execute(newer.format("%s").encode(), [SEED_004])  # type: ignore[call-overload]
        return
    import sqlite3

    with sqlite3.connect(target) as conn:
        conn.execute(named.format("?"), [SEED_000, SEED_004])
        conn.execute(newer.format("?"), [SEED_004])
    conn.close()


def test_hiring_decisions_of_the_release_before_become_their_candidates(upgraded: str) -> None:
    """Issue 38's step (m028/pg028): interviews get their candidate's key, computed from
    the stored name and position; of two interviews' hiring decisions, the newer one is
    the candidate's, shown on each interview; a reviewer's decision stays on its own."""
    _as_one_person(upgraded)
    store = open_store(upgraded)
    try:
        key = store.candidate_key(SEED_000)
        assert key is not None and key == store.candidate_key(SEED_004)
        others = {store.candidate_key(c.id) for c in store.list_candidates()} - {key}
        assert len(others) == len(list(SEEDS.glob("*.txt"))) - 2
        for cid in (SEED_000, SEED_004):
            c = store.get_candidate(cid)
            assert c is not None and c.outcome is not None
            assert (c.outcome.decision, c.outcome.note) == ("reject", "later")
        rows = store._all("SELECT candidate_id, sequence FROM outcomes")  # type: ignore[attr-defined]
        assert [r[0] for r in rows] == [SEED_004] and rows[0][1] == 3
        loop = store.loop(key)
        assert loop is not None and {i.id for i in loop.interviews} == {SEED_000, SEED_004}
        first = next(i for i in loop.interviews if i.id == SEED_000)
        assert first.decisions == {"hire": 1}  # the reviewer's decision: their interview's
        assert loop.outcome is not None and loop.outcome.decision == "reject"
    finally:
        store.close()
