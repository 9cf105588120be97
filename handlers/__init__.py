"""Slack listeners, one module a group, each with `register(app, deps)`."""

from __future__ import annotations

from slack_bolt import App

from . import access, actions, clean, decide, home, slash, threads, uploads
from .commands import Deps


def register(app: App, deps: Deps, policy: access.Policy | None = None) -> None:
    clean.register(app)  # first: every other middleware and listener reads cleaned text
    access.register(app, deps, policy or access.Policy([], []))
    slash.register(app, deps)
    actions.register(app, deps)
    decide.register(app, deps)
    home.register(app, deps)
    uploads.register(app, deps)  # before threads: a file_share message is handled here
    threads.register(app, deps)
