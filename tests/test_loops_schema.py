"""Schema step m028 / pg028 (issue 38) on its own: a database with every other step,
holding what the release before wrote (two interviews of one person, by name and
position, each with a hiring decision; a third, of another position), upgraded by the
step alone, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from store.factory import open_store
from store.schema import steps

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

ROWS = [
    # id, name, position, decided at (None: no hiring decision)
    ("one", "王小明", "后端工程师", "2026-11-21T00:00:00+00:00"),
    ("two", "王 小明", "後端工程師", "2026-11-26T00:00:00+00:00"),
    ("other", "王小明", "前端工程师", "2026-11-20T00:00:00+00:00"),
    ("nameless", None, "后端工程师", None),
]


@pytest.mark.pg_empty
def test_the_step_alone_groups_interviews_and_keeps_the_newer_hiring_decision(
    db_target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    step = next(s for s in steps.STEPS if s.sqlite == "m028_candidate_loops")
    assert step.pg == "pg028_candidate_loops"
    with monkeypatch.context() as m:
        m.setattr(steps, "STEPS", [s for s in steps.STEPS if s is not step])
        old = open_store(db_target)
        with old.tx() as tx:  # as the release before wrote them
            for cid, name, position, decided in ROWS:
                tx.execute(
                    "INSERT INTO candidates (ws, id, name, position, source, hash,"
                    " first_indexed_at, indexed_at) VALUES (0, ?, ?, ?, ?, 'h', ?, ?)",
                    [cid, name, position, f"/gone/{cid}.txt", "2026-11-01", "2026-11-01"],
                )
                if decided is not None:
                    tx.execute(
                        "INSERT INTO outcomes (ws, candidate_id, decision, note, decided_by,"
                        " decided_at, sequence) VALUES (0, ?, ?, '', 'ULEAD', ?, 1)",
                        [cid, "hold" if cid == "one" else "hire", decided],
                    )
        old.close()
    new = open_store(db_target)
    try:
        key = new.candidate_key("one")
        assert key is not None and key == new.candidate_key("two")
        assert new.candidate_key("other") not in (key, None)
        assert new.candidate_key("nameless") not in (key, None)
        for cid in ("one", "two"):  # the newer decision, on each interview
            c = new.get_candidate(cid)
            assert c is not None and c.outcome is not None and c.outcome.decision == "hire"
        other = new.get_candidate("other")
        assert other is not None and other.outcome is not None  # its own, kept
        kept = new._all("SELECT candidate_id FROM outcomes ORDER BY candidate_id")  # type: ignore[attr-defined]
        assert [r[0] for r in kept] == ["other", "two"]
        assert new.count_people() == 3
    finally:
        new.close()
