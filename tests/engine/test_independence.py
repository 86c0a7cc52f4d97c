"""The engine is a library: no Django, no I/O beyond its own data files."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_nothing_under_engine_imports_django_or_the_apps():
    sources = sorted(ENGINE.rglob("*.py"))
    assert sources
    for source in sources:
        forbidden = imported_modules(source) & {
            "django",
            "rest_framework",
            "celery",
            "tournaments",
            "scoring",
            "config",
        }
        assert not forbidden, f"{source.relative_to(ENGINE.parent)} imports {forbidden}"
