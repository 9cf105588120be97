"""Transcript parser: bytes in, a `Transcript` or a `ParseError` out.

A pure function. It reads no files, knows nothing of SQLite or Slack, and never
raises anything but `ParseError` (or its subclass `NotATranscript`) for bad input.

The format, as the recruiters write it::

    <summary paragraph(s), maybe under a title line>
    岗位：<position>  从业年限：<N年>
    简介：<profile>
    问题1：<question>
    考察目标：<what it assesses>
    回答：<answer, any number of lines; empty = unanswered>
    ...
    点评：<the reviewer's verdict, to the end of the file>

Labels count only at the start of a line, followed by a colon (question labels may
also end with `、`, `.` or a space: `问题1、`, `第一题 `, `Q1.`). A label's value may
be on the same line or on the next. Colons may be ASCII or full-width with any spaces
around them; numbers may be ASCII, full-width or Chinese numerals. Each label has
other names people give it (`labels.py`); what years, answers, dates and names mean is
`years.py`, `answers.py`, `dates.py` and `names.py`; the pieces the parse puts together
(a question as it is read, a block of lines, the summary without its title) `drafts.py`.

Where a label counts:

- the header labels (岗位, 从业年限, 简介 and their other names) only before the
  first question: inside an answer, `经验：我做过…` is answer text;
- 考察目标 only once per question, before its 回答; 回答 only once per question;
- a verdict label (点评, 评语, Verdict…) anywhere. After the first question the
  verdict runs to the end of the file; before it (a `面试结论：通过` at the top), the
  verdict ends at the next header or question label.

Who and when (姓名/候选人, 面试官, 面试日期, 轮次 and their other names) count only
before the first question, anywhere in the header and several on a line: there they
are taken out of the summary. After it, `面试官：…` / `候选人：…` are the dialogue of a
question and its answer, as ever. A value that does not read as a name (`候选人：男，
28岁`) leaves its line as text; a date that cannot be read is kept as written, its
date None.

What is not the interview's (issue 46):

- the candidate's questions and the writer's remarks: a line `反问：…`, `## 反问环节`,
  `Questions for the interviewer`, or `备注` / `其他` alone on its line, ends the answer
  (or the verdict) before it; what follows is set aside up to the next label.
- a verdict label in a list item (`- 面试评价：整体还行`) is text inside such a part: the
  candidate asking how it went is no verdict of the file's. Elsewhere a list item
  `- 点评：…` is the verdict as a line would be (after the questions, often the only
  verdict-like line there), but it is no evidence of the layout: a file whose only
  label is one (a 面经's bullet list) is NotATranscript, left to the other readers,
  never a ParseError.
- the summary is the first paragraph before the header only when it reads as one
  (`drafts.clean_summary`): a list, a question or metadata (front matter, set aside by
  `markdown.py`) is none; a `总结：` label's is, always.

`Summary:` / `Overview:` (English) is the opening summary when it comes before any
header label, and the profile (简介) when it comes after `Position:` / `Years…:` and
no profile label has been seen: in the seeds' order, the paragraph after the
position and years is the profile. The Chinese 摘要/总结/概述 are always the summary.

One long function, on purpose: the reading is one pass over the lines whose states
(summary, header, question, goal, answer, verdict) only make sense together; the
grammar it matches and what values mean already live in the modules named above.

A file with no transcript label at all (a README, notes) raises `NotATranscript`;
a file that has labels but neither a position nor a question raises `ParseError`.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import PurePath

from ..models import Transcript
from ..scripts import fold
from .dates import parse_interview_date
from .dialogue import meeting_transcript
from .drafts import Draft, block, clean_summary, identity_accepted, questions
from .errors import (
    CONTROL_CHARACTERS,
    NO_LABELS,
    NO_POSITION_NOR_QUESTION,
    NotATranscript,
    ParseError,
)
from .formats import byte_limit, extract_text, too_large_error
from .labels import (
    HEADER_KINDS,
    IDENTITY_KINDS,
    NEXT_LINE_VALUE_MAX,
    HeaderKind,
    control_re,
    identity_kind,
    label_kind,
    list_item_re,
    match_field,
    match_identity,
    numbered_re,
    question_re,
    remarks_re,
    split_header,
    split_inline_qa,
    table_rule_re,
)
from .names import says_nothing, split_names
from .numerals import parse_question_number
from .years import parse_years


def content_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def transcript_id(name: str) -> str:
    """The file name without its extension: `000_9e6b.txt` -> `000_9e6b`."""
    base = PurePath(name).name
    stem = PurePath(base).stem if "." in base.lstrip(".") else base
    return stem.strip() or base


def parse_transcript(data: bytes, name: str, source: str | None = None) -> Transcript:
    """Parse one transcript file's bytes. `name` gives the id; `source` is recorded as is."""
    if len(data) > byte_limit(data, name):
        raise too_large_error(len(data), byte_limit(data, name))
    text = extract_text(data, name).replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
    lines = text.split("\n")

    bad = len(control_re().findall(text)) + text.count("\ufffd")
    if bad > max(8, len(text) // 100):
        raise ParseError(CONTROL_CHARACTERS)
    # WebVTT, SRT, a meeting tool's export, a typed dialogue: dialogue.py
    meeting = meeting_transcript(
        text, transcript_id(name), source if source is not None else name, content_hash(data)
    )
    if meeting is not None:
        return meeting

    summary: list[str] = []
    late_summary: list[str] = []  # a 总结： after the header
    position: str | None = None
    years_text = ""
    intro: list[str] = []
    drafts: list[Draft] = []
    verdict: list[str] | None = None
    verdict_open = False  # lines go to the verdict
    who: str | None = None  # the candidate's name
    interviewers: list[str] = []
    date_text = ""
    round_: str | None = None
    ref: str | None = None  # the candidate's explicit key, as written
    remarks: list[str] = []  # the candidate's 反问, the writer's 备注: no fact of the interview
    target: list[str] = summary
    pending: HeaderKind | None = None  # a label whose value is on a next line
    header_seen = False  # a position or years label
    intro_seen = False
    evidence: set[str] = set()  # which labels counted: "cn" (any Chinese), "position", …

    def identity(kind: HeaderKind, value: str) -> None:
        nonlocal who, date_text, round_, ref
        if kind == "date":
            date_text = date_text or value
        elif says_nothing(value):
            pass
        elif kind == "ref":
            ref = ref or value
        elif kind == "name":
            who = who or value
        elif kind == "interviewers":
            interviewers.extend(n for n in split_names(value) or [] if n not in interviewers)
        else:
            round_ = round_ or value

    def header(key: HeaderKind, rest: str) -> list[HeaderKind] | None:
        """A header line: the kinds of fields taken from it, or None (nothing taken)
        when it starts with a who-or-when label whose value does not read as one."""
        nonlocal position, years_text, pending, target, header_seen, intro_seen
        parts = split_header(key, rest, None if key == "intro" else identity_accepted)
        if key in IDENTITY_KINDS and not identity_accepted(*parts[0]):
            return None
        for kind, value in parts:
            if kind == "position":
                position = position or value or None
                header_seen = True
            elif kind == "years":
                years_text = years_text or value
                header_seen = True
            elif kind == "intro":
                intro.append(value)
                intro_seen = True
            else:
                identity(kind, value)
                continue
            evidence.add(kind)
            target = intro
        last_kind, last_value = parts[-1]
        pending = last_kind if last_kind != "intro" and not last_value else None
        return [kind for kind, _value in parts]

    def identity_line(line: str) -> re.Match[str] | None:
        """`line` as a who-or-when line of the header, if it reads as one."""
        m = match_identity(line)
        if m is None:
            return None
        kind = identity_kind(m)
        first = split_header(kind, m.group("rest") or "", identity_accepted)[0]
        return m if identity_accepted(*first) else None

    field_matches = [match_field(line) for line in lines]
    question_matches = [
        None if fm else question_re().match(line)
        for fm, line in zip(field_matches, lines, strict=True)
    ]
    # Numbered lists count as questions only in a file with no question label at all.
    numbered_ok = not any(question_matches)

    def numbered_question(at: int) -> bool:
        """Is the numbered line `lines[at]` a question? Only if the next label after it
        is a 考察目标 or 回答 that cannot belong to the question before it; another
        numbered line or any other label first means it is a list item."""
        for later in range(at + 1, len(lines)):
            fm = field_matches[later]
            if not drafts and identity_line(lines[later]) is not None:
                continue  # `候选人：张三` in the header is who, not an answer
            if fm is None:
                if question_matches[later] or numbered_re().match(lines[later]):
                    return False
                continue
            found = label_kind(fm)
            last = drafts[-1] if drafts else None
            if found == "answer":
                return last is None or last.has_answer
            if found == "goal":
                return last is None or last.has_goal or last.has_answer
            return False
        return False

    for index, line in enumerate(lines, start=1):
        fm = field_matches[index - 1]
        qm = question_matches[index - 1]
        if numbered_ok and fm is None and not verdict_open:
            nm = numbered_re().match(line)
            if (
                nm is not None
                and (
                    nm.group("unnumbered")
                    or parse_question_number(nm.group("n6") or nm.group("n7") or nm.group("n8"))
                )
                and numbered_question(index - 1)
            ):
                qm = nm
        kind = label_kind(fm) if fm else None
        im = identity_line(line) if not drafts and qm is None else None
        if fm is None and qm is None and im is None and remarks_re().match(line):
            # `反问：`, `## 反问环节`, `备注`: what follows is the candidate's questions or
            # the writer's remarks, no answer and no verdict, up to the next label
            verdict_open, pending, target = False, None, remarks
            continue
        if verdict_open:
            # A verdict at the top ends where the header or the questions go on;
            # after the questions it runs to the end of the file.
            reopens = not drafts and (qm is not None or kind in HEADER_KINDS or im is not None)
            if not reopens:
                verdict = verdict if verdict is not None else []
                verdict.append(line)
                continue
            verdict_open = False
        if im is not None:  # `姓名：张三`, `面试官：李四 日期：2026-11-28`: who and when
            pending = None
            found = identity_kind(im)
            taken = header(found, im.group("rest") or "") or []
            if not im.group(found).isascii() and any(k in HEADER_KINDS for k in taken):
                evidence.add("cn")  # `姓名：张三 岗位：…`: a Chinese header label
            continue
        if fm is None and qm is None and not drafts and table_rule_re().match(line):
            continue  # the rule line of a header table
        if fm is None and qm is None:
            if pending is not None and line.strip(" \t\u3000\u00a0"):
                value = line.strip(" \t\u3000\u00a0")
                key, pending = pending, None
                if len(value) <= NEXT_LINE_VALUE_MAX and header(key, value) is not None:
                    pending = None
                    continue
            target.append(line)
            continue
        pending = None
        if fm is not None:
            assert kind is not None
            rest = fm.group("rest") or ""
            label = fm.group(kind)
            chinese = not label.isascii()
            if kind == "summary" and drafts and fold("".join(label.split())) == "面试总结":
                kind = "verdict"  # the interviewer's closing summary is the verdict
            if kind in HEADER_KINDS:
                if drafts:  # a header label after the questions began is text
                    target.append(line)
                    continue
                if chinese:
                    evidence.add("cn")
                header(kind, rest)
            elif kind == "summary":
                if drafts:
                    target.append(line)
                elif not chinese and header_seen and not intro_seen:
                    intro.append(rest)  # `Position: …` then `Summary: …`: the profile
                    intro_seen = True
                    target = intro
                elif not header_seen and not intro_seen:
                    summary.append(line)  # the label goes when the summary is cleaned
                    target = summary
                else:
                    late_summary.append(rest)
                    target = late_summary
            elif (
                kind == "goal"
                and drafts
                and target is not remarks
                and not drafts[-1].has_goal
                and not drafts[-1].has_answer
            ):
                drafts[-1].has_goal = True
                goal_text, inline = split_inline_qa(rest)
                drafts[-1].goal.append(goal_text)
                target = drafts[-1].goal
                if inline and inline[0][0] == "answer":  # `考察目标：… 回答：…`
                    drafts[-1].has_answer = True
                    drafts[-1].answer.append(inline[0][1])
                    target = drafts[-1].answer
            elif (
                kind == "answer" and drafts and target is not remarks and not drafts[-1].has_answer
            ):
                drafts[-1].has_answer = True
                drafts[-1].answer.append(rest)
                target = drafts[-1].answer
            elif kind == "verdict" and target is remarks and list_item_re().match(line):
                target.append(line)  # `反问：` then `- 面试评价：还行吗？`: the candidate's
            elif kind == "verdict":
                if verdict is None:
                    verdict = [rest]
                else:  # a second verdict label (the top one, then the closing one)
                    verdict += ["", rest]
                verdict_open = True
                if not list_item_re().match(line):  # (`- 点评：…` alone says no layout)
                    evidence.add("verdict")
                    if chinese:
                        evidence.add("cn")
            else:
                target.append(line)
            continue
        assert qm is not None
        groups = qm.groupdict()
        raw = next(
            (groups[g] for g in sorted(groups) if g[0] == "n" and g[1:].isdigit() and groups[g]),
            None,
        )
        number = parse_question_number(raw) if raw else None
        if raw and number is None:
            raise ParseError(
                f"question number out of range: {raw[:12]}",
                index,
                code="question_number",
                params={"number": raw[:12]},
            )
        if number is None:
            number = drafts[-1].number + 1 if drafts else 1
        head, inline = split_inline_qa(qm.group("rest"))
        draft = Draft(number=number, line=index, question=[head])
        drafts.append(draft)
        target = draft.question
        for kind, value in inline:  # `问题1：…？ 考察目标：… 回答：…` on one line
            if kind == "goal" and not draft.has_goal and not draft.has_answer:
                draft.has_goal = True
                draft.goal.append(value)
                target = draft.goal
            elif kind == "answer" and not draft.has_answer:
                draft.has_answer = True
                draft.answer.append(value)
                target = draft.answer
        evidence.add("listed question" if qm.re is numbered_re() else "question")

    english_position = "position" in evidence and "cn" not in evidence
    if evidence == {"listed question"} and not any(d.has_goal for d in drafts):
        # `Q: … A: …` or a numbered list with answers and nothing else: a FAQ, not an
        # interview (a transcript's questions have a 考察目标, or the file has 岗位/点评)
        raise NotATranscript(NO_LABELS)
    if not drafts and (position is None or (english_position and len(evidence) < 2)):
        if "cn" in evidence:
            raise ParseError(NO_POSITION_NOR_QUESTION)
        raise NotATranscript(NO_LABELS)

    verdict_text = block(verdict) if verdict is not None else ""
    return Transcript(
        id=transcript_id(name),
        position=position or None,
        years=parse_years(years_text) if years_text else None,
        years_text=years_text,
        name=who,
        interviewers=interviewers,
        interviewed_at=parse_interview_date(date_text) if date_text else None,
        interviewed_at_text=date_text,
        round=round_,
        candidate_ref=ref,
        intro=block(intro),
        summary=block([clean_summary(summary), "", *late_summary]),
        questions=questions(drafts),
        verdict=verdict_text or None,
        source=source if source is not None else name,
        hash=content_hash(data),
    )
