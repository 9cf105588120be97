"""Two people alike (issue 45), pure: what an interview's card and its upload message
say when its candidate matches several people of one name and position (one split off
the other: it counts as none until someone picks, a button each, and one for someone
else), or when its explicit key names a person of another name (a conflict, not a
merge); and the line that tells two such people apart on every pick list: their
rounds, dates and interviewers."""

from __future__ import annotations

from slack_sdk.models.blocks import Block

from store.loop_models import Alike, LoopSummary

from ..blocks import actions, button, escape, fit, section
from ..i18n import Locale, t
from .common import HEAD_LIMITS, OPEN, _cut, interviewers_text

PICK = "pick"  # the Kind the buttons name (handlers/route.py Kind.PICK)
PEOPLE_SHOWN = 5
ROUNDS_SHOWN = 4
FIRST_BUTTON = 20  # after the card's own buttons (handlers/views/cards.py, loops.py)


def rounds_text(s: LoopSummary, locale: Locale) -> str:
    """`一面 2026-11-20、二面 2026-11-25`: each interview's round and date, oldest first
    (escaped)."""
    parts = []
    for n, round_ in enumerate(s.rounds[:ROUNDS_SHOWN]):
        when = s.dates[n] if n < len(s.dates) else ""
        said = [
            escape(_cut(round_, HEAD_LIMITS["round"]))
            if round_
            else t(locale, "loop_round_unknown"),
            escape(_cut(when.replace("T", " ")[:16], HEAD_LIMITS["date"]))
            if when
            else t(locale, "loop_date_unknown"),
        ]
        parts.append(" ".join(said))
    text = t(locale, "name_separator").join(parts)
    return text + ("…" if len(s.rounds) > ROUNDS_SHOWN else "")


def apart_line(s: LoopSummary, locale: Locale) -> str:
    """`2 场面试 · 一面 2026-11-20、二面 2026-11-25 · 面试官：李四、王五` (escaped)."""
    line = t(locale, "alike_person_line", count=s.interviews, rounds=rounds_text(s, locale))
    who = interviewers_text(s.interviewers, locale)
    return f"{line} · {who}" if who else line


def _who(s: LoopSummary, locale: Locale) -> str:
    name = _cut(s.name or (s.ids[0] if s.ids else s.key), HEAD_LIMITS["name"])
    position = _cut(s.position or t(locale, "position_unknown"), HEAD_LIMITS["position"])
    return escape(f"{name} · {position}")


def alike_blocks(
    interview_id: str, name: str, alike: Alike, locale: Locale, buttons: bool
) -> list[Block]:
    """What the card (and the upload message) of interview `interview_id` says of the
    people it is alike: a pick, a button each (`buttons`), while it waits for one; a
    key with two names; nothing once it was picked after a split."""
    shown = alike.people[:PEOPLE_SHOWN]
    if alike.pending:
        head = t(locale, "alike_pending", name=fit(name, 100)[0], count=len(alike.people))
        blocks: list[Block] = [section(head)]
        lines = [f"*{_who(s, locale)}*\n{apart_line(s, locale)}" for s in shown]
        for i, s in enumerate(shown):
            ref = {"v": PICK, "id": interview_id, "q": s.key}
            this = button(t(locale, "alike_pick_this"), f"{OPEN}:{FIRST_BUTTON + i}", ref)
            line = lines[i]
            if lines.count(line) > 1 and s.ids:  # even their facts agree: their first id
                line += f" · `{escape(s.ids[0])}`"
            blocks.append(section(line, accessory=this if buttons else None))
        if buttons:
            ref = {"v": PICK, "id": interview_id, "q": ""}
            other = button(
                t(locale, "alike_pick_new"), f"{OPEN}:{FIRST_BUTTON + PEOPLE_SHOWN}", ref
            )
            blocks.append(actions([other]))
        return blocks
    if alike.why == "conflict":
        key = fit(alike.ref or "", 60)[0]
        lines = [t(locale, "alike_conflict", ref=f"`{key}`")]
        lines += [f"• *{_who(s, locale)}* · {apart_line(s, locale)}" for s in shown]
        return [section("\n".join(lines))]
    return []


__all__ = ["PICK", "alike_blocks", "apart_line", "rounds_text"]
