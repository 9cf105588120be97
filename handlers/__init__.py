"""Slack listeners, one module a group, each with `register(app, deps)`."""

from __future__ import annotations

from slack_bolt import App

from . import access, actions, decide, slash, threads
from .commands import Deps


def register(app: App, deps: Deps, policy: access.Policy | None = None) -> None:
    access.register(app, deps, policy or access.Policy([], []))
    slash.register(app, deps)
    actions.register(app, deps)
    decide.register(app, deps)
    threads.register(app, deps)
