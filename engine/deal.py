"""Checking one deal record of a known game: the envelope, then the game's own fields.

Below :mod:`engine.api` (which finds the game by name in the registry), so that a
game module may check its own records, when it plays random games, without
importing the registry that imports it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.game import ENVELOPE_KEYS, Game
from engine.problems import Checker, gettext_noop, join
from engine.results import DealResult


def players_of(game: Game, record: Mapping[str, Any], checker: Checker) -> list[str] | None:
    raw = checker.typed(checker.require(record, "players"), list, "players")
    if raw is None:
        return None
    players: list[str] = []
    for i, name in enumerate(raw):
        path = join("players", i)
        if not isinstance(name, str) or not name.strip():
            checker.add("wrong_type", path, gettext_noop("a player is a non-empty string"))
        elif name in players:
            checker.add(
                "duplicate_player", path, gettext_noop("'%(name)s' is listed twice"), name=name
            )
        else:
            players.append(name)
    if len(players) != len(raw):
        return None
    if len(players) not in game.player_counts:
        counts = ", ".join(str(n) for n in sorted(game.player_counts))
        checker.add(
            "player_count",
            "players",
            gettext_noop("%(game)s is played by %(counts)s players, not %(n_players)s"),
            name=game.name,  # kept for API clients that read it
            game=game.name,
            counts=counts,
            n_players=len(players),
        )
        return None
    return players


def rules_of(game: Game, record: Mapping[str, Any], checker: Checker) -> dict[str, Any] | None:
    raw = record.get("rules", {})
    rules = checker.typed(raw, dict, "rules")
    if rules is None:
        return None
    before = len(checker.problems)
    checker.known_keys(rules, game.rule_names, "rules")
    checked = game.check_rules(rules, checker, "rules")
    return checked if len(checker.problems) == before else None


def check_deal(game: Game, record: Mapping[str, Any]) -> DealResult:
    """Check and score one deal record of ``game`` (its ``game`` value is not looked at)."""
    checker = Checker()
    checker.known_keys(record, ENVELOPE_KEYS | game.deal_keys)
    players = players_of(game, record, checker)
    rules = rules_of(game, record, checker)
    scored = None
    if players is not None and rules is not None:
        scored = game.score_deal(record, players, rules, checker)
    if scored is None or not checker.ok:
        return DealResult(game.name, tuple(checker.problems), {}, {})
    details = {**scored.details, "winners": list(scored.winners)}
    return DealResult(game.name, (), dict(scored.scores), details, tuple(checker.rewritten))


def play_match(
    game: Game,
    rng: random.Random,
    players: list[str],
    rules: Mapping[str, Any] | None = None,
    target: int | None = None,
    most: int | None = None,
) -> list[dict[str, Any]]:
    """The deals of a match played by random legal choices (the game's
    :meth:`~engine.game.Game.random_deal`), until the match is decided or ``most``
    deals are played: full-play records, each checked and added as a scorer's would be."""
    checked = game.check_rules(dict(rules or {}), Checker(), "rules")
    state = game.new_match(
        list(players), checked, target if target is not None else game.default_target
    )
    deals: list[dict[str, Any]] = []
    while not state.finished and (most is None or len(deals) < most):
        deal = game.random_deal(rng, state)
        if deal is None:
            raise ValueError(f"{game.name} has no random play")
        record = {
            **deal,
            "game": game.name,
            **state.next_deal(),
            **game.match_fields(list(players)),
            "rules": dict(rules or {}),
        }
        result = check_deal(game, record)
        checker = Checker()
        if result.valid:
            state.check_deal(record, result, checker)
        problems = result.errors or tuple(checker.problems)
        if problems:  # the generators play only legal moves: this is a bug
            raise AssertionError(f"random {game.name} deal refused: {problems[0].to_dict()}")
        state.add(record, result)
        deals.append(record)
    return deals
