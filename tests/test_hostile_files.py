"""Hostile files (issue 46): a file built to make the reader spend its time or memory,
or to break it, costs a bounded time and memory and is skipped with a reason; the run
goes on. Each file is built here, small.

The regular expressions of the transcript grammar never backtrack over a run of white
space or punctuation: a line of a word and 16,000 or 32,000 spaces is read in a moment
(a pattern trying each split of the run took 62 s for 16,000)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from support.cli import debrief as run_debrief
from support.fake_slack import FakeSlack
from support.hostile import (
    BREAKERS,
    DOCX_PARTS,
    HOSTILE,
    deflated_spaces,
    empty_paragraphs_docx,
    lying_zip,
    pdf,
    prepare_breaking,
    prepare_slowly,
    spaces,
)
from support.serve import ServeProcess
from support.signed import command_body, post_signed
from support.waiting import wait_until
from support.web_api import FakeFile

from bot.watcher import FolderWatcher
from handlers.i18n import reason_text
from store import indexer
from store.factory import open_store
from store.indexer import index_paths
from store.transcripts import bounded
from store.transcripts.bounded import Stopped, bounded_map, run_bounded
from store.transcripts.errors import (
    LINK_OUTSIDE,
    LINK_TO_FOLDER,
    READ_TOO_LONG,
    READER_FAILED,
    NotATranscript,
)
from store.transcripts.parser import parse_transcript
from store.transcripts.pdf import pdf_text

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
    ("# 面试记录\n{run}", "**a "),  # bold that never closes: each opening read to the end
    ("# 面试记录\n{run}", "__a "),
    ("WEBVTT\n\n00:00.000 --> 00:01.000\n{run}", "<v "),  # voice tags that never close
    ("WEBVTT\n\n00:00.000 --> 00:01.000\n{run}", "<b"),
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


# -- memory and time: each file read in a process of its own, measured ------------------

_MEASURE = """
import json, sys, time
from store.transcripts.files import prepare
started = time.perf_counter()
out = prepare(sys.argv[1])
print(json.dumps({
    "seconds": time.perf_counter() - started,
    # (VmHWM: this program's peak; ru_maxrss keeps the peak of the process it was forked from)
    "mb": int(open("/proc/self/status").read().split("VmHWM:")[1].split()[0]) / 1024,
    "indexed": out.transcript is not None,
    "skipped": out.skipped,
    "failed": out.failure.code if out.failure else None,
}))
"""


def measured(path: Path) -> dict[str, Any]:
    """Read `path` as an index run does, in a fresh process: how long, how much memory
    at most (MB), and what came of it."""
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,  # only turns a hang into a failure
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_a_word_file_whose_zip_lies_about_its_sizes_is_refused_in_bounded_memory(
    tmp_path: Path,
) -> None:
    # 600 MB of spaces in word/document.xml, said to be 1 KB
    bomb = lying_zip(DOCX_PARTS, "word/document.xml", deflated_spaces(), 1024)
    assert len(bomb) < 2 << 20
    path = tmp_path / "bomb.docx"
    path.write_bytes(bomb)
    out = measured(path)
    assert out["mb"] < 300 and out["seconds"] < 5, out
    assert not out["indexed"] and (out["failed"] or out["skipped"]), out


def test_a_word_file_of_millions_of_empty_paragraphs_is_refused_fast(tmp_path: Path) -> None:
    path = tmp_path / "paragraphs.docx"
    path.write_bytes(empty_paragraphs_docx(3_000_000))
    assert path.stat().st_size < 1 << 20
    out = measured(path)
    assert out["mb"] < 300 and out["seconds"] < 5, out
    assert out["failed"] == "word_unzips_too_large", out


@pytest.mark.parametrize("big", ["META-INF/manifest.xml", "content.xml", "mimetype"])
def test_an_opendocument_file_whose_zip_lies_is_refused_in_bounded_memory(
    tmp_path: Path, big: str
) -> None:
    parts = {
        "mimetype": b"application/vnd.oasis.opendocument.text",
        "content.xml": b"<office:document-content/>",
    }
    parts.pop(big, None)
    bomb = lying_zip(parts, big, deflated_spaces(), 1024)
    path = tmp_path / "bomb.odt"
    path.write_bytes(bomb)
    out = measured(path)
    assert out["mb"] < 300 and out["seconds"] < 5, out
    assert not out["indexed"], out


# -- one bad file never stops the run ----------------------------------------------------

SEEDS = ROOT / "seeds"


def _index(folder: Path, db: Path) -> tuple[int, dict[str, Any]]:
    done = run_debrief("index", str(folder), "--db", str(db), "--json", cwd=ROOT)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    return done.returncode, out


def _live(db: Path) -> set[str]:
    """The ids indexed in `db`."""
    store = open_store(str(db))
    try:
        return {cid for cid, *_rest in store.file_state().values()}
    finally:
        store.close()


def _ran_well(code: int, out: dict[str, Any]) -> None:
    """The run read or skipped every file. (A file that fails with a ParseError still
    makes the exit status 1 until issue 46's labelled part lands: then always 0.)"""
    assert code == 0 or (code == 1 and out["failed"]), out


SEED_IDS = sorted(p.stem for p in SEEDS.iterdir())


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_each_hostile_file_leaves_the_run_going(tmp_path: Path, name: str) -> None:
    """Each hostile file of the issue, put in an indexed folder as a file is removed and
    another added: the run reads it in a bounded process, the file added is indexed,
    the one removed is removed, nothing indexed before is lost, no traceback."""
    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    db = tmp_path / "x.db"
    code, first = _index(folder, db)
    assert code == 0 and sorted(first["indexed"]) == SEED_IDS
    # then: one removed, one added, and the hostile file beside them
    (folder / "000_9e6b3ecb0732fcf3.txt").unlink()
    (folder / "new.txt").write_text(
        "岗位：SRE 从业年限：3年\n问题1：你好？\n回答：好\n点评：不错\n", "utf-8"
    )
    (folder / name).write_bytes(HOSTILE[name]())
    code, out = _index(folder, db)
    _ran_well(code, out)
    assert out["removed"] == ["000_9e6b3ecb0732fcf3"]
    assert "new" in out["indexed"]
    said = [*out["skipped"], *out["failed"]]
    assert Path(name).stem in out["indexed"] or [Path(s["path"]).name for s in said] == [name]
    kept = {*SEED_IDS[1:], "new"}
    assert _live(db) - {Path(name).stem} == kept  # nothing indexed before is lost


def test_whatever_a_reader_raises_skips_the_file_with_a_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(indexer, "prepare", prepare_breaking)  # (in the reading processes)
    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    (folder / "odd.txt").write_text("岗位：SRE\n问题1：为什么？\n回答：因为\n", "utf-8")
    code, out = _index(folder, tmp_path / "x.db")
    assert code == 0 and len(out["indexed"]) == 4
    assert out["skipped"] == [
        {"path": str(folder / "odd.txt"), "reason": READER_FAILED},
    ]
    assert reason_text("zh", READER_FAILED).startswith("读不出这个文件")


# -- symbolic links ------------------------------------------------------------------------


def test_links_out_of_the_folder_and_to_folders_are_skipped_and_said(tmp_path: Path) -> None:
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("岗位：机密 从业年限：3年\n问题1：密码？\n回答：hunter2\n", "utf-8")
    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    (folder / "leak.txt").symlink_to(secret)
    (folder / "elsewhere").symlink_to(secret.parent, target_is_directory=True)
    (folder / "same.txt").symlink_to(folder / "002_72ee0a76eea41e0e.txt")  # inside: read
    db = tmp_path / "x.db"
    code, out = _index(folder, db)
    assert code == 0
    assert sorted(out["indexed"]) == sorted([*(p.stem for p in SEEDS.iterdir()), "same"])
    reasons = {Path(s["path"]).name: s["reason"] for s in out["skipped"]}
    assert reasons == {"leak.txt": LINK_OUTSIDE, "elsewhere": LINK_TO_FOLDER}
    found = run_debrief("search", "hunter2", "--db", str(db), cwd=ROOT)
    assert "hunter2" not in found.stdout and "机密" not in found.stdout


def test_the_watcher_never_follows_a_link_out_of_its_folder(tmp_path: Path) -> None:
    secret = tmp_path / "outside.txt"
    secret.write_text("岗位：机密 从业年限：3年\n问题1：密码？\n回答：hunter2\n", "utf-8")
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "leak.txt").symlink_to(secret)
    store = open_store(str(tmp_path / "x.db"))
    try:
        watcher = FolderWatcher(store, str(folder))
        watcher.index_changed([str(folder / "leak.txt")])
        assert store.file_state() == {}
    finally:
        store.close()


# -- PDFs: pages, glyphs and streams bounded before they are parsed ------------------------


def test_a_pdf_page_of_a_million_glyphs_is_stopped_as_it_is_laid_out(tmp_path: Path) -> None:
    data = pdf(1, b"BT /F1 1 Tf 10 800 Td (" + b"a" * 1_000_000 + b") Tj ET")
    assert len(data) < 8 * 1024
    path = tmp_path / "glyphs.pdf"
    path.write_bytes(data)
    out = measured(path)
    assert out["mb"] < 300 and out["seconds"] < 5, out
    assert out["failed"] == "pdf_too_much_text", out


def test_a_pdf_stream_that_inflates_to_gigabytes_is_refused_before_it_is_parsed(
    tmp_path: Path,
) -> None:
    data = pdf(1, b"BT /F1 12 Tf 10 800 Td (hello) Tj ET", spaces(600 << 20))
    assert len(data) < 1 << 20
    path = tmp_path / "spaces.pdf"
    path.write_bytes(data)
    out = measured(path)
    assert out["mb"] < 300 and out["seconds"] < 5, out
    assert out["failed"] == "pdf_unpacks_too_large", out


def test_a_pdf_of_thousands_of_pages_is_refused_before_they_are_read(tmp_path: Path) -> None:
    data = pdf(10_000, b"BT /F1 12 Tf 10 800 Td (hello) Tj ET")
    path = tmp_path / "pages.pdf"
    path.write_bytes(data)
    out = measured(path)
    assert out["mb"] < 300 and out["seconds"] < 5, out
    assert out["failed"] == "pdf_too_many_pages", out


def test_a_pdf_within_the_bounds_is_read() -> None:
    text = pdf_text(pdf(2, b"BT /F1 12 Tf 10 800 Td (Position: SRE) Tj ET"), 10_000)
    assert text.count("Position: SRE") == 2


# -- debrief index: each file in a bounded process, none in the run's own ----------------


def test_a_bounded_map_stops_what_runs_past_its_bounds_and_goes_on_in_order() -> None:
    # one past its time, one past its memory, one that dies, one that raises: each said
    # in its place, the others read by another process, never by this one
    args: list[Any] = [0, 0, 60, 0, 0, 0]
    read = list(bounded_map(time.sleep, args, workers=2, seconds=1, task=2))
    assert [type(r).__name__ for r in read] == ["NoneType"] * 2 + ["Stopped"] + ["NoneType"] * 3
    sizes = [10, 4 << 30, 20]  # four gigabytes: past its memory
    read = list(bounded_map(bytearray, sizes, workers=1))
    assert [type(r).__name__ for r in read] == ["bytearray", "Stopped", "bytearray"]
    died = list(bounded_map(os._exit, [3, 4], workers=1))  # (the out-of-memory killer)
    assert [type(r).__name__ for r in died] == ["Stopped", "Stopped"]
    said = list(bounded_map(int, ["1", "x", "3"]))
    assert said[0] == 1 and isinstance(said[1], ValueError) and said[2] == 3
    many = list(bounded_map(abs, range(-2000, 0), workers=2, task=7, ahead=50))
    assert many == list(range(2000, 0, -1))


def test_debrief_index_stops_a_file_past_its_time_and_reads_nothing_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`debrief index` reads every file in a process of its own: a file that takes a
    minute is stopped at the bound and skipped with that reason; the files after it are
    read, the one removed is removed, and the run exits 0."""
    monkeypatch.setattr(indexer, "prepare", prepare_slowly)  # (sent to the readers by name)
    monkeypatch.setattr(bounded, "SECONDS", 2.0)
    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    db = tmp_path / "x.db"
    code, first = _index(folder, db)
    assert code == 0 and sorted(first["indexed"]) == SEED_IDS
    (folder / "000_9e6b3ecb0732fcf3.txt").unlink()
    (folder / "slow.txt").write_text("岗位：SRE\n问题1：为什么？\n回答：因为\n", "utf-8")
    (folder / "then.txt").write_text("岗位：SRE\n问题1：为什么？\n回答：所以\n", "utf-8")
    code, out = _index(folder, db)
    assert code == 0, out
    assert out["skipped"] == [{"path": str(folder / "slow.txt"), "reason": READ_TOO_LONG}]
    assert out["indexed"] == ["then"] and out["removed"] == ["000_9e6b3ecb0732fcf3"]
    assert _live(db) == {*SEED_IDS[1:], "then"}
    readers = {line.split()[0] for line in (tmp_path / "read-by").read_text().splitlines()}
    assert readers and str(os.getpid()) not in readers  # nothing read in the run's process


# -- what serve reads: in a process of its own, stopped, and not read again -------------


def test_a_reading_past_its_time_or_memory_is_stopped_and_the_caller_goes_on() -> None:
    started = time.monotonic()
    with pytest.raises(Stopped):
        run_bounded(time.sleep, 30, seconds=1)
    assert time.monotonic() - started < 10  # stopped, not waited for
    with pytest.raises(Stopped):
        run_bounded(bytearray, 4 << 30)  # four gigabytes: past its memory
    with pytest.raises(NotATranscript) as said:  # what the reading raised, raised here
        run_bounded(parse_transcript, b"hello", "x.txt")
    assert said.value.code == "no_labels"
    read = run_bounded(parse_transcript, (SEEDS / "000_9e6b3ecb0732fcf3.txt").read_bytes(), "a")
    assert read.questions


def test_the_watcher_reads_a_file_stopped_once_again_only_when_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(indexer, "prepare", prepare_slowly)  # (sent to the readers by name)
    monkeypatch.setattr(bounded, "SECONDS", 1.0)
    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    read_by = tmp_path / "read-by"

    def reads() -> list[str]:
        return [line.split()[1] for line in read_by.read_text().splitlines()]

    slow = folder / "slow.txt"
    slow.write_text("岗位：SRE\n问题1：为什么？\n回答：因为\n", "utf-8")
    store = open_store(str(tmp_path / "x.db"))
    try:
        watcher = FolderWatcher(store, str(folder))
        watcher.run_once()
        assert reads().count("slow.txt") == 1 and len(reads()) == 5
        assert len(store.file_state()) == 4  # the others indexed
        assert set(watcher.stopped) == {str(slow)}
        for _ in range(3):  # the rescans every few seconds: it is not read again
            watcher.run_once()
        assert reads().count("slow.txt") == 1
        later = time.time_ns() + 10**9
        os.utime(slow, ns=(later, later))
        watcher.run_once()  # touched, the same bytes: not read again
        assert reads().count("slow.txt") == 1
        slow.write_text("岗位：SRE\n问题1：为什么？\n回答：所以\n", "utf-8")
        os.utime(slow, ns=(later + 10**9, later + 10**9))
        watcher.run_once()  # changed: read once more
        assert reads().count("slow.txt") == 2
        assert str(os.getpid()) not in {
            line.split()[0] for line in read_by.read_text().splitlines()
        }
    finally:
        store.close()


def test_index_runs_of_serve_read_in_processes_of_their_own(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    store = open_store(str(tmp_path / "x.db"))
    try:
        stopped: dict[str, tuple[int, int]] = {}
        result = index_paths(store, [folder], stopped=stopped)
        assert len(result.indexed) == 4 and not stopped
    finally:
        store.close()


@pytest.mark.both_backends
def test_serve_answers_at_once_while_a_hostile_upload_is_read_and_after_a_restart(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> None:
    """An upload that froze `serve` (its reading held the interpreter for minutes), left
    claimed by a process that died: the restarted `serve` reads it without delaying a
    health check or a command, answers it, and a second restart does not read it again."""
    hostile = ("# 面试记录\n" + "**a " * 50_000).encode()
    fake_slack.add_file(FakeFile("FH1", "hostile.md", hostile))
    fake_slack.member_channels.add("C123")
    store = open_store(db_target)
    ts = "1800000003.000001"
    store.claim_upload(f"C123:{ts}:FH1", "FH1", "C123", ts, "U123")
    store.db.execute("UPDATE uploads SET at = ?", ["2026-01-01T00:00:00.000000+00:00"])
    store.close()
    env = {
        "SLACK_BOT_TOKEN": "xoxb-test",
        "SLACK_SIGNING_SECRET": "secret",
        "SLACK_API_URL": fake_slack.base_url,
        "DEBRIEF_DB": db_target,
        "DEBRIEF_UPLOADS": str(tmp_path / "uploads"),
    }
    serve = ServeProcess(env)
    try:
        wait_until("serve is up", lambda: (serve.healthz() or (0, ""))[0] == 200, timeout=60)
        for n in range(3):  # while the upload is read (and after): at once, each
            started = time.monotonic()
            assert (serve.healthz() or (0, ""))[0] == 200
            body = command_body("帮助", response_url=fake_slack.response_url(f"help{n}"))
            status, _headers, _body = post_signed(
                serve.url + "/slack/events", body, "secret", timeout=5
            )
            assert status == 200 and time.monotonic() - started < 1.0
        [answer] = fake_slack.wait_for("chat.postMessage", timeout=60)
        assert answer.params["thread_ts"] == ts
    finally:
        assert serve.terminate() == 0
    assert "Traceback" not in serve.log
    again = ServeProcess(env)
    try:
        wait_until("serve is up", lambda: (again.healthz() or (0, ""))[0] == 200, timeout=60)
        store = open_store(db_target)
        try:
            assert store.stale_uploads() == []  # answered: nothing left to resume
        finally:
            store.close()
    finally:
        again.terminate()
    assert len(fake_slack.calls("chat.postMessage")) == 1


def test_the_watchers_rescan_goes_on_past_files_that_broke_their_readers(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    shutil.copytree(SEEDS, folder)
    for name, data in BREAKERS.items():
        (folder / name).write_bytes(data)
    store = open_store(str(tmp_path / "x.db"))
    try:
        watcher = FolderWatcher(store, str(folder), mode="poll")
        watcher.run_once()  # the rescan at start (and every poll): no traceback
        assert {p.name for p in SEEDS.iterdir()} <= {
            Path(source).name for source in store.file_state()
        }
        (folder / "000_9e6b3ecb0732fcf3.txt").unlink()
        watcher.run_once()  # removals go on beside them
        assert "000_9e6b3ecb0732fcf3" not in {cid for cid, *_ in store.file_state().values()}
    finally:
        store.close()
