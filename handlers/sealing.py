"""The candidate's posts in channels kept to independent review when requests open
(issue 45, item 2). A verdict posted while nobody was waited for fairly shows every ⚠
line its notes give; once a reviewer is asked (`/candidate 邀请`, which may send them to
that very post's thread) or asked again (their decision withdrawn: a reply deleted, or
edited into none), everyone in the channel reads it, the reviewer waiting among them.
So each of the person's posts that show them (the verdict, the card, the loop card, on
any of their interviews) is made to say what a channel may be shown now
(`sealed_for`, viewer None: handlers/review.py), as the status message is: planned here
as `Edit`s (chat.update) and handed to the sender, which calls back into nothing here.

A verdict may be several messages, and sealed it may take fewer: the parts that remain
say the sealed verdict, the others one line saying they are hidden, so no old part stays
readable. Where the poster was named, the edited post says why it changed (who posted
it is not recorded, so it is not said again). Edited wherever
they are (a channel shared with another organisation since among them: they say less);
a post deleted since is left gone.
Posts are not made to show everything again once everyone asked has decided: a card or
`点评` asked for then shows it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from itertools import groupby

from slack_sdk import WebClient

from store.models import Candidate
from store.threads import Posted

from .answers import summary_card
from .deps import Deps
from .i18n import Locale, t
from .review import candidate_requests, hidden_for, sealed_for
from .sending.outbox import SlackOutbox, deliver
from .sending.outgoing import Edit
from .views.cards import people_in, verdict_views
from .views.common import notice
from .views.loops import loop_view

logger = logging.getLogger("handlers.sealing")

# the posts in a channel that show the reviewers' decisions or what their notes give: the
# verdict (its ⚠ lines), the card, the loop card
SEALED_KINDS = ["verdict", "summary", "loop"]

Names = Callable[[Iterable[str]], Mapping[str, str]]  # user ids -> display names


def seal_plan(candidate_id: str, deps: Deps, names: Names, keep: Iterable[str] = ()) -> list[Edit]:
    """The edits that keep each post about the person whose interview `candidate_id` is
    (every interview of their loop) to what a channel may see now; none when nothing is
    hidden from a channel. People are named by `names`, as a post names them. The posts
    `keep` (their ts: the verdict an ask just posted, sealed as it went) are left as
    they are, their poster named."""
    kept = set(keep)
    store, on, locale = deps.store, deps.independent_review, deps.locale
    if not hidden_for(None, candidate_requests(store, candidate_id), on):
        return []  # nobody waiting: a channel may see everything
    line = t(locale, "review_post_sealed")
    edits: list[Edit] = []
    for one in store.interview_ids(candidate_id):
        c = store.get_candidate(one)
        found = store.posts_about(one, SEALED_KINDS) if c is not None else []
        posts = [p for p in found if p.ts not in kept]
        if c is None or not posts:
            continue
        seen = sealed_for(store, c, None, on)
        verdicts = [p for p in posts if p.kind == "verdict"]
        if verdicts:
            edits += verdict_edits(c, seen.candidate, verdicts, locale)
        cards = [p for p in posts if p.kind == "summary"]
        if cards:
            people = names([*people_in(seen.candidate), *(seen.decided or ())])
            card = summary_card(c, seen, deps, None, people, False, edited=line)
            edits += [Edit(p.channel, p.ts, card, hides=True) for p in cards]
        loops = [p for p in posts if p.kind == "loop"]
        loop = store.loop_of(one) if loops else None
        if loop is not None and loop.interviews:
            card = loop_view(loop, locale, None, hidden=True, edited=line)
            edits += [Edit(p.channel, p.ts, card, hides=True) for p in loops]
    return edits


def verdict_edits(
    c: Candidate, sealed: Candidate, posts: list[Posted], locale: Locale
) -> list[Edit]:
    """Each verdict post (`posts`, oldest first in each channel) made to say the sealed
    verdict: its parts in order, in runs as long as the verdict takes unsealed (how it
    was posted), a part beyond the sealed ones one line saying it is hidden."""
    now = verdict_views(sealed, locale, None, edited=t(locale, "review_post_sealed"))
    whole = max(1, len(verdict_views(c, locale, "-")))
    hidden = notice(t(locale, "review_post_part_sealed"))
    edits: list[Edit] = []
    for channel, in_channel in groupby(posts, key=lambda p: p.channel):
        for i, post in enumerate(in_channel):
            part = i % whole
            edits.append(
                Edit(channel, post.ts, now[part] if part < len(now) else hidden, hides=True)
            )
    return edits


def seal_posts(
    candidate_id: str, outbox: SlackOutbox, deps: Deps, keep: Iterable[str] = ()
) -> None:
    """`seal_plan`, sent. Never raises: requests recorded stay recorded."""
    try:

        def names(ids: Iterable[str]) -> Mapping[str, str]:
            return deps.names.lookup(outbox.client, ids)

        deliver(seal_plan(candidate_id, deps, names, keep), outbox)
    except Exception:
        logger.exception("could not keep a candidate's posts to independent review")


def seal_posts_for(candidate_id: str, client: WebClient, deps: Deps) -> None:
    """`seal_posts`, for a listener with no command to answer (a reply withdrawn)."""
    seal_posts(candidate_id, SlackOutbox(client, deps, None, None, None), deps)
