"""Independent review (issue 38): a reviewer asked for their decision about a candidate
(an open request, store/request_models.py) sees nobody else's decisions or notes about
that candidate — on any of the candidate's interviews — in anything the bot shows them,
until they have recorded their own (which closes their request) or every reviewer asked
has (or the hiring decision closed the requests). People with no open request (the
recruiter, the hiring manager) see everything. A decision withdrawn (its reply deleted,
or edited into none) reopens the request it closed: the others are hidden again; that
it had shown them the others (`shown_to`) is kept, said in the thread's status, audited.

`hidden_for` is the one rule, pure; every surface asks it (the card, the loop card, the
request DM, the list of who was asked, App Home, the digest, a decision posted from the
modal, `debrief ask --user`, the verdict posted or read in full). What is derived from
the reviewers' notes (the ⚠ lines of unsupported claims, their counts on a list) is
derived from the candidate as the viewer may see it (`sealed_for`, `seen_by`), never
from the notes hidden. A message posted in a channel is read by everyone there, the
people asked among them: it shows who decided, not what, while anyone asked about the
candidate has not decided (`viewer` None), or is being asked by the very post (`asking`:
the verdict `/candidate 邀请` posts). DEBRIEF_INDEPENDENT_REVIEW (`on` by default;
installed in many workspaces, each workspace's own in App Home) turns it off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from store.models import Candidate
from store.request_models import Request


class Requests(Protocol):
    """What the rule needs of a store: an interview's requests, and its candidate's
    other interviews."""

    def requests_for(self, candidate_id: str) -> list[Request]: ...

    def interview_ids(self, interview_id: str) -> list[str]: ...


def hidden_for(
    viewer: str | None,
    requests: Iterable[Request],
    on: bool = True,
    asking: Iterable[str] = (),
) -> bool:
    """Whether the others' decisions and notes about a candidate are hidden from `viewer`
    (None: everyone in a channel), `requests` being every request made about any of the
    candidate's interviews and `asking` the reviewers about to be asked: independent
    review is `on` and the viewer has an open one or is about to be asked (a channel:
    anyone has, or is)."""
    if not on:
        return False
    waiting = [r.reviewer for r in requests if r.open] + list(asking)
    return bool(waiting) if viewer is None else viewer in waiting


def interviews_of(store: Requests, interview_id: str) -> list[str]:
    """The ids of the candidate's interviews (their loop), `interview_id` among them."""
    return store.interview_ids(interview_id)


def candidate_requests(store: Requests, interview_id: str) -> list[Request]:
    """Every request made about the candidate whose interview `interview_id` is."""
    return [r for i in interviews_of(store, interview_id) for r in store.requests_for(i)]


@dataclass(frozen=True)
class Sealed:
    """A candidate as a viewer may see it: `candidate` with the decisions and notes it
    may show, and who else decided (`decided`: hidden, None when nothing is)."""

    candidate: Candidate
    decided: tuple[str, ...] | None = None


def seal(c: Candidate, viewer: str | None) -> Sealed:
    """`c` without anyone's decisions and notes but `viewer`'s own (None: nobody's); who
    else decided is said, not what."""
    decided = tuple(dict.fromkeys(d.reviewer for d in c.decisions if d.reviewer != viewer))
    kept = c.model_copy(
        update={
            "decisions": [d for d in c.decisions if d.reviewer == viewer],
            "notes": [n for n in c.notes if n.reviewer == viewer],
        }
    )
    return Sealed(kept, decided)


def sealed_for(
    store: Requests, c: Candidate, viewer: str | None, on: bool, asking: Iterable[str] = ()
) -> Sealed:
    """`c` as `viewer` may see it (None: a post in a channel), `asking` about to be asked."""
    if not on or not hidden_for(viewer, candidate_requests(store, c.id), on, asking):
        return Sealed(c)
    return seal(c, viewer)


class Candidates(Requests, Protocol):
    def get_candidate(self, candidate_id: str) -> Candidate | None: ...


def seen_by(store: Candidates, viewer: str | None, on: bool) -> Callable[[str], Candidate | None]:
    """`get_candidate` as `viewer` may see each (None: a post in a channel): what is
    counted from the notes on a list (its ⚠ counts) counts only the notes shown."""

    def get(candidate_id: str) -> Candidate | None:
        c = store.get_candidate(candidate_id)
        return None if c is None else sealed_for(store, c, viewer, on).candidate

    return get


def hidden_lines(
    store: Candidates, ids: Iterable[str], viewer: str | None, on: bool
) -> dict[str, tuple[str, ...]]:
    """Of the candidates `ids` (a list's lines), those whose decisions are hidden from
    `viewer` (None: a channel): who else decided on each, by id."""
    found: dict[str, tuple[str, ...]] = {}
    if not on:
        return found
    for i in dict.fromkeys(ids):
        if hidden_for(viewer, candidate_requests(store, i)):
            c = store.get_candidate(i)
            found[i] = seal(c, viewer).decided or () if c is not None else ()
    return found


def shown_to(store: Candidates, interview_id: str, viewer: str, on: bool) -> bool:
    """Whether `viewer`, asked about the candidate, is shown the others' decisions or
    notes about them now (their own decision opened them): before a decision is taken
    away, whether it had shown them anything (handlers/listeners/threads.py records so)."""
    if not on:
        return False
    ids = interviews_of(store, interview_id)
    requests = [r for i in ids for r in store.requests_for(i)]
    if not any(r.reviewer == viewer for r in requests) or hidden_for(viewer, requests, on):
        return False
    for i in ids:
        c = store.get_candidate(i)
        if c is not None and (
            any(d.reviewer != viewer for d in c.decisions)
            or any(n.reviewer != viewer for n in c.notes)
        ):
            return True
    return False
