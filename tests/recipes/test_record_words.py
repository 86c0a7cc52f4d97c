"""A correction's history names a record's keys in words (``tournaments.history``): a
game's own keys in its own module (``LeagueGame.record_words``), the history only the
keys that games of different rules share, so that it names no game."""

from __future__ import annotations

import random

import engine
from engine.deal import play_match
from engine.game import Game
from tests.recipes.recipe import ROOT
from tournaments import history
from tournaments.games import LEAGUE_GAMES


def keys_of(value: object, into: set[str]) -> set[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            into.add(str(key))
            keys_of(item, into)
    elif isinstance(value, list):
        for item in value:
            keys_of(item, into)
    return into


def used(name: str) -> set[str]:
    """The keys a game's records use: its fields, and those of matches it plays, in full
    and summed up, at each size of table."""
    game = engine.GAMES[name]
    found = set(game.deal_keys)
    for players in sorted(game.player_counts)[:3]:
        seated = [f"P{i}" for i in range(players)]
        for deal in play_match(game, random.Random(players), seated, None, None, 4):
            keys_of(deal, found)
            keys_of(engine.summarize(deal), found)
    return found - {"game", "players", "rules", "teams"}


def family(name: str) -> str:
    """The module of the rules a game shares with others (Napoleon's and Rettler's
    ``declarer``), or of its own."""
    rules = [c for c in type(engine.GAMES[name]).__mro__ if issubclass(c, Game) and c is not Game]
    return rules[-1].__module__


def test_the_history_names_only_keys_that_games_of_different_rules_share():
    keys = {name: used(name) for name in LEAGUE_GAMES}
    for key in history.WORDS:
        families = {family(name) for name, found in keys.items() if key in found}
        assert len(families) >= 2, (key, families)


def test_each_games_own_words_name_its_own_keys():
    for name, league in LEAGUE_GAMES.items():
        own = set(league.record_words)
        assert own <= used(name), name
        assert not own & set(history.WORDS), name  # said once, in one place


def test_the_history_module_names_no_game():
    source = (ROOT / "tournaments" / "history.py").read_text(encoding="utf-8").lower()
    for league in LEAGUE_GAMES.values():
        for said in {league.name, league.name_en.lower()}:
            assert said not in source, said
