"""What Bolt calls: the global middlewares and the listeners, one module a group, each
with `register(app)` that only wires them. Each module logs as `handlers.<module>`."""

from __future__ import annotations

from collections.abc import Callable

from slack_bolt import App, BoltContext, BoltResponse

from ..clean import clean_request
from ..deps import DEPS_KEY, SPACE_KEY, SPACE_NAME_KEY, Deps, Spaces
from . import actions, decide, file_share, home, settings, slash, threads
from .access import access_guard


def register(app: App, deps: Deps, spaces: Spaces | None = None) -> None:
    """Three global middlewares, in this order, then every listener: the request's text
    cleaned (every other middleware and listener reads cleaned text), the app's `deps`
    put in its context (installed in many workspaces, the `spaces` Deps of the data
    space the authorize step found), and the access guard."""

    def provide_deps(context: BoltContext, next: Callable[[], BoltResponse]) -> BoltResponse:
        if spaces is None:
            context[DEPS_KEY] = deps
            return next()
        ws = context.get(SPACE_KEY)
        if not isinstance(ws, int):  # fail closed: no request reaches data of no space
            return BoltResponse(status=200, body="")
        context[DEPS_KEY] = spaces.of(ws, context.get(SPACE_NAME_KEY))
        return next()

    app.middleware(clean_request)
    app.middleware(provide_deps)
    app.middleware(access_guard)
    slash.register(app)
    actions.register(app)
    decide.register(app)
    home.register(app)
    settings.register(app)
    file_share.register(app)  # before threads: a file_share message is handled here
    threads.register(app)
