"""A recipe of docs/architecture.md and the test that follows it, read side by side.

A recipe is a section (``## Adding a game``) of numbered steps, each ``N. **Title**:``
and then the file it is about in backquotes.  The test that follows it lists the same
steps in its docstring, one a line: ``N. Title — ``file``: what the test does for it``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs" / "architecture.md"

Step = tuple[int, str, str]
"""A step's number, its title and the first file it names."""


def steps_text(title: str) -> str:
    """The numbered steps of the section ``## title`` of docs/architecture.md, as written."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    section = text[start : end if end > 0 else len(text)]
    first = re.search(r"^1\. ", section, re.MULTILINE)
    assert first is not None, f"no numbered steps under ## {title}"
    after = re.search(r"^[^\d\s]", section[first.start() :], re.MULTILINE)  # its next paragraph
    return section[first.start() : first.start() + after.start() if after else None]


def recipe(title: str) -> list[Step]:
    """The steps of the section ``## title`` of docs/architecture.md."""
    steps = re.findall(r"^(\d+)\. \*\*(.+?)\*\*[^`]*`([^`]+)`", steps_text(title), re.MULTILINE)
    return [(int(n), name.rstrip(":").strip(), file) for n, name, file in steps]


def class_body(path: Path, name: str) -> set[str]:
    """The public names a class of the module at ``path`` defines or declares."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name).body
    names = {n.name for n in body if isinstance(n, ast.FunctionDef)}
    names |= {
        n.target.id for n in body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }
    names |= {
        t.id
        for n in body
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    return {n for n in names if not n.startswith("_")}


def listed(docstring: str | None) -> list[Step]:
    """The steps a test's docstring lists."""
    steps = re.findall(r"^(\d+)\. (.+?) — ``([^`]+)``", docstring or "", re.MULTILINE)
    return [(int(n), name.strip(), file) for n, name, file in steps]
