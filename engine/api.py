"""The engine's two entry points: :func:`check` a deal record, :func:`check_match` a match.

Both are pure functions of a JSON-shaped value.  A value that is not a record at
all (not an object, no known game) raises :class:`~engine.problems.NotARecord`;
everything else wrong with a record is reported in the result's ``errors``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.deal import check_deal, players_of, rules_of
from engine.game import ENVELOPE_KEYS, Game
from engine.match import MatchState
from engine.problems import Checker, NotARecord, gettext_noop, join
from engine.registry import get_game
from engine.results import DealResult, MatchResult, NextDeal

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


def _open(record: Any) -> tuple[Game, Checker, MatchState | None, dict[str, Any]]:
    """A match record's game, its checker (with the problems of everything but the deals),
    a new state (``None``: no players) and what its deals inherit."""
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
    inherited = {k: record[k] for k in ENVELOPE_KEYS | game.inherited_keys if k in record}
    state = None if players is None else game.new_match(players, rules or {}, target)
    return game, checker, state, inherited


def _step(
    game: Game,
    state: MatchState,
    inherited: dict[str, Any],
    deal: Any,
    path: str,
    checker: Checker,
) -> DealResult | None:
    """Check ``deal`` as the match's next deal and, when valid, add it to ``state``."""
    if not isinstance(deal, dict):
        checker.add("wrong_type", path, gettext_noop("a deal is a JSON object"))
        return None
    expected = {**inherited, **state.next_deal()}
    mismatched = False
    for key in ("game", "players"):
        if key in deal and deal[key] != expected.get(key):
            mismatched = True
            checker.add(
                f"{key}_mismatch",
                join(path, key),
                gettext_noop("differs from the match's '%(key)s' (%(expected)s)"),
                key=key,
                expected=repr(expected.get(key)),
            )
    full = {**expected, **deal}
    result = check_deal(game, full)
    checker.problems.extend(p.under(path) for p in result.errors)
    if not result.valid or mismatched:  # a deal of other players never counts in this match
        return result
    if state.finished:
        checker.add(
            "match_over", path, gettext_noop("the match was already decided before this deal")
        )
        return result
    deal_checker = Checker()
    state.check_deal(full, result, deal_checker)
    checker.problems.extend(p.under(path) for p in deal_checker.problems)
    if deal_checker.ok:
        state.add(full, result)
    return result


def check_match(record: Any) -> MatchResult:
    """Check every deal of a match record and compute the match's standings.

    Standings are computed from the valid deals even when some deal is invalid,
    so that a scorer sees what the rest adds up to; ``valid`` is false then.
    A deal played after the match was already decided is an error (``match_over``).
    What a deal leaves out it inherits from the match: the envelope, the game's
    ``inherited_keys``, and what the match so far says (``next_deal``: the players
    still in, the dealer, the hand size).
    """
    game, checker, state, inherited = _open(record)
    deals = checker.typed(checker.require(record, "deals"), list, "deals")
    if state is None or deals is None:
        return MatchResult(game.name, tuple(checker.problems), (), False, None, (), ())
    results: list[DealResult] = []
    for i, deal in enumerate(deals):
        result = _step(game, state, inherited, deal, join("deals", i), checker)
        if result is not None:
            results.append(result)

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
        snapshot=state.snapshot(),
    )


def _resumed(
    record: Any, snapshot: Mapping[str, Any] | None
) -> tuple[Game, Checker, MatchState, dict[str, Any]]:
    """The match record's state continued from ``snapshot``; a match record that is not
    valid in itself (players, rules, target) raises :class:`NotARecord`."""
    game, checker, state, inherited = _open(record)
    if state is None or checker.problems:
        raise NotARecord("; ".join(f"{p.path}: {p.message}" for p in checker.problems))
    if snapshot:
        state.restore(snapshot)
    return game, checker, state, inherited


def next_deal(record: Any, snapshot: Mapping[str, Any] | None) -> dict[str, Any]:
    """What the next deal of a match inherits from the deals so far (``players``, and per
    game the dealer and the hand size; ``{}`` once the match is decided), as
    :attr:`MatchResult.next_deal` says: ``record`` is the match record without its deals, ``snapshot`` the
    :attr:`MatchResult.snapshot` of the deals so far (``None``: none yet)."""
    _game, _checker, state, _inherited = _resumed(record, snapshot)
    return {} if state.finished else state.next_deal()


def add_deal(record: Any, snapshot: Mapping[str, Any] | None, deal: Any) -> NextDeal:
    """Check ``deal`` as the next deal of a match without replaying the deals before it:
    ``record`` is the match record (its ``deals`` are not read) and ``snapshot`` the
    :attr:`MatchResult.snapshot` of the deals so far.  The same checks, in the same order,
    as :func:`check_match` makes of a deal at the end of the match (paths are the deal's),
    so that ``check_match`` over all the deals agrees with every step taken this way."""
    game, checker, state, inherited = _resumed(record, snapshot)
    result = _step(game, state, inherited, deal, "", checker)
    if result is None:
        result = DealResult(game.name, tuple(checker.problems), {}, {})
    return NextDeal(result, tuple(checker.problems), state.finished, state.snapshot())


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


def canonical(record: Any, result: DealResult) -> Any:
    """``record`` with every card written otherwise (``"♠A"``, ``"h10"``) replaced by its
    code (``"SA"``, ``"H10"``), as ``result`` (its :func:`check`) found them; the record
    itself when there were none.  The contract's promise: output uses the canonical form,
    and so do the records a league stores."""
    if not result.rewritten:
        return record
    return _rewrite(record, "", dict(result.rewritten))


def _rewrite(value: Any, path: str, codes: dict[str, str]) -> Any:
    """A copy of ``value`` with the strings at the paths of ``codes`` replaced; the paths
    are made by the same ``join`` as the checker's, so any key spells them alike."""
    if isinstance(value, dict):
        return {k: _rewrite(v, join(path, k), codes) for k, v in value.items()}
    if isinstance(value, list):
        return [_rewrite(v, join(path, i), codes) for i, v in enumerate(value)]
    if isinstance(value, str):
        return codes.get(path, value)
    return value
