"""The commands that talk to Slack or speak as the bot: `serve`, `ask`, `digest`, `remind`.

bot/cli.py attaches them to the `debrief` group.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any

import click

from .cli_common import (
    BadUsage,
    Failure,
    db_option,
    echo_json,
    json_option,
    open_space,
    settings_for,
    workspace_option,
)
from .words import t

if TYPE_CHECKING:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from store.models import DigestData, Locale

    from .remind import RemindRun


@click.command()
@click.option(
    "--port", default=3000, show_default=True, type=click.IntRange(0, 65535), help="HTTP mode port."
)
@click.option("--host", default="0.0.0.0", show_default=True, help="HTTP mode address.")
@db_option
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"], case_sensitive=False),
    default=None,
    help="Overrides DEBRIEF_LOG_LEVEL (default info).",
)
def serve(port: int, host: str, db_path: str | None, log_level: str | None) -> None:
    """Run the bot: Socket Mode with SLACK_APP_TOKEN, HTTP mode with SLACK_SIGNING_SECRET.

    GET /healthz answers `ok` once Slack has taken the token (503 `starting: …` until
    then); in Socket Mode only when --port is given."""
    from click.core import ParameterSource

    from . import logs
    from .serving import serve as run

    settings = settings_for(db_path)
    settings.require_slack()
    logs.configure(log_level or settings.log_level, settings.log_format)
    given = click.get_current_context().get_parameter_source("port") != ParameterSource.DEFAULT
    run(settings, host, port, health_port=given)


def render_text(payload: dict[str, Any]) -> str:
    """A message (or a view) as readable text, for a terminal: every block and element kind
    Slack shows, each by its words; a kind this does not know is left out, never a crash."""
    lines: list[str] = []
    for block in payload.get("blocks") or []:
        if isinstance(block, dict):
            lines += _block_lines(block)
    if not lines:
        lines.append(_words(payload.get("text")))
    return "\n".join(lines)


def _words(value: object) -> str:
    """A text object (plain_text or mrkdwn) or a bare string, unescaped; "" for anything else."""
    from handlers.blocks import unescape

    if isinstance(value, dict):
        value = value.get("text")
    return unescape(value) if isinstance(value, str) else ""


def _option_words(element: dict[str, Any]) -> list[str]:
    options = list(element.get("options") or [])
    for group in element.get("option_groups") or []:
        options += (group or {}).get("options") or []
    return [_words(o.get("text")) for o in options if isinstance(o, dict)]


def _chosen(element: dict[str, Any]) -> str:
    """What a select or a picker shows before anyone touches it: its initial choice, else
    its placeholder."""
    initial = element.get("initial_option")
    if isinstance(initial, dict):
        return _words(initial.get("text"))
    picked = [_words(o.get("text")) for o in element.get("initial_options") or [] if o]
    for key in ("initial_user", "initial_channel", "initial_conversation", "initial_date"):
        if element.get(key):
            picked.append(str(element[key]))
    for key in ("initial_users", "initial_channels", "initial_conversations"):
        picked += [str(v) for v in element.get(key) or []]
    if element.get("initial_time"):
        picked.append(str(element["initial_time"]))
    return ", ".join(p for p in picked if p) or _words(element.get("placeholder"))


def _element(element: dict[str, Any]) -> str:
    """One interactive or image element, as a bracketed control or its words."""
    kind = str(element.get("type") or "")
    if kind in ("plain_text", "mrkdwn"):
        return _words(element)
    if kind == "image":
        return f"[{_words(element.get('alt_text')) or 'image'}]"
    if kind == "button":
        return f"[{_words(element.get('text'))}]"
    if kind == "overflow":
        return "[⋯ " + " / ".join(_option_words(element)) + "]"
    if kind in ("radio_buttons", "checkboxes"):
        initial = element.get("initial_option")
        chosen = {_words(o.get("text")) for o in element.get("initial_options") or [] if o}
        if isinstance(initial, dict):
            chosen.add(_words(initial.get("text")))
        marks = ("(•)", "( )") if kind == "radio_buttons" else ("[x]", "[ ]")
        return "  ".join(
            f"{marks[0] if w in chosen else marks[1]} {w}" for w in _option_words(element)
        )
    if kind.endswith("_select") or kind in ("datepicker", "timepicker", "datetimepicker"):
        options = _option_words(element)
        shown = _chosen(element)
        listed = f": {' / '.join(options)}" if options else ""
        return f"[{shown or '…'} ▾{listed}]"
    if kind.endswith("_input"):
        value = element.get("initial_value") or _words(element.get("placeholder"))
        return f"[{value or '____'}]"
    if kind == "workflow_button":
        return f"[{_words(element.get('text'))}]"
    return _words(element.get("text"))


def _block_lines(block: dict[str, Any]) -> list[str]:
    kind = block.get("type")
    if kind == "header":
        return [f"== {_words(block.get('text'))} =="]
    if kind == "section":
        lines = [_words(block.get("text"))] if block.get("text") else []
        lines += [_words(f) for f in block.get("fields") or []]
        accessory = block.get("accessory")
        if isinstance(accessory, dict):
            lines.append("  " + _element(accessory))
        return lines
    if kind == "context":
        parts = [_element(e) for e in block.get("elements") or [] if isinstance(e, dict)]
        return ["  " + " · ".join(p for p in parts if p)]
    if kind == "actions":
        parts = [_element(e) for e in block.get("elements") or [] if isinstance(e, dict)]
        return ["  " + " ".join(p for p in parts if p)]
    if kind == "divider":
        return ["-" * 40]
    if kind == "input":
        element = block.get("element")
        shown = _element(element) if isinstance(element, dict) else ""
        lines = [f"{_words(block.get('label'))}: {shown}".rstrip()]
        if block.get("hint"):
            lines.append("  " + _words(block.get("hint")))
        return lines
    if kind == "image":
        title = _words(block.get("title"))
        return [f"[{title or _words(block.get('alt_text')) or 'image'}]"]
    if kind in ("video", "file"):
        return [f"[{_words(block.get('title')) or kind}]"]
    if kind == "markdown":
        return [_words(block.get("text"))]
    if kind == "rich_text":
        return ["".join(_rich(e) for e in block.get("elements") or [])]
    return []


def _rich(element: object) -> str:
    """A rich_text element's words: its text, links, mentions and emoji, nested lists."""
    if not isinstance(element, dict):
        return ""
    kind = element.get("type")
    if kind == "text" or kind == "link":
        return str(element.get("text") or element.get("url") or "")
    if kind == "user":
        return f"@{element.get('user_id', '')}"
    if kind == "channel":
        return f"#{element.get('channel_id', '')}"
    if kind == "emoji":
        return f":{element.get('name', '')}:"
    inner = "".join(_rich(e) for e in element.get("elements") or [])
    return inner + ("\n" if kind in ("rich_text_section", "rich_text_preformatted") else "")


@click.command()
@click.argument("command")
@db_option
@click.option("--user", default="U_CLI", show_default=True, help="Who asks (a Slack user ID).")
@click.option("--channel", default="C_CLI", show_default=True, help="Where (a Slack channel ID).")
@workspace_option
@json_option
def ask(
    command: str,
    db_path: str | None,
    user: str,
    channel: str,
    workspace: str | None,
    as_json: bool,
) -> None:
    """Run a /candidate command without Slack: `debrief ask "/candidate 总结 000"`."""
    from handlers.audit import record
    from handlers.commands import answer, parse_command
    from handlers.deps import Deps
    from handlers.route import Kind
    from handlers.sending.outbox import RecordingOutbox, deliver

    settings = settings_for(db_path)
    # every Unicode space is a space: a Chinese input method types `／candidate　总结　000`
    words = unicodedata.normalize("NFKC", command).split(maxsplit=1)
    text = " ".join(words)
    if words and words[0].startswith("/"):
        name, text = words[0], words[1] if len(words) > 1 else ""
        if name != "/candidate":
            raise Failure("cli_unknown_command", name=name)
    route = parse_command(text)
    if route.kind == Kind.DECIDE:  # it would be recorded, yet posted in no thread
        raise Failure("ask_no_decide")
    if route.kind == Kind.REQUEST:  # nobody can be DMed, and no thread would say so
        raise Failure("ask_no_request")
    store = open_space(db_path, workspace)
    outbox = RecordingOutbox()
    own = store.workspace_settings(store.ws)  # installed in many: the workspace's own
    independent = (settings.for_workspace(own) if workspace else settings).independent_review
    deps = Deps(store=store, locale=settings.locale, independent_review=independent == "on")
    result = answer(route, deps, user=user, channel=channel)
    record(store, result.events)
    deliver(result.outgoing, outbox)
    if as_json:
        echo_json(outbox.payloads[0] if len(outbox.payloads) == 1 else outbox.payloads)
    else:
        for i, payload in enumerate(outbox.payloads):
            if i:
                click.echo("")
            if payload.get("response_type") == "in_channel":
                click.secho(t(settings.locale, "posted_in", channel=channel), dim=True)
            click.echo(render_text(payload))
    if not result.resolved:  # unknown or ambiguous candidate, a missing number: say so
        raise SystemExit(1)


@click.command()
@click.option("--post", "do_post", is_flag=True, help="Post today's digest (once a day).")
@click.option("--dry-run", is_flag=True, help="Print the digest without posting it.")
@db_option
@workspace_option
@json_option
def digest(
    do_post: bool, dry_run: bool, db_path: str | None, workspace: str | None, as_json: bool
) -> None:
    """The daily digest: `--post` for cron, `--dry-run [--json]` to see it."""
    from .app import web_client
    from .digest import Digester

    if do_post == dry_run:
        raise BadUsage("cli_digest_mode")
    settings = settings_for(db_path)
    store = open_space(db_path, workspace, writes=do_post)  # posting claims the day
    if dry_run:
        digester = Digester(settings, store, None)
        now = digester.now()
        data = digester.data(now)
        message, day = digester.render(data, now), digester.day(now)
        if as_json:
            shown = {"text": message.text, "blocks": message.blocks} if message else {}
            echo_json({"text": "", "blocks": []} | shown | {"overdue": _overdue_json(data)})
        elif message is None:
            click.echo(t(settings.locale, "digest_nothing", day=day))
        else:
            click.echo(render_text(message.payload()))
        return
    if not settings.digest_channel:
        raise BadUsage("cli_digest_no_channel")
    if not settings.bot_token:
        raise BadUsage("cli_digest_no_token")
    outcome = Digester(settings, store, web_client(settings)).run(force=True)
    words = {
        "sent": t(settings.locale, "digest_sent", channel=settings.digest_channel),
        "empty": t(settings.locale, "digest_empty"),
        "already": t(settings.locale, "digest_already"),
        "shared": t(settings.locale, "digest_shared", channel=settings.digest_channel),
    }
    if as_json:
        echo_json({"outcome": outcome})
    else:
        click.echo(words.get(outcome, outcome))


def _overdue_json(data: DigestData) -> dict[str, Any]:
    """The digest's overdue feedback for `--json`: how many candidates, and those listed."""
    return {
        "total": data.overdue_total,
        "candidates": [
            {
                "candidate_id": line.id,
                "name": line.name,
                "position": line.position,
                "reviewers": [
                    {"reviewer": r.reviewer, "asked_by": r.asked_by, "due_at": r.due_at}
                    for r in late
                ],
            }
            for line, late in data.overdue
        ],
    }


@click.command()
@click.option(
    "--post",
    "do_post",
    is_flag=True,
    help=(
        "Remind now each reviewer with overdue requests, once a day (cron: this runs"
        " whatever the time, DEBRIEF_REMIND_TIME and the day of the week; schedule it on"
        " working days)."
    ),
)
@click.option("--dry-run", is_flag=True, help="Say who would be reminded of what; send nothing.")
@db_option
@workspace_option
@json_option
def remind(
    do_post: bool, dry_run: bool, db_path: str | None, workspace: str | None, as_json: bool
) -> None:
    """Remind reviewers of overdue requests: one DM each, at most once a day.

    `--post` sends today's reminders now, at most one a reviewer a day whoever sent
    them (serve's schedule, another replica, an earlier run); it does not wait for
    DEBRIEF_REMIND_TIME, nor skip weekends, and runs with DEBRIEF_REMIND_TIME=off too: cron
    chooses when. `--dry-run` sends and records nothing (with SLACK_BOT_TOKEN it reads
    from Slack who belongs to the workspace). Exit 1 when a reminder failed."""
    from .app import web_client
    from .remind import Reminder

    if do_post == dry_run:
        raise BadUsage("cli_digest_mode")
    settings = settings_for(db_path)
    if do_post and not settings.bot_token:
        raise BadUsage("cli_remind_no_token")
    store = open_space(db_path, workspace, writes=do_post)  # sending claims each reminder
    client = web_client(settings) if settings.bot_token else None
    reminder = Reminder(settings, store, client)
    now = reminder.now()
    done = reminder.run(now, force=True, dry_run=dry_run)
    if as_json:
        echo_json(done.as_json())
    else:
        click.echo(_remind_text(done, settings.locale, now, settings.tz))
    if done.failed:
        raise SystemExit(1)


def _remind_text(done: RemindRun, locale: Locale, now: datetime, tz: ZoneInfo) -> str:
    """One line a reviewer (what became of their reminder), then one a candidate."""
    from handlers.views.common import _who
    from handlers.views.remind import days_overdue, deadline_text, overdue_text

    if not done.reminders:
        return t(locale, "remind_none", day=done.day)
    lines: list[str] = []
    for reminded in done.reminders:
        key = f"remind_status_{reminded.status}"
        lines.append(t(locale, key, reviewer=reminded.reviewer))
        for item in reminded.items:
            r = item.request
            lines.append(
                t(
                    locale,
                    "remind_item",
                    who=_who(item.candidate, locale),
                    asker=r.asked_by,
                    due=deadline_text(r.due_at, tz),
                    overdue=overdue_text(locale, days_overdue(r.due_at, now, tz)),
                )
            )
    return "\n".join(lines)
