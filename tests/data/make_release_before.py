"""Writes the databases of the release before (tests/test_release_before.py opens them
with this release). Run it with the code of that release, not this one:

    git worktree add /tmp/rel <commit>
    PYTHONPATH=/tmp/rel python tests/data/make_release_before.py <commit> \
        tests/data/release_before.db 'postgresql://…/empty_database'
    pg_dump --inserts --no-owner --no-privileges -d 'postgresql://…/empty_database' \
        > tests/data/release_before_pg.sql

What it writes, on each backend: the four seeds indexed, the verdict of seed 000 posted
with a reply, a follow-up answer and a reviewer's decision in its thread, a reviewer
asked for seed 001, and the hiring decision on seed 000 (with its webhook event).
"""

from __future__ import annotations

import sys
from pathlib import Path

from store.factory import open_store
from store.indexer import index_paths

SEEDS = Path(__file__).resolve().parent.parent.parent / "seeds"


def write(target: str) -> None:
    store = open_store(target)
    result = index_paths(store, [SEEDS])
    assert not result.failed, result.failed
    ids = sorted(c.id for c in store.list_candidates())
    first, second = ids[0], ids[1]
    store.record_post("C0VERDICT", "1700000000.000100", first, "verdict")
    store.record_reply(
        "C0VERDICT",
        "1700000001.000100",
        "1700000000.000100",
        first,
        "U0REVIEW",
        "问题2：候选人会后补充了参数服务器与 AllReduce 的区别。",
    )
    store.record_decision(
        "C0VERDICT",
        "1700000002.000100",
        "1700000000.000100",
        first,
        "U0REVIEW",
        "hire",
        "通过，基础扎实",
    )
    store.record_requests(
        second,
        ["U0ASKED"],
        "U0RECRUIT",
        "2026-12-01T10:00:00+00:00",
        "C0VERDICT",
        "1700000003.000100",
    )
    store.record_outcome(first, "hire", "offer sent", "U0RECRUIT", webhook=True)
    store.close()


if __name__ == "__main__":
    print("release:", sys.argv[1])
    for target in sys.argv[2:]:
        write(target)
        print("wrote", target)
