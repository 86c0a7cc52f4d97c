"""A ninth game by the recipe "Adding a game" (docs/architecture.md), step by step:

1. The rules — ``engine/games/<game>.py``: the toy's ``Game`` (``tests/recipes/toy.py``)
   registered in ``engine.GAMES``; its deal checked and scored.
2. Compiled — ``make engine``: not for a test-only module (the check sees it missing).
3. The contract — ``docs/deal-records.md``: a document (the check sees it missing); the
   codes the toy emits are documented ones.
4. The engine's tests — ``tests/engine/test_<game>.py``: a file (the check sees it
   missing); here, the toy's deals scored.
5. The web side — ``tournaments/games/<game>.py``: the toy's ``LeagueGame`` registered
   in ``LEAGUE_GAMES``, found in the entry form, the score sheet, every export, the blank
   sheet and the history of changes.
6. Its statistics — ``tournaments/games/<game>.py``: the toy's counts and statistics,
   on the statistics page, equal to their direct count (``toy.direct_count`` in
   ``tests/scoring/test_statistics.py``'s ``GAMES``) on matches the engine plays.
7. Its words in Japanese — ``locale/ja/LC_MESSAGES/django.po``: the toy's entries in a
   catalogue of their own, compiled by ``msgfmt``; its pages in Japanese.
8. The tests' tables — ``tests/web/test_hostile_input.py``: files (the check sees them
   missing).
9. The README — ``README.md``: a file (the check sees it missing).

Each step has its check (:data:`tests.recipes.game_steps.STEPS`): every game of the
registries has taken every step, and the toy every step code can take at test time.
"""

from __future__ import annotations

import io
import shutil
import subprocess

import pytest
from django.utils import translation
from openpyxl import load_workbook

import engine
from scoring.exports import EXPORTERS
from tests.recipes import toy
from tests.recipes.game_steps import STEPS
from tests.recipes.recipe import ROOT, class_body, listed, recipe, steps_text
from tests.web.test_messages import documented_codes
from tournaments.games import LEAGUE_GAMES
from tournaments.history import changes

AT_TEST_TIME = {1, 5, 6, 7}
"""The steps the toy takes here; the others write files a test-only game has none of."""


@pytest.fixture
def registered(monkeypatch):
    """Steps 1, 5 and 6: the toy in the two registries and in the direct counts."""
    from tests.scoring import test_statistics

    monkeypatch.setitem(engine.GAMES, "toy", toy.Toy())
    monkeypatch.setitem(LEAGUE_GAMES, "toy", toy.ToyLeague())
    monkeypatch.setitem(test_statistics.GAMES, "toy", toy.direct_count)


@pytest.fixture
def in_japanese(settings, tmp_path):
    """Step 7: the toy's entries appended to a catalogue and compiled by ``msgfmt``, as
    to locale/ja/LC_MESSAGES/django.po; here a catalogue of their own, in a folder that
    ``LOCALE_PATHS`` reads first."""
    if shutil.which("msgfmt") is None:  # gettext, which the recipe's step 7 runs
        pytest.fail("msgfmt (gettext) is missing")
    folder = tmp_path / "locale" / "ja" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
    (folder / "django.po").write_text(header + toy.po_entries(), encoding="utf-8")
    subprocess.run(["msgfmt", "-o", "django.mo", "django.po"], cwd=folder, check=True)
    settings.LOCALE_PATHS = [tmp_path / "locale", *settings.LOCALE_PATHS]


def test_this_test_lists_the_recipes_steps_and_checks_each():
    steps = recipe("Adding a game")
    assert listed(__doc__) == steps
    assert set(STEPS) == {number for number, _title, _file in steps}
    assert AT_TEST_TIME < set(STEPS)


DERIVED = {"has_dealer", "ranks", "label", "rules", "deck", "all_statistics", "rules_said"}
"""What ``Game`` and ``LeagueGame`` make of the rest: no game writes them."""


def test_the_recipe_names_every_hook_a_game_may_write():
    steps = steps_text("Adding a game")
    hooks = class_body(ROOT / "engine" / "game.py", "Game")
    hooks |= class_body(ROOT / "tournaments" / "games" / "base.py", "LeagueGame")
    assert sorted(h for h in hooks - DERIVED if f"`{h}`" not in steps) == []


@pytest.mark.parametrize("game", sorted(set(engine.GAMES) | set(LEAGUE_GAMES)))
def test_every_game_has_taken_every_step(game):
    missing = {number: check(game) for number, check in STEPS.items()}
    assert {number: found for number, found in missing.items() if found} == {}


def test_the_toy_takes_the_steps_code_can_take(registered, in_japanese):
    for number, check in STEPS.items():
        if number in AT_TEST_TIME:
            assert check("toy") == [], number
        else:  # a file a test-only game cannot have: the check sees what is missing
            assert check("toy") != [], number


def test_steps_1_3_and_4_the_toy_deal_is_checked_and_scored(registered):
    players = ["A", "B", "C"]
    result = engine.check({"game": "toy", "players": players, "winner": "B"})
    assert result.valid and result.scores == {"A": -1, "B": 2, "C": -1}
    wrong = engine.check({"game": "toy", "players": players, "winner": "Z"})
    assert not wrong.valid and {p.code for p in wrong.errors} <= documented_codes()
    match = {"game": "toy", "players": players, "deals": [{"winner": w} for w in "ABCA"]}
    assert engine.check_match(match).finished  # four deals


@pytest.mark.django_db
def test_step_5_the_toy_is_entered_shown_and_exported(
    registered, client, scorer, season, make_match
):
    season.games = ["toy"]
    season.save()
    match = make_match("toy", ["aki", "ben", "chika"])
    seated = match.seated_players()
    client.force_login(scorer)
    page = client.get(f"/matches/{match.pk}/enter/").content.decode()
    assert "Toy winner" in page and "Who won the toy deal." in page
    assert 'name="toy_winner"' in page
    refused = client.post(f"/matches/{match.pk}/enter/", {"toy_winner": "nobody", "number": 1})
    assert refused.status_code == 200 and match.deals.count() == 0
    saved = client.post(f"/matches/{match.pk}/enter/", {"toy_winner": "ben", "number": 1})
    assert saved.status_code == 302 and match.deals.count() == 1

    sheet = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"toy won by {seated[1].display_name}" in sheet and "toy tie-break" in sheet
    for exporter in EXPORTERS.values():
        assert f"sheet.{exporter.extension}" in sheet  # every format is offered
    csv = client.get(f"/matches/{match.pk}/sheet.csv").getvalue().decode("utf-8-sig")
    assert csv.splitlines()[1].split(",")[1:4] == ["-1", "2", "-1"] and "toy won by" in csv
    book = load_workbook(io.BytesIO(client.get(f"/matches/{match.pk}/sheet.xlsx").getvalue()))
    cells = [c for row in book.active.iter_rows(values_only=True) for c in row]
    assert "Tie-break: toy tie-break: most points" in cells and 2 in cells
    assert pdf_text(client.get(f"/matches/{match.pk}/sheet.pdf").getvalue()).count("toy won by")

    blank = pdf_text(client.get("/sheets/blank-toy.pdf").content)
    assert "Toy" in blank and "Player 3" in blank and "Player 4" not in blank  # best_players


def test_step_5_the_history_of_changes_says_the_toys_own_words(registered):
    names = {"aki": "Aki", "ben": "Ben"}
    found, _more = changes({"winner": "aki"}, {"winner": "ben"}, names, LEAGUE_GAMES["toy"])
    assert [(c.field, c.before, c.after) for c in found] == [("toy winner", "Aki", "Ben")]


@pytest.mark.django_db
def test_step_6_its_statistics_equal_their_direct_count(
    registered, django_capture_on_commit_callbacks
):
    from tests.scoring.test_statistics import direct, played, stored

    season, _people = played(["toy"], django_capture_on_commit_callbacks)
    got = stored(season)
    assert got == direct(season) and len(got) == 10
    assert any(figures["again"] for figures in got.values())
    assert any(figures["first_won"] for figures in got.values())


@pytest.mark.django_db
def test_step_7_its_pages_speak_japanese(
    registered, in_japanese, client, scorer, season, make_match
):
    season.games = ["toy"]
    season.save()
    match = make_match("toy", ["aki", "ben", "chika"])
    client.force_login(scorer)
    client.cookies["django_language"] = "ja"
    page = client.get(f"/matches/{match.pk}/enter/").content.decode()
    assert "トイの勝者を選びます。" in page and "Who won" not in page
    with translation.override("ja"):
        labels = [str(s.label) for s in LEAGUE_GAMES["toy"].statistics]
    assert labels == ["連勝", "初回の勝利"]


def pdf_text(body: bytes) -> str:
    assert body.startswith(b"%PDF")
    if shutil.which("pdftotext") is None:  # make test installs poppler-utils
        pytest.fail("pdftotext (poppler-utils) is missing")
    done = subprocess.run(["pdftotext", "-layout", "-", "-"], input=body, capture_output=True)
    return done.stdout.decode()


def test_without_its_modules_the_game_is_unknown(client, db):
    assert "toy" not in engine.GAMES and "toy" not in LEAGUE_GAMES
    assert client.get("/sheets/blank-toy.pdf").status_code == 404
