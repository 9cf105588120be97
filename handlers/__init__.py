"""Slack listeners, one module a group, each with `register(app, deps)`."""

from __future__ import annotations

from slack_bolt import App

from . import actions, slash, threads
from .commands import Deps


def register(app: App, deps: Deps) -> None:
    slash.register(app, deps)
    actions.register(app, deps)
    threads.register(app, deps)
