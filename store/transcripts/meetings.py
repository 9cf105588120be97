"""Meeting transcripts: what a meeting tool exports, read into who said what and when.

The forms read (docs/formats.md):

- WebVTT (`WEBVTT`, then cues `00:00:05.000 --> 00:00:07.000`): Zoom writes the speaker
  in the text (`Speaker Name: text`), Teams in a voice tag (`<v Speaker Name>text</v>`);
  read with webvtt-py.
- SRT (`1`, `00:00:05,000 --> 00:00:07,000`, the text, `Speaker: text` or not): read with
  srt.
- The text exports of 飞书妙记, 腾讯会议 and 钉钉 (闪记): a header (title, date,
  participants), then each utterance under a line naming its speaker and time
  (`说话人 1 00:03:15`, `张三  03:15`, `张三(00:03:15)`), or on the same line
  (`张三(00:03:15): text`, `[00:03:15] 张三：text`).
- A dialogue typed by hand: `面试官：…` / `候选人：…` lines (or the names the header gives
  them), maybe under identity labels (姓名, 面试官, 面试日期, 轮次, 岗位). A line all in
  brackets between them (`（未作答，直接进入下一题）`) is the note taker's, a cue of no
  speaker, not the words of the one before.

Only the forms: who is the interviewer, which turns are questions, the header's facts,
are `dialogue.py`'s. A file with question labels (`问题1：`) is the notes' grammar, never a
meeting, unless it is WebVTT or SRT. Pure functions: text in, a `Meeting` or None out.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from datetime import timedelta
from functools import cache
from typing import Literal

from .errors import DAMAGED_SUBTITLES, ParseError
from .labels import label_kind, match_field, question_re
from .meeting_facts import header_names
from .roles import is_speaker_label

Form = Literal["vtt", "srt", "timed", "dialogue"]


@dataclass(frozen=True)
class Cue:
    """One utterance: who said it (as written, "" when unknown), what, and when it began
    in the recording (`00:03:15`; None in a typed dialogue)."""

    speaker: str
    text: str
    start: str | None = None


@dataclass
class Meeting:
    """A meeting transcript: its form, the lines above the first utterance (the header),
    the utterances, and what a verdict label (`点评：`) after them says, if any."""

    form: Form
    header: list[str] = field(default_factory=list)
    cues: list[Cue] = field(default_factory=list)
    verdict: list[str] | None = None


_TIME = r"\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d{1,3})?(?![:.,]?\d)"
# (Every run of white space is possessive, `\s*+`, or stands before what cannot be white
# space: a line of a word and thousands of spaces fails at once instead of trying each
# split of the spaces, for each of the speaker's lengths.)
# a speaker as a tool writes it: a name, `说话人 1`, `张三（面试官）`; no sentence in it
_WHO = r"[^\s:：()（）\[\]【】,，。？?！!；;|][^:：,，。？?！!；;|\[\]【】]{0,39}?"
_ROLE_SUFFIX = r"(?:[(（][^()（）]{1,12}[)）])?"
# `张三  00:03:15`, `说话人 1 03:15`, `张三(00:03:15)`: the speaker's line, the words follow
_speaker_line_re = cache(
    lambda: re.compile(
        rf"^\s*+(?P<who>{_WHO}{_ROLE_SUFFIX})"
        rf"(?:\s*+[(（]\s*+(?P<t1>{_TIME})\s*+[)）]|\s++(?P<t2>{_TIME}))"
        r"\s*+(?:[-–—~～]\s*+" + _TIME + r"\s*+)?$"
    )
)
# `张三(00:03:15): 好的` (腾讯会议), `张三 00:03:15：好的`
_inline_re = cache(
    lambda: re.compile(
        rf"^\s*+(?P<who>{_WHO}{_ROLE_SUFFIX})"
        rf"(?:\s*+[(（]\s*+(?P<t1>{_TIME})\s*+[)）]|\s++(?P<t2>{_TIME}))"
        r"\s*+[:：]\s*+(?P<text>.*)$"
    )
)
# `[00:03:15] 张三：好的`, `00:03:15 张三: 好的`
_time_first_re = cache(
    lambda: re.compile(
        rf"^\s*+(?:[\[【(（]\s*+)?(?P<t1>{_TIME})(?:\s*+[\]】)）])?\s++"
        rf"(?P<who>{_WHO}{_ROLE_SUFFIX})\s*+[:：]\s*+(?P<text>.*)$"
    )
)
# `面试官：你好`, `张三（候选人）：…`, `Interviewer: …`
_said_re = cache(
    lambda: re.compile(
        rf"^\s*+(?:[*-]\s*+)?(?P<who>{_WHO}{_ROLE_SUFFIX})\s*+(?:\*++\s*+)?[:：]\s*+(?P<text>.*)$"
    )
)
# a date, a duration or a label before a time is the header's, not a speaker
_not_a_speaker = cache(
    lambda: re.compile(
        r"\d{4}|\d\s*[月日年]|时间|日期|时长|开始|结束|date|time|duration|started|ended", re.I
    )
)
_srt_start_re = cache(
    lambda: re.compile(r"^\s*+\d++[^\S\n]*+\n\s*+\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*+-->")
)
# (a tag ends before the next `<`: a cue of thousands of `<v ` is one pass, not one a tag)
_voice_re = cache(lambda: re.compile(r"<v(?:\.[^ <>]*+)?\s++([^<>]+)>"))
_tag_re = cache(lambda: re.compile(r"</?[a-zA-Z][^<>]*+>"))


def clock(value: str | timedelta) -> str:
    """A cue's start as `HH:MM:SS`: `03:15` -> `00:03:15`, `1:03:15.200` -> `01:03:15`."""
    if isinstance(value, timedelta):
        seconds = int(value.total_seconds())
    else:
        parts = [int(p) for p in re.split(r"[:]", re.split(r"[.,]", value.strip())[0])]
        seconds = 0
        for p in parts:
            seconds = seconds * 60 + p
    return f"{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def _speaker_in_text(text: str) -> tuple[str, str]:
    """`Alice Wang: hello` -> (`Alice Wang`, `hello`); a text with no speaker -> ("", text)."""
    m = _said_re().match(text)
    if m is not None and m.group("text").strip() and not re.search(r"https?$", m.group("who")):
        return m.group("who").strip(), m.group("text").strip()
    return "", text.strip()


def _vtt(text: str) -> Meeting:
    import webvtt
    from webvtt.errors import MalformedFileError

    try:
        captions = webvtt.from_buffer(io.StringIO(text))
        starts = [clock(caption.start) for caption in captions.captions]
    except (MalformedFileError, ValueError, IndexError, OverflowError) as e:
        raise ParseError(DAMAGED_SUBTITLES) from e
    found = (
        _cue(caption.raw_text or "", at)
        for caption, at in zip(captions.captions, starts, strict=True)
    )
    return Meeting("vtt", cues=[cue for cue in found if cue is not None])


# What srt's own pattern may be given: it backtracks on a long run of white space and is
# cubic on a long run of digits (a 3 KB file of `00:0005,000 -` and digits ran past 300 s).
_SRT_DIGITS = 12  # longer runs of digits are set aside (no time has them), then put back
_srt_digits_re = cache(lambda: re.compile(r"[0-9]{13,}"))
_srt_spaces_re = cache(lambda: re.compile(r"[^\S\n]{2,}"))  # a run of spaces: one space
_srt_blank_re = cache(lambda: re.compile(r"\n[^\S\n]*+(?:\n[^\S\n]*+)++"))  # blank lines: one
_PLACE = 0xF0000  # (private use, plane 15: a number set aside is one of these)
_place_re = cache(lambda: re.compile("[\U000f0000-\U000ffffd]"))


def _srt(text: str) -> Meeting:
    """SRT, read with srt once what its pattern cannot bear is bounded: runs of spaces
    and of blank lines made one, numbers of more than `_SRT_DIGITS` digits set aside
    (and put back in the words). Whatever srt raises, the file is damaged."""
    import srt

    if _place_re().search(text):
        raise ParseError(DAMAGED_SUBTITLES)
    numbers: list[str] = []

    def aside(m: re.Match[str]) -> str:
        numbers.append(m.group())
        return chr(_PLACE + len(numbers) - 1)

    bounded = _srt_blank_re().sub("\n\n", _srt_spaces_re().sub(" ", text))
    bounded = _srt_digits_re().sub(aside, bounded)
    if len(numbers) > 0xFFFD:
        raise ParseError(DAMAGED_SUBTITLES)
    try:
        subtitles = list(srt.parse(bounded))
        starts = [clock(s.start) for s in subtitles]  # (an hour of 14 digits overflows)
    except Exception as e:  # SRTParseError, OverflowError, …: damaged
        raise ParseError(DAMAGED_SUBTITLES) from e

    def back(content: str) -> str:
        return _place_re().sub(lambda m: numbers[ord(m.group()) - _PLACE], content)

    found = (_cue(back(s.content or ""), at) for s, at in zip(subtitles, starts, strict=True))
    return Meeting("srt", cues=[cue for cue in found if cue is not None])


def _cue(raw: str, at: str) -> Cue | None:
    """One subtitle's speaker (a `<v Name>` voice tag, else `Name: ` before the words)
    and words, tags taken out; None when it says nothing."""
    voice = _voice_re().search(raw)
    words = _joined(_tag_re().sub("", raw).split("\n"))
    if voice is not None:
        who = voice.group(1).strip()
    else:
        who, words = _speaker_in_text(words)
    return Cue(who, words, at) if words else None


def _notes_labels(lines: list[str]) -> bool:
    """Does the text use the notes' grammar: a question label, a 考察目标?"""
    for line in lines:
        if question_re().match(line):
            return True
        fm = match_field(line)
        if fm is not None and label_kind(fm) == "goal":
            return True
    return False


def _verdict_at(line: str) -> str | None:
    """The first words of a verdict label's line (`点评：通过` -> `通过`), or None."""
    fm = match_field(line)
    if fm is not None and label_kind(fm) == "verdict":
        return fm.group("rest") or ""
    return None


def _timed(lines: list[str]) -> Meeting | None:
    """飞书妙记, 腾讯会议, 钉钉: a speaker and a time, then (or after a colon) the words."""
    meeting = Meeting("timed")
    seen = 0
    words: list[str] | None = None
    who, start = "", ""

    def close() -> None:
        if words is not None:
            text = _joined(words)
            if text:
                meeting.cues.append(Cue(who, text, clock(start)))

    for line in lines:
        if meeting.verdict is not None:
            meeting.verdict.append(line)
            continue
        inline = _inline_re().match(line) or _time_first_re().match(line)
        alone = None if inline else _speaker_line_re().match(line)
        found = inline or alone
        if found is not None and not _not_a_speaker().search(found.group("who")):
            close()
            seen += 1
            who = found.group("who").strip()
            start = found.group("t1") or found.group("t2")
            words = [found.group("text")] if inline else []
            continue
        if words is None:
            meeting.header.append(line)
            continue
        verdict = _verdict_at(line)
        if verdict is not None and seen:
            close()
            words = None
            meeting.verdict = [verdict]
            continue
        words.append(line)
    close()
    return meeting if seen >= 2 else None


def _joined(pieces: list[str]) -> str:
    """Lines (or cues) of one speaker as one text: no space between Chinese, one between
    Latin words."""
    text = ""
    for piece in (p.strip() for p in pieces):
        if not piece:
            continue
        if text and (text[-1].isascii() and piece[0].isascii()):
            text += " "
        text += piece
    return text


def join_cues(texts: list[str]) -> str:
    return _joined(texts)


def _dialogue(lines: list[str], speakers: frozenset[str]) -> Meeting | None:
    """A typed dialogue: `面试官：…` / `候选人：…` lines (or the names in `speakers`),
    after a header; a line that names no speaker goes on the utterance before it."""
    meeting = Meeting("dialogue")
    current: tuple[str, list[str]] | None = None
    turns = 0

    def close() -> None:
        if current is not None and _joined(current[1]):
            meeting.cues.append(Cue(current[0], _joined(current[1])))

    for line in lines:
        if meeting.verdict is not None:
            meeting.verdict.append(line)
            continue
        m = _said_re().match(line)
        who = m.group("who").strip() if m is not None else ""
        if m is not None and is_speaker_label(who, speakers):
            if current is None and header_names(line):
                meeting.header.append(line)  # `面试官：李四`: who, not what was said
                continue
            close()
            current = (who, [m.group("text")])
            turns += 1
            continue
        if current is None:
            meeting.header.append(line)
            continue
        verdict = _verdict_at(line)
        if verdict is not None:
            close()
            current = None
            meeting.verdict = [verdict]
            continue
        if stage_direction(line):
            close()  # what the note taker saw, nobody's words: a cue of its own
            current = ("", [line])
            continue
        current[1].append(line)
    close()
    speaking = {c.speaker for c in meeting.cues if c.speaker}
    return meeting if turns >= 2 and len(speaking) >= 2 else None


def stage_direction(line: str) -> bool:
    """A line that is all in brackets: `（未作答，直接进入下一题）`, `(long pause)`."""
    text = line.strip()
    return len(text) > 2 and text[0] in "(（【[" and text[-1] in ")）】]"


def read_meeting(text: str) -> Meeting | None:
    """The meeting transcript `text` is, or None when it is none."""
    stripped = text.lstrip("\ufeff \t\n")
    if stripped.startswith("WEBVTT"):
        return _vtt(stripped)
    if _srt_start_re().match(stripped):
        return _srt(stripped)
    lines = text.split("\n")
    if _notes_labels(lines):
        return None
    # a typed dialogue's speakers may be the names its header gives (姓名, 面试官)
    speakers = frozenset(n for line in lines for n in header_names(line))
    return _timed(lines) or _dialogue(lines, speakers)
