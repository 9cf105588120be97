"""What Slack is told, in the team's language: the real app over HTTP, signed as Slack
signs, answering through the strict fake Web API, on both backends and in both locales.

A mistyped subcommand gets the suggestion alone; a search says what it matched, a phrase
found only in part says so, and its title leaves out the sort word; a shared file that
gives no transcript is answered with why and what to do, in the team's words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.fake_slack import FakeSlack
from support.slackbot import Bot, all_text, start_bot
from support.web_api import FakeFile
from test_uploads import reply_to, share

from store.indexer import index_paths

pytestmark = pytest.mark.both_backends

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


@pytest.fixture(params=["zh", "en"])
def speaking(
    request: pytest.FixtureRequest, fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> Iterator[Bot]:
    bot = start_bot(fake_slack, db_target, uploads=str(tmp_path / "up"), locale=request.param)
    assert not index_paths(bot.store, [SEEDS]).failed
    try:
        yield bot
    finally:
        bot.server.stop()


def ask(bot: Bot, text: str, name: str) -> dict[str, object]:
    assert bot.command(text, name=name)[0] == 200
    [reply] = bot.replies(name)
    return reply


def test_a_mistyped_subcommand_is_answered_with_the_suggestion_alone(speaking: Bot) -> None:
    zh = speaking.settings.locale == "zh"
    reply = ask(speaking, "总接 000" if zh else "summry 000", "typo")
    expected = (
        "你是想用 `/candidate 总结 000` 吗？" if zh else "Did you mean `/candidate summary 000`?"
    )
    assert [b["type"] for b in reply["blocks"]] == ["section"]  # type: ignore[union-attr]
    assert reply["blocks"][0]["text"]["text"] == expected  # type: ignore[index]
    assert "help" not in all_text(reply) and "帮助" not in all_text(reply)


def test_a_phrase_found_only_in_part_says_so(speaking: Bot) -> None:
    zh = speaking.settings.locale == "zh"
    reply = ask(speaking, "搜索 图优化" if zh else "search 图优化", "part")
    sections = [b["text"]["text"] for b in reply["blocks"] if b["type"] == "section"]  # type: ignore[union-attr,index]
    whole = [s for s in sections if s.startswith("*002_")]
    partly = [s for s in sections if not s.startswith("*002_")]
    assert whole and partly
    mark = "部分匹配：只有 优化" if zh else "partly matched: only 优化"
    assert mark not in whole[0]  # 002 holds 图优化 itself
    assert all(s.endswith(mark) for s in partly)  # the others only 优化


def test_the_search_title_is_the_words_searched_for(speaking: Bot) -> None:
    zh = speaking.settings.locale == "zh"
    reply = ask(speaking, "搜索 分布式 最新" if zh else "search 分布式 newest", "title")
    title = reply["blocks"][0]["text"]["text"]  # type: ignore[index]
    assert title == ("搜索“分布式”（最新的在前）" if zh else "Search: “分布式” (newest first)")


@pytest.mark.parametrize(
    ("file", "zh", "en"),
    [
        (
            FakeFile("S1", "photo.png", b"\x89PNG....", mimetype="image/png"),
            "这不是面试记录：不是文字文件（image/png）：请把面试记录存为 .docx、.txt 或 .md 再分享",
            "Not a transcript: not a text file (image/png): share the transcript as .docx, .txt"
            " or .md",
        ),
        (
            FakeFile("S2", "broken.txt", "岗位：后端\n问题1：x\n\x00回答".encode()),
            "无法读取这份面试记录（第 3 行）：二进制文件，不是文本（含 NUL 字节）："
            "如果它是面试记录，请另存为 .docx、.txt 或 .md",
            "Cannot read this transcript (line 3): binary file, not text (a NUL byte): if it is"
            " a transcript, save it as .docx, .txt or .md",
        ),
        (
            FakeFile("S3", "notes.md", b"# Notes\nnothing to see here\n"),
            "这不是面试记录：没有“岗位”“问题N”“点评”这些标签（如果它是面试记录，请写上这些标签）",
            "Not a transcript: none of the labels 岗位, 问题N, 点评 (if it is a transcript, give"
            " it those labels)",
        ),
        (
            FakeFile("S4", "empty.txt", b"\n\n"),
            "无法读取这份面试记录：空文件：写入面试记录后再收录",
            "Cannot read this transcript: empty file: write the transcript in it, then index it",
        ),
    ],
    ids=["picture", "nul byte", "no labels", "empty"],
)
def test_a_file_that_is_no_transcript_is_answered_in_the_team_s_language(
    speaking: Bot, file: FakeFile, zh: str, en: str
) -> None:
    ts = share(speaking, file)
    assert reply_to(speaking, ts)["text"] == (zh if speaking.settings.locale == "zh" else en)
