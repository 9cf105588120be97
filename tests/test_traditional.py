"""繁體 and 简体 alike (issue 36): a transcript written in traditional characters is read
exactly as its simplified twin, every fact the same, its text kept as written. The seeds
are converted here with OpenCC (s2t, s2tw, s2hk); a hand-written 繁體 file uses every
label; each label alternative, numbered form and value word of the grammar (years,
dates, names, numerals, thread replies) is checked in both scripts; and the file goes
through `debrief index` / `show --json` on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import opencc
import pytest
from support.cli import debrief as run_debrief

from store.models import Transcript
from store.transcripts.dates import parse_interview_date
from store.transcripts.labels import (
    FIELD_LABELS,
    IDENTITY_LABELS,
    identity_kind,
    label_kind,
    match_field,
    match_identity,
    question_re,
)
from store.transcripts.names import says_nothing, split_names
from store.transcripts.numerals import CN_NUMERALS, parse_question_number
from store.transcripts.parser import parse_transcript
from store.transcripts.reviews import parse_decision, parse_followup
from store.transcripts.years import parse_years

ROOT = Path(__file__).resolve().parent.parent
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))
CONFIGS = ("s2t", "s2tw", "s2hk")
TEXT_FIELDS = ["position", "years_text", "intro", "summary", "verdict", "name", "round"]
TEXT_FIELDS += ["interviewed_at_text"]
FACTS = ("years", "interviewed_at", "kind")


@cache
def converter(config: str) -> Callable[[str], str]:
    convert: Callable[[str], str] = opencc.OpenCC(config).convert
    return convert


def parse(text: str) -> Transcript:
    return parse_transcript(text.encode("utf-8"), "x.txt")


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("seed", SEEDS, ids=lambda p: p.stem[:3])
def test_each_seed_in_traditional_characters_gives_the_same_facts_as_written(
    seed: Path, config: str
) -> None:
    convert = converter(config)
    plain = seed.read_text("utf-8")
    simplified, traditional = parse(plain), parse(convert(plain))
    assert convert(plain) != plain  # the test converts something
    for fact in FACTS:
        assert getattr(traditional, fact) == getattr(simplified, fact), fact
    for field in TEXT_FIELDS:  # the values as the file wrote them, not converted back
        want = getattr(simplified, field)
        assert getattr(traditional, field) == (want if want is None else convert(want)), field
    assert traditional.interviewers == [convert(n) for n in simplified.interviewers]
    assert len(traditional.questions) == len(simplified.questions) > 0
    for mine, theirs in zip(traditional.questions, simplified.questions, strict=True):
        assert (mine.number, mine.answered, mine.unanswered_reason, mine.started_at) == (
            theirs.number,
            theirs.answered,
            theirs.unanswered_reason,
            theirs.started_at,
        )
        assert (mine.question, mine.goal, mine.answer) == (
            convert(theirs.question),
            convert(theirs.goal),
            convert(theirs.answer),
        )


TRADITIONAL = """\
後端工程師面試記錄
候選人：陳大文
面試官：張三與李四
面試日期：2026年11月28日 下午2點30分（週六）
輪次：二面
崗位：後端工程師 從業年限：兩年
簡介：熟悉 Go 與分散式系統，做過訊息佇列。
問題1：講講 Kafka 的分區？
考察目標：訊息佇列的理解
回答：分區是並行的單位，每個分區內有序。
第二題：Raft 的選舉怎麼做？
考察點：共識演算法
回答：不知道
問題（三）：說說你最難忘的專案。
考察目標：專案經驗
回答：
點評：基礎紮實，溝通清楚，建議通過。
"""


def test_a_hand_written_traditional_file_gives_every_field_as_written() -> None:
    t = parse(TRADITIONAL)
    assert t.name == "陳大文"
    assert t.interviewers == ["張三", "李四"]
    assert t.interviewed_at == "2026-11-28T14:30"
    assert t.interviewed_at_text == "2026年11月28日 下午2點30分（週六）"
    assert t.round == "二面"
    assert (t.position, t.years, t.years_text) == ("後端工程師", 2, "兩年")
    assert t.intro == "熟悉 Go 與分散式系統，做過訊息佇列。"
    assert "面試記錄" not in t.summary  # a title, as in 简体
    assert [q.number for q in t.questions] == [1, 2, 3]
    assert [q.question for q in t.questions] == [
        "講講 Kafka 的分區？",
        "Raft 的選舉怎麼做？",
        "說說你最難忘的專案。",
    ]
    assert [q.goal for q in t.questions] == ["訊息佇列的理解", "共識演算法", "專案經驗"]
    assert t.questions[0].answer == "分區是並行的單位，每個分區內有序。"
    assert [q.answered for q in t.questions] == [True, False, False]
    assert [q.unanswered_reason for q in t.questions] == [None, "dont_know", "empty"]
    assert t.verdict == "基礎紮實，溝通清楚，建議通過。"
    # and it is the same transcript as its simplified twin, fact for fact
    twin = parse(converter("t2s")(TRADITIONAL))
    assert (twin.years, twin.interviewed_at, len(twin.questions)) == (2, t.interviewed_at, 3)
    assert [q.unanswered_reason for q in twin.questions] == [None, "dont_know", "empty"]


@pytest.mark.parametrize("kind", list(FIELD_LABELS))
def test_every_label_in_traditional_characters_is_the_same_label(kind: str) -> None:
    for config in CONFIGS:
        for word in FIELD_LABELS[kind]:  # type: ignore[index]
            label = converter(config)(word)
            for layout in ("{}：值 崗位", "【{}】值 崗位", "**{}** 值 崗位", "| {} | 值 崗位 |"):
                line = layout.format(label)
                m = match_field(line)
                assert m is not None and label_kind(m) == kind, line
                assert m.group(kind) == label and m.group("rest") == "值 崗位", line


@pytest.mark.parametrize("kind", list(IDENTITY_LABELS))
def test_every_who_and_when_label_in_traditional_characters(kind: str) -> None:
    for config in CONFIGS:
        for word in IDENTITY_LABELS[kind]:  # type: ignore[index]
            line = converter(config)(f"{word}：陈大文")
            m = match_identity(line)
            assert m is not None and identity_kind(m) == kind, line
            assert m.group("rest") == line[-3:], line


@pytest.mark.parametrize(
    ("line", "number", "rest"),
    [
        ("問題1：什麼是閉包？", "1", "什麼是閉包？"),
        ("問題（一）：什麼是閉包？", "一", "什麼是閉包？"),
        ("第一題：什麼是閉包？", "一", "什麼是閉包？"),
        ("第兩題 什麼是閉包？", "兩", "什麼是閉包？"),
        ("問題十二、講講協程", "十二", "講講協程"),
        ("第3問：講講協程", "3", "講講協程"),
        ("## 問題 2", "2", ""),
    ],
)
def test_numbered_questions_in_traditional_characters(line: str, number: str, rest: str) -> None:
    m = question_re().match(line)
    assert m is not None, line
    found = next(g for g in ("n1", "n2", "n3", "n4", "n5") if m.group(g))
    assert (m.group(found), m.group("rest")) == (number, rest)
    assert parse_question_number(number) is not None


def test_every_numeral_has_its_traditional_form() -> None:
    for config in CONFIGS:
        assert set(converter(config)(CN_NUMERALS)) <= set(CN_NUMERALS)
    assert parse_question_number("兩") == 2 and parse_question_number("二十兩") == 22


YEARS = [
    ("兩年", 2.0),
    ("應屆", 0.0),
    ("應屆生", 0.0),
    ("十年以上", 10.0),
    ("三年六個月", 3.5),
    ("一年半", 1.5),
    ("工作經驗約五年", None),  # as in 简体: `工作经验约五年` is no value the grammar reads
    ("不到1年", None),
    ("無經驗", 0.0),
]


def test_years_in_traditional_characters() -> None:
    for text, years in YEARS:
        assert parse_years(converter("t2s")(text)) == years, text
        assert parse_years(text) == years, text


DATES = [
    ("2026年11月28日 下午2點", "2026-11-28T14:00"),
    ("2026年11月28日 上午10點半", "2026-11-28T10:30"),
    ("2026-11-28（週六）", "2026-11-28"),
    ("2026-11-28 禮拜六 晚上8點", "2026-11-28T20:00"),
    ("2026-11-28（週五）", None),  # the weekday does not fall on the date
]


def test_dates_in_traditional_characters() -> None:
    for text, iso in DATES:
        assert parse_interview_date(text) == iso, text
        assert parse_interview_date(converter("t2s")(text)) == iso, text


def test_names_in_traditional_characters_are_kept_as_written() -> None:
    assert split_names("張三與李四") == ["張三", "李四"]
    assert split_names("張三 與 李四、王五") == ["張三", "李四", "王五"]
    assert split_names("张三与李四") == ["张三", "李四"]
    assert split_names("與李四") == ["與李四"]  # not a list of names: a name as written
    assert all(says_nothing(v) for v in ("無", "暫無", "不詳", "待補充", "待填寫"))
    assert not says_nothing("陳大文")


REPLIES = [
    ("通過，基礎紮實", "hire"),
    ("不通過：專案經驗不足", "no_hire"),
    ("強烈推薦", "strong_hire"),
    ("強烈不推薦。", "strong_no_hire"),
    ("待定", "hold"),
    ("通過率不高", None),
    ("問題2：補充", None),
]


def test_thread_replies_in_traditional_characters() -> None:
    for reply, decision in REPLIES:
        assert parse_decision(reply) == decision, reply


def test_follow_ups_in_traditional_characters_keep_the_answer_as_written() -> None:
    assert parse_followup("問題2：候選人會後補充了參數伺服器的區別。") == (
        2,
        "候選人會後補充了參數伺服器的區別。",
    )
    assert parse_followup("<@U1> 問題兩：補充說明") == (2, "補充說明")
    assert parse_followup("問題十二、補充") == (12, "補充")


# -- through the command line, on both backends --------------------------------------------


@pytest.mark.both_backends
def test_debrief_index_and_show_read_a_traditional_file(db_target: str, tmp_path: Path) -> None:
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "chan.txt").write_text(TRADITIONAL, "utf-8")
    (folder / "twin.txt").write_text(converter("t2s")(TRADITIONAL), "utf-8")
    env = {"DEBRIEF_DB": db_target}
    done = run_debrief("index", str(folder), "--json", env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    shown: dict[str, Any] = {}
    for cid in ("chan", "twin"):
        ran = run_debrief("show", cid, "--json", env=env, cwd=ROOT)
        assert ran.returncode == 0, ran.stderr
        shown[cid] = json.loads(ran.stdout)
    mine, twin = shown["chan"], shown["twin"]
    assert (mine["name"], mine["position"], mine["years"]) == ("陳大文", "後端工程師", 2)
    assert mine["interviewers"] == ["張三", "李四"]
    assert mine["interviewed_at"] == twin["interviewed_at"] == "2026-11-28T14:30"
    assert mine["round"] == "二面" and mine["verdict"] == "基礎紮實，溝通清楚，建議通過。"
    assert [q["answered"] for q in mine["questions"]] == [True, False, False]
    assert [q["answered"] for q in twin["questions"]] == [True, False, False]
