"""Hostile files (issue 46): a file built to make the reader spend its time or memory,
or to break it, costs a bounded time and memory and is skipped with a reason; the run
goes on. Each file is built here, small.

The regular expressions of the transcript grammar never backtrack over a run of white
space or punctuation: a line of a word and 16,000 or 32,000 spaces is read in a moment
(a pattern trying each split of the run took 62 s for 16,000)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Each line: a file's text with `{run}` standing for a long run; each is parsed with a
# run of 16,000 and of 32,000 characters, and the slowest parse is printed.
_RUNS = """
import json, sys, time
from store.transcripts.parser import parse_transcript
from store.transcripts.errors import ParseError
cases = json.loads(sys.stdin.read())
for text, _fill in cases:  # the grammar compiled first: only the runs are timed
    try:
        parse_transcript(text.replace("{run}", "").encode(), "x.txt")
    except ParseError:
        pass
slowest = {}
for text, fill in cases:
    for n in (16000, 32000):
        body = text.replace("{run}", fill * (n // len(fill)))
        started = time.perf_counter()
        try:
            parse_transcript(body.encode(), "x.txt")
        except ParseError:
            pass
        took = time.perf_counter() - started
        key = repr(text[:30]) + " " + repr(fill)
        slowest[key] = max(slowest.get(key, 0.0), took)
print(json.dumps(slowest))
"""

CASES = [
    ("面试记录{run}", " "),  # the meeting reader's speaker line: 8,000 spaces took 15.5 s
    ("面试记录{run}x", " "),
    ("面试记录{run}", "\u3000"),
    ("- 张三{run}", "\t"),
    ("|{run}|\n|---|---|\n", " "),  # a table's rule
    ("00:01 {run}", " "),  # a time first, then the speaker
    ("[00:01]{run}张三", " "),
    ("2024年{run}", " "),
    ("岗位：后端\n从业年限：5{run}年\n问题1：为什么？\n回答：因为\n", " "),  # years
    ("岗位：后端\n从业年限：约{run}x\n问题1：为什么？\n回答：因为\n", " "),
    ("岗位：后端\n面试日期：2024-01-01 ({run}x\n问题1：为什么？\n回答：因为\n", " "),  # weekday
    ("岗位：后端\n面试日期：2024-01-01 14:00{run}x\n问题1：为什么？\n回答：因为\n", " "),
    ("岗位：后端\n面试官：张三{run}x\n问题1：为什么？\n回答：因为\n", " "),  # names
    ("岗位{run}x\n", " "),  # a label, then no colon
    ("**岗位**{run}x\n", " "),
    ("问题1{run}x\n", " "),
    ("- {run}x\n", " "),
    ("1\n{run}x", "\n"),  # an SRT's start
    ("1{run}\n00:00:01,000 --> x", " "),
    ("岗位：a\n问题1：{run}\n回答：b\n", "-"),  # runs of punctuation
    ("岗位：a\n问题1：{run}\n回答：b\n", "。"),
    ("面试官：{run}", "，"),
    ("|{run}", "-"),
    ("张三{run}", "*"),
    # srt's own pattern: cubic on a malformed time and digits, quadratic on spaces
    ("1\n00:00:01,000 --> 00:00:02,000\n面试官：你好？\n\n2\n00:0005,000 -{run}", "1"),
    ("1\n00:00:01,000 --> 00:00:02,000\n面试官：你好？\n\n2\n{run}00:00:05,000 -", " "),
    ("1\n00:00:01,000 --> 00:00:02,000\n面试官：你好？\n{run}\n2\n00:00:05,000 -", "\n "),
]


def test_long_runs_of_spaces_and_punctuation_are_read_in_a_moment() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _RUNS],
        cwd=ROOT,
        input=json.dumps(CASES),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,  # a pattern that backtracks takes minutes: it fails here
    )
    assert done.returncode == 0, done.stderr
    slowest = json.loads(done.stdout)
    assert len(slowest) == len(CASES)
    slow = {case: took for case, took in slowest.items() if took > 2.0}
    assert not slow  # (each takes a few milliseconds; one that backtracks, minutes)
