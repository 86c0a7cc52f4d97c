"""The module map at the top of docs/architecture.md names every module of the project.

The map is a tree: a line whose first word ends in ``/`` opens a package (``games/``,
``management/commands/``) under the package of the line above it that is less indented;
every ``name.py`` written on a line, or on the more indented lines below it, is a module
of the package that line belongs to.  A package's ``__init__.py`` is named by the package
itself, and its migrations by ``migrations/`` (Django writes them).  The test fails on a
module the map does not name, and on a name the map gives that is no module.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "dbtools", "tournaments", "scoring", "reach", "actions", "web", "ops")
PACKAGES += ("config",)
MODULE = re.compile(r"(?<![\w/.<])([a-z_0-9]+)\.py\b")
PACKAGE = re.compile(r"(?<![\w/.<])((?:[a-z_0-9]+/)+)(?=[\s,;]|$)")


def the_map() -> str:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = text.index("```\n") + 4
    return text[start : text.index("```", start)]


def named(text: str) -> tuple[set[str], set[str], set[str]]:
    """The modules (``tournaments/games/base.py``) and the packages (``tournaments/games``)
    the map names, as paths from the project's root, and the packages that open a line."""
    modules: set[str] = set()
    packages: set[str] = set()
    opening: set[str] = set()
    stack: list[tuple[int, str]] = []  # (indent, package)
    for line in text.splitlines():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        first = line.split()[0]
        parent = stack[-1][1] if stack else ""
        if first.endswith("/"):
            path = f"{parent}/{first.rstrip('/')}".lstrip("/")
            stack.append((indent, path))
            opening.add(path)
            packages.update("/".join(path.split("/")[: i + 1]) for i in range(path.count("/") + 1))
            rest = line.lstrip()[len(first) :]
        else:
            rest = line
        here = stack[-1][1] if stack else ""
        if not here:
            continue
        modules.update(f"{here}/{name}.py" for name in MODULE.findall(rest))
        for sub in PACKAGE.findall(rest):
            path = f"{here}/{sub.rstrip('/')}"
            packages.update(f"{here}/{p}" for p in _prefixes(sub.rstrip("/")))
            packages.add(path)
    return modules, packages, opening


def _prefixes(path: str) -> list[str]:
    parts = path.split("/")
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def project() -> tuple[set[str], set[str]]:
    """Every module and every package (a folder with an ``__init__.py``) of the project,
    but the migrations."""
    modules: set[str] = set()
    packages: set[str] = set()
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts:
                continue
            if path.name == "__init__.py":
                packages.add(relative.parent.as_posix())
            else:
                modules.add(relative.as_posix())
    packages.update(PACKAGES)
    return modules, packages


def test_the_map_names_every_module_and_package():
    modules, packages, _opening = named(the_map())
    have_modules, have_packages = project()
    assert sorted(have_modules - modules) == []
    assert sorted(have_packages - packages) == []


def test_the_map_names_no_module_that_is_gone():
    modules, _packages, opening = named(the_map())
    have_modules, have_packages = project()
    assert sorted(m for m in modules - have_modules if m.split("/")[0] in PACKAGES) == []
    folders = {p for p in opening if (ROOT / p).is_dir()}  # migrations/: no package of ours
    assert sorted(p for p in opening - folders if p.split("/")[0] in PACKAGES) == []


def test_the_reading_of_the_map():
    """A package opens on its own line or inside a line; a module belongs to the package
    of its line; a less indented line closes what the lines above opened."""
    text = """\
top/               a package: one.py
  sub/               two.py three.py
                     four.py
  five.py            a module of top, and inner/ a package of top
  management/commands/  six.py
bench/             not the project's: bench.py
"""
    modules, packages, opening = named(text)
    assert modules == {
        "top/one.py",
        "top/sub/two.py",
        "top/sub/three.py",
        "top/sub/four.py",
        "top/five.py",
        "top/management/commands/six.py",
        "bench/bench.py",
    }
    assert packages == {
        "top",
        "top/sub",
        "top/inner",
        "top/management",
        "top/management/commands",
    } | {"bench"}
    assert opening == {"top", "top/sub", "top/management/commands", "bench"}
