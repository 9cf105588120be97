"""The command line, consistent: exit codes, paging, --since, and text in DEBRIEF_LOCALE.

Every case runs `debrief` (the CLI in-process) on an indexed copy of the seeds."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from support.cli import Ran
from support.cli import debrief as run_debrief

from bot.ops import parse_since


def debrief(db: Path, *args: str, **env: str) -> Ran:
    return run_debrief(*args, env={"DEBRIEF_DB": str(db)} | env)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "d.db"
    seeds = Path(__file__).resolve().parent.parent / "seeds"
    done = debrief(path, "index", str(seeds))
    assert done.returncode == 0, done.stderr
    return path


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ("/candidate 总结 000", 0),
        ("/candidate summary 002", 0),
        ("/candidate 搜索 分布式", 0),
        ("/candidate 搜索 没有这个词的查询", 0),  # no matches is still an answer
        ("/candidate 列表", 0),
        ("/candidate help", 0),
        ("/candidate 总结 nobody-at-all", 1),  # unknown candidate
        ("/candidate 总结 0", 1),  # ambiguous: a pick list
        ("/candidate 问题 000", 1),  # which question?
        ("/candidate 问题 000 99", 1),  # no such question
        ("/candidate 总结", 1),  # who?
    ],
)
def test_ask_exit_code_says_whether_it_answered(db: Path, command: str, code: int) -> None:
    done = debrief(db, "ask", command)
    assert done.returncode == code, done.stdout + done.stderr
    assert done.stdout.strip()  # the reply is printed either way
    as_json = debrief(db, "ask", command, "--json")
    assert as_json.returncode == code
    json.loads(as_json.stdout)


def test_list_limit_and_offset(db: Path) -> None:
    everyone = json.loads(debrief(db, "list", "--json").stdout)
    assert len(everyone) == 4
    page = json.loads(debrief(db, "list", "--json", "--limit", "2", "--offset", "1").stdout)
    assert [r["id"] for r in page] == [r["id"] for r in everyone[1:3]]
    text = debrief(db, "list", "--limit", "2").stdout
    assert "--offset 2" in text  # says how to see the rest
    assert debrief(db, "list", "--limit", "0").returncode == 2


def test_list_of_an_unknown_position_says_so(db: Path) -> None:
    zh = debrief(db, "list", "厨师")
    assert zh.returncode == 0 and "厨师" in zh.stdout and "还没有候选人" not in zh.stdout
    en = debrief(db, "list", "chef", DEBRIEF_LOCALE="en")
    assert "chef" in en.stdout and "no candidates yet" not in en.stdout


def test_chinese_output_has_no_english_words(db: Path) -> None:
    for args in (
        ["show", "000"],
        ["list"],
        ["search", "分布式"],
        ["index", str(db.parent)],
        ["stats"],
        ["audit", "--since", "2999-01-01"],
    ):
        out = debrief(db, *args).stdout
        assert out.strip()
        for word in (
            "questions",
            "unanswered",
            "source:",
            "indexed",
            "no matches",
            "candidates",
            "never",
            "no audit",
        ):
            assert word not in out, (args, word)
    show = debrief(db, "show", "000").stdout
    assert "问题1：" in show and "回答：" in show and "点评：" in show and "来源：" in show
    assert not re.search(r"[\u4e00-\u9fff]: ", show)  # no ASCII colon after Chinese


def test_english_output_is_english(db: Path) -> None:
    show = debrief(db, "show", "000", DEBRIEF_LOCALE="en").stdout
    assert "Q1:" in show and "Answer:" in show and "Verdict:" in show and "Source:" in show
    assert "回答：" not in show and "点评：" not in show
    listing = debrief(db, "list", DEBRIEF_LOCALE="en").stdout
    assert "questions" in listing and "unanswered" in listing


def test_audit_since_takes_relative_times(db: Path) -> None:
    assert debrief(db, "ask", "/candidate 总结 000").returncode == 0
    conn = sqlite3.connect(db)
    old = (datetime.now(UTC) - timedelta(days=10)).isoformat(timespec="microseconds")
    conn.execute(
        "INSERT INTO audit (at, actor, action, candidate_id, channel)"
        " VALUES (?, 'U_OLD', 'lookup:summary', NULL, 'C1')",
        [old],
    )
    conn.commit()
    conn.close()
    every = json.loads(debrief(db, "audit", "--json").stdout)
    week = json.loads(debrief(db, "audit", "--since", "7d", "--json").stdout)
    day = json.loads(debrief(db, "audit", "--since", "24h", "--json").stdout)
    yesterday = json.loads(debrief(db, "audit", "--since", "yesterday", "--json").stdout)
    assert any(e["who"] == "U_OLD" for e in every)
    for recent in (week, day, yesterday):
        assert recent and all(e["who"] != "U_OLD" for e in recent)
    bad = debrief(db, "audit", "--since", "last tuesday-ish")
    assert bad.returncode == 2 and "7d" in bad.stderr


def test_parse_since_forms() -> None:
    shanghai = ZoneInfo("Asia/Shanghai")
    now = datetime(2026, 11, 29, 1, 0, tzinfo=UTC)  # 09:00 in Shanghai
    assert parse_since("7d", shanghai, now) == "2026-11-22T01:00:00.000000+00:00"
    assert parse_since("24h", shanghai, now) == "2026-11-28T01:00:00.000000+00:00"
    # yesterday starts at midnight in Shanghai, which is 16:00 UTC the day before
    assert parse_since("yesterday", shanghai, now) == "2026-11-27T16:00:00.000000+00:00"
    assert parse_since("today", shanghai, now) == "2026-11-28T16:00:00.000000+00:00"
    assert parse_since("2026-11-30", shanghai, now) == "2026-11-30"


@pytest.mark.parametrize(
    ("word", "meant"),
    [
        ("总接", "总结"),
        ("未回达", "未回答"),
        ("summry", "summary"),
        ("serach", "search"),
        ("unanswerd", "unanswered"),
        ("总结", None),  # already a subcommand
        ("王磊", None),
        ("000", None),
        ("视频开发工程师", None),
        ("x", None),
    ],
)
def test_suggest_subcommand(word: str, meant: str | None) -> None:
    from handlers.commands import suggest_subcommand

    assert suggest_subcommand(word) == meant


def test_a_mistyped_subcommand_gets_a_suggestion(db: Path) -> None:
    zh = debrief(db, "ask", "/candidate 总接 王磊")
    assert zh.returncode == 1 and "你是想用 `/candidate 总结 王磊` 吗？" in zh.stdout
    en = debrief(db, "ask", "/candidate summry 000", DEBRIEF_LOCALE="en")
    assert en.returncode == 1 and "Did you mean `/candidate summary 000`?" in en.stdout
    plain = debrief(db, "ask", "/candidate 王磊")
    assert plain.returncode == 1 and "你是想用" not in plain.stdout


def test_slack_list_of_an_unknown_position_says_so(db: Path) -> None:
    done = debrief(db, "ask", "/candidate 列表 厨师")
    assert done.returncode == 0
    assert "没有岗位为“厨师”的候选人" in done.stdout and "还没有候选人" not in done.stdout


def test_forget_speaks_the_locale(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    assert debrief(db, "backup", str(copy)).returncode == 0
    zh = debrief(copy, "forget", "000_9e6b3ecb0732fcf3")
    assert zh.returncode == 0 and "已忘记" in zh.stdout and "questions" not in zh.stdout
    en = debrief(copy, "forget", "002_72ee0a76eea41e0e", DEBRIEF_LOCALE="en")
    assert en.returncode == 0 and "forgot 002_72ee0a76eea41e0e" in en.stdout
