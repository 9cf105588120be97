"""Every command the README and docs/ show is run, or at least parsed, by this test.

The `debrief …` commands in each page's ```sh blocks run in-process (click's CliRunner)
in a temp folder holding a copy of the seeds, against a temp database, in order, and
must exit 0; the ones that need Slack, a server, PostgreSQL or a container (`serve`,
`doctor`, `migrate-db`, `--post`, anything after `docker …`) are parsed instead: the
subcommand, each flag and the arguments must be what the CLI takes. Every `debrief …`
written inline in backticks names a real subcommand and real flags. The reference's
synopsis lists every subcommand with every flag; its `--json` table names exactly the
keys each command prints; the README's card is what the quickstart prints. A group's
commands (`debrief zoom sync`) count as commands of their own."""

from __future__ import annotations

import datetime
import json
import os
import re
import shlex
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner, Result

from bot.cli import cli

ROOT = Path(__file__).resolve().parent.parent
# The pages a newcomer reads: the README and docs/ (not the plans kept there).
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PAGES = [p for p in PAGES if not p.name.startswith("plan-")]
REFERENCE = ROOT / "docs" / "reference.md"
SEPARATORS = {"&&", "||", ";", "|"}
# Parsed, not run: they wait for Slack, serve, need PostgreSQL or Zoom, or change nothing here.
NOT_RUN = {"serve", "doctor", "migrate-db", "zoom"}
CID = "000_9e6b3ecb0732fcf3"


def name_of(page: Path) -> str:
    return str(page.relative_to(ROOT))


def sh_blocks(text: str) -> list[str]:
    return re.findall(r"^[ \t]*```sh\n(.*?)^[ \t]*```", text, re.S | re.M)


def simple_commands(block: str) -> Iterator[list[str]]:
    """Each simple command of a shell block, as words; `$(date +%F)` is today."""
    block = block.replace("\\\n", " ").replace("$(date +%F)", datetime.date.today().isoformat())
    for line in block.splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        words: list[str] = []
        for word in lexer:
            if word in SEPARATORS:
                if words:
                    yield words
                words = []
            else:
                words.append(word)
        if words:
            yield words


def expand(word: str, exported: dict[str, str]) -> str:
    return re.sub(r"\$(\w+)", lambda m: exported[m[1]], word)


def debrief_commands(page: Path) -> list[tuple[list[str], bool]]:
    """The `debrief` commands of a page's sh blocks: (the arguments after `debrief`, run?).
    `export NAME=value` earlier in a block is substituted for `$NAME` in later words."""
    found = []
    for block in sh_blocks(page.read_text("utf-8")):
        exported: dict[str, str] = {}
        for words in simple_commands(block):
            if words[0] == "export":
                exported |= dict(w.split("=", 1) for w in words[1:])
                continue
            words = [expand(w, exported) for w in words]
            for i in range(len(words) - 1):
                if words[i] == "debrief" and words[i + 1] in cli.commands:
                    args = words[i + 1 :]
                    runs = i == 0 and args[0] not in NOT_RUN and "--post" not in args
                    found.append((args, runs))
                    break
    return found


def options(command: click.Command) -> set[str]:
    return {o for p in command.params if isinstance(p, click.Option) for o in p.opts}


def command_of(args: list[str]) -> tuple[str, click.Command, list[str]]:
    """The command the words name (within a group: `zoom sync`), and the words after it."""
    command: click.Command = cli.commands[args[0]]
    name, rest = [args[0]], list(args[1:])
    while isinstance(command, click.Group) and rest and rest[0] in command.commands:
        name.append(rest[0])
        command = command.commands[rest.pop(0)]
    return " ".join(name), command, rest


def leaf_commands() -> dict[str, click.Command]:
    """Every command that runs, by its words: `index`, …, `zoom sync`."""
    found: dict[str, click.Command] = {}

    def walk(prefix: str, group: click.Group) -> None:
        for name, command in group.commands.items():
            words = f"{prefix} {name}".strip()
            if isinstance(command, click.Group):
                walk(words, command)
            else:
                found[words] = command

    walk("", cli)
    return found


def check_parses(args: list[str]) -> None:
    """The subcommand exists, takes each flag shown, and its parser accepts the words."""
    name, command, rest = command_of(args)
    assert not isinstance(command, click.Group), f"debrief {name}: which of its commands?"
    flags = {a.split("=", 1)[0] for a in rest if a.startswith("--")}
    assert flags <= options(command), f"debrief {name} has no {flags - options(command)}"
    command.make_context(name, rest)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with a copy of the seeds, as the quickstart's `debrief index seeds` sees."""
    shutil.copytree(ROOT / "seeds", tmp_path / "seeds")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def invoke(workdir: Path, args: list[str]) -> Result:
    """`debrief ARGS` in-process against the folder's database, with no Slack or other
    setting from the environment of the test run."""
    env: dict[str, str | None] = {
        k: None for k in os.environ if k.startswith(("SLACK_", "DEBRIEF_"))
    }
    env["DEBRIEF_DB"] = str(workdir / "debrief.db")
    return CliRunner().invoke(cli, args, env=env)


def indexed(workdir: Path) -> None:
    result = invoke(workdir, ["index", "seeds"])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("page", PAGES, ids=name_of)
def test_every_command_a_page_shows_runs(page: Path, workdir: Path) -> None:
    commands = debrief_commands(page)
    if not any(args[0] == "index" for args, runs in commands if runs):
        indexed(workdir)  # the page starts from the seeds, as the quickstart leaves them
    for args, runs in commands:
        check_parses(args)
        if runs:
            result = invoke(workdir, args)
            assert result.exit_code == 0, f"debrief {shlex.join(args)}:\n{result.output}"


def test_the_commands_are_found() -> None:
    """The extraction finds what the pages show (so the test above cannot pass empty)."""
    shown = {name_of(p): debrief_commands(p) for p in PAGES}
    assert shown["README.md"] == [
        (["index", "seeds"], True),
        (["ask", "/candidate 总结 000"], True),
    ]
    assert (["doctor"], False) in shown["docs/running.md"]
    assert (["backup", f"/data/debrief-{datetime.date.today()}.db"], False) in shown[
        "docs/running.md"
    ]
    assert (["migrate-db", "--to", "postgresql://debrief:secret@db.internal/debrief", "--db",
             "./debrief.db"], False) in shown["docs/running.md"]  # fmt: skip
    assert (["zoom", "sync", "--from", "2026-11-01"], False) in shown["docs/running.md"]
    assert sum(runs for args, runs in shown["docs/reference.md"]) >= 15


def inline_commands(text: str) -> Iterator[list[str]]:
    for span in re.findall(r"`debrief\s+([^`]+)`", text):
        words = [w for w in re.split(r"[\s\[\]|]+", span) if w]
        yield words


@pytest.mark.parametrize("page", PAGES, ids=name_of)
def test_every_inline_command_names_real_flags(page: Path) -> None:
    for words in inline_commands(page.read_text("utf-8")):
        assert words[0] in cli.commands, f"`debrief {' '.join(words)}`: no such command"
        _name, command, rest = command_of(words)
        flags = {w.split("=", 1)[0] for w in rest if w.startswith("--")}
        known = options(command)
        assert flags <= known, f"`debrief {' '.join(words)}`: no {flags - known}"


def synopsis() -> dict[str, set[str]]:
    """The reference's command-line block: each subcommand and the flags its lines show."""
    text = REFERENCE.read_text("utf-8")
    block = text.split("## The command line\n\n```\n", 1)[1].split("```", 1)[0]
    shown: dict[str, set[str]] = {}
    for line in block.splitlines():
        if line.startswith("debrief "):
            words = line.split()[1:]
            name = command_of(words)[0] if words[0] in cli.commands else words[0]
            shown.setdefault(name, set()).update(re.findall(r"--[a-z-]+", line))
    return shown


def test_the_reference_lists_every_command_with_every_flag() -> None:
    shown = synopsis()
    commands = leaf_commands()
    assert set(shown) == set(commands)
    for name, command in commands.items():
        long_flags = {o for o in options(command) if o.startswith("--")} - {"--help"}
        assert shown[name] == long_flags, name


def json_table() -> list[tuple[str, list[str]]]:
    text = REFERENCE.read_text("utf-8")
    section = text.split("## --json keys\n", 1)[1]
    rows = re.findall(r"^\| `(debrief [^`]+)` \| ([^|]*) \|", section, re.M)
    return [(command, re.findall(r"`([^`]+)`", keys)) for command, keys in rows]


# What the table's placeholders stand for, on the seeds.
PLACEHOLDERS = {
    "PATH": "seeds",
    "CANDIDATE": CID,
    "QUERY": "分布式",
    '"/candidate …"': '"/candidate 总结 000"',
    "T…": "T0123ABCD",
}
# Rows not run here: they need PostgreSQL, Zoom, or a workspace installed through OAuth.
NOT_RUN_JSON = {"migrate-db", "forget --workspace", "zoom sync"}


def test_the_json_table_names_exactly_the_keys_each_command_prints(workdir: Path) -> None:
    indexed(workdir)
    rows = json_table()
    with_json = {n for n, c in leaf_commands().items() if "--json" in options(c)}
    assert {command_of(shlex.split(command)[1:])[0] for command, _keys in rows} == with_json
    checked = set()
    for command, keys in rows:
        for placeholder, value in PLACEHOLDERS.items():
            command = command.replace(placeholder, value)
        args = shlex.split(command)[1:]
        check_parses(args)
        if args[0] in NOT_RUN_JSON or " ".join(args[:2]) in NOT_RUN_JSON:
            continue
        result = invoke(workdir, args)
        assert result.exit_code in (0, 1) if args[0] == "doctor" else result.exit_code == 0, (
            f"{command}:\n{result.output}"
        )
        printed: Any = json.loads(result.stdout)
        if isinstance(printed, list):
            assert printed, f"{command} printed an empty list: nothing to compare"
            printed = printed[0]
        assert len(keys) == len(set(keys)) and set(keys) == set(printed), command
        checked.add(command_of(args)[0])
    assert checked == with_json - {"migrate-db", "zoom sync"}


def test_the_readme_card_is_what_the_quickstart_prints(workdir: Path) -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    (card,) = re.findall(r"```text\n(.*?)```", readme, re.S)
    indexed(workdir)
    result = invoke(workdir, ["ask", "/candidate 总结 000"])
    assert result.exit_code == 0
    assert result.stdout == card
