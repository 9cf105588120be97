"""Meeting recordings (issue 46): what a recording is, told with evidence before any fact
is read, and who answered what. Each recording is written here: a workshop with many
speakers, a two-person planning meeting (Zoom and 飞书妙记), a Teams interview with a
question left unanswered, a Zoom podcast, Whisper's WebVTT and SRT without speakers, an
Otter export with its Details. Each is read by the meeting reader (pure: text in, a
`Transcript` or a reason out) and checked field by field, and indexed through the
`debrief` command line, which says why it skipped each that is no interview. The real
recordings in ../shared/realworld/ are checked when that folder is there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.cli import debrief as run_debrief
from support.realworld import REALWORLD
from test_meetings import q as shown_question

from store.models import Transcript
from store.transcripts.dialogue import meeting_transcript
from store.transcripts.errors import NotATranscript

ROOT = Path(__file__).resolve().parent.parent


def vtt(*cues: tuple[str, str]) -> str:
    """A WebVTT file of (start, text) cues, each a few seconds long."""
    parts = ["WEBVTT", ""]
    for n, (start, text) in enumerate(cues, start=1):
        parts += [str(n), f"{start}.000 --> {start}.900", text, ""]
    return "\n".join(parts)


WORKSHOP = vtt(
    ("00:00:16", "Meera Iyer: Hi everyone! Give me one second."),
    ("00:00:20", "Arun K: Hi Meera!"),
    ("00:00:41", "Deepa S: Can you see that?"),
    ("00:00:45", "Meera Iyer: Alright, good to go."),
    ("00:00:48", "Suresh P: Good afternoon, ma'am."),
    ("00:01:02", "Lakshmi R: Good afternoon all."),
    ("00:01:10", "Meera Iyer: Did you all have a good week so far?"),
    ("00:01:15", "Lakshmi R: Yes, the exams are over at our school."),
    ("00:01:30", "Meera Iyer: Today we look at negative numbers with a number line."),
    ("00:02:00", "Ravi N: Should we bring the worksheets from last week?"),
    ("00:02:05", "Meera Iyer: Yes. So why do we need negative numbers? Anyone?"),
    ("00:02:20", "Arun K: Thermometers go below zero, so the children see them there."),
    ("00:02:40", "Meera Iyer: Any other thoughts from anyone?"),
    ("00:03:00", "Deepa S: In my class they use a lift going below the ground floor."),
    ("00:03:20", "Suresh P: We tried that with a staircase drawn on the floor."),
)

PLANNING = vtt(
    ("00:00:02", "Maya Ortiz: Hi Sam, can you hear me?"),
    ("00:00:04", "Sam Lee: Yes, loud and clear."),
    ("00:00:10", "Maya Ortiz: So, should we move the release to next Friday?"),
    ("00:00:20", "Sam Lee: I think so. The payments ticket is still blocked on the API."),
    ("00:00:35", "Sam Lee: Can we ask the platform team for a fix by Wednesday?"),
    ("00:00:45", "Maya Ortiz: Yes. What do we tell the client about the timeline?"),
    ("00:01:00", "Sam Lee: Let's say the end of the month, to be safe."),
    ("00:01:20", "Maya Ortiz: OK, I'll put it on the agenda for the stand-up."),
)

# 飞书妙记: two people planning a sprint, in Chinese
PLANNING_FEISHU = """迭代排期会
2026年11月20日 10:00 | 20分钟
参会人：周宁、吴昊

周宁  00:00:03
我们这周的需求能按时提测吗？

吴昊  00:00:10
后端接口还差两个，我们需要再加一天。

周宁  00:00:30
那上线要不要延期到下周三？

吴昊  00:00:45
可以，我跟产品对齐一下进度。

周宁  00:01:00
好，那就这么定了。
"""

TEAMS = """WEBVTT

a1/10-0
00:00:05.000 --> 00:00:07.000
<v Priya Nair>Hi Tom, can you hear me?</v>

a1/11-0
00:00:08.000 --> 00:00:09.000
<v Tom Becker>Yes, hi Priya.</v>

a1/12-0
00:00:10.000 --> 00:00:12.000
<v Priya Nair>Can you see my screen?</v>

a1/13-0
00:00:13.000 --> 00:00:14.000
<v Tom Becker>I can.</v>

a1/20-0
00:01:00.000 --> 00:01:05.000
<v Priya Nair>Could you walk me through the data pipeline you built
at your last company?</v>

a1/20-1
00:01:05.500 --> 00:01:06.500
<v Tom Becker>The streaming one?</v>

a1/20-2
00:01:07.000 --> 00:01:09.000
<v Priya Nair>Yes, the one with the payment events.</v>

a1/21-0
00:01:10.000 --> 00:01:20.000
<v Tom Becker>Sure. I built the ingestion on Kafka</v>

a1/22-0
00:01:20.500 --> 00:01:30.000
<v Tom Becker>and the batch layer on Spark.</v>

a1/30-0
00:02:00.000 --> 00:02:04.000
<v Priya Nair>How did you handle late events?</v>

a1/31-0
00:02:30.000 --> 00:02:33.000
<v Priya Nair>No worries, we can come back to it.</v>

a1/32-0
00:02:34.000 --> 00:02:38.000
<v Priya Nair>Next question: why are you leaving your current job?</v>

a1/33-0
00:02:40.000 --> 00:02:50.000
<v Tom Becker>I want to work on streaming full time.</v>

a1/40-0
00:03:00.000 --> 00:03:10.000
<v Priya Nair>Our team runs about forty pipelines and most of them are on Flink now.</v>

a1/41-0
00:03:11.000 --> 00:03:13.000
<v Tom Becker>Oh, nice. Flink is great.</v>

a1/50-0
00:04:00.000 --> 00:04:03.000
<v Priya Nair>What is the difference between a watermark and a trigger?</v>

a1/51-0
00:04:04.000 --> 00:04:06.000
<v Tom Becker>I don't know.</v>

a1/60-0
00:05:00.000 --> 00:05:03.000
<v Priya Nair>Do you have any questions for us?</v>

a1/61-0
00:05:04.000 --> 00:05:08.000
<v Tom Becker>How big is the team?</v>

a1/62-0
00:05:09.000 --> 00:05:11.000
<v Priya Nair>Thanks for your time, Tom.</v>
"""

# a podcast recorded in Zoom: two people, no role stated, one asks the other
PODCAST = vtt(
    ("00:00:01", "Lena Vogel: Welcome to the show. Today I'm here with Omar Haddad."),
    ("00:00:06", "Omar Haddad: Thanks for having me."),
    ("00:00:09", "Lena Vogel: So how did you get into making games?"),
    ("00:00:14", "Omar Haddad: I started with map editors as a kid, then taught myself C."),
    ("00:00:40", "Lena Vogel: What made you go solo after the studio closed?"),
    ("00:00:46", "Omar Haddad: I wanted to finish one game of my own, start to end."),
)

# Whisper: no speakers, cues cut mid-sentence, one side asks the other about their work
WHISPER = """WEBVTT

00:01.000 --> 00:04.000
Hello and welcome to another episode of the studio podcast.

00:04.500 --> 00:07.000
I'm here with the maker of a small puzzle game.

00:07.500 --> 00:09.000
Do you want to introduce yourself?

00:09.500 --> 00:12.000
Sure, I'm a solo developer from Lyon.

00:12.500 --> 00:15.000
So how did you start working on

00:15.000 --> 00:16.000
this game?

00:16.500 --> 00:20.000
It began as a weekend jam project with a friend.
"""

# Whisper SRT of a lecture: nobody is asked anything
LECTURE_SRT = """1
00:00:01,000 --> 00:00:04,000
Today we continue with the second law of thermodynamics.

2
00:00:04,500 --> 00:00:09,000
Entropy of an isolated system never decreases over time.

3
00:00:09,500 --> 00:00:14,000
Next week we will look at heat engines and their efficiency.
"""

OTTER = """# Transcript of the Tidewater interview with Ada Quinn of Lantern Works

## Details

Interview took place on March 3, 2023. Interviewer is Ben Carter.
Transcription is provided by https://otter.ai.

## Transcript
Ben Carter  0:05
Hello everyone, and welcome. Today I have with me Ada Quinn.

Ada Quinn  0:12
Hi everyone, I'm Ada, and I'm making Tidewater.

Ben Carter  0:16
So you're the only developer on Tidewater, how did you become a developer.

Ada Quinn  0:25
I taught myself to program from game magazines, and later studied computer science.

Ben Carter  1:40
I played the demo on Monday and loved the music. Everyone should try it on Steam.

Ada Quinn  1:52
Yes, both demos. Thank you.

Ben Carter  2:00
How long have you been working on it?

Ada Quinn  2:04
Since 2020, mostly in the evenings.
"""


def read(text: str, id_: str = "m") -> Transcript:
    found = meeting_transcript(text, id_, f"{id_}.vtt", "h")
    assert found is not None
    return found


def refused(text: str) -> str:
    with pytest.raises(NotATranscript) as caught:
        meeting_transcript(text, "m", "m.vtt", "h")
    return caught.value.code


def q(
    n: int, at: str | None, question: str, answer: str, reason: str | None = None
) -> dict[str, Any]:
    """A question as the model dumps it: show --json's (test_meetings.py) and whether its
    answer is recorded, always in a recording."""
    return {**shown_question(n, at, question, answer, reason), "answer_recorded": True}


def questions(t: Transcript) -> list[dict[str, Any]]:
    return [
        {k: v for k, v in question.model_dump().items() if k in q(1, None, "", "")}
        for question in t.questions
    ]


def test_a_workshop_with_many_speakers_is_refused_as_one() -> None:
    assert refused(WORKSHOP) == "meeting_many_speakers"


def test_three_people_spoken_to_as_a_group_are_no_interview() -> None:
    three = vtt(
        ("00:00:01", "Meera Iyer: Did you all have a good week so far?"),
        ("00:00:05", "Arun K: Yes, thank you."),
        ("00:00:10", "Meera Iyer: Why do we need negative numbers? Anyone?"),
        ("00:00:20", "Arun K: For temperatures below zero."),
        ("00:00:30", "Meera Iyer: Any other thoughts from anyone?"),
        ("00:00:40", "Deepa S: A lift going below the ground floor."),
    )
    assert refused(three) == "meeting_many_speakers"


def test_two_people_planning_work_are_a_work_meeting() -> None:
    assert refused(PLANNING) == "work_meeting"
    assert refused(PLANNING_FEISHU) == "work_meeting"


def test_a_teams_interview_gives_who_answered_what() -> None:
    t = read(TEAMS, "teams")
    assert (t.kind, t.name, t.interviewers) == ("meeting", "Tom Becker", ["Priya Nair"])
    assert (t.summary, t.verdict, t.position, t.round, t.interviewed_at) == (
        "",
        None,
        None,
        None,
        None,
    )
    assert t.questions_read is True
    assert questions(t) == [
        q(
            1,
            "00:01:00",
            "Could you walk me through the data pipeline you built at your last company?",
            # the interviewer's reply to the candidate's question leaves the question open
            "The streaming one?\nSure. I built the ingestion on Kafka and the batch layer on Spark.",
        ),
        # asked, then left: the interviewer moved on before any answer
        q(2, "00:02:00", "How did you handle late events?", "", "empty"),
        q(
            3,
            "00:02:34",
            "Next question: why are you leaving your current job?",
            # not "Oh, nice. Flink is great.": that follows a remark, it answers nothing
            "I want to work on streaming full time.",
        ),
        q(
            4,
            "00:04:00",
            "What is the difference between a watermark and a trigger?",
            "I don't know.",
            "dont_know",
        ),
    ]
    # small talk, the candidate's own question, the sign-off: none is a question
    assert t.body.split("\n") == [
        "Priya Nair: Hi Tom, can you hear me?",
        "Tom Becker: Yes, hi Priya.",
        "Priya Nair: Can you see my screen?",
        "Tom Becker: I can.",
        "Priya Nair: Could you walk me through the data pipeline you built at your last company?",
        "Tom Becker: The streaming one?",
        "Priya Nair: Yes, the one with the payment events.",
        "Tom Becker: Sure. I built the ingestion on Kafka and the batch layer on Spark.",
        "Priya Nair: How did you handle late events? No worries, we can come back to it."
        " Next question: why are you leaving your current job?",
        "Tom Becker: I want to work on streaming full time.",
        "Priya Nair: Our team runs about forty pipelines and most of them are on Flink now.",
        "Tom Becker: Oh, nice. Flink is great.",
        "Priya Nair: What is the difference between a watermark and a trigger?",
        "Tom Becker: I don't know.",
        "Priya Nair: Do you have any questions for us?",
        "Tom Becker: How big is the team?",
        "Priya Nair: Thanks for your time, Tom.",
    ]


def test_a_question_rephrased_is_one_a_question_let_go_is_unanswered() -> None:
    """Teams splits what one speaker says into captions: a question rephrased in the
    next ones is still the one question; one the interviewer lets go (`No worries.`)
    before the candidate says anything is unanswered, and the answer to the next is not
    its answer. Teams' `(Guest)` is the account's, not the name's."""
    t = read(
        vtt(
            ("00:00:01", "<v Priya Nair>How did you handle late events?</v>"),
            (
                "00:00:20",
                "<v Priya Nair>I mean, events that arrive after the window has closed.</v>",
            ),
            ("00:00:25", "<v Priya Nair>How would you handle them?</v>"),
            ("00:00:30", "<v Tom Becker (Guest)>I would keep the window open a while.</v>"),
            ("00:01:00", "<v Priya Nair>What made you apply here?</v>"),
            ("00:01:10", "<v Priya Nair>Okay, no worries.</v>"),
            ("00:01:15", "<v Priya Nair>Next question, how do you test your pipelines?</v>"),
            ("00:01:20", "<v Tom Becker (Guest)>With small fixtures in pytest.</v>"),
            ("00:02:00", "<v Priya Nair>你为什么想换工作？</v>"),
            ("00:02:10", "<v Priya Nair>没关系，我们换个问题。</v>"),
            ("00:02:12", "<v Priya Nair>说说你最熟悉的数据库。</v>"),
            ("00:02:20", "<v Tom Becker (Guest)>PostgreSQL。</v>"),
        )
    )
    assert (t.name, t.interviewers) == ("Tom Becker", ["Priya Nair"])
    assert questions(t) == [
        q(
            1,
            "00:00:01",
            "How did you handle late events? I mean, events that arrive after the window"
            " has closed. How would you handle them?",
            "I would keep the window open a while.",
        ),
        q(2, "00:01:00", "What made you apply here?", "", "empty"),
        q(
            3,
            "00:01:15",
            "Next question, how do you test your pipelines?",
            "With small fixtures in pytest.",
        ),
        q(4, "00:02:00", "你为什么想换工作？", "", "empty"),
        q(5, "00:02:12", "说说你最熟悉的数据库。", "PostgreSQL。"),
    ]
    assert "Tom Becker (Guest): With small fixtures in pytest." in t.body.split("\n")


TYPED_WITH_NOTES = """姓名：张三
面试官：李四

面试官：请介绍一下你做过的项目。
候选人：我做过一个订单系统。
面试官：Redis 持久化有哪几种方式？
（未作答，直接进入下一题）
面试官：下一题，说说 TCP 三次握手。
候选人：客户端发 SYN，服务端回 SYN+ACK，客户端再回 ACK。
面试官：Kafka 怎么保证顺序？
候选人：（候选人思考后表示不清楚）
"""


def test_a_note_takers_line_is_no_part_of_the_question_before_it() -> None:
    """`（未作答，直接进入下一题）` under a question is what became of its answer: the
    question is not run on into the next, and the next one's answer is not its answer.
    (Whether such a note reads as no answer is store/transcripts/answers.py's.)"""
    t = read(TYPED_WITH_NOTES)
    assert (t.name, t.interviewers) == ("张三", ["李四"])
    found = questions(t)
    assert [(x["number"], x["question"], x["answer"]) for x in found] == [
        (1, "请介绍一下你做过的项目。", "我做过一个订单系统。"),
        (2, "Redis 持久化有哪几种方式？", "（未作答，直接进入下一题）"),
        (3, "下一题，说说 TCP 三次握手。", "客户端发 SYN，服务端回 SYN+ACK，客户端再回 ACK。"),
        (4, "Kafka 怎么保证顺序？", "（候选人思考后表示不清楚）"),
    ]
    assert (found[0]["answered"], found[2]["answered"]) == (True, True)
    assert all(x["answered"] == (x["unanswered_reason"] is None) for x in found)
    assert t.body.split("\n")[2:5] == [
        "面试官: Redis 持久化有哪几种方式？",
        "（未作答，直接进入下一题）",
        "面试官: 下一题，说说 TCP 三次握手。",
    ]


def test_greetings_and_checks_are_never_questions() -> None:
    zoom = vtt(
        ("00:00:01", "Hana Sato: Can you see that."),
        ("00:00:03", "Ken Ito: Yes, I can see it."),
        ("00:00:05", "Hana Sato: Did you all have a good week so far?"),
        ("00:00:08", "Ken Ito: Yes, a busy one."),
        ("00:00:10", "Hana Sato: How are you doing today?"),
        ("00:00:12", "Ken Ito: Fine, thanks."),
        ("00:00:20", "Hana Sato: Tell me about your last project."),
        ("00:00:25", "Ken Ito: A mobile app for clinics."),
        ("00:01:00", "Hana Sato: Thank you for sharing that."),
    )
    t = read(zoom)
    assert (t.name, t.interviewers) == ("Ken Ito", ["Hana Sato"])
    assert questions(t) == [
        q(1, "00:00:20", "Tell me about your last project.", "A mobile app for clinics."),
    ]


def test_a_podcast_of_one_guest_is_an_interview_of_that_guest() -> None:
    t = read(PODCAST, "podcast")
    assert (t.name, t.interviewers, t.questions_read) == ("Omar Haddad", ["Lena Vogel"], True)
    assert questions(t) == [
        q(
            1,
            "00:00:09",
            "So how did you get into making games?",
            "I started with map editors as a kid, then taught myself C.",
        ),
        q(
            2,
            "00:00:40",
            "What made you go solo after the studio closed?",
            "I wanted to finish one game of my own, start to end.",
        ),
    ]
    assert t.body.split("\n")[:2] == [
        "Lena Vogel: Welcome to the show. Today I'm here with Omar Haddad.",
        "Omar Haddad: Thanks for having me.",
    ]


def test_an_interview_that_speaks_of_we_is_still_an_interview() -> None:
    """`我们先…`, `我们下一个问题`, `Let's talk about…`, `we'll`: interviewers say them too;
    they plan nothing."""
    chinese = vtt(
        ("00:00:01", "刘洋: 你好，我们先从项目聊起吧，你介绍一下最近做的项目。"),
        ("00:00:08", "陈静: 我最近在做订单系统的拆分。"),
        ("00:01:00", "刘洋: 好，我们下一个问题，MySQL 的索引是怎么实现的？"),
        ("00:01:05", "陈静: 用的是 B+ 树。"),
    )
    t = read(chinese)
    assert (t.name, t.interviewers) == ("陈静", ["刘洋"])
    assert questions(t) == [
        q(
            1,
            "00:00:01",
            "你好，我们先从项目聊起吧，你介绍一下最近做的项目。",
            "我最近在做订单系统的拆分。",
        ),
        q(2, "00:01:00", "好，我们下一个问题，MySQL 的索引是怎么实现的？", "用的是 B+ 树。"),
    ]
    english = vtt(
        ("00:00:01", "Nina Park: Let's talk about your last role. What did you own there?"),
        ("00:00:08", "Raj Patel: I owned the search ranking service."),
        ("00:00:30", "Nina Park: We'll come to design later. Why did you leave?"),
        ("00:00:35", "Raj Patel: The team was dissolved after a merger."),
    )
    t = read(english)
    assert (t.name, t.interviewers) == ("Raj Patel", ["Nina Park"])
    assert [(x["question"], x["answer"]) for x in questions(t)] == [
        (
            "Let's talk about your last role. What did you own there?",
            "I owned the search ranking service.",
        ),
        (
            "We'll come to design later. Why did you leave?",
            "The team was dissolved after a merger.",
        ),
    ]


def test_a_panel_names_only_those_who_ask_as_interviewers() -> None:
    panel = vtt(
        ("00:00:01", "Anna Berg: Thanks for joining. Could you introduce yourself?"),
        ("00:00:05", "Leo Kim: I'm Leo, a backend engineer for six years."),
        ("00:00:30", "Marta Diaz: How did you scale the queue at your last job?"),
        ("00:00:35", "Leo Kim: We sharded it by tenant."),
        ("00:01:00", "Anna Berg: What made you apply here?"),
        ("00:01:05", "Leo Kim: The product."),
        ("00:01:30", "Sofia Ruiz: I'm just taking notes today."),
    )
    t = read(panel)
    assert (t.name, t.interviewers) == ("Leo Kim", ["Anna Berg", "Marta Diaz"])
    assert [(x["number"], x["started_at"], x["answer"]) for x in questions(t)] == [
        (1, "00:00:01", "I'm Leo, a backend engineer for six years."),
        (2, "00:00:30", "We sharded it by tenant."),
        (3, "00:01:00", "The product."),
    ]


def test_who_asks_counts_requests_and_a_remark_ends_the_answer() -> None:
    """王磊 asks with a request (`介绍一下…吧。`) and a question, 李娜 with one question of her
    own: 王磊 is the interviewer. His compliment after her answer ends it: her thanks
    answer nothing."""
    zh = vtt(
        ("00:00:01", "王磊: 你介绍一下最近做的项目吧。"),
        ("00:00:05", "李娜: 您说的是哪个项目？"),
        ("00:00:08", "王磊: 就是你简历上第一个。"),
        ("00:00:10", "李娜: 那个是支付网关，我负责对账模块。"),
        ("00:00:40", "王磊: 我玩过你们的产品，体验很好，界面也很漂亮。"),
        ("00:00:45", "李娜: 谢谢，是的。"),
        ("00:01:00", "王磊: 为什么想离开现在的公司？"),
        ("00:01:05", "李娜: 想做更底层的东西。"),
    )
    t = read(zh)
    assert (t.name, t.interviewers) == ("李娜", ["王磊"])
    assert questions(t) == [
        q(
            1,
            "00:00:01",
            "你介绍一下最近做的项目吧。",
            "您说的是哪个项目？\n那个是支付网关，我负责对账模块。",
        ),
        q(2, "00:01:00", "为什么想离开现在的公司？", "想做更底层的东西。"),
    ]


def test_whisper_without_speakers_is_an_interview_whose_questions_cannot_be_read() -> None:
    t = read(WHISPER, "whisper")
    assert (t.kind, t.questions_read, t.questions) == ("meeting", False, [])
    assert (t.name, t.interviewers, t.verdict, t.summary) == (None, [], None, "")
    # the words as written, the captions joined into sentences
    assert t.body == (
        "Hello and welcome to another episode of the studio podcast. I'm here with the maker"
        " of a small puzzle game. Do you want to introduce yourself? Sure, I'm a solo"
        " developer from Lyon. So how did you start working on this game? It began as a"
        " weekend jam project with a friend."
    )


def test_captions_that_begin_with_a_word_and_a_colon_name_no_speakers() -> None:
    """Whisper writes `Note: …` as it hears it: two such captions are not two speakers."""
    noted = WHISPER.replace(
        "Sure, I'm a solo developer from Lyon.", "Note: I'm a solo developer from Lyon."
    ).replace("It began as a weekend jam project", "Answer: it began as a weekend jam project")
    t = read(noted)
    assert (t.questions_read, t.questions, t.name, t.interviewers) == (False, [], None, [])
    assert "yourself? Note: I'm a solo developer from Lyon." in t.body
    assert t.body.endswith("this game? Answer: it began as a weekend jam project with a friend.")


def test_a_recording_with_no_captions_says_no_question_was_found() -> None:
    assert refused("WEBVTT\n\n") == "vtt_no_questions"


def test_speech_to_text_that_asks_nobody_anything_is_refused() -> None:
    assert refused(LECTURE_SRT) == "speech_no_questions"
    lecture_vtt = "WEBVTT\n\n" + LECTURE_SRT.replace(",", ".").split("\n", 1)[1]
    assert refused(lecture_vtt) == "speech_no_questions"


def test_an_otter_export_names_its_interviewer_from_the_details() -> None:
    t = read(OTTER, "otter")
    assert (t.name, t.interviewers) == ("Ada Quinn", ["Ben Carter"])
    assert (t.interviewed_at, t.interviewed_at_text) == ("2023-03-03", "March 3, 2023")
    assert questions(t) == [
        q(
            1,
            "00:00:16",
            "So you're the only developer on Tidewater, how did you become a developer.",
            "I taught myself to program from game magazines, and later studied computer science.",
        ),
        # "Yes, both demos." follows the interviewer's remark: no answer to question 1
        q(
            2,
            "00:02:00",
            "How long have you been working on it?",
            "Since 2020, mostly in the evenings.",
        ),
    ]
    assert t.body.split("\n")[:2] == [
        "Ben Carter: Hello everyone, and welcome. Today I have with me Ada Quinn.",
        "Ada Quinn: Hi everyone, I'm Ada, and I'm making Tidewater.",
    ]


def test_stated_roles_are_read_as_stated() -> None:
    """Role words in the labels say it is an interview: no guess overrides them, and a
    third speaker who asks nothing is nobody's interviewer."""
    stated = vtt(
        ("00:00:01", "面试官: 请介绍一下你最近的项目。"),
        ("00:00:10", "候选人: 我做了一个推荐系统。"),
        ("00:00:20", "记录员: 我来记一下。"),
        ("00:00:30", "面试官: 这周的排期紧吗？"),
        ("00:00:35", "候选人: 还好。"),
    )
    t = read(stated)
    assert (t.name, t.interviewers) == (None, [])
    assert [x["question"] for x in questions(t)] == ["请介绍一下你最近的项目。", "这周的排期紧吗？"]


# -- through the command line: skipped, each with its reason --------------------------------


def debrief(db: str, *args: str) -> Any:
    done = run_debrief(*args, "--json", env={"DEBRIEF_DB": db}, cwd=ROOT)
    assert "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


@pytest.mark.both_backends
def test_index_skips_what_is_no_interview_saying_what_it_is(db_target: str, tmp_path: Path) -> None:
    folder = tmp_path / "recordings"
    folder.mkdir()
    for name, text in (
        ("workshop.vtt", WORKSHOP),
        ("planning.vtt", PLANNING),
        ("sprint.txt", PLANNING_FEISHU),
        ("lecture.srt", LECTURE_SRT),
        ("teams.vtt", TEAMS),
        ("otter.md", OTTER),
        ("whisper.vtt", WHISPER),
    ):
        (folder / name).write_text(text, encoding="utf-8")
    run = debrief(db_target, "index", str(folder))
    assert run["failed"] == []
    assert sorted(run["indexed"]) == ["otter", "teams", "whisper"]
    assert sorted((Path(s["path"]).name, s["reason"]) for s in run["skipped"]) == [
        ("lecture.srt", "speech-to-text with no questions to anyone, not an interview"),
        (
            "planning.vtt",
            "a work meeting, not an interview: the speakers plan or discuss work together,"
            " nobody is asked about their experience or skills",
        ),
        (
            "sprint.txt",
            "a work meeting, not an interview: the speakers plan or discuss work together,"
            " nobody is asked about their experience or skills",
        ),
        (
            "workshop.vtt",
            "a recording with many speakers (a workshop, a class or a webinar), not an interview",
        ),
    ]
    shown = debrief(db_target, "show", "teams")
    assert (shown["name"], shown["interviewers"]) == ("Tom Becker", ["Priya Nair"])
    assert [(x["number"], x["answered"]) for x in shown["questions"]] == [
        (1, True),
        (2, False),
        (3, True),
        (4, False),
    ]


# -- the real recordings in ../shared/realworld/ (other people's: read there, never copied) --


def real(name: str) -> str:
    path = REALWORLD / name
    if not path.is_file():
        pytest.skip(f"{path} is not here")
    return path.read_text(encoding="utf-8")


def test_real_teams_interview_is_read_with_its_facts() -> None:
    t = read(real("mt01_teams_interview.vtt"))
    assert (t.name, t.interviewers, t.questions_read) == ("Jane Doe", ["John Smith"], True)
    found = questions(t)
    assert [x["started_at"] for x in found] == ["00:00:25", "00:00:38", "00:00:48"]
    assert found[0]["question"].startswith("Can you tell me about a time you faced")
    assert found[0]["answer"].startswith("One example that comes to mind")
    assert found[1]["answer"].startswith("Handling the edge cases")
    assert found[2]["answer"].startswith("I wrote a comprehensive test suite")
    assert all(x["answered"] for x in found)
    assert t.body.startswith("John Smith: Hello, I am the interviewer.\nJane Doe: Nice.")


def test_real_zoom_workshop_is_refused() -> None:
    with pytest.raises(NotATranscript) as caught:
        meeting_transcript(real("mt02_zoom_teacher_workshop.vtt"), "m", "m", "h")
    assert caught.value.code == "meeting_many_speakers"


def test_real_whisper_podcast_is_an_interview_whose_questions_cannot_be_read() -> None:
    t = read(real("mt05_whisper_podcast.vtt"))
    assert (t.questions_read, t.questions, t.name, t.interviewers) == (False, [], None, [])
    assert t.body.startswith("Hello everyone and welcome to yet another Hit Save podcast.")
    assert "Do you want to introduce yourself?" in t.body


def test_real_otter_interview_is_read_with_its_facts() -> None:
    t = read(real("mt08_otter_gigasword.md"))
    assert (t.name, t.interviewers) == ("Jack Breen", ["Jonas Rosland"])
    assert (t.interviewed_at, t.interviewed_at_text) == ("2022-02-16", "February 16, 2022")
    found = questions(t)
    assert [x["started_at"] for x in found] == ["00:00:36", "00:01:51", "00:07:29", "00:08:33"]
    assert found[0]["answer"].startswith("It is actually just me.")
    # the reply to the remark at 1:13 ("Yes, yep. Both of them.") answers no question
    assert "Both of them" not in found[0]["answer"]
    assert found[1]["question"].endswith("how did you become a developer.")
    assert found[1]["answer"].startswith("Um, so this is actually what I've always wanted")
    assert found[2]["answer"].startswith("I started this in 2019.")
    assert found[3]["answer"].startswith("So Ezra is the main character")
    assert all(x["answered"] for x in found)


def test_real_asr_text_never_reaches_the_meeting_reader() -> None:
    """cn18 is plain text without times or speakers: no meeting form reads it, so the
    meeting reader says it is none (None), and the reader's kind step decides."""
    text = real("cn18_founder_asr.txt")
    assert meeting_transcript(text, "m", "m", "h") is None
