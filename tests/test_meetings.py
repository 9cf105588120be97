"""Meeting transcripts (issue 36): WebVTT from Zoom and Teams, SRT, the text exports of
飞书妙记, 腾讯会议 and 钉钉, a .docx of a 飞书妙记 export, and a dialogue typed under
identity labels, each written here, indexed and shown through the `debrief` command line
(in-process) on SQLite and PostgreSQL, and checked field by field: who, when, the
questions (small talk and the closing question are none), their answers, answered or
not, and each question's time in the recording. An export with no question to the
candidate is skipped saying what it is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.cli import debrief as run_debrief
from test_formats import docx_paragraphs

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

ROOT = Path(__file__).resolve().parent.parent

ZOOM = """WEBVTT

1
00:00:01.000 --> 00:00:03.000
王面试官: 你好，听得到吗？

2
00:00:04.000 --> 00:00:05.000
Zhang San: 听得到，你好。

3
00:00:06.000 --> 00:00:09.000
王面试官: 好，那我们开始吧。

4
00:03:15.000 --> 00:03:20.000
王面试官: 先请你介绍一下自己最近做的项目。

5
00:03:21.000 --> 00:03:40.000
Zhang San: 我最近在做一个实时数据平台，

6
00:03:41.000 --> 00:03:50.000
Zhang San: 负责 Flink 作业的调度。

7
00:05:00.000 --> 00:05:05.000
王面试官: 第二个问题，Redis 持久化有哪几种方式？

8
00:05:06.000 --> 00:05:08.000
Zhang San: 这个我不太清楚。

9
00:06:00.000 --> 00:06:05.000
王面试官: 好的。你有什么想问我们的吗？

10
00:06:06.000 --> 00:06:15.000
Zhang San: 团队现在用什么技术栈？
"""

TEAMS = """WEBVTT

3f1c9d2e-1/12-0
00:00:05.120 --> 00:00:07.000
<v Alice Chen (Interviewer)>Hi Bob, can you hear me?</v>

3f1c9d2e-1/13-0
00:00:08.000 --> 00:00:09.500
<v Bob Li>Yes, hello.</v>

3f1c9d2e-1/20-0
00:01:10.000 --> 00:01:15.000
<v Alice Chen (Interviewer)>Could you walk me through your last project?</v>

3f1c9d2e-1/21-0
00:01:16.000 --> 00:01:22.000
<v Bob Li>Sure, I built a billing service in Go</v>

3f1c9d2e-1/22-0
00:01:22.500 --> 00:01:30.000
<v Bob Li>and moved it to Kubernetes.</v>

3f1c9d2e-1/30-0
00:04:02.000 --> 00:04:06.000
<v Alice Chen (Interviewer)>Why did you pick Go over Java?</v>

3f1c9d2e-1/31-0
00:04:07.000 --> 00:04:08.000
<v Bob Li>I don't know.</v>

3f1c9d2e-1/40-0
00:09:00.000 --> 00:09:04.000
<v Alice Chen (Interviewer)>Do you have any questions for us?</v>

3f1c9d2e-1/41-0
00:09:05.000 --> 00:09:09.000
<v Bob Li>What does the team work on?</v>
"""

SRT = """1
00:00:01,000 --> 00:00:02,000
面试官：你好

2
00:00:10,500 --> 00:00:12,000
面试官：请说说你对微服务的理解。

3
00:00:13,000 --> 00:00:20,000
候选人：微服务就是按业务拆分的小服务，
各自部署。

4
00:01:30,000 --> 00:01:33,000
面试官：那服务之间怎么做鉴权？

5
00:01:34,000 --> 00:01:36,000
候选人：跳过

"""

FEISHU = """后端工程师面试 - 张三
2026年11月20日 14:00 | 45分钟 12秒
参会人：张三、李四

关键词：
Redis、缓存

文字记录：

李四  00:00:03
你好，能听到吗？

张三  00:00:05
能听到。

李四  00:03:15
好，第一个问题，你讲讲你们的缓存是怎么设计的？

张三  00:03:30
我们用了两级缓存，
本地缓存加 Redis。

李四  00:08:40
嗯。

张三  00:08:42
失效靠消息通知。

李四  00:10:00
最后，你有什么想问我们的吗？

张三  00:10:05
没有了，谢谢。
"""

TENCENT = """会议主题：前端一面
会议时间：2026/11/21 10:00
王五(00:00:02): 你好，听得到吗？
赵六(00:00:04): 听得到。
王五(00:01:05): 介绍一下你自己吧。
赵六(00:01:10): 我叫赵六，做了五年前端。
王五(00:04:00): 为什么想换工作？
王五(00:05:00): 好的，今天就到这里。
"""

DINGTALK = """钉钉闪记
面试记录 陈晨 / 王芳
2026-11-22 15:30:00
参与人：王芳、陈晨

陈晨 00:01
嗨，你好，我们开始吧。
王芳 00:03
好的。
陈晨 02:10
第一题，你为什么选择 React？
王芳 02:20
因为它的生态好，团队也熟。
陈晨 05:00
下一个问题，讲讲虚拟 DOM 的原理。
王芳 05:10
不知道。
"""

TYPED = """姓名：张三
面试官：李四
面试日期：2026-11-28
轮次：二面
岗位：数据工程师

面试官：你好，我们开始吧。
候选人：好的。
面试官：请介绍一下你做过的数据仓库项目。
候选人：我负责了离线数仓的建模，
用 Hive 和 Spark。
面试官：Flink 的 checkpoint 机制了解吗？
候选人：不知道。
面试官：你有什么想问我们的吗？
候选人：没有了。
"""

NO_QUESTION = """WEBVTT

00:00:01.000 --> 00:00:02.000
面试官: 你好

00:00:03.000 --> 00:00:04.000
候选人: 你好

00:00:05.000 --> 00:00:06.000
面试官: 听得到吗？
"""


def q(
    n: int, at: str | None, question: str, answer: str, reason: str | None = None
) -> dict[str, Any]:
    return {
        "number": n,
        "question": question,
        "goal": "",
        "answer": answer,
        "answered": reason is None,
        "unanswered_reason": reason,
        "started_at": at,
    }


EXPECTED: dict[str, dict[str, Any]] = {
    "zoom": {
        "name": "Zhang San",
        "interviewers": ["王面试官"],
        "interviewed_at": None,
        "questions": [
            q(
                1,
                "00:03:15",
                "先请你介绍一下自己最近做的项目。",
                "我最近在做一个实时数据平台，负责 Flink 作业的调度。",
            ),
            q(
                2,
                "00:05:00",
                "第二个问题，Redis 持久化有哪几种方式？",
                "这个我不太清楚。",
                "dont_know",
            ),
        ],
    },
    "teams": {
        "name": "Bob Li",
        "interviewers": ["Alice Chen"],
        "interviewed_at": None,
        "questions": [
            q(
                1,
                "00:01:10",
                "Could you walk me through your last project?",
                "Sure, I built a billing service in Go and moved it to Kubernetes.",
            ),
            q(2, "00:04:02", "Why did you pick Go over Java?", "I don't know.", "dont_know"),
        ],
    },
    "srt": {
        "name": None,
        "interviewers": [],
        "interviewed_at": None,
        "questions": [
            q(
                1,
                "00:00:10",
                "请说说你对微服务的理解。",
                "微服务就是按业务拆分的小服务，各自部署。",
            ),
            q(2, "00:01:30", "那服务之间怎么做鉴权？", "跳过", "skipped"),
        ],
    },
    "feishu": {
        "name": "张三",
        "interviewers": ["李四"],
        "interviewed_at": "2026-11-20T14:00",
        "interviewed_at_text": "2026年11月20日 14:00",
        "questions": [
            q(
                1,
                "00:03:15",
                "好，第一个问题，你讲讲你们的缓存是怎么设计的？",
                "我们用了两级缓存，本地缓存加 Redis。\n失效靠消息通知。",
            ),
        ],
    },
    "tencent": {
        "name": "赵六",
        "interviewers": ["王五"],
        "interviewed_at": "2026-11-21T10:00",
        "questions": [
            q(1, "00:01:05", "介绍一下你自己吧。", "我叫赵六，做了五年前端。"),
            q(2, "00:04:00", "为什么想换工作？", "", "empty"),
        ],
    },
    "dingtalk": {
        "name": "王芳",
        "interviewers": ["陈晨"],
        "interviewed_at": "2026-11-22T15:30:00",
        "questions": [
            q(1, "00:02:10", "第一题，你为什么选择 React？", "因为它的生态好，团队也熟。"),
            q(2, "00:05:00", "下一个问题，讲讲虚拟 DOM 的原理。", "不知道。", "dont_know"),
        ],
    },
    "typed": {
        "name": "张三",
        "interviewers": ["李四"],
        "interviewed_at": "2026-11-28",
        "round": "二面",
        "position": "数据工程师",
        "questions": [
            q(
                1,
                None,
                "请介绍一下你做过的数据仓库项目。",
                "我负责了离线数仓的建模，用 Hive 和 Spark。",
            ),
            q(2, None, "Flink 的 checkpoint 机制了解吗？", "不知道。", "dont_know"),
        ],
    },
}
EXPECTED["feishu_docx"] = EXPECTED["feishu"]
# what every meeting has unless said otherwise: no summary, no verdict, nothing made up
DEFAULTS: dict[str, Any] = {
    "kind": "meeting",
    "summary": "",
    "intro": "",
    "verdict": None,
    "position": None,
    "years": None,
    "round": None,
}


def write_folder(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text, ext in (
        ("zoom", ZOOM, "vtt"),
        ("teams", TEAMS, "vtt"),
        ("srt", SRT, "srt"),
        ("feishu", FEISHU, "txt"),
        ("tencent", TENCENT, "txt"),
        ("dingtalk", DINGTALK, "txt"),
        ("typed", TYPED, "txt"),
        ("no_question", NO_QUESTION, "vtt"),
    ):
        (folder / f"{name}.{ext}").write_text(text, encoding="utf-8")
    (folder / "feishu_docx.docx").write_bytes(docx_paragraphs(FEISHU.split("\n")))


def debrief(db: str, *args: str) -> Any:
    done = run_debrief(*args, "--json", env={"DEBRIEF_DB": db}, cwd=ROOT)
    assert "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


def test_meeting_transcripts_give_their_questions_answers_and_times(
    db_target: str, tmp_path: Path
) -> None:
    folder = tmp_path / "meetings"
    write_folder(folder)
    run = debrief(db_target, "index", str(folder))
    assert run["failed"] == []
    assert sorted(run["indexed"]) == sorted(EXPECTED)
    # an export with no question to the candidate is skipped, saying what it is
    assert [(Path(s["path"]).name, s["reason"]) for s in run["skipped"]] == [
        (
            "no_question.vtt",
            "a WebVTT meeting recording in which no question to the candidate was found",
        )
    ]
    for cid, expected in EXPECTED.items():
        shown = debrief(db_target, "show", cid)
        for key, value in (DEFAULTS | expected).items():
            assert shown[key] == value, (cid, key)


def test_the_card_shows_each_question_with_its_time(db_target: str, tmp_path: Path) -> None:
    folder = tmp_path / "meetings"
    write_folder(folder)
    debrief(db_target, "index", str(folder))
    card = json.dumps(debrief(db_target, "ask", "/candidate 总结 zoom"), ensure_ascii=False)
    assert "问题1（00:03:15）：先请你介绍一下自己最近做的项目。" in card
    assert "问题2（00:05:00，不会）：第二个问题，Redis 持久化有哪几种方式？" in card
    assert "已回答 1 题，未回答 1 题（共 2 题）" in card
    assert "文件里没有面试总结" in card
    assert "团队现在用什么技术栈" not in card  # the candidate's own question is no answer
    notes = json.dumps(debrief(db_target, "ask", "/candidate 总结 typed"), ensure_ascii=False)
    assert "问题2（不会）：Flink 的 checkpoint 机制了解吗？" in notes  # no time: as ever
