"""Slack listeners, one module a group, each with `register(app)` that only wires them."""

from __future__ import annotations

from collections.abc import Callable

from slack_bolt import App, BoltContext, BoltResponse

from . import actions, decide, home, slash, threads, uploads
from .access import access_guard
from .clean import clean_request
from .deps import DEPS_KEY, Deps


def register(app: App, deps: Deps) -> None:
    """Three global middlewares, in this order, then every listener: the request's text
    cleaned (every other middleware and listener reads cleaned text), the app's `deps`
    put in its context, and the access guard."""

    def provide_deps(context: BoltContext, next: Callable[[], BoltResponse]) -> BoltResponse:
        context[DEPS_KEY] = deps
        return next()

    app.middleware(clean_request)
    app.middleware(provide_deps)
    app.middleware(access_guard)
    slash.register(app)
    actions.register(app)
    decide.register(app)
    home.register(app)
    uploads.register(app)  # before threads: a file_share message is handled here
    threads.register(app)
