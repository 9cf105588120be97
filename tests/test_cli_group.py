"""The `debrief` group turns the errors a user can cause into one clean line and an exit
code, for every command attached to it: no command needs to ask for it."""

from __future__ import annotations

from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner

from bot.cli import cli
from bot.settings import SettingsError
from store.errors import BusyError, NoDatabaseError, StoreError

FAILURES: dict[str, StoreError | SettingsError] = {
    "busy": BusyError("the database is busy: try again"),
    "none": NoDatabaseError("/nowhere/debrief.db"),
    "setting": SettingsError("DEBRIEF_LOCALE: say zh or en"),
}


@pytest.fixture
def failing() -> Iterator[str]:
    """A command attached as the others are, which raises what it is told to."""

    @click.command("fail-for-test")
    @click.argument("kind")
    def fail(kind: str) -> None:
        raise FAILURES[kind]

    cli.add_command(fail)
    try:
        yield "fail-for-test"
    finally:
        cli.commands.pop("fail-for-test", None)


@pytest.mark.parametrize(("kind", "code"), [("busy", 1), ("none", 2), ("setting", 2)])
def test_any_command_fails_in_one_clean_line(failing: str, kind: str, code: int) -> None:
    done = CliRunner().invoke(
        cli, [failing, kind], prog_name="debrief", env={"DEBRIEF_LOCALE": "en"}
    )
    assert done.exit_code == code
    assert done.stderr == f"Error: {FAILURES[kind]}\n"
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("kind", "said"),
    [
        (
            "busy",
            "错误：数据库正忙（另一个进程正在写入）：请稍后再试。数据库报告：the database is busy: try again",
        ),
        ("none", "错误：/nowhere/debrief.db 没有数据库：先运行 debrief index，或设置 DEBRIEF_DB"),
        ("setting", "错误：DEBRIEF_LOCALE: say zh or en"),  # a message made in one language
    ],
)
def test_the_line_is_in_the_team_s_language(failing: str, kind: str, said: str) -> None:
    done = CliRunner().invoke(
        cli, [failing, kind], prog_name="debrief", env={"DEBRIEF_LOCALE": "zh"}
    )
    assert done.stderr == said + "\n"


def test_every_command_is_attached() -> None:
    assert sorted(cli.commands) == [
        "ask",
        "audit",
        "backup",
        "digest",
        "doctor",
        "export",
        "forget",
        "index",
        "link",
        "list",
        "loop",
        "migrate-db",
        "migrate-workspace",
        "remind",
        "retention",
        "search",
        "serve",
        "show",
        "stats",
        "unlink",
        "zoom",  # zoom sync (issue 48)
    ]
