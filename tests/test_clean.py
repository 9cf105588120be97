"""Text from Slack is cleaned once, at the edge (handlers/clean.py): the pure function."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handlers.clean import clean, clean_text


@pytest.mark.parametrize(
    ("raw", "cleaned"),
    [
        ("通过 — 基础扎实", "通过 — 基础扎实"),
        ("a\ud800b", "a\ufffdb"),  # a lone high surrogate
        ("a\udc00b", "a\ufffdb"),  # a lone low surrogate
        ("\udc00\ud800", "\ufffd\ufffd"),  # the wrong way round: two lone ones
        ("\ud83d\ude00", "😀"),  # a pair split into two code points is joined again
        ("😀", "😀"),
        ("hi\x00re\x01\x08\x0b\x0c\x0e\x1f!", "hire!"),
        ("tab\tnew\nline\r\n", "tab\tnew\nline\r\n"),  # kept
        ("\x7f\u200b\ufeff", "\x7f\u200b\ufeff"),  # not C0: kept
        ("", ""),
    ],
)
def test_clean_text(raw: str, cleaned: str) -> None:
    assert clean_text(raw) == cleaned


def test_clean_walks_a_whole_body_keys_included() -> None:
    body = json.loads(
        '{"event": {"text": "hire \\ud800", "blocks": [{"x\\u0000": ["a\\u0000b", 1, null]}]},'
        ' "ok": true, "n": 2.5}'
    )
    assert clean(body) == {
        "event": {"text": "hire \ufffd", "blocks": [{"x": ["ab", 1, None]}]},
        "ok": True,
        "n": 2.5,
    }


def test_clean_gives_back_the_same_object_when_nothing_changes() -> None:
    body = {"event": {"text": "通过", "list": ["a", 1]}, "type": "event_callback"}
    assert clean(body) is body
    dirty = {"keep": {"text": "ok"}, "fix": "a\x00"}
    cleaned = clean(dirty)
    assert cleaned == {"keep": {"text": "ok"}, "fix": "a"}
    assert isinstance(cleaned, dict) and cleaned["keep"] is dirty["keep"]
    assert dirty["fix"] == "a\x00"  # the input is left as it was


@given(st.text())
def test_cleaned_text_is_always_storable(text: str) -> None:
    cleaned = clean_text(text)
    cleaned.encode("utf-8")  # never a lone surrogate
    assert not any(ord(c) < 0x20 and c not in "\t\n\r" for c in cleaned)
    assert clean_text(cleaned) == cleaned
