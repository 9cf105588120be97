"""`pip install .` installs every package of bot/, handlers/ and store/ (the README's
first command runs the installed copy, not this folder): setuptools' own discovery, with
pyproject.toml's settings, finds each folder that holds an `__init__.py`."""

from __future__ import annotations

import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_is_installed() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packages = config["tool"]["setuptools"]["packages"]
    if isinstance(packages, list):  # named one by one
        installed = set(packages)
    else:
        installed = set(find_packages(str(ROOT), include=packages["find"]["include"]))
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("bot", "handlers", "store")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert {"handlers.views", "handlers.words", "bot.words", "store.schema"} <= on_disk
    assert on_disk - installed == set()
    assert installed - on_disk == set()
