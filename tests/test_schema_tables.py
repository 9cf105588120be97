"""The schema written once (issue 35): one ordered list of steps for both backends, each
recorded under the name earlier releases gave it, and each table of data declared once
(`store/schema/tables.py`), as the database a fresh migrate makes holds it."""

from __future__ import annotations

import re

import pytest

from store.factory import is_pg_url
from store.schema.steps import STEPS, known
from store.schema.tables import TABLES, in_spaces
from store.sqlite.store import Store

pytestmark = pytest.mark.both_backends  # db_target: SQLite and PostgreSQL

FULL_TEXT = {
    "sqlite": re.compile(r"^((candidates_fts|candidates_bigrams)(_\d+)?(_\w+)?|search_texts)$"),
    "pg": re.compile(r"^fts_version$"),
}
"""The tables each backend builds from the candidates' text: not declared, built again
by migrate-db."""

SPACES_OWN = {"workspaces", "installations", "uninstall_events"}
"""Tables with a `ws` column that are about the spaces themselves, not a space's data."""


def columns(store: Store, db_target: str) -> dict[str, dict[str, tuple[bool, str | None]]]:
    """{table: {column: (NOT NULL, default)}} of the database's own tables."""
    found: dict[str, dict[str, tuple[bool, str | None]]] = {}
    if is_pg_url(db_target):
        for table, column, nullable, default in store._all(
            "SELECT c.table_name, c.column_name, c.is_nullable, c.column_default"
            " FROM information_schema.columns c JOIN information_schema.tables t"
            " ON t.table_schema = c.table_schema AND t.table_name = c.table_name"
            " WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'"
        ):
            found.setdefault(table, {})[column] = (nullable == "NO", default)
        return found
    for (table,) in store._all(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ):
        for _cid, column, _kind, notnull, default, _pk in store._all(
            f"PRAGMA table_info([{table}])"
        ):
            found.setdefault(table, {})[column] = (bool(notnull), default)
    return found


def test_every_table_the_database_holds_is_declared_once_with_its_data_space(
    store: Store, db_target: str
) -> None:
    backend = "pg" if is_pg_url(db_target) else "sqlite"
    tables = columns(store, db_target)
    names = [t.name for t in TABLES]
    assert len(names) == len(set(names)), "a table declared twice"
    undeclared = {
        t
        for t in tables
        if t not in names and t != "_migrations" and not FULL_TEXT[backend].match(t)
    }
    assert undeclared == set(), "declare it in store/schema/tables.py"
    assert set(names) <= set(tables), "declared, yet no schema step creates it"
    for t in TABLES:
        held = tables[t.name]
        for column in (t.space, t.subject, *(t.key or "").split(", "), t.identity):
            assert column is None or column == "" or column in held, (t.name, column)
    # the tables of one data space, as erasing a space and the queries take them: a
    # `ws` that is never NULL, 0 (the single-workspace mode's) unless written
    # (full-text tables, SQLite's kept search terms among them, go with the space's index)
    spaced = {
        t for t, cols in tables.items() if "ws" in cols and not FULL_TEXT[backend].match(t)
    } - SPACES_OWN
    assert {t.name for t in in_spaces()} == spaced
    for name in spaced:
        notnull, default = tables[name]["ws"]
        assert notnull and default == "0", name


def test_one_ordered_list_holds_each_backend_s_steps_under_the_names_they_were_recorded() -> None:
    """A database an earlier release wrote records its steps by these names: each
    backend's are numbered on from 1 with no gap, in the list's order, and every step
    is a step of one backend at least."""
    assert all(step.sqlite or step.pg for step in STEPS)
    for backend, prefix in (("sqlite", "m"), ("pg", "pg")):
        names = known(backend)  # type: ignore[arg-type]
        numbers = [int(re.fullmatch(rf"{prefix}(\d{{3}})_\w+", n).group(1)) for n in names]  # type: ignore[union-attr]
        assert numbers == list(range(1, len(names) + 1)), backend
    # each release before this one recorded these (their bodies are in store/schema/)
    assert known("sqlite")[24] == "m025_ask_limits"
    assert known("pg")[24] == "pg025_ask_limits"
    # this release's (issue 36) after them: a meeting's times and kind
    assert known("sqlite")[25] == "m026_meeting_times"
    assert known("pg")[25] == "pg026_meeting_times"
    paired = {(s.sqlite, s.pg) for s in STEPS}
    assert ("m017_workspaces", "pg018_workspaces") in paired
    assert ("m024_ranking_by_space", None) in paired
    assert (None, "pg015_blocks") in paired
