"""The loop card within Slack's limits (issue 38): twelve interviews of long verdicts, many
open questions and long names, still one message of at most 50 blocks, no section over
3,000 characters and the block text within the budget Slack takes."""

from __future__ import annotations

import json

from handlers.blocks import MAX_BLOCKS, MAX_SECTION, MESSAGE_BUDGET, json_size
from handlers.views.loops import loop_view
from store.loop_models import Loop, LoopInterview, OpenQuestion
from store.models import Outcome

LONG = "这位候选人&lt;的回答很长" * 200 + "。后面还有很多。"


def loop_of_twelve() -> Loop:
    interviews = [
        LoopInterview(
            id=f"wang-{i:02d}-" + "x" * 80,
            round=f"第{i}轮<面试>" * 4,
            interviewed_at=f"2026-11-{i + 1:02d}T14:30",
            interviewers=["面试官&amp;" * 30] * 6,
            decisions={"hire": 2, "no_hire": 1, "hold": 3},
            open_questions=list(range(1, 40)),
            verdict=LONG,
            questions=40,
        )
        for i in range(1, 13)
    ]
    open_qs = [
        OpenQuestion(interview=iv.id, number=n, question=LONG, round=iv.round)
        for iv in interviews
        for n in range(1, 40)
    ]
    outcome = Outcome(decision="hold", note=LONG, by="ULEAD", at="2026-12-01T10:00:00")
    return Loop(
        key="k",
        name="王" * 80,
        position="后端" * 80,
        interviews=interviews,
        open=open_qs,
        outcome=outcome,
    )


def test_twelve_long_interviews_fit_one_message() -> None:
    for locale in ("zh", "en"):
        for posted_by in (None, "Recruiter"):
            msg = loop_view(loop_of_twelve(), locale, posted_by)
            assert len(msg.blocks) <= MAX_BLOCKS
            assert json_size(msg.blocks) <= MESSAGE_BUDGET
            for b in msg.blocks:
                text = b.get("text", {}).get("text", "") if b["type"] == "section" else ""
                assert len(text) <= MAX_SECTION
            # every interview is there, none cut off by the last-resort guard
            dumped = json.dumps(msg.blocks, ensure_ascii=False)
            assert all(f"2026-11-{i + 1:02d} 14:30" in dumped for i in range(1, 13))
            assert "…" not in msg.blocks[-1].get("text", {}).get("text", "x")[:1]
