"""The serve watcher at rest and on a new file: `python bench/watch.py --count 100000`.

1. N small transcripts in a folder (100 per sub-folder), indexed once with `debrief index`.
2. `debrief serve` (HTTP, loopback, a fake Slack) with DEBRIEF_TRANSCRIPTS on that folder:
   after its start rescan, the CPU it uses over `--idle` seconds of nothing happening
   (utime + stime from /proc, as % of one core).
3. A new transcript written in three parts; from its last write, how long until
   `/candidate summary <id>` answers with it (polled every 50 ms), `--files` times.

Prints the figures (and JSON with --json). Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from run import SECRET, free_port, serve_env  # noqa: E402
from support.fake_slack import FakeSlack  # noqa: E402
from support.signed import command_body, post_signed  # noqa: E402

TEXT = (
    "岗位：{pos} 从业年限：{years}年\n简介：第{n}位候选人，做过{topic}。\n"
    "问题1：讲讲{topic}\n考察目标：基础\n回答：{topic}的要点\n点评：待定\n"
)
TOPICS = ["分布式训练", "推荐系统", "图优化", "数据并行", "缓存一致性"]


def write_corpus(folder: Path, count: int) -> None:
    for n in range(count):
        sub = folder / f"d{n // 100:04d}"
        if n % 100 == 0:
            sub.mkdir(parents=True, exist_ok=True)
        text = TEXT.format(pos="后端工程师", years=n % 10, n=n, topic=TOPICS[n % len(TOPICS)])
        (sub / f"c{n:06d}.txt").write_text(text, "utf-8")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def wait_for_log(log: Path, text: str, proc: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.time() + timeout
    while text not in log.read_text("utf-8", "replace"):
        if proc.poll() is not None or time.time() > deadline:
            raise SystemExit(f"serve never logged {text!r}:\n{log.read_text()[-2000:]}")
        time.sleep(0.2)


def bench(count: int, idle: float, files: int, mode: str) -> dict[str, Any]:
    out: dict[str, Any] = {"count": count, "mode": mode}
    with tempfile.TemporaryDirectory(prefix="debrief-watch-") as tmp:
        work = Path(tmp)
        folder = work / "transcripts"
        started = time.perf_counter()
        write_corpus(folder, count)
        out["write_s"] = time.perf_counter() - started
        db = work / "watch.db"
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "bot", "index", str(folder), "--db", str(db), "--json"],
            cwd=ROOT,
            capture_output=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(done.stderr.decode()[-2000:])
        out["index_s"] = time.perf_counter() - started
        port = free_port()
        log = work / "serve.log"
        with FakeSlack() as fake, open(log, "wb") as log_fh:
            env = serve_env(fake, db, {"DEBRIEF_TRANSCRIPTS": str(folder), "DEBRIEF_WATCH": mode})
            started = time.perf_counter()
            proc = subprocess.Popen(
                [sys.executable, "-m", "bot", "serve", "--port", str(port), "--host", "127.0.0.1"],
                cwd=ROOT,
                env=env,
                stdout=log_fh,
                stderr=subprocess.STDOUT,
            )
            url = f"http://127.0.0.1:{port}/slack/events"
            try:
                if mode == "poll":
                    wait_for_log(log, "keeping", proc, 600)
                    time.sleep(10)  # let the first passes run
                else:
                    wait_for_log(log, "watching", proc, 600)
                out["start_rescan_s"] = time.perf_counter() - started
                before, t0 = cpu_seconds(proc.pid), time.monotonic()
                time.sleep(idle)
                used, elapsed = cpu_seconds(proc.pid) - before, time.monotonic() - t0
                out["idle_cpu_pct"] = 100 * used / elapsed
                latencies: list[float] = []
                for i in range(files):
                    cid = f"new{i:03d}"
                    text = TEXT.format(pos=f"新岗位{i}", years=3, n=i, topic="缓存")
                    path = folder / f"{cid}.txt"
                    with open(path, "w", encoding="utf-8") as fh:
                        for part in (text[:20], text[20:60], text[60:]):
                            fh.write(part)
                            fh.flush()
                            time.sleep(0.1)
                    last_write = time.time()
                    n = 0
                    while True:
                        n += 1
                        name = f"f{i}-{n}"
                        body = command_body(f"summary {cid}", response_url=fake.response_url(name))
                        post_signed(url, body, SECRET)
                        fake.wait_for(f"response/{name}", timeout=30)
                        answered = time.time()  # an upper bound: the reply is in by now
                        if f"新岗位{i}" in json.dumps(fake.responses(name), ensure_ascii=False):
                            latencies.append(answered - last_write)
                            break
                        if time.time() - last_write > 30:
                            raise SystemExit(f"{cid} never answered")
                        time.sleep(0.05)
                out["new_file_answer_s_p50"] = statistics.median(latencies)
                out["new_file_answer_s_max"] = max(latencies)
            finally:
                proc.terminate()
                proc.wait(timeout=15)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--idle", type=float, default=30.0, help="seconds of idle CPU measured")
    parser.add_argument("--files", type=int, default=5, help="new files timed")
    parser.add_argument("--mode", choices=["auto", "poll"], default="auto")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    r = bench(args.count, args.idle, args.files, args.mode)
    print(f"watcher ({r['mode']}) at {r['count']:,} files:")
    print(f"  corpus written in {r['write_s']:.1f} s, indexed in {r['index_s']:.1f} s")
    print(f"  serve start to watching (full rescan): {r['start_rescan_s']:.1f} s")
    print(f"  idle CPU: {r['idle_cpu_pct']:.2f} % of one core (target < 1 %)")
    print(
        f"  new transcript answers /candidate {r['new_file_answer_s_p50']:.2f} s after its last"
        f" write (p50), {r['new_file_answer_s_max']:.2f} s max (target < 2 s)"
    )
    if args.json:
        print(json.dumps(r, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
