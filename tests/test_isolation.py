"""Two workspaces installed, the same transcript indexed in both (issue 26): nothing of
one is visible from the other, through every way a request can ask, over the real HTTP
server against the strict fake Slack, on SQLite and PostgreSQL. The team a request is
served in comes from Slack's signed body and the installation it names, never from
what the request says about candidates, channels or threads."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.fake_oauth import Installer
from support.fake_slack import FakeSlack
from support.installed import install, start_installed_bot
from support.signed import action_body, block_actions_payload, command_body, event_body, post_signed
from support.slackbot import SECRET, Bot, all_text, find_button
from support.waiting import wait_until

from store.indexer import index_paths

pytestmark = pytest.mark.both_backends

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
BETA, GAMMA = "T0002", "T0003"
# what only Beta's transcripts say (their files, profiles, positions, years), and never
# a request's own words
BETA_ONLY = [
    "72ee0a76",
    "20561f43",
    "b1dde04b",
    "拥有5年经验的专业人士",
    "擅长深度学习框架和分布式训练",
    "擅长数据处理、模型构建和优化",
    "神经网络模型设计师",
    "大数据开发工程师",
    "5年",
]


@pytest.fixture
def two(fake_slack: FakeSlack, db_target: str, tmp_path: Path) -> Iterator[Bot]:
    fake_slack.member_channels |= {"CBETA", "CGAMMA"}
    bot = start_installed_bot(fake_slack, db_target, uploads=str(tmp_path / "uploads"))
    install(bot, Installer(team_id=BETA, team_name="Beta", user="UBADMIN"))
    install(bot, Installer(team_id=GAMMA, team_name="Gamma", user="UGADMIN"))
    one = tmp_path / "one"
    one.mkdir()
    shutil.copy(SEEDS / "000_9e6b3ecb0732fcf3.txt", one)  # the same file in both
    assert not index_paths(bot.store.in_workspace(space(bot, BETA)), [SEEDS]).failed
    assert not index_paths(bot.store.in_workspace(space(bot, GAMMA)), [one]).failed
    try:
        yield bot
    finally:
        bot.stop()


def space(bot: Bot, key: str) -> int:
    found = bot.store.find_installation(key)
    assert found is not None
    return found.ws


def token(bot: Bot, key: str) -> str:
    [issued] = [i.token for i in bot.fake.oauth.tokens.values() if i.installer.key == key]
    return issued


def ask(bot: Bot, text: str, team: str, channel: str, name: str) -> list[dict[str, Any]]:
    body = command_body(
        text, team_id=team, channel_id=channel, response_url=bot.fake.response_url(name)
    )
    status, _h, _b = post_signed(bot.events_url, body, SECRET)
    assert status == 200
    bot.idle()
    return bot.fake.responses(name)


def said(messages: list[dict[str, Any]]) -> str:
    return "".join(all_text(m) for m in messages)


def assert_nothing_of_beta(text: str, asked: str = "") -> None:
    for mark in BETA_ONLY:
        if mark not in asked:  # an answer may repeat what was asked
            assert mark not in text, f"Gamma was shown {mark!r}: {text[:400]}"


@pytest.mark.parametrize(
    "text",
    [
        "002",  # an id
        "00",  # a prefix: Beta has four, Gamma one
        "神经网络模型设计师",  # a position, as a name
        "搜索 神经网络",  # words
        "搜索 TensorFlow",
        "列表",  # the list
        "列表 大数据开发工程师",
        "未回答",  # the unanswered overview
        "未回答 003",
        "点评 004",
        "问题1 002",
        "总结 003",
    ],
)
def test_no_command_from_one_workspace_shows_the_other_s_candidates(two: Bot, text: str) -> None:
    beta = said(ask(two, text, BETA, "CBETA", "beta"))
    gamma = said(ask(two, text, GAMMA, "CGAMMA", "gamma"))
    assert_nothing_of_beta(gamma, text)
    if text in ("002", "搜索 神经网络", "总结 003", "列表"):
        assert any(mark in beta for mark in BETA_ONLY if mark not in text), beta[:400]


def test_the_same_file_is_a_candidate_of_each_and_each_sees_its_own(two: Bot) -> None:
    beta = said(ask(two, "000", BETA, "CBETA", "beta"))
    gamma = said(ask(two, "000", GAMMA, "CGAMMA", "gamma"))
    assert "视频开发工程师" in beta and "视频开发工程师" in gamma
    # each workspace's own copy: a prefix is one candidate in Gamma, not a choice of four
    assert_nothing_of_beta(said(ask(two, "0", GAMMA, "CGAMMA", "prefix")))


def test_a_button_naming_the_other_s_candidate_shows_nothing(two: Bot) -> None:
    [answer] = ask(two, "002", BETA, "CBETA", "beta")
    button = find_button(answer, "open_view")  # "the whole profile" of 002
    payload = block_actions_payload(
        "U555",
        {"type": "message", "message_ts": "1700000000.000001", "channel_id": "CGAMMA"},
        [
            {
                "action_id": button["action_id"],
                "block_id": "b",
                "text": button["text"],
                "value": button.get("value", ""),
                "type": "button",
                "action_ts": str(time.time()),
            }
        ],
        user_team=GAMMA,
        team={"id": GAMMA, "domain": "gamma"},
        channel={"id": "CGAMMA", "name": "hiring"},
        trigger_id=two.fake.trigger_id(),
        response_url=two.fake.response_url("click"),
    )
    status, _h, _b = post_signed(two.events_url, action_body(payload), SECRET)
    assert status == 200
    two.idle()
    asked = str(button.get("value", ""))  # the answer may repeat the id the button named
    assert_nothing_of_beta(said(two.fake.responses("click")), asked)
    assert "拥有5年经验" not in said(two.fake.responses("click"))
    opened = [c for c in two.fake.calls() if c.token == token(two, GAMMA)]
    assert_nothing_of_beta(
        " ".join(json.dumps(c.params, ensure_ascii=False) for c in opened), asked
    )


def test_a_reply_in_the_other_s_thread_is_recorded_in_neither(two: Bot) -> None:
    before = len(two.fake.calls("chat.postMessage"))
    ask(two, "点评 002", BETA, "CBETA", "verdict")
    two.fake.wait_for("chat.postMessage", count=before + 1)
    parent = str(two.fake.messages("CBETA")[-1]["ts"])
    beta = two.store.in_workspace(space(two, BETA))
    wait_until("the verdict post remembered", lambda: beta.post_candidate("CBETA", parent), 10)
    assert two.store.in_workspace(space(two, GAMMA)).post_candidate("CBETA", parent) is None
    reply = {
        "type": "message",
        "channel": "CBETA",
        "user": "U555",
        "text": "Hire: 很好",
        "ts": "1800000000.000009",
        "thread_ts": parent,
        "channel_type": "channel",
        "event_ts": "1800000000.000009",
    }
    status, _h, _b = post_signed(two.events_url, event_body(reply, team_id=GAMMA), SECRET)
    assert status == 200
    two.idle()
    for key in (BETA, GAMMA):
        view = two.store.in_workspace(space(two, key))
        assert view.tally("002") == {} or sum(view.tally("002").values()) == 0
        assert view.current_decision("002", "U555") is None
    assert not two.fake.calls("reactions.add")


def test_the_home_tab_lists_its_own_workspace_s_candidates_alone(two: Bot) -> None:
    home = {"type": "app_home_opened", "user": "U555", "channel": "DU555", "tab": "home"}
    home["event_ts"] = f"{time.time():.6f}"
    status, _h, _b = post_signed(two.events_url, event_body(home, team_id=GAMMA), SECRET)
    assert status == 200
    two.idle()
    [published] = two.fake.wait_for("views.publish")
    assert published.token == token(two, GAMMA)
    text = json.dumps(published.json_param("view"), ensure_ascii=False)
    assert "000" in text
    assert_nothing_of_beta(text)
