"""Importing the bot compiles no regular expression it does not use (issue 35): the
transcript grammar's (store/transcripts/: labels, years, answers, dates, names) are
compiled when a file is first parsed, not when `serve` or `debrief` starts. A fresh
interpreter is the point: in this one, other tests have parsed files already."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Records which module each re.compile at import comes from, then parses one file.
PROBE = """
import re, sys
compiled = []
real = re.compile
def recording(pattern, flags=0):
    compiled.append(sys._getframe(1).f_code.co_filename)
    return real(pattern, flags)
re.compile = recording
import bot.app
at_import = [f for f in compiled if "/store/transcripts/" in f.replace("\\\\", "/")]
from store.transcripts.parser import parse_transcript
t = parse_transcript("岗位：SRE 从业年限：1年半\\n面试日期：2026-11-28\\n问题1：q？\\n回答：不知道\\n".encode(), "x.txt")
parsed = [f for f in compiled if "/store/transcripts/" in f.replace("\\\\", "/")]
print(len(at_import), len(parsed) > 0, t.years, t.interviewed_at, t.questions[0].unanswered_reason)
"""


def test_importing_the_bot_compiles_none_of_the_transcript_grammar() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,  # only turns a hang into a failure
    )
    assert done.returncode == 0, done.stderr
    # none at import; the first parse compiles them, and reads the file as ever
    assert done.stdout.split() == ["0", "True", "1.5", "2026-11-28", "dont_know"]
