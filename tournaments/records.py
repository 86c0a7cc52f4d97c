"""Between stored rows and the engine's records: a stored match as a match record, a
deal as the scorer gave it completed with what its match supplies (refusals are
``tournaments.errors``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_noop

import engine
from tournaments.errors import Rejection, error, problems
from tournaments.models import Match


def match_record(match: Match, deals: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The match record (docs/deal-records.md, "Matches") of a stored match."""
    return {
        **match_envelope(match, [p.handle for p in match.seated_players()]),
        "deals": list(deals),
    }


def match_envelope(match: Match, handles: Sequence[str]) -> dict[str, Any]:
    """The match record without its deals, for seats already known."""
    record: dict[str, Any] = {
        "game": match.game,
        "players": list(handles),
        "rules": dict(match.rules),
    }
    if match.target is not None:
        record["target"] = match.target
    return record


def next_deal(match: Match, previous: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What the engine says the deal after ``previous`` inherits (``players``, ``dealer``, …)."""
    return dict(engine.check_match(match_record(match, previous)).next_deal)


def complete_record(
    match: Match,
    record: Any,
    previous: Sequence[Mapping[str, Any]] | None = None,
    *,
    handles: Sequence[str] | None = None,
    snapshot: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The deal record with the match's envelope filled in, or a :class:`Rejection`.

    A record may leave out ``game``, ``players``, ``rules`` and what the game's
    seating says (``match_fields``: Packing's ``teams``); when it gives ``game`` or
    ``players`` they must be the match's.  In the games whose deals follow the match
    (``deals_follow_the_match``) the deals before it (``previous``, the active deals
    in order) say who plays it and who deals, and Twenty-Two how many cards; or, without
    replaying them, the seats' ``handles`` and the engine's ``snapshot`` of them
    (``tournaments.progress``).
    """
    if not isinstance(record, dict):
        raise Rejection((error("wrong_type", "", gettext_noop("a deal record is a JSON object")),))
    base = match_record(match) if handles is None else match_envelope(match, handles)
    inherited: dict[str, Any] = {}
    game = engine.GAMES[match.game]
    if game.deals_follow_the_match:
        if handles is None:
            inherited = next_deal(match, previous or [])
        else:
            inherited = engine.next_deal(base, snapshot)
        base["players"] = inherited.pop("players", base["players"])
    errors = []
    if "game" in record and record["game"] != base["game"]:
        errors.append(
            error(
                "game_mismatch",
                "game",
                GAME_MISMATCH,
                game=base["game"],
                given=_said(record["game"]),
            )
        )
    if "players" in record and record["players"] != base["players"]:
        errors.append(
            error(
                "players_mismatch",
                "players",
                PLAYERS_MISMATCH,
                expected=", ".join(base["players"]),
                given=_said(record["players"]),
            )
        )
    if errors:
        raise Rejection(tuple(errors))
    full = {"game": base["game"], "players": base["players"], "rules": base["rules"], **inherited}
    full.update(game.match_fields(base["players"]))
    full.update(record)
    return full


GAME_MISMATCH = gettext_noop(
    "this match plays %(game)s, the record says %(given)s: leave out the record's game"
)
PLAYERS_MISMATCH = gettext_noop(
    "this match's players are %(expected)s, the record says %(given)s: leave out the "
    "record's players, or use the match's handles"
)


def _said(value: Any) -> str:
    """A record's value as a message quotes it: a list as its items, anything else as JSON."""
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)[:200]
    return json.dumps(value, ensure_ascii=False)[:200]


def add_deal(
    envelope: Mapping[str, Any], snapshot: Mapping[str, Any] | None, full: dict[str, Any]
) -> tuple[dict[str, Any], engine.NextDeal]:
    """``engine.add_deal`` of the completed record ``full``, and the record as the league
    stores it: cards written with symbols or in lower case (``"♠A"``) as their codes
    (``"SA"``), checked again in that form so that the kept progress is the stored one's."""
    step = engine.add_deal(envelope, snapshot, full)
    if step.result.valid and step.result.rewritten:
        full = engine.canonical(full, step.result)
        step = engine.add_deal(envelope, snapshot, full)
    return full, step


def passed_on(match: Match, previous: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What a deal after ``previous`` inherits besides its players in the games whose deals
    do not follow the match (who deals, where a game passes it on): only a full play
    depends on it, and the match's check gives it to each deal.  For checking such a deal
    alone as its match plays it (a correction), never stored: a summary would then
    depend on the deals before it, and deleting one would refuse the rest."""
    if engine.GAMES[match.game].deals_follow_the_match or not previous:
        return {}
    inherited = next_deal(match, previous)
    inherited.pop("players", None)
    return inherited


def checked_alone(full: dict[str, Any], passed: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The completed record ``full`` checked as one deal (with what the match ``passed`` on
    to it: :func:`passed_on`), in the form the league stores (cards as their codes); a
    :class:`Rejection` with the engine's errors."""
    result = engine.check({**(passed or {}), **full})
    if not result.valid:
        raise Rejection(problems(result.errors))
    return engine.canonical(full, result)
