"""Robustness: hostile folders, fuzzed input, kill -9 mid-index, concurrent indexing, Slack faults.

Everything runs for real: `python -m bot` in subprocesses, files and symlinks on disk,
SQLite files, and signed HTTP through the `bot` fixture against FakeSlack.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.fake_slack import FakeClock, FakeSlack
from support.signed import command_body, post_signed
from support.slackbot import SECRET, Bot, all_text

from handlers.commands import answer, parse_command
from handlers.deps import Deps
from handlers.route import Route
from store.errors import QueryTooLong
from store.models import SearchHit, Transcript
from store.sqlite.store import Store
from store.transcripts.errors import ParseError
from store.transcripts.formats import MAX_BYTES
from store.transcripts.parser import parse_transcript

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
SEED_IDS = sorted(p.stem for p in SEEDS.glob("*.txt"))
ERROR_WORDS = ("出了点问题", "something went wrong", "Traceback", "locked")

FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# -- helpers ----------------------------------------------------------------------------


def bot_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "bot", *args]


def run_measured(args: list[str], out_dir: Path, timeout: float = 60) -> tuple[int, str, str, int]:
    """Run `python -m bot ARGS`; -> (exit code, stdout, stderr, peak RSS in KB)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    out, err = out_dir / "stdout", out_dir / "stderr"
    with out.open("wb") as o, err.open("wb") as e:
        proc = subprocess.Popen(bot_cmd(*args), cwd=ROOT, stdout=o, stderr=e)
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(f"{args} took longer than {timeout}s")
            time.sleep(0.02)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return (
        proc.returncode,
        out.read_text("utf-8"),
        err.read_text("utf-8", "replace"),
        usage.ru_maxrss,
    )


def write_corpus(count: int, out_dir: Path, seed: int) -> list[Path]:
    """bench/corpus.py's synthetic transcripts: the corpus the benchmarks use."""
    spec = importlib.util.spec_from_file_location("_bench_corpus", ROOT / "bench" / "corpus.py")
    assert spec is not None and spec.loader is not None, "bench/corpus.py is missing"
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its worker processes unpickle functions from it
    spec.loader.exec_module(module)
    paths: list[Path] = module.generate(count, out_dir, seed)
    assert len(paths) == count and all(p.is_file() for p in paths)
    return paths


def ro_connect(db: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=15)


def candidate_count(db: Path) -> int:
    try:
        con = ro_connect(db)
        try:
            return int(con.execute("SELECT count(*) FROM candidates").fetchone()[0])
        finally:
            con.close()
    except sqlite3.OperationalError:  # not created or not migrated yet
        return 0


def assert_fits_slack(payload: dict[str, Any]) -> None:
    """The limits handlers/blocks.py promises for every message."""
    blocks = payload["blocks"]
    assert isinstance(payload["text"], str) and payload["text"]
    assert len(payload["text"]) <= 3000
    assert len(blocks) <= 50
    for b in blocks:
        if b["type"] == "section":
            assert len(b["text"]["text"]) <= 3000
        elif b["type"] == "header":
            assert len(b["text"]["text"]) <= 150
        elif b["type"] == "actions":
            assert len(b["elements"]) <= 25
        for element in [*b.get("elements", []), b.get("accessory") or {}]:
            if element.get("type") == "button":
                assert len(element.get("value", "")) <= 2000


def assert_store_sound(db: Path) -> None:
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        con.execute(
            "INSERT INTO candidates_fts(candidates_fts, rank) VALUES ('integrity-check', 0)"
        )
        rows = con.execute(
            "SELECT c.id, c.question_count,"
            " (SELECT count(*) FROM questions q WHERE q.candidate_rid = c.rid) FROM candidates c"
        ).fetchall()
        assert [r for r in rows if r[1] != r[2]] == []
        fts_rows = con.execute("SELECT count(*) FROM candidates_fts").fetchone()[0]
        assert fts_rows == len(rows)
    finally:
        con.close()


# -- 1. hostile transcript folders ------------------------------------------------------


def _truncated_seed() -> tuple[bytes, str]:
    """Seed 002 cut inside question 3's answer, one byte into a 3-byte character."""
    data = (SEEDS / "002_72ee0a76eea41e0e.txt").read_bytes()
    text = data.decode("utf-8")
    q3 = text.index("问题3")
    start = text.index("回答", q3) + 3
    cut_chars = start + 20
    assert all(ord(ch) > 0x7FF for ch in text[cut_chars : cut_chars + 1])  # a 3-byte character
    cut = len(text[:cut_chars].encode("utf-8")) + 1
    return data[:cut], text[:cut_chars]


def test_hostile_folder_is_indexed_around_bad_files(tmp_path: Path) -> None:
    folder = tmp_path / "transcripts"
    shutil.copytree(SEEDS, folder)
    seed = (SEEDS / "003_20561f43447eea49.txt").read_bytes()
    (folder / "with space.txt").write_bytes(seed)
    bad_name = os.fsencode(folder) + b"/bad\xff name.txt"
    with open(bad_name, "wb") as fh:
        fh.write((SEEDS / "004_b1dde04b6d7437d5.txt").read_bytes())
    truncated, kept_text = _truncated_seed()
    (folder / "truncated.txt").write_bytes(truncated)
    (folder / "binary.txt").write_bytes(bytes(range(256)) * 8 + b"\x00\x00\xff\xfe" * 64)
    (folder / "empty.txt").write_bytes(b"")
    with (folder / "huge.txt").open("wb") as fh:  # real bytes, not a sparse file
        block = seed * (1024 * 1024 // len(seed) + 1)
        while fh.tell() < 50 * 1024 * 1024:
            fh.write(block)
    os.symlink("loop_b.txt", folder / "loop_a.txt")
    os.symlink("loop_a.txt", folder / "loop_b.txt")
    (folder / "sub").mkdir()
    os.symlink("..", folder / "sub" / "up")  # a directory loop, if anyone followed it
    os.symlink(".", folder / "self")

    baseline = run_measured(
        ["index", str(SEEDS), "--db", str(tmp_path / "base.db"), "--json"], tmp_path / "b"
    )
    assert baseline[0] == 0, baseline[2]

    code, out, err, peak_kb = run_measured(
        ["index", str(folder), "--db", str(tmp_path / "x.db"), "--json"], tmp_path / "o", 30
    )
    assert "Traceback" not in out + err, err
    assert code == 0, (out, err)  # every file read or reported: none fails the run
    # The 50 MB file is refused from its size: the run never holds it in memory.
    assert peak_kb - baseline[3] < 20 * 1024, (peak_kb, baseline[3])

    result = json.loads(out)
    assert sorted(result["indexed"]) == sorted(
        [*SEED_IDS, "with space", "bad\ufffd name", "truncated"]
    )
    failed = {f["path"]: f for f in result["failed"]}
    assert len(failed) == len(result["failed"])  # each bad file once
    expected = {
        "binary.txt": "binary",
        "empty.txt": "empty",
        "huge.txt": "too large",
        "loop_a.txt": "symlink loop",
        "loop_b.txt": "symlink loop",
    }
    for name, word in expected.items():
        entry = failed.pop(str(folder / name), None)
        assert entry is not None, (name, result["failed"])
        assert word in entry["error"], entry
    # The directory symlinks are not followed; reporting them is fine, nothing else is.
    assert set(failed) <= {str(folder / "self"), str(folder / "sub" / "up")}, failed

    # The truncated transcript keeps everything up to the cut.
    shown = subprocess.run(
        bot_cmd("show", "truncated", "--db", str(tmp_path / "x.db"), "--json"),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert shown.returncode == 0, shown.stderr
    data = json.loads(shown.stdout)
    assert [q["number"] for q in data["questions"]] == [1, 2, 3]
    answer = data["questions"][2]["answer"]
    assert answer and kept_text.endswith(answer) and data["verdict"] is None


def test_absurd_numbers_fail_one_file_not_the_run(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    shutil.copy(SEEDS / "000_9e6b3ecb0732fcf3.txt", folder)
    (folder / "bigq.txt").write_text("岗位：x\n问题99999999999999999999：q\n回答：a\n", "utf-8")
    (folder / "bigyears.txt").write_text(
        "岗位：x 从业年限：99999999999999999999年\n问题1：q\n回答：a\n", "utf-8"
    )
    (folder / "zz_last.txt").write_text("岗位：y\n问题1：q\n回答：a\n", "utf-8")
    code, out, err, _ = run_measured(
        ["index", str(folder), "--db", str(tmp_path / "x.db"), "--json"], tmp_path / "o"
    )
    assert "Traceback" not in err, err
    assert code == 0  # every file read: the one that failed is reported, the run is not
    result = json.loads(out)
    assert sorted(result["indexed"]) == ["000_9e6b3ecb0732fcf3", "bigyears", "zz_last"]
    assert [Path(f["path"]).name for f in result["failed"]] == ["bigq.txt"]
    assert "out of range" in result["failed"][0]["error"]


# -- 2. property tests: parser and commands -----------------------------------------------

_LABELS = ["岗位", "从业年限", "简介", "问题", "问 题", "考察目标", "回答", "点评", "摘要"]
_PIECES = st.one_of(
    st.sampled_from(_LABELS),
    st.sampled_from([":", "：", "﹕", " ", "\u3000", "\t", "\n", "\r\n", "\r", "\ufeff"]),
    st.sampled_from(["一", "十二", "两", "百", "１", "年", "无", "N/A", "#", "【", "】", "*"]),
    st.from_regex(r"[0-9]{1,30}", fullmatch=True),
    st.text(max_size=6),
)
TRANSCRIPT_LIKE = st.lists(_PIECES, max_size=80).map("".join)


def _parse_is_total(data: bytes, name: str) -> None:
    try:
        result = parse_transcript(data, name)
    except ParseError as exc:
        assert exc.reason
        return
    assert isinstance(result, Transcript)


@FUZZ
@given(data=st.binary(max_size=4096), name=st.text(max_size=40))
def test_parser_on_arbitrary_bytes(data: bytes, name: str) -> None:
    _parse_is_total(data, name)


@FUZZ
@given(
    text=TRANSCRIPT_LIKE,
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "gb18030"]),
    cut=st.integers(0, 8),
)
def test_parser_on_transcript_like_text(text: str, encoding: str, cut: int) -> None:
    data = text.encode(encoding, "replace")
    _parse_is_total(data, "x.txt")
    _parse_is_total(data[: max(0, len(data) - cut)], "x.txt")  # cut mid-character


def test_parser_edge_cases_only_raise_parse_error() -> None:
    for data in [
        b"x" * (MAX_BYTES + 1),
        b"\xef\xbb\xbf",
        b"\xff\xfe" + "岗位：x".encode("utf-16-le")[:-1],
        "岗位：x\n问题1：q\n回答：\xe4".encode() + b"\xbd",
        b"\r" * 10_000,
        ("问题：\n" * 5_000).encode(),
    ]:
        _parse_is_total(data, "edge.txt")


@pytest.mark.parametrize(
    "text",
    ["岗位：x\n问题" + "9" * 5000 + "：q\n回答：a\n", "岗位：x 从业年限：" + "9" * 400 + "\n"],
    ids=["question-number", "years"],
)
def test_parser_on_long_digit_runs(text: str) -> None:
    _parse_is_total(text.encode(), "digits.txt")


_COMMAND_WORDS = st.sampled_from(
    [
        "help", "帮助", "summary", "总结", "full", "全文", "unanswered", "未回答", "verdict",
        "点评", "question", "问题", "q", "q3", "问题2", "search", "搜索", "list", "列表",
        "000", "002", "003_", "004_b1dde04b6d7437d5", "视频", "工程师", "并行", "1", "5",
        "99", "二", "\x00", "\n", "<!channel>", "&", "*", "\"", "OR", "NOT",
    ]
)  # fmt: skip
_HUGE = st.builds(lambda s, n: s * n, st.text(min_size=1, max_size=12), st.integers(1, 20_000))
COMMAND_TEXT = st.one_of(
    st.text(max_size=300),
    st.lists(st.one_of(_COMMAND_WORDS, st.text(max_size=8), _HUGE), max_size=12).map(" ".join),
    _HUGE,
)


@FUZZ
@given(text=COMMAND_TEXT, locale=st.sampled_from(["zh", "en"]))
def test_any_command_text_gets_an_answer_within_slack_limits(
    seeded_store: Store, text: str, locale: str
) -> None:
    route = parse_command(text)
    assert isinstance(route, Route)
    outgoing = answer(route, Deps(store=seeded_store, locale=locale), user="U1").outgoing  # type: ignore[arg-type]
    assert outgoing
    for item in outgoing:
        assert_fits_slack(item.message.payload())


def test_huge_and_nul_commands(seeded_store: Store) -> None:
    for text in ["\x00" * 1_000_000, "总结\x00000", "搜索 " + "并行\x00" * 200_000, "q" * 10**6]:
        route = parse_command(text)
        for item in answer(route, Deps(store=seeded_store), user="U1").outgoing:
            assert_fits_slack(item.message.payload())


def test_parse_command_with_a_huge_question_number() -> None:
    assert parse_command("问题 000 " + "9" * 400).kind == "question"


# -- 3. search with raw user text ---------------------------------------------------------

NASTY_QUERIES = [
    "AND", "OR", "NOT 并行", "并行 OR TensorFlow", "NEAR(并行 训练)", '"', '""', '"并行',
    '并行"', "(", ")", "((并行", "并行))", "*", "并*", "^并行", "-并行", "+并行",
    "position:视频", "{position intro}: 视频", "'", "'; DROP TABLE candidates; --", "\\",
    "%_%", "\x00", "并\x00行", "\x00\x00TensorFlow\x00", "\u200b", "\ufeff并行",
    "a" * 10_240, "并行 " * 3_500, '"(*)" ' * 1_800, "".join(chr(c) for c in range(1, 10_241)),
    "", "   ",
]  # fmt: skip


@pytest.mark.parametrize("query", NASTY_QUERIES, ids=range(len(NASTY_QUERIES)))
def test_search_never_raises_on_raw_text(seeded_store: Store, query: str) -> None:
    """Raw text never breaks a search: it finds, or it is refused with its reason (more
    than 16 terms or 512 characters: QueryTooLong, which the CLI and Slack say)."""
    for snippets in (True, False):
        try:
            hits = seeded_store.search(query, limit=10, snippets=snippets)
        except QueryTooLong as refused:
            assert len(query.split()) > 16 or len(" ".join(query.split())) > 512
            assert refused.reason in ("terms", "chars")
            continue
        assert all(isinstance(h, SearchHit) and h.id in SEED_IDS for h in hits)
    seeded_store.resolve(query)
    assert seeded_store.count() == 4


def test_resolve_with_a_thousand_words(seeded_store: Store) -> None:
    assert seeded_store.resolve("a " * 1000).matches == []


def test_search_syntax_is_plain_text(seeded_store: Store) -> None:
    plain = [h.id for h in seeded_store.search("并行")]
    assert plain
    for q in ['"并行"', "(并行)", "“并行”"]:
        assert [h.id for h in seeded_store.search(q)] == plain, q


@FUZZ
@given(
    query=st.one_of(
        st.text(max_size=600),
        st.lists(
            st.one_of(
                st.sampled_from(['"', "(", ")", "*", "^", ":", "-", "+", "AND", "OR", "NOT"]),
                st.sampled_from(["NEAR", "并行", "TensorFlow", "视频", "\x00", " "]),
                st.text(max_size=5),
            ),
            max_size=40,
        ).map("".join),
    )
)
def test_search_on_arbitrary_text(seeded_store: Store, query: str) -> None:
    hits = seeded_store.search(query)
    assert all(h.id in SEED_IDS for h in hits)
    seeded_store.resolve(query)


# -- 4. slash commands over HTTP with odd text ------------------------------------------------

TEN_KB = ("奇怪的输入" * 683)[:3413]  # 10 KB of UTF-8


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        (TEN_KB, "/candidate"),
        ("frobnicate " + TEN_KB, "/candidate"),
        ("搜索 " + TEN_KB, "512"),  # refused, and why: more than 512 characters
        ("x" * 10_240, "/candidate"),
        ("frobnicate", "/candidate"),
        ("frobnicate 000", "/candidate"),
        ("删除 000", "/candidate"),
        ("--verbose 000", "/candidate"),
        ("sudo rm -rf /", "/candidate"),
        ("<!channel> ping", "/candidate"),
        ("\x00\x00", "/candidate"),
    ],
    ids=[
        "10kb",
        "unknown-10kb",
        "search-10kb",
        "ascii-10kb",
        "unknown",
        "unknown-who",
        "zh-unknown",
        "flag",
        "shell",
        "mention",
        "nul",
    ],
)
def test_odd_slash_commands_get_a_kind_reply(bot: Bot, text: str, hint: str) -> None:
    status, _took = bot.command(text)
    assert status == 200
    [reply] = bot.replies(timeout=15)
    body = all_text(reply)
    assert reply["response_type"] == "ephemeral"
    assert hint in body
    for word in ERROR_WORDS:
        assert word not in body
    assert "<!channel>" not in body
    assert_fits_slack(reply)
    assert not bot.fake.calls("chat.postEphemeral")


def test_huge_question_number_over_http(bot: Bot) -> None:
    bot.command("问题 000 " + "9" * 400)
    [reply] = bot.replies(timeout=15)
    assert "出了点问题" not in all_text(reply)


def test_a_thousand_words_over_http(bot: Bot) -> None:
    bot.command("a " * 1000)
    [reply] = bot.replies(timeout=15)
    assert "出了点问题" not in all_text(reply)


# -- 5. kill -9 in the middle of a large index run ------------------------------------------


@pytest.fixture(scope="module")
def big_corpus(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    # 800 files take about 12 s to index here, 1 s to the first commit: the kill lands
    # early in the run, and the second run has hundreds left to index.
    return write_corpus(800, tmp_path_factory.mktemp("corpus") / "t", seed=7)


def _findable_term(text: str) -> str:
    runs = sorted(re.findall(r"[\u4e00-\u9fff]{3,}", text), key=len, reverse=True)
    return runs[0][:30] if runs else ""


def test_kill_9_mid_index_leaves_a_sound_store(big_corpus: list[Path], tmp_path: Path) -> None:
    folder = big_corpus[0].parent
    db = tmp_path / "k.db"
    log = (tmp_path / "killed.out").open("wb")
    proc = subprocess.Popen(
        bot_cmd("index", str(folder), "--db", str(db), "--json"),
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        started = time.monotonic()
        while time.monotonic() - started < 1.0 or candidate_count(db) == 0:
            assert proc.poll() is None, "the index run ended before it could be killed"
            assert time.monotonic() - started < 30
            time.sleep(0.05)
        assert proc.poll() is None
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=10) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        log.close()

    assert_store_sound(db)
    store = Store(db)
    ids = store.ids()
    # Batched commits can finish every write just before the kill lands: at most all.
    assert 0 < len(ids) <= len(big_corpus), len(ids)
    for cid in ids[:: max(1, len(ids) // 300)]:  # a sample: each check is a search
        c = store.get_candidate(cid)
        assert c is not None and len(c.questions) == store.resolve(cid).matches[0].questions
        term = _findable_term(
            " ".join([c.intro, c.summary, c.verdict or ""] + [q.question for q in c.questions])
        )
        assert term, cid
        found = [h.id for h in store.search(term, limit=1000, snippets=False)]
        assert cid in found or len(found) == 1000, (cid, term)  # past 1000: the newest
    store.close()

    code, out, err, _ = run_measured(
        ["index", str(folder), "--db", str(db), "--json"], tmp_path / "again", timeout=120
    )
    assert code == 0, err
    result = json.loads(out)
    assert result["failed"] == [] and result["removed"] == []
    assert sorted(result["unchanged"]) == ids
    assert len(result["indexed"]) + len(ids) == len(big_corpus)
    assert_store_sound(db)
    assert candidate_count(db) == len(big_corpus)


# -- 6. indexing while the bot answers ----------------------------------------------------

LOOKUPS = [
    ("总结 000_9e6b3ecb0732fcf3", "000_9e6b3ecb0732fcf3"),
    ("未回答 000_9e6b3ecb0732fcf3", "Replicated training"),
    ("问题 002_72ee0a76eea41e0e 5", "tf.keras.layers.Dense"),
    ("003_20561f43447eea49", "大数据开发工程师"),
    ("搜索 并行", "并行"),
    ("点评 004_b1dde04b6d7437d5", ""),  # posted in the channel, checked below
]


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def captured_logs() -> Iterator[list[logging.LogRecord]]:
    handler = _Collect()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler.records
    finally:
        root.removeHandler(handler)


def test_lookups_while_indexing_never_see_a_locked_database(
    bot: Bot, tmp_path: Path, captured_logs: list[logging.LogRecord]
) -> None:
    folder = tmp_path / "incoming"
    # 600 files take about 9 s to index here: the 30 lookups are sent within it.
    write_corpus(600, folder, seed=3)
    db = Path(bot.settings.db_path)
    proc = subprocess.Popen(
        bot_cmd("index", str(folder), "--db", str(db), "--json"),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while bot.store.count() <= len(SEED_IDS):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        sent_while_indexing = 0
        expected: dict[str, str] = {}
        for i in range(30):
            text, hint = LOOKUPS[i % len(LOOKUPS)]
            sent_while_indexing += proc.poll() is None
            status, _took = bot.command(text, name=f"c{i}")
            assert status == 200
            if hint:
                expected[f"c{i}"] = hint
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert json.loads(out)["failed"] == []
    assert sent_while_indexing >= 10, sent_while_indexing
    print(f"{sent_while_indexing} of 30 lookups sent while the index ran")

    for name, hint in expected.items():
        [reply] = bot.replies(name, timeout=30)
        body = all_text(reply)
        assert hint in body, (name, body[:300])
        for word in ERROR_WORDS:
            assert word not in body, (name, body[:300])
    posts = bot.fake.wait_for("chat.postMessage", count=5, timeout=30)
    for post in posts:
        assert "004_b1dde04b6d7437d5" in json.dumps(post.params, ensure_ascii=False)
    assert not bot.fake.calls("chat.postEphemeral")
    problems = [r.getMessage() for r in captured_logs if r.levelno >= logging.ERROR]
    problems += [r.getMessage() for r in captured_logs if "locked" in r.getMessage().lower()]
    assert problems == []


# -- 7. response_url faults ------------------------------------------------------------------


@pytest.mark.slack_refusals_expected  # the expired response_url, on purpose
def test_expired_response_url_falls_back_to_ephemeral(
    bot: Bot, fake_slack: FakeSlack, clock: FakeClock
) -> None:
    bot.command("总结 000", name="fresh")
    [normal] = bot.replies("fresh")
    gone = fake_slack.response_url("gone")
    clock.advance(31 * 60)  # Slack no longer takes posts to it
    body = command_body("总结 000", response_url=gone)
    assert post_signed(bot.events_url, body, SECRET)[0] == 200
    [ephemeral] = fake_slack.wait_for("chat.postEphemeral", timeout=15)
    assert [(c.status, c.error) for c in fake_slack.calls("response/gone")] == [
        (404, "expired_url")
    ]
    assert ephemeral.params["channel"] == "C123" and ephemeral.params["user"] == "U123"
    assert ephemeral.params["text"] == normal["text"]
    assert ephemeral.json_param("blocks") == normal["blocks"]
    bot.idle()  # the bot is done with the request: nothing more will be sent
    assert len(fake_slack.calls("chat.postEphemeral")) == 1


def test_rate_limited_response_url_is_retried_once(bot: Bot, fake_slack: FakeSlack) -> None:
    fake_slack.fail_next("response/cmd", status=429, retry_after=1)
    assert bot.command("总结 000")[0] == 200
    calls = fake_slack.wait_for("response/cmd", count=2, timeout=15)
    assert [c.status for c in calls] == [429, 200]
    assert calls[1].params["blocks"][0]["text"]["text"].startswith("000_9e6b3ecb0732fcf3")
    assert calls[1].time - calls[0].time >= 0.9  # Retry-After was honoured
    bot.idle()  # the bot is done with the request: nothing more will be sent
    assert len(fake_slack.calls("response/cmd")) == 2
    assert not fake_slack.calls("chat.postEphemeral")
