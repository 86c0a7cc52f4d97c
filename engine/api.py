"""The engine's two entry points: :func:`check` a deal record, :func:`check_match` a match.

Both are pure functions of a JSON-shaped value.  A value that is not a record at
all (not an object, no known game) raises :class:`~engine.problems.NotARecord`;
everything else wrong with a record is reported in the result's ``errors``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.game import ENVELOPE_KEYS, DealResult, Game, MatchResult
from engine.problems import Checker, NotARecord, join
from engine.registry import get_game

MATCH_KEYS = frozenset({"deals", "target"})


def _game_of(record: Any, what: str) -> Game:
    if not isinstance(record, dict):
        raise NotARecord(f"a {what} is a JSON object, not {type(record).__name__}")
    name = record.get("game")
    if not isinstance(name, str):
        raise NotARecord(f"a {what} needs a 'game' string")
    game = get_game(name)
    if game is None:
        raise NotARecord(f"unknown game {name!r}")
    return game


def _players(game: Game, record: Mapping[str, Any], checker: Checker) -> list[str] | None:
    raw = checker.typed(checker.require(record, "players"), list, "players")
    if raw is None:
        return None
    players: list[str] = []
    for i, name in enumerate(raw):
        path = join("players", i)
        if not isinstance(name, str) or not name.strip():
            checker.add("wrong_type", path, "a player is a non-empty string")
        elif name in players:
            checker.add("duplicate_player", path, f"'{name}' is listed twice")
        else:
            players.append(name)
    if len(players) != len(raw):
        return None
    if len(players) not in game.player_counts:
        counts = ", ".join(str(n) for n in sorted(game.player_counts))
        checker.add(
            "player_count",
            "players",
            f"{game.name} is played by {counts} players, not {len(players)}",
        )
        return None
    return players


def _rules(game: Game, record: Mapping[str, Any], checker: Checker) -> dict[str, Any] | None:
    raw = record.get("rules", {})
    rules = checker.typed(raw, dict, "rules")
    if rules is None:
        return None
    before = len(checker.problems)
    checker.known_keys(rules, game.rule_names, "rules")
    checked = game.check_rules(rules, checker, "rules")
    return checked if len(checker.problems) == before else None


def _check_deal(game: Game, record: Mapping[str, Any]) -> DealResult:
    checker = Checker()
    checker.known_keys(record, ENVELOPE_KEYS | game.deal_keys)
    players = _players(game, record, checker)
    rules = _rules(game, record, checker)
    scored = None
    if players is not None and rules is not None:
        scored = game.score_deal(record, players, rules, checker)
    if scored is None or not checker.ok:
        return DealResult(game.name, tuple(checker.problems), {}, {})
    details = {**scored.details, "winners": list(scored.winners)}
    return DealResult(game.name, (), dict(scored.scores), details)


def check(record: Any) -> DealResult:
    """Check and score one deal record (docs/deal-records.md)."""
    return _check_deal(_game_of(record, "deal record"), record)


def check_match(record: Any) -> MatchResult:
    """Check every deal of a match record and compute the match's standings.

    Standings are computed from the valid deals even when some deal is invalid,
    so that a scorer sees what the rest adds up to; ``valid`` is false then.
    A deal played after the match was already decided is an error (``match_over``).
    What a deal leaves out it inherits from the match: the envelope, the game's
    ``inherited_keys``, and what the match so far says (``next_deal``: the players
    still in, the dealer, the hand size).
    """
    game = _game_of(record, "match record")
    checker = Checker()
    checker.known_keys(record, ENVELOPE_KEYS | MATCH_KEYS | game.inherited_keys)
    players = _players(game, record, checker)
    rules = _rules(game, record, checker)
    target = game.default_target
    if "target" in record:
        if not game.accepts_target:
            checker.add("not_applicable", "target", f"a {game.name} match takes no target")
        else:
            target = checker.integer(record["target"], "target", minimum=1) or target
    deals = checker.typed(checker.require(record, "deals"), list, "deals")
    if players is None or deals is None:
        return MatchResult(game.name, tuple(checker.problems), (), False, None, (), ())

    inherited = {k: record[k] for k in ENVELOPE_KEYS | game.inherited_keys if k in record}
    state = game.new_match(players, rules or {}, target)
    results: list[DealResult] = []
    for i, deal in enumerate(deals):
        path = join("deals", i)
        if not isinstance(deal, dict):
            checker.add("wrong_type", path, "a deal is a JSON object")
            continue
        expected = {**inherited, **state.next_deal()}
        for key in ("game", "players"):
            if key in deal and deal[key] != expected.get(key):
                checker.add(
                    f"{key}_mismatch",
                    join(path, key),
                    f"differs from the match's '{key}' ({expected.get(key)!r})",
                )
        full = {**expected, **deal}
        result = _check_deal(game, full)
        results.append(result)
        checker.problems.extend(p.under(path) for p in result.errors)
        if not result.valid:
            continue
        if state.finished:
            checker.add("match_over", path, "the match was already decided before this deal")
            continue
        deal_checker = Checker()
        state.check_deal(full, result, deal_checker)
        checker.problems.extend(p.under(path) for p in deal_checker.problems)
        if deal_checker.ok:
            state.add(full, result)

    standings = state.standings()
    winners: tuple[str, ...] = ()
    winner = None
    if state.finished:
        top = state.winning_sides({s.player: s for s in standings})
        winners = tuple(p for side in top for p in side)
        winner = top[0][0] if len(top) == 1 else None
    return MatchResult(
        game.name,
        tuple(checker.problems),
        standings,
        state.finished,
        winner,
        winners,
        tuple(results),
        next_dealer=state.next_dealer(),
        next_deal={} if state.finished else state.next_deal(),
        details=state.details(),
    )


def summarize(record: Any) -> dict[str, Any]:
    """The summary record of a valid deal record: its envelope and the summary fields
    (point cards, captured cards, packs) the engine derived from the play.  A summary
    record comes back as it is; an invalid record raises ``ValueError``."""
    game = _game_of(record, "deal record")
    result = _check_deal(game, record)
    if not result.valid:
        first = result.errors[0]
        raise ValueError(f"not a valid record: {first.path}: {first.message}")
    envelope = {k: record[k] for k in ENVELOPE_KEYS if k in record}
    if game.name == "packing" and "teams" in record:
        envelope["teams"] = record["teams"]
    summary = game.summary(record, result)
    if not summary:
        return dict(record)
    return {**envelope, **summary}
