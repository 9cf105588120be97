"""No import circle in bot/, handlers/, store/, and no module of theirs over 800 lines
(issue 35): every import counts, those
inside functions and under TYPE_CHECKING too, for a circle hidden there is still two
modules that cannot be understood, or changed, one without the other. Read with `ast`,
nothing imported: `python tests/test_import_graph.py` prints the circles it finds."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "handlers", "store")


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the packages, by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _imported(name: str, path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    """What one import statement names, as dotted names (a submodule where it names one)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        target = ".".join([*package, *([node.module] if node.module else [])])
    else:
        target = node.module or ""
    return [target, *(f"{target}.{alias.name}" for alias in node.names)]


def graph(found: Mapping[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules of the packages it imports (anywhere in its text)."""
    edges: dict[str, set[str]] = {}
    for name, path in found.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            named = _imported(name, path, node)
            subs = [n for n in named[1:] if n in found]
            if isinstance(node, ast.ImportFrom) and len(subs) == len(node.names):
                named = subs  # `from . import a, b`: the submodules, not the package
            for dotted in named:
                while dotted and dotted not in found:
                    dotted = dotted.rpartition(".")[0]
                if dotted and dotted != name:
                    targets.add(dotted)
        edges[name] = targets
    return edges


def circles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in edges.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def test_the_detector_finds_a_circle_however_long() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(edges) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_an_import_under_type_checking_or_in_a_function_counts(tmp_path: Path) -> None:
    package = tmp_path / "handlers"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "one.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .two import X\n"
    )
    (package / "two.py").write_text("def f():\n    from handlers import one\n")
    for other in ("bot", "store"):
        (tmp_path / other).mkdir()
    assert circles(graph(modules(tmp_path))) == [["handlers.one", "handlers.two"]]


def test_bot_handlers_and_store_have_no_import_circle() -> None:
    found = modules()
    assert "store.factory" in found and "handlers.sending.outbox" in found  # read what is there
    assert circles(graph(found)) == []


MAX_LINES = 800  # a module about one thing, whole: not split to meet a line count


def test_no_product_module_is_over_800_lines() -> None:
    found = modules()
    sizes = {
        name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in found.items()
    }
    assert len(sizes) > 100  # read what is there
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}


if __name__ == "__main__":
    groups = circles(graph(modules()))
    for group in groups:
        print(" <-> ".join(group))
    print(f"{len(groups)} import circle(s) in {', '.join(PACKAGES)}")
    sys.exit(1 if groups else 0)
