"""The word splitter behind partial-phrase search: jieba's dictionary (through rjieba),
loaded when asked to, before `serve` says it is ready, never on the first request."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from store import fulltext

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("分布式系统的一致性问题", ["分布式系统", "一致性", "问题"]),
        ("讲讲卷积神经网络", ["讲讲", "卷积", "神经网络"]),
        ("用Kafka做消息队列", ["用", "kafka", "消息", "队列"]),
    ],
)
def test_a_phrase_is_split_into_the_words_jieba_knows(query: str, words: list[str]) -> None:
    assert [t.text for t in fulltext.parse(query).words or []] == words


def test_one_character_is_not_split() -> None:
    assert fulltext.parse("图").words is None


def test_warm_loads_the_dictionary_before_it_returns() -> None:
    """In a fresh interpreter: nothing is loaded on import, all of it once warm() returns."""
    code = (
        "from store import fulltext as f\n"
        "assert f._segmenter is None\n"
        "f.warm()\n"
        "assert f._segmenter is not None\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
