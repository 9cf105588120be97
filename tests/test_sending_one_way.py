"""Sending is one way (issue 35, "The shape"): what plans a message (a listener, a
command's answer, asking reviewers) hands the sender (handlers/sending/) a plan of
replies, posts, DMs and edits; the sender carries it out and calls back into nothing
that made it. Read with `ast`, as tests/test_import_graph.py reads the packages; what
the plans do in Slack is tested end to end by tests/test_requests.py."""

from __future__ import annotations

import ast

from test_import_graph import graph, modules

PLANNERS = ("handlers.asking", "handlers.answers", "handlers.commands", "handlers.listeners")


def _reached(edges: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for other in edges.get(todo.pop(), set()) - seen:
            seen.add(other)
            todo.append(other)
    return seen


def test_the_sender_imports_nothing_that_plans_what_it_sends() -> None:
    found = modules()
    edges = graph(found)
    senders = [name for name in found if name.startswith("handlers.sending.")]
    assert "handlers.sending.outbox" in senders  # read what is there
    reached = {
        name: sorted(m for m in _reached(edges, name) if m.startswith(PLANNERS)) for name in senders
    }
    assert reached == {name: [] for name in senders}


def test_asking_reviewers_plans_and_sends_nothing_itself() -> None:
    """handlers/asking.py calls no Slack method: its DMs and edits are steps of a plan."""
    path = modules()["handlers.asking"]
    calls = {
        node.func.attr
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Attribute | ast.Name)
        and (ast.unparse(node.func.value).split(".")[-1] == "client")
    }
    assert calls == set()
