"""Two people who share what would make them one candidate (issue 45), written once for
both backends: what a split and a key with two names record, and the key a save gives
a later interview that matches both.

`candidate_alikes` holds, for one natural key (store/candidate_keys.py `natural_key`:
an explicit key, or a name and a position), the candidates known to share it:

- `split`: `unlink` (`拆分`) took an interview off the candidate its name and position
  made it; both are recorded (the one it left and the one it became), and so is every
  candidate made later by picking "another person".
- `conflict`: an explicit key reached an interview whose name contradicts the names
  already under it (`names_contradict`: `c-1042` 张伟 and `C-1042` 李娜); the key's
  candidate and the new name's (`ref_name_key`) are recorded.

Each row names the interview whose split, pick or save recorded it (a pick: each
interview `link` puts with a candidate recorded alike): `forget` of that interview
deletes its rows (store/schema/tables.py), and the others still say who is alike.

A save (store/candidates.py) asks `chosen_key` for the interview's key where no
`link`/`unlink` override names one. With nothing recorded it is the natural key, unless
the explicit key contradicts the name. With something recorded: the interview stays
with the recorded candidate it is with (where its name still fits), else joins the one
recorded candidate whose names fit its own; where two or more fit, it joins none (a
candidate of its own, `own_key`) until someone picks: the card's and the upload
message's buttons, or `debrief link` / `unlink`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from .base import Tx
from .candidate_keys import has_ref, names_contradict, natural_key, own_key, ref_name_key

Read = Callable[[str, Sequence[Any]], list[tuple[Any, ...]]]
"""A `?` query's rows (inside a write: the transaction's own)."""

Why = Literal["split", "conflict"]

RECORD_SQL = (
    "INSERT INTO candidate_alikes (ws, shared_key, candidate_key, why, interview_id,"
    " noted_by, noted_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (ws, shared_key, candidate_key, interview_id) DO NOTHING"
)
"""Parameters: the data space, the shared key, the candidate's key, why, the interview
whose split or save recorded it (`forget` of that interview deletes the row), who, when."""


def recorded(read: Read, space: str, shared: str) -> list[tuple[str, Why]]:
    """The candidates recorded as sharing `shared`, each once, in the order they were
    first recorded (a key with two names: `conflict`)."""
    found: dict[str, Why] = {}
    for key, why in read(
        f"SELECT candidate_key, why FROM candidate_alikes WHERE {space} AND shared_key = ?"
        " ORDER BY noted_at, candidate_key, interview_id",
        [shared],
    ):
        if why == "conflict" or str(key) not in found:
            found[str(key)] = "conflict" if why == "conflict" else "split"
    return list(found.items())


def sharing(shared: str, known: list[tuple[str, Why]]) -> list[str]:
    """The candidates who may share `shared`, once something is recorded for it: the
    one its interviews make (the one split from, the key's own) and those recorded."""
    return list(dict.fromkeys([shared, *(key for key, _why in known)]))


def _names(read: Read, space: str, key: str, but: str) -> list[str | None] | None:
    """The names of the interviews of candidate `key` other than `but`; None: it has none."""
    found = read(
        f"SELECT name FROM candidates WHERE {space} AND candidate_key = ? AND id <> ?",
        [key, but],
    )
    return [r[0] for r in found] if found else None


def _fits(name: str | None, names: list[str | None]) -> bool:
    """Does `name` fit a candidate whose interviews have `names`: one of the names given
    at least does not contradict it (a candidate `link` made of two names takes either).
    An interview whose file names nobody says nothing either way: it never lets a second
    name in under a key another name holds."""
    named = [other for other in names if other and other.strip()]
    return not named or any(not names_contradict(name, other) for other in named)


def chosen_key(
    read: Read,
    space: str,
    interview_id: str,
    name: str | None,
    position: str | None,
    ref: str | None,
) -> tuple[str, list[tuple[str, str, Why]]]:
    """The key a save gives the interview (no override naming one), and what is to be
    recorded with it (shared key, candidate key, why)."""
    natural = natural_key(interview_id, name, position, ref)
    own = own_key(interview_id)
    if natural == own:
        return natural, []
    known = recorded(read, space, natural)
    if not known:
        under = _names(read, space, natural, interview_id)
        if has_ref(ref) and name and under is not None and not _fits(name, under):
            mine = ref_name_key(ref or "", name)
            return mine, [(natural, natural, "conflict"), (natural, mine, "conflict")]
        return natural, []
    keys = sharing(natural, known)
    people: dict[str, list[str | None]] = {}
    for key in keys:
        names = _names(read, space, key, interview_id)
        if names is not None:
            people[key] = names
    now = read(f"SELECT candidate_key FROM candidates WHERE {space} AND id = ?", [interview_id])
    current = str(now[0][0]) if now and now[0][0] is not None else None
    fits = [key for key, names in people.items() if _fits(name, names)]
    if current is not None and current in keys and _fits(name, people.get(current, [])):
        # it stays with the one it was put with; but a person of its own apart from the
        # key's for a name that contradicted it (a conflict), whose name now fits a
        # person under the key (the typo corrected), is no longer apart
        corrected = current not in people and dict(known).get(current) == "conflict"
        if not (corrected and fits):
            return current, []
    if len(fits) == 1:
        return fits[0], []
    if not fits and has_ref(ref) and name:  # a third name for the key
        mine = ref_name_key(ref or "", name)
        return mine, [(natural, mine, "conflict")]
    if not people:  # every one recorded has gone: the interview is who its file says
        return natural, []
    return own, []  # two or more fit: none until someone picks


def reader(tx: Tx) -> Read:
    """A write transaction's own rows, as `Read`."""
    return lambda sql, params: list(tx.execute(sql, params).fetchall())


def record_split(
    tx: Tx, space: str, ws: int, interview_id: str, was: str, by: str, now: str
) -> None:
    """`interview_id` was taken off candidate `was` (`unlink`): where its file's key (or
    name and position) is `was`'s, or has people recorded already, both are recorded as
    sharing it, so that a later interview that matches both joins neither."""
    row = tx.execute(
        f"SELECT name, position, candidate_ref FROM candidates WHERE {space} AND id = ?",
        [interview_id],
    ).fetchone()
    if row is None:
        return
    own = own_key(interview_id)
    shared = natural_key(interview_id, row[0], row[1], row[2])
    if shared == own or (shared != was and not recorded(reader(tx), space, shared)):
        return
    for key in dict.fromkeys((was, own) if was != own else (own,)):
        tx.execute(RECORD_SQL, [ws, shared, key, "split", interview_id, by, now])


def record_picks(tx: Tx, space: str, ws: int, ids: list[str], into: str, by: str, now: str) -> None:
    """The interviews `ids` are candidate `into`'s now (`link`, a pick): each whose
    file's key (or name and position) has people recorded alike is recorded as `into`'s
    too, so that forgetting another interview of theirs leaves them told apart."""
    if not ids:
        return
    where, params = tx.engine.in_list("id", ids)
    for cid, name, position, ref in tx.execute(
        f"SELECT id, name, position, candidate_ref FROM candidates WHERE {space} AND {where}",
        params,
    ).fetchall():
        shared = natural_key(cid, name, position, ref)
        known = recorded(reader(tx), space, shared) if shared != own_key(cid) else []
        if known:
            tx.execute(RECORD_SQL, [ws, shared, into, known[0][1], cid, by, now])


def why_of(known: list[tuple[str, Why]]) -> Why:
    """A key with two names is a conflict, whatever else was recorded for it."""
    return "conflict" if any(w == "conflict" for _k, w in known) else "split"


__all__ = [
    "RECORD_SQL",
    "Read",
    "Why",
    "chosen_key",
    "reader",
    "record_picks",
    "record_split",
    "recorded",
    "sharing",
    "why_of",
]
