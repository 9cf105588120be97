"""What a written record says about an answer in a few words: the candidate's mark beside
a question (`***没答上来***`, `我回答不会`, `(没答出来)`, `答得不好`, `I don't know`) and a
short answer that is no answer (`不知道`, `这块我没怎么接触过，跳过吧`,
`（候选人思考后表示不清楚）`). Pure functions over text, used by the written layout
families (question_lists.py, qa.py).

Read on top of store/transcripts/answers.py's grammar (`unanswered_reason`), clause by
clause: a mark or an answer is no answer when each of its clauses is none (`跳过吧` and
`这块我没怎么接触过` together), or when its first clause says the candidate could not
answer and the rest only says what little they said (`确实忘了，只说使用定时器触发`).
What that grammar does not read is read here:

- stage directions and asides about not answering: `没怎么接触过`, `思考后表示不清楚`,
  `直接进入下一题`;
- a cross beside a question (`❌`, `✗`, `×`): `dont_know`, as a poor answer;
- an answer marked poor (`答得不好`, `答的一般`, `没答好`, `答错了`, `answered poorly`):
  the candidate said something, but the record says it was not the answer. It counts as
  unanswered with the reason `dont_know` (did not know it well enough), never as
  answered: nothing on a card may credit it, and the mark is kept as the answer so the
  card shows the record's own words.

Every pattern here is bounded or possessive: no run of spaces or punctuation makes them
backtrack.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from ..models import UnansweredReason
from .answers import compact, unanswered_reason

# the reasons, the most telling first: what a mark of several clauses is given
_ORDER: tuple[UnansweredReason, ...] = ("dont_know", "skipped", "empty")

# Over compacted text (answers.compact: no spaces, punctuation or case).
_poor_re = cache(
    lambda: re.compile(
        r"(?:回)?答(?:得|的)?(?:不好|不太好|不是很好|不怎么好|很差|较差|一般|不全|不完整|不对|错了|有问题|很烂|稀烂)"
        r"|没(?:有)?(?:回)?答好|答错(?:了)?|答偏(?:了)?|答歪(?:了)?"
        r"|(?:answered|answer(?:ed)?it)?(?:poorly|badly|wrong|incorrectly)|notwell|wronganswer"
    )
)
_aside_re = cache(
    lambda: re.compile(
        r"没(?:有)?怎么(?:接触|用|做|了解|学|研究|看)过"
        r"|(?:思考|想了想|想了一会|沉默|停顿)(?:了)?(?:很久|片刻|一会儿|一会)?(?:后|之后|以后)?"
        r"(?:表示|说)(?:不太|不是很|不怎么|不)(?:清楚|知道|会|了解|懂)"
        r"|(?:直接)?(?:进入|跳到|转到|换到)(?:了)?下一(?:题|道题|个问题|问题)"
    )
)

# a cross beside a question: not answered, or answered wrong (a tick is left as written:
# it is no answer's words)
CROSSES = ("❌", "✗", "✘", "❎", "×")
# a clause: what lies between two of these
_clause_split_re = cache(lambda: re.compile(r"[，,。.;；！!？?、()（）\[\]【】\n]++"))

# a clause that says nothing either way beside others: `Sorry, no.`, `嗯，`
_neutral_re = cache(
    lambda: re.compile(
        r"(?:sorry|no|nope|um+|uh+|er+m?|well|ok|okay|嗯|呃|额|抱歉|不好意思|对不起)+"
    )
)
# what follows `确实忘了，` when the record only says how little was said
_only_said = cache(lambda: re.compile(r"(?:只|仅|就|(?i:only|just)\b)"))
# what follows `Didn't answer;` when the record says what was said instead
# or what the writer learnt after the interview (`后来查了一下，是…`)
_instead_re = cache(
    lambda: re.compile(
        r"(?i:\binstead\b|\blater\b|\bturns\s+out\b)|转而|反而|扯到|岔开"
        r"|(?:后来|面完|事后|回去|回来)(?:才|又|再)?(?:查|搜|看|问|知道|发现)"
    )
)
# A trailing aside in brackets: `（没答出来）`, `(I don't know)`.
_bracket_tail_re = cache(lambda: re.compile(r"[(（](?P<inner>[^()（）]{1,80})[)）]\s*+$"))
# A trailing clause after a separator: `…，我回答不会`, `… - 不会`, `…  I don't know`.
_clause_tail_re = cache(
    lambda: re.compile(
        r"(?:[，,;；？?]|\s(?:[-—–→]+|\s)|[-—–→]{1,3}|\t)\s*+(?P<tail>[^，,;；？?\t]{1,40})$"
    )
)
# After the question's mark, the record's account of the answer: `期望薪资？ 我说了25k`.
_account_tail_re = cache(
    lambda: re.compile(
        r"[？?][ \t\u3000]*+(?P<tail>(?:我(?:说|答|回答|讲)|回答|答了|答[:：])[^？?\n]{0,60})$"
    )
)
ANSWER_LONGEST = 400  # characters: a longer text is an answer, whatever it contains
TAIL_LONGEST = 90  # characters: a mark not in brackets or emphasis is within the line's last
MARK_GAP = ("  ", "\t", "\u3000", "-", "—", "–", "→", "：", ":", "，", ",", "（", "(")


POOR_AROUND = 4  # compacted characters beside `答得不好` that still only say it (`感觉`)


def poor(text: str) -> bool:
    """Does `text` only say the answer was poor (`答得不好`, `感觉没答好`, `answered
    poorly`)? Not an answer that mentions it (`我答得不对的地方后来改了`)."""
    kept = compact(text)
    if not kept or len(kept) > 30:
        return False
    m = _poor_re().search(kept)
    return m is not None and len(kept) - len(m.group(0)) <= POOR_AROUND


def _aside(kept: str) -> UnansweredReason | None:
    """Why a compacted clause is no answer, by the asides answers.py does not read."""
    if len(kept) > 30:
        return None
    m = _aside_re().search(kept)
    if m is None:
        return None
    before, after = kept[: m.start()], kept[m.end() :]
    # only fillers around it: what answers.py reads as nothing when the aside goes
    rest = before + after
    if rest and unanswered_reason(rest) is None and not _only_who(rest):
        return None
    if m.group(0).endswith(("题", "问题")):
        return "skipped"
    return "dont_know"


def _only_who(rest: str) -> bool:
    """`候选人`, `这块`, `吧`: words that only say who or what, no answer."""
    return _who_re().fullmatch(rest) is not None


_who_re = cache(
    lambda: re.compile(r"(?:候选人|面试者|他|她|我|这块|这个|这题|吧|了|的|也|就|直接)+")
)


def _clause_reason(clause: str) -> UnansweredReason | None:
    reason = unanswered_reason(clause)
    if reason is not None or len(clause) > ANSWER_LONGEST:
        return reason
    kept = compact(clause)
    if not kept:
        return "empty"
    if poor(clause):
        return "dont_know"
    return _aside(kept)


def non_answer(text: str) -> UnansweredReason | None:
    """Why `text` (an answer or a mark) is no answer; None when it is an answer. Whole,
    then clause by clause: every clause none, or the first says the candidate could not
    answer (`确实忘了，只说使用定时器触发`, `答得不好，只说了…`) or did not, and the next
    what was said instead (`Didn't answer; talked about team culture instead.`)."""
    if text.strip() in CROSSES:
        return "dont_know"  # a cross beside the question: not answered (or wrong)
    reason = _clause_reason(text)
    if reason is not None:
        return reason
    if len(text) > ANSWER_LONGEST:
        return None  # an answer of some length
    clauses = [
        c.strip()
        for c in _clause_split_re().split(unicodedata.normalize("NFKC", text))
        if c.strip()
    ]
    if len(clauses) < 2:
        return None
    reasons = [_clause_reason(c) for c in clauses if _neutral_re().fullmatch(compact(c)) is None]
    if not reasons:
        return None
    first = reasons[0]
    if first is None:
        return None
    if all(r is not None for r in reasons):
        return min((r for r in reasons if r is not None), key=_ORDER.index)
    if first == "dont_know" and _only_said().match(clauses[1]) is not None:
        return first  # `确实忘了，只说使用定时器触发`: not the answer
    if first in ("dont_know", "empty") and _instead_re().search(clauses[1]) is not None:
        return first  # `Didn't answer; talked about team culture instead.`, `没答上来。后来查了…`
    return None


def split_mark(text: str, marks: tuple[str, ...]) -> tuple[str, str]:
    """A question's line as (the question, the candidate's mark beside it, `""` for
    none). A mark is an emphasised run that ends the line after a gap (`…中断
    ***没答上来***`), an aside in brackets that says no answer (`（没答出来）`), a last
    clause that does (`…，我回答不会`), a cross at either end (`❌ …`, `… ✗`), or after the
    question's `？` the record's account of the answer (`期望薪资是多少？ 我说了25k`). Emphasis inside the question (`讲讲 **HashMap**`)
    is no mark unless it says no answer."""
    line = text.strip()
    for cross in CROSSES:  # `❌ Linux的任务调度原理`, `Linux的任务调度原理 ✗`
        if line.startswith(cross) or line.endswith(cross):
            question = line.strip(cross + " \t\u3000")
            if question and cross not in question:
                return question, cross
    if marks:
        last = marks[-1].strip()
        if last and line.endswith(last) and len(line) > len(last):
            head = line[: -len(last)]
            question = head.rstrip(" \t\u3000-—–→:：，,(（")
            if question and (head.endswith(MARK_GAP) or non_answer(last) is not None):
                return question, last
    end = max(len(line) - TAIL_LONGEST, 0)  # a mark is at the end: read no further back
    m = _bracket_tail_re().search(line, end)
    if m is not None and line[: m.start()].strip() and non_answer(m.group("inner")) is not None:
        return line[: m.start()].rstrip(), m.group("inner").strip()
    m = _clause_tail_re().search(line, end)
    if m is not None:
        head = line[: m.start("tail")].rstrip(" \t\u3000，,;；-—–→")  # `？` stays
        tail = m.group("tail").strip()
        if head and tail and non_answer(tail) is not None:
            return head, tail
    m = _account_tail_re().search(line, end)
    if m is not None and line[: m.start("tail")].strip():
        return line[: m.start("tail")].rstrip(), m.group("tail").strip()
    return line, ""
