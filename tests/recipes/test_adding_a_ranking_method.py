"""A toy ranking method by the recipe "Adding a ranking method" (docs/architecture.md),
step by step: ``per_night``, the points per club night played.

1. Its rule — ``tournaments/ranking.py``: its ``Way`` in ``ranking.WAYS``.
2. Its SQL twin — ``scoring/season_totals.py``: its figure in ``SCORES``.
3. The migration — ``tournaments/migrations/``: what it gives the model, a choice of
   ``Season.ranking``, set at test time (the check sees the migration missing).
4. Its words in Japanese — ``locale/ja/LC_MESSAGES/django.po``: its entries in a
   catalogue of their own, compiled by ``msgfmt``; the season page in Japanese.
5. Its test — ``tests/scoring/test_ranking_methods.py``: its figure in ``FIGURES``, made
   from the deals alone; a season ranked by it on PostgreSQL's statement and on the
   portable twin, both as the deals alone rank it.
6. Its documents — ``docs/api.md``: files (the check sees them missing).

Each step has its check (:data:`tests.recipes.ranking_steps.STEPS`): every method has
taken every step, and the toy every step code can take at test time.
"""

from __future__ import annotations

import shutil
import subprocess
from decimal import Decimal

import pytest
from django.db.models import Count
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from actions import seasons
from dbtools import backend
from scoring import season_totals
from scoring.models import SeasonStanding
from scoring.season_totals import rebuild_season_standings
from tests import worlds
from tests.recipes.ranking_steps import STEPS
from tests.recipes.recipe import listed, recipe
from tests.scoring import test_ranking_methods
from tests.scoring.test_ranking_methods import from_the_deals, stored
from tournaments import ranking
from tournaments.models import Season

AT_TEST_TIME = {1, 2, 4, 5}
"""The steps the toy takes here; the others write files."""

PER_NIGHT = ranking.Way(
    figure=lambda played, best_of: ranking.ratio(played.total, played.nights),
    sentence=lambda best_of: str(_("Ranked by points per club night")),
    heading=lambda best_of: str(_("Points per club night")),
    explain=lambda played, best_of: [
        gettext("%(points)s points in %(n)s club nights")
        % {"points": played.total, "n": played.nights}
    ],
    nights=True,
)
"""Step 1: the toy's way."""

JAPANESE = {
    "Points per club night": "1 例会あたりの点",
    "Ranked by points per club night": "1 例会あたりの点で順位",
    "%(points)s points in %(n)s club nights": "%(n)s 例会で %(points)s 点",
}
"""Step 4: the entries appended to locale/ja/LC_MESSAGES/django.po for the toy."""


@pytest.fixture
def added(monkeypatch):
    """Steps 1, 2, 3 (its effect on the model) and 5 (its figure from the deals)."""
    monkeypatch.setitem(ranking.WAYS, "per_night", PER_NIGHT)
    monkeypatch.setitem(
        season_totals.SCORES, "per_night", f"ROUND(t.total::numeric / t.nights, {ranking.PLACES})"
    )
    field = Season._meta.get_field("ranking")
    label = _("Points per club night")
    monkeypatch.setattr(field, "choices", [*field.choices, ("per_night", label)])
    monkeypatch.setitem(
        test_ranking_methods.FIGURES,
        "per_night",
        lambda seen, best_of: Decimal(seen.total) / len(seen.nights),
    )
    monkeypatch.setattr(
        test_ranking_methods, "METHODS", [*test_ranking_methods.METHODS, ("per_night", None, 0)]
    )


@pytest.fixture
def in_japanese(settings, tmp_path):
    """Step 4: the toy's entries compiled by ``msgfmt`` into a catalogue that
    ``LOCALE_PATHS`` reads first."""
    if shutil.which("msgfmt") is None:
        pytest.fail("msgfmt (gettext) is missing")
    folder = tmp_path / "locale" / "ja" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    entries = "".join(f'\nmsgid "{k}"\nmsgstr "{v}"\n' for k, v in JAPANESE.items())
    (folder / "django.po").write_text(header + entries, encoding="utf-8")
    subprocess.run(["msgfmt", "-o", "django.mo", "django.po"], cwd=folder, check=True)
    settings.LOCALE_PATHS = [tmp_path / "locale", *settings.LOCALE_PATHS]


def test_this_test_lists_the_recipes_steps_and_checks_each():
    steps = recipe("Adding a ranking method")
    assert listed(__doc__) == steps
    assert set(STEPS) == {number for number, _title, _file in steps}
    assert AT_TEST_TIME < set(STEPS)


@pytest.mark.parametrize("method", ranking.Method.values)
def test_every_method_has_taken_every_step(method):
    missing = {number: check(method) for number, check in STEPS.items()}
    assert {number: found for number, found in missing.items() if found} == {}


def test_every_way_is_a_method():
    assert set(ranking.WAYS) == set(ranking.Method.values) == set(season_totals.SCORES)


def test_the_toy_takes_the_steps_code_can_take(added, in_japanese):
    for number, check in STEPS.items():
        if number in AT_TEST_TIME:
            assert check("per_night") == [], number
        else:  # a file a test cannot write: the check sees what is missing
            assert check("per_night") != [], number


@pytest.mark.slow
@pytest.mark.django_db
def test_a_season_ranks_by_the_toy_on_both_twins_and_says_so(
    added, in_japanese, client, django_capture_on_commit_callbacks
):
    worlds.rebuilt_federation(1, 30, 900, 41, tables=3)
    season = Season.objects.annotate(n=Count("club_nights")).order_by("-n", "pk").first()
    by_total = {key: line[0] for key, line in from_the_deals(season).items()}
    season.ranking, season.public = "per_night", True
    with django_capture_on_commit_callbacks(execute=True):
        seasons.save_season(season)  # checked by the model's choices (step 3)
    expected = from_the_deals(season)
    assert {key: line[0] for key, line in expected.items()} != by_total  # another order
    assert stored(season) == expected  # PostgreSQL's statement
    with backend.using("portable"):
        SeasonStanding.objects.filter(season=season).delete()
        rebuild_season_standings(season.pk)
    assert stored(season) == expected  # the portable twin

    client.cookies["django_language"] = "ja"
    page = client.get(f"/seasons/{season.pk}/").content.decode()
    assert "1 例会あたりの点で順位" in page and "1 例会あたりの点" in page
    assert "例会で" in page  # a figure explained
