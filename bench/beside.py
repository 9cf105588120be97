"""This tree's search beside another tree's (today's code), in one run, on the same corpus.

    git worktree add /tmp/base HEAD
    python bench/run.py --count 20000 --beside /tmp/base                 # one workspace
    python bench/run.py --count 20000 --beside /tmp/base --spaces 4      # four
    python bench/run.py --count 20000 --beside /tmp/base --db postgresql://…  # PostgreSQL

1. The other tree (`--beside`) indexes the corpus of bench/run.py: into space 0, or with
   `--spaces K` into K installed workspaces (a K-th of the files each, round robin), so
   the database is one that tree's release wrote.
2. SQLite: the file is copied, and this tree opens the copy (its schema steps run on it:
   timed). PostgreSQL: both trees open the same database (this tree's steps run; the
   other tree is told not to refuse them: it reads nothing they changed).
3. One worker process per tree, each importing its own tree's `store`; every query of
   bench/run.py's QUERIES is asked of the last workspace (space 0 with one), the two
   workers in turn, `--repeat` times: cold (answer cache cleared before each, as after
   a write: bm25 over every match) and cached. Medians, p99 and the ratio this/other,
   and whether both gave the same top 10 (ids, and scores to 1e-6).

Nothing here asserts a time.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from run import QUERIES, build_corpus, loadavg, pct

ROOT = Path(__file__).resolve().parent.parent

_SETUP = r"""
import json, sys
sys.path.insert(0, ".")
from store.factory import open_store
from store.indexer import index_paths
from store.workspace_models import Installation
target, folder, spaces = sys.argv[1], sys.argv[2], int(sys.argv[3])
store = open_store(target)
files = sorted(p for p in __import__("pathlib").Path(folder).iterdir() if p.suffix == ".txt")
ws = 0
if spaces == 1:
    assert not index_paths(store, files, workers=1).failed
else:
    for k in range(spaces):
        team = f"TBENCH{k:04d}"
        ws = store.save_installation(Installation(enterprise_id=None, team_id=team,
            team_name=team, bot_id="B" + team, bot_user_id="U" + team, bot_token_enc="x"))
        assert not index_paths(store.in_workspace(ws), files[k::spaces], workers=1).failed
store.close()
print(json.dumps({"ws": ws}))
"""

_WORKER = r"""
import json, sys, time
sys.path.insert(0, ".")
if sys.argv[2] == "lenient":  # the other tree: this tree's newer schema steps are no harm
    try:
        import store.schema.steps
        store.schema.steps.refuse_newer = lambda backend, done: None
    except ImportError:  # a tree from before store/schema/
        import store.registry
        store.registry.Registry.refuse_newer = lambda self, done: None
from store.factory import open_store
from store.fulltext import warm
import store as package
warm()
started = time.perf_counter()
db = open_store(sys.argv[1], create=False)
opened = time.perf_counter() - started
print(json.dumps({"store": package.__file__, "open_s": opened}), flush=True)
for line in sys.stdin:
    ask = json.loads(line)
    view = db.in_workspace(ask["ws"])
    if ask["cold"]:
        view.clear_search_cache()
    started = time.perf_counter()
    hits = view.search(ask["q"])
    ms = (time.perf_counter() - started) * 1000
    print(json.dumps({"ms": ms, "top": [[h.id, round(h.score, 6)] for h in hits]}), flush=True)
db.close()
"""


class Worker:
    """A process searching with one tree's code."""

    def __init__(self, tree: Path, target: str, lenient: bool) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _WORKER, target, "lenient" if lenient else "strict"],
            cwd=tree,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.hello = self._read()

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit("a bench worker stopped")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask(self, ws: int, query: str, cold: bool) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"ws": ws, "q": query, "cold": cold}) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def compare(
    other: Path, count: int, seed: int, spaces: int, repeat: int, pg: str | None
) -> dict[str, Any]:
    folder = build_corpus(count, seed)
    out: dict[str, Any] = {
        "count": count,
        "spaces": spaces,
        "backend": "postgresql" if pg else "sqlite",
        "load_start": loadavg(),
    }
    with tempfile.TemporaryDirectory(prefix="debrief-beside-") as tmp:
        base_target = pg or str(Path(tmp) / "base.db")
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", _SETUP, base_target, str(folder), str(spaces)],
            cwd=other,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"indexing with {other} failed: {done.stderr[-2000:]}")
        out["index_s"] = time.perf_counter() - started
        ws = int(json.loads(done.stdout.strip().splitlines()[-1])["ws"])
        ours_target = base_target
        if not pg:
            ours_target = str(Path(tmp) / "ours.db")
            shutil.copy(base_target, ours_target)
            wal = Path(base_target + "-wal")
            if wal.exists():
                shutil.copy(wal, ours_target + "-wal")
        base = Worker(other, base_target, lenient=bool(pg))
        ours = Worker(ROOT, ours_target, lenient=False)
        out["trees"] = {"other": base.hello["store"], "this": ours.hello["store"]}
        out["this_open_s"] = ours.hello["open_s"]  # with the schema steps it ran
        try:
            out["search"] = _timed(base, ours, ws, repeat)
        finally:
            base.stop()
            ours.stop()
    out["load_end"] = loadavg()
    return out


def _timed(base: Worker, ours: Worker, ws: int, repeat: int) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for kind, queries in QUERIES.items():
        ms: dict[str, list[float]] = {
            f"{who}_{how}": [] for who in ("other", "this") for how in ("cold", "cached")
        }
        same = 0
        for q in queries:
            tops = [base.ask(ws, q, False)["top"], ours.ask(ws, q, False)["top"]]  # warm
            same += _same(*tops)
            for n in range(repeat):
                pair = [("other", base), ("this", ours)]
                for who, worker in pair if n % 2 == 0 else pair[::-1]:
                    ms[f"{who}_cold"].append(worker.ask(ws, q, True)["ms"])
                    ms[f"{who}_cached"].append(worker.ask(ws, q, False)["ms"])
        entry: dict[str, Any] = {"same_top10": f"{same}/{len(queries)}"}
        for name, values in ms.items():
            entry[name] = {"p50_ms": statistics.median(values), "p99_ms": pct(values, 99)}
        for how in ("cold", "cached"):
            this, other = entry[f"this_{how}"], entry[f"other_{how}"]
            entry[f"ratio_{how}"] = {
                "p50": this["p50_ms"] / other["p50_ms"],
                "p99": this["p99_ms"] / other["p99_ms"],
            }
        result[kind] = entry
    return result


def _same(a: list[list[Any]], b: list[list[Any]]) -> bool:
    return [x[0] for x in a] == [x[0] for x in b] and all(
        abs(x[1] - y[1]) <= 1e-6 for x, y in zip(a, b, strict=True)
    )


def report(r: dict[str, Any]) -> str:
    lines = [
        f"search beside another tree: {r['backend']}, N = {r['count']:,} in {r['spaces']}"
        f" workspace(s), the last one searched; load {r['load_start']} -> {r['load_end']}",
        f"  other tree: {r['trees']['other']}",
        f"  this tree:  {r['trees']['this']} (opened in {r['this_open_s']:.2f} s,"
        " its schema steps included)",
        f"  indexed by the other tree in {r['index_s']:.0f} s",
        "  kind      cold p50 other/this  ratio   cold p99 other/this  ratio"
        "   cached p50 other/this  ratio   same top 10",
    ]
    for kind, e in r["search"].items():
        lines.append(
            f"  {kind:<9} {e['other_cold']['p50_ms']:8.2f} {e['this_cold']['p50_ms']:8.2f}"
            f" {e['ratio_cold']['p50']:6.2f}   {e['other_cold']['p99_ms']:8.2f}"
            f" {e['this_cold']['p99_ms']:8.2f} {e['ratio_cold']['p99']:6.2f}"
            f"   {e['other_cached']['p50_ms']:9.3f} {e['this_cached']['p50_ms']:9.3f}"
            f" {e['ratio_cached']['p50']:6.2f}   {e['same_top10']}"
        )
    return "\n".join(lines)
