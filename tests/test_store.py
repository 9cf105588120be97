"""The store on a temp file: incremental indexing, search, resolving candidates."""

from __future__ import annotations

import inspect
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from store.api import IndexTarget, StoreAPI
from store.errors import QueryTooLong
from store.fulltext import MAX_QUERY_CHARS
from store.indexer import index_paths
from store.schema.steps import known
from store.sqlite.store import Store

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SMALL = (
    "岗位：{pos} 从业年限：3年\n简介：{intro}\n问题1：{q}\n考察目标：目标\n回答：{a}\n点评：好\n"
)


def write(folder: Path, name: str, **kw: str) -> Path:
    values = {"pos": "后端工程师", "intro": "简介", "q": "问题", "a": "回答"} | kw
    path = folder / name
    path.write_text(SMALL.format(**values), "utf-8")
    return path


@pytest.fixture
def folder(tmp_path: Path, seeds_dir: Path) -> Path:
    dest = tmp_path / "transcripts"
    shutil.copytree(seeds_dir, dest)
    return dest


@pytest.mark.sqlite_only
def test_schema_is_migrated_once(store: Store) -> None:
    names = [r["name"] for r in store.db.query("SELECT name FROM _migrations ORDER BY rowid")]
    assert names == known("sqlite")
    again = Store(store.path)
    assert [
        r["name"] for r in again.db.query("SELECT name FROM _migrations ORDER BY rowid")
    ] == names
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_incremental_index(store: Store, folder: Path) -> None:
    first = index_paths(store, [folder])
    assert len(first.indexed) == 4 and not first.unchanged and not first.failed

    again = index_paths(store, [folder])
    assert (again.indexed, len(again.unchanged), again.removed) == ([], 4, [])

    # touched but identical: unchanged by content hash
    os.utime(folder / "000_9e6b3ecb0732fcf3.txt", ns=(1, 1))
    assert "000_9e6b3ecb0732fcf3" in index_paths(store, [folder]).unchanged

    # changed: replaced; gone: removed; new: indexed
    text = (folder / "004_b1dde04b6d7437d5.txt").read_text("utf-8")
    (folder / "004_b1dde04b6d7437d5.txt").write_text(
        text.replace("岗位： 视频开发工程师", "岗位： 音频工程师"), "utf-8"
    )
    (folder / "003_20561f43447eea49.txt").unlink()
    write(folder, "new one.txt", pos="前端工程师")
    result = index_paths(store, [folder])
    assert sorted(result.indexed) == ["004_b1dde04b6d7437d5", "new one"]
    assert result.removed == ["003_20561f43447eea49"]
    assert store.get_candidate("003_20561f43447eea49") is None
    assert "003_20561f43447eea49" not in [h.id for h in store.search("大数据开发工程师")]
    assert store.get_candidate("004_b1dde04b6d7437d5").position == "音频工程师"  # type: ignore[union-attr]
    assert [h.id for h in store.search("音频工程师")] == ["004_b1dde04b6d7437d5"]
    assert sorted(store.ids()) == [
        "000_9e6b3ecb0732fcf3",
        "002_72ee0a76eea41e0e",
        "004_b1dde04b6d7437d5",
        "new one",
    ]


def test_a_bad_file_fails_alone(store: Store, folder: Path) -> None:
    (folder / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (folder / "empty.txt").write_bytes(b"")
    (folder / "notes.txt").write_text("今天天气不错。", "utf-8")
    result = index_paths(store, [folder, folder / "missing.txt"])
    assert len(result.indexed) == 4
    failed = {Path(f.path).name: f for f in result.failed}
    assert set(failed) == {"image.png", "empty.txt", "missing.txt"}
    assert "binary" in failed["image.png"].error and failed["image.png"].line == 3
    assert "empty" in failed["empty.txt"].error
    # text with no transcript label is no failure: skipped, with its reason
    assert [(Path(s.path).name, s.reason) for s in result.skipped] == [
        ("notes.txt", "not a transcript: none of the labels 岗位, 问题N, 点评")
    ]


def test_a_changed_file_that_breaks_keeps_the_old_version(store: Store, folder: Path) -> None:
    index_paths(store, [folder])
    (folder / "000_9e6b3ecb0732fcf3.txt").write_bytes(b"\x00garbage")
    result = index_paths(store, [folder])
    assert [Path(f.path).name for f in result.failed] == ["000_9e6b3ecb0732fcf3.txt"]
    assert store.get_candidate("000_9e6b3ecb0732fcf3") is not None


@pytest.mark.sqlite_only
def test_a_crash_mid_write_leaves_no_half_candidate(
    store: Store, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index_paths(store, [folder / "000_9e6b3ecb0732fcf3.txt"])

    class Boom(Exception):
        pass

    def explode(*args: object) -> None:
        raise Boom

    conn = store.db.conn

    class Wrapped:
        def __getattr__(self, name: str) -> object:
            return explode if name == "executemany" else getattr(conn, name)

    monkeypatch.setattr(store.db, "conn", Wrapped())
    with pytest.raises(Boom):
        index_paths(store, [folder / "002_72ee0a76eea41e0e.txt"])
    monkeypatch.undo()
    assert store.get_candidate("002_72ee0a76eea41e0e") is None
    assert store.db.execute("SELECT count(*) FROM questions").fetchone()[0] == 5
    assert [h.id for h in store.search("神经网络模型设计师")] == []
    assert index_paths(store, [folder]).indexed == [
        "002_72ee0a76eea41e0e",
        "003_20561f43447eea49",
        "004_b1dde04b6d7437d5",
    ]


SEARCH_TABLE = [
    ("并行", {"000_9e6b3ecb0732fcf3", "002_72ee0a76eea41e0e", "003_20561f43447eea49"}),
    (
        "分布式",
        {
            "000_9e6b3ecb0732fcf3",
            "002_72ee0a76eea41e0e",
            "003_20561f43447eea49",
            "004_b1dde04b6d7437d5",
        },
    ),
    (
        "TensorFlow",
        {
            "000_9e6b3ecb0732fcf3",
            "002_72ee0a76eea41e0e",
            "003_20561f43447eea49",
            "004_b1dde04b6d7437d5",
        },
    ),
    (
        "tensorflow",
        {
            "000_9e6b3ecb0732fcf3",
            "002_72ee0a76eea41e0e",
            "003_20561f43447eea49",
            "004_b1dde04b6d7437d5",
        },
    ),
    ("C++", {"002_72ee0a76eea41e0e"}),
    ("Kubernetes", {"003_20561f43447eea49"}),
    ("LazyBuilder", {"004_b1dde04b6d7437d5"}),
    ("蛋糕", {"003_20561f43447eea49"}),
    ("神经网络模型设计师", {"002_72ee0a76eea41e0e"}),
    ("剪枝 量化", {"000_9e6b3ecb0732fcf3"}),
    ("嵌入式 Kubernetes", {"003_20561f43447eea49"}),
    ("并行 LazyBuilder", set()),
    ("不存在的词语", set()),
]


@pytest.mark.parametrize(("query", "expected"), SEARCH_TABLE)
def test_search_finds_every_transcript_that_contains_it(
    seeded_store: Store, seed_files: list[Path], query: str, expected: set[str]
) -> None:
    hits = seeded_store.search(query, limit=50)
    assert {h.id for h in hits} == expected
    # the same answer as reading every file
    words = query.lower().split()
    truth = {p.stem for p in seed_files if all(w in p.read_text("utf-8").lower() for w in words)}
    assert truth == expected
    for h in hits:
        assert h.highlight is not None
        a, b = h.highlight
        assert h.snippet[a:b].lower() in words


def test_rarer_matches_rank_first(seeded_store: Store) -> None:
    hits = seeded_store.search("神经网络")
    assert hits[0].id == "002_72ee0a76eea41e0e"  # in its position, its profile and throughout
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


NASTY = [
    '"',
    '""',
    "'",
    "-",
    "--x",
    "AND",
    "OR NOT",
    "NEAR(a b)",
    "*",
    "a*",
    ":",
    "col:并行",
    "((",
    ")",
    "并行\x00",
    "\x00",
    "^",
    "+",
    "\\",
    "'; DROP TABLE candidates; --",
    "x" * 10_000,
    "并行" * 3000,
    '"并行" OR "分布式"',
    "\u3000",
    "",
]


@pytest.mark.parametrize("query", NASTY)
def test_raw_user_text_never_raises(seeded_store: Store, query: str) -> None:
    """Nothing but the refusal of a query longer than a search takes (issue 47)."""
    seeded = {c.id for c in seeded_store.list_candidates()}
    if len(" ".join(query.split())) > MAX_QUERY_CHARS:
        with pytest.raises(QueryTooLong):
            seeded_store.search(query)
    else:
        assert {h.id for h in seeded_store.search(query)} <= seeded
    assert {m.id for m in seeded_store.resolve(query).matches} <= seeded
    assert seeded_store.db.execute("SELECT count(*) FROM candidates").fetchone()[0] == 4


def test_quotes_and_operators_are_text(seeded_store: Store) -> None:
    assert {h.id for h in seeded_store.search('"并行"')} == {
        h.id for h in seeded_store.search("并行")
    }
    assert seeded_store.search("Client/Server")[0].id == "000_9e6b3ecb0732fcf3"


RESOLVE_TABLE = [
    ("000_9e6b3ecb0732fcf3", ["000_9e6b3ecb0732fcf3"]),
    ("000", ["000_9e6b3ecb0732fcf3"]),
    (
        "00",
        [
            "000_9e6b3ecb0732fcf3",
            "002_72ee0a76eea41e0e",
            "003_20561f43447eea49",
            "004_b1dde04b6d7437d5",
        ],
    ),
    ("神经网络", ["002_72ee0a76eea41e0e"]),
    ("视频开发工程师", ["004_b1dde04b6d7437d5", "000_9e6b3ecb0732fcf3"]),
    ("Kubernetes", ["003_20561f43447eea49"]),
    ("nobody-here", []),
]


@pytest.mark.parametrize(("text", "ids"), RESOLVE_TABLE)
def test_resolve(seeded_store: Store, text: str, ids: list[str]) -> None:
    assert [m.id for m in seeded_store.resolve(text).matches] == ids


def test_list_filters_and_counts(seeded_store: Store) -> None:
    rows = seeded_store.list_candidates("视频")
    assert [(r.id, r.questions, r.unanswered, r.has_verdict) for r in rows] == [
        ("004_b1dde04b6d7437d5", 6, 1, True),
        ("000_9e6b3ecb0732fcf3", 5, 2, True),
    ]
    assert len(seeded_store.list_candidates()) == 4 and seeded_store.count() == 4
    assert [r.id for r in seeded_store.list_candidates(limit=2, offset=1)] == [
        "003_20561f43447eea49",
        "002_72ee0a76eea41e0e",
    ]


@pytest.mark.sqlite_only
def test_integrity_after_updates(store: Store, folder: Path) -> None:
    for _ in range(3):
        index_paths(store, [folder])
        for p in folder.glob("*.txt"):
            p.write_text(p.read_text("utf-8") + "\n补充。", "utf-8")
    con = sqlite3.connect(store.path)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.execute("INSERT INTO candidates_fts(candidates_fts, rank) VALUES ('integrity-check', 0)")


@pytest.mark.parametrize("api", [StoreAPI, IndexTarget])
def test_the_sqlite_store_implements_the_seam(api: type) -> None:
    """Every method of the seam exists on Store with the same parameters and defaults."""
    names = [n for n in vars(api) if not n.startswith("_")] + list(api.__annotations__)
    assert "search" in names or "save" in names
    for name in names:
        assert hasattr(Store, name), name
        member = vars(api).get(name)
        if callable(member):
            ours, theirs = inspect.signature(getattr(Store, name)), inspect.signature(member)
            assert ours.parameters == theirs.parameters, name


def test_one_tally_of_decisions(seeded_store: Store) -> None:
    """Each reviewer's latest decision counts once, the same on the card and in the digest."""
    cid = "000_9e6b3ecb0732fcf3"
    for ts, reviewer, text in [
        ("1.1", "U1", "Hire: 基础扎实"),
        ("1.2", "U2", "hold"),
        ("1.3", "U1", "不通过"),  # U1 changes their mind
        ("1.4", "U3", "no hire"),
        ("1.5", "U2", "问题1：补充回答"),  # a follow-up, not a decision
    ]:
        seeded_store.record_reply("C1", ts, "1.0", cid, reviewer, text)
    candidate = seeded_store.get_candidate(cid)
    assert candidate is not None
    assert candidate.tally == seeded_store.tally(cid) == {"hold": 1, "no_hire": 2}
    decided, total = seeded_store.digest_lines("decided", "", 50)
    assert total == 1 and decided[0].id == cid and decided[0].tally == candidate.tally
    assert seeded_store.DIGEST_CATEGORIES == ("new", "waiting", "unanswered", "decided")


def test_a_saved_transcript_counts_only_the_questions_no_reply_has_answered(store: Store) -> None:
    """The open count is written with the candidate (one insert, no update after it):
    it leaves out the questions a reviewer's reply answered, by number, also when a
    number repeats, and on a save of the same file again. 230 questions: the questions
    are written a few statements at a time."""
    from store.models import Question, Transcript

    def transcript(answered: set[int]) -> Transcript:
        questions = [
            Question(
                number=n,
                question=f"问题{n}",
                goal="目标",
                answer="答" if n in answered else "",
                answered=n in answered,
            )
            for n in range(1, 230)
        ]
        # a second question numbered 7, unanswered too
        questions.insert(7, Question(number=7, question="问题7b", goal="目标", answer=""))
        return Transcript(id="many", position="后端", questions=questions, verdict="好")

    def counts() -> tuple[int, list[bool]]:
        listed = {c.id: c for c in store.list_candidates()}
        card = store.get_candidate("many")
        assert card is not None
        return listed["many"].unanswered, [q.answered for q in card.questions]

    store.save(transcript({1, 2, 3}))
    assert counts()[0] == 227  # 230 questions, 3 answered
    assert len(counts()[1]) == 230
    store.record_reply("C1", "1.1", "1.0", "many", "UR", "问题7：后来补充：答了")
    store.record_reply("C1", "1.2", "1.0", "many", "UR", "问题200：后来补充：也答了")
    assert counts()[0] == 227 - 3  # both questions numbered 7, and 200
    store.save(transcript({1, 2, 3, 4}))  # the file changed: saved again
    assert counts()[0] == 227 - 3 - 1
    store.save(transcript(set()))
    assert counts()[0] == 230 - 3
    assert counts()[1] == [False] * 230  # the file's own answers; replies are shown apart
