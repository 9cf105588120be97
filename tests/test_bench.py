"""The benchmark suite runs at a small N so it never rots. It checks that the suite
produces every figure beside its baseline, not how fast anything is."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(script: str, *args: str) -> str:
    """Run a bench script to its end; its output."""
    done = subprocess.run(
        [sys.executable, script, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def _bench(*args: str) -> tuple[list[str], str]:
    """Run bench/run.py: (its table's lines, its last line: the JSON figures)."""
    *table, last = _run("bench/run.py", *args).strip().splitlines()
    return table, last


def test_bench_suite_produces_its_figures() -> None:
    table, last = _bench("--count", "200", "--quick", "--json")
    figures = json.loads(last)
    index = figures["index"]
    assert index["files"] == 200 and index["reindex_unchanged"] == 200
    for key in (
        "index_mb_per_s",
        "baseline_mb_per_s",
        "index_ratio",
        "reindex_seconds",
        "db_ratio",
    ):
        assert index[key] > 0, key
    assert set(figures["search"]) == {"cjk-2", "cjk-long", "ascii", "mixed"}
    for kind, s in figures["search"].items():
        assert 0 < s["p50_ms"] <= s["p99_ms"] and s["grep_p50_ms"] > 0, kind
        assert 0 < s["cold_p50_ms"] <= s["cold_p99_ms"], kind
        assert any(n > 0 for n in s["hits_at_1000"].values()), kind
        # issue 39: every bench query's top 10 is FTS5's exact bm25 (bench/oracle.py)
        assert s["exact_top10"] and all(s["exact_top10"].values()), kind
        assert s["count_floor_p99_ms"] > 0 and s["newest_1000_rank_p99_ms"] > 0, kind
    for kind in ("summary", "unanswered", "search"):
        s = figures["serve"][kind]
        assert 0 < s["ack_p50_ms"] <= s["ack_p99_ms"] and 0 < s["reply_p50_ms"] <= s["reply_p99_ms"]
    assert figures["serve"]["rss_mb"] > 0
    ranking = figures["ranking"]
    assert {g["kind"] for g in ranking.values()} == {"common", "rare"}
    for term, g in ranking.items():
        assert g["top"] > 0 and 0 <= g["baseline_agreement"] <= g["top"], term
        assert 0 < g["cold_p50_ms"] <= g["cold_p99_ms"], term
        # search ranks by FTS5's own bm25 over every match: the same top 10
        assert g["agreement"] == g["top"], term
    text = "\n".join(table)
    for words in (
        "bare FTS5 trigram baseline",
        "grep -rl",
        "ack p99",
        "peak RSS",
        "database / raw text",
        "exact bm25",
        "newest-100 window",
        "top 10 = exact bm25",
    ):
        assert words in text


def test_bench_measures_commands_during_an_index_run() -> None:
    table, last = _bench("--count", "200", "--quick", "--during-index", "--json")
    d = json.loads(last)["during_index"]
    assert d["indexed"] == 200 and d["index_seconds"] > 0
    # the baseline (no index running) always sends its commands; during the run, at
    # least the first one (sent as the index process starts)
    assert d["baseline"]["requests"] == 30 and d["during"]["requests"] >= 1
    for phase in ("during", "baseline"):
        g = d[phase]
        assert sum(g["statuses"].values()) == g["requests"], phase
        assert 0 < g["ack_p50_ms"] <= g["ack_p99_ms"] <= g["ack_max_ms"], phase
    b = d["baseline"]
    assert 0 < b["reply_p50_ms"] <= b["reply_p99_ms"] <= b["reply_max_ms"]
    assert set(b["by_kind"]) == {"summary", "unanswered", "search"}
    text = "\n".join(table)
    for words in ("during a full `debrief index`", "no index (base)", "load average"):
        assert words in text


def test_bench_compares_postgresql_with_sqlite(request: pytest.FixtureRequest) -> None:
    """`bench/run.py --db postgresql://...` (issue 16): both backends indexed, searched
    and served under the same load, side by side."""
    from support.pg_fixtures import fresh_pg_url

    url = fresh_pg_url(request)
    table, last = _bench("--db", url, "--count", "200", "--quick", "--json")
    figures = json.loads(last)
    assert figures["count"] == 200
    # PostgreSQL's text search finds a Latin term of 3+ characters at the start of a word
    # where SQLite finds any substring (docs/reference.md): there alone, fewer matches
    for query, (lite, pg) in figures["differing_hits"].items():
        assert query.isascii() and len(query) >= 3 and pg < lite, (query, lite, pg)
    assert figures["index_s"]["sqlite"] > 0 and figures["index_s"]["postgresql"] > 0
    for backend in ("sqlite", "postgresql"):
        assert set(figures["search"][backend]) == {"cjk-2", "cjk-long", "ascii", "mixed"}
        for kind, s in figures["search"][backend].items():
            assert 0 < s["p50_ms"] <= s["p99_ms"] and s["first_max_ms"] > 0, (backend, kind)
    assert set(figures["top10"]) == {
        q for k in figures["search"]["sqlite"].values() for q in k["hits"]
    }
    assert all(0 <= t["shared"] <= 10 for t in figures["top10"].values())
    servings = ("sqlite_one_serve", "two_replicas")
    for serving in (*servings, *(s + "_distinct" for s in servings)):
        s = figures[serving]
        assert s["answered"] == s["requests"] > 0, serving
        assert 0 < s["ack_p50_ms"] <= s["ack_p99_ms"], serving
        assert 0 < s["reply_p50_ms"] <= s["reply_p99_ms"], serving
    text = "\n".join(table)
    assert "PostgreSQL beside SQLite" in text and "two_replicas" in text


def test_the_writer_bench_splits_postgresql_s_index_time(request: pytest.FixtureRequest) -> None:
    """`bench/pg_writer.py` (issue 25, goal 5): SQLite's time as the baseline, and
    PostgreSQL's split into the writer's CPU, its waits and the server's."""
    from support.pg_fixtures import fresh_pg_url

    out = _run("bench/pg_writer.py", "--db", fresh_pg_url(request), "--count", "200", "--json")
    figures = json.loads(out[out.index("\n{") :])
    assert figures["sqlite"]["indexed"] == figures["postgresql"]["indexed"] == 200
    pg = figures["postgresql"]
    assert pg["failed"] == 0 and figures["sqlite"]["wall_s"] > 0
    assert 0 < pg["db_wait_s"] < pg["wall_s"] and pg["writer_cpu_s"] > 0
    assert "load average at start" in out and "x SQLite" in out


def test_the_workspaces_bench_sets_many_beside_one() -> None:
    """`bench/workspaces.py` (issue 26): a request in a workspace installed among
    several, beside the same request with one workspace's bot token."""
    out = _run("bench/workspaces.py", "--repeat", "5", "--spaces", "2")
    assert "one workspace (baseline)" in out and "2 workspaces installed" in out
    assert "ack median ratio (many / one):" in out


def test_the_relevance_bench_reports_every_judged_query() -> None:
    """bench/relevance.py on SQLite (about 3 s): recall@10 and R-precision for each query
    of the judged set (tests/relevance/judgments.yml) and over the set."""
    import yaml

    *table, last = _run("bench/relevance.py", "--json").strip().splitlines()
    sqlite = json.loads(last)["backends"]["sqlite"]
    judged = yaml.safe_load((ROOT / "tests/relevance/judgments.yml").read_text(encoding="utf-8"))
    assert list(sqlite["queries"]) == [q["query"] for q in judged["queries"]]
    assert 0 <= sqlite["r_precision"] <= 1 and 0 <= sqlite["recall_at_10"] <= 1
    assert table[-1].startswith("sqlite: ") and any(line.startswith("overall") for line in table)
