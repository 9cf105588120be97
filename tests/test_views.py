"""Every view's mrkdwn renders in Slack next to Chinese (issue 11 item 6): no `*`, `_` or
`` ` `` marker sits between a CJK character and anything but a space, where Slack would show
the marker instead of the formatting (`低级*分布式*编程`). Walked over the seeds and crafted
transcripts, in both languages, private and posted, through the same code as Slack."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.markers import marker_problems

from handlers.commands import answer, parse_command
from handlers.deps import Deps
from handlers.i18n import Locale
from handlers.route import Route
from handlers.views.lists import digest_list_view, digest_view
from handlers.views.replies import help_view
from store.indexer import index_paths
from store.sqlite.store import Store

CRAFTED = {
    "c1长文.txt": "面试总结："
    + "候选人基础扎实，沟通清楚。" * 200
    + "\n岗位：分布式存储工程师\n从业年限：不到1年\n简介：做过分布式训练调优。\n"
    "问题1：解释分布式一致性？\n考察目标：分布式基础\n回答：用Raft协议，“强一致”。\n"
    "问题2：低级并行怎么做？\n考察目标：并行编程\n回答：不知道\n"
    "问题3：C++内存模型？\n考察目标：语言\n回答：跳过\n"
    "点评：" + "分布式理解到位，并行经验不足。" * 40 + "\n",
    "c2_short.txt": "岗位：Go后端\n从业年限：3年\n问题1：Go并发？\n回答：goroutine调度\n点评：好。\n",
}


def mrkdwn_texts(blocks: list[dict[str, Any]]) -> Iterator[str]:
    """Every text Slack reads as mrkdwn in these blocks."""
    for block in blocks:
        candidates = [block.get("text"), *(block.get("fields") or [])]
        if block.get("type") == "context":
            candidates += block.get("elements") or []
        for obj in candidates:
            if isinstance(obj, dict) and obj.get("type") == "mrkdwn":
                yield str(obj["text"])


@pytest.fixture
def store(tmp_path: Path, seeds_dir: Path) -> Store:
    crafted = tmp_path / "crafted"
    crafted.mkdir()
    for name, text in CRAFTED.items():
        (crafted / name).write_text(text, "utf-8")
    s = Store(tmp_path / "v.db")
    assert not index_paths(s, [seeds_dir, crafted]).failed
    for i, (reviewer, text) in enumerate(
        [("U1", "通过，分布式基础扎实"), ("U2", "问题2：补充了并行的回答"), ("U3", "再看看并行")]
    ):
        s.record_post("C1", "100.1", "c1长文", "verdict")
        s.record_reply("C1", f"100.{i + 2}", "100.1", "c1长文", reviewer, text)
    return s


ROUTES = [
    "帮助",
    "总结 000",
    "总结 002",
    "总结 c1",
    "总结 c1 全文",
    "c2",
    "未回答",
    "未回答 c1",
    "未回答 003",
    "点评 c1",
    "点评 c1 全文",
    "问题 c1 2",
    "问题 c1",
    "问题 c1 9",
    "问题 002 5",
    "搜索 并行",
    "搜索 分布式 最新",
    "搜索 TensorFlow",
    "搜索 不存在的词",
    "搜索",
    "列表",
    "列表 工程师",
    "工程师",
    "没有这个人",
    "总结",
]


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_no_marker_touches_chinese_in_any_view(store: Store, locale: Locale) -> None:
    deps = Deps(store=store, locale=locale)
    messages: list[dict[str, Any]] = [help_view(locale).payload()]
    for text in ROUTES:
        route = parse_command(text)
        for posting in (False, True):
            names = (lambda ids: {i: "评审" + i for i in ids}) if posting else None
            result = answer(route, deps, user="U9", posting=posting, names=names)
            messages += [o.message.payload() for o in result.outgoing]
    data = store.digest_data("2000-01-01T00:00:00", 10)
    messages.append(digest_view(data, "2026-01-01", locale).payload())
    lines, total = store.digest_lines("unanswered", "2000-01-01T00:00:00", 10, 0)
    messages.append(digest_list_view("unanswered", "x", lines, total, 0, locale).payload())
    texts = [t for m in messages for t in mrkdwn_texts(m["blocks"])]
    assert len(texts) > 100  # the walk saw the views
    problems = {text[:60]: marker_problems(text) for text in texts if marker_problems(text)}
    assert not problems


def test_a_highlight_in_chinese_renders(store: Store) -> None:
    deps = Deps(store=store)
    [out] = answer(Route(parse_command("搜索 并行").kind, words="并行"), deps, user="U9").outgoing
    texts = list(mrkdwn_texts(out.message.blocks))
    assert any("*并行*" in t for t in texts)
    assert not [p for t in texts for p in marker_problems(t)]


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("低级*分布式*编程", True),
        ("（`000`）", True),
        ("例如 `/candidate 000`。", True),
        ("*面试总结*\n正文", False),
        ("低级 *分布式* 编程", False),
        ("_考察目标_ 分布式", False),
        ("plain*bold*text", False),  # no Chinese: not this rule's business
    ],
)
def test_the_checker(text: str, bad: bool) -> None:
    assert bool(marker_problems(text)) is bad


def test_every_view_fits_for_a_hostile_transcript(tmp_path: Path) -> None:
    """Quotes and backslashes (two characters each in JSON), a long id
    and position, many reviewers: every message stays within what Slack takes."""
    from support.limits import block_problem

    folder = tmp_path / "hostile"
    folder.mkdir()
    noisy = '"\\&<>' * 40
    name = "候" * 60 + '"q"' + ".txt"
    questions = "".join(
        f"问题{i}：{noisy * 3}？\n考察目标：{noisy * 2}\n回答：{'' if i % 2 else noisy * 20}\n"
        for i in range(1, 40)
    )
    text = (
        f"总结：{noisy * 30}\n岗位：{'位' * 400}\n简介：{noisy * 20}\n"
        + questions
        + f"点评：{noisy * 100}\n"
    )
    (folder / name).write_text(text, "utf-8")
    store = Store(tmp_path / "h.db")
    assert not index_paths(store, [folder]).failed
    [cid] = [c.id for c in store.list_candidates(None, limit=5, offset=0)]
    store.record_post("C1", "1.1", cid, "verdict")
    for i in range(15):
        store.record_reply("C1", f"1.{i + 2}", "1.1", cid, f"U{i}", f"通过 {noisy * 5}")
        store.record_reply("C1", f"2.{i + 2}", "1.1", cid, f"U{i}", f"问题{i + 1}：{noisy * 5}")
    deps = Deps(store=store)
    routes = ["总结 候", "总结 候 全文", "未回答 候", "点评 候", "点评 候 全文", "问题 候 2"]
    routes += ["搜索 候", "列表", "未回答", "问题 候 1"]
    for text in routes:
        for posting in (False, True):
            result = answer(parse_command(text), deps, user="U9", posting=posting)
            for out in result.outgoing:
                assert block_problem(out.message.blocks) is None, (text, posting)
    data = store.digest_data("2000-01-01T00:00:00", 10)
    assert block_problem(digest_view(data, "2026-01-01", "zh").blocks) is None
