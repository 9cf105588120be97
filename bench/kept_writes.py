"""What kept postings cost the writes (issue 39: nothing else slows), on SQLite.

    python bench/kept_writes.py --count 20000 [--new 2000] [--forget 200]

The bench's corpus (bench/corpus.py) less its last `--new` files is indexed once and
copied; in the copy every bench query and ranking term is searched, so that its space
keeps their postings (store/kept_postings.py). Then, on each database in turn, the same
writes are timed: `debrief index` of the `--new` files left (each save counting every
kept term in its text and appending to their postings), and `debrief forget` of
`--forget` candidates, in process (each taking its rid out of every kept term's
block). The
database with no kept term is the baseline, measured in the same run. Nothing here
asserts a time.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from run import ALL_QUERIES, COMMON_TERMS, build_corpus, loadavg, rare_terms  # noqa: E402

from store.sqlite.store import Store  # noqa: E402


def debrief(*args: str) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"debrief {' '.join(args)} failed: {done.stderr}")
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--new", type=int, default=2000)
    ap.add_argument("--forget", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    folder = build_corpus(args.count, 0)
    files = sorted(p for p in folder.iterdir() if p.suffix == ".txt")
    result: dict[str, Any] = {"count": args.count, "load_start": loadavg()}
    with tempfile.TemporaryDirectory(prefix="debrief-kept-") as tmp:
        work = Path(tmp)
        old, new = work / "old", work / "new"
        old.mkdir()
        new.mkdir()
        for path in files[: -args.new]:
            (old / path.name).symlink_to(path)
        for path in files[-args.new :]:
            (new / path.name).symlink_to(path)
        base = work / "none.db"
        debrief("index", str(old), "--db", str(base))
        kept = work / "kept.db"
        shutil.copy(base, kept)
        store = Store(kept)
        for query in [*ALL_QUERIES, *COMMON_TERMS, *rare_terms(0)]:
            store.search(query)
        (terms,) = store.db.execute("SELECT count(*) FROM search_terms").fetchone()
        ids = [r[0] for r in store.db.execute("SELECT id FROM candidates ORDER BY rid")]
        store.close()
        result["kept_terms"] = terms
        for name, db in (("none", base), ("kept", kept)):
            result[name] = {"index_s": debrief("index", str(new), "--db", str(db))}
        gone = ids[:: max(1, len(ids) // args.forget)][: args.forget]
        for name, db in (("none", base), ("kept", kept)):
            store = Store(db)
            started = time.perf_counter()
            for candidate in gone:
                assert store.forget(candidate) is not None
            result[name]["forget_s"] = time.perf_counter() - started
            store.close()
    result["load_end"] = loadavg()
    none, kept_ = result["none"], result["kept"]
    print(
        f"kept postings and writes, N = {args.count:,} ({result['kept_terms']} terms kept);"
        f" load average {result['load_start']} at the start, {result['load_end']} at the end\n"
        f"  debrief index of {args.new:,} new files: {kept_['index_s']:.1f} s with kept terms,"
        f" {none['index_s']:.1f} s without (ratio {kept_['index_s'] / none['index_s']:.2f})\n"
        f"  forget of {args.forget} candidates (Store.forget, in process):"
        f" {kept_['forget_s']:.1f} s with, {none['forget_s']:.1f} s without"
        f" (ratio {kept_['forget_s'] / none['forget_s']:.2f})"
    )
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
