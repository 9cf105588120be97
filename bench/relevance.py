"""The judged relevance set (issue 47, tests/relevance/): recall in the top 10 of the
transcripts a person judged relevant, per query and over the set, on SQLite and, with
--db, PostgreSQL side by side; with it R-precision (of the first k hits, k the number
judged relevant, the share judged relevant: whether the judged ones come first) and what
tests/test_relevance.py checks (every hit not partial holds every term, partial hits
last, the first answer is the second).

    python bench/relevance.py
    python bench/relevance.py --db 'postgresql://postgres@/debrief?host=/tmp/devpg&port=55432'

SQLite indexes the set into a temporary file; PostgreSQL into a database of its own made
on the server --db names (`debrief_relevance_<pid>`), dropped at the end. Nothing here
asserts a figure (tests/test_relevance.py holds the floor).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from relevance_judged import TOP, Outcome, ask_all, index, overall_recall  # noqa: E402
from run import loadavg  # noqa: E402

from store.factory import open_store  # noqa: E402


def r_precision(o: Outcome) -> float:
    k = len(o.relevant)
    return len(o.relevant & set(o.ids[:k])) / k


def measure(target: str) -> dict[str, Any]:
    store = open_store(target)
    try:
        index(store)
        outcomes = ask_all(store)
    finally:
        store.close()
    return {
        "recall_at_10": overall_recall(outcomes),
        "r_precision": sum(map(r_precision, outcomes)) / len(outcomes),
        "problems": sum(len(o.problems) for o in outcomes),
        "queries": {
            o.query: {
                "recall": o.recall,
                "r_precision": r_precision(o),
                "hits": len(o.ids),
                "missed": sorted(o.relevant - o.found),
                "problems": o.problems,
            }
            for o in outcomes
        },
    }


@contextmanager
def pg_database(server: str) -> Iterator[str]:
    """A database of its own on the server `server` names, dropped afterwards."""
    import psycopg

    name = f"debrief_relevance_{os.getpid()}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    parts = urlsplit(server)
    try:
        yield urlunsplit(parts._replace(path="/" + name))
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _pad(text: str, width: int) -> str:
    """`text` padded to `width` terminal columns (a Chinese character takes two)."""
    wide = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    return text + " " * max(0, width - wide)


def report(r: dict[str, Any]) -> str:
    backends = list(r["backends"])
    head = _pad("query", 18) + "".join(
        f" {b[:10]:>10} rec {'R-prec':>6} {'hits':>4}" for b in backends
    )
    lines = [
        f"Judged relevance set: {len(r['backends'][backends[0]]['queries'])} queries,"
        f" recall in the top {TOP} (load {r['load_start']} -> {r['load_end']})",
        head,
    ]
    for q in r["backends"][backends[0]]["queries"]:
        row = _pad(q, 18)
        for b in backends:
            f = r["backends"][b]["queries"][q]
            mark = " !" if f["problems"] else "  "
            row += f" {f['recall']:>14.2f} {f['r_precision']:>6.2f} {f['hits']:>4}{mark}"
        lines.append(row)
    lines.append(
        _pad("overall", 18)
        + "".join(
            f" {r['backends'][b]['recall_at_10']:>14.3f} {r['backends'][b]['r_precision']:>6.3f}"
            f" {'':>4}  "
            for b in backends
        )
    )
    for b in backends:
        f = r["backends"][b]
        missed = {q: v["missed"] for q, v in f["queries"].items() if v["missed"]}
        lines.append(f"{b}: {f['problems']} problem(s); missed: {missed or 'none'}")
        for q, v in f["queries"].items():
            for p in v["problems"]:
                lines.append(f"  ! {q!r}: {p}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument(
        "--db", help="a PostgreSQL server (URL): a database is made on it, then dropped"
    )
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = ap.parse_args(argv)
    result: dict[str, Any] = {"load_start": loadavg(), "backends": {}}
    with tempfile.TemporaryDirectory(prefix="debrief-relevance-") as tmp:
        result["backends"]["sqlite"] = measure(str(Path(tmp) / "relevance.db"))
    if args.db:
        with pg_database(args.db) as url:
            result["backends"]["postgresql"] = measure(url)
    result["load_end"] = loadavg()
    print(report(result))
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
