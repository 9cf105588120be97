"""`/candidate` text and button values -> Route, as tables: input -> what it asks for."""

from __future__ import annotations

from typing import Any

import pytest

from handlers.commands import SUBCOMMANDS, parse_command, route_from_value
from handlers.route import Kind, Route

H, W, S, F, U, V, Q, SE, L, D = (
    Kind.HELP,
    Kind.WHO,
    Kind.SUMMARY,
    Kind.FULL,
    Kind.UNANSWERED,
    Kind.VERDICT,
    Kind.QUESTION,
    Kind.SEARCH,
    Kind.LIST,
    Kind.DIGEST,
)

COMMANDS = [
    # nothing, or help in any of its names
    ("", Route(H, lead="empty")),
    ("   ", Route(H, lead="empty")),
    ("\x00", Route(H, lead="empty")),
    ("help", Route(H)),
    ("帮助", Route(H)),
    ("HELP", Route(H)),
    ("?", Route(H)),
    ("？", Route(H)),
    ("-h", Route(H)),
    ("--help", Route(H)),
    ("help me please", Route(H)),
    # a name alone is the summary
    ("000", Route(W, who="000")),
    ("王磊", Route(W, who="王磊")),
    ("视频 工程师", Route(W, who="视频 工程师")),
    ("unknownword 000", Route(W, who="unknownword 000")),
    # summary, and the full text
    ("总结 000", Route(S, who="000")),
    ("summary 000", Route(S, who="000")),
    ("Summary 000", Route(S, who="000")),
    ("总结：000", Route(W, who="总结:000")),  # glued with a colon: not the subcommand
    ("总结： 000", Route(S, who="000")),
    ("summary: 000", Route(S, who="000")),
    ("总结   000  ", Route(S, who="000")),
    ("总结 王 磊", Route(S, who="王 磊")),
    ("总结", Route(S)),
    ("总结 000 全文", Route(F, who="000")),
    # `全部`/`all`: every interview of the candidate (issue 38), `全文`/`full`: the text
    ("总结 000 全部", Route(Kind.LOOP, who="000")),
    ("summary 000 full", Route(F, who="000")),
    ("summary 000 ALL", Route(Kind.LOOP, who="000")),
    ("总结 全文", Route(S, who="全文")),  # 全文 alone is a name, not a request for the full text
    # unanswered
    ("未回答", Route(U)),
    ("unanswered", Route(U)),
    ("未回答 000", Route(U, who="000")),
    ("unanswered 002", Route(U, who="002")),
    # verdict
    ("点评 000", Route(V, who="000")),
    ("verdict 003", Route(V, who="003")),
    ("点评", Route(V)),
    # a question: the number after the name or before it, in any way of writing it
    ("问题 000 3", Route(Q, who="000", n=3)),
    ("question 000 2", Route(Q, who="000", n=2)),
    ("q 000 1", Route(Q, who="000", n=1)),
    ("Q 000 1", Route(Q, who="000", n=1)),
    ("问题 3 000", Route(Q, who="000", n=3)),
    ("问题 000 三", Route(Q, who="000", n=3)),
    ("问题 000 十二", Route(Q, who="000", n=12)),
    ("问题 000 八十一", Route(Q, who="000", n=81)),
    ("问题 000 一百零三", Route(Q, who="000", n=103)),
    ("问题 王磊 １２", Route(Q, who="王磊", n=12)),
    ("问题　王磊　１２", Route(Q, who="王磊", n=12)),  # full-width spaces
    ("ｑｕｅｓｔｉｏｎ ０００ ２", Route(Q, who="000", n=2)),
    ("问题 000 #2", Route(Q, who="000", n=2)),
    ("问题 000 q2", Route(Q, who="000", n=2)),
    ("问题 000 问题2", Route(Q, who="000", n=2)),
    ("问题  000   2 ", Route(Q, who="000", n=2)),
    ("问题 王 磊 2", Route(Q, who="王 磊", n=2)),
    ("问题 000 99999", Route(Q, who="000", n=99999)),  # the answer says there is no such question
    ("问题3 000", Route(Q, who="000", n=3)),
    ("question2 000", Route(Q, who="000", n=2)),
    ("Q2 000", Route(Q, who="000", n=2)),
    ("问题３ 000", Route(Q, who="000", n=3)),
    ("问题三 000", Route(Q, who="000", n=3)),
    ("问题0 000", Route(Q, who="000")),  # no question 0: ask which
    ("问题3", Route(W, who="问题3")),  # glued but no candidate
    ("问题 000", Route(Q, who="000")),
    ("问题", Route(Q)),
    ("问题 000 0", Route(Q, who="000 0")),  # 0 and -1 are no question numbers
    ("问题 000 -1", Route(Q, who="000 -1")),
    ("问题 000 零", Route(Q, who="000 零")),
    ("问题 000 " + "9" * 400, Route(Q, who="000 " + "9" * 400)),
    # search and list keep their words
    ("搜索 并行", Route(SE, words="并行")),
    ("search TensorFlow  C++", Route(SE, words="TensorFlow C++")),
    ("搜索", Route(SE)),
    ("列表", Route(L)),
    ("list", Route(L)),
    ("列表 视频开发工程师", Route(L, words="视频开发工程师")),
    ("ｌｉｓｔ　视频", Route(L, words="视频")),
    # NUL characters are spaces
    ("总结\x00000", Route(S, who="000")),
]


@pytest.mark.parametrize(("text", "route"), COMMANDS)
def test_parse_command(text: str, route: Route) -> None:
    assert parse_command(text) == route


BUTTONS: list[tuple[dict[str, Any], Route | None]] = [
    ({"v": "summary", "id": "000_x"}, Route(S, who="000_x")),
    ({"v": "full", "id": "000_x"}, Route(F, who="000_x")),
    ({"v": "unanswered"}, Route(U)),
    ({"v": "unanswered", "o": 20}, Route(U, offset=20)),
    ({"v": "verdict", "id": "000_x"}, Route(V, who="000_x")),
    ({"v": "question", "id": "000_x", "n": 2}, Route(Q, who="000_x", n=2)),
    ({"v": "question", "id": "000_x", "n": "2"}, Route(Q, who="000_x")),
    ({"v": "search", "q": "并行"}, Route(SE, words="并行")),
    ({"v": "list", "q": "视频", "o": 10}, Route(L, words="视频", offset=10)),
    ({"v": "list", "o": -3}, Route(L)),
    ({"v": "list", "o": "10"}, Route(L)),
    ({"v": "digest", "c": "new", "s": "2026-01-01", "o": 10}, Route(D, words="new", since="2026-01-01", offset=10)),
    # not ours: typed-only kinds, unknown kinds, no kind, odd types
    ({"v": "help"}, None),
    ({"v": "who", "id": "000"}, None),
    ({"v": "nope"}, None),
    ({}, None),
    ({"v": ["summary"]}, None),
    ({"v": 1}, None),
]  # fmt: skip


@pytest.mark.parametrize(("value", "route"), BUTTONS)
def test_route_from_value(value: dict[str, Any], route: Route | None) -> None:
    assert route_from_value(value) == route


def test_every_kind_is_in_the_table_and_every_name_means_one_kind() -> None:
    assert set(SUBCOMMANDS) == set(Kind)
    names = [name for sub in SUBCOMMANDS.values() for name in sub.names]
    assert len(names) == len(set(names))
    for kind, sub in SUBCOMMANDS.items():
        assert sub.general or sub.about, kind
        for name in sub.names:
            assert parse_command(f"{name} 000").kind in {kind, Kind.FULL}, name


R = Kind.REQUEST
REQUESTS = [
    # the candidate (words before the first mention), the people, the deadline after them
    ("邀请 000 <@UANN> <@UBOB|bob> 截止 周五", Route(R, who="000", people=("UANN", "UBOB"), when="周五")),
    ("request 000 <@UANN> by Friday", Route(R, who="000", people=("UANN",), when="Friday")),
    ("邀请 王 磊 <@UANN|ann li>、<@W0BOB>", Route(R, who="王 磊", people=("UANN", "W0BOB"))),
    ("邀请 000 <@UANN>, <@UBOB> and <@UCAT>", Route(R, who="000", people=("UANN", "UBOB", "UCAT"))),
    ("邀请 000 <@UANN> 截止周五", Route(R, who="000", people=("UANN",), when="周五")),
    ("邀请 000 <@UANN> 截止：12月4日", Route(R, who="000", people=("UANN",), when="12月4日")),
    ("邀请 000 <@UANN> 3天", Route(R, who="000", people=("UANN",), when="3天")),
    ("request 000 <@UANN> due 2026-12-04", Route(R, who="000", people=("UANN",), when="2026-12-04")),
    ("邀请 000 <!subteam^S0DEV|@dev> <@UANN>", Route(R, who="000", people=("S0DEV", "UANN"))),
    ("ｒｅｑｕｅｓｔ　000　<@UANN>", Route(R, who="000", people=("UANN",))),  # full width
    # without a mention: who was asked
    ("邀请 000", Route(R, who="000")),
    ("邀请", Route(R)),
    # what cannot be read says so
    ("邀请 000 @ann", Route(R, problem="request_unescaped", words="@ann")),
    ("邀请 000 ＠ann <@UBOB>", Route(R, problem="request_unescaped", words="@ann")),
    ("邀请 000 <!here>", Route(R, problem="request_not_people", words="@here")),
    ("邀请 000 <!channel|channel>", Route(R, problem="request_not_people", words="@channel")),
    ("邀请 <@UANN>", Route(R, problem="request_usage")),  # nobody to ask about
    ("邀请 000 <@UANN> 和王磊 <@UBOB>", Route(R, problem="request_usage")),
    ("邀请 000 <@UANN> 截止", Route(R, problem="request_usage")),
    # an address is not a mention
    ("邀请 ann@example.com", Route(R, who="ann@example.com")),
]  # fmt: skip


@pytest.mark.parametrize(("text", "route"), REQUESTS)
def test_parse_request(text: str, route: Route) -> None:
    assert parse_command(text) == route
    assert route_from_value({"v": "request", "id": "000"}) is None  # typed only
