"""Slack views show the facts the parser keeps: years like 1.5, and why each question
is unanswered (未作答 / 跳过 / 不会), as tables: transcript -> text in the view."""

from __future__ import annotations

import json

import pytest

from handlers.i18n import Locale
from handlers.views.cards import summary_view
from handlers.views.replies import question_views, unanswered_view
from store.models import Candidate, Followup
from store.transcripts.parser import parse_transcript

TEXT = """岗位：SRE
从业年限：1年半
问题1：a？
回答：会，用 epoll。
问题2：b？
回答：不知道
问题3：c？
回答：（跳过）
问题4：d？
回答：
点评：好
"""


def candidate(text: str = TEXT, **extra: object) -> Candidate:
    t = parse_transcript(text.encode(), "x.txt")
    return Candidate(**t.model_dump(), **extra)  # type: ignore[arg-type]


def shown(blocks: list[dict[str, object]]) -> str:
    return json.dumps(blocks, ensure_ascii=False)


@pytest.mark.parametrize(
    ("locale", "years", "numbers"),
    [
        ("zh", "1.5 年经验", "问题2（不会）：b？\\n• 问题3（跳过）：c？\\n• 问题4（未作答）：d？"),
        ("en", "1.5 yrs", "Q2 (didn't know): b？\\n• Q3 (skipped): c？\\n• Q4 (unanswered): d？"),
    ],
)
def test_summary_shows_years_and_why(locale: Locale, years: str, numbers: str) -> None:
    text = shown(summary_view(candidate(), locale).blocks)
    assert years in text and numbers in text


@pytest.mark.parametrize(
    ("locale", "lines"),
    [
        ("zh", ["问题 2* (不会)", "问题 3* (跳过)", "问题 4* (未作答)"]),
        ("en", ["Question 2* (didn't know)", "Question 3* (skipped)", "Question 4* (unanswered)"]),
    ],
)
def test_unanswered_view_says_why_beside_each_question(locale: Locale, lines: list[str]) -> None:
    text = shown([b for m in unanswered_view(candidate(), locale) for b in m.blocks])
    for line in lines:
        assert line in text
    assert "问题 1*" not in text and "Question 1*" not in text


def test_question_view_says_what_an_answer_like_不知道_means() -> None:
    c = candidate()
    text = shown(question_views(c, c.questions[1], "zh")[0].blocks)
    assert "*回答* (不会)" in text and "不知道" in text
    answered = shown(question_views(c, c.questions[0], "zh")[0].blocks)
    assert "(不会)" not in answered and "(未作答)" not in answered


def test_a_followup_answer_drops_the_reason() -> None:
    c = candidate(followups=[Followup(number=2, answer="其实知道", reviewer="U1", ts="1.0")])
    text = shown(summary_view(c, "zh").blocks)
    assert "2（不会）" not in text and "3（跳过）" in text


def test_unknown_years_show_what_the_file_said() -> None:
    text = shown(summary_view(candidate(TEXT.replace("1年半", "不到1年")), "zh").blocks)
    assert "不到1年" in text and "年限未知" not in text
    text = shown(summary_view(candidate(TEXT.replace("1年半", "")), "zh").blocks)
    assert "年限未知" in text
