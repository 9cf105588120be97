"""What was typed after `/candidate`, read (pure): the `Kind` of subcommand and the
`Route` that carries its words: who, a question's number, the people mentioned, a
deadline. Each subcommand's reader is named in handlers/commands.py's table."""

from __future__ import annotations

import itertools
import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from store.models import HIRINGS, Hiring
from store.transcripts.numerals import CN_NUMERALS, parse_number

FULL_WORDS = {"full", "全文"}
LOOP_WORDS = {"all", "全部"}  # `总结 <interview> 全部`: every interview of the candidate
MAX_TEXT = 4000


class Kind(StrEnum):
    """What a command or a button asks for: one entry each in SUBCOMMANDS."""

    HELP = "help"
    WHO = "who"  # only a name: the summary
    SUMMARY = "summary"
    FULL = "full"  # the summary's profile and summary text in full
    UNANSWERED = "unanswered"
    VERDICT = "verdict"
    VERDICT_FULL = "verdict_full"  # the whole verdict, privately (`点评 X 全文`)
    QUESTION = "question"
    SEARCH = "search"
    LIST = "list"
    DIGEST = "digest"  # "and N more" under a digest section
    DECIDE = "decide"  # the hiring decision (`结论 X 录用 [note]`), for DEBRIEF_DECIDERS
    REQUEST = "request"  # ask reviewers for their decision (`邀请 X @a @b [截止 周五]`)
    LOOP = "loop"  # every interview of a candidate (`总结 X 全部`, the card's button)
    MERGE = "merge"  # two interviews are one candidate (`合并 A B`)
    SPLIT = "split"  # an interview is a candidate of its own (`拆分 A`)
    COMPARE = "compare"  # up to four candidates side by side (`对比 A B [C D]`)
    HANDOFF = "handoff"  # the loop so far, in a DM to the next interviewer (`交接 X @a`)
    PICK = "pick"  # who a later interview of two people alike is (the card's buttons)


@dataclass(frozen=True)
class Route:
    """What the user asked for. Button values decode to the same thing."""

    kind: Kind
    who: str = ""
    n: int | None = None
    words: str = ""
    offset: int = 0
    lead: str | None = None
    since: str = ""
    part: int = 0  # a reply in several messages goes on from this one (a "continue" button)
    note: str = ""  # what a hiring decision says beside the decision
    people: tuple[str, ...] = ()  # the users (U…, W…) and user groups (S…) mentioned
    when: str | None = None  # a deadline as typed (None: none was)
    problem: str = ""  # why the typed words cannot be read (a catalogue key; `words`: which)


# -- reading what was typed ------------------------------------------------------------------


def read_nothing(kind: Kind, rest: list[str]) -> Route:
    return Route(kind)


def read_who(kind: Kind, rest: list[str]) -> Route:
    return Route(kind, who=" ".join(rest))


def read_words(kind: Kind, rest: list[str]) -> Route:
    return Route(kind, words=" ".join(rest))


def read_summary(kind: Kind, rest: list[str]) -> Route:
    """`总结 000 全文`: the full text; `总结 000 全部`: every interview of the candidate."""
    if len(rest) > 1 and rest[-1].lower() in FULL_WORDS:
        return Route(Kind.FULL, who=" ".join(rest[:-1]))
    if len(rest) > 1 and rest[-1].lower() in LOOP_WORDS:
        return Route(Kind.LOOP, who=" ".join(rest[:-1]))
    return Route(kind, who=" ".join(rest))


def read_verdict(kind: Kind, rest: list[str]) -> Route:
    """`点评 000 全文`: the whole verdict, only for the asker."""
    if len(rest) > 1 and rest[-1].lower() in FULL_WORDS | LOOP_WORDS:
        return Route(Kind.VERDICT_FULL, who=" ".join(rest[:-1]))
    return Route(kind, who=" ".join(rest))


_NUMBER = rf"[0-9]+|[{CN_NUMERALS}]+"  # after NFKC, so full-width digits are ASCII here


QUESTION_NAMES = ("question", "问题", "q")  # how `/candidate 问题` is typed
_QUESTION_ALTS = "|".join(map(re.escape, QUESTION_NAMES))
_NUMBERED_RE = re.compile(rf"^(?:{_QUESTION_ALTS}|#)?\s*({_NUMBER})$", re.I)
GLUED_RE = re.compile(rf"^(?:{_QUESTION_ALTS})({_NUMBER})$", re.I)  # 问题3: name and number


def question_number(token: str) -> int | None:
    """`3`, `三`, `八十一`, `#3`, `q3`, `问题3` -> the number; None when it is not one.

    Any positive number counts, not only those a transcript could have: the answer
    then says the candidate has no such question, which is true and clear."""
    m = _NUMBERED_RE.match(unicodedata.normalize("NFKC", token).strip())
    value = parse_number(m.group(1)) if m else None
    return value if value is not None and value > 0 else None


# what a hiring decision is typed as, in both languages
HIRING_WORDS: dict[str, Hiring] = {
    "录用": "hire",
    "不录用": "reject",
    "待定": "hold",
    **{h: h for h in HIRINGS},
}


def read_decide(kind: Kind, rest: list[str]) -> Route:
    """`结论 000 录用 很稳` or `decide 王 磊 hire`: the candidate before the first word that
    is a decision, the note after it. Without one (or without a candidate): the usage."""
    for i, word in enumerate(rest):
        decision = HIRING_WORDS.get(word.lower())
        if decision is not None and i > 0:
            return Route(kind, who=" ".join(rest[:i]), words=decision, note=" ".join(rest[i + 1 :]))
    return Route(kind)


def read_question(kind: Kind, rest: list[str]) -> Route:
    """`问题 000 3` or `问题 3 000`."""
    n = question_number(rest[-1]) if rest else None
    who = rest[:-1] if n is not None else rest
    if n is None and len(rest) >= 2:
        n = question_number(rest[0])
        who = rest[1:] if n is not None else rest
    return Route(kind, who=" ".join(who), n=n)


# What `邀请` is followed by: users (`<@U123>`, `<@U123|name>`, `W…` on Enterprise Grid)
# and user groups (`<!subteam^S123|@team>`), as Slack sends them with should_escape; and
# what cannot be asked: `<!here>` and the like, a `@name` that arrived as plain text.
_MENTION_RE = re.compile(
    r"<@(?P<user>[UW][A-Z0-9]+)(?:\|[^>]*)?>"
    r"|<!subteam\^(?P<group>S[A-Z0-9]+)(?:\|[^>]*)?>"
    r"|<!(?P<special>here|channel|everyone)(?:\|[^>]*)?>"
    r"|(?<![^\s,，、;；])(?P<plain>@[^\s,，、;；<>@]+)"
)
_BETWEEN_RE = re.compile(r"[\s,，、;；]*(?:(?:和|及|and|&amp;)[\s,，、;；]*)?", re.I)
_BY_RE = re.compile(r"(?:截止|截至|by\b|due\b)\s*[:：]?\s*", re.I)


def read_request(kind: Kind, rest: list[str]) -> Route:
    """`邀请 王 磊 <@U1> <@U2|li> 截止 周五`: the candidate is the words before the first
    mention; the mentions; the deadline after them (`截止` / `by` may be left out).
    Without a mention: the candidate alone (who was asked)."""
    text = " ".join(rest)
    found = list(_MENTION_RE.finditer(text))
    if not found:
        return Route(kind, who=text)
    plain = [m.group("plain") for m in found if m.group("plain")]
    if plain:  # the app without should_escape: nobody can be told apart
        return Route(kind, problem="request_unescaped", words=" ".join(plain))
    special = [f"@{m.group('special')}" for m in found if m.group("special")]
    if special:
        return Route(kind, problem="request_not_people", words=" ".join(special))
    who = text[: found[0].start()].strip()
    gaps = [text[a.end() : b.start()] for a, b in itertools.pairwise(found)]
    if not who or not all(_BETWEEN_RE.fullmatch(gap) for gap in gaps):
        return Route(kind, problem="request_usage")
    tail = text[found[-1].end() :].strip(" ,，、;；")
    when: str | None = None
    if tail:
        by = _BY_RE.match(tail)
        when = tail[by.end() :].strip() if by else tail
        if not when:  # `截止` and nothing after it
            return Route(kind, problem="request_usage")
    people = tuple(m.group("user") or m.group("group") for m in found)
    return Route(kind, who=who, people=people, when=when)


def read_handoff(kind: Kind, rest: list[str]) -> Route:
    """`交接 王小明 <@U2>`: the candidate, then the next interviewer(s), as `邀请` reads
    them; anything else (no mention, a `@name` as plain text, a deadline): the usage."""
    read = read_request(kind, rest)
    if read.problem or not read.people or read.when is not None:
        return Route(kind, problem="handoff_usage")
    return read
