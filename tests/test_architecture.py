"""The layers point one way and no module imports itself in a circle.

engine, dbtools ← tournaments ← scoring ← reach ← actions ← web, ops ← config: a
package imports only from the layers below it (and its own), whatever the import's place
in the file (top level, inside a function, under ``TYPE_CHECKING``).  ``actions`` is the
floor of the workflows: every change a club makes, which the ways in call.  ``web``
(the pages and the API) and ``ops`` (demo, generator, backups) stand side by side on it
and never import each other.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {
    "engine": 0,
    "dbtools": 0,
    "tournaments": 1,
    "scoring": 2,
    "reach": 3,
    "actions": 4,
    "web": 5,
    "ops": 5,
    "config": 6,
}


def module_of(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(root: Path, packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Module → the project modules it imports (``from a import b`` names ``a.b`` when
    that is a module, else ``a``)."""
    files = {module_of(p, root): p for pkg in packages for p in (root / pkg).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names
                ]
            else:
                continue
            edges.update(t for t in targets if t in files and t != name)
        graph[name] = edges
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_circle_finder_finds_circles_and_only_circles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"d"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_imports_inside_functions_and_relative_ones(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "one.py").write_text("def f():\n    from pkg import two\n")
    (pkg / "two.py").write_text("from . import one\n")
    graph = import_graph(tmp_path, ("pkg",))
    assert graph["pkg.one"] == {"pkg.two"} and graph["pkg.two"] == {"pkg.one"}
    assert circles(graph) == [["pkg.one", "pkg.two"]]


def test_no_module_of_the_project_imports_itself_in_a_circle():
    graph = import_graph(ROOT, tuple(LAYERS))
    assert len(graph) > 100
    assert circles(graph) == []


def test_layers_point_one_way():
    graph = import_graph(ROOT, tuple(LAYERS))
    wrong = []
    for module, targets in graph.items():
        mine = module.split(".")[0]
        for target in targets:
            theirs = target.split(".")[0]
            if theirs != mine and LAYERS[theirs] >= LAYERS[mine]:
                wrong.append(f"{module} → {target}")
    assert wrong == []


def test_no_domain_signals_the_actions_hand_work_on_themselves():
    """What happens after a change is called by the action that made it
    (``actions.after``), never broadcast: no module of the project defines a signal."""
    defined = [
        f"{path.relative_to(ROOT)}"
        for pkg in LAYERS
        for path in (ROOT / pkg).rglob("*.py")
        if "Signal(" in path.read_text(encoding="utf-8")
    ]
    assert defined == []
