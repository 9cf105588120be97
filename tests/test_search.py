"""Search as recruiters type: input -> expected ids, in order, over a small corpus made here.

Candidates are saved in order, so a later one is newer (the tie-breaker)."""

from __future__ import annotations

from pathlib import Path

import pytest

from store.models import Question, Transcript
from store.sqlite.store import Store

FILLER = "面试过程顺利，沟通清楚。"

CORPUS: list[tuple[str, str, list[str]]] = [
    # id, summary, answers (question k+1 gets answers[k])
    ("c01_words", "擅长分布式系统，做过模型训练与性能调优。", ["熟悉TensorFlow。"]),
    ("c02_phrase", FILLER, ["用TensorFlow做过分布式训练与调优。", "负责分布式训练调优。"]),
    ("c03_ai_platform", "负责AI平台建设。", [FILLER]),
    ("c04_ai_twice", FILLER, ["做过AI相关工作，熟悉 AI 与推荐。"]),
    ("c05_training", "trAIning pipeline owner, good at building tools.", [FILLER]),
    ("c06_yaml", "写过很多 yaML 配置。", [FILLER]),
    ("c07_ml", FILLER, ["做过 ML 模型上线。"]),
    ("c08_golang", "Golang 后端，会写 good code.", [FILLER]),
    ("c09_go", FILLER, [FILLER, "主要用 Go 语言开发。"]),
    ("c10_csharp_ui", "C# 和 UI 设计都做过。", [FILLER]),
    ("c11_build", "熟悉 build 流程与 GUI 工具。", [FILLER]),
    ("c12_tf_space", "TensorFlow 经验丰富，了解分布式。", [FILLER]),
    ("c13_lb_once", FILLER, ["了解负载均衡。" + FILLER * 6]),
    ("c14_lb_often", FILLER, ["负载均衡：四层负载均衡与七层负载均衡。"]),
    ("c15_lb_once_new", FILLER, ["了解负载均衡。" + FILLER * 6]),
]


def _transcript(cid: str, summary: str, answers: list[str]) -> Transcript:
    return Transcript(
        id=cid,
        position="后端工程师",
        years=3,
        summary=summary,
        questions=[
            Question(number=k + 1, question=f"第{k + 1}个问题", answer=a, answered=True)
            for k, a in enumerate(answers)
        ],
        verdict="通过",
    )


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Store:
    store = Store(Path(tmp_path_factory.mktemp("search")) / "debrief.db")
    for cid, summary, answers in CORPUS:
        store.save(_transcript(cid, summary, answers))
    return store


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # no space between scripts finds what the spaced query finds
        ("TensorFlow分布式", ["c02_phrase", "c01_words", "c12_tf_space"]),
        ("TensorFlow 分布式", ["c02_phrase", "c01_words", "c12_tf_space"]),
        # an exact phrase first, then the transcripts with all of its words
        ("分布式训练调优", ["c02_phrase", "c01_words"]),
        # two-letter Latin terms are whole words
        ("AI", ["c04_ai_twice", "c03_ai_platform"]),
        ("ai平台", ["c03_ai_platform"]),
        ("ML", ["c07_ml"]),
        ("Go", ["c09_go"]),
        ("C#", ["c10_csharp_ui"]),
        ("UI", ["c10_csharp_ui"]),
        ("c# ui", ["c10_csharp_ui"]),
        # bm25: more occurrences rank first; equal scores, the newest first
        ("负载均衡", ["c14_lb_often", "c15_lb_once_new", "c13_lb_once"]),
        ("训练", ["c02_phrase", "c01_words"]),
        ("Golang", ["c08_golang"]),
        ("trAIning", ["c05_training"]),
        # nothing to find, and query syntax that stays plain text
        ("区块链", []),
        ('"AND" OR (NOT -x* :', []),
        ("AND", []),
    ],
)
def test_search(corpus: Store, query: str, expected: list[str]) -> None:
    assert [h.id for h in corpus.search(query)] == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("负载均衡", ["c15_lb_once_new", "c14_lb_often", "c13_lb_once"]),
        ("分布式训练调优", ["c02_phrase", "c01_words"]),
        ("AI", ["c04_ai_twice", "c03_ai_platform"]),
    ],
)
def test_search_newest(corpus: Store, query: str, expected: list[str]) -> None:
    assert [h.id for h in corpus.search(query, sort="newest")] == expected


@pytest.mark.parametrize(
    ("query", "cid", "question"),
    [
        ("Go", "c09_go", 2),
        ("负载均衡", "c14_lb_often", 1),
        ("AI平台", "c03_ai_platform", None),  # in the summary
        ("通过", "c01_words", None),  # in the verdict
    ],
)
def test_hit_names_the_question(corpus: Store, query: str, cid: str, question: int | None) -> None:
    hits = {h.id: h for h in corpus.search(query, limit=100)}
    assert hits[cid].question == question


def test_snippet_highlights_the_whole_word(corpus: Store) -> None:
    (hit,) = corpus.search("UI")
    assert hit.highlight is not None
    a, b = hit.highlight
    assert hit.snippet[a:b] == "UI"


def test_an_old_database_migrates(tmp_path: Path) -> None:
    """A database from before the short-word index: the migration rebuilds it."""
    path = tmp_path / "old.db"
    store = Store(path)
    for cid, summary, answers in CORPUS:
        store.save(_transcript(cid, summary, answers))
    db = store.db
    db.execute("DROP TABLE candidates_bigrams")
    db.execute(
        "CREATE VIRTUAL TABLE candidates_bigrams USING fts5("
        "bigrams, tokenize='unicode61', content='', detail='none', columnsize=0)"
    )
    db.execute("DELETE FROM _migrations WHERE name = 'm008_search_terms'")
    db.conn.commit()
    assert [h.id for h in Store(path).search("AI")] == ["c04_ai_twice", "c03_ai_platform"]
