"""What each hostile file of issue 46 costs to read: its seconds and its peak memory beside
the bounds the issue sets (5 s, 300 MB a file), and what came of it.

    python bench/hostile.py            # every file
    python bench/hostile.py pages.pdf  # the ones named

Each file is built by tests/support/hostile.py (nothing big is kept), written to a
temporary folder, and read as `debrief index` reads a file (store/transcripts/files.py
`prepare`) in a fresh process, measured from inside it: the seconds of the reading, and
the process's peak resident memory (VmHWM). Nothing here asserts: the tests check what
each file gives, this prints what it costs. Exit 1 when a file is past a bound.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support.hostile import HOSTILE  # noqa: E402

SECONDS = 5.0
MEGABYTES = 300.0

_MEASURE = """
import json, sys, time
from store.transcripts.files import prepare
started = time.perf_counter()
out = prepare(sys.argv[1])
print(json.dumps({
    "seconds": time.perf_counter() - started,
    "mb": int(open("/proc/self/status").read().split("VmHWM:")[1].split()[0]) / 1024,
    "indexed": out.transcript is not None,
    "outcome": out.skipped or (out.failure.code if out.failure else "indexed"),
}))
"""


def measure(path: Path) -> dict[str, Any]:
    """Read `path` in a fresh process: its seconds, its peak MB, what came of it."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    if done.returncode != 0:
        return {"seconds": float("nan"), "mb": float("nan"), "outcome": done.stderr[-300:]}
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help=f"of {', '.join(sorted(HOSTILE))}")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    names = args.names or sorted(HOSTILE)
    figures: dict[str, dict[str, Any]] = {}
    print(f"{'file':18} {'size':>10} {'built':>7} {'read':>8} {'peak':>9}   outcome")
    print(f"{'':18} {'':>10} {'':>7} {f'< {SECONDS:.0f} s':>8} {f'< {MEGABYTES:.0f} MB':>9}")
    worst = True
    with tempfile.TemporaryDirectory(prefix="debrief-hostile-") as tmp:
        for name in names:
            started = time.perf_counter()
            data = HOSTILE[name]()
            built = time.perf_counter() - started
            path = Path(tmp) / name
            path.write_bytes(data)
            out = measure(path)
            path.unlink()
            within = out["seconds"] < SECONDS and out["mb"] < MEGABYTES
            worst = worst and within
            figures[name] = {"bytes": len(data), **out, "within": within}
            print(
                f"{name:18} {len(data):>10,} {built:>6.1f}s {out['seconds']:>7.2f}s"
                f" {out['mb']:>6.0f} MB   {out['outcome']}{'' if within else '  PAST A BOUND'}"
            )
    if args.json:
        print(json.dumps(figures))
    return 0 if worst else 1


if __name__ == "__main__":
    raise SystemExit(main())
