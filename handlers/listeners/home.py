"""The App Home tab: each user's queue, published when they open it.

On `app_home_opened` (the Home tab, not Messages) the bot publishes (`views.publish`)
for that user: the requests for their decision (`/candidate 邀请`, the earliest
deadline first, the overdue marked), the candidates waiting for *their* decision (a
verdict posted in a channel they are in, read with `conversations.members` and cached
for a few minutes, that they have not decided), new transcripts since yesterday, candidates with
unanswered questions, and their recent decisions. Each line opens the candidate's
summary in a modal; each section pages ("and N more"); a search button opens a modal
whose results appear in it (`views.update`). Opening the tab again refreshes it.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from slack_bolt import Ack, App, BoltContext
from slack_sdk import WebClient

from store.claims.counts import count_claims
from store.errors import QueryTooLong, SearchBusyError

from ..audit import AuditEvent, record
from ..blocks import read_value
from ..deps import Deps, deps_of
from ..i18n import Locale, t
from ..people import is_workspace_admin
from ..review import sealed_for, seen_by
from ..views.cards import summary_view
from ..views.decide import label
from ..views.home import (
    HOME_OPEN,
    HOME_PAGE,
    HOME_SEARCH,
    PER_SECTION,
    SEARCH_ACTION,
    SEARCH_BLOCK,
    SEARCH_RESULTS,
    SECTIONS,
    HomeLine,
    HomeSection,
    LineRef,
    PageRef,
    gone_modal,
    home_view,
    search_modal,
    summary_modal,
)
from ..views.lists import refused_search
from ..views.requests import home_note
from .access import home_allowed


def home_sections(
    user: str, deps: Deps, client: WebClient, offsets: dict[str, int]
) -> list[HomeSection]:
    store, locale = deps.store, deps.locale
    channels = [c for c in store.verdict_channels() if user in deps.members.of(c, client)]
    since = (datetime.now(UTC) - timedelta(days=1)).isoformat(timespec="microseconds")
    sections: list[HomeSection] = []
    for key in SECTIONS:
        offset = max(0, offsets.get(key, 0))
        lines: list[HomeLine]
        if key == "asked":
            asked, total = store.asked_of(user, PER_SECTION, offset)
            now = deps.clock()
            lines = [HomeLine(line, home_note(r, locale, now, deps.tz)) for line, r in asked]
        elif key == "waiting":
            found, total = store.waiting_for(channels, user, PER_SECTION, offset)
            lines = [HomeLine(line) for line in found]
        elif key == "decided":
            decided, total = store.recent_decisions(user, PER_SECTION, offset)
            lines = [HomeLine(line, label(locale, d)) for line, d in decided]
        else:
            category = "new" if key == "new" else "unanswered"
            found, total = store.digest_lines(category, since, PER_SECTION, offset)
            lines = [
                HomeLine(line, t_open(locale, line.count) if key == "unanswered" else "")
                for line in found
            ]
        # ⚠ on a line: from the notes the user may see (independent review)
        count_claims((x.line for x in lines), seen_by(store, user, deps.independent_review))
        if offset and not lines and total:  # the page emptied: show the last one
            return home_sections(user, deps, client, {**offsets, key: 0})
        sections.append(HomeSection(key, lines, total, offset))
    return sections


def t_open(locale: Locale, count: int) -> str:
    return t(locale, "overview_line", open=count)


def publish_home(
    user: str, deps: Deps, client: WebClient, offsets: dict[str, int] | None = None
) -> None:
    sections = home_sections(user, deps, client, offsets or {})
    # installed in many workspaces, its admins (Slack says, now) may change its settings
    # (an org-wide install's: the organisation's admins and owners alone)
    settings = deps.defaults is not None and is_workspace_admin(client, user, deps.org_wide)
    client.views_publish(user_id=user, view=home_view(sections, deps.locale, settings))
    record(deps.store, [AuditEvent(user, "lookup:home")])


def _first_action(body: dict[str, Any]) -> dict[str, Any]:
    acts = body.get("actions") or [{}]
    return acts[0] if isinstance(acts[0], dict) else {}


def open_summary(body: dict[str, Any], client: WebClient, deps: Deps) -> None:
    """A line's button: the candidate's summary in a modal (stacked over a modal)."""
    user = str((body.get("user") or {}).get("id") or "?")
    ref = read_value(LineRef, _first_action(body).get("value"))
    candidate = deps.store.get_candidate(ref.id) if ref is not None else None
    if candidate is None:
        view = gone_modal(deps.locale)
    else:  # independent review: a reviewer asked sees who decided, not what
        seen = sealed_for(deps.store, candidate, user, deps.independent_review)
        card = summary_view(seen.candidate, deps.locale, hidden=seen.decided)
        view = summary_modal(card.blocks, deps.locale)
    in_modal = (body.get("view") or {}).get("type") == "modal"
    if in_modal:
        client.views_push(trigger_id=body["trigger_id"], view=view)
    else:
        client.views_open(trigger_id=body["trigger_id"], view=view)
    if candidate is not None:
        record(deps.store, [AuditEvent(user, "lookup:summary", candidate.id)])


def search_results(query: str, user: str, deps: Deps) -> dict[str, Any]:
    try:
        hits = deps.store.search(query, limit=SEARCH_RESULTS) if query.strip() else None
    except SearchBusyError:
        return search_modal(query, None, deps.locale, t(deps.locale, "search_busy"))
    except QueryTooLong as refused:  # nothing searched: say why, the query left to edit
        return search_modal(query, None, deps.locale, refused_search(refused, deps.locale))
    if hits is not None:
        record(deps.store, [AuditEvent(user, "lookup:search")])
    return search_modal(query, hits, deps.locale)


def on_home_opened(event: dict[str, Any], client: WebClient, context: BoltContext) -> None:
    deps = deps_of(context)
    if event.get("tab", "home") != "home" or not event.get("user"):
        return
    if not home_allowed(event, context, client, deps):
        return
    publish_home(str(event["user"]), deps, client)


def on_page(ack: Ack, body: dict[str, Any], client: WebClient, context: BoltContext) -> None:
    ack()
    page = read_value(PageRef, _first_action(body).get("value"))
    offsets: dict[str, int] = {page.s: page.o} if page is not None else {}  # junk: page 1
    publish_home(str(body["user"]["id"]), deps_of(context), client, offsets)


def on_open(ack: Ack, body: dict[str, Any], client: WebClient, context: BoltContext) -> None:
    ack()
    open_summary(body, client, deps_of(context))


def on_search_button(
    ack: Ack, body: dict[str, Any], client: WebClient, context: BoltContext
) -> None:
    ack()
    view = search_modal("", None, deps_of(context).locale)
    client.views_open(trigger_id=body["trigger_id"], view=view)


def on_search_typed(
    ack: Ack, body: dict[str, Any], client: WebClient, context: BoltContext
) -> None:
    ack()
    view = body.get("view") or {}
    if not view.get("id"):
        return  # not typed in a modal of ours: nothing to update
    query = str(_first_action(body).get("value") or "")
    client.views_update(
        view_id=str(view["id"]),
        hash=view.get("hash"),
        view=search_results(query, str(body["user"]["id"]), deps_of(context)),
    )


def on_search_submit(ack: Ack, body: dict[str, Any], context: BoltContext) -> None:
    values = ((body.get("view") or {}).get("state") or {}).get("values") or {}
    query = str(((values.get(SEARCH_BLOCK) or {}).get(SEARCH_ACTION) or {}).get("value") or "")
    ack(
        response_action="update",
        view=search_results(query, str(body["user"]["id"]), deps_of(context)),
    )


def register(app: App) -> None:
    app.event("app_home_opened")(on_home_opened)
    app.action(re.compile(rf"^{HOME_PAGE}:"))(on_page)
    app.action(re.compile(rf"^{HOME_OPEN}:\d+$"))(on_open)
    app.action(HOME_SEARCH)(on_search_button)
    app.action(SEARCH_ACTION)(on_search_typed)
    app.view(HOME_SEARCH)(on_search_submit)
