"""Whether a game has taken each step of "Adding a game" (docs/architecture.md): one
check per step, by the step's number, each the list of what is missing (empty: taken).

``tests/recipes/test_adding_a_game.py`` runs every check on every game of the
registries, and on the toy game it makes at test time.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

from django.utils import translation

import engine
from engine.deal import play_match
from engine.game import Game
from scoring.models import COUNT_COLUMNS
from scoring.players import LINE_SUMS
from scoring.statistics_page import page
from tests.conftest import ENGINE, stale_engine_extensions
from tests.recipes.recipe import ROOT
from tournaments.games import LEAGUE_GAMES
from tournaments.games.base import LeagueGame


def _engine_game(name: str) -> Game | None:
    game = engine.GAMES.get(name)
    return game if isinstance(game, Game) else None


def _league(name: str) -> LeagueGame | None:
    league = LEAGUE_GAMES.get(name)
    return league if isinstance(league, LeagueGame) else None


def _modules(game: Game) -> list[str]:
    """The modules of the game's class and of the classes it shares its rules with
    (Napoleon's ``declarer``), the game's own first."""
    return [c.__module__ for c in type(game).__mro__ if issubclass(c, Game) and c is not Game]


def rules(name: str) -> list[str]:
    """1: a ``Game`` registered under its name, with a best table size, that plays a
    legal match by its ``random_deal``."""
    game = _engine_game(name)
    if game is None:
        return [f"engine.GAMES[{name!r}], a Game"]
    missing = [] if game.name == name else [f"its name is {game.name!r}"]
    if not isinstance(getattr(game, "best_players", None), int):
        missing.append("best_players")
    if type(game).random_deal is Game.random_deal:
        return [*missing, "random_deal"]
    seated = [f"P{i}" for i in range(1, game.best_players + 1)]
    deals = play_match(game, random.Random(59), seated, None, None, 3)
    if not deals or not engine.check_match({"game": name, "players": seated, "deals": deals}).valid:
        missing.append("a legal match from random_deal")
    return missing


def compiled(name: str) -> list[str]:
    """2: its module is one of the engine's, compiled after ``make engine``."""
    game = _engine_game(name)
    if game is None:
        return ["an engine game"]
    module = sys.modules[type(game).__module__]
    path = Path(module.__file__ or "")
    if path.parent != ENGINE / "games":
        return [f"a module in engine/games/, not {path.name}"]
    if stale_engine_extensions():
        return ["`make engine` after the last edit"]
    if (ENGINE / ".compiled").exists() and path.suffix != ".so":
        return [f"{path.name} compiled by `make engine`"]
    return []


def contract(name: str) -> list[str]:
    """3: a section of docs/deal-records.md named after the game, and its examples."""
    league = _league(name)
    said = league.name_en if league else name
    doc = (ROOT / "docs" / "deal-records.md").read_text(encoding="utf-8")
    missing = []
    if not re.search(rf"^## .*\b{re.escape(said)}\b", doc, re.MULTILINE):
        missing.append(f"## {said} in docs/deal-records.md")
    if not list((ROOT / "docs" / "examples").glob(f"{name}-*.json")):
        missing.append(f"docs/examples/{name}-*.json")
    return missing


def engine_tests(name: str) -> list[str]:
    """4: a test module of the engine named after the game's module (or the module it
    shares its rules with)."""
    game = _engine_game(name)
    stems = [m.rpartition(".")[2] for m in _modules(game)] if game else [name]
    found = [p for s in stems for p in (ROOT / "tests" / "engine").glob(f"test_{s}*.py")]
    return [] if found else [f"tests/engine/test_{stems[0]}.py"]


def web_side(name: str) -> list[str]:
    """5: a ``LeagueGame`` registered under the engine's name, with its one name in each
    language."""
    league = _league(name)
    if league is None:
        return [f"LEAGUE_GAMES[{name!r}], a LeagueGame"]
    missing = [] if league.name == name else [f"its name is {league.name!r}"]
    for language, said in (("en", league.name_en), ("ja", league.name_ja)):
        with translation.override(language):
            if not said or league.label != said:
                missing.append(f"name_{language}")
    return missing


def statistics(name: str) -> list[str]:
    """6: its own statistics, made of its counts (20 at most) or the line's sums, on the
    documents' page, and counted directly by tests/scoring/test_statistics.py."""
    from tests.scoring.test_statistics import GAMES

    league = _league(name)
    if league is None:
        return ["a LeagueGame"]
    missing = []
    if not league.statistics:
        missing.append("statistics")
    if len(set(league.counts)) != len(league.counts) or len(league.counts) > len(COUNT_COLUMNS):
        missing.append(f"counts: distinct, {len(COUNT_COLUMNS)} at most")
    if league.statistics and type(league).player_numbers is LeagueGame.player_numbers:
        missing.append("player_numbers")
    sums = {*league.counts, *LINE_SUMS, "points"}
    for statistic in league.statistics:
        missing += [
            f"{statistic.key}: {s}" for s in (statistic.of, statistic.per) if s and s not in sums
        ]
    keys = [s.key for s in league.all_statistics()]
    if len(set(keys)) != len(keys):
        missing.append("one key per statistic")
    with translation.override("en"):
        if f"\n## {league.label}\n" not in page("en"):
            missing.append("its section of the statistics page")
    if name not in GAMES:
        missing.append("its direct count in tests/scoring/test_statistics.py's GAMES")
    return missing


def words(name: str) -> list[str]:
    """7: every word of its web module that a reader sees, in Japanese."""
    from tests.web.test_messages import english_words

    league = _league(name)
    if league is None:
        return ["a LeagueGame"]
    texts = [league.hint, league.tie_break, *league.record_words.values()]
    texts += [*league.paper_headings.values()]
    texts += [t for s in league.statistics for t in (s.label, s.definition)]
    with translation.override("en"):
        english = [str(t) for t in texts if t]
    with translation.override("ja"):
        japanese = [str(t) for t in texts if t]
    return [
        f"Japanese for {en!r}"
        for en, ja in zip(english, japanese, strict=True)
        if en == ja and english_words(en)
    ]


def tables(name: str) -> list[str]:
    """8: an entry in each table of the tests that lists every game."""
    from tests.tournaments.test_sheets import CARD_FIELD
    from tests.web.test_hostile_input import SIZES

    listed = {"tests/web/test_hostile_input.py's SIZES": SIZES}
    listed["tests/tournaments/test_sheets.py's CARD_FIELD"] = CARD_FIELD
    return [table for table, entries in listed.items() if name not in entries]


def readme(name: str) -> list[str]:
    """9: the README's "Games:" paragraph names it."""
    league = _league(name)
    said = league.name_en if league else name
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    games = " ".join(text[text.index("\nGames:") :].split("\n\n")[0].split())
    return [] if re.search(rf"\b{re.escape(said)}\b", games) else [f"{said} in the README"]


STEPS: dict[int, Callable[[str], list[str]]] = {
    1: rules,
    2: compiled,
    3: contract,
    4: engine_tests,
    5: web_side,
    6: statistics,
    7: words,
    8: tables,
    9: readme,
}
"""Each step's check, by the step's number in the recipe."""
