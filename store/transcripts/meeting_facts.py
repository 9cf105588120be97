"""The facts in a meeting transcript's header: its date (飞书妙记's `2026年11月20日 14:00`
line, `会议时间：…`), its participants (`参会人：…`, `与会人：…`), and the labels of a typed
header (岗位, 从业年限, 姓名/候选人, 面试官, 面试日期, 轮次), read as the notes' grammar
reads them. Pure functions, used by `dialogue.py`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from .drafts import identity_accepted
from .labels import (
    HeaderKind,
    identity_kind,
    label_kind,
    match_field,
    match_identity,
    split_header,
)
from .names import looks_like_name, says_nothing, split_names
from .roles import Role, small_talk, speaker


@dataclass
class HeaderFacts:
    """Who and when, as a header's labels state them: the first value of each kind
    counts. Shared by the meeting header (here) and written records (written_facts.py)."""

    position: str | None = None
    years_text: str = ""
    name: str | None = None
    interviewers: list[str] = field(default_factory=list)
    date_text: str = ""
    round: str | None = None
    ref: str | None = None

    def take(self, kind: HeaderKind, value: str) -> None:
        """One labelled value. A value that says nothing (`未知`, `-`) is no name, no
        position, no round; years and a date are kept as written (`不详`, `下周二`)."""
        if not value or (says_nothing(value) and kind not in ("years", "date")):
            return
        if kind == "position":
            self.position = self.position or value
        elif kind == "years":
            self.years_text = self.years_text or value
        elif kind == "name":
            self.name = self.name or value
        elif kind == "interviewers":
            for n in split_names(value) or []:
                if n not in self.interviewers:
                    self.interviewers.append(n)
        elif kind == "date":
            self.date_text = self.date_text or value
        elif kind == "round":
            self.round = self.round or value
        elif kind == "ref":
            self.ref = self.ref or value


@dataclass
class Facts(HeaderFacts):
    participants: list[tuple[str | None, Role | None]] = field(default_factory=list)


_participants_re = cache(
    lambda: re.compile(
        r"^\s*(?:参会人员?|与会人员?|参会者|与会者|参与人员?|参与者|出席人员?|参会成员|"
        r"participants|attendees)\s*[:：]\s*(?P<rest>.*)$",
        re.I,
    )
)
_date_label_re = cache(
    lambda: re.compile(
        r"^\s*(?:会议时间|会议日期|开始时间|录制时间|时间|日期|date|time|meeting\s+time)\s*[:：]"
        r"\s*(?P<rest>.*)$",
        re.I,
    )
)
_date_re = cache(
    lambda: re.compile(
        r"\d{4}\s*[年/.-]\s*\d{1,2}\s*[月/.-]\s*\d{1,2}\s*日?"
        r"(?:\s*(?:上午|下午|晚上|中午|早上)?\s*\d{1,2}[:：]\d{2}(?:[:：]\d{2})?(?:\s*[ap]\.?m\.?)?)?",
        re.I,
    )
)


# an English date as Otter's Details write it: `February 16, 2022`, `16 February 2022`
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*+\.?"
_english_date_re = cache(
    lambda: re.compile(
        rf"\b(?:{_MONTH}[^\S\n]++\d{{1,2}}(?:st|nd|rd|th)?,?[^\S\n]++\d{{4}}"
        rf"|\d{{1,2}}(?:st|nd|rd|th)?[^\S\n]++{_MONTH}[^\S\n]++\d{{4}})\b",
        re.I,
    )
)
# a role the header states in a sentence: `Interviewer is Jonas Rosland.` (Otter's
# Details), `Interviewee: Jack Breen`, `The candidate is …`
_stated_role_re = cache(
    lambda: re.compile(
        r"\b(?:the[^\S\n]++)?(?P<role>interviewer|interviewee|candidate)"
        r"(?:[^\S\n]++(?:is|was)[^\S\n]++|[^\S\n]*+:[^\S\n]*+)"
        r"(?P<name>[A-Z][\w'’.-]*+(?:[^\S\n][A-Z][\w'’-]*+){0,3})",
        re.I,
    )
)


def _date_in(text: str) -> str:
    m = _date_re().search(text) or _english_date_re().search(text)
    return m.group(0).strip() if m is not None else ""


def _stated_roles(line: str) -> list[tuple[str | None, Role | None]]:
    """The people a header sentence names with their role (`Interviewer is Jonas
    Rosland.`); a name must look like one and start with a capital."""
    found: list[tuple[str | None, Role | None]] = []
    for m in _stated_role_re().finditer(line):
        name = m.group("name").rstrip(".").strip()
        if not name[:1].isupper() or not looks_like_name(name):
            continue
        role: Role = "interviewer" if m.group("role").lower() == "interviewer" else "candidate"
        found.append((name, role))
    return found


def _participants(value: str) -> list[tuple[str | None, Role | None]]:
    found: list[tuple[str | None, Role | None]] = []
    for piece in re.split(r"\s*[、，,;；/|]\s*", value.strip()):
        if not piece:
            continue
        name, role = speaker(piece)
        if name is not None and not looks_like_name(name):
            continue
        found.append((name, role))
    return found


def header_names(line: str) -> list[str]:
    """The names an identity line of the header gives (`面试官：李四、王五` -> [李四, 王五];
    `候选人：张三` -> [张三]); none for a line of the dialogue (`面试官：你好，…`)."""
    m = match_identity(line)
    if m is None:
        return []
    kind = identity_kind(m)
    value = split_header(kind, m.group("rest") or "", identity_accepted)[0][1]
    if not value or says_nothing(value) or small_talk(value):
        return []
    if not identity_accepted(kind, value):
        return []
    if kind == "name":
        return [value]
    if kind == "interviewers":
        return split_names(value) or []
    return []


def read_facts(header: list[str]) -> Facts:
    """What the lines above the first utterance say about who and when."""
    facts = Facts()
    take = facts.take

    for line in header:
        if not line.strip():
            continue
        m = match_identity(line)
        if m is not None:
            kind = identity_kind(m)
            parts = split_header(kind, m.group("rest") or "", identity_accepted)
            if identity_accepted(*parts[0]):
                for k, v in parts:
                    take(k, v)
                continue
        fm = match_field(line)
        label = label_kind(fm) if fm is not None else None
        if fm is not None and (label == "position" or label == "years"):
            for k, v in split_header(label, fm.group("rest") or "", identity_accepted):
                take(k, v)
            continue
        pm = _participants_re().match(line)
        if pm is not None:
            facts.participants += _participants(pm.group("rest"))
            continue
        stated = _stated_roles(line)
        if stated:
            facts.participants += stated
        dm = _date_label_re().match(line)
        if dm is not None and not facts.date_text:
            facts.date_text = _date_in(dm.group("rest")) or dm.group("rest").split("|")[0].strip()
            continue
        if not facts.date_text:
            facts.date_text = _date_in(line)
    return facts
