"""`debrief zoom sync [--from DATE]` (issue 48): without a public URL for Zoom's webhook
(Socket Mode), or to take what it missed, the account's cloud transcripts are listed
through Zoom's API and taken as the webhook takes them: the same topic filter, the
same once-only rule, the same cards in the channel (bot/zoom.py). What cannot be
fetched yet stays queued for `serve`, or the next run."""

from __future__ import annotations

import time
from datetime import date, datetime
from typing import Any

import click

from .cli_common import (
    BadUsage,
    db_option,
    echo_json,
    json_option,
    open_store,
    settings_for,
    space_of,
)
from .words import t

FETCH_FOR_S = 120.0  # how long `zoom sync` keeps trying what it queued before leaving it to serve
SOON_S = 30.0  # a retry due sooner than this is waited for


@click.group()
def zoom() -> None:
    """Zoom's cloud transcripts: `zoom sync` takes those the webhook missed."""


@zoom.command(name="sync")
@click.option(
    "--from",
    "since",
    metavar="DATE",
    help="The first day to look at (YYYY-MM-DD, in the team's time zone; default: 30 days ago).",
)
@click.option(
    "--workspace",
    "workspace",
    metavar="T…|E…",
    help="Installed in many workspaces: only this workspace's Zoom account.",
)
@db_option
@json_option
def sync_command(
    since: str | None, workspace: str | None, db_path: str | None, as_json: bool
) -> None:
    """Take the Zoom transcripts of interviews since DATE that Debrief does not have."""
    from .app import create_app
    from .zoom import ZoomFetcher, app_spaces, sync, unposted, zoom_accounts, zoom_decrypt

    settings = settings_for(db_path)
    loc = settings.locale
    first: date | None = None
    if since is not None:
        try:
            first = date.fromisoformat(since.strip())
        except ValueError:
            raise BadUsage("cli_zoom_bad_date", value=since) from None
    slack = bool(settings.bot_token) or settings.many_workspaces
    store = open_store(db_path, create=True)
    accounts = zoom_accounts(settings, store, zoom_decrypt(settings))
    if workspace is not None:
        ws = space_of(store, workspace).ws
        accounts = [a for a in accounts if a.ws == ws]
    if not accounts:
        raise BadUsage("cli_zoom_not_set")
    settings.require_zoom_pair()
    if not any(a.credentials for a in accounts):
        raise BadUsage("cli_zoom_no_credentials")
    synced = sync(settings, store, first, accounts)
    # with Slack (a bot token, or the installs of many workspaces): the cards posted as
    # serve posts them; without, the interviews indexed and nothing posted
    app = create_app(settings, store, verify_token=False) if slack else None
    fetched: list[Any] = []
    try:
        spaces = app_spaces(app, settings, store) if app is not None else unposted(settings, store)
        fetcher = ZoomFetcher(settings, store, spaces)
        deadline = time.monotonic() + FETCH_FOR_S
        while True:
            while (tried := fetcher.fetch_one()) is not None:
                fetched.append(tried)
            waiting = [
                r
                for a in accounts
                for r in store.in_workspace(a.ws).zoom_recordings()
                if r.state == "waiting"
            ]
            due = [datetime.fromisoformat(r.next_at) for r in waiting]
            soon = [max(0.0, (d - datetime.now(d.tzinfo)).total_seconds()) for d in due]
            if not soon or min(soon) > SOON_S or time.monotonic() + min(soon) > deadline:
                break
            time.sleep(min(soon) + 0.05)
    finally:
        if app is not None:
            app.close()
    taken = [f.candidate_id for f in fetched if f.outcome == "indexed" and f.candidate_id]
    refused = sum(1 for f in fetched if f.outcome in ("not_transcript", "parse_error"))
    failed = sum(1 for f in fetched if f.outcome == "failed")
    waiting_now = len(
        [
            r
            for a in accounts
            for r in store.in_workspace(a.ws).zoom_recordings()
            if r.state == "waiting"
        ]
    )
    if as_json:
        echo_json(
            {
                "meetings": synced.meetings,
                "passed_over": synced.passed_over,
                "queued": len(synced.queued),
                "seen": synced.seen,
                "retried": synced.again,
                "indexed": taken,
                "refused": refused,
                "failed": failed,
                "waiting": waiting_now,
                "errors": synced.failed,
            }
        )
    else:
        click.echo(
            t(
                loc,
                "cli_zoom_synced",
                meetings=synced.meetings,
                passed=synced.passed_over,
                queued=len(synced.queued) + synced.again,
                seen=synced.seen,
            )
        )
        if taken:
            click.echo(t(loc, "cli_zoom_taken", count=len(taken), ids=", ".join(taken)))
        if refused:
            click.echo(t(loc, "cli_zoom_refused", count=refused))
        if failed:
            click.echo(t(loc, "cli_zoom_failed", count=failed))
        if waiting_now:
            click.echo(t(loc, "cli_zoom_waiting", count=waiting_now))
        if not slack and taken:
            click.echo(t(loc, "cli_zoom_no_slack"), err=True)
        for account, why in synced.failed.items():
            click.echo(t(loc, "cli_zoom_list_failed", account=account, reason=why), err=True)
    if synced.failed:
        raise SystemExit(1)
