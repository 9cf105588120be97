"""What PostgreSQL's text search indexes and looks for (store/pg/lexemes.py, pure): text
in, a `tsvector` literal out; a query's terms in, a `tsquery` literal out. The literals
are checked against PostgreSQL's own reading of them where a server is at hand."""

from __future__ import annotations

import pytest

from store import fulltext
from store.pg import lexemes


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ""),
        ("分布式", "'分布':1 '布式':2"),
        # a gap after each run of CJK: the phrase 分布式 is not in 分布，布式
        ("分布，布式", "'分布':1 '布式':3"),
        ("分", ""),  # one CJK character alone: no bigram
        ("AI平台", "'ai':1 '平台':2"),
        ("TensorFlow 与 PyTorch", "'tensorflow':1 'pytorch':3"),
        ("C++ 和 c# 和 C#", "'c++':1 'c#':3,5"),
        ("node.js", "'node':1 'js':2"),
        ("Straße", "'strasse':1"),  # case-folded
        ("ai ai ai", "'ai':1,2,3"),
        ("user_name", "'user':1 'name':2"),  # `_` is no letter
        ("カタカナ 한국어", "'カタカナ':1 '한국어':2"),  # other scripts: words
    ],
)
def test_document(text: str, expected: str) -> None:
    assert lexemes.document(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("it's", "'it':1 's':2"),
        ("a\\b", "'a':1 'b':2"),
        ("x:1 & y | !(z)", "'x':1 '1':2 'y':3 'z':4"),
    ],
)
def test_punctuation_in_text_is_never_a_lexeme(text: str, expected: str) -> None:
    assert lexemes.document(text) == expected


@pytest.mark.parametrize(
    ("lexeme", "expected"),
    [("ab", "'ab'"), ("it's", "'it''s'"), ("a\\b", "'a\\\\b'"), ("a:b & c", "'a:b & c'")],
)
def test_quoted(lexeme: str, expected: str) -> None:
    assert lexemes.quoted(lexeme) == expected


def test_positions_past_the_last_are_kept_without_one() -> None:
    words = " ".join(f"w{i}" for i in range(lexemes.MAX_POSITION)) + " late 分布式"
    found = dict(
        (part.rsplit(":", 1) if ":" in part else (part, ""))
        for part in lexemes.document(words).split()
    )
    assert found["'w0'"] == "1" and found[f"'w{lexemes.MAX_POSITION - 1}'"] == "16383"
    assert found["'late'"] == "" and found["'分布'"] == "" and found["'布式'"] == ""


def test_a_lexeme_keeps_at_most_256_positions_and_a_long_word_is_not_indexed() -> None:
    assert lexemes.document("ai " * 300) == "'ai':" + ",".join(map(str, range(1, 257)))
    assert lexemes.document("x" * 3000 + " ok") == "'ok':2"


def test_the_whole_value_stays_under_a_megabyte() -> None:
    text = " ".join(f"word{i:07d}" for i in range(200_000))  # 2.4 MB of distinct words
    literal = lexemes.document(text)
    assert 0 < len(literal.encode()) < 1_000_000
    assert literal.startswith("'word0000000':1 ")


def _query(text: str) -> str | None:
    return lexemes.query(fulltext.terms(text))


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("分布式", "('分布' <-> '布式')"),
        ("机器学习", "('机器' <-> '器学' <-> '学习')"),
        ("并行", "'并行'"),
        ("分", "'分':*"),  # one CJK character: the bigrams starting with it
        ("AI", "'ai'"),  # a short Latin word: that whole word
        ("c#", "'c#'"),
        ("tensor", "'tensor':*"),  # a word of 3+ characters: a prefix
        ("C++", "'c++':*"),
        ("node.js", "('node' <-> 'js')"),
        ("client/server", "('client' <-> 'server')"),
        ("TensorFlow分布式", "'tensorflow':* & ('分布' <-> '布式')"),
        ("ai 平台 go", "'ai' & '平台' & 'go'"),
        ("it's", "('it' <-> 's')"),
        ("x:1&y|z", "('x' <-> '1' <-> 'y' <-> 'z')"),
        ("a\\b!c", "('a' <-> 'b' <-> 'c')"),
        ("@@@", None),  # nothing an index can look for: no candidate shown as matching
        ("ai @@@", None),
        ("", None),
        ("\U00020000" * 512, None),  # a word no document indexes (over 2 KB)
    ],
)
def test_query(query: str, expected: str | None) -> None:
    assert _query(query) == expected


def test_postgresql_reads_the_literals_as_written(request: pytest.FixtureRequest) -> None:
    """Quotes, backslashes, colons and `&|!()` in lexemes, in both literals."""
    import psycopg
    from support.pg_fixtures import fresh_pg_url

    url = fresh_pg_url(request)

    odd = ["it's", "a\\b", "x:1", "a & b | !(c)", "分布"]
    document = " ".join(f"{lexemes.quoted(w)}:{i}" for i, w in enumerate(odd, 1))
    with psycopg.connect(url) as conn:
        for word in odd:
            row = conn.execute(
                "SELECT %s::tsvector @@ %s::tsquery, %s::tsvector @@ %s::tsquery",
                [document, lexemes.quoted(word), document, lexemes.quoted(word + "x")],
            ).fetchone()
            assert row == (True, False), word
        lexemes_back = conn.execute(
            "SELECT array_agg(lexeme ORDER BY lexeme) FROM unnest(%s::tsvector)", [document]
        ).fetchone()
        assert lexemes_back is not None and sorted(lexemes_back[0]) == sorted(odd)
        # a phrase where the text has the words apart is not found
        row = conn.execute(
            "SELECT %s::tsvector @@ %s::tsquery, %s::tsvector @@ %s::tsquery",
            [
                lexemes.document("分布，布式"),
                _query("分布式"),
                lexemes.document("真正的分布式系统"),
                _query("分布式"),
            ],
        ).fetchone()
        assert row == (False, True)
