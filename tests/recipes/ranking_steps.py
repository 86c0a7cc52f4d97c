"""Whether a ranking method has taken each step of "Adding a ranking method"
(docs/architecture.md): one check per step, by the step's number, each the list of what
is missing (empty: taken).

``tests/recipes/test_adding_a_ranking_method.py`` runs every check on every method, and
on the toy method it adds at test time.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from django.db.migrations.loader import MigrationLoader
from django.utils import translation

from scoring import season_totals
from tests.recipes.recipe import ROOT
from tournaments import ranking
from tournaments.models import Season

SAMPLE = ranking.Played(total=17, deals=9, matches=3, night_points=[10, 7], match_points=[9, 1, 7])
"""What a player might have played: two club nights, three matches."""


def rule(method: str) -> list[str]:
    """1: its ``Way`` in ``ranking.WAYS``, a figure of what a player played."""
    way = ranking.WAYS.get(method)
    if not isinstance(way, ranking.Way):
        return [f"ranking.WAYS[{method!r}]"]
    figure = way.figure(SAMPLE, 2 if method in ranking.BEST else None)
    if not isinstance(figure, Decimal) or figure != figure.quantize(Decimal("0.001")):
        return [f"a Decimal figure to {ranking.PLACES} places, not {figure!r}"]
    if not (way.sentence(2) and way.heading(2)):
        return ["its sentence and its heading"]
    return []


def sql_twin(method: str) -> list[str]:
    """2: its figure in SQL, in ``season_totals.SCORES``."""
    return [] if method in season_totals.SCORES else [f"season_totals.SCORES[{method!r}]"]


def migration(method: str) -> list[str]:
    """3: a choice of ``Season.ranking``, in the model and in its migrations."""
    missing = []
    if method not in dict(Season._meta.get_field("ranking").choices or []):
        missing.append("a Method choice")
    state = MigrationLoader(None, ignore_no_migrations=True).project_state()
    if method not in dict(state.models["tournaments", "season"].fields["ranking"].choices or []):
        missing.append("its migration (makemigrations tournaments)")
    return missing


def words(method: str) -> list[str]:
    """4: its label, sentence, heading and explanation in Japanese."""
    way = ranking.WAYS.get(method)
    if way is None:
        return ["a Way"]
    best = 2 if method in ranking.BEST else None

    def said() -> list[str]:
        label = dict(Season._meta.get_field("ranking").choices or []).get(method, "")
        return [str(label), way.sentence(best), way.heading(best), *way.explain(SAMPLE, best)]

    with translation.override("en"):
        english = said()
    with translation.override("ja"):
        japanese = said()
    return [f"Japanese for {en!r}" for en, ja in zip(english, japanese, strict=True) if en == ja]


def its_test(method: str) -> list[str]:
    """5: a season ranked by it in tests/scoring/test_ranking_methods.py, and its figure
    made there from the deals alone."""
    from tests.scoring.test_ranking_methods import FIGURES, METHODS

    missing = [] if method in FIGURES else [f"FIGURES[{method!r}]"]
    return missing + ([] if any(m == method for m, *_ in METHODS) else ["an entry in METHODS"])


def documents(method: str) -> list[str]:
    """6: its value in docs/api.md; the guides say it in words."""
    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    return [] if f"`{method}`" in api else [f"`{method}` in docs/api.md"]


STEPS: dict[int, Callable[[str], list[str]]] = {
    1: rule,
    2: sql_twin,
    3: migration,
    4: words,
    5: its_test,
    6: documents,
}
"""Each step's check, by the step's number in the recipe."""
