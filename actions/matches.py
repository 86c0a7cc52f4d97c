"""Seating players at a new match: the dry run every form shows first, then the match
stored with its seats in one transaction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

import engine
from tournaments.errors import Rejection, error, problems
from tournaments.models import Match, Player, Seat, Table


def check_new_match(
    table: Table,
    game: str,
    players: Sequence[Player],
    *,
    rules: Mapping[str, Any] | None = None,
    target: int | None = None,
) -> None:
    """The dry run of :func:`create_match`: raise its :class:`Rejection`, write nothing."""
    errors: list[dict[str, str]] = []
    season = table.club_night.season
    if game not in engine.GAMES:
        raise Rejection(
            (error("unknown_game", "game", gettext_noop("unknown game %(game)s"), game=repr(game)),)
        )
    if game not in season.games:
        errors.append(
            error(
                "game_not_in_season",
                "game",
                gettext_noop("%(season)s does not count %(game)s"),
                season=season,
                game=game,
            )
        )
    for i, player in enumerate(players):
        if player.club_id != season.club_id:
            errors.append(
                error(
                    "not_a_member",
                    f"players[{i}]",
                    gettext_noop("%(player)s is not a player of %(club)s"),
                    player=player,
                    club=season.club,
                )
            )
    record: dict[str, Any] = {
        "game": game,
        "players": [p.handle for p in players],
        "rules": dict(rules or {}),
        "deals": [],
    }
    if target is not None:
        record["target"] = target
    errors.extend(problems(engine.check_match(record).errors))
    if errors:
        raise Rejection(tuple(errors))


def create_match(
    table: Table,
    game: str,
    players: Sequence[Player],
    *,
    rules: Mapping[str, Any] | None = None,
    target: int | None = None,
) -> Match:
    """Seat ``players`` (in order of play) at a new match of ``game``."""
    rules_of_game = engine.GAMES.get(game)
    if (
        target is None
        and rules_of_game is not None
        and rules_of_game.accepts_target
        and rules_of_game.default_target is None
    ):  # an open-ended game: the night's number of deals, if it has one
        target = table.club_night.deals_per_match
    check_new_match(table, game, players, rules=rules, target=target)
    with transaction.atomic():
        match = Match.objects.create(
            table=table,
            game=game,
            rules=dict(rules or {}),
            target=target if target is not None else engine.GAMES[game].default_target,
        )
        Seat.objects.bulk_create(
            Seat(match=match, player=player, position=i) for i, player in enumerate(players)
        )
    return match
