"""Every reply the bot can give, through `debrief ask` (the CLI in-process), in both languages:
it exits as it should, prints no traceback, and its text shows every word the reply's
blocks carry (headers, sections, context, buttons, overflow menus), in the asker's
language; the block kinds Slack has and the bot may send each render as words."""

from __future__ import annotations

import json
import os
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bot.cli import cli

SEEDS = Path(__file__).resolve().parent.parent / "seeds"

# twelve candidates for one position: a list in pages, a pick list longer than it shows
TESTER = "岗位：测试工程师 从业年限：{n}年\n问题1：如何设计用例？\n考察目标：测试思路\n回答：按等价类划分。\n点评：可以。\n"
# a verdict too long for one message: posted in parts, read privately with "continue"
LONG = "岗位：架构师 从业年限：9年\n问题1：谈谈缓存？\n考察目标：深度\n回答：多级缓存。\n点评：" + (
    "这位候选人对缓存一致性的理解很深入，能讲清楚取舍。" * 2500
)


@dataclass(frozen=True)
class Ran:
    """What one `debrief` command did: its exit code and what it printed."""

    returncode: int
    stdout: str
    stderr: str


def debrief(db: Path, *args: str, **env: str) -> Ran:
    """`debrief ARGS`, run in-process (click's CliRunner): the CLI's own code, exit code
    and output, without starting an interpreter for each of the 104 replies. A Python
    exception that escaped the CLI is printed as the traceback a process would show."""
    unset: dict[str, str | None] = {
        k: None for k in os.environ if k.startswith(("SLACK_", "DEBRIEF_"))
    }
    done = CliRunner().invoke(cli, list(args), env=unset | {"DEBRIEF_DB": str(db)} | env)
    stderr = done.stderr
    if done.exception is not None and not isinstance(done.exception, SystemExit):
        assert done.exc_info is not None
        stderr += "Traceback (most recent call last):\n" + "".join(
            traceback.format_exception(*done.exc_info)
        )
    return Ran(done.exit_code, done.stdout, stderr)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("replies")
    extra = folder / "t"
    extra.mkdir()
    for n in range(12):
        (extra / f"tester{n:02d}.txt").write_text(TESTER.format(n=n + 1), "utf-8")
    (extra / "long.txt").write_text(LONG, "utf-8")
    path = folder / "d.db"
    done = debrief(path, "index", str(SEEDS), str(extra))
    assert done.returncode == 0, done.stderr
    return path


# (what is typed in Chinese, in English, the exit code)
REPLIES = [
    ("", "", 0),  # nothing: the help, with a lead
    ("帮助", "help", 0),
    ("000", "000", 0),  # a name alone: the summary
    ("总结 000", "summary 000", 0),
    ("总结 long 全文", "summary long full", 0),
    ("未回答", "unanswered", 0),
    ("未回答 000", "unanswered 000", 0),
    ("点评 002", "verdict 002", 0),  # posted, with the decision buttons and the overflow menu
    ("点评 002 全文", "verdict 002 full", 0),
    ("点评 long", "verdict long", 0),  # posted in parts
    ("点评 long 全文", "verdict long full", 0),  # privately, five parts and "continue"
    ("问题 000 1", "question 000 1", 0),
    ("问题 000", "question 000", 1),
    ("问题 000 99", "question 000 99", 1),
    ("搜索 分布式", "search 分布式", 0),
    ("搜索 分布式 最新", "search 分布式 newest", 0),
    ("搜索", "search", 0),
    ("搜索 没有这个词的查询", "search nosuchwordanywhere", 0),
    ("列表", "list", 0),  # a page and the next-page button
    ("列表 测试工程师", "list 测试工程师", 0),
    ("列表 厨师", "list chef", 0),
    ("总结 nobody-at-all", "summary nobody-at-all", 1),
    ("总接 000", "summry 000", 1),
    ("总结", "summary", 1),
    ("0", "0", 1),  # a pick list
    ("测试工程师", "测试工程师", 1),  # a pick list longer than it shows
]
CASES = [(zh, 0, "zh") for zh, _en, _c in REPLIES] + [(en, 0, "en") for _zh, en, _c in REPLIES]
CODES = {("zh", zh): c for zh, _en, c in REPLIES} | {("en", en): c for _zh, en, c in REPLIES}


def words_of(value: Any) -> Iterator[str]:
    """Every piece of text a payload's blocks show: text objects' `text`, option labels."""
    if isinstance(value, dict):
        if value.get("type") in ("plain_text", "mrkdwn") and isinstance(value.get("text"), str):
            yield value["text"]
        for key, inner in value.items():
            if key not in ("value", "action_id", "block_id"):
                yield from words_of(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from words_of(inner)


def unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def ask_both(db: Path, typed: str, locale: str) -> tuple[Any, Any]:
    command = f"/candidate {typed}".strip()
    return (
        debrief(db, "ask", command, DEBRIEF_LOCALE=locale),
        debrief(db, "ask", command, "--json", DEBRIEF_LOCALE=locale),
    )


@pytest.fixture(scope="module")
def answers(db: Path) -> dict[tuple[str, str], tuple[Any, Any]]:
    """Every reply, asked once."""
    asked = [(locale, typed) for typed, _n, locale in CASES]
    return {(locale, typed): ask_both(db, typed, locale) for locale, typed in asked}


@pytest.mark.parametrize(("typed", "locale"), [(typed, loc) for typed, _n, loc in CASES])
def test_every_reply_prints_all_its_words(
    answers: dict[tuple[str, str], tuple[Any, Any]], typed: str, locale: str
) -> None:
    text, as_json = answers[(locale, typed)]
    code = CODES[(locale, typed)]
    assert text.returncode == code, text.stdout + text.stderr
    assert as_json.returncode == code, as_json.stderr
    assert "Traceback" not in text.stderr and "Traceback" not in as_json.stderr
    assert text.stdout.strip()
    payloads = json.loads(as_json.stdout)
    payloads = payloads if isinstance(payloads, list) else [payloads]
    for payload in payloads:
        for words in words_of(payload.get("blocks") or []):
            for line in unescape(words).splitlines():
                assert line.strip() in text.stdout, (line, text.stdout)
    posted = [p for p in payloads if p.get("response_type") == "in_channel"]
    if posted:
        assert ("已发到 C_CLI" if locale == "zh" else "posted in C_CLI") in text.stdout
    if locale == "zh":
        for english in ("posted in", "for everyone", "Post in channel", "Open]", "Pick one"):
            assert english not in text.stdout


def test_a_posted_verdict_shows_its_decisions_and_the_overflow_menu(
    answers: dict[tuple[str, str], tuple[Any, Any]],
) -> None:
    zh, _ = answers[("zh", "点评 002")]
    assert "[通过] [待定] [不通过] [⋯ 强烈推荐 / 强烈不推荐]" in zh.stdout
    assert zh.stdout.startswith("（已发到 C_CLI，所有人可见）")
    en, _ = answers[("en", "verdict 002")]
    assert "[hire] [hold] [no hire] [⋯ strong hire / strong no hire]" in en.stdout
    assert en.stdout.startswith("(posted in C_CLI for everyone)")


def test_a_long_private_verdict_ends_with_continue(
    answers: dict[tuple[str, str], tuple[Any, Any]],
) -> None:
    zh, as_json = answers[("zh", "点评 long 全文")]
    assert len(json.loads(as_json.stdout)) == 5
    assert "[继续（从第 6 部分起" in zh.stdout
    assert "（续 1/" in zh.stdout


def test_the_digest_renders(db: Path) -> None:
    for locale, title in (("zh", "每日招聘摘要"), ("en", "Daily hiring digest")):
        done = debrief(db, "digest", "--dry-run", DEBRIEF_LOCALE=locale)
        assert done.returncode == 0 and "Traceback" not in done.stderr
        assert title in done.stdout and "[" in done.stdout  # its buttons


@pytest.mark.parametrize("space", ["\u3000", "\u00a0", "\u2003", "\u205f", "\t", "\u3000\u3000"])
def test_every_unicode_space_is_a_space(db: Path, space: str) -> None:
    command = f"/candidate{space}总结{space}000"
    done = debrief(db, "ask", command)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "000_9e6b3ecb0732fcf3" in done.stdout
    full_width = debrief(db, "ask", f"／candidate{space}summary{space}000", DEBRIEF_LOCALE="en")
    assert full_width.returncode == 0 and "000_9e6b3ecb0732fcf3" in full_width.stdout


def test_another_command_is_refused_in_the_locale(db: Path) -> None:
    zh = debrief(db, "ask", "/foo 000")
    assert zh.returncode == 1 and zh.stderr == "错误：没有 /foo 这个命令：这里只回答 /candidate\n"
    en = debrief(db, "ask", "/foo 000", DEBRIEF_LOCALE="en")
    assert en.stderr == "Error: unknown command /foo: only /candidate is served\n"


def test_a_mistyped_subcommand_gets_the_suggestion_alone(db: Path) -> None:
    zh = debrief(db, "ask", "/candidate 总接 000")
    assert zh.returncode == 1
    assert zh.stdout.strip() == "你是想用 `/candidate 总结 000` 吗？"
    en = debrief(db, "ask", "/candidate summry 000", DEBRIEF_LOCALE="en")
    assert en.returncode == 1
    assert en.stdout.strip() == "Did you mean `/candidate summary 000`?"


def test_the_search_title_leaves_out_the_sort_word(db: Path) -> None:
    zh = json.loads(debrief(db, "ask", "/candidate 搜索 分布式 最新", "--json").stdout)
    assert zh["blocks"][0]["text"]["text"] == "搜索“分布式”（最新的在前）"
    en = debrief(db, "ask", "/candidate search 分布式 newest", "--json", DEBRIEF_LOCALE="en")
    blocks = json.loads(en.stdout)["blocks"]
    assert blocks[0]["text"]["text"] == "Search: “分布式” (newest first)"
    post = next(e for b in blocks if b["type"] == "actions" for e in b["elements"])
    assert json.loads(post["value"]) == {"v": "search", "q": "分布式 newest"}  # keeps the order


def test_every_block_and_element_kind_renders_as_its_words() -> None:
    """The kinds Slack shows, built with slack_sdk as the views build theirs, and the
    modals the bot opens: each renders, none crashes, every label is in the text."""
    from slack_sdk.models.blocks import (
        ActionsBlock,
        ButtonElement,
        ChannelSelectElement,
        CheckboxesElement,
        ContextBlock,
        ConversationSelectElement,
        DatePickerElement,
        DividerBlock,
        HeaderBlock,
        ImageBlock,
        ImageElement,
        InputBlock,
        MarkdownTextObject,
        Option,
        OptionGroup,
        OverflowMenuElement,
        PlainTextInputElement,
        PlainTextObject,
        RadioButtonsElement,
        SectionBlock,
        StaticMultiSelectElement,
        StaticSelectElement,
        TimePickerElement,
        UserSelectElement,
    )

    from bot.cli_slack import render_text
    from handlers.views.decide import Target, decide_modal
    from handlers.views.home import search_modal

    def opt(text: str) -> Option:
        return Option(value=text, text=PlainTextObject(text=text))

    blocks = [
        HeaderBlock(text="标题 &amp; <题>"),
        SectionBlock(
            text=MarkdownTextObject(text="正文"),
            fields=[MarkdownTextObject(text="字段一"), PlainTextObject(text="字段二")],
            accessory=ImageElement(image_url="https://x/y.png", alt_text="头像"),
        ),
        SectionBlock(
            text=MarkdownTextObject(text="选一个"),
            accessory=StaticSelectElement(
                placeholder="岗位", option_groups=[OptionGroup(label="组", options=[opt("前端")])]
            ),
        ),
        ContextBlock(
            elements=[
                ImageElement(image_url="https://x/a.png", alt_text="小图"),
                MarkdownTextObject(text="旁注"),
            ]
        ),
        ActionsBlock(
            elements=[
                ButtonElement(text="按钮", action_id="b"),
                OverflowMenuElement(action_id="o", options=[opt("甲"), opt("乙")]),
                StaticSelectElement(placeholder="选择", options=[opt("丙")], action_id="s"),
                StaticMultiSelectElement(placeholder="多选", options=[opt("丁")], action_id="m"),
                UserSelectElement(placeholder="评审人", action_id="u"),
                ConversationSelectElement(placeholder="会话", action_id="c"),
                ChannelSelectElement(placeholder="频道", action_id="ch"),
                DatePickerElement(placeholder="日期", action_id="d"),
                TimePickerElement(placeholder="时间", action_id="t"),
                CheckboxesElement(options=[opt("戊")], action_id="x"),
                RadioButtonsElement(options=[opt("己")], initial_option=opt("己"), action_id="r"),
            ]
        ),
        DividerBlock(),
        ImageBlock(image_url="https://x/z.png", alt_text="截图", title="图表"),
        InputBlock(label="备注", element=PlainTextInputElement(placeholder="写点什么")),
    ]
    payload = {"blocks": [b.to_dict() for b in blocks]}
    payload["blocks"].append({"type": "unknown_future_kind", "text": 3})
    payload["blocks"].append(
        {
            "type": "rich_text",
            "elements": [
                {"type": "rich_text_section", "elements": [{"type": "text", "text": "富文本"}]}
            ],
        }
    )
    text = render_text(payload)
    for word in (
        "== 标题 & <题> ==",
        "正文",
        "字段一",
        "字段二",
        "[头像]",
        "[岗位 ▾: 前端]",
        "[小图] · 旁注",
        "[按钮] [⋯ 甲 / 乙] [选择 ▾: 丙] [多选 ▾: 丁] [评审人 ▾] [会话 ▾] [频道 ▾]",
        "[日期 ▾] [时间 ▾] [ ] 戊 (•) 己",
        "[图表]",
        "备注: [写点什么]",
        "富文本",
    ):
        assert word in text, (word, text)
    assert render_text({"text": "只有文字"}) == "只有文字"
    modal = render_text(decide_modal(Target("000", "C1", "1.2"), "000", "hire", None, "zh"))
    assert "(•) 通过" in modal and "备注（可选）: [____]" in modal
    assert "关键词（回车搜索）: [分布式]" in render_text(search_modal("分布式", [], "zh"))
