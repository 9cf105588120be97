"""The summary card in Slack leads with who and when: `/candidate` over signed HTTP against
the strict fake Slack, on SQLite and PostgreSQL. The header is name (or id) · position ·
round · date, the id appears once, small; interviewers are named as written; unanswered
questions show their first words; no decisions says so; the card fits a phone screen,
the rest one click away. Names resolve as ids do, with a pick list that tells two
interviews apart; lists, the digest and the Home tab show name and date."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.fake_slack import FakeSlack
from support.slackbot import Bot, all_text, buttons, find_button, start_bot
from test_home import lines, open_home, section_of

from bot.app import web_client
from bot.digest import Digester
from store.indexer import index_paths

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
SEED_IDS = sorted(p.stem for p in SEEDS.glob("*.txt"))

BODY = """岗位：数据工程师
从业年限：3年
简介：写 Go 和 Flink 的人。做过三年实时数仓。
问题1：讲讲 Kafka 的分区？
考察目标：消息队列
回答：分区是并行的单位。
问题2：Flink 的 checkpoint 是怎么做到精确一次的？
考察目标：流处理
回答：
问题3：How would you size a Kafka cluster for ten thousand messages a second?
回答：跳过
点评：基础扎实，建议通过。
"""
ZHANG = "姓名：张三\n面试官：李四、王五、R&D老张\n面试日期：2026年11月28日 14:30\n轮次：二面\n"


def write(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, "utf-8")


def index(bot: Bot, folder: Path, files: dict[str, str]) -> None:
    write(folder, files)
    result = index_paths(bot.store, [folder])
    assert not result.failed and not result.skipped


def visible(message: dict[str, Any]) -> list[str]:
    """The texts Slack shows of a message's blocks: headers, sections, context lines,
    button labels (not the fallback `text`, not button values)."""
    out: list[str] = []
    for block in message["blocks"]:
        kind = block["type"]
        if kind in ("header", "section"):
            if block.get("text"):
                out.append(block["text"]["text"])
            out += [f["text"] for f in block.get("fields") or []]
            if block.get("accessory", {}).get("type") == "button":
                out.append(block["accessory"]["text"]["text"])
        elif kind == "context":
            out += [e["text"] for e in block["elements"] if "text" in e]
        elif kind == "actions":
            out += [e["text"]["text"] for e in block["elements"] if e.get("text")]
    return out


def head(message: dict[str, Any]) -> tuple[str, str]:
    """The card's header and the context line under it."""
    first, second = message["blocks"][:2]
    assert first["type"] == "header" and second["type"] == "context"
    return first["text"]["text"], " ".join(e["text"] for e in second["elements"])


def ask(bot: Bot, text: str, name: str = "cmd") -> dict[str, Any]:
    bot.command(text, name=name)
    [reply] = bot.replies(name)
    return reply


def test_the_card_leads_with_who_and_when(bot: Bot, tmp_path: Path) -> None:
    index(bot, tmp_path / "t", {"zhang.txt": ZHANG + BODY})
    card = ask(bot, "张三")
    header, context = head(card)
    assert header == "张三 · 数据工程师 · 二面 · 2026-11-28 14:30"
    # the id once, small; the interviewers as written, escaped, never a mention
    assert context == "3 年经验 · 面试官：李四、王五、R&amp;D老张 · zhang"
    text = "\n".join(visible(card))
    assert text.count("zhang") == 1 and "<@" not in text
    for fact in ("张三", "数据工程师", "二面", "2026-11-28", "李四", "3 年经验"):
        assert text.count(fact) == 1, fact  # each fact once
    # unanswered: the number, why, and the first words of the question
    assert "• 问题2（未作答）：Flink 的 checkpoint 是怎么做到精确一次的？" in text
    assert "• 问题3（跳过）：How would you size a Kafka cluster for…" in text
    assert "还没有结论。" in text
    assert "姓名" not in text and "面试日期" not in text  # the header lines are no summary


def test_the_card_in_english_and_once_decided(
    fake_slack: FakeSlack, db_target: str, tmp_path: Path
) -> None:
    english = start_bot(fake_slack, db_target, uploads=str(tmp_path / "up"), locale="en")
    try:
        index(english, tmp_path / "t", {"zhang.txt": ZHANG + BODY})
        card = ask(english, "summary 张三")
        header, context = head(card)
        assert header == "张三 · 数据工程师 · 二面 · 2026-11-28 14:30"
        assert context == "3 yrs · Interviewers: 李四, 王五, R&amp;D老张 · zhang"
        text = "\n".join(visible(card))
        assert "• Q2 (unanswered): Flink 的 checkpoint 是怎么做到精确一次的？" in text
        assert "No decisions yet." in text
        english.store.record_post("C123", "100.1", "zhang", "verdict")
        english.store.record_reply("C123", "200.1", "100.1", "zhang", "U1", "hire: solid")
        decided = "\n".join(visible(ask(english, "summary zhang", name="again")))
        assert "No decisions yet." not in decided and "1 hire" in decided
    finally:
        english.server.stop()


@pytest.mark.parametrize("seed", SEED_IDS)
def test_each_seed_card_fits_a_phone_screen(bot: Bot, seed: str) -> None:
    card = ask(bot, f"总结 {seed}")
    text = visible(card)
    assert sum(len(t) for t in text) <= 1200, "\n".join(text)
    header, context = head(card)
    c = bot.store.get_candidate(seed)
    assert c is not None
    assert header == f"{seed} · {c.position}"  # no name in the seeds: the id stands for it
    assert seed not in context  # the id once: in the header
    assert "\n".join(text).count(seed) == 1
    assert "还没有结论。" in text
    if len(c.summary) <= 200:  # a short summary is shown whole
        assert c.summary in "\n".join(text)
        return
    assert c.summary not in "\n".join(text)  # not inline in full: one click away
    full = find_button(card, "open_view:1")
    assert json.loads(full["value"]) == {"v": "full", "id": seed}
    bot.click(card, full["action_id"], name="full")
    shown = "".join(all_text(m) for m in bot.replies("full"))
    assert c.summary[:200] in shown and c.intro[:100] in shown


def test_a_long_name_position_round_and_date_fit_the_header(bot: Bot, tmp_path: Path) -> None:
    long = (
        "Name: Maximilian Alexander Hapsburg\n"
        "面试官：" + "、".join(a + b for a in "赵钱孙李周吴郑王" for b in "甲乙丙丁戊") + "\n"
        "日期：下周二下午三点，地点另行通知，请留意邮件\n"
        "轮次：" + "第二轮技术面" * 4 + "\n"
    )
    index(bot, tmp_path / "t", {"long.txt": long + BODY.replace("数据工程师", "数据" * 120)})
    card = ask(bot, "总结 long")  # the strict fake refuses a header over 150 characters
    header, context = head(card)
    assert len(header) <= 150 and header.startswith("Maximilian Alexander")
    assert "下周二" in header  # a date not read as a date is shown as written
    assert "long" in context and len(context) < 300


def test_a_name_resolves_and_a_pick_list_tells_interviews_apart(bot: Bot, tmp_path: Path) -> None:
    index(
        bot,
        tmp_path / "t",
        {
            "zhang_1.txt": ZHANG + BODY,
            # another position: another candidate (issue 38), so a pick list of candidates
            "zhang_2.txt": "候选人：张三\n面试人：赵钱\n面试日期：2026-12-01\n面试轮次：终面\n"
            + BODY.replace("数据工程师", "算法工程师"),
            "han.txt": "应聘者：韩梅梅\n" + BODY,
        },
    )
    assert head(ask(bot, "韩梅梅"))[0] == "韩梅梅 · 数据工程师"
    assert head(ask(bot, "韩", name="prefix"))[0] == "韩梅梅 · 数据工程师"
    bot.command("问题 韩梅梅 2", name="question")
    [question] = bot.replies("question")
    assert "韩梅梅 · 数据工程师 · 问题 2" in all_text(question)
    picked = ask(bot, "张三", name="pick")
    text = visible(picked)
    assert text == [
        "“张三”对应 2 位候选人，请选择：",
        # each candidate's rounds, dates, interviewers (issue 45)
        "*张三 · 算法工程师*\n1 场面试 · 最近一场 2026-12-01 · 终面 2026-12-01 · 面试官：赵钱",
        "查看",
        "*张三 · 数据工程师*\n1 场面试 · 最近一场 2026-11-28 · 二面 2026-11-28 14:30"
        " · 面试官：李四、王五、R&amp;D老张",
        "查看",
    ]
    second = [b for b in buttons(picked)][1]
    bot.click(picked, second["action_id"], name="picked")
    [card] = bot.replies("picked")
    assert head(card)[0] == "张三 · 数据工程师 · 二面 · 2026-11-28 14:30"
    # search finds names
    bot.command("搜索 韩梅梅", name="search")
    [found] = bot.replies("search")
    assert visible(found)[1].startswith("*韩梅梅 · 数据工程师* · 3 年经验\n")


def test_two_interviews_of_one_name_and_position_give_the_loop_card(
    bot: Bot, tmp_path: Path
) -> None:
    index(
        bot,
        tmp_path / "t",
        {
            "zhang_1.txt": ZHANG + BODY,
            "zhang_2.txt": "候选人：张三\n面试人：赵钱\n面试日期：2026-12-01\n面试轮次：终面\n"
            + BODY,
        },
    )
    card = ask(bot, "张三", name="loop")
    text = visible(card)
    assert text[0] == "张三 · 数据工程师 · 2 场面试"
    rounds = [line.split("\n")[0] for line in text if line.startswith("*")]
    assert rounds[:2] == [
        "*二面 · 2026-11-28 14:30 · 面试官：李四、王五、R&amp;D老张*",
        "*终面 · 2026-12-01 · 面试官：赵钱*",
    ]


def test_list_digest_and_home_show_name_and_date_newest_interview_first(
    bot: Bot, tmp_path: Path
) -> None:
    bot.store.clear_search_cache()
    index(
        bot,
        tmp_path / "t",
        {
            "older.txt": "姓名：王二\n面试日期：2001-03-04\n" + BODY,
            "newer.txt": "姓名：张三\n面试日期：2001-05-06 10:00\n" + BODY,
        },
    )
    listed = ask(bot, "列表 数据工程师")
    rows = [t for t in visible(listed) if t.startswith("*")]
    assert rows == [
        "*张三 · 数据工程师 · 2001-05-06 10:00* · 3 年经验\n3 题，2 题未回答",
        "*王二 · 数据工程师 · 2001-03-04* · 3 年经验\n3 题，2 题未回答",
    ]
    everyone = [
        t.split(" · ")[0] for t in visible(ask(bot, "列表", name="all")) if t.startswith("*")
    ]
    assert everyone[-2:] == ["*张三", "*王二"]  # the seeds, indexed today, before 2001

    digester = Digester(
        bot.settings.model_copy(update={"digest_channel": "CHIRE"}),
        bot.store,
        web_client(bot.settings),
    )
    assert digester.run(force=True) == "sent"
    [call] = bot.fake.wait_for("chat.postMessage")
    digest = all_text({"blocks": call.json_param("blocks")})
    assert "*张三 · 数据工程师 · 2001-05-06 10:00* · 3 年经验" in digest
    assert digest.index("张三") < digest.index("王二")  # new: the newest interview first

    home = open_home(bot)
    new = section_of(home, "昨天以来有新面试记录的候选人")
    assert lines(new)[-2:] == ["newer", "older"]
    text = all_text({"blocks": new})
    assert "张三 · 数据工程师 · 2001-05-06 10:00 · 3 年经验" in text
