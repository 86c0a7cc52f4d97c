"""The engine's two entry points: :func:`check` a deal record, :func:`check_match` a match.

Both are pure functions of a JSON-shaped value.  A value that is not a record at
all (not an object, no known game) raises :class:`~engine.problems.NotARecord`;
everything else wrong with a record is reported in the result's ``errors``.
"""

from __future__ import annotations

from typing import Any

from engine.deal import check_deal, players_of, rules_of
from engine.game import ENVELOPE_KEYS, Game
from engine.problems import Checker, NotARecord, gettext_noop, join
from engine.registry import get_game
from engine.results import DealResult, MatchResult

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


def check(record: Any) -> DealResult:
    """Check and score one deal record (docs/deal-records.md)."""
    return check_deal(_game_of(record, "deal record"), record)


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
    players = players_of(game, record, checker)
    rules = rules_of(game, record, checker)
    target = game.default_target
    if "target" in record:
        if not game.accepts_target:
            checker.add(
                "not_applicable",
                "target",
                gettext_noop("a %(name)s match takes no target"),
                name=game.name,
            )
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
            checker.add("wrong_type", path, gettext_noop("a deal is a JSON object"))
            continue
        expected = {**inherited, **state.next_deal()}
        for key in ("game", "players"):
            if key in deal and deal[key] != expected.get(key):
                checker.add(
                    f"{key}_mismatch",
                    join(path, key),
                    gettext_noop("differs from the match's '%(key)s' (%(expected)s)"),
                    key=key,
                    expected=repr(expected.get(key)),
                )
        full = {**expected, **deal}
        result = check_deal(game, full)
        results.append(result)
        checker.problems.extend(p.under(path) for p in result.errors)
        if not result.valid:
            continue
        if state.finished:
            checker.add(
                "match_over", path, gettext_noop("the match was already decided before this deal")
            )
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
    result = check_deal(game, record)
    if not result.valid:
        first = result.errors[0]
        raise ValueError(f"not a valid record: {first.path}: {first.message}")
    envelope = {k: record[k] for k in ENVELOPE_KEYS | game.inherited_keys if k in record}
    summary = game.summary(record, result)
    if not summary:
        return dict(record)
    return {**envelope, **summary}
