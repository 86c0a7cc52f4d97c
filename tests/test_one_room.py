"""One room per concept: what a test can hold of it.

- A workflow is an explicit action that pages, the API and the admin call, never a hook
  on a model's ``save`` or a model signal: a season's settings (``actions.seasons``)
  and a rename (``actions.renames.save_player``).
- The database toolkit and its one seam between PostgreSQL and SQLite are a package of
  their own (``dbtools``).
- The page views fetch their objects in one module (``web.pages.getters``) and say their
  refusals with ``web.refusals``'s sentences (``tests/web/test_api_words.py`` holds the
  API to them too), and never replay a match: they ask the action layer
  (``actions.next_deal``) or the score sheet (``scoring.sheets``).
"""

from __future__ import annotations

import ast
from pathlib import Path

from tournaments.models import Player, Season

ROOT = Path(__file__).resolve().parents[1]


def sources(*packages: str):
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path, ast.parse(path.read_text(encoding="utf-8"))


def test_no_workflow_hides_in_a_models_save_or_a_model_signal():
    assert "save" not in vars(Player) and "save" not in vars(Season)
    hooked = {
        str(path.relative_to(ROOT))
        for path, tree in sources("tournaments", "scoring", "reach", "actions", "web", "ops")
        for node in ast.walk(tree)
        if isinstance(node, ast.Name | ast.alias)
        and getattr(node, "id", getattr(node, "name", "")) in ("pre_save", "post_save")
    }
    # The one model signal left: an account's name kept unique as it is typed (invitations).
    assert hooked == {"actions/apps.py"}


def test_page_views_refuse_in_one_module():
    """``PermissionDenied`` is raised with a sentence of ``web.refusals``: no page
    module writes its own refusal text (a ``gettext_lazy`` or ``_`` call in the raise)."""
    own = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path, tree in sources("web/pages")
        for node in ast.walk(tree)
        if isinstance(node, ast.Raise)
        and isinstance(node.exc, ast.Call)
        and getattr(node.exc.func, "id", "") == "PermissionDenied"
        and any(
            isinstance(call, ast.Call)
            and getattr(call.func, "id", "") in ("_", "gettext", "gettext_lazy")
            for arg in node.exc.args
            for call in ast.walk(arg)
        )
    ]
    assert own == []


def test_no_page_view_replays_a_match():
    replaying = {"check_match", "match_record", "next_deal"}
    calls = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path, tree in sources("web/pages")
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "attr", getattr(node.func, "id", "")) in replaying
        and not ast.unparse(node.func).startswith("actions.")  # the floor's reading
    ]
    assert calls == []


def test_only_the_seam_asks_which_database_this_is():
    """``dbtools.backend`` is the one place that reads ``connection.vendor``: every hot
    path's PostgreSQL and portable twins are chosen there."""
    asking = sorted(
        str(path.relative_to(ROOT))
        for path, tree in sources("dbtools", "tournaments", "scoring", "web", "ops", "config")
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "vendor"
    )
    assert asking == ["dbtools/backend.py"]


def test_every_hot_path_is_a_pair_of_twins_not_a_branch():
    """No module but the seam branches on ``backend.postgresql()``: a path that PostgreSQL
    takes its own way is two functions joined by ``backend.twin`` (so a test runs either
    by name with ``backend.using``), migrations included."""
    branching = sorted(
        str(path.relative_to(ROOT))
        for package in ("dbtools", "tournaments", "scoring", "reach", "web", "ops", "config")
        for path in (ROOT / package).rglob("*.py")
        if path != ROOT / "dbtools" / "backend.py"
        and any(
            w in path.read_text(encoding="utf-8")
            for w in ("backend.postgresql()", "connection.vendor")
        )
    )
    assert branching == []


def test_only_the_actions_floor_marks_a_match_changed():
    """A match's version and kept progress move only with an action's hand-off to the
    workers (``actions.after.match_edited``; a correction splits the two around reading
    its effect): a page, a command or the admin that changed a match by itself would
    leave its standings stale."""
    calls = sorted(
        str(path.relative_to(ROOT))
        for path, tree in sources("tournaments", "scoring", "reach", "actions", "web", "ops")
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "progress.changed"
    )
    assert calls == ["actions/after.py", "actions/corrections.py"]
